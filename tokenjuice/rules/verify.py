"""Check the catalogue: every rule file loads, and every example proves its rule.

An example passes when its command classifies to its own rule, every `keep`
string survives, every `drop` string is gone, the `expect_facts` counts match,
and every output line is explained by the input (see `unexplained_lines`).
Built-in examples run against the built-in catalogue alone, so a user's override
cannot make them fail; user and project examples run against everything in force.
"""

from __future__ import annotations

import re

from ..fast.record import record
from ..model import Execution
from ..reduce import shape, structured
from ..reduce.engine import Options, reduce
from ..reduce.lines import CLIP, MARKER_PATTERN
from ..reduce.reencode import bordered, decoded, readings, shows, squeeze, without_progress
from ..reduce.render import shown, shown_chars, text_of
from ..text import split_lines, strip_ansi
from . import loader
from .index import Catalogue
from .model import Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any

    from ..reduce.reencode import Reading

_EXIT_HEADER = re.compile(r"^exit -?\d+$")
#: The counts line over a body (`3 failed tests, 120 passed tests`): counts of what a
#: rule's counters name, words only (no `|`, `:` or `=`: a source line's gutter is no count).
_FACT = r"\d+ [A-Za-z][\w'./ -]*"
_FACTS_LINE = re.compile(rf"^{_FACT}(?:, {_FACT})*$")
_TRAILER = re.compile(r"^\(tokenjuice: .*\)$")
_MARKER = re.compile(MARKER_PATTERN)
_COMMIT_LINE = re.compile(r"^commit ([0-9a-f]{7,64})\b")


@record
class ExampleResult:
    """How one example fared."""

    rule_id: str
    name: str
    path: str
    errors: tuple[str, ...]
    raw_chars: int
    reduced_chars: int
    text: str  # the reduced output
    passthrough: str | None  # why the output was left whole, if it was
    widened: int = 0  # how many times the preservation guard widened the budget

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def ratio(self) -> float:
        return self.reduced_chars / self.raw_chars if self.raw_chars else 1.0

    def to_dict(self) -> dict[str, object]:
        return {
            "ruleId": self.rule_id,
            "name": self.name,
            "path": self.path,
            "ok": self.ok,
            "errors": self.errors,
            "rawChars": self.raw_chars,
            "reducedChars": self.reduced_chars,
            "ratio": self.ratio,
        }


