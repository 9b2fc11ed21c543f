"""Whether an output has a shape `structured` cuts: one JSON document, JSON lines,
CSV/TSV rows, one long line. The tests alone, so that an output of none of these
shapes does not import `structured` (~5 M instructions) to be told so."""

from __future__ import annotations

from ..fast.lazyre import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def document(text: str) -> Any:
    """The JSON document `text` holds (an object or an array), or None."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")) or not stripped.endswith(("}", "]")):
        return None
    try:
        from ..fast import fastjson  # the json package costs ~0.7 ms to import

        value = fastjson.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict | list) else None


def json_lines(lines: list[str]) -> bool:
    """Is this JSON lines (every non-blank line one JSON object)?"""
    from itertools import islice

    rows = list(islice((line for line in lines if line.strip()), 20))  # the first 20 say it
    if len(rows) < 2:
        return False
    for line in rows:
        stripped = line.strip()
        if not (stripped.startswith("{") and stripped.endswith("}")):
            return False
    return document(rows[0]) is not None


def delimited(lines: list[str]) -> str | None:
    """The delimiter of CSV/TSV output (a header row and rows with as many fields), or None."""
    rows = [line for line in lines[:20] if line.strip()]
    if len(rows) < 3:
        return None
    for delimiter in ("\t", ","):
        counts = {_fields(line, delimiter) for line in rows}
        names = [field.strip('"') for field in rows[0].split(delimiter)]
        if len(counts) == 1 and counts.pop() >= 2 and all(_HEADER_FIELD.match(name) for name in names):
            return delimiter
    return None


def _fields(line: str, delimiter: str) -> int:
    """How many fields a row has: a delimiter inside a quoted field does not count
    (`42,"unknown SKU, see line 3",422`)."""
    if '"' not in line:
        return line.count(delimiter) + 1
    import csv

    return len(next(csv.reader([line], delimiter=delimiter)))


_HEADER_FIELD = lazy(r"^[A-Za-z_][\w .()-]*$")


def long_line(lines: list[str], room: int, longest: Callable[[], int] | None = None) -> tuple[int, int] | None:
    """Where the long line is that `structured.fit_long_line` may cut, and the room it
    has (`room` less the other lines), or None when no line is longer than `room` or
    the other lines take more than a third of it. `longest` gives the length of the
    longest line, when it is known."""
    if not lines or len(lines) - 1 > room // 3:
        return None  # the other lines' line ends alone would take more than a third of the room
    longest_length = max(map(len, lines)) if longest is None else longest()
    if longest_length <= room:
        return None
    lengths = list(map(len, lines))
    others = sum(lengths) + len(lines) - 1 - longest_length
    if others > room // 3:
        return None
    return lengths.index(longest_length), room - others
