"""What a shell command line expands, without expanding anything: the parameters
it reads (`$X`, `${X…}`, `$1`, `$?`, names in arithmetic) and those its expansions
assign (`${X:=v}`, `$((X++))`); and, for the rewrite, what of the agent's shell
a command reads (`reads_outer_state`) and the commands its substitutions run
(`substituted`). The rewrite loads this only for a command that holds a `$`, a
backtick or arithmetic.
"""

from __future__ import annotations

from .syntax import Unreadable, is_assignment, parse_tree

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from .syntax import CommandList, Node, Tree

_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
#: One-character special parameters: `$?`, `$#`, `$@`, `$*`, `$!`, `$$`, `$-`, `$0`…`$9`.
_SPECIAL = frozenset("?#@*!$-0123456789")


def expansions(text: str, dialect: str = "posix", *, here_doc: bool = False) -> list[tuple[str, str, int]]:
    """The parameters `text` expands, as `(kind, name, offset)`: kind "read" for
    `$X`, `${X…}`, `$1`, `$?` and a name inside arithmetic (`$((x + 1))`), "assign"
    for one an expansion assigns (`${X:=v}`, `${X=v}`, `$((X=1))`, `$((X++))`),
    "command" for the text of a command substitution (`$(…)`, backticks, fish's `(…)`).
    Single-quoted text expands nothing (in a `here_doc` body quotes are
    literal); command substitutions and backticks are looked into (ValueError when
    they nest deeper than MAX_DEPTH). Never expands anything itself."""
    found: list[tuple[str, str, int]] = []
    _scan(text, 0, len(text), dialect == "fish", here_doc, found)
    return found


def arithmetic_names(text: str, offset: int = 0) -> list[tuple[str, str, int]]:
    """The names an arithmetic expression reads and assigns (`((x = y + 1))`)."""
    found: list[tuple[str, str, int]] = []
    _arithmetic(text, offset, found)
    return found


#: How deep command substitutions may nest (`$( $( … ) )`): deeper is refused (ValueError),
#: so that a hostile line cannot make the hook scan it once per level.
MAX_DEPTH = 16


def _scan(
    text: str, pos: int, end: int, fish: bool, here_doc: bool, found: list[tuple[str, str, int]], depth: int = 0
) -> None:
    if depth > MAX_DEPTH:
        raise ValueError("command substitutions nested too deeply")
    quoted = False  # inside "…"
    word_start = True
    while pos < end:
        ch = text[pos]
        if ch == "\\":
            pos += 2
            word_start = False
            continue
        if ch == "'" and not quoted and not here_doc:
            if fish:
                pos += 1
                while pos < end and text[pos] != "'":
                    pos += 2 if text[pos] == "\\" else 1
                pos += 1
            else:
                close = text.find("'", pos + 1, end)
                pos = end if close < 0 else close + 1
            word_start = False
            continue
        if ch == '"' and not here_doc:
            quoted = not quoted
            pos += 1
            word_start = False
            continue
        if ch == "#" and word_start and not quoted and not here_doc:
            newline = text.find("\n", pos, end)
            pos = end if newline < 0 else newline
            continue
        if ch == "`" and not fish:
            close = pos + 1
            while close < end and text[close] != "`":
                close += 2 if text[close] == "\\" else 1
            found.append(("command", text[pos + 1 : min(close, end)], pos))
            _scan(text, pos + 1, min(close, end), fish, False, found, depth + 1)
            pos = close + 1
            word_start = False
            continue
        if ch == "$" and pos + 1 < end:
            pos = _dollar(text, pos, end, fish, found, depth)
            word_start = False
            continue
        if ch == "(" and fish and not here_doc:  # fish's command substitution
            close = _balanced(text, pos, end)
            found.append(("command", text[pos + 1 : max(pos + 1, close - 1)], pos))
            _scan(text, pos + 1, max(pos + 1, close - 1), fish, False, found, depth + 1)
            pos = close
            word_start = False
            continue
        word_start = ch in " \t\n;&|()"
        pos += 1


