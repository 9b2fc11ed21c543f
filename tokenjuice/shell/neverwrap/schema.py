"""The never-wrap catalogue's format, declared once, and everything derived from it.

tokenjuice/shell/neverwrap/*.toml say, per tool, which subcommands, flags and missing operands
make a command endless, terminal-bound or detached. The records below declare that format
with `rules.model.spec` fields, as the reducer rules' format is declared; from them come
the validation (errors name the file and the field), the JSON Schema
(docs/neverwrap.schema.json), and the compiled literal module the hook reads
(tokenjuice/shell/neverwrap/data.py: no TOML parsing on the hot path).

    python -m tokenjuice.shell.neverwrap.schema   # validate, rebuild data.py, more.py and the schema

Each entry's `examples` (a command and the reason expected, "" for wrapped) are checked by
the tests and by `tokenjuice verify` (rules/verify.py: this module never imports the engine).
"""

from __future__ import annotations

import json
import marshal
import os
import sys

from ...fast import record
from ...fast.record import record as _record
from ...rules.model import CHOICE, COUNT, FLAG, TABLE, TABLES, TEXT, WORD_GROUPS, WORDS, spec
from ...rules.schema import RuleError, _Checker, _object_schema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
DATA_DIR = HERE
LITERAL = os.path.join(HERE, "data.py")  # core.toml's entries, the index, the generic tables
MORE = os.path.join(HERE, "more.py")  # the other files' entries
SUB_MODES = ("first", "operand", "options", "scanned", "words", "leading", "self")
CALLS = (
    "run-script",
    "test-watch",
    "after-options",
    "script-or-bin",
    "script-name",
    "bun-run",
    "task-script",
    "task-runner",
    "check-rest",
    "run-after-options",
    "run-after-operand",
    "as-tool",
    "interval",
    "man",
    "sqlite",
    "ssh",
    "docker",
    "compose",
    "compose-command",
    "gcloud",
    "terraform",
    "kubectl-exec",
    "login",
    "subcommand",
)
MAX_SUBS_DEPTH = 3
TESTS = ("scripted-editor", "scripted-sequence-editor", "yes", "own-command")


def _words(doc: str) -> Any:
    return spec(WORDS, doc, (), non_empty=True)


def _text(doc: str) -> Any:
    return spec(TEXT, doc, None)


def _count(doc: str) -> Any:
    return spec(COUNT, doc, None)


@_record
class Example:
    """`examples`: a command and the decision the catalogue must give it."""

    command: str = spec(TEXT, "The command line, as an agent would run it.", required=True)
    expect: str = spec(
        TEXT,
        'The reason given (`dev server (npm run dev)`), or "" when it is wrapped.',
        required=True,
        allow_empty=True,
    )
    stdin: bool = spec(FLAG, "Its standard input is a pipe or a file (`… | cmd`).", False)


