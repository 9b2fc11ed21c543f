"""Structured output (one JSON document, JSON lines, CSV/TSV) cut without breaking it.

A JSON document too big for the budget stays valid JSON: arrays keep their first
items and end with a `"… 120 more items omitted"` element, objects keep their first
keys and end with `"…": "14 more keys omitted"`, containers nested too deep become
`"… 12 keys omitted"`, and a very long string keeps its start and end around
`…[N chars omitted]…`. It is shown indented, so every other line is a line of the
indented original. JSON lines and CSV/TSV rows are whole rows: rows are dropped,
never cut in their middle, and the header row stays.
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from ..text import clip_line
from .lines import Item, Omission

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_STRING_LIMIT = 400
_FIRST_KEYS = lazy(r"(?i)(?:^|_|[a-z])(?:id|name|state|status|phase|reason|error|message)$")
_THEN_KEYS = lazy(r"(?i)(?:^|_|[a-z])(?:type|code|kind|version|count)$")


def _key_rank(key: str) -> int:
    """Keys that identify a record and say how it is doing come first."""
    return 0 if _FIRST_KEYS.search(key) else 1 if _THEN_KEYS.search(key) else 2


_ITEM_LIMITS = (50, 20, 10, 5, 3, 2, 1)
_KEY_LIMITS = (40, 16, 8, 5, 3)
_DEPTHS = (8, 6, 4, 3, 2, 1)
MARKER_PREFIX = "… "


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


def indented(value: Any) -> list[str]:
    import json

    return json.dumps(value, indent=2, ensure_ascii=False).split("\n")


#: A container whose one-line JSON is at most this wide stays on one line in the
#: compact form (a record of an array: one element per line).
COMPACT_WIDTH = 160


def compact(value: Any, indent: int = 0) -> list[str]:
    """`value` as valid JSON, losslessly: containers that fit COMPACT_WIDTH on one
    line, the others one member per line; keys in their order, nothing dropped."""
    import json

    one = json.dumps(value, ensure_ascii=False)
    pad = " " * indent
    if not isinstance(value, dict | list) or not value or len(one) + indent <= COMPACT_WIDTH:
        return [pad + one]
    members = list(value.items()) if isinstance(value, dict) else [(None, item) for item in value]
    lines = [pad + ("{" if isinstance(value, dict) else "[")]
    for position, (key, member) in enumerate(members):
        sub = compact(member, indent + 2)
        if key is not None:
            sub[0] = f"{pad}  {json.dumps(key, ensure_ascii=False)}: {sub[0].lstrip()}"
        if position < len(members) - 1:
            sub[-1] += ","
        lines += sub
    lines.append(pad + ("}" if isinstance(value, dict) else "]"))
    return lines


def _first_items(value: Any, limit: int) -> Any:
    """`value` with every array longer than `limit` cut to its first and last elements
    (`limit` in all: the newest entries are often last) around a marker element
    counting the rest; objects keep every key, in order."""
    if isinstance(value, list):
        if len(value) <= limit:
            return [_first_items(item, limit) for item in value]
        head, tail = value[: limit - limit // 2], value[len(value) - limit // 2 :] if limit // 2 else []
        marker = f"{MARKER_PREFIX}{len(value) - limit} more items omitted"
        return [_first_items(item, limit) for item in head] + [marker] + [_first_items(item, limit) for item in tail]
    if isinstance(value, dict):
        return {key: _first_items(member, limit) for key, member in value.items()}
    return clip_line(value, _STRING_LIMIT) if isinstance(value, str) else value


def fit_document(value: Any, room: int) -> list[str]:
    """`value` in `room` characters: whole in its compact form when that fits; else
    whole elements, the first and last ones (at least five) of each array, with a
    marker for the rest (every key and value of what is shown); else pruned in depth and keys
    too: of the prunings that fit, the one that shows most."""
    whole = compact(value)
    if sum(len(line) + 1 for line in whole) <= room:
        return whole
    # Whole elements while at least five of each array fit; fewer would hide most
    # records, and a record's identifying keys for all of them say more.
    for limit in (1000, 500, 200, 100, 50, 30, 20, 10, 5):
        lines = compact(_first_items(value, limit))
        if sum(len(line) + 1 for line in lines) <= room:
            return lines
    # Pruned: as many elements as can be shown, each with as many of its keys (those
    # that identify a record and say how it is doing first) and as deep as room allows.
    for limit in _ITEM_LIMITS:
        for depth in _DEPTHS:
            for keys in _KEY_LIMITS:
                lines = indented(_prune(value, limit, depth, keys))
                if sum(len(line) + 1 for line in lines) <= room:
                    return lines
    best: list[str] = []
    return best or indented(_prune(value, 1, 0, 1))


def _prune(value: Any, limit: int, depth: int, keys: int) -> Any:
    if isinstance(value, str):
        return clip_line(value, _STRING_LIMIT)
    if isinstance(value, list):
        if depth <= 0 and value:
            return f"{MARKER_PREFIX}{len(value)} items omitted"
        kept = [_prune(item, limit, depth - 1, keys) for item in value[:limit]]
        if len(value) > limit:
            kept.append(f"{MARKER_PREFIX}{len(value) - limit} more items omitted")
        return kept
    if isinstance(value, dict):
        if depth <= 0 and value:
            return f"{MARKER_PREFIX}{len(value)} keys omitted"
        # What identifies a record and says how it is doing goes first.
        chosen = sorted(value, key=_key_rank)[:keys]
        pruned = {key: _prune(value[key], limit, depth - 1, keys) for key in chosen}
        if len(value) > keys:
            pruned["…"] = f"{len(value) - keys} more keys omitted"
        return pruned
    return value


def is_marker_line(line: str) -> bool:
    """A line `fit_document` adds: a marker element or a marker key."""
    core = line.strip().rstrip(",")
    if core.startswith('"…": "') and core.endswith(' omitted"'):
        return True
    if ": " in core and core.startswith('"'):
        core = core.split(": ", 1)[1]
    return core.startswith(f'"{MARKER_PREFIX}') and core.endswith(' omitted"')


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


def fit_rows(lines: list[str], room: int, header: bool) -> list[Item]:
    """Whole rows from the end and the start in turn, the header row first: never a
    row cut in its middle, one marker for the rows in between. The last rows often
    say how it ended (`Plan: 40 to add`): they come first, and a row too big for what
    is left closes its end only, the other end goes on filling."""
    first = lines[:1] if header else []
    body = lines[1:] if header else lines
    used = sum(len(line) + 1 for line in first) + 40
    head: list[str] = []
    tail: list[str] = []
    left, right = 0, len(body) - 1
    head_open = tail_open = True
    while left <= right and (head_open or tail_open):
        take_tail = tail_open and (not head_open or len(tail) <= len(head))
        line = body[right] if take_tail else body[left]
        if used + len(line) + 1 > room:
            if take_tail:
                tail_open = False
            else:
                head_open = False
            continue
        used += len(line) + 1
        if take_tail:
            tail.insert(0, line)
            right -= 1
        else:
            head.append(line)
            left += 1
    hidden = len(body) - len(head) - len(tail)
    middle: list[Item] = [Omission(hidden, f"{hidden} rows")] if hidden else []
    return [*first, *head, *middle, *tail]
