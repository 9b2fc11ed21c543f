"""Structured output (one JSON document, JSON lines, CSV/TSV) cut without breaking it.

A JSON document too big for the budget is shown in its compact form when that fits,
else that form is cut between its elements as an exact read is (below); with little
room it is pruned instead: arrays keep their first items and end with a `"… 120
more items omitted"` element, objects keep the keys that name a record and end with
`"…": "14 more keys omitted"`, containers nested too deep become `"… 12 keys
omitted"`, and a very long string keeps its start and end around `…[N chars
omitted]…`. JSON lines and CSV/TSV rows are whole rows: rows are dropped, never cut
in their middle, and the header row stays.

An exact read of a file (`cat package-lock.json`) is not re-serialised: `exact_cut`
cuts the file's own text between elements (JSON values and members, YAML blocks by
indentation, TOML tables and keys, CSV records). Every element gets a fair share of
the room: those within it whole and byte for byte, bigger ones cut inside; a long
collection whose share is too small is outlined, one line an element (a package by
its name and version), with a marker line for each omitted range; a tree (`npm ls
--json`'s nested `dependencies`) is outlined level by level, each element's own
indented under it (those that hold none several a line), its repeats (npm's
deduplicated packages) last.
"""

from __future__ import annotations

from bisect import bisect_left
from heapq import heapify, heappop, heappush
from itertools import pairwise
from math import isqrt

from ..fast.lazyre import lazy
from ..fast.record import record
from ..text import clip_line
from .lines import Encoded, Item, Omission
from .shape import delimited, document, json_lines, long_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any

_STRING_LIMIT = 400
_FIRST_KEYS = lazy(r"(?i)(?:^|_|[a-z])(?:id|name|state|status|phase|reason|error|message)$")
_THEN_KEYS = lazy(r"(?i)(?:^|_|[a-z])(?:type|code|kind|version|count)$")


def _key_rank(key: str) -> int:
    """Keys that identify a record and say how it is doing come first."""
    rank = _RANKS.get(key)
    if rank is None:
        rank = _RANKS[key] = 0 if _FIRST_KEYS.search(key) else 1 if _THEN_KEYS.search(key) else 2
    return rank


#: key -> _key_rank: a collection's records share their keys.
_RANKS: dict[str, int] = {}


_ITEM_LIMITS = (50, 20, 10, 5, 3, 2, 1)
#: How many elements of an array are kept whole, the most that fit (at least five).
_SPREAD_LIMITS = (1000, 500, 200, 100, 70, 50, 40, 30, 24, 20, 16, 13, 10, 8, 6, 5)
#: ...and, where arrays nest, how few the innermost may keep (those around them keep six or more).
_NESTED_SPREAD_LIMITS = (4, 3)
_KEY_LIMITS = (40, 16, 8, 5, 3)
_DEPTHS = (8, 6, 4, 3, 2, 1)
MARKER_PREFIX = "… "


def indented(value: Any) -> list[str]:
    import json

    return json.dumps(value, indent=2, ensure_ascii=False).split("\n")


#: A container whose one-line JSON is at most this wide stays on one line in the
#: compact form (a record of an array: one element per line).
COMPACT_WIDTH = 160


def compact(value: Any, indent: int = 0, weights: list[int] | None = None) -> list[str]:
    """`value` as valid JSON, losslessly: containers that fit COMPACT_WIDTH on one
    line, the others one member per line; keys in their order, nothing dropped. With
    `weights`, each line's count of lines in the one-member-per-line layout is added to it."""
    import json

    one = json.dumps(value, ensure_ascii=False)
    pad = " " * indent
    if not isinstance(value, dict | list) or not value or len(one) + indent <= COMPACT_WIDTH:
        if weights is not None:
            weights.append(_height(value))
        return [pad + one]
    members = list(value.items()) if isinstance(value, dict) else [(None, item) for item in value]
    lines = [pad + ("{" if isinstance(value, dict) else "[")]
    if weights is not None:
        weights.append(1)
    for position, (key, member) in enumerate(members):
        sub = compact(member, indent + 2, weights)
        if key is not None:
            sub[0] = f"{pad}  {json.dumps(key, ensure_ascii=False)}: {sub[0].lstrip()}"
        if position < len(members) - 1:
            sub[-1] += ","
        lines += sub
    lines.append(pad + ("}" if isinstance(value, dict) else "]"))
    if weights is not None:
        weights.append(1)
    return lines


def _height(value: Any) -> int:
    """The lines `value` takes laid out one member per line (`indented`)."""
    if not isinstance(value, dict | list) or not value:
        return 1
    return 2 + sum(map(_height, value.values() if isinstance(value, dict) else value))


#: A JSON string, or a run of blanks outside strings.
_JSON_BLANKS = lazy(r'("(?:[^"\\]|\\.)*")|[ \t\r\n]+')


def _solid(text: str) -> str:
    """`text` (JSON) without the blanks between its tokens."""
    return _JSON_BLANKS.sub(lambda found: found.group(1) or "", text)


def relaid(text: str) -> list[Encoded] | None:
    """The JSON document `text`, laid out as `compact` lays it out, when that says
    exactly what it said: the same tokens in the same order, spelled the same (a
    number `1.50` or an escape `\\u00e9` that would read back otherwise leaves it as it
    is: None), and `text` was laid out one member per line (each line says how many of
    its lines it stands for). None too for any text that is not one JSON document."""
    value = document(text)
    if value is None:
        return None
    weights: list[int] = []
    lines = compact(value, weights=weights)
    if sum(weights) != text.strip().count("\n") + 1 or _solid("".join(lines)) != _solid(text):
        return None
    return [Encoded(line, weight) for line, weight in zip(lines, weights, strict=True)]


