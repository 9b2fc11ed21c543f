"""The rule format, declared once.

A rule file (TOML, or JSON in the TypeScript original's camelCase) maps onto these
frozen records (`record.py`) table by table: `[match]` is `Match`, `[filters]` is `Filters`,
and so on. Each field carries its own description, its default for our TOML rules
and for the original's JSON rules, its camelCase spelling and the constraints a
value must meet (see `spec`). Everything else about the format is derived from
these declarations by `schema.py`: validation with errors naming the field, the
canonical form cached for the hot path, the JSON Schema editors validate rule
files with (`tokenjuice schema rule`), the field reference in docs/rules.md, and
the specificity weights classification scores matches with.
"""

from __future__ import annotations

from ..fast.record import MISSING, Field, as_dict, field, fields, record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# Kinds of value a field holds; `schema.py` knows how to check and convert each.
TEXT = "text"  # a string (non-empty unless `allow_empty`)
FLAG = "flag"  # true or false
COUNT = "count"  # a non-negative integer
NUMBER = "number"  # a finite number
WORDS = "words"  # a list of non-empty strings
PATTERNS = "patterns"  # a list of regular expressions, compiled when the rule loads
PATTERN = "pattern"  # one regular expression
FLAGS = "flags"  # regular-expression flag letters
GLOBS = "globs"  # a list of tool-name globs (`*` any run of characters, `?` one)
WORD_GROUPS = "word-groups"  # a non-empty list of non-empty lists of non-empty strings
CHOICE = "choice"  # one of `choices`
COUNTS = "counts"  # a table of names to non-negative integers
TABLE = "table"  # a nested table: the field's default is a `table_type()`
TABLES = "tables"  # an array of tables of `table_type`

PATTERN_FLAGS = "imsx"
FORMATTERS = ("git-diff", "search", "gh")
#: What a rule may have said once (`transforms.said_once`, reduce/reencode.py).
SAID_ONCE_KINDS = ("author", "test-file", "diff-path", "extension")
#: Kinds of noise found in many tools' output, declared once (reduce/noise.py).
NOISE_KINDS = (
    "git-advice",
    "npm-chatter",
    "pip-satisfied",
    "pytest-header",
    "diff-index",
    "diff-names",
    "compiler-notes",
    "cargo-built",
    "clean-compiles",
    "pytest-library-source",
    "download-progress",
    "pyright-update",
    "blank-lines",
    "doctest-passed",
)
#: What an output can be made of; reduce/units.py has a parser for each.
UNITS = ("path", "commit", "diff-file", "match-file", "row", "dir", "test", "finding", "record", "traceback")
COUNTER_SOURCES = ("post_keep", "pre_keep", "pre_skip")
#: The characters of a tool-name glob: a host's tool names (`mcp__github__list_issues`,
#: `fs-search_files`, `Grep`) and the wildcards `*` and `?`.
GLOB_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:*?")


def spec(
    kind: str,
    doc: str,
    default: Any = MISSING,
    *,
    json_default: Any = MISSING,
    camel: str | None = None,
    required: bool = False,
    allow_empty: bool = False,
    non_empty: bool = False,
    choices: tuple[Any, ...] = (),
    camel_choices: dict[str, str] | None = None,
    minimum: int | None = None,
    table_type: str | None = None,
    score: int = 0,
    label: str = "",
    joiner: str = "/",
) -> Any:
    """A record field with its place in the rule format.

    `json_default` is the original's default for its JSON rules (when it differs);
    `score` is the specificity a `[match]` key adds in classification, `label` and
    `joiner` how the generated docs describe it."""
    metadata = {
        "kind": kind,
        "doc": doc,
        "json_default": json_default,
        "camel": camel,
        "required": required,
        "allow_empty": allow_empty,
        "non_empty": non_empty,
        "choices": choices,
        "camel_choices": camel_choices or {},
        "minimum": minimum,
        "table_type": table_type,
        "score": score,
        "label": label,
        "joiner": joiner,
    }
    return field(default=default, metadata=metadata)


