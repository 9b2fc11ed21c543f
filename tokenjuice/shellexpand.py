"""What a shell command line expands, without expanding anything: the parameters
it reads (`$X`, `${X…}`, `$1`, `$?`, names in arithmetic) and those its expansions
assign (`${X:=v}`, `$((X++))`). The rewrite loads this only for a command that
holds a `$`, a backtick or arithmetic.
"""

from __future__ import annotations

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
