"""Body lines and the markers that stand in for what was cut.

A reduced body is a list whose items are either `str` (a line of the input,
possibly clipped) or an `Omission`. Keeping omissions as objects until the end
lets later steps (head/tail, the size clamp) merge them into one honest count
instead of stacking markers. Every marker tokenjuice prints matches
`MARKER_PATTERN`, so `verify` can check that nothing else was invented.
"""

from __future__ import annotations

from itertools import compress, count, groupby, islice, pairwise, repeat
from operator import eq, ne, sub

from ..fast.lazyre import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

MARKER_PATTERN = r"^\.\.\. .+ omitted \.\.\.$"
CLIP = lazy(r" …\[\d+ chars omitted\]… ")


class Pinned(str):
    """A line a rule marked as must-keep (`pin_patterns`): cuts go around it."""

    __slots__ = ()


class Omission:
    """`count` input lines left out at this point; `detail` says which, if not plain."""

    __slots__ = ("count", "detail")

    def __init__(self, count: int, detail: str | None = None) -> None:
        self.count = count
        self.detail = detail

    def __len__(self) -> int:
        """The length of the marker it shows, so that a body's size is `sum(map(len, items))`."""
        return len(self.render())

    def render(self) -> str:
        if self.detail:
            return f"... {self.detail} omitted ..."
        return f"... {self.count} line{'s' if self.count != 1 else ''} omitted ..."


class Trimmed(Omission):
    """A block of lines a rule trimmed (`trim_patterns`), marked where it was, its first
    and last line kept aside: shown around the marker where the room allows
    (`engine.choose`: installed code's first and last rows in a coverage table)."""

    __slots__ = ("ends",)

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__(len(lines))
        self.ends = (lines[0], lines[-1])

    def opened(self) -> tuple[Item, ...]:
        """The block with its first and last line shown around a marker for the rest."""
        return (self.ends[0], Omission(self.count - 2), self.ends[1]) if self.count > 2 else self.ends


class Indented(Omission):
    """A marker among lines said under a heading, two spaces in as they are (the
    entries left out of a folder under a folder said once: `reencode.folders_said_once`)."""

    __slots__ = ()

    def render(self) -> str:
        return "  " + super().render()


class Encoded(str):
    """A line that re-encodes `lines` input lines without losing a fact (grep's path
    once per file, a directory's entries in one brace list); 0 for a heading it adds."""

    def __new__(cls, text: str, lines: int) -> Encoded:
        made = super().__new__(cls, text)
        made.lines = lines
        return made

    lines: int


class Whole(str):
    """An input line longer than the size clamp's line limit that a unit cutter
    counted whole in its room (a diff's changed line): the clamp leaves it whole."""

    __slots__ = ()


#: A body item: a line of the input (`str`, possibly `Pinned`, `Encoded` or clipped) or a marker.
Item = str | Omission


def size(items: Sequence[Item]) -> int:
    """The characters `items` take as shown, a newline after each (a marker as it renders)."""
    return sum(map(len, items)) + len(items)


#: A rule drawn to the terminal's width (pytest's `_____ test_x _____` and `===== FAILURES =====`,
#: a table's `--------`): eight or more of one such character (`reencode.squeeze` shows three).
#: Each match is a whole run: the search takes the first of a run, greedily.
RULE_MARKS = "_=─━═-"  # the hyphen last: in the class below it is itself, not a range
RULED = lazy(rf"([{RULE_MARKS}])\1{{7,}}")


def squeezable(items: Sequence[Item]) -> int:
    """At least what `reencode.squeeze` saves of the lines among `items`: their spaces,
    and what it would save of every rule drawn among them (a table's border too)."""
    text = "".join([item for item in items if isinstance(item, str)])
    return text.count(" ") + sum(found.end() - found.start() - 3 for found in RULED.finditer(text))


#: Items are measured this many at a time where all that matters is whether they
#: pass a size: a long output is read only as far as it takes to tell.
SCAN_ITEMS = 256


def beyond(items: Sequence[Item], room: int) -> bool:
    """Do `items` take more than `room` characters shown (`size`)?"""
    return measured(items, room) > room


def measured(
    items: Sequence[Item], limit: int, solid: bool = False, read: dict[tuple[int, bool], tuple[int, int]] | None = None
) -> int:
    """The characters `items` take shown (`size`), or with `solid` with every space
    gone (less `squeezable`), read only until past `limit`: exact up to it, past it some
    count past it. `read` keeps how far items that live as long as it were read and
    what they took, to go on from there."""
    key = (id(items), solid)
    done, taken = read.get(key, (0, 0)) if read is not None else (0, 0)
    while taken <= limit and done < len(items):
        part = items[done : done + SCAN_ITEMS]
        taken += size(part) - squeezable(part) if solid else size(part)
        done += len(part)
    if read is not None:
        read[key] = (done, taken)
    return taken


def render(items: Sequence[Item]) -> list[str]:
    return [item.render() if isinstance(item, Omission) else item for item in items]