def _balanced(text: str, pos: int, end: int) -> int:
    """Where the `(…)` or `{…}` opening at `pos` closes (after it), quotes respected."""
    opener = text[pos]
    closer = ")" if opener == "(" else "}"
    depth = 0
    while pos < end:
        ch = text[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "'":
            close = text.find("'", pos + 1, end)
            pos = end if close < 0 else close + 1
            continue
        if ch == '"':
            pos += 1
            while pos < end and text[pos] != '"':
                pos += 2 if text[pos] == "\\" else 1
            pos += 1
            continue
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return pos + 1
        pos += 1
    return end


def _dollar(text: str, pos: int, end: int, fish: bool, found: list[tuple[str, str, int]], depth: int) -> int:
    nxt = text[pos + 1]
    if fish:
        if nxt in _NAME_START or nxt.isdigit():
            stop = pos + 1
            while stop < end and text[stop] in _NAME_CHARS:
                stop += 1
            found.append(("read", text[pos + 1 : stop], pos))
            return stop
        return pos + 1
    if nxt == "'":  # $'…': no expansion inside
        close = pos + 2
        while close < end and text[close] != "'":
            close += 2 if text[close] == "\\" else 1
        return close + 1
    if text.startswith("$((", pos):
        close = _balanced(text, pos + 1, end)
        _arithmetic(text[pos + 3 : max(pos + 3, close - 2)], pos + 3, found)
        return close
    if nxt == "(":
        close = _balanced(text, pos + 1, end)
        found.append(("command", text[pos + 2 : max(pos + 2, close - 1)], pos))
        _scan(text, pos + 2, max(pos + 2, close - 1), fish, False, found, depth + 1)
        return close
    if nxt == "{":
        close = _balanced(text, pos + 1, end)
        inner = pos + 2
        if inner < end and text[inner] in "#!" and inner + 1 < close - 1:
            inner += 1  # ${#X}, ${!X}
        stop = inner
        if stop < end and text[stop] in _NAME_START:
            while stop < end and text[stop] in _NAME_CHARS:
                stop += 1
        elif stop < end and text[stop] in _SPECIAL:
            stop += 1
        name = text[inner:stop]
        if name:
            rest = text[stop : close - 1]
            kind = "assign" if rest.startswith((":=", "=")) else "read"
            found.append((kind, name, pos))
            _scan(text, stop, max(stop, close - 1), fish, False, found, depth + 1)
        return close
    if nxt in _NAME_START:
        stop = pos + 1
        while stop < end and text[stop] in _NAME_CHARS:
            stop += 1
        found.append(("read", text[pos + 1 : stop], pos))
        return stop
    if nxt in _SPECIAL:
        found.append(("read", nxt, pos))
        return pos + 2
    return pos + 1


def _arithmetic(expression: str, offset: int, found: list[tuple[str, str, int]]) -> None:
    """Names read and assigned in an arithmetic expression: `x = 1`, `x += 1`,
    `x++`, `--x` assign; every other name (with or without `$`) is read."""
    index = 0
    n = len(expression)
    while index < n:
        ch = expression[index]
        if ch == "$":
            index += 1
            continue
        if ch in _NAME_START:
            stop = index
            while stop < n and expression[stop] in _NAME_CHARS:
                stop += 1
            name = expression[index:stop]
            after = expression[stop:].lstrip()
            before = expression[:index].rstrip()
            assigns = (
                (after.startswith("=") and not after.startswith("=="))
                or after[:2] in ("++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=")
                or after[:3] in ("<<=", ">>=")
                or before.endswith(("++", "--"))
            )
            found.append(("assign" if assigns else "read", name, offset + index))
            index = stop
            continue
        if ch.isdigit():
            while index < n and (expression[index].isalnum() or expression[index] == "#"):
                index += 1  # 0x1f, 2#101
            continue
        index += 1


# -- what a command reads of the shell that runs it (the rewrite's rules) ----------------


def _first_pipeline_end(commands: CommandList, start: int) -> int:
    """Where the first pipeline to run after `start` ends: a `$?` before that reads
    the status of whatever ran before it."""
    for item in commands:
        for pipeline in item.pipelines:
            if pipeline.end <= start:
                continue
            stage = pipeline.stages[0]
            for body in stage.body:
                inner = _first_pipeline_end(body, start)
                if inner:
                    return inner
            return pipeline.end
    return 0


#: Commands whose plain word arguments name variables they set.
_SETTERS = frozenset(
    {"read", "mapfile", "readarray", "getopts", "export", "declare", "local", "typeset", "readonly", "unset", "printf"}
    | {"let", "vared", "set"}
)
#: Variables every shell sets for itself, the same in the wrapped child as in the agent's shell.
SHELL_VARIABLES = frozenset(
    {"PWD", "HOME", "IFS", "RANDOM", "SRANDOM", "LINENO", "BASH", "BASH_VERSION", "BASH_VERSINFO", "HOSTNAME"}
    | {"HOSTTYPE", "OSTYPE", "MACHTYPE", "UID", "EUID", "GROUPS", "EPOCHSECONDS", "EPOCHREALTIME", "REPLY"}
    | {"ZSH_VERSION", "ZSH_NAME", "ZSH_PATCHLEVEL", "FISH_VERSION", "version", "hostname"}
)
#: Special parameters of the agent's shell that a fresh child has its own of.
_POSITIONAL = frozenset("0123456789@*#$-") | {"argv", "fish_pid", "last_pid"}
#: Statuses of the command that ran just before.
_LAST_STATUS = frozenset({"?", "_", "status", "pipestatus", "PIPESTATUS"})


def _assigned_names(rest: list[tuple[Node, bool]], prefix: list[Node]) -> set[str]:
    """Variables the command sets before it could read them, or that the steps
    outside set in the environment the wrap inherits (`export X=1`, `unset X`)."""

    names: set[str] = set()
    for node in prefix:
        if node.argv[:1] in (["export"], ["unset"]):
            names.update(word.partition("=")[0] for word in node.argv[1:])
        elif node.argv[:1] == ["set"]:  # fish: `set -gx X 1` (a posix `set` is never a prefix)
            names.update(word for word in node.argv[1:] if not word.startswith("-"))
    for node, _ in rest:
        argv = node.argv
        if node.kind == "loop" and len(argv) > 1:
            names.add(argv[1])
            if argv[1].startswith("(("):
                names.update(name for kind, name, _ in arithmetic_names(argv[1]) if kind == "assign")
        if node.kind != "simple":
            continue
        index = 0
        while index < len(argv) and is_assignment(argv[index]):
            names.add(argv[index].partition("=")[0].removesuffix("+"))
            index += 1
        if index < len(argv) and argv[index] in _SETTERS:
            names.update(word.partition("=")[0].removesuffix("+") for word in argv[index + 1 :])
    return names


def reads_outer_state(
    tree: Tree,
    rest: list[tuple[Node, bool]],
    start: int,
    prefix: list[Node],
    env: Mapping[str, str],
    found: list[tuple[str, str, int]],
) -> str | None:
    """Why the command reads state of the agent's shell that a fresh child has its
    own of (or lacks), or None: `$?` before anything ran, `$1`, `$$`, `$-`, or a
    variable that is neither in the environment nor set by the command itself
    (a variable the agent's shell set without exporting it)."""
    found = list(found)
    for node, _ in rest:  # `((x > 1))`, `for ((i = 0; i < n; i++))` read names without `$`
        for word in node.words:
            if word.value.startswith("((") and node.kind in ("arith", "loop"):
                found += arithmetic_names(word.value[2:-2], word.start + 2)
    if not found:
        return None
    first_end = _first_pipeline_end(tree.root, start)
    background = [item.sep_end for item in tree.root if item.sep == "&"]
    assigned = _assigned_names(rest, prefix)
    for kind, name, offset in found:
        if kind != "read":
            continue
        if name in _LAST_STATUS:
            if offset < first_end:
                return f"reads ${name} of the command that ran before it"
            continue
        if name == "!":
            if not any(end <= offset for end in background):
                return "reads $! (a background job of the agent's shell)"
            continue
        if name in _POSITIONAL:
            return f"reads ${name} of the agent's shell"
        if name in env or name in assigned or name in SHELL_VARIABLES:
            continue
        return f"reads ${name}, which is not in the environment (a variable the agent's shell did not export?)"
    return None


#: How much substitution text (summed over nesting levels) is read for names.
_SUBSTITUTION_BUDGET = 65536


def substituted(found: list[tuple[str, str, int]], dialect: str) -> list[tuple[Node, bool]] | None:
    """The commands inside command substitutions (`$(myfn)` runs `myfn` too), or
    None when one cannot be read."""
    commands: list[tuple[Node, bool]] = []
    budget = _SUBSTITUTION_BUDGET
    for kind, text, _ in found:
        if kind == "command" and text.strip():
            budget -= len(text)
            if budget < 0:
                return None  # nested substitutions: each level would be read again
            try:
                commands += parse_tree(text, dialect).walk()
            except Unreadable:
                return None
    return commands