@record
class Match:
    """`[match]`: every key given must hold; an empty table matches everything."""

    argv0: tuple[str, ...] = spec(
        WORDS,
        "The command's first word, or its basename, is one of these.",
        (),
        non_empty=True,
        score=100,
        label="argv0",
    )
    git_subcommands: tuple[str, ...] = spec(
        WORDS,
        "For git: the subcommand after global options (-C, -c, --no-pager…) is one of these.",
        (),
        camel="gitSubcommands",
        non_empty=True,
        score=60,
        label="git subcommand",
    )
    subcommands: tuple[str, ...] = spec(
        WORDS,
        "The word naming what the tool was asked to do (after known global options) is one of these.",
        (),
        non_empty=True,
        score=60,
        label="subcommand",
    )
    argv_includes: tuple[tuple[str, ...], ...] = spec(
        WORD_GROUPS,
        "Every group: all its words appear in argv.",
        (),
        camel="argvIncludes",
        score=40,
        label="args include",
        joiner=" and ",
    )
    argv_includes_any: tuple[tuple[str, ...], ...] = spec(
        WORD_GROUPS,
        "At least one group appears in full in argv.",
        (),
        camel="argvIncludesAny",
        score=35,
        label="args include",
        joiner=" or ",
    )
    command_includes: tuple[str, ...] = spec(
        WORDS,
        "Every string appears in the command text (word boundaries respected).",
        (),
        camel="commandIncludes",
        non_empty=True,
        score=25,
        label="command has",
        joiner=" and ",
    )
    command_includes_any: tuple[str, ...] = spec(
        WORDS,
        "At least one string appears in the command text.",
        (),
        camel="commandIncludesAny",
        non_empty=True,
        score=20,
        label="command has",
        joiner=" or ",
    )
    tool_names: tuple[str, ...] = spec(
        WORDS,
        "The host tool that ran it is one of these (wrap says exec).",
        (),
        camel="toolNames",
        non_empty=True,
        score=10,
        label="tool",
    )
    tool: tuple[str, ...] = spec(
        GLOBS,
        "A host tool that runs no shell command (an MCP tool as `mcp__<server>__<tool>`, Claude Code's "
        "`Grep`): its name matches one of these globs (`*` any run of characters, `?` one). Such a rule "
        "never matches a shell command; the glob with the most characters besides wildcards wins, and a rule "
        "whose `output` patterns also match a line of the result wins over one without.",
        (),
        non_empty=True,
        score=100,
        label="tool",
        joiner=" or ",
    )
    output: tuple[str, ...] = spec(
        PATTERNS,
        "When the command names no tool of its own (make, just, npm run, a script) and nothing more specific "
        "matched: one of these matches a line among the output's first or last 40 (a pytest session header, "
        "a cargo `test result:` line). Several rules: the higher priority, then a test runner, then the earliest "
        "hit wins. An exact read too big to show (`cat apply.log`) that a rule recognises so is cut with that "
        "rule's noise, trim and pin patterns.",
        (),
        non_empty=True,
        score=0,
        label="output has",
        joiner=" or ",
    )
    any_of: tuple[Match, ...] = spec(
        TABLES,
        "Alternatives: at least one of these match tables holds.",
        (),
        camel="anyOf",
        non_empty=True,
        table_type="Match",
        label="any of",
    )