@_record
class Case:
    """`cases`: every condition given must hold; the first case that holds decides.

    A case's reason names the tool as `{name}`, the entry's first word as `{cmd}` (a
    subcommand's entry: the subcommand), the subcommand as `{sub}`, the first of its
    `has`/`on` flags given as `{flag}`, the leading words as `{words}` (`{words2}`: two)."""

    tool: tuple[str, ...] = _words("The program is one of these (an entry naming several).")
    sub: tuple[str, ...] = _words("The subcommand (found by the entry's `sub` mode) is one of these.")
    no_sub: bool = spec(FLAG, "There is (false) or is not (true) a subcommand.", None)
    sub_suffix: tuple[str, ...] = _words("The subcommand ends with one of these (`credentials:edit`).")
    words: tuple[tuple[str, ...], ...] = spec(WORD_GROUPS, "The leading words start with one of these groups.", ())
    words_end: tuple[tuple[str, ...], ...] = spec(WORD_GROUPS, "The leading words end with one of these groups.", ())
    words_max: int = _count("At most this many leading words.")
    rest: tuple[tuple[str, ...], ...] = spec(WORD_GROUPS, "The words after the subcommand start with one of these.", ())
    rest_min: int = _count("At least this many words after the subcommand.")
    rest_max: int = _count("At most this many words after the subcommand.")
    has: tuple[str, ...] = _words("One of these options is given (read the getopt way: `-fn 20` has -f).")
    and_has: tuple[str, ...] = _words("And one of these options is given.")
    all: tuple[str, ...] = _words("Every one of these options is given.")
    lacks: tuple[str, ...] = _words("None of these options is given.")
    on: tuple[str, ...] = _words("One of these options is given and not switched off (`--watch`, not `--watch=false`).")
    off: tuple[str, ...] = _words("One of these options is switched off (`--watch=false`).")
    value: tuple[str, ...] = _words("`option=value`: the option is given with exactly this value (`-p=`: `-p` alone).")
    value_starts: tuple[str, ...] = _words("`option=prefix`: the option's value starts with the prefix.")
    args_any: tuple[str, ...] = _words("One of these words is an argument, as written.")
    args_all: tuple[str, ...] = _words("Every one of these words is an argument, as written.")
    args_none: tuple[str, ...] = _words("None of these words is an argument.")
    starts_any: tuple[str, ...] = _words("An argument starts with one of these.")
    ends_any: tuple[str, ...] = _words("An argument that is not an option ends with one of these.")
    operand_ends: tuple[str, ...] = _words("An operand (not an option's value) ends with one of these.")
    operand_contains: tuple[str, ...] = _words("An operand contains one of these.")
    operands_min: int = _count("At least this many operands (with `stop`: words from the first operand on).")
    operands_max: int = _count("At most this many operands.")
    options_only: bool = spec(FLAG, "Every argument is (true) or is not (false) an option.", None)
    args_min: int = _count("At least this many arguments.")
    args_max: int = _count("At most this many arguments.")
    stdin: bool = spec(FLAG, "Standard input is a pipe or file (true) or the terminal (false).", None)
    env: tuple[str, ...] = _words(
        "One of these variables is set, and not to a false value, in the command (`CI=1 vitest`)."
    )
    test: str | None = spec(CHOICE, "A named Python test holds (predicates.py's `TESTS`).", None, choices=TESTS)
    unless: str | None = spec(CHOICE, "A named Python test does not hold.", None, choices=TESTS)
    short: str | None = _text("Read options for this case with these short options taking a value.")
    long: tuple[str, ...] = _words("… and these long options taking a value.")
    attached: str | None = _text("… and these short options taking only the rest of their word.")
    stop: bool = spec(FLAG, "… stopping at the first operand.", None)
    after_sub: bool = spec(FLAG, "… from the word after the subcommand.", None)
    # `from` is a Python keyword: the field is `start`, spelled `from` in the files
    start: int = spec(COUNT, "… from this word (`from` in the files; 1: the first argument).", None)
    endless: str | None = _text("Decision: it runs until stopped; the reason.")
    terminal: str | None = _text("Decision: it needs the terminal; the reason.")
    detached: str | None = _text("Decision: it leaves a process behind; the reason.")
    wrap: bool = spec(FLAG, "Decision: it is wrapped (no later case is read).", None)
    call: str | None = spec(
        CHOICE, "Decision: a named Python predicate decides (predicates.py's `CALLS`).", None, choices=CALLS
    )
    values: tuple[str, ...] = _words("Words the predicate of `call` reads (options taking a value, a tool).")
    skip: int = _count("For `check-rest`: words to skip after the subcommand.")
    base: bool = spec(FLAG, "For `as-tool`: only when the subcommand's file name is the tool.", None)