def weight(item: Item) -> int:
    """How many input lines an item stands for."""
    return item.count if isinstance(item, Omission) else item.lines if isinstance(item, Encoded) else 1


def shown_lines(items: Sequence[Item]) -> int:
    return sum(weight(item) for item in items if not isinstance(item, Omission))


def head_tail(items: list[Item], head: int, tail: int, pin_limit: int = 0) -> list[Item]:
    """Keep `head` items and `tail` items; in between keep only pinned lines (at most
    `pin_limit`, the first and last ones), each gap replaced by one omission."""
    head, tail = max(0, head), max(0, tail)
    if len(items) <= head + tail or (head == 0 and tail == 0):
        return items
    end = len(items) - tail
    # the pinned lines of the middle, found in C: a flood's middle is 100,000s of lines
    pins = list(compress(range(head, end), map(isinstance, islice(items, head, end), repeat(Pinned))))
    if len(pins) > pin_limit:
        pins = pins[: pin_limit - pin_limit // 2] + (pins[len(pins) - pin_limit // 2 :] if pin_limit // 2 else [])
    return items[:head] + _kept(items, pins, head, end) + items[end:]


def keep_only(items: Sequence[Item], keep: set[int]) -> list[Item]:
    """`items` with only the positions in `keep`; each run of others becomes one omission."""
    return _kept(items, sorted(at for at in keep if 0 <= at < len(items)), 0, len(items))


def _kept(items: Sequence[Item], kept: list[int], start: int, end: int) -> list[Item]:
    """The items from `start` to `end` at the positions `kept` (in order, within them),
    each run between them one omission, cut as slices: no step a line."""
    result: list[Item] = []
    for at in kept:
        if at > start:
            result.append(_collapse(items[start:at]))
        result.append(items[at])
        start = at + 1
    if end > start:
        result.append(_collapse(items[start:end]))
    return result


def _collapse(run: Sequence[Item]) -> Omission:
    """One omission for a dropped run; a lone omission stays as it is (with its detail)."""
    first = run[0]
    return first if len(run) == 1 and isinstance(first, Omission) else merge(run)


def merge(items: Sequence[Item]) -> Omission:
    """One omission standing for all of `items` (lines and earlier omissions): as many
    as there are items, unless some stand for more (looked for in C)."""
    if any(map(isinstance, items, repeat((Omission, Encoded)))):
        return Omission(sum(map(weight, items)))
    return Omission(len(items))


def dedupe_adjacent(items: Sequence[Item], marked: list[int] | None = None) -> list[Item]:
    """Collapse runs of identical lines. A run of three or more non-blank lines leaves
    a marker saying how many repeats went; a single repeat or blank lines go quietly
    (the trailer still counts them). Omissions break runs. The lines of a unified
    diff's hunks are no repeats (`+` twice adds two blank lines; `ruff format --diff`,
    `diff -u`). A block of lines said three times or more in a row (a recursion's
    cycle of frames) is said once, the rest marked (`_cycles`). `marked`, when given,
    gets the positions of the markers it adds."""
    given = list(items)
    result = _cycles(_deduped(given))
    if marked is not None:
        before = {id(item) for item in given if isinstance(item, Omission)}
        marked.extend(k for k, item in enumerate(result) if type(item) is Omission and id(item) not in before)
    return result


def _deduped(items: list[Item]) -> list[Item]:
    """`dedupe_adjacent`'s runs of one line."""
    # The positions that repeat the item before them, found in C: most lines repeat
    # none, and only the runs are walked (omissions only equal themselves).
    repeating = list(compress(count(1), map(eq, items, islice(items, 1, None))))
    if repeating and (hunks := _in_hunks(items, repeating)):  # a diff's lines are no repeats: `+` twice adds two
        repeating = [k for k in repeating if k not in hunks]
    elif len(repeating) * 4 > len(items):  # mostly repeats (a flood of one line): grouped in C
        grouped: list[Item] = []
        for item, run in groupby(items):
            repeats = len(list(run)) - 1
            grouped.append(item)
            if repeats >= 2 and isinstance(item, str) and item.strip():
                grouped.append(Omission(repeats, f"{repeats} identical lines"))
        return grouped
    result: list[Item] = []
    start = k = 0
    while k < len(repeating):
        first = repeating[k] - 1  # a run: items[first] and the repeats of it after it
        end = first + 1
        while k < len(repeating) and repeating[k] == end:
            end += 1
            k += 1
        result += items[start : first + 1]
        repeats = end - first - 1
        item = items[first]
        if repeats >= 2 and isinstance(item, str) and item.strip():
            result.append(Omission(repeats, f"{repeats} identical lines"))
        start = end
    result += items[start:]
    return result


#: The most lines a block said again and again may have and still be said once: a
#: recursion's cycle of frames (a StackOverflowError through two `toString` methods is
#: seven Java frames, said 145 times).
_CYCLE = 12


def _cycles(items: list[Item]) -> list[Item]:
    """`items` with each run of a block of 2 to `_CYCLE` lines said three times or more in
    a row said once, a marker counting the lines of its other full repeats (`... 1001
    lines repeating the 7 above omitted ...`). The shortest period is found first, so a
    cycle is said in its own lines; a block of blank lines, and the lines of a unified
    diff's hunks, are no cycle (`+` lines adding the same rows again add rows). Looked
    for (one pass in C for each period) only where such runs fill the output: when most
    of every eighth line are said more than once among them, as a cycle's are whatever
    its period; the rest of outputs are returned as they are at the cost of one set."""
    sample = items[::8]
    if len(sample) < 3 or len(set(sample)) * 2 > len(sample):
        return items
    runs: list[tuple[int, int, int]] = []  # (first line, period, full periods)
    taken: list[tuple[int, int]] = []
    covered = 0  # lines the runs found take: once they are nearly all, longer periods find no more
    for period in range(2, min(_CYCLE, len(items) // 3) + 1):
        if covered * 10 >= len(items) * 9:
            break
        same = list(compress(count(), map(eq, items, islice(items, period, None))))
        if len(same) < 2 * period:
            continue
        # where a run of consecutive positions ends, found in C: a flood of one cycle is one run
        ends = compress(count(1), map(ne, map(sub, islice(same, 1, None), same), repeat(1)))
        for first, after in pairwise([0, *ends, len(same)]):
            start, span = same[first], after - first + period
            periods = span // period
            end = start + periods * period
            block = items[start : start + period]
            said = any(isinstance(line, str) and line.strip() for line in block)  # not only blank lines
            if periods >= 3 and said and not any(a < end and start < b for a, b in taken):
                runs.append((start, period, periods))
                taken.append((start, end))
                covered += end - start
    if not runs:
        return items
    hunks = _in_hunks(items, [start for start, _, _ in runs])
    result: list[Item] = []
    at = 0
    for start, period, periods in sorted(runs):
        if hunks and not hunks.isdisjoint(range(start, start + periods * period)):
            continue
        result += items[at : start + period]
        cut = (periods - 1) * period
        result.append(Omission(cut, f"{cut} lines repeating the {period} above"))
        at = start + periods * period
    return result + items[at:]


#: A unified diff's hunk header: how many old and new lines its body holds.
_HUNK = lazy(r"^@@ -\d+(?:,(?P<old>\d+))? \+\d+(?:,(?P<new>\d+))? @@")
#: What a line of a hunk's body starts with: removed, added, context (whose lone space
#: may have been stripped: ""), and `\ No newline at end of file`.
_BODY_SIGNS = frozenset(("-", "+", " ", "", "\\"))


def _in_hunks(items: Sequence[Item], repeating: Sequence[int]) -> set[int]:
    """`hunk_bodies(items)`, looked for only when one of the `repeating` positions
    could be a line of a hunk: empty when none could."""
    if not any(_near_a_change(items, k) for k in repeating):
        return set()
    return hunk_bodies(items)


def hunk_bodies(items: Sequence[Item]) -> set[int]:
    """The positions of the body lines of the unified diff hunks among `items` (as many
    as each `@@ -a,b +c,d @@` header says: `-` lines count as old, `+` as new, context
    as both); empty when no line opens a hunk (looked for in C)."""
    texts = list(compress(count(), map(isinstance, items, repeat(str))))
    strings: list[str] = [*map(items.__getitem__, texts)]  # type: ignore[list-item]  # the str items
    body: set[int] = set()
    for head in compress(texts, map(str.startswith, strings, repeat("@@ -"))):
        header = items[head]
        found = _HUNK.match(header) if isinstance(header, str) else None
        if found is None:
            continue
        old, new = int(found.group("old") or 1), int(found.group("new") or 1)
        k = head + 1
        while k < len(items) and (old > 0 or new > 0):
            line = items[k]
            sign = line[:1] if isinstance(line, str) else None
            if sign == "-" and old > 0:
                old -= 1
            elif sign == "+" and new > 0:
                new -= 1
            elif sign in (" ", "") and old > 0 and new > 0:
                old, new = old - 1, new - 1
            elif sign != "\\":
                break
            body.add(k)
            k += 1
    return body


#: How far from a changed line a hunk's context reaches (git's 3 lines each side, and room
#: for a repeat inside a run of context).
_NEAR = 6


def _near_a_change(items: Sequence[Item], k: int) -> bool:
    """Whether the repeat at `k` may be a line of a hunk: it starts as a diff's line does
    and a line at most `_NEAR` away from it (a hunk's context around a change is 3 lines
    each side unless asked otherwise) is a removed or added line, or opens the hunk."""
    line = items[k]
    if not isinstance(line, str) or line[:1] not in _BODY_SIGNS:
        return False
    near = items[max(0, k - _NEAR) : k + _NEAR + 1]
    return any(isinstance(other, str) and other[:1] in ("+", "-", "@") and other.strip() for other in near)