@record
class Filters:
    """`[filters]`: which lines go, which stay, which must survive every cut."""

    skip_patterns: tuple[str, ...] = spec(PATTERNS, "Drop lines matching any of these.", (), camel="skipPatterns")
    keep_patterns: tuple[str, ...] = spec(
        PATTERNS, "Then keep only lines matching any of these (if none matches, keep all).", (), camel="keepPatterns"
    )
    keep_under: tuple[str, ...] = spec(
        PATTERNS,
        "Lines right under a line the rule keeps (`keep_patterns`) or pins (`pin_patterns`), or under each "
        "other, that match any of these stay with it as what it is about: kept, never trimmed, pinned with a "
        "pinned line (a compiler's quoted source line under its error, not the library's under the notes "
        "that go).",
        (),
        camel="keepUnder",
    )
    trim_patterns: tuple[str, ...] = spec(
        PATTERNS,
        "Content worth least (source excerpts, context): shown while the output fits the information budget, "
        "dropped before anything else when it does not.",
        (),
        camel="trimPatterns",
    )
    pin_patterns: tuple[str, ...] = spec(
        PATTERNS,
        "Lines that carry a failure's reason: they survive head/tail cuts and the size budget.",
        (),
        camel="pinPatterns",
    )
    flood_patterns: tuple[str, ...] = spec(
        PATTERNS,
        "Lines that come by the hundred saying the same of another place each (find's `Permission denied`): "
        "the first few are shown, the rest dropped like skip patterns, so they never crowd out what was asked "
        'for; count them with `counter_source = "pre_skip"`.',
        (),
        camel="floodPatterns",
    )
    listing_patterns: tuple[str, ...] = spec(
        PATTERNS,
        "Lines that list what went well, one item a line (a passing test with its verdict): noise dropped like "
        "skip patterns, unless the command asked for them with a `detail_flags` word; then content, shown whole "
        "while it fits and re-encoded losslessly (a file's ids in one brace list).",
        (),
        camel="listingPatterns",
    )
    detail_flags: tuple[str, ...] = spec(
        PATTERNS,
        "Words of the command that ask for detail (`^-v+$`, `^--verbose$`): with one, `listing_patterns` lines "
        "are content.",
        (),
        camel="detailFlags",
    )
    noise: tuple[str, ...] = spec(
        WORDS,
        "Named kinds of noise the engine knows and drops like skip patterns (see reduce/noise.py): "
        + ", ".join(NOISE_KINDS)
        + ".",
        (),
        choices=NOISE_KINDS,
    )


@record
class Transforms:
    """`[transforms]`: how the text is prepared before filtering."""

    strip_ansi: bool = spec(
        FLAG, "Remove terminal colours and escape sequences.", True, json_default=False, camel="stripAnsi"
    )
    pretty_print_json: bool = spec(FLAG, "Re-indent output that is one JSON document.", False, camel="prettyPrintJson")
    dedupe_adjacent: bool = spec(
        FLAG,
        "Collapse runs of identical lines (three or more leave a marker); the lines of a unified diff's"
        " hunks are no repeats (`+` twice adds two lines).",
        True,
        json_default=False,
        camel="dedupeAdjacent",
    )
    trim_empty_edges: bool = spec(
        FLAG, "Drop blank lines at the start and the end.", True, json_default=False, camel="trimEmptyEdges"
    )
    squeeze_padding: bool = spec(
        FLAG,
        "Shorten runs of three or more spaces between words (a terminal's column padding) to two and rules drawn "
        "to the terminal's width (eight or more `_`, `=`, `-`, box lines, not a table's border between junctions) "
        "to three, and lay a pretty-printed JSON document out with its small containers on one line, where that "
        "saves enough; false for outputs that quote source text (matches, diffs, blame), whose spaces are the "
        "code's and must stay exact for an edit.",
        True,
        camel="squeezePadding",
    )
    said_once: tuple[str, ...] = spec(
        WORDS,
        "What every unit repeats, said once where that saves enough (`decoded` and `verify` read it back): "
        "`author`, the `Author:` line every commit of a log shares, said on top (`Author of every commit: "
        "Name <mail>`) instead of under each `commit <hash>` line; `test-file`, the file a run of lines naming "
        "tests shares (a summary's `FAILED`/`ERROR` lines, -v verdict lines), said once over their ids "
        "(`FAILED tests/a.py::` then `  test_b - …`); `diff-path`, the path a `diff --git a/P b/P` line says "
        "twice, said once (`diff --git {a,b}/P`) whether the diff is cut or not; `extension`, the extension "
        "every name of a folder's brace list shares, said once after it (`src/{a,b}.py`).",
        (),
        choices=SAID_ONCE_KINDS,
        camel="saidOnce",
    )