@_record
class Tool:
    """`[[tool]]`: one tool (or several that behave alike), or `[[tool.subs]]`: one subcommand's entry."""

    names: tuple[str, ...] = spec(
        WORDS, "The program names (the subcommands, for a `subs` entry).", required=True, non_empty=True
    )
    sub: str | None = spec(
        CHOICE, "How the subcommand is found: " + ", ".join(SUB_MODES) + ".", None, choices=SUB_MODES
    )
    sub_values: tuple[str, ...] = _words("Options before the subcommand that take a value.")
    global_values: str | None = _text("… and argv.py's GLOBAL_VALUE_OPTIONS of this tool.")
    window: int = _count("`words`: how many words after the program to look at; `leading`: how many words to take.")
    lower: bool = spec(FLAG, "`scanned`: the subcommand is compared in lower case.", None)
    short: str | None = _text("Short options taking a value (`-n 20`, `-n20`).")
    long: tuple[str, ...] = _words("Long options taking a value (`--lines 20`).")
    attached: str | None = _text("Short options taking only the rest of their word (`-pSECRET`).")
    stop: bool = spec(FLAG, "Options end at the first operand (what follows is a script, a command).", None)
    start: int = spec(COUNT, "Options are read from this word (`from` in the files).", None)
    cases: tuple[Case, ...] = spec(TABLES, "Read first, in order.", (), table_type="Case")
    subs: tuple[Tool, ...] = spec(
        TABLES, "The subcommands' own entries, read with [subcommand, …].", (), table_type="Tool"
    )
    examples: tuple[Example, ...] = spec(TABLES, "Commands and the decision expected.", (), table_type="Example")


@_record
class Generic:
    """`[generic]`: what applies to every tool: words, and tools without an entry of their own."""

    false_values: tuple[str, ...] = _words("Values that switch an option off (`--watch=false`).")
    editors: tuple[str, ...] = _words("Editors (`GIT_EDITOR=vim` opens one; `GIT_EDITOR=true` does not).")
    pagers: tuple[str, ...] = _words("Pagers (`man -P cat` opens none).")
    more_shells: tuple[str, ...] = _words("Shells besides argv.py's SHELLS.")
    extra_wrappers: tuple[str, ...] = _words("Wrappers besides argv.py's WRAPPERS.")
    dashdash_runners: tuple[tuple[str, ...], ...] = spec(
        WORD_GROUPS, "Runners whose command follows `--`: [tool, its run subcommands…].", ()
    )
    short_w_watch: tuple[str, ...] = _words("Tools whose `-w` means watch.")
    serve_verbs: tuple[str, ...] = _words("`<tool> serve <verb>` manages a server rather than running one.")
    server_subcommand: tuple[str, ...] = _words("Tools whose `server` or `s` subcommand runs a server.")
    start_subcommands: tuple[tuple[str, ...], ...] = spec(WORD_GROUPS, "[tool, subcommands that run a server…].", ())
    no_generic: tuple[str, ...] = _words(
        "Tools read only by their entry (no generic `--watch`/`dev`/`login`); argv.py's runners too."
    )
    operand_tools: tuple[str, ...] = _words(
        "Tools whose first argument is a file or host, not a subcommand (`ls dev`)."
    )
    login_ok: tuple[str, ...] = _words("Options of `<tool> login` that give the credentials.")
    login_values: tuple[str, ...] = _words("Options of `<tool> login` that take a value.")
    login_operand: tuple[str, ...] = _words("Tools whose `login <argument>` is the token itself.")
    dev_script_heads: tuple[str, ...] = _words("Package scripts named so (or `<x>:dev`…) run until stopped.")
    one_shot_heads: tuple[str, ...] = _words("… unless a part names a one-shot step (`build:dev`).")
    docker_groups: tuple[str, ...] = _words("docker's command groups (`docker container run`).")


@_record
class Catalogue:
    """A never-wrap file: `[generic]` (core.toml only) and `[[tool]]` entries."""

    generic: Generic | None = spec(TABLE, "What applies to every tool.", None, table_type="Generic")
    tool: tuple[Tool, ...] = spec(TABLES, "The tools.", (), table_type="Tool")


TYPES: dict[str, type] = {cls.__name__: cls for cls in (Example, Case, Tool, Generic, Catalogue)}