def spread(count: int, limit: int) -> list[int]:
    """Which of `count` elements to keep, in order, when only `limit` are shown: two
    fifths of `limit` from each end (the first and the newest entries: a list of
    releases, a log), then runs of a few elements (the square root of
    what is left) each at the middle of the widest gap left, the first one at the
    middle of the whole (both middles of an even count), so that what is kept spans
    the whole evenly (a table's first, middle and last rows; every stretch of a
    listing) with few markers between."""
    if count <= limit:
        return list(range(count))
    if limit < 2:
        return list(range(max(0, limit)))
    ends = max(1, (limit * 2) // 5)
    chosen = set(range(ends)) | set(range(count - ends, count))
    run = max(2 - count % 2, isqrt(limit - len(chosen)))
    low, high = ends - 1, count - ends
    centre = (count - 1) // 2
    # the gaps between neighbours chosen, the widest first and the earliest of equal ones
    gaps = [(a - b, a, b) for a, b in pairwise(sorted(chosen))]
    heapify(gaps)
    while len(chosen) < limit:
        added = [low]
        for k in range(centre - (run - 1) // 2, centre - (run - 1) // 2 + run):
            if low < k < high and len(chosen) < limit:
                chosen.add(k)
                added.append(k)
        heappop(gaps)  # the gap just filled: the widest
        for a, b in pairwise([*added, high]):
            heappush(gaps, (a - b, a, b))
        width, low, high = gaps[0]
        if -width < 2:
            break
        centre = low + -width // 2
    return sorted(chosen)


def _first_items(value: Any, limit: int, heights: dict[int, int] | None = None) -> Any:
    """`value` with every array longer than its limit cut to that many elements spread
    over it (`spread`: its first and last ones, its middle, evenly between) with a marker
    element counting each run left out; objects keep every key, in order. An array's
    limit is `limit` doubled for each level of cut arrays nested in its elements
    (`heights`, by the array's id; `_cut_levels`): the arrays around a cut one keep more,
    so a tree keeps every folder of its top levels while its long file lists are cut."""
    heights = {} if heights is None else heights
    if isinstance(value, list):
        own = limit << heights.get(id(value), 0)
        if len(value) <= own:
            return [_first_items(item, limit, heights) for item in value]
        kept: list[Any] = []
        last = -1
        for index in spread(len(value), own):
            if index > last + 1:
                kept.append(f"{MARKER_PREFIX}{index - last - 1} more items omitted")
            kept.append(_first_items(value[index], limit, heights))
            last = index
        return kept
    if isinstance(value, dict):
        return {key: _first_items(member, limit, heights) for key, member in value.items()}
    return clip_line(value, _STRING_LIMIT) if isinstance(value, str) else value


def _cut_levels(value: Any, limit: int, heights: dict[int, int]) -> int:
    """How many levels of arrays longer than `limit` `value` holds, itself included;
    each array holding such arrays in its elements is recorded in `heights` with their
    levels (what `_first_items` doubles its limit by)."""
    if isinstance(value, list):
        inner = max((_cut_levels(item, limit, heights) for item in value), default=0)
        if inner:
            heights[id(value)] = inner
        return inner + (len(value) > limit)
    if isinstance(value, dict):
        return max((_cut_levels(member, limit, heights) for member in value.values()), default=0)
    return 0


#: Below this room a document is pruned (the members that name a record and say how it
#: is doing, at every level) rather than cut between its elements: a cut would show
#: the first few members and not what state the thing is in.
_CUT_ROOM = 2000
_NO_LIMIT = 1 << 62
#: An exact cut's marker for a whole collection left out (`... items 1–41 of 41 in … omitted ...`).
_ALL_OMITTED = lazy(r'\b1–(?P<count>[\d,]+) of (?P=count)\b(?: in (?P<path>(?:[^\s"]|"(?:[^"\\]|\\.)*")+))?')
#: A step of a jq path (`_path`): `.name`, `[3]`, `["node_modules/a"]`.
_PATH_STEP = lazy(r'\.(?P<key>[A-Za-z_][\w-]*)|\[(?P<index>\d+)\]|\[(?P<quoted>"(?:[^"\\]|\\.)*")\]')


def _empties_records(value: Any, marker: str) -> bool:
    """Does `marker` leave out every element of a collection of records (objects or
    arrays: a folder's entries), not of a list of plain values (a package's
    classifiers)? A collection whose path cannot be followed counts as records."""
    found = _ALL_OMITTED.search(marker)
    if found is None:
        return False
    held: Any = value
    path = found["path"] or ""
    at = 0
    while at < len(path):
        step = _PATH_STEP.match(path, at)
        if step is None:
            return True
        at = step.end()
        if step["index"] is not None:
            held = held[int(step["index"])] if isinstance(held, list) and int(step["index"]) < len(held) else None
        else:
            key = step["key"] if step["key"] is not None else _unquoted(step["quoted"])
            held = held.get(key) if isinstance(held, dict) else None
        if held is None:
            return True
    return not isinstance(held, list) or any(isinstance(item, (dict, list)) for item in held)


def fit_document(value: Any, room: int) -> list[Item]:
    """`value` in `room` characters: whole in its compact form when that fits; else
    that form cut between its elements as an exact read is (`exact_cut`: small
    elements whole, big ones cut inside, a long collection one line an element);
    else whole elements, the first and last ones (at least five) of each array, with a
    marker for the rest (every key and value of what is shown); else pruned in depth and keys
    too: of the prunings that fit, the one that shows most."""
    whole = compact(value)
    if sum(len(line) + 1 for line in whole) <= room:
        return list(whole)
    emptied: list[Item] | None = None
    if room >= _CUT_ROOM:  # a very long string keeps its start and end: the cut cannot go inside one
        cut = exact_cut("\n".join(compact(_first_items(value, _NO_LIMIT))), "document.json", room)
        if cut is not None:
            if not any(isinstance(item, Omission) and _empties_records(value, item.render()) for item in cut[0]):
                return cut[0]
            # a collection of records left without one element shown (every file of a
            # folder of a directory tree): the spread below keeps each one's first and
            # last, if it fits. A list of plain values emptied (a package's classifiers)
            # is a detail of its record: the cut that names every record stands.
            emptied = cut[0]
    # Whole elements while at least five of each array fit; fewer would hide most
    # records, and a record's identifying keys for all of them say more. An array that
    # holds cut arrays keeps twice as many, so there the innermost may keep fewer.
    for limit in _SPREAD_LIMITS + _NESTED_SPREAD_LIMITS:
        heights: dict[int, int] = {}
        _cut_levels(value, limit, heights)
        if limit in _NESTED_SPREAD_LIMITS and not heights:
            continue  # below five only where the arrays around keep more
        lines = compact(_first_items(value, limit, heights))
        if sum(len(line) + 1 for line in lines) <= room:
            return list(lines)
    if emptied is not None:
        return emptied
    # Pruned: as many elements as can be shown, each with as many of its keys (those
    # that identify a record and say how it is doing first) and as deep as room allows.
    for limit in _ITEM_LIMITS:
        for depth in _DEPTHS:
            for keys in _KEY_LIMITS:
                lines = indented(_prune(value, limit, depth, keys))
                if sum(len(line) + 1 for line in lines) <= room:
                    return list(lines)
    return list(indented(_prune(value, 1, 0, 1)))


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


#: The characters that open, close, quote or separate the elements of a list literal.
_LITERAL_TOKENS = lazy(r"""[\[\]{}(),'"\\]""")


def literal_items(line: str) -> list[str] | None:
    """The elements of a list written on one line (`[{'id': 1, 'name': 'Ada'}, ...]`:
    a Python repr or JSON), each its exact text; None when `line` is not one such list
    of at least three elements."""
    text = line.strip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    items = _top_level(text, 1, len(text) - 1)
    return items if items is not None and len(items) >= 3 and all(items) else None


def _top_level(text: str, start: int, end: int) -> list[str] | None:
    """The elements of `text[start:end]` split at its commas outside brackets and
    quotes, each stripped; None when its brackets or quotes do not balance."""
    items: list[str] = []
    depth, quote, escaped = 0, "", -1
    first = start
    for found in _LITERAL_TOKENS.finditer(text, start, end):
        char = found.group()
        if found.start() == escaped:  # the character after a backslash in a string
            continue
        if quote:
            if char == "\\":
                escaped = found.end()
            elif char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char in "[{(":
            depth += 1
        elif char in "]})":
            depth -= 1
            if depth < 0:
                return None
        elif char == "," and depth == 0:
            items.append(text[first : found.start()].strip())
            first = found.end()
    if quote or depth:
        return None
    items.append(text[first:end].strip())
    return items


def fit_long_line(
    lines: list[str],
    room: int,
    longest: Callable[[], int] | None = None,
    found: tuple[int, int] | None = None,
) -> tuple[list[Item], int] | None:
    """An output whose bulk is one long line holding a JSON document or a list literal
    (a database server's rows as one Python repr, a fetched JSON document after its
    heading), in `room`: the other lines as they are, the long line cut between its
    elements (`fit_document`; a list literal's elements one a line, each its exact text,
    spread over the list with a marker for each run left out), and how many lines the
    output counts as (the long line's elements one a line). None for any other.
    `longest` gives the length of the longest line, when it is known; `found` what
    `shape.long_line` answered for these lines, when it was asked."""
    found = found or long_line(lines, room, longest)
    if found is None:
        return None
    at, left = found
    line = lines[at]
    value = document(line)
    if value is not None:
        cut: list[Item] = list(fit_document(value, left))
        count = len(indented(value))
    else:
        elements = literal_items(line)
        cut = _spread_elements(elements, left) if elements else []
        if not elements or not cut:
            return None
        count = len(elements)
    return [*lines[:at], *cut, *lines[at + 1 :]], len(lines) - 1 + count


def _spread_elements(elements: list[str], room: int) -> list[Item]:
    """The most of `elements` spread over them (`spread`) that fit `room`, one a line
    between `[` and `]`, a marker for each run left out; [] when five do not fit."""
    marker = len(Omission(len(elements), f"{len(elements)} more items").render()) + 1
    for limit in _SPREAD_LIMITS:
        chosen = spread(len(elements), limit)
        runs = sum(1 for a, b in zip([-1, *chosen], [*chosen, len(elements)], strict=True) if b > a + 1)
        if sum(len(elements[k]) + 2 for k in chosen) + runs * marker <= room:
            break
    else:
        return []
    shown: list[Item] = []
    last = -1
    for k in chosen:
        if k > last + 1:
            shown.append(Omission(k - last - 1, f"{k - last - 1} more items"))
        shown.append(("[" if k == 0 else " ") + elements[k] + ("]" if k == len(elements) - 1 else ","))
        last = k
    if last < len(elements) - 1:
        shown.append(Omission(len(elements) - 1 - last, f"{len(elements) - 1 - last} more items"))
    return shown


def is_marker_line(line: str) -> bool:
    """A line `fit_document` adds: a marker element or a marker key."""
    core = line.strip().rstrip(",")
    if core.startswith('"…": "') and core.endswith(' omitted"'):
        return True
    if ": " in core and core.startswith('"'):
        core = core.split(": ", 1)[1]
    return core.startswith(f'"{MARKER_PREFIX}') and core.endswith(' omitted"')


def is_outline_line(line: str, source: str) -> bool:
    """A line `_outline` makes of an element of `source` (`"node_modules/a": {"version":
    "1.2.0", …}`, `[[package]] {name = "a", …}`, `"files": […]`): its key and every
    member it shows are text of the source (a member clipped around its marker)."""
    from .lines import CLIP

    core = line.strip().removesuffix(",")
    pieces = _top_level(core, 0, len(core)) if "}, " in core or "], " in core else None
    if pieces is not None and len(pieces) > 1:  # a tree's elements that hold none, several a line
        return all(piece in source or is_outline_line(piece, source) for piece in pieces)
    if core.endswith(("[…]", "{…}")):
        return core[:-3].strip() in source
    if not core.endswith("}") or "{" not in core:
        return False
    prefix, _, body = core[:-1].partition("{")
    body = body.removesuffix(", …")
    if not body or (prefix.strip() and prefix.strip() not in source):
        return False
    pieces = [part.strip() for piece in body.split(", ") for part in CLIP.split(piece)]
    return all(piece in source for piece in pieces if piece)


def fit_rows(lines: list[str], room: int, header: bool) -> list[Item]:
    """Whole rows from the end and the start in turn, the header row first: never a
    row cut in its middle, one marker for the rows in between. The last rows often
    say how it ended (`Plan: 40 to add`): they come first, and a row too big for what
    is left closes its end only, the other end goes on filling."""
    first = lines[:1] if header else []
    body = lines[1:] if header else lines
    used = sum(len(line) + 1 for line in first) + 40
    taken = from_both_ends([len(line) + 1 for line in body], room - used, tail_first=True)
    head, tail = body[: taken.head], body[len(body) - taken.tail :] if taken.tail else []
    hidden = len(body) - len(head) - len(tail)
    middle: list[Item] = [Omission(hidden, f"{hidden} rows")] if hidden else []
    return [*first, *head, *middle, *tail]


@record
class Taken:
    """What `from_both_ends` took: how many from the start and from the end, the
    elements that closed an end (too big for what was left), the room left."""

    head: int
    tail: int
    blocked: list[int]
    left: int


def from_both_ends(costs: list[int], room: int, tail_first: bool) -> Taken:
    """Take elements of these `costs` from the start and the end in turn (the end first
    when `tail_first`) while they fit `room`; an end closes at its first element too
    big for what is left, and the other end goes on filling."""
    head = tail = 0
    low, high = 0, len(costs) - 1
    head_open = tail_open = True
    blocked: list[int] = []
    while low <= high and (head_open or tail_open):
        at_tail = tail_open and (not head_open or (tail <= head if tail_first else tail < head))
        index = high if at_tail else low
        if costs[index] <= room:
            room -= costs[index]
            if at_tail:
                tail, high = tail + 1, high - 1
            else:
                head, low = head + 1, low + 1
            continue
        blocked.append(index)
        if at_tail:
            tail_open = False
        else:
            head_open = False
    return Taken(head, tail, blocked, room)


# -- exact reads: a structured file cut between its elements, byte for byte ----------------

#: Room a marker line takes (`... keys 12–40 of 52 in .dependencies ("a" to "z") omitted ...`).
_MARKER_ROOM = 120
#: A collection too big to keep whole is cut inside (its first and last elements kept)
#: only when at least this much room is left for it; otherwise it is omitted whole.
_DESCENT_ROOM = 200
_NAME_LIMIT = 60
#: An element shown in one line keeps at most this many of the members that name it,
#: each clipped to this width.
_NAMING_MEMBERS = 3
_NAMING_WIDTH = 120


def _start(node: _Node) -> int:
    return node.start


class _Node:
    """One element of a structured file: `text[start:end]` (a JSON member with its key,
    a YAML block, a TOML table, a CSV row), its value from `value` on, and where it is."""

    __slots__ = ("end", "index", "name", "path", "start", "value")

    def __init__(self, start: int, end: int, value: int, name: str | None, index: int, path: str) -> None:
        self.start, self.end, self.value = start, end, value
        self.name, self.index, self.path = name, index, path


class _Tree:
    """How one format splits an element into its elements (None: it cannot be cut)."""

    name = ""
    #: JSON separates elements with commas (a cut must leave exactly one between two
    #: kept elements, and none before the first or after the last one); line formats
    #: need nothing but the lines themselves.
    commas = False

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: dict[tuple[int, str], tuple[str, bool]] = {}
        #: Elements of outlined collections left out of the last cut (not even named).
        self.unnamed = 0
        self._times: list[int] | None = None

    def times(self) -> list[int]:
        """Where a time (`_TIME`) may start in the text, in order: found once for every
        collection outlined (`_newest`)."""
        if self._times is None:
            self._times = [at for found in _TIME_TAIL.finditer(self.text) if (at := found.start() - 4) >= 0]
        return self._times

    def kids(self, node: _Node) -> tuple[str, list[_Node]] | None:
        """What the elements of `node` are (`items`, `keys`, `rows`…) and the elements."""
        raise NotImplementedError

    def line_of(self, node: _Node) -> tuple[str, bool]:
        """`line(node)`, made once however often a cut is tried."""
        key = (node.start, node.path)
        if key not in self.lines:
            self.lines[key] = self.line(node)
        return self.lines[key]

    def line(self, node: _Node) -> tuple[str, bool]:
        """`node` in one line, and whether that is all of it: a one-line element as it is,
        else its first line."""
        text = self.text[node.start : node.end].rstrip()
        first = text.split("\n", 1)[0].rstrip()
        return first, first == text

    def named_line(self, prefix: str, members: list[_Node], opening: str, closing: str) -> str:
        """`prefix` and the members that name a record (`_key_rank`: its name, id,
        version…) between `opening` and `closing`, the others as `…`."""
        text = self.text
        one_line = [m for m in members if m.name is not None and "\n" not in text[m.start : m.end].strip()]
        ranked = sorted(one_line, key=lambda m: _key_rank(m.name or ""))
        chosen = [m for m in ranked if _key_rank(m.name or "") < 2][:_NAMING_MEMBERS] or ranked[:1]
        shown = [clip_line(text[m.start : m.end].strip(), _NAMING_WIDTH) for m in sorted(chosen, key=_start)]
        if not shown:  # no member on one line of its own to name it by
            return f"{prefix}{opening}…{closing}"
        more = ", …" if len(chosen) < len(members) else ""
        return f"{prefix}{opening}{', '.join(shown)}{more}{closing}"


class _Marker:
    """What was omitted, the input lines it stood on, and whether it cuts a line of
    the file in two (elements that share a line: a one-line JSON document)."""

    __slots__ = ("detail", "inline", "lines")

    def __init__(self, detail: str, lines: int, inline: bool) -> None:
        self.detail, self.lines, self.inline = detail, lines, inline


_Token = str | _Marker
#: How many times a cut is tried in less or more room, until it takes at least
#: _FULL of the room without going over.
_TRIES = 6
#: How many rooms are tried for the least one that names every element of a collection.
_NAMING_TRIES = 5
_FULL = 0.9


def exact_cut(text: str, path: str | None, room: int, names: int = 0) -> tuple[list[Item], int, str] | None:
    """An exact read of a JSON, YAML, TOML or CSV/TSV file (`path` is the file the
    command named, if any) in `room` characters, cut between its elements: every kept
    element whole and byte for byte as the file has it, the first and last ones of a
    cut collection, a marker line naming what was omitted and where, the closing
    brackets kept. When a long collection cannot name every element in `room` (one
    line each, `_outline`) but can in `names` characters, it takes them: the names
    are the content. Returns the body, how many input lines were cut in their middle
    (a one-line JSON document is cut inside its line) and the format; None for any
    other text."""
    if "\r" in text:
        return None  # CRLF: its lines could not be shown byte for byte
    tree = _tree(text, path)
    if tree is None:
        return None
    cut = _cut(tree, room)
    if cut is None or not tree.unnamed or names <= room:
        return cut
    low, high, named = room, names, None  # the least room that names them all
    for _ in range(_NAMING_TRIES):
        middle = (low + high) // 2 if named is not None else high
        attempt = _cut(tree, middle)
        if attempt is not None and not tree.unnamed:
            named, high = attempt, middle
        else:
            low = middle
            if named is None:
                break  # not even in `names`
        if high - low < room // 20:
            break
    return named or cut


def _cut(tree: _Tree, room: int) -> tuple[list[Item], int, str] | None:
    """`exact_cut` of a tree in `room`: tried again in less or more room until it takes
    at least _FULL of it without going over."""
    text = tree.text
    root = _Node(0, len(text), 0, None, 0, "")
    target = room
    best: tuple[list[Item], int, str] | None = None
    best_size, best_unnamed = 0, 0
    for _ in range(_TRIES):
        tree.unnamed = 0
        tokens = _fit(tree, root, target)
        body, split = _lay_out(tokens)
        size = sum(map(len, body)) + len(body)
        if size > room:  # the shares are estimates: try again in less
            target -= size - room + _MARKER_ROOM
            continue
        if size > best_size:  # cuts inside one line (a one-line document) clip it once
            best, best_size = (body, min(split, text.count("\n", 0, -1) + 1), tree.name), size
            best_unnamed = tree.unnamed
        if size >= room * _FULL:
            break
        target += room - size  # room left: try again in more
    tree.unnamed = best_unnamed
    return best


def _tree(text: str, path: str | None) -> _Tree | None:
    """The format of `text`, by the file's extension when the command names one it
    knows, else by its content: JSON, JSON lines and CSV/TSV; TOML and YAML only for a
    file without an extension (`Pipfile`), whose content must show their structure (a
    log of `key: value` lines is no YAML to cut, its errors are pinned instead)."""
    extension = (path or "").rpartition(".")[2].lower() if path and "." in path.rpartition("/")[2] else ""
    by_content: tuple[Callable[[str], _Tree | None], ...] = (_JsonTree.of, _RowsTree.json_lines, _RowsTree.delimited)
    if not extension:
        by_content += (_TomlTree.of, _YamlTree.nested)
    makers = {
        "json": (_JsonTree.of,),
        "jsonl": (_RowsTree.json_lines,),
        "ndjson": (_RowsTree.json_lines,),
        "csv": (_RowsTree.delimited,),
        "tsv": (_RowsTree.delimited,),
        "toml": (_TomlTree.of,),
        "lock": (_TomlTree.of, _YamlTree.of, _JsonTree.of),  # Cargo.lock, poetry.lock; yarn.lock v2
        "yaml": (_YamlTree.of,),
        "yml": (_YamlTree.of,),
    }.get(extension, by_content)
    for make in makers:
        tree = make(text)
        if tree is not None:
            return tree
    return None


def _fit(tree: _Tree, node: _Node, room: int, drop: frozenset[str] = frozenset()) -> list[_Token]:
    """`node`'s value in `room` characters, without its members named in `drop`: whole if
    it fits; else every element that fits a fair share of the room whole and the bigger
    ones cut inside to that share (the deepest level that fits), when that share is room
    enough to cut in; else, for a long collection, its first and last elements whole
    and the others one line each (`_outline`); else its first and last elements whole,
    in turn from either end, and the first element too big for what is left cut the
    same way inside; one marker for the elements in between."""
    text = tree.text
    split = tree.kids(node) if node.end - node.value > room or drop else None
    if split is None or not split[1]:
        return [text[node.value : node.end]]
    kind, kids = split
    opener, closer = text[node.value : kids[0].start], text[kids[-1].end : node.end]
    inside = room - len(opener) - len(closer) - _MARKER_ROOM
    outlined = None if drop else _tree_outline(tree, node, kind, kids, inside, opener, closer)
    if outlined is not None:
        return outlined
    shared = _shared(tree, kids, inside, [k for k, kid in enumerate(kids) if kid.name in drop])
    if shared is not None:
        return _joined(tree, node, kind, kids, *shared, opener, closer)
    if len(kids) >= _OUTLINE_KIDS:
        return _outline(tree, node, kind, kids, inside, opener, closer)
    # each element and its separator; the first too big at either end is cut inside
    taken = from_both_ends([kid.end - kid.start + 2 for kid in kids], inside, tail_first=False)
    head = list(range(taken.head))
    tail = list(range(len(kids) - taken.tail, len(kids)))
    low, high, left = taken.head, len(kids) - 1 - taken.tail, taken.left
    blocked = list(dict.fromkeys(taken.blocked))
    inner: dict[int, list[_Token]] = {}
    blocked = [index for index in blocked if low <= index <= high]
    for position, index in enumerate(blocked):
        share = left // (len(blocked) - position)
        if share < _DESCENT_ROOM:
            break
        kid = kids[index]
        if not (tree.kids(kid) or ("", []))[1]:
            continue  # a value that cannot be cut (a long string, a one-line table): omitted
        tokens = _fit(tree, kid, share - (kid.value - kid.start))
        inner[index] = [text[kid.start : kid.value], *tokens]
        left -= _tokens_size(inner[index])
    shown = sorted({*head, *tail, *inner})
    return _joined(tree, node, kind, kids, shown, inner, opener, closer)


#: Room the marker of one element left out takes (`... key 6 of 6 in [[package]][3] ("wheels") omitted ...`).
_LEFT_OUT = 80
#: Room the marker of a run of elements left out of an outline takes (`... keys 40–52 of 512 in .packages omitted ...`).
_RUN_MARKER = 64
#: Elements are shown one line each only when that takes less than a third of their
#: whole text; else as many whole as fit, spread over them.
_ABBREVIATED = 3
#: The first and last elements of an outline are whole in at most this part of its room.
_ENDS = 10
#: A collection of at least this many elements, too long for each to get room enough
#: to be cut inside, is shown one line an element (`_outline`).
_OUTLINE_KIDS = 12


def _shared(
    tree: _Tree, kids: list[_Node], room: int, omitted: Iterable[int] = ()
) -> tuple[list[int], dict[int, list[_Token]]] | None:
    """Every element in a fair share of `room` (the most each may take so that all fit):
    those within it whole, the bigger ones cut inside to it; an element that cannot be
    cut is left out (as are the `omitted` ones) and its share goes to the others; of a
    collection of records, the members none can be cut inside first leave every record
    (`_columns`). None when the share is too small to cut an element in (_DESCENT_ROOM)
    while some element needs cutting."""
    costs = [kid.end - kid.start + 2 for kid in kids]
    drops = _columns(tree, kids, costs, room)
    left_out: set[int] = set(omitted)
    while True:
        level = _level([cost for k, cost in enumerate(costs) if k not in left_out], room - _LEFT_OUT * len(left_out))
        big = [k for k, cost in enumerate(costs) if cost > level and k not in left_out]
        if not big:
            break
        if level < _DESCENT_ROOM and len(kids) >= _OUTLINE_KIDS:
            return None
        uncut = [k for k in big if not (tree.kids(kids[k]) or ("", []))[1]]
        if uncut:  # a value that cannot be cut (a long string, a one-line table): the biggest goes
            left_out.add(max(uncut, key=lambda k: (costs[k], k)))
            continue
        if level < _DESCENT_ROOM:
            return None
        break
    if len(left_out) == len(kids):
        return None
    text = tree.text
    inner: dict[int, list[_Token]] = {}
    for k, kid in enumerate(kids):
        if k in big or (drops[k] and k not in left_out):
            share = level - 2 if k in big else kid.end - kid.start + _MARKER_ROOM  # room for all but what it drops
            inner[k] = [text[kid.start : kid.value], *_fit(tree, kid, share - (kid.value - kid.start), drops[k])]
    return [k for k in range(len(kids)) if k not in left_out], inner


def _columns(tree: _Tree, kids: list[_Node], costs: list[int], room: int) -> list[frozenset[str]]:
    """Of a collection of records too big for `room`, the members each leaves out: those
    no record can be cut inside (a one-line TOML value, a long string) that at least
    half the records hold under one name, while the collection does not fit and that
    name takes most of what it holds, the heaviest first (a `uv.lock`'s `wheels`: every
    package keeps its `sdist` and its dependencies, not only those with room to spare);
    then given back to the records, in their order, while the room left takes them. A
    name that says what a record is (`_key_rank`) stays, and so does a member smaller
    than the marker that would replace it. `costs` become the records' costs without them."""
    drops: list[frozenset[str]] = [frozenset()] * len(kids)
    if len(kids) < 2 or sum(costs) <= room:
        return drops
    sizes: list[dict[str, int]] = []
    weights: dict[str, int] = {}
    holders: dict[str, int] = {}
    for kid in kids:
        members = tree.kids(kid)
        mine = {
            member.name: member.end - member.start + 2
            for member in (members[1] if members and members[0] == "keys" else [])
            if member.name is not None
            and _key_rank(member.name) == 2
            and member.end - member.start + 2 > _LEFT_OUT
            and not (tree.kids(member) or ("", []))[1]
        }
        sizes.append(mine)
        for name, size in mine.items():
            weights[name] = weights.get(name, 0) + size
            holders[name] = holders.get(name, 0) + 1
    dropped: set[str] = set()
    reduced = list(costs)
    for name in sorted(weights, key=lambda name: (-weights[name], name)):
        if sum(reduced) <= room:
            break
        if 2 * holders[name] < len(kids):
            continue
        if 2 * weights[name] < sum(reduced):
            break  # no name takes most of what is left: the records are cut each in its share
        dropped.add(name)
        reduced = [
            cost - mine[name] + _LEFT_OUT if name in mine else cost for cost, mine in zip(reduced, sizes, strict=True)
        ]
    if not dropped:
        return drops
    spare = room - sum(reduced)
    for k, mine in enumerate(sizes):
        back = sum(mine[name] - _LEFT_OUT for name in dropped if name in mine)
        if spare >= back:  # the room left gives this record its members back
            spare -= back
        else:
            drops[k] = frozenset(dropped & mine.keys())
            costs[k] = reduced[k]
    return drops


def _level(costs: list[int], room: int) -> int:
    """The most each element may take so that all of them fit `room`: the elements that
    cost less take what they cost, the others that much each."""
    total = 0
    ordered = sorted(costs)
    for position, cost in enumerate(ordered):
        rest = len(ordered) - position
        if total + cost * rest > room:
            return max(0, (room - total) // rest)
        total += cost
    return ordered[-1] if ordered else 0


def _outline(
    tree: _Tree, node: _Node, kind: str, kids: list[_Node], room: int, opener: str, closer: str
) -> list[_Token]:
    """A long collection in `room`: its first and last elements whole (each when it
    takes at most a sixth of it, and more from either end in turn while the ends take
    at most a tenth), the others one line each
    (`_Tree.line`: a row whole, a package by its name and version), spread over them
    (`spread`) when not all fit, a marker before the lines that stand for more than one
    line of the file and one for each run left out. When every element is named, the
    room left shows some whole: first those that show values the ends do not (`_novel`:
    a car made in Europe among cars made in the USA; the room the ends' neighbours took
    goes to them then), then the ends' neighbours and the middle."""
    text = tree.text
    sizes = [kid.end - kid.start + 2 for kid in kids]
    first, last = int(sizes[0] <= room // 6), int(sizes[-1] <= room // 6)  # the first and the last one
    more = room // _ENDS - sizes[0] * first - sizes[-1] * last  # and more from either end in turn
    ends = from_both_ends(sizes[first : len(kids) - last], max(0, more), tail_first=False)
    low, high = first + ends.head, len(kids) - last - ends.tail
    indent = [_indent(text, kid.start) for kid in kids]
    comma = "," if tree.commas else ""

    def plan(low: int, high: int) -> tuple[list[tuple[str, bool]], list[int], list[int], list[int], int]:
        """`_named` of the elements between the ends, and the room they leave."""
        left = room - sum(sizes[:low]) - sum(sizes[high:])
        lines, named, whole, chosen = _named(tree, kids, indent, low, high, left)
        return lines, named, whole, chosen, left - _MARKER_ROOM - sum(named)

    planned = plan(low, high)
    if len(planned[3]) == high - low and (low, high) != (first, len(kids) - last):
        # values the ends do not show: the ends' neighbours are widened after the elements that show them
        reopened = plan(first, len(kids) - last)
        shown = kids[:low] + kids[high:]
        if len(reopened[3]) == len(kids) - last - first and next(_novel(tree, kids[low:high], shown, set()), None):
            low, high, planned = first, len(kids) - last, reopened
    lines, costs, whole, chosen, spare = planned
    if len(chosen) == high - low:  # every element named: the room left shows some whole
        widened: set[int] = set()
        novel = _novel(tree, kids[low:high], kids[:low] + kids[high:], widened)
        centre = (len(kids) - 1) // 2 - low  # the middle of the whole collection
        count = high - low
        around = [centre + (step + 1) // 2 * (1 if step % 2 else -1) for step in range(2 * count + 1)]
        fronts = [novel, iter(range(count)), iter(reversed(range(count))), iter(around)]
        while fronts:  # values not shown yet, the ends' neighbours and the middle, each until one does not fit
            for front in list(fronts):
                k = next((k for k in front if 0 <= k < count and k not in widened), None)
                grow = whole[k] - costs[k] if k is not None else 0
                if k is None or lines[k][1] or grow > spare:
                    fronts.remove(front)
                    continue
                widened.add(k)
                lines[k], spare = (text[kids[low + k].start : kids[low + k].end], True), spare - grow
    middle = kids[low:high]
    indent = indent[low:high]
    tokens: list[_Token] = [opener]
    if low:
        tokens += [text[kids[0].start : kids[low - 1].end] + comma]
    cut_short = [k for k in chosen if not lines[k][1]]
    if cut_short:
        where = f" in {node.path}" if node.path else ""
        span = f"{kind} {low + 1}–{high} of {len(kids)}{where}"
        folded = sum(text.count("\n", middle[k].start, middle[k].end) for k in cut_short)
        before = text[kids[low - 1].end : kids[low].start] if low else text[node.value : kids[0].start]
        inline = "\n" not in before  # elements on one line (a one-line document): that line is cut
        tokens.append(_Marker(f"{span} (one line each below): the rest of each", folded, inline))
    tree.unnamed += len(middle) - len(chosen)
    previous = -1
    for k in chosen:
        if k > previous + 1:
            tokens.append(_marker(tree, node, kind, kids, low + previous + 1, low + k - 1, names=False))
        separator = comma if low + k < len(kids) - 1 else ""
        tokens.append(("\n" if tokens[-1] is not opener else "") + indent[k] + lines[k][0] + separator)
        previous = k
    if previous < len(middle) - 1:
        tokens.append(_marker(tree, node, kind, kids, low + previous + 1, high - 1, names=False))
    if high < len(kids):
        tokens.append("\n" + _indent(text, kids[high].start) + text[kids[high].start : kids[-1].end])
    tokens.append(closer)
    return tokens


def _values(tree: _Tree, node: _Node) -> dict[str, str]:
    """The value of each named member of `node`, as the file has it."""
    members = tree.kids(node)
    if members is None or members[0] != "keys":
        return {}
    text = tree.text
    return {m.name: text[m.value : m.end].strip() for m in members[1] if m.name is not None}


def _novel(tree: _Tree, nodes: list[_Node], shown: list[_Node], widened: set[int]) -> Iterator[int]:
    """Positions of `nodes` to show whole, each time the one showing most values that
    neither the `shown` ones nor those `widened` so far show, of the members that take
    few values over the collection (a car's origin or its cylinders, not its name or
    weight), rarer kinds of value counting more (one over the number of values its
    member takes); the nearest the middle of equals. Ends when no element shows one."""
    values = [_values(tree, node) for node in nodes]
    kinds: dict[str, set[str]] = {}
    for mine in values:
        for name, value in mine.items():
            kinds.setdefault(name, set()).add(value)
    few = {name: 1 / len(kind) for name, kind in kinds.items() if 1 < len(kind) <= isqrt(len(nodes))}
    if not few:
        return
    seen = {(name, value) for node in shown for name, value in _values(tree, node).items() if name in few}
    centre = (len(nodes) - 1) / 2
    while True:
        seen |= {(name, values[k][name]) for k in widened for name in few if name in values[k]}
        scored = (
            (
                sum(weight for name, weight in few.items() if (name, values[k].get(name)) not in seen),
                -abs(k - centre),
                k,
            )
            for k in range(len(nodes))
            if k not in widened
        )
        best = max(scored, default=None)
        if best is None or best[0] <= 0:
            return
        yield best[2]


def _named(
    tree: _Tree, kids: list[_Node], indent: list[str], low: int, high: int, left: int
) -> tuple[list[tuple[str, bool]], list[int], list[int], list[int]]:
    """Of `kids[low:high]` in `left` characters: each one's line (`_Tree.line`, or whole
    when one line each would save little), what it costs, what it costs whole, and
    which are shown (all, or the most that fit spread over them: `_most_spread`)."""
    text = tree.text
    middle = kids[low:high]
    lines = [tree.line_of(kid) for kid in middle]
    costs = [len(line) + len(pad) + 2 for (line, _), pad in zip(lines, indent[low:high], strict=True)]
    whole = [kid.end - kid.start + len(pad) + 2 for kid, pad in zip(middle, indent[low:high], strict=True)]
    if sum(whole) <= _ABBREVIATED * sum(costs):  # one line each would save little: whole, spread
        lines, costs = [(text[kid.start : kid.end], True) for kid in middle], whole
    named = [k for k, kid in enumerate(middle) if kid.name is not None and _key_rank(kid.name) < 2]
    preferred = list(dict.fromkeys(_newest(text, middle, tree.times()) + named))
    return lines, costs, whole, _most_spread(costs, left - _MARKER_ROOM, preferred)


#: How many elements of a collection are looked into to tell whether it is a tree.
_TREE_PROBE = 8
#: A tree is outlined only while its elements' text (but the elements they hold) is at
#: most this many times the lines that name them: packages, folders; not modules with
#: their resources.
_THIN = 2


def _branches(tree: _Tree, kid: _Node, key: str) -> tuple[int, list[_Node]]:
    """The elements of `kid`'s member `key` (a package's `dependencies`, a folder's
    `children`) and how much of `kid`'s text that member takes; (0, []) when it has none."""
    members = tree.kids(kid)
    if members is None or members[0] != "keys":
        return 0, []
    for member in members[1]:
        if member.name == key:
            elements = (tree.kids(member) or ("", []))[1]
            # inside the member's value only (a line format may file a key's elements
            # where the table that holds it files its own)
            size = kid.end - kid.start
            inside = all(member.value <= e.start and e.end <= member.end and e.end - e.start < size for e in elements)
            return (member.end - member.start, elements) if inside and elements else (0, [])
    return 0, []


def _tree_key(tree: _Tree, kids: list[_Node]) -> str | None:
    """The member through which the elements of a collection nest (`dependencies` in
    `npm ls --json`, `children` in a directory tree): an element holds it as a collection
    whose elements hold it too. None for a collection that is no tree."""
    for kid in kids[:_TREE_PROBE]:
        members = tree.kids(kid)
        if members is None or members[0] != "keys":
            continue
        for member in members[1]:
            inner = (tree.kids(member) or ("", []))[1] if member.name else []
            if any(_branches(tree, element, member.name or "")[1] for element in inner[:_TREE_PROBE]):
                return member.name
    return None


def _stem(line: str) -> str | None:
    """What an element's line says of it but for what it leaves out: `"chalk":
    {"version": "4.1.2"` for `"chalk": {"version": "4.1.2", …}` and for `"chalk":
    {"version": "4.1.2"}`; an empty one's line (`"fsevents": {}`) whole; None for a line
    that names no member."""
    if line.endswith(("{}", "[]")):
        return line
    stem = line.removesuffix(", …}")
    if stem == line:
        stem = line.removesuffix("}")
    return None if stem == line or stem.endswith(("{", "{…")) else stem


def _repeats(tree: _Tree, kids: list[_Node], key: str) -> set[_Node]:
    """The elements of a tree below its top level that only repeat one met before it,
    level by level from the top (each level in its order): a keyed element that holds
    nothing and whose line says no more than that one's (npm's deduplicated packages:
    `"chalk": {"version": "4.1.2"}` after `"chalk": {"version": "4.1.2", …}`)."""
    seen = {_stem(tree.line_of(kid)[0]) for kid in kids}
    repeats: set[_Node] = set()
    level = [branch for kid in kids for branch in _branches(tree, kid, key)[1]]
    while level:
        following: list[_Node] = []
        for element in level:
            inner = _branches(tree, element, key)[1]
            stem = _stem(tree.line_of(element)[0])
            if stem is not None and not inner and element.name is not None and stem in seen:
                repeats.add(element)
            seen.add(stem)
            following += inner
        level = following
    return repeats


def _packed_size(lengths: list[int], pad: int) -> int:
    """What pieces of these lengths take packed several a line (`_packed`) after `pad` spaces."""
    total, width = 0, -1
    for length in lengths:
        if width >= 0 and width + 2 + length <= COMPACT_WIDTH:
            width += 2 + length
            continue
        total += width + 1 if width >= 0 else 0
        width = pad + length
    return total + (width + 1 if width >= 0 else 0)


def _packed(pieces: list[str], pad: str) -> list[str]:
    """Pieces several a line, `, ` between them, each line `pad` and at most
    COMPACT_WIDTH wide (or one piece): a tree's elements that hold none."""
    lines: list[str] = []
    for piece in pieces:
        if lines and len(lines[-1]) + 2 + len(piece) <= COMPACT_WIDTH:
            lines[-1] += ", " + piece
        else:
            lines.append(pad + piece)
    return lines


def _tree_outline(
    tree: _Tree, node: _Node, kind: str, kids: list[_Node], room: int, opener: str, closer: str
) -> list[_Token] | None:
    """A tree (elements nesting through one member: `_tree_key`) too big for `room`,
    named level by level: every element one line (`_Tree.line`: a package by its name
    and version) with the elements it holds indented under it, those that hold none
    several a line (`_packed`), the top level first, then every element's own as long
    as a whole level fits; past that, every element below that holds others (a tree's
    folders, at every depth: `_skeleton`) with as many of each one's other elements
    beside it as fit, else, of the level that does not fit, the elements of as many of
    its parents as fit, spread over them (`spread`), each all it holds or none (an
    element's line's `…` says the rest went). An element that holds none and only
    repeats one met higher in the tree (`_repeats`: npm's deduplicated packages) comes
    last: repeats are shown only when every other element is, as many as fit.
    None for a collection that is no tree, when not even its top level fits in one line
    each, or when its elements say much more than their names (_THIN: a module with its
    resources is cut as any element is)."""
    key = _tree_key(tree, kids)
    if key is None:
        return None
    repeats = _repeats(tree, kids, key)
    holding: dict[_Node, tuple[int, list[_Node]]] = {}

    def held(element: _Node) -> tuple[int, list[_Node]]:
        """How much of `element` what it holds takes, and the elements but the repeats."""
        if element not in holding:
            size, elements = _branches(tree, element, key)
            holding[element] = size, [e for e in elements if e not in repeats] if repeats else elements
        return holding[element]

    unnamed = tree.unnamed
    base = _indent(tree.text, kids[0].start)
    named = own = 0  # the characters of the lines shown, and of what they stand for

    def cost(kid: _Node, depth: int, held: int, inner: list[_Node]) -> int:
        """What `kid`'s line costs: a line of its own, or (holding none) its share of a packed one."""
        nonlocal own, named
        pad = len(base) + 2 * depth
        length = len(tree.line_of(kid)[0])
        line = pad + length + 1 if inner or not depth else length + 2 + (pad + 1) * (length + 2) // COMPACT_WIDTH
        own += kid.end - kid.start - held
        named += line
        return line

    def group_cost(elements: list[_Node], depth: int) -> int:
        """What `elements` (one parent's, in order) cost at `depth`, packed as they are laid out."""
        pad = len(base) + 2 * depth
        total = 0
        run: list[int] = []
        for element in elements:
            if held(element)[1]:
                total += _packed_size(run, pad) + pad + len(tree.line_of(element)[0]) + 1
                run = []
            else:
                run.append(len(tree.line_of(element)[0]))
        return total + _packed_size(run, pad)

    level = [(kid, *held(kid)) for kid in kids]
    used = sum(cost(kid, 0, size, inner) for kid, size, inner in level)
    if used > room:
        return None
    shown: dict[_Node, list[_Node]] = {}  # the elements shown with the elements they hold
    depth = 0
    while True:
        parents = [(kid, branches) for kid, _, branches in level if branches]
        if not parents:
            break  # every element named
        below = [[(branch, *held(branch)) for branch in branches] for _, branches in parents]
        each = [[cost(branch, depth + 1, size, inner) for branch, size, inner in group] for group in below]
        costs = [group_cost(branches, depth + 1) for _, branches in parents]
        if used + sum(costs) <= room:
            shown.update(parents)
            used += sum(costs)
            level, depth = [entry for group in below for entry in group], depth + 1
            continue
        # The skeleton below first (every element that holds elements, at every depth
        # from here: a tree's folders), then as many of each parent's other elements
        # (files: its first and last and a spread between) beside it as fit.
        groups = list(zip(parents, below, each, strict=True))
        frontier, at = [entry for group in below for entry in group if entry[2]], depth + 1
        while frontier:
            deeper = [[(branch, *held(branch)) for branch in inner] for _, _, inner in frontier]
            groups += zip(
                [(kid, inner) for kid, _, inner in frontier],
                deeper,
                [[cost(branch, at + 1, size, inner) for branch, size, inner in group] for group in deeper],
                strict=True,
            )
            frontier, at = [entry for group in deeper for entry in group if entry[2]], at + 1
        low, high, best = 0, len(parents), 0
        while low <= high:  # the most parents, spread over the level, whose elements fit
            middle = (low + high) // 2
            if used + sum(costs[k] for k in spread(len(parents), middle)) <= room:
                best, low = middle, middle + 1
            else:
                high = middle - 1
        chosen = set(spread(len(parents), best))
        spent = sum(costs[k] for k in chosen)
        for k, extra in enumerate(costs):  # and any other whose elements fit what is left
            if k not in chosen and used + spent + extra <= room:
                chosen.add(k)
                spent += extra
        skeleton = _skeleton([group for _, group, _ in groups], [sizes for _, _, sizes in groups], room - used)
        if skeleton is not None:
            leaves = skeleton[0]
            kept = [
                [b for b, _, inner in group if inner] + [bare[k] for k in spread(len(bare), leaves)]
                for _, group, _ in groups
                for bare in [[b for b, _, inner in group if not inner]]
            ]
            # it names no fewer, or every group keeps some of its elements where the
            # parents' whole groups would leave some parent with none (a file tree's
            # folders of many files: the one file named apart is in any folder)
            if sum(map(len, kept)) >= sum(len(parents[k][1]) for k in chosen) or (
                leaves and len(chosen) < len(parents)
            ):
                for ((parent, branches), _, _), chosen_branches in zip(groups, kept, strict=True):
                    shown[parent] = [branch for branch in branches if branch in set(chosen_branches)]
                    tree.unnamed += len(branches) - len(shown[parent])
                used += skeleton[1]
                break
        used += spent
        shown.update(parents[k] for k in sorted(chosen))
        tree.unnamed += sum(len(parents[k][1]) for k in range(len(parents)) if k not in chosen)
        break
    if own > _THIN * named:
        return None
    left_out = len(repeats)
    if repeats and tree.unnamed == unnamed:  # every other element named: the repeats while they fit
        queue = [(kid, 0) for kid in kids]
        for element, depth in queue:  # the shallowest first
            elements = _branches(tree, element, key)[1]
            before = shown.get(element, [])
            repeated = [e for e in elements if e in repeats]
            if repeated:
                after = [e for e in elements if e in repeats or e in set(before)]
                extra = group_cost(after, depth + 1) - group_cost(before, depth + 1)
                if used + extra <= room:
                    used, left_out, shown[element] = used + extra, left_out - len(repeated), after
            queue += [(e, depth + 1) for e in before]
    lines: list[str] = []
    stack: list[tuple[_Node, int] | str] = [(kid, 0) for kid in reversed(kids)]
    while stack:
        entry = stack.pop()
        if isinstance(entry, str):
            lines.append(entry)
            continue
        kid, depth = entry
        lines.append(base + "  " * depth + tree.line_of(kid)[0])
        laid: list[tuple[_Node, int] | str] = []
        run: list[str] = []
        for branch in [*shown.get(kid, []), None]:
            if branch is not None and not shown.get(branch):
                run.append(tree.line_of(branch)[0])
                continue
            laid += _packed(run, base + "  " * (depth + 1))
            run = []
            if branch is not None:
                laid.append((branch, depth + 1))
        stack += reversed(laid)
    count = len(kids) + sum(map(len, shown.values()))
    where = f" in {node.path}" if node.path else ""
    spanned = tree.text.count("\n", kids[0].start, kids[-1].end) + 1
    before_kids = tree.text[node.value : kids[0].start]
    nested = f"each one's {_quoted(key)} indented under it, those holding none several a line"
    again = f", and {left_out} that repeat an element higher in the tree," if left_out else ""
    detail = f"{kind}{where} as a tree, {count} named below, {nested}: the rest of each{again}"
    marker = _Marker(detail, max(0, spanned - len(lines)), "\n" not in before_kids)
    return [opener, marker, *(("\n" if k else "") + line for k, line in enumerate(lines)), closer]


def _skeleton(
    below: list[list[tuple[_Node, int, list[_Node]]]], lines: list[list[int]], room: int
) -> tuple[int, int] | None:
    """Of a tree's level too big for `room` (`below`: each parent's elements, with
    what each holds; `lines`: what each one's line costs), how many of each parent's
    elements that hold nothing (its first and last, a spread between) go beside all
    its elements that do, and what that costs; None when the elements that hold
    others alone do not fit."""

    def spent(leaves: int) -> int:
        total = 0
        for group, line in zip(below, lines, strict=True):
            bare = [size for (_, _, inner), size in zip(group, line, strict=True) if not inner]
            total += sum(line) - sum(bare) + sum(bare[k] for k in spread(len(bare), leaves))
        return total

    if spent(0) > room:
        return None
    low, high = 0, max((sum(1 for _, _, inner in group if not inner) for group in below), default=0)
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if spent(middle) <= room else (low, middle - 1)
    return low, spent(low)


#: An element's time (`"upload-time": "2026-11-20T21:09:24Z"`, `creationTimestamp: 2026-…`):
#: ISO 8601 text sorts as the times do.
_TIME = lazy(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?")
#: A `_TIME`'s required part after its year (`-11-20T21:09`): a time may start four
#: characters before each. Two cannot overlap (the third character after a match's
#: start is never `-`), so `finditer` finds them all; a search for `-` is quick, one for
#: a digit with what follows it is not (a JSON document is full of digits).
_TIME_TAIL = lazy(r"-\d\d-\d\d[T ]\d\d:\d\d")
#: The characters of `_TIME`'s required part (`2026-11-20T21:09`).
_TIME_LENGTH = 16
#: How many of a collection's newest elements an outline names first.
_NEWEST = 5


def _newest(text: str, nodes: list[_Node], starts: list[int]) -> list[int]:
    """The positions of the _NEWEST newest of `nodes` by the first time each holds,
    newest first, when they are not in the order of their times (files sorted by name:
    the newest release is not at the end, where `spread` looks for it); [] otherwise.
    `starts` are where a time may start in `text` (`_Tree.times`)."""
    times: list[tuple[str, int]] = []
    for k, node in enumerate(nodes):
        found = _time_in(text, node, starts)
        if found is not None:
            times.append((found, k))
    ordered = [time for time, _ in times]
    if (
        len(times) < len(nodes) // 2
        or all(a <= b for a, b in pairwise(ordered))
        or all(a >= b for a, b in pairwise(ordered))
    ):
        return []
    return [k for _, k in sorted(times, reverse=True)[:_NEWEST]]


def _time_in(text: str, node: _Node, starts: list[int]) -> str | None:
    """The first time (`_TIME`) `node` holds, or None. Searched for only when one may
    start inside it (`starts`, `_Tree.times`), from the first place one may: a
    collection's elements are searched at every level of an outline, and a search
    from the element's start read all of its text where it holds no time."""
    at = bisect_left(starts, node.start)
    if at == len(starts) or starts[at] + _TIME_LENGTH > node.end:
        return None  # no time's required part starts and ends inside it
    found = _TIME.search(text, starts[at], node.end)
    return found.group() if found else None


def _most_spread(costs: list[int], room: int, preferred: list[int]) -> list[int]:
    """The most of these elements whose costs and the markers between their runs fit
    `room`: the `preferred` ones first (the members that name a record and say how it is
    doing), then the others spread over them (`spread`); a run left out that costs no
    more than its marker would is shown instead."""

    def cost(chosen: list[int]) -> int:
        runs = sum(1 for a, b in pairwise([-1, *chosen, len(costs)]) if b > a + 1)
        return sum(costs[k] for k in chosen) + runs * _RUN_MARKER

    taken: list[int] = []
    for k in preferred:
        if cost(sorted([*taken, k])) <= room:
            taken.append(k)
    others = [k for k in range(len(costs)) if k not in set(taken)]
    low, high, best = 0, len(others), sorted(taken)
    while low <= high:
        limit = (low + high) // 2
        chosen = sorted(taken + [others[i] for i in spread(len(others), limit)])
        if cost(chosen) <= room:
            best, low = chosen, limit + 1
        else:
            high = limit - 1
    gaps = pairwise([-1, *best, len(costs)])
    filled = [k for a, b in gaps if b > a + 1 and sum(costs[a + 1 : b]) <= _RUN_MARKER for k in range(a + 1, b)]
    return sorted(best + filled)


def _indent(text: str, at: int) -> str:
    """The spaces before `at` on its line, when only spaces are before it."""
    start = text.rfind("\n", 0, at) + 1
    before = text[start:at]
    return before if not before.strip() else ""


def _joined(
    tree: _Tree,
    node: _Node,
    kind: str,
    kids: list[_Node],
    shown: list[int],
    inner: dict[int, list[_Token]],
    opener: str,
    closer: str,
) -> list[_Token]:
    """The shown elements with what lies between them in the file (a JSON comma only
    between two shown elements), and a marker for each run of omitted ones."""
    text = tree.text
    tokens: list[_Token] = [opener]
    previous = -1
    for index in shown:
        if index > previous + 1:  # a run omitted before this one
            tokens.append(_marker(tree, node, kind, kids, previous + 1, index - 1))
            tokens.append(_after_comma(text[kids[index - 1].end : kids[index].start], tree.commas))
        kid = kids[index]
        tokens += inner.get(index) or [text[kid.start : kid.end]]
        if index != shown[-1]:  # a shown element follows: what separates them in the file
            tokens.append(text[kid.end : kids[index + 1].start])
        previous = index
    if previous < len(kids) - 1:
        tokens.append(_marker(tree, node, kind, kids, previous + 1, len(kids) - 1))
    tokens.append(closer)
    return tokens


def _after_comma(between: str, commas: bool) -> str:
    """What separates two elements, without the comma before the second one."""
    return between.partition(",")[2] if commas and "," in between else between


def _marker(
    tree: _Tree, node: _Node, kind: str, kids: list[_Node], first: int, last: int, names: bool = True
) -> _Marker:
    """`items 41–898 of 900 in .items`, `keys 12–40 of 52 in .dependencies ("a" to "z")`
    (without the names when the lines around it show them: `names` false)."""
    total = len(kids)
    singular = kind[:-1] if kind.endswith("s") else kind
    span = f"{singular} {first + 1} of {total}" if first == last else f"{kind} {first + 1}–{last + 1} of {total}"
    where = f" in {node.path}" if node.path else ""
    between = ""
    if names and kids[first].name is not None:
        named = [_quoted(kids[first].name or "")] + ([_quoted(kids[last].name or "")] if last != first else [])
        between = f" ({' to '.join(named)})"
    text = tree.text
    lines = text.count("\n", kids[first].start, kids[last].end) + 1
    before = text[kids[first - 1].end : kids[first].start] if first else text[node.value : kids[0].start]
    return _Marker(f"{span}{where}{between}", lines, "\n" not in before)


def _unquoted(quoted: str) -> str:
    """A key as `_quoted` spelled it in a path, read back."""
    import json

    return str(json.loads(quoted))


def _quoted(name: str) -> str:
    import json

    quoted = json.dumps(name, ensure_ascii=False)
    return quoted if len(quoted) <= _NAME_LIMIT else quoted[: _NAME_LIMIT - 2] + '…"'


def _tokens_size(tokens: list[_Token]) -> int:
    return sum(len(token) if isinstance(token, str) else len(token.detail) + 20 for token in tokens)


def _lay_out(tokens: list[_Token]) -> tuple[list[Item], int]:
    """Tokens as body lines: the file's text as its lines, each marker on a line of its
    own (the indentation before it dropped; a line cut by a marker is ended there, and
    counted)."""
    body: list[Item] = []
    current = ""
    split = 0
    after_marker = False
    for token in tokens:
        if isinstance(token, _Marker):
            current = current.rstrip(" \t")
            if current:
                body.append(current)
                split += token.inline
            current = ""
            body.append(Omission(token.lines, token.detail))
            after_marker = True
            continue
        piece = token
        if after_marker:  # on a line of its own already: the line break before the text goes
            blank = len(piece) - len(piece.lstrip(" \t\n"))
            piece = piece[piece.rfind("\n", 0, blank) + 1 :]
            after_marker = not piece
        pieces = (current + piece).split("\n")
        body += pieces[:-1]
        current = pieces[-1]
    if current:
        body.append(current)
    return body, split


def _json_scanner() -> Any:
    import json

    return getattr(json.JSONDecoder(), "scan_once")  # noqa: B009 - not in the stubs


_JSON_SPACE = lazy(r"[ \t\n\r]*")


def _skip(text: str, at: int) -> int:
    """Past the JSON whitespace at `at`."""
    found = _JSON_SPACE.match(text, at)
    return found.end() if found else at


class _JsonTree(_Tree):
    name = "json"
    commas = True

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.scan = _json_scanner()
        self.known: dict[tuple[int, str], tuple[str, list[_Node]] | None] = {}

    def kids(self, node: _Node) -> tuple[str, list[_Node]] | None:
        """The elements of `node`'s value, scanned once however often a cut asks."""
        key = (node.value, node.path)
        if key not in self.known:
            self.known[key] = self._scan_kids(node)
        return self.known[key]

    @classmethod
    def of(cls, text: str) -> _JsonTree | None:
        """The tree of a JSON document (an object or an array), or None."""
        start = _skip(text, 0)
        if text[start : start + 1] not in ("{", "["):
            return None
        tree = cls(text)
        try:
            end = tree.scan(text, start)[1]
        except (StopIteration, ValueError, RecursionError):
            return None
        return tree if _skip(text, end) == len(text) else None

    def _scan_kids(self, node: _Node) -> tuple[str, list[_Node]] | None:
        text = self.text
        start = _skip(text, node.value)
        opening = text[start : start + 1]
        if opening not in ("{", "["):
            return None
        closing = "}" if opening == "{" else "]"
        kids: list[_Node] = []
        at = _skip(text, start + 1)
        while text[at : at + 1] != closing:
            member = at
            name = None
            if closing == "}":
                name, at = self.scan(text, at)
                at = _skip(text, _skip(text, at) + 1)  # past the colon
            value = at
            at = self.scan(text, at)[1]
            index = len(kids)
            kids.append(_Node(member, at, value, name, index, _path(node.path, name, index)))
            at = _skip(text, at)
            if text[at : at + 1] == ",":
                at = _skip(text, at + 1)
        return ("keys" if closing == "}" else "items"), kids

    def line(self, node: _Node) -> tuple[str, bool]:
        """A scalar as it is; an object as its key and the members that name it
        (`"node_modules/a": {"version": "1.2.0", …}`); an array as its key and `[…]`."""
        value = self.text[node.value : node.end]
        members = (self._scan_kids(node) or ("", []))[1] if value[:1] in ("{", "[") else []
        if not members:
            return super().line(node)
        prefix = self.text[node.start : node.value]
        if value[:1] == "[":
            return f"{prefix}[…]", False
        return self.named_line(prefix, members, "{", "}"), False


_PLAIN_KEY = lazy(r"^[A-Za-z_][\w-]*$")


def _path(parent: str, name: str | None, index: int) -> str:
    """jq's path to an element: `.packages`, `.items[3]`, `.packages["node_modules/a"]`."""
    if name is None:
        return f"{parent}[{index}]"
    return f"{parent}.{name}" if _PLAIN_KEY.match(name) else f"{parent}[{_quoted(name)}]"


class _LinesTree(_Tree):
    """A format whose elements are runs of whole lines, known when the tree is made."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        #: (start, path) of a node (the root: (-1, "")) -> its elements: a table and the
        #: run of array tables it opens start at one offset.
        self.children: dict[tuple[int, str], tuple[str, list[_Node]]] = {}

    def kids(self, node: _Node) -> tuple[str, list[_Node]] | None:
        return self.children.get(_key(node))

    def starts(self) -> list[int]:
        """The offset each line of the text starts at, and the text's end."""
        from itertools import accumulate

        return list(accumulate((len(line) + 1 for line in self.text.split("\n")), initial=0))


def _key(node: _Node) -> tuple[int, str]:
    """Where a line format keeps `node`'s elements."""
    return (node.start, node.path) if node.path else (-1, "")


class _RowsTree(_LinesTree):
    """CSV/TSV (the header row kept, as the opener) or JSON lines: rows of whole lines."""

    name = "rows"

    @classmethod
    def delimited(cls, text: str) -> _RowsTree | None:
        lines = text.split("\n")
        if delimited(lines) is None:
            return None
        tree = cls(text)
        starts = tree.starts()
        rows = _records(lines) if '"' in text else [(k, k + 1) for k in range(1, len(lines))]
        return tree.rows(starts, [row for row in rows if row[0] >= 1 and lines[row[0]].strip()])

    @classmethod
    def json_lines(cls, text: str) -> _RowsTree | None:
        lines = text.split("\n")
        if not json_lines(lines):
            return None
        tree = cls(text)
        return tree.rows(tree.starts(), [(k, k + 1) for k, line in enumerate(lines) if line.strip()])

    def rows(self, starts: list[int], rows: list[tuple[int, int]]) -> _RowsTree | None:
        if len(rows) < 2:
            return None
        ends = [starts[last] - 1 for _, last in rows]
        kids = [
            _Node(starts[first], end, starts[first], None, k, "")
            for k, ((first, _), end) in enumerate(zip(rows, ends, strict=True))
        ]
        self.children[-1, ""] = ("rows", kids)
        return self


def _records(lines: list[str]) -> list[tuple[int, int]]:
    """The (first, end) lines of each CSV record: a quoted field may hold line breaks."""
    import csv

    reader = csv.reader(lines)
    records = []
    first = 0
    try:
        for _ in reader:
            records.append((first, reader.line_num))
            first = reader.line_num
    except csv.Error:
        return [(k, k + 1) for k in range(len(lines))]
    return records


_TOML_TABLE = lazy(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_KEY = lazy(r"^\s*[\"'A-Za-z0-9_.-][^=]*=")


class _TomlTree(_LinesTree):
    """TOML by its tables: `[x]` tables and runs of `[[x]]` array tables are the
    elements of the file; a table's keys are its elements."""

    name = "toml"

    @classmethod
    def of(cls, text: str) -> _TomlTree | None:
        lines = text.split("\n")
        headers = [(k, found) for k, found in enumerate(map(_TOML_TABLE.match, lines)) if found]
        if not headers or not any(_TOML_KEY.match(line) for line in lines[:50]):
            return None
        tree = cls(text)
        starts = tree.starts()
        end_of = [k for k, _ in headers[1:]] + [len(lines)]
        tables: list[tuple[str, bool, int, int]] = []  # name, array, first line, end line
        if headers[0][0] > 0:
            tables.append(("", False, 0, headers[0][0]))
        for (k, found), end in zip(headers, end_of, strict=True):
            name, array = found.group(2), found.group(1) == "[["
            if tables and tables[-1][1] and name.startswith(tables[-1][0] + "."):
                tables[-1] = (*tables[-1][:3], end)  # `[package.metadata]`: the last [[package]]'s
            else:
                tables.append((name, array, k, end))
        kids: list[_Node] = []
        position = 0
        while position < len(tables):
            name, array, first, end = tables[position]
            run = position + 1
            while array and run < len(tables) and tables[run][:2] == (name, True):
                run += 1
            node = _Node(starts[first], starts[tables[run - 1][3]] - 1, starts[first], name or None, len(kids), "")
            node.path = f"[[{name}]]" if array else f"[{name}]" if name else "(top)"
            if array and run - position > 1:
                items = [
                    _Node(starts[f], starts[e] - 1, starts[f], None, i, f"{node.path}[{i}]")
                    for i, (_, _, f, e) in enumerate(tables[position:run])
                ]
                for item, (_, _, f, e) in zip(items, tables[position:run], strict=True):
                    tree._keys(item, lines, starts, f + 1, e)
                tree.children[_key(node)] = ("tables", items)
            else:
                tree._keys(node, lines, starts, first + (1 if name else 0), end)
            kids.append(node)
            position = run
        tree.children[-1, ""] = ("tables", kids)
        return tree

    def line(self, node: _Node) -> tuple[str, bool]:
        """A table as its header and the keys that name it (`[[package]] {name = "a",
        version = "1.2.0", …}`), a key as its first line."""
        keys = self.children.get(_key(node))
        if not node.path.startswith("[") or keys is None:
            return super().line(node)
        header = self.text[node.start : node.end].split("\n", 1)[0].strip()
        return self.named_line(header + " ", keys[1], "{", "}"), False

    def _keys(self, node: _Node, lines: list[str], starts: list[int], first: int, end: int) -> None:
        """A table's key lines as its elements (a multi-line value goes with its key)."""
        keys = [k for k in range(first, end) if _TOML_KEY.match(lines[k])]
        if len(keys) < 2:
            return
        ends = keys[1:] + [end]
        kids = [
            _Node(starts[k], starts[e] - 1, starts[k], lines[k].partition("=")[0].strip(), i, node.path)
            for i, (k, e) in enumerate(zip(keys, ends, strict=True))
        ]
        kids[-1].end = starts[_last_content(lines, keys[-1], end)] - 1
        node.value = starts[keys[0]] if node.name is None else node.value
        self.children[_key(node)] = ("keys", kids)


def _last_content(lines: list[str], first: int, end: int) -> int:
    """The line after the last non-blank line of `lines[first:end]`."""
    while end > first + 1 and not lines[end - 1].strip():
        end -= 1
    return end


_YAML_KEY = lazy(r"^(?P<indent> *)(?:- +)?(?P<key>[^\s#:-][^#:]*?|\"[^\"]*\"|'[^']*'):(?: |$)")
_YAML_ITEM = lazy(r"^(?P<indent> *)- ")


class _YamlTree(_LinesTree):
    """YAML by indentation, without a parser: the top-level keys and `- ` items, and
    inside each the keys and items one level deeper, are its elements (a block runs
    to the next line as shallow as its own)."""

    name = "yaml"

    @classmethod
    def of(cls, text: str) -> _YamlTree | None:
        lines = text.split("\n")
        content = [line for line in lines[:50] if line.strip() and not line.lstrip().startswith("#")]
        if not content or not all(
            _YAML_KEY.match(line) or _YAML_ITEM.match(line) or line.startswith((" ", "---")) for line in content
        ):
            return None
        tree = cls(text)
        starts = tree.starts()
        root = _Node(0, len(text), 0, None, 0, "")
        if not tree._blocks(root, lines, starts, 0, len(lines), 0, depth=3):
            return None
        return tree

    @classmethod
    def nested(cls, text: str) -> _YamlTree | None:
        """YAML known by its content: a key whose value is the deeper block under it."""
        tree = cls.of(text)
        return tree if tree is not None and len(tree.children) > 1 else None

    def _blocks(
        self, node: _Node, lines: list[str], starts: list[int], first: int, end: int, indent: int, depth: int
    ) -> bool:
        """Split `lines[first:end]` into the blocks starting at `indent`: `node`'s elements."""
        heads = [
            k
            for k in range(first, end)
            if lines[k].strip()
            and len(lines[k]) - len(lines[k].lstrip(" ")) == indent
            and not lines[k].lstrip().startswith("#")
        ]
        if len(heads) < 2 and node.path:
            return False
        if not heads:
            return False
        items = all(_YAML_ITEM.match(lines[k]) for k in heads)
        ends = heads[1:] + [end]
        kids: list[_Node] = []
        for i, (k, following) in enumerate(zip(heads, ends, strict=True)):
            e = _last_content(lines, k, following)
            found = None if items else _YAML_KEY.match(lines[k])
            name = found.group("key").strip("\"'") if found else None
            kid = _Node(starts[k], starts[e] - 1, starts[k], name, i, _path(node.path, name, i))
            if e - k > 1 and depth > 1:
                inner = next((j for j in range(k + 1, e) if lines[j].strip()), None)
                if inner is not None:
                    deeper = len(lines[inner]) - len(lines[inner].lstrip(" "))
                    if deeper > indent or (deeper == indent and _YAML_ITEM.match(lines[inner]) and not items):
                        kid.value = starts[inner] if not items else starts[k]
                        if not items:
                            self._blocks(kid, lines, starts, inner, e, deeper, depth - 1)
            kids.append(kid)
        self.children[_key(node)] = ("items" if items else "keys", kids)
        return True