@record
class Summarize:
    """`[summarize]`: what a successful run keeps."""

    head: int = spec(COUNT, "Lines kept from the start.", 8, json_default=6)
    tail: int = spec(COUNT, "Lines kept from the end.", 8, json_default=6)
    max_chars: int = spec(
        COUNT,
        "Size budget of the result, in characters; 0: the information budget "
        "(settings output.max_chars, per family in output.family_max_chars).",
        0,
        camel="maxChars",
        minimum=200,
    )
    budget_scale: float = spec(
        NUMBER,
        "The information budget times this, for an output that is nearly all content (a diff's changed lines: "
        "2); a positive number, 1 by default; a family's own settings entry and `max_chars` are taken as they are.",
        1,
        camel="budgetScale",
    )
    budget: str = spec(
        CHOICE,
        "Which information budget a run that succeeded gets: `success`, `failure` for an output whose every "
        "line is what the agent asked for (a search's matches), or `bounded` for one the agent chose row by row "
        "(a query's result: its SELECT and WHERE pick the rows), shown whole up to the cap of output the agent "
        "bounded itself (32 KiB) as `| head -N`'s is, cut at the larger of that and the failure budget past "
        "it; a family's own settings entry is taken as it is.",
        "success",
        choices=("success", "failure", "bounded"),
    )
    fill: bool = spec(
        FLAG,
        "Whether a budget wider than `head` and `tail` lines is spent on the lines between them, pinned lines "
        "first, then from both ends inwards (successes and failures alike); false for a list that only echoes "
        "the work done, an item a line (zip's `adding:`), whose start, end and count say enough.",
        True,
    )
    guard: bool = spec(
        FLAG,
        "Whether the preservation guard may widen the budget of a run that succeeded to keep what a failure is "
        "made of (error lines, failing test ids, counts); false for documentation the agent asked for (`--help` "
        "text), whose prose mentions errors and counts (`at least 2 tests are`) that are no failure's.",
        True,
    )


@record
class Failure:
    """`[failure]`: what a failed run (exit code not 0) keeps."""

    preserve_on_failure: bool = spec(
        FLAG,
        "Use these numbers for failures (false: use [summarize]).",
        True,
        json_default=False,
        camel="preserveOnFailure",
    )
    head: int = spec(COUNT, "Lines kept from the start of a failure.", 12, json_default=6)
    tail: int = spec(COUNT, "Lines kept from the end of a failure.", 16, json_default=12)
    max_chars: int = spec(
        COUNT,
        "Size budget when the command failed; 0: the information budget for failures "
        "(settings output.failure_max_chars, per family in output.family_max_chars).",
        0,
        camel="maxChars",
        minimum=200,
    )
    budget_scale: float = spec(
        NUMBER,
        "The information budget for failures times this; a positive number, 1 by default.",
        1,
        camel="budgetScale",
    )


@record
class Counter:
    """`[[counters]]`: lines counted into the facts (`{"failed test": 2}`)."""

    name: str = spec(TEXT, "What is counted, a singular noun (`failed test`).", required=True)
    pattern: str = spec(
        PATTERN,
        "Lines matching this are counted; with a `(?P<count>…)` group the numbers it captures are added up "
        "instead, so a tool's own summary line (`1 failed, 3 passed in 0.1s`) gives the count.",
        required=True,
    )
    flags: str = spec(FLAGS, "Any of i, m, s, x.", "")


@record
class OutputMatch:
    """`[[match_output]]`: a whole-output test; the first hit replaces the output."""

    pattern: str = spec(PATTERN, "Searched in the whole (filtered) output.", required=True)
    message: str = spec(TEXT, "What the output is replaced with.", required=True)
    flags: str = spec(FLAGS, "Any of i, m, s, x.", "")


@record
class Example:
    """`[[examples]]`: a real run that proves the rule (TOML rules only)."""

    command: str = spec(
        TEXT,
        "The command as the agent ran it (empty for a host tool that runs no command, with its `tool_name`).",
        required=True,
        allow_empty=True,
    )
    output: str = spec(
        TEXT, "The real output, verbatim (stdout and stderr as interleaved).", required=True, allow_empty=True
    )
    source: str = spec(
        TEXT,
        "Where the output comes from: `captured: <tool version> on <OS>` or `published: <repository> <path>`.",
        required=True,
    )
    name: str = spec(TEXT, "A short name (default: the command).", "")
    argv: tuple[str, ...] = spec(WORDS, "The argv, when the command was not run through a shell.", (), non_empty=True)
    tool_name: str = spec(TEXT, "The host tool that ran it.", "exec")
    exit_code: int = spec(NUMBER, "The command's exit code.", 0)
    keep: tuple[str, ...] = spec(WORDS, "Strings the reduced output must contain.", ())
    drop: tuple[str, ...] = spec(WORDS, "Strings the reduced output must not contain.", ())
    expect_facts: dict[str, int] | None = spec(COUNTS, "Expected counter values.", None)