class _Check(_Checker):
    """rules.schema's checker, with this format's record types and the `from` spelling."""

    def __init__(self) -> None:
        super().__init__(False, None)

    def table(self, cls: type, data: object, prefix: str) -> dict[str, Any]:
        if isinstance(data, dict) and "from" in data:
            data = {("start" if key == "from" else key): value for key, value in data.items()}
        return super().table(cls, data, prefix)

    def value(self, field: record.Field, value: object, where: str) -> Any:
        kind = field.metadata["kind"]
        if kind not in (TABLE, TABLES):
            return super().value(field, value, where)
        cls = TYPES[field.metadata["table_type"]]
        if kind == TABLE:
            return cls(**self.table(cls, value, where + "."))
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise RuleError(f"{where}: expected an array of tables")
        if where.count("subs") > MAX_SUBS_DEPTH:  # a project's hook.skip table must not cost the hook
            raise RuleError(f"{where}: subs nested more than {MAX_SUBS_DEPTH} deep")
        return tuple(cls(**self.table(cls, v, f"{where}[{i}].")) for i, v in enumerate(value))


def load(directory: str | None = None) -> tuple[Generic, list[Tool]]:
    """Every file of the catalogue, validated: (the generic tables, the entries in file order)."""
    import tomllib

    directory = directory or DATA_DIR
    generic: Generic | None = None
    tools: list[Tool] = []
    for name in sorted(os.listdir(directory), key=lambda n: (n != "core.toml", n)):
        if not name.endswith(".toml"):
            continue
        path = os.path.join(directory, name)
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
        try:
            catalogue = Catalogue(**_Check().table(Catalogue, data, ""))
            for tool in catalogue.tool:
                _check_tool(tool)
        except RuleError as error:
            raise RuleError(f"{path}: {error}") from None
        generic = catalogue.generic or generic
        tools += catalogue.tool
    if generic is None:
        raise RuleError(f"{directory}: no file has the [generic] table")
    return generic, tools


def user_entry(table: dict[str, Any]) -> dict[str, Any] | None:
    """A `[[tool]]` table from a user's `hook.skip`, as the engine reads it; None when invalid
    (`tokenjuice config` and verify report why: `user_entry_problem`)."""
    return None if user_entry_problem(table) else plain(Tool(**_Check().table(Tool, table, "")))


def user_entry_problem(table: dict[str, Any]) -> str | None:
    """Why a `hook.skip` table is not a valid `[[tool]]` entry, or None."""
    try:
        tool = Tool(**_Check().table(Tool, table, "hook.skip: "))
        _check_tool(tool, user=True)
    except RuleError as error:
        return str(error)
    return None


def _check_tool(tool: Tool, user: bool = False) -> None:
    """What the field declarations cannot say: one decision per case, reasons whose `{…}` name
    what the engine fills in, argv.py's tables named, and no Python predicate in a user's table."""
    from ..argv import GLOBAL_VALUE_OPTIONS

    where = f"tool {tool.names[0]}"
    if tool.global_values is not None and tool.global_values not in GLOBAL_VALUE_OPTIONS:
        raise RuleError(f"{where}: global_values: argv.py has no options for {tool.global_values!r}")
    for case in tool.cases:
        decisions = [k for k in ("endless", "terminal", "detached", "wrap", "call") if getattr(case, k) is not None]
        if len(decisions) != 1:
            raise RuleError(f"{where}: a case needs one decision (endless, terminal, detached, wrap or call)")
        if user and (case.call or case.test or case.unless):
            raise RuleError(f"{where}: call, test and unless name built-in predicates; a hook.skip table cannot")
        reason = case.endless or case.terminal or case.detached
        try:
            (reason or "").format(name="", cmd="", sub="", flag="", words="", words2="")
        except (KeyError, IndexError, ValueError) as error:
            raise RuleError(
                f"{where}: {reason!r}: a reason may name {{name}}, {{cmd}}, {{sub}}, "
                f"{{flag}}, {{words}} and {{words2}} ({error})"
            ) from None
    for sub in tool.subs:
        _check_tool(sub, user)


