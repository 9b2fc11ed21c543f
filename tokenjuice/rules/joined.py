"""Finding the lines of a big view that a set of patterns anchored at the start match
in the view's text at once, rather than with one search a line (`patterns.Matcher`).

A search costs ~1,000 instructions before it tries a pattern (the call, the state the
engine sets up, its stack); `finditer` over the lines' text pays that once. It finds
the lines a search of each line alone finds when nothing a pattern consumes or looks
at can be a newline (`line_bound`): the newline that ends a line then fails it as the
end of the line alone does. Imported only where the patterns' facts are worked out
(once a version) and where a big view is searched so.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def line_bound(items: Any, dotall: bool) -> bool:
    r"""Whether a parsed pattern matches in a line of a text the way it matches in the
    line alone, when the text is searched with `re.MULTILINE`: nothing it consumes or
    looks at can be a newline, so the newline that ends a line (or the one before it,
    for a lookbehind) fails it as the end (or the start) of the line alone does, `^`
    and `$` mean the line's start and end, and `\b` sees a newline as it sees the
    end. A pattern with an anchor of the whole text (`\A`, `\Z`), a backreference or
    a construct not known here is not line-bound."""
    from re import _constants as op  # type: ignore[attr-defined]  # the stdlib parser, not public API

    for code, value in items:
        if code is op.LITERAL:
            bound = value != _NEWLINE
        elif code is op.NOT_LITERAL:
            bound = value == _NEWLINE
        elif code is op.ANY:
            bound = not dotall
        elif code is op.IN:
            bound = not _holds_a_newline(value)
        elif code is op.AT:
            bound = value in (op.AT_BEGINNING, op.AT_END, op.AT_BOUNDARY, op.AT_NON_BOUNDARY)
        elif code is op.BRANCH:
            bound = all(line_bound(branch, dotall) for branch in value[1])
        elif code is op.SUBPATTERN:
            _, on, off, inner = value
            bound = line_bound(inner, bool((dotall or on & re.DOTALL) and not off & re.DOTALL))
        elif code in (op.MAX_REPEAT, op.MIN_REPEAT, op.POSSESSIVE_REPEAT):
            bound = line_bound(value[2], dotall)
        elif code is op.ATOMIC_GROUP:
            bound = line_bound(value, dotall)
        elif code in (op.ASSERT, op.ASSERT_NOT):
            bound = line_bound(value[1], dotall)
        else:  # a backreference, a conditional: not looked into
            bound = False
        if not bound:
            return False
    return True


_NEWLINE = ord("\n")


def _holds_a_newline(items: Any) -> bool:
    r"""Whether a parsed character class (`[^\s:]`, `\d`) matches a newline (a case
    cannot make one match: no other character is a case of the newline)."""
    from re import _constants as op  # type: ignore[attr-defined]  # the stdlib parser, not public API

    negated = held = False
    for code, value in items:
        if code is op.NEGATE:
            negated = True
        elif code is op.LITERAL:
            held = held or value == _NEWLINE
        elif code is op.RANGE:
            held = held or value[0] <= _NEWLINE <= value[1]
        elif code is op.CATEGORY:
            held = held or value not in (
                op.CATEGORY_DIGIT,
                op.CATEGORY_NOT_SPACE,
                op.CATEGORY_WORD,
                op.CATEGORY_NOT_LINEBREAK,
            )
        else:
            return True  # not known here: as if it did
    return held != negated


def _opening(items: Any) -> tuple[list[str], bool] | None:
    """The members of a class (`a`, `0-9`, `\\d`) that the first character of a match of
    the parsed `items` is among, and whether they can match nothing; None when any
    character could be the first, or it is not known here."""
    from re import _constants as op  # type: ignore[attr-defined]  # the stdlib parser, not public API

    members: list[str] = []
    for code, value in items:
        if code is op.LITERAL:
            return [*members, _member(value)], False
        if code is op.IN:
            held = _members(value)
            return None if held is None else ([*members, *held], False)
        if code in (op.AT, op.ASSERT, op.ASSERT_NOT):
            continue  # nothing consumed
        if code is op.BRANCH:
            found = [_opening(branch) for branch in value[1]]
            if any(each is None for each in found):
                return None
            inner = [member for each in found if each is not None for member in each[0]]
            empty = any(each is not None and each[1] for each in found)
        elif code is op.SUBPATTERN and not value[1] and not value[2]:
            sub = _opening(value[3])
            if sub is None:
                return None
            inner, empty = sub
        elif code in (op.MAX_REPEAT, op.MIN_REPEAT, op.POSSESSIVE_REPEAT):
            sub = _opening(value[2]) if value[1] else ([], True)
            if sub is None:
                return None
            inner, empty = sub[0], sub[1] or value[0] == 0
        elif code is op.ATOMIC_GROUP:
            sub = _opening(value)
            if sub is None:
                return None
            inner, empty = sub
        else:  # any character, a group with flags of its own, a backreference
            return None
        members += inner
        if not empty:
            return members, False
    return members, True


def _member(code: int) -> str:
    """A character as a class member, escaped."""
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def _members(items: Any) -> list[str] | None:
    """A parsed class's members, escaped; None for a negated class or one not known here."""
    from re import _constants as op  # type: ignore[attr-defined]  # the stdlib parser, not public API

    categories = {
        op.CATEGORY_DIGIT: "\\d",
        op.CATEGORY_NOT_DIGIT: "\\D",
        op.CATEGORY_SPACE: "\\s",
        op.CATEGORY_NOT_SPACE: "\\S",
        op.CATEGORY_WORD: "\\w",
        op.CATEGORY_NOT_WORD: "\\W",
    }
    members = []
    for code, value in items:
        if code is op.LITERAL:
            members.append(_member(value))
        elif code is op.RANGE:
            members.append(f"{_member(value[0])}-{_member(value[1])}")
        elif code is op.CATEGORY and value in categories:
            members.append(categories[value])
        else:
            return None
    return members


def opening_class(items: Any) -> str:
    """The members of the class that the first character of any match of the parsed
    `items` is among (`\\x46\\x45` for `(?:FAILED|ERROR) `), or "" when any character
    could be, or the items can match nothing."""
    found = _opening(items)
    return "".join(found[0]) if found is not None and not found[1] else ""


def starting_lines(scan: Any, text: str, first: str, count: int) -> set[int] | None:
    """The indexes of the `count` lines (`text`, joined by newlines; `first`, the first
    of them) at whose start `scan` finds a match (`patterns._after_newline`: a match
    is a newline and what the patterns match after it, so the first line is tried
    after a newline of its own), or None when a line holds a newline (the text's
    newlines are not the lines' ends). The search starts once for the whole text, not
    once a line; each match is numbered by the newlines before it, counted from the
    match before."""
    found = {0} if next(scan("\n" + first), None) is not None else set()
    line, offset = 1, 0
    for hit in scan(text):
        at = hit.start()
        line += text.count("\n", offset, at)
        offset = at
        found.add(line)
    return found if line + text.count("\n", offset) == count else None