@record
class Rule:
    """One reducer rule. `id`, `ascii`, `layer` and `path` come from where the file
    lives, not from its content."""

    family: str = spec(TEXT, "What kind of output this is (`test-results`, `git-status`…).", required=True)
    description: str = spec(TEXT, "What the rule keeps, in one sentence.", "", allow_empty=True)
    priority: float = spec(NUMBER, "Each point outweighs any specificity (x1000).", 0)
    match: Match = spec(TABLE, "Which commands the rule applies to.", Match(), required=True, table_type="Match")
    filters: Filters = spec(TABLE, "Lines to drop, keep and pin.", Filters(), table_type="Filters")
    transforms: Transforms = spec(TABLE, "Text preparation.", Transforms(), table_type="Transforms")
    summarize: Summarize = spec(TABLE, "Head, tail and budget for successes.", Summarize(), table_type="Summarize")
    failure: Failure = spec(TABLE, "Head, tail and budget for failures.", Failure(), table_type="Failure")
    counters: tuple[Counter, ...] = spec(TABLES, "Facts counted from the lines.", (), table_type="Counter")
    counter_source: str = spec(
        CHOICE,
        "Count after keep filtering (`post_keep`), after skipping but before keeping (`pre_keep`), or "
        "before any filter (`pre_skip`).",
        "post_keep",
        camel="counterSource",
        choices=COUNTER_SOURCES,
        camel_choices={"postKeep": "post_keep", "preKeep": "pre_keep", "preSkip": "pre_skip"},
    )
    on_empty: str | None = spec(TEXT, "Printed when no line survives the filters.", None, camel="onEmpty")
    match_output: tuple[OutputMatch, ...] = spec(
        TABLES,
        "Whole-output tests whose message replaces the output.",
        (),
        camel="matchOutput",
        table_type="OutputMatch",
    )
    unit: str | None = spec(
        CHOICE,
        "What the output is made of; cuts fall between units, never inside one: `path` (git status), `commit`, "
        "`diff-file`, `match-file` (grep, rg), `row` (tables; a query's rows shown from both ends and spread "
        "between), `dir` (find, ls -R), `test` (test runners), `finding` (linters and type checkers), `record` "
        "(logs), `traceback` (a program's output: each Python traceback, chained ones with it, is one unit among "
        "its other lines).",
        None,
        choices=UNITS,
    )
    formatter: str | None = spec(
        CHOICE, "A structure-aware step: `search`, `git-diff` or `gh`.", None, choices=FORMATTERS
    )
    id: str = ""
    ascii: bool = False  # JavaScript's ASCII meaning of \d, \w and \b (the original's JSON rules)
    layer: str = "builtin"
    path: str = ""

    @property
    def trusted(self) -> bool:
        """Built-in patterns are ours and take the fast path (see patterns.py)."""
        return self.layer == "builtin"


TABLE_TYPES: dict[str, type] = {
    cls.__name__: cls for cls in (Match, Filters, Transforms, Summarize, Failure, Counter, OutputMatch, Example, Rule)
}
#: Rule fields that do not come from the file's content.
LOCATION_FIELDS = frozenset({"id", "ascii", "layer", "path"})