def plain(item: Any) -> Any:
    """A record as the engine reads it: a dict of its fields that are not defaults (nor examples);
    tables as dicts, arrays of tables as tuples of dicts; `start` spelled `from`."""
    if isinstance(item, tuple):
        return tuple(plain(v) for v in item)
    if not hasattr(item, "__record_fields__"):
        return item
    return {
        ("from" if f.name == "start" else f.name): plain(getattr(item, f.name))
        for f in record.fields(type(item))
        if f.name != "examples" and getattr(item, f.name) not in (None, ())
    }


def compiled(generic: Generic, tools: list[Tool]) -> dict[str, Any]:
    """What neverwrap_data.py holds, decoded: GENERIC, INDEX (program -> entry), PARTS (the
    entries predicates hand a part of a command to) and ENTRIES."""
    index: dict[str, int] = {}
    parts: dict[str, int] = {}
    for position, tool in enumerate(tools):
        for name in tool.names:
            (parts if name.endswith(":") else index).setdefault(name, position)
    generic_data = {f.name: getattr(generic, f.name) for f in record.fields(Generic)}
    return {"GENERIC": generic_data, "INDEX": index, "PARTS": parts, "ENTRIES": [plain(tool) for tool in tools]}


def literal(generic: Generic, tools: list[Tool], core: int) -> tuple[str, str]:
    """The sources of neverwrap_data.py (the index, the generic tables and the first `core`
    entries: core.toml's, the common tools) and neverwrap_more.py (the others, imported when a
    command names one of their programs). Each entry is a `marshal` blob: importing costs one
    object per entry, not one per string and tuple inside, and the engine decodes only the
    entries a command names. The generic tables and the index are blobs too (decoding the
    index costs less than building it from a literal). Format 2 writes no back-references, so the bytes depend on the
    data alone (later formats place them by refcounts)."""
    data = compiled(generic, tools)
    blobs = [f"    {marshal.dumps(entry, 2)!r},\n" for entry in data["ENTRIES"]]
    head = (
        '"""Generated by `python -m tokenjuice.shell.neverwrap.schema` from tokenjuice/shell/neverwrap/*.toml: '
        'do not edit."""\n\n'
    )
    return (
        f"{head}GENERIC = {marshal.dumps(data['GENERIC'], 2)!r}\nINDEX = {marshal.dumps(data['INDEX'], 2)!r}\n"
        f"PARTS = {data['PARTS']!r}\nENTRIES = (\n{''.join(blobs[:core])})\n",
        f"{head}ENTRIES = (\n{''.join(blobs[core:])})\n",
    )


def core_count(directory: str | None = None) -> int:
    """How many entries core.toml holds (they come first in `load`)."""
    import tomllib

    with open(os.path.join(directory or DATA_DIR, "core.toml"), "rb") as handle:
        return len(tomllib.load(handle).get("tool", []))


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a never-wrap file."""
    definitions = {name: _object_schema(cls) for name, cls in TYPES.items() if cls is not Catalogue}
    for name in ("Case", "Tool"):  # `start` is spelled `from` in the files
        properties = definitions[name]["properties"]
        properties["from"] = properties.pop("start")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/tokenjuice/tokenjuice/docs/neverwrap.schema.json",
        "title": "tokenjuice never-wrap catalogue",
        **_object_schema(Catalogue),
        "$defs": definitions,
    }


def examples(tools: list[Tool]) -> list[tuple[str, Example]]:
    """(tool, example) for every example of the catalogue, subcommands' entries included."""
    found = []
    for tool in tools:
        found += [(tool.names[0], example) for example in tool.examples]
        found += examples(list(tool.subs))
    return found


def build(docs: str | None = None) -> None:
    """Validate the catalogue and rewrite neverwrap_data.py (and the schema, given the docs folder)."""
    from ...files.atomic import write_atomically

    generic, tools = load()
    data, more = literal(generic, tools, core_count())
    write_atomically(LITERAL, data.encode())
    write_atomically(MORE, more.encode())
    if docs:
        write_atomically(f"{docs}/neverwrap.schema.json", (json.dumps(json_schema(), indent=2) + "\n").encode())


if __name__ == "__main__":
    build(sys.argv[1] if len(sys.argv) > 1 else "docs")