class Report:
    """Everything `tokenjuice verify` found."""

    def __init__(self) -> None:
        self.rules: list[loader.LoadedRule] = []  # every valid rule file, all layers
        self.problems: list[loader.Problem] = []
        self.examples: list[ExampleResult] = []

    @property
    def errors(self) -> list[loader.Problem]:
        return [p for p in self.problems if p.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors and all(e.ok for e in self.examples)


def verify(
    cwd: str | None = None,
    *,
    run_examples: bool = True,
    only: str | None = None,
    progress: Callable[[list[Any]], Iterable[Any]] | None = None,
) -> Report:
    """Validate every layer; with `run_examples`, check the examples of the rules
    whose id starts with `only` (all rules when None), each through `progress`
    (what shows a person at a terminal how far it got) when given."""
    report = Report()
    roots = loader.layer_roots(cwd, untrusted=True)  # checked before it is trusted, never used until then
    from .. import trust

    project = trust.layer_for(cwd)
    if project is not None and not project.trusted and any(name == loader.PROJECT for name, _ in roots):
        changed = f" ({', '.join(project.changed)})" if project.changed else ""
        report.problems.append(
            loader.Problem(
                loader.PROJECT,
                project.directory,
                f"the project layer is {project.status}{changed}: its rules are checked "
                "here but not used; tokenjuice trust uses them",
                severity="notice",
            )
        )
    layers: dict[str, list[loader.LoadedRule]] = {}
    for layer, root in roots:
        loaded, problems = loader.load_layer(layer, root)
        report.rules += loaded
        report.problems += problems
        layers.setdefault(layer, []).extend(loaded)
    for rule in layers.get(loader.BUILTIN, []):
        if not rule.examples and (not only or rule.rule.id.startswith(only)):
            report.problems.append(
                loader.Problem(
                    rule.layer,
                    rule.path,
                    "examples: a built-in rule needs at least one [[examples]] entry with real output",
                )
            )
    if not only:
        report.problems += _never_wrap_problems(run_examples)
    if not run_examples:
        return report
    builtin_rules = Catalogue.of(_effective([r for r in report.rules if r.layer == loader.BUILTIN]))
    all_rules = Catalogue.of(_effective(report.rules))
    work = [
        (rule, example, builtin_rules if rule.layer == loader.BUILTIN else all_rules)
        for rule in report.rules
        if not only or rule.rule.id.startswith(only)
        for example in rule.examples
    ]
    for rule, example, catalogue in progress(work) if progress else work:
        report.examples.append(check_example(rule, example, catalogue))
    return report


def _never_wrap_problems(run_examples: bool) -> list[loader.Problem]:
    """The never-wrap catalogue (tokenjuice/shell/neverwrap/*.toml): it loads, and (`run_examples`)
    every example there is decided as it says."""
    from ..shell.neverwrap import schema as neverwrap_schema
    from .schema import RuleError

    try:
        _, tools = neverwrap_schema.load()
    except (RuleError, OSError, ValueError) as error:  # tomllib's errors are ValueErrors
        return [loader.Problem(loader.BUILTIN, neverwrap_schema.DATA_DIR, str(error))]
    if not run_examples:
        return []
    from ..shell.neverwrap.engine import why_not_wrapped
    from ..shell.syntax import split_words

    problems = []
    for tool, example in neverwrap_schema.examples(tools):
        got = why_not_wrapped(split_words(example.command), stdin_supplied=example.stdin) or ""
        if got != example.expect:
            message = f"never-wrap {tool}: {example.command!r} gives {got!r}, expected {example.expect!r}"
            problems.append(loader.Problem(loader.BUILTIN, neverwrap_schema.DATA_DIR, message))
    return problems


def _effective(loaded: list[loader.LoadedRule]) -> list[Rule]:
    effective: dict[str, Rule] = {}
    for rule in loaded:
        effective[rule.rule.id] = rule.rule
    return sorted(effective.values(), key=lambda r: (r.id == loader.FALLBACK_ID, r.id))


def check_example(rule: loader.LoadedRule, example: Example, catalogue: Catalogue) -> ExampleResult:
    rule_id = rule.rule.id
    execution = Execution(
        tool_name=example.tool_name,
        command=example.command,
        argv=example.argv or None,
        exit_code=example.exit_code,
        combined=example.output,
    )
    reduction = reduce(execution, catalogue, Options(hint="full output: tokenjuice cat 00000000"))
    text = text_of(reduction)
    errors = []
    matched = reduction.classification.rule.id
    if matched != rule_id:
        errors.append(f"classified as {matched}, not {rule_id}")
    if not example.keep and rule.layer == loader.BUILTIN and example.output.strip():
        errors.append("keep: list at least one fact the reduction must keep")
    readable = decoded(text)  # what a lossless re-encoding shows counts as shown
    errors += [
        f"keep: {snippet!r} is missing from the output" for snippet in example.keep if not shows(readable, snippet)
    ]
    errors += [f"drop: {snippet!r} is still in the output" for snippet in example.drop if shows(readable, snippet)]
    facts = reduction.facts or {}
    for name, expected in (example.expect_facts or {}).items():
        if name not in facts:
            errors.append(f"expect_facts: the rule has no counter named {name!r}")
        elif facts[name] != expected:
            errors.append(f"expect_facts: {name} is {facts[name]}, expected {expected}")
    for line in unexplained_lines(example.output, text, rule.rule)[:3]:
        errors.append(f"invented: output line {line!r} is not derived from the input")
    return ExampleResult(
        rule_id,
        example.name,
        rule.path,
        tuple(errors),
        reduction.raw_chars,
        shown_chars(reduction, text),
        text,
        reduction.passthrough,
        reduction.guard[2] if reduction.guard else 0,
    )


def unexplained_lines(raw_text: str, reduced_text: str, rule: Rule | None = None) -> list[str]:
    """Output lines that are neither input lines (or clipped input lines) nor one of
    tokenjuice's own: `exit N`, a counts line, an omission marker, the trailer, the
    rule's own `on_empty` / `match_output` message — or, for JSON input, record
    lines whose keys and values all come from the JSON (the `gh` formatter). A line in
    a lossless form is read as `decoded` reads it (`reencode.readings`): every line of
    the tool's it stands for must be an input line, and a heading of tokenjuice's (a
    folder, a file or a test file said once, the author of every commit) counts only
    where a line read under it does; else the line must be explained as it is."""
    stripped = strip_ansi(raw_text)
    input_lines = split_lines(stripped)
    input_lines += split_lines(shown(stripped))  # escaped and redacted, as everything shown is
    if "\r" in stripped:  # a redrawn line's final state, escaped once it has been picked
        input_lines += [shown(line) for line in split_lines(stripped)]
    if rule and not rule.transforms.strip_ansi:  # colour codes kept are shown escaped
        input_lines += split_lines(shown(raw_text))
    if rule and rule.transforms.pretty_print_json:
        from ..reduce.pipeline import pretty_json

        input_lines += split_lines(pretty_json(stripped))
    document = shape.document(stripped)
    if document is not None:
        input_lines += structured.indented(document) + structured.compact(document)
    vocabulary = _json_vocabulary(stripped)
    if vocabulary:
        input_lines += vocabulary[2]
    inputs = {line.strip() for line in input_lines}
    inputs |= {str(squeeze(line)).strip() for line in input_lines}  # padding shortened (reduce/engine.py)
    inputs |= {bordered(line).strip() for line in input_lines if "---" in line or "───" in line}  # and borders
    inputs |= {without_progress(line).strip() for line in input_lines if "%]" in line}  # in a list of verdicts
    if document is not None:  # a pruned document may move a member's comma
        inputs |= {line.strip().rstrip(",") for line in input_lines}
    messages = set()
    if rule:
        messages = {m.message for m in rule.match_output}
        if rule.on_empty:
            messages.add(rule.on_empty)
    hashes = [found.group(1) for found in map(_COMMIT_LINE.match, input_lines) if found]

    def printed(line: str) -> bool:
        """Is `line` (a line of the tool's a shown line stands for) an input line, as it
        is, its padding shortened or clipped in its middle?"""
        core = line.strip()
        return core in inputs or bool(CLIP.search(core) and _is_clipped_input(core, input_lines))

    def explained(line: str) -> bool:
        """Is the shown `line`, as it is, an input line or one of tokenjuice's own?"""
        core = line.strip()
        if not core or printed(core) or core in messages or (document is not None and core.rstrip(",") in inputs):
            return True
        if _EXIT_HEADER.match(core) or _FACTS_LINE.match(core) or _MARKER.match(core) or _TRAILER.match(core):
            return True
        if core.startswith("[tokenjuice: ") and core.endswith("]"):
            return True  # capture and signal notes that wrap itself put into the output
        if vocabulary and _is_json_record(core, vocabulary):
            return True
        if _is_short_commit(core, hashes, inputs) or structured.is_marker_line(core):
            return True
        return structured.is_outline_line(core, stripped) or (document is not None and _outlined(core, document))

    reduced = split_lines(reduced_text)
    failed = _failed(readings(reduced), printed)
    return [line for k, line in enumerate(reduced) if k in failed and not explained(line)]


def _failed(read: Iterable[Reading], printed: Callable[[str], bool]) -> set[int]:
    """The indexes of the shown lines whose reading (`reencode.readings`) does not check,
    each to be explained as it is: a line not every line of the tool's it stands for is
    `printed` (a line as it reads, with braces of its own, or else every line its brace
    list stands for); a heading of tokenjuice's no line read under it bears out (a folder
    over no path the tool printed, a file over no match of it, an author no commit of the
    log names)."""
    failed: set[int] = set()
    borne_out: set[int] = set()  # headings a line read under them checks
    for index, lines, under, heading, as_is in reversed(list(read)):  # the lines under a heading before it
        if heading:
            ok = index in borne_out
        elif as_is:
            ok = printed(lines[0]) or all(map(printed, lines[1:]))
        else:
            ok = all(map(printed, lines))
        if not ok:
            failed.add(index)
        elif under >= 0:
            borne_out.add(under)
    return failed


def _outlined(line: str, document: object) -> bool:
    """An element of a JSON document in one line of its compact form (reduce/structured.py
    cuts a document's compact form; its members are spelled `"key": value` there)."""
    import json

    return structured.is_outline_line(line, json.dumps(document, ensure_ascii=False))


def _is_short_commit(line: str, hashes: list[str], inputs: set[str]) -> bool:
    """A commit's short form: a prefix of its hash and its subject line (reduce/units.py)."""
    prefix, _, subject = line.partition(" ")
    return len(prefix) >= 7 and subject in inputs and any(h.startswith(prefix) for h in hashes)


def _is_clipped_input(line: str, input_lines: list[str]) -> bool:
    """A line clipped in its middle, from an input line as it is or with its padding
    shortened (reduce/reencode.py squeeze)."""
    head, tail = CLIP.split(line, maxsplit=1)
    for source in input_lines:
        for form in (source, str(squeeze(source))):
            if head in form and form.rstrip().endswith(tail):
                return True
    return False


def _json_vocabulary(text: str) -> tuple[set[str], set[str], list[str]] | None:
    """(keys, scalar values, lines of long string values) of a JSON document or JSON lines."""
    import json

    from ..reduce.gh import _parse

    data = _parse(text.splitlines())
    if data is None:
        return None
    keys: set[str] = set()
    values: set[str] = set()
    lines: list[str] = []
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            keys.update(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        elif isinstance(value, str):
            values.add(value)
            lines += value.splitlines()
        else:
            values.add(json.dumps(value))
    return keys, values, lines


def _is_json_record(line: str, vocabulary: tuple[set[str], set[str], list[str]]) -> bool:
    keys, values, _ = vocabulary
    if line.endswith(":") and line[:-1] in keys:
        return True
    for part in line.split(" | "):
        key, sep, value = part.partition(": ")
        if not sep or key not in keys:
            return False
        if value not in values and not all(v in values for v in value.split(", ")):
            return False
    return True