class MatchEntry:
    """What classification reads of a rule (the small index loaded on every wrap).

    Not a record: its `match` table is built on first use from the index's data.
    Classification passes over a rule whose `argv0` names another program without
    looking at the rest, so a wrap builds a few of the ~160 tables, not all (building
    them all cost ~1 ms on every command)."""

    __slots__ = (
        "_data",
        "_match",
        "argv0",
        "family",
        "id",
        "output",
        "output_literals",
        "priority",
        "tool",
        "trusted",
    )

    def __init__(
        self,
        id: str,
        family: str,
        priority: float,
        match: Match | None = None,
        trusted: bool = True,
        output_literals: tuple[str, ...] = (),
        *,
        data: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.family = family
        self.priority = priority
        #: A built-in rule: its patterns take the fast path (see rules/patterns.py).
        self.trusted = trusted
        #: For each `match.output` pattern, text every line it matches contains ("" when
        #: none is sure): output sniffing compiles only the patterns whose text is there.
        self.output_literals = output_literals
        self._match = match
        self._data = data or {}
        #: The programs `match.argv0` names (empty: any), and its output patterns.
        self.argv0 = frozenset(match.argv0 if match is not None else self._data.get("argv0", ()))
        self.output: tuple[str, ...] = match.output if match is not None else tuple(self._data.get("output", ()))
        #: The tool-name globs of a rule for host tools that run no command (empty: a command's rule).
        self.tool: tuple[str, ...] = match.tool if match is not None else tuple(self._data.get("tool", ()))

    @property
    def match(self) -> Match:
        if self._match is None:
            self._match = from_canonical(Match, self._data)
        return self._match

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MatchEntry):
            return NotImplemented
        mine = (self.id, self.family, self.priority, self.match, self.trusted, self.output_literals)
        return mine == (other.id, other.family, other.priority, other.match, other.trusted, other.output_literals)

    def __hash__(self) -> int:
        return hash((self.id, self.family, self.priority))

    def __repr__(self) -> str:
        return f"MatchEntry(id={self.id!r}, family={self.family!r}, priority={self.priority!r})"


# -- the canonical form: plain JSON-able data, as the catalogue index stores it -----------
# `to_canonical` turns a validated `Rule` into lists and dicts; `from_canonical` turns them
# back into records without validating again (they were validated when the index was
# written), so that `wrap`, which reads the index on every command, never loads the
# validator (schema.py).


def table_type(field: Field) -> type:
    """The record type of a `TABLE` or `TABLES` field."""
    return TABLE_TYPES[field.metadata["table_type"]]


def to_canonical(rule: Rule) -> dict[str, Any]:
    """The rule as plain JSON-able data (tuples become lists)."""
    result: dict[str, Any] = as_dict(rule)
    return result


def from_canonical(cls: type[Any], data: dict[str, Any]) -> Any:
    """Rebuild a record from `to_canonical` data (or the same without its empty
    fields), trusting it: it was validated when the cache was written, and the
    hot path pays no validation."""
    converters = _CONVERTERS.get(cls) or _converters(cls)
    return cls(**{key: converters[key](value) for key, value in data.items() if key in converters})


_CONVERTERS: dict[type, dict[str, Callable[[Any], Any]]] = {}


def _converters(cls: type) -> dict[str, Callable[[Any], Any]]:
    """How each field of `cls` is rebuilt from JSON data."""
    converters: dict[str, Callable[[Any], Any]] = {}
    for entry in fields(cls):
        kind = entry.metadata.get("kind")
        if kind == TABLE:
            converters[entry.name] = _table_converter(table_type(entry))
        elif kind == TABLES:
            converters[entry.name] = _tables_converter(table_type(entry))
        elif kind == WORD_GROUPS:
            converters[entry.name] = lambda value: tuple(map(tuple, value))
        elif kind in (WORDS, PATTERNS, GLOBS):
            converters[entry.name] = tuple
        else:
            converters[entry.name] = _same
    _CONVERTERS[cls] = converters
    return converters


def _table_converter(table: type) -> Callable[[Any], Any]:
    return lambda value: from_canonical(table, value)


def _tables_converter(table: type) -> Callable[[Any], Any]:
    return lambda value: tuple(from_canonical(table, item) for item in value)


def _same(value: Any) -> Any:
    return value


def compact(data: Any) -> Any:
    """Canonical data without its empty lists (they are the defaults)."""
    if isinstance(data, dict):
        return {key: compact(value) for key, value in data.items() if value != []}
    if isinstance(data, list):
        return [compact(item) for item in data]
    return data
