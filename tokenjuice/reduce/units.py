"""Structure-aware cutting: outputs made of units are cut between units, never inside one.

A rule declares what its output is made of (`unit = "diff-file"`, `"commit"`,
`"path"`, `"match-file"`, `"row"`, `"dir"`, `"test"`), and a parser here splits the
filtered lines into `Unit`s and loose lines (headers, summaries). When the whole
does not fit the budget, `fit` makes it fit in steps, each only as far as needed:

1. lossless re-encodings (grep's path once per file, brace lists, a listing's shared
   folder said once over its paths) for every unit;
2. compress inside units: the lines worth least go first (a diff file's context
   lines), then a unit's short form replaces its full form (a commit's hash and
   subject, a diff file's file line and changed lines, a failing test's title and
   the message of its failure) — units that matter least first (passing before
   failing, vendored before the project's own), the last ones before the first;
3. reduce a unit to its minimal form where it has one (one marker line naming a
   file and its count of matches, or its hunks), so that every unit is still named;
4. drop whole units, least important and last first; each run of dropped units
   becomes one marker that counts them by kind and group (`... 30 more paths
   (12 modified, 18 untracked) omitted ...`).

These steps run for the units that matter least first, all the way, before any
unit that matters more is touched: passing tests are dropped before a failing test
loses its traceback. A form no smaller than the one shown is never taken. Units
that can be shown in part (a file's matches, a diff file's changed lines, a
directory's entries) then share the room left evenly: each keeps its first lines
and a count of the rest, rather than the first units keeping all and the last none.

Every line shown is an input line or a tokenjuice marker; the only derived line is
a commit's short form (`<short hash> <subject>`), which `verify` recognises.
"""

from __future__ import annotations

import bisect
import re

from ..fast.lazyre import lazy
from ..rules.model import UNITS
from ..text import clip_line, holding, pluralize
from . import findings, records, traces
from .lines import Encoded, Indented, Item, Omission, Pinned, Whole
from .lines import size as _size
from .reencode import brace_lines, braced_diff_line, folders_said_once, paired_name_line, placed, shared_folder
from .unit import Parsed, Unit
from .unit import input_lines as _input_lines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from ..rules.patterns import Lines

_LINE_LIMIT = 300
#: A diff's changed line is content: clipped only past this many characters.
_CHANGE_LIMIT = 2000

__all__ = ["Parsed", "Unit", "fit", "lossless_whole", "parse", "region_noise", "regions", "vendored"]


# -- fitting ------------------------------------------------------------------------------

FULL, LOSSLESS, TRIMMED, SHORT, MINIMAL, DROPPED = 0, 1, 2, 3, 4, 5


def fit(parsed: Parsed, available: int) -> list[Item]:
    """The items of `parsed` within `available` characters, cut between units. The
    markers a cut adds are only known once rendered: aim lower until they fit too.
    When the names of the units alone (every file that matched, every directory) do
    not fit, they are kept anyway (up to NAMES_FACTOR times the room) and a third of
    the room still goes to the units' lines: a flood shows a spread of its matches
    beside the names, not the names alone."""
    loose = [part for part in parsed if not isinstance(part, Unit)]
    if len(loose) == len(parsed):  # nothing to cut between (the rule's head and tail cut it): the lines
        return _render(parsed, {}) if any(isinstance(part, Omission) for part in loose) else loose
    target = available
    best: list[Item] | None = None
    best_size = 0
    # A flood's markers are only estimated (the folders its tallies share, the files its
    # findings share): a fit that aimed too low tries again higher, between the highest
    # aim that fitted and the lowest that did not. Other units keep the first fit.
    sampled = any(isinstance(part, Unit) and (part.sample or part.gathered) for part in parsed)
    # Folders said once (a listing's, a search's) make the output shorter than its units
    # measure: fewer tries (each measures its folders again).
    headed = _paths_listed(parsed, _SAID_UNDER)
    fitted = over = 0
    for _ in range(_HEADED_TRIES if headed else _TRIES if sampled else 4):
        items, names_over = _fit_once(parsed, target, available * NAMES_FACTOR, available // 3)
        size = _size(items)
        if names_over:
            return items
        if size > available:
            over = target
            target = (fitted + target) // 2 if fitted else target - (size - available) - _MARKER_COST
        else:
            if best is None or size > best_size:
                best, best_size = items, size
            if not sampled or available - size <= available // _SLACK:
                break
            fitted = target
            target = (target + over) // 2 if over else target + available - size
        if sampled and over and over - fitted <= _MARKER_COST:
            break
    return best if best is not None else items


#: How many fits `fit` tries at most for a flood whose markers are estimated, and for
#: one whose folders are said once (each try measures its folders again).
_TRIES = 6
_HEADED_TRIES = 4
#: A fit that leaves less than this share of the room unused is close enough.
_SLACK = 20


def _fit_once(parsed: Parsed, available: int, names_limit: int, reserve: int) -> tuple[list[Item], bool]:
    """One try at `fit`, and whether the units' names alone went past `available`."""
    units = [(index, part) for index, part in enumerate(parsed) if isinstance(part, Unit)]
    state = {index: FULL for index, _ in units}
    # A marker among the loose lines costs its room only where a unit shown ends the run
    # before it (else it is said with that run's marker): reckoned at nothing here, what
    # the rendered fit measures corrects the aim (`fit`).
    loose = sum(_size([part]) for part in parsed if not isinstance(part, Unit | Omission))
    sizes = {
        index: [
            unit.size,
            _size(unit.lossless) if unit.lossless else unit.size,
            _size(unit.trimmed) if unit.trimmed else unit.size,
            _size(unit.short),
            # a tallied minimal form costs its tally in its folder's shared marker
            (len(unit.tally) + 2 if unit.tally else _size(unit.minimal)) if unit.minimal else 0,
            0,
        ]
        for index, unit in units
    }
    total = loose + sum(sizes[index][FULL] for index, _ in units)
    if total > available:  # expendable units go first, all of them
        for index, unit in units:
            if unit.expendable:
                total -= sizes[index][FULL]
                state[index] = DROPPED
    if total > available:
        # Lossless first: every unit that has a shorter re-encoding takes it, before
        # any unit loses a line.
        for index, unit in units:
            if unit.lossless and sizes[index][LOSSLESS] < sizes[index][FULL]:
                total -= sizes[index][FULL] - sizes[index][LOSSLESS]
                state[index] = LOSSLESS
    positions = [index for index, _ in units]
    neighbours = {
        index: (positions[k - 1] if k else None, positions[k + 1] if k + 1 < len(positions) else None)
        for k, index in enumerate(positions)
    }
    # The least important go first; among equals the biggest files of a diff and the
    # biggest directories (they cost most), otherwise the last units (the first ones
    # are the most recent).
    seen: set[str] = set()
    first = {}
    for index, unit in units:
        first[index] = not unit.family or unit.family not in seen
        seen.add(unit.family)
    # Among the first of their labels, the only unit of its label (a linter's code that
    # occurs once) goes last: dropped, it costs a marker line of its own and its message
    # is gone, where the first of a label with others shares the marker that counts them.
    lone = _lone(units)
    # Within a kind, each group loses its last members in turn, so that no group (the
    # untracked files, the rows of one status) goes whole while another keeps many.
    rank: dict[int, int] = {}
    members: dict[tuple[str, str, str], int] = {}
    for index, unit in units:
        key = (unit.kind, unit.group, unit.section)
        rank[index] = members.get(key, 0)
        members[key] = rank[index] + 1

    def thinned(index: int, unit: Unit) -> tuple[int, ...]:
        """Where a unit comes in the order its kind thins out in."""
        if unit.kind in _BY_SIZE:
            return (-unit.size,)
        position, count = rank[index], members[unit.kind, unit.group, unit.section]
        if unit.kind in _SPREAD:
            return (_spread_rank(position, count), -index)
        if unit.kind in _ENDS:  # every group loses its last member before any its first
            back = count - 1 - position
            return (-min(position, back), position <= back, -index)
        return (-position, -index)

    # Findings said together (a code's 60 places in one line) go after the single ones:
    # they keep many for the room of a few.
    order = sorted(
        units, key=lambda pair: (pair[1].priority, first[pair[0]], pair[0] in lone, pair[1].count, thinned(*pair))
    )
    # Minimal forms save about as much each, and so do dropped names: the last units
    # go first, so the first ones keep their short forms in one piece.
    by_position = sorted(units, key=lambda pair: (pair[1].priority, first[pair[0]], pair[0] in lone, -pair[0]))
    # Units with a minimal form name something a reader must see (a file that
    # matched, a directory): they are dropped only past NAMES_FACTOR times the room.
    # The units that matter least are cut as far as they go (compressed, reduced,
    # dropped) before any unit that matters more is touched: passing tests go before
    # a failing test loses its traceback.
    # What a unit is worth least (a diff's context, a finding's excerpt, a traceback's
    # library frames) goes from every unit, least important first, before any unit is
    # shortened further or dropped.
    tiers = sorted({unit.priority for _, unit in units})
    steps: list[tuple[float | None, int, int, bool]] = [(tier, TRIMMED, available, True) for tier in tiers]
    steps += [
        (tier, target, limit, named)
        for tier in tiers
        for target, limit, named in (
            (SHORT, available, True),
            (MINIMAL, available, True),
            (DROPPED, available, False),
        )
    ]
    steps.append((None, DROPPED, names_limit, True))
    # A group of a listing shorter than the marker that would count it is never cut
    # into: the marker would stand for less than it takes (`_render` shows the lines).
    listed: dict[tuple[str, str, str], int] = {}
    for index, unit in units:
        if unit.kind in _ENDS:
            key = (unit.kind, unit.group, unit.section)
            listed[key] = listed.get(key, 0) + sizes[index][state[index]]
    small = {key for key, size in listed.items() if size <= _RUN_MARKER_COST}
    gathered: set[str] = set()
    for tier, target, limit, named in steps:
        if total <= limit:
            continue
        for index, unit in by_position if target == MINIMAL or (target == DROPPED and named) else order:
            if total <= limit:
                break
            if tier is not None and unit.priority != tier:
                continue
            if (target == MINIMAL and not unit.minimal) or (
                target == DROPPED and bool(unit.minimal and unit.names) != named
            ):
                continue
            if target == TRIMMED and not unit.trimmed:
                continue
            if target == DROPPED and (unit.kind, unit.group, unit.section) in small:
                continue
            current = state[index]
            if current >= target or (target != DROPPED and sizes[index][target] >= sizes[index][current]):
                continue  # a short or minimal form no smaller than what is shown saves nothing
            total -= sizes[index][current] - sizes[index][target]
            state[index] = target
            if target == DROPPED and unit.gathered:
                if unit.gathered not in gathered:  # the first of its label: one more line counting them
                    gathered.add(unit.gathered)
                    total += _gathered_cost(unit)
            elif target == DROPPED:  # a new run of dropped units is one more marker; joining two, one fewer
                marker = _RUN_MARKER_COST if unit.kind in _ENDS else _MARKER_COST  # its counts by state and folder
                total += marker * (1 - _dropped_neighbours(index, neighbours, state))
    compact: set[float] = set()
    if gathered:
        total = _compact_gathered(units, state, sizes, gathered, compact, total, available, lone)
    names_over = total > available
    partial = _refill(units, state, sizes, max(available - total, reserve) if names_over else available - total)
    return _render(parsed, state, partial, compact), names_over


def _compact_gathered(
    units: list[tuple[int, Unit]],
    state: dict[int, int],
    sizes: dict[int, list[int]],
    gathered: set[str],
    compact: set[float],
    total: int,
    available: int,
    lone: set[int],
) -> int:
    """Units dropped under labels (a linter's findings under their codes): where the
    lines counting each label go past the room (a hundred codes), the least important
    tiers, one at a time, are counted on one line each (`C0116 107, C0103 34, …`, no
    places) and their units still shown go too. Then the room left goes back to
    dropped units, the most important tier first, the first of each label before the
    others. Returns the new total; `compact` gets the tiers counted on one line.
    `lone`: the units alone of their label (`_lone`), given back before the others."""
    tiers = sorted({unit.priority for index, unit in units if unit.gathered})
    for tier in tiers:
        if total <= available:
            break
        members = [(index, unit) for index, unit in units if unit.gathered and unit.priority == tier]
        labels = {unit.gathered: unit for index, unit in members if state[index] == DROPPED}
        total -= sum(_gathered_cost(unit) for unit in labels.values())
        total += _COMPACT_COST
        for index, unit in members:
            if state[index] != DROPPED:
                total -= sizes[index][state[index]]
                state[index] = DROPPED
                labels.setdefault(unit.gathered, unit)
        listed = sorted(labels.values(), key=lambda unit: -len(unit.group))[:_COMPACT_LABELS]
        total += sum(len(unit.group) + 8 for unit in listed)
        gathered.update(labels)
        compact.add(tier)
    for tier in reversed(tiers):
        seen: set[str] = set()
        # the only unit of its label first, then the first of each other label, then
        # those that stand for most findings (said together), then in order
        order: list[tuple[bool, bool, int, int]] = []
        for index, unit in units:
            if unit.priority == tier and unit.gathered:
                order.append((unit.gathered in seen, index not in lone, -unit.count, index))
                seen.add(unit.gathered)
        for *_, index in sorted(order):
            if state[index] != DROPPED:
                continue
            # whole where it fits; shortened, it costs its share of a marker too
            for form, cost in ((FULL, sizes[index][FULL]), (SHORT, sizes[index][SHORT] + _RUN_MARKER_COST)):
                if total + cost <= available:
                    state[index] = form
                    total += cost
                    break
    return total


def _lone(units: list[tuple[int, Unit]]) -> set[int]:
    """The indexes of the units that are the only ones of their label (`gathered`)."""
    count: dict[str, int] = {}
    for _, unit in units:
        if unit.gathered:
            count[unit.gathered] = count.get(unit.gathered, 0) + 1
    return {index for index, unit in units if unit.gathered and count[unit.gathered] == 1}


_COMPACT_COST = 48
#: About what a marker counting the lines a run of short forms left out takes.
_RUN_MARKER_COST = 48


def lossless_whole(parsed: Parsed) -> list[Item]:
    """Every unit of `parsed` in its lossless form where it has one (grep's path said
    once, brace lists, a linter's findings of one file under its path), nothing cut;
    [] when no unit has one."""
    if not any(isinstance(part, Unit) and (part.lossless or part.heading) for part in parsed):
        return []
    state = {k: LOSSLESS if part.lossless else FULL for k, part in enumerate(parsed) if isinstance(part, Unit)}
    return _render(parsed, state)


def _refill(
    units: list[tuple[int, Unit]], state: dict[int, int], sizes: dict[int, list[int]], room: int
) -> dict[int, tuple[Item, ...]]:
    """Share the room the cuts left among the units that can be shown in part (a
    file's matches, a diff file's changed lines, a directory's entries), the most
    important first. Within one importance the room is shared evenly: every unit gets
    its first line, then its second, and so on, so a flood keeps a little of every
    file rather than all of the first ones. Units shown short are shown in part too
    when others of their importance are not, so that no unit keeps all while another
    keeps nothing."""
    partial: dict[int, tuple[Item, ...]] = {}
    tiers: dict[float, list[tuple[int, Unit]]] = {}
    for index, unit in units:
        if unit.body and state[index] != DROPPED:
            tiers.setdefault(unit.priority, []).append((index, unit))
    for priority in sorted(tiers, reverse=True):
        tier = tiers[priority]
        if not any(state[index] in (SHORT, MINIMAL) for index, _ in tier):
            continue  # whole, or cut no further than their lossless or trimmed forms: nothing to share
        base = {index: MINIMAL if unit.minimal else SHORT for index, unit in tier}
        for index, _ in tier:  # every unit starts again from its minimal (or short) form...
            room += sizes[index][state[index]] - sizes[index][base[index]]
            state[index] = base[index]
        if room < 80:
            continue
        if all(unit.sample for _, unit in tier):
            picks, room = _sampled(tier, {index: sizes[index][base[index]] for index, _ in tier}, room)
            partial.update(picks)
            continue
        costs = {index: _PartialCost(unit, sizes[index][base[index]]) for index, unit in tier}
        counts, spent, spread = _shares(tier, costs, room)
        # Units shown with all their lines but not their heads (a diff file's hunk
        # headers) share one marker after them: its room comes first, out of the
        # lines' share if what they leave is too little.
        if any(counts.get(index) == len(unit.body) for index, unit in tier if unit.heads):
            fewer = _shares(tier, costs, room - _RUN_MARKER_COST) if room - spent < _RUN_MARKER_COST else ()
            if fewer and fewer[0]:  # (lines and a marker past the room beat no line at all)
                counts, spent, spread = fewer
            room -= _RUN_MARKER_COST
        room -= spent
        # the first head of a unit shown past its first few lines (or whole) came with them
        paid = set() if spread else {index for index, count in counts.items() if costs[index].with_heads(count)}
        heads, room = _heads_shown(tier, counts, paid, room)
        for index, unit in tier:
            count = counts.get(index, 0)
            if not count:
                continue
            whole = count == len(unit.body) and _input_lines(unit.lines) > _input_lines(unit.lead) + count
            if whole and heads[index] == len(unit.heads) and unit.short == unit.lead + unit.body:
                state[index] = SHORT  # all of its body: its short form, whose run says what else went
            elif whole and not heads[index] and unit.heads and unit.short == unit.partial(count, 0):
                state[index] = SHORT  # all of its lines, none of its heads: the same
            elif whole and heads[index] == len(unit.heads) and unit.trimmed:
                state[index] = TRIMMED  # all of its lines and heads: all but the lines worth least
            else:
                partial[index] = unit.partial(count, heads[index])
    # What is left makes the units cut furthest fuller (a diff file's mode change, a
    # unit shown with all of its body gets its context back), the most important and
    # the first ones first.
    for index, unit in sorted(units, key=lambda pair: (-pair[1].priority, pair[0])):
        current = state[index]
        if index in partial or current in (FULL, LOSSLESS, DROPPED):
            continue
        # a lossless form says all the full one does; units that matter least get no more than their short form
        forms = (LOSSLESS if unit.lossless else FULL, TRIMMED, SHORT) if unit.priority else (SHORT,)
        for form in forms:
            if form >= current or (form == TRIMMED and not unit.trimmed):
                continue
            if sizes[index][current] < sizes[index][form] <= sizes[index][current] + room:
                room -= sizes[index][form] - sizes[index][current]
                state[index] = form
                break
    return partial


#: A sample stops once this many lines in a row did not fit the room left.
_SAMPLE_MISSES = 24


def _sampled(tier: list[tuple[int, Unit]], base: dict[int, int], room: int) -> tuple[dict[int, tuple[Item, ...]], int]:
    """The lines of a flood of units (a search's files, a listing's folders) within
    `room`, in equal measure from three ends: the first lines of the output, its last
    lines, and lines spread over its units (each unit's first line, units chosen evenly
    over the output, then each one's last, middle and so on). `base` is what each unit
    costs unshown (its share of a marker). Returns each unit shown in part, and the
    room left."""
    import heapq

    def keyed(index: int, unit: Unit, positions: Iterable[int]) -> Iterator[tuple[int, int, int]]:
        return ((unit.at[k] if unit.at else k, index, k) for k in positions)

    # lazily: a flood of 100,000 lines is looked at only as far as the room goes
    forward: Iterator[tuple[int, int, int]]
    backward: Iterator[tuple[int, int, int]]
    if all(unit.at and (not k or unit.at[0] > tier[k - 1][1].at[-1]) for k, (_, unit) in enumerate(tier)):
        # units one after the other (a file's matches): the output's order is theirs
        forward = (entry for index, unit in tier for entry in keyed(index, unit, range(len(unit.body))))
        backward = (
            entry for index, unit in reversed(tier) for entry in keyed(index, unit, reversed(range(len(unit.body))))
        )
    else:  # a folder's entries are spread over find's output
        forward = heapq.merge(*(keyed(index, unit, range(len(unit.body))) for index, unit in tier))
        backward = heapq.merge(
            *(keyed(index, unit, reversed(range(len(unit.body)))) for index, unit in tier), reverse=True
        )
    units = dict(tier)

    def spread() -> Iterator[tuple[int, int, int]]:
        orders = {index: _bisection(len(units[index].body)) for index in (tier[k][0] for k in _bisection(len(tier)))}
        while orders:
            for index, order in list(orders.items()):
                k = next(order, None)
                if k is None:
                    del orders[index]
                else:
                    yield (0, index, k)

    sources: list[Iterator[tuple[int, int, int]]] = [forward, backward, spread()]
    chosen: dict[int, list[int]] = {}
    spent = dict(base)
    # a folder's entries without the folder, made once: its brace lists are measured, not made
    names = {index: [str(line)[len(unit.braces) :] for line in unit.body] for index, unit in tier if unit.braces}
    misses = 0
    while sources and misses < _SAMPLE_MISSES:
        for source in list(sources):
            found = next(source, None)
            if found is None:
                sources.remove(source)
                continue
            _, index, k = found
            picked = chosen.get(index, [])
            if k in picked:
                continue
            unit = units[index]
            wanted = sorted([*picked, k])
            cost = unit.picked_size(wanted, names.get(index, ()))
            if cost - spent[index] > room:
                misses += 1
                continue
            misses = 0
            room -= cost - spent[index]
            spent[index], chosen[index] = cost, wanted
    shown = {index: units[index].picked(picked) for index, picked in chosen.items()}
    for index, picked in chosen.items():  # a marker is never longer than the lines it stands for
        whole = units[index].picked(range(len(units[index].body)))
        if len(picked) < len(units[index].body) and _size(whole) <= spent[index]:
            room -= _size(whole) - spent[index]
            shown[index] = whole
    return shown, room


def _bisection(count: int) -> Iterator[int]:
    """0 to count - 1 in the order that keeps those taken spread evenly: the first, the
    last, the middle, then the middles of each half, and so on."""
    if count <= 0:
        return
    yield 0
    if count == 1:
        return
    yield count - 1
    spans = [(0, count - 1)]
    while spans:
        following: list[tuple[int, int]] = []
        for low, high in spans:
            if high - low < 2:
                continue
            middle = (low + high) // 2
            yield middle
            following += [(low, middle), (middle, high)]
        spans = following


def _shares(
    tier: list[tuple[int, Unit]], costs: dict[int, _PartialCost], room: int
) -> tuple[dict[int, int], int, bool]:
    """How many body lines each unit of `tier` shows (`_even_shares`, up to where it
    may be cut), the room they take, and whether they were spread without heads."""
    counts: dict[int, int] = {}
    spent = 0
    shares, spread = _even_shares(tier, costs, room)
    for index, share in shares.items():
        count = costs[index].shown_of(share)
        if count > 0:
            counts[index] = count
            spent += costs[index].of(count, heads=not spread)
    return counts, spent, spread


def _heads_shown(
    tier: list[tuple[int, Unit]], counts: dict[int, int], paid: set[int], room: int
) -> tuple[dict[int, int], int]:
    """How many of its heads (a diff's hunk headers) each unit shows among the body
    lines it shows, and the room left: the units in `paid` have their first head
    already (their lines paid for it); then the first head of every other unit, the
    second of every unit, and so on, while the room lasts. Heads are worth less than
    the lines under them: they get only what the lines left."""
    heads = {index: unit.revealed_heads(counts[index]) for index, unit in tier if index in counts}
    shown = {index: min(1, len(positions)) if index in paid else 0 for index, positions in heads.items()}
    bodies = dict(tier)
    for turn in range(max((len(positions) for positions in heads.values()), default=0)):
        for index, positions in heads.items():
            if shown[index] != turn or turn >= len(positions):
                continue
            cost = _size([bodies[index].body[positions[turn]]])
            if cost > room:
                continue
            shown[index] = turn + 1
            room -= cost
    return shown, room


#: A unit shown in part with up to this many body lines shows them without its heads
#: (a diff file's first changed lines without their hunk headers: every file's first
#: changes come before any file's hunk headers); with more, or with all of them, its
#: first head comes with them (where those lines are is worth more than one more line).
_HEADLESS_LINES = 4


class _PartialCost:
    """What showing `count` lines of a unit's body (the first `count` of its `order`)
    costs over what it shows now: up to _HEADLESS_LINES lines without their heads,
    past it (or all of them) with the first head among them; its other heads get the
    room left (`_heads_shown`). A marker for each run of lines left out before a shown
    one, and one for the rest."""

    def __init__(self, unit: Unit, shown: int) -> None:
        self.unit, self.shown = unit, shown
        self.lead = _size(unit.lead)
        self.prefix = [0]  # the lines without heads
        self.head = [0]  # what the first head among them takes
        self.lines = [0]  # how many lines are not heads
        self.gaps = [0]  # how many runs of lines left out come before a shown line
        self.trailing = [bool(unit.body)]  # are lines left out after the last one shown?
        # where each line that is not a head is among them, and whether it is shown
        heads = unit.heads
        position = [-1] * len(unit.body)
        others = 0
        for k in range(len(unit.body)):
            if k not in heads:
                position[k], others = others, others + 1
        seen = [False] * others
        runs = 1 if others else 0  # runs of lines not shown
        prefix, head, lines, gaps, trailing = self.prefix, self.head, self.lines, self.gaps, self.trailing
        for k in unit.order or range(len(unit.body)):
            cost = len(unit.body[k]) + 1
            p = position[k]
            head.append(head[-1] or (cost if p < 0 else 0))
            if p < 0:  # a head
                prefix.append(prefix[-1])
                lines.append(lines[-1])
            else:
                prefix.append(prefix[-1] + cost)
                lines.append(lines[-1] + 1)
                left = p > 0 and not seen[p - 1]
                right = p + 1 < others and not seen[p + 1]
                runs += 1 if left and right else -1 if not (left or right) else 0
                seen[p] = True
            last = bool(others) and not seen[-1]
            gaps.append(runs - last)
            trailing.append(last)
        self.gap = len(f"... {unit.more_lines(9)} omitted ...") + 1

    def with_heads(self, count: int) -> bool:
        """Do the first `count` body lines come with their first head?"""
        return self.lines[count] > _HEADLESS_LINES or 0 < self.lines[count] == self.lines[-1]

    def shown_of(self, count: int) -> int:
        """How many body lines showing `count` of them really shows: up to the next
        place the unit may be cut (a diff's removed line goes with the added line that
        replaces it), and all of them where the rest would take no more room than the
        marker counting them."""
        unit = self.unit
        if count and unit.breaks is not None:
            count = next((b for b in unit.breaks if b >= count), len(unit.body))
        rest = len(unit.body) - count
        if count and rest > 0 and self.prefix[-1] - self.prefix[count] <= self.markers(count):
            return len(unit.body)
        return count

    def markers(self, count: int) -> int:
        """What the markers of the first `count` lines take (about: a marker's count is
        only known once shown)."""
        left = self.lines[-1] - self.lines[count]
        last = len(f"... {self.unit.more_lines(left)} omitted ...") + 1 if self.trailing[count] else 0
        return last + self.gaps[count] * self.gap

    def of(self, count: int, heads: bool = True) -> int:
        """What the first `count` body lines cost (with their first head where
        `with_heads`, unless not `heads`)."""
        count = self.shown_of(count)
        head = self.head[count] if heads and self.with_heads(count) else 0
        return self.lead + self.prefix[count] + head + self.markers(count) - self.shown


def _spread(tier: list[tuple[int, Unit]], costs: dict[int, _PartialCost], room: int) -> dict[int, int]:
    """One body line for as many units as `room` holds, chosen evenly over `tier`
    (the first and the last among them), rather than the first ones; for one, the
    first whose line fits. No head is paid for: more units' first lines come before
    any unit's head."""

    def one(index: int) -> int:
        return costs[index].of(1, heads=False)

    count = len(tier)
    best: dict[int, int] = {}
    low, high = 1, count
    while low <= high:
        wanted = (low + high) // 2
        if wanted == 1:
            picked = [next((pair for pair in tier if one(pair[0]) <= room), tier[0])]
        else:
            picked = [tier[round(k * (count - 1) / (wanted - 1))] for k in range(wanted)]
        if sum(max(0, one(index)) for index, _ in picked) <= room:
            best, low = {index: 1 for index, _ in picked}, wanted + 1
        else:
            high = wanted - 1
    # what the even spacing left: one line for more units, spread over the others
    left = room - sum(max(0, one(index)) for index in best)
    for k in _bisection(count):
        index = tier[k][0]
        if index not in best and 0 < one(index) <= left:
            best[index] = 1
            left -= one(index)
    return best


def _even_shares(
    tier: list[tuple[int, Unit]], costs: dict[int, _PartialCost], room: int
) -> tuple[dict[int, int], bool]:
    """How many body lines each unit of `tier` shows: the largest even share every
    unit can have within `room` (a unit with fewer lines takes all of them), then one
    more line each for the first units while room is left. Where not even one line
    each fits, units spread evenly over the output get one line each, without their
    heads (`_spread`; True with the shares)."""

    def spent(share: int) -> int:
        return sum(max(0, costs[index].of(min(share, len(unit.body)))) for index, unit in tier)

    longest = max(len(unit.body) for _, unit in tier)
    low, high, share = 1, longest, 0
    while low <= high:
        middle = (low + high) // 2
        if spent(middle) <= room:
            share, low = middle, middle + 1
        else:
            high = middle - 1
    if not share:  # not one line each: one line for units spread evenly over the output
        return _spread(tier, costs, room), True
    shares = {index: min(share, len(unit.body)) for index, unit in tier}
    left = room - spent(share)
    for index, unit in tier:  # what is left: one more line each, first units first
        count = shares[index]
        if count >= len(unit.body):
            continue
        extra = costs[index].of(count + 1) - max(0, costs[index].of(count)) if count else costs[index].of(1)
        if extra <= left:
            shares[index] = count + 1
            left -= extra
    return {index: count for index, count in shares.items() if count}, False


_MARKER_COST = 12
#: Kinds whose units thin out evenly over the output (a log's records) rather than
#: from its end.
_SPREAD = ("line",)


def _spread_rank(rank: int, count: int) -> int:
    """The order in which members of a group go so that those left are spread evenly:
    odd positions first, then those not a multiple of four, and so on; the first and
    the last go last."""
    if rank in (0, count - 1):
        return count.bit_length() + 1
    depth = 0
    while rank % 2 == 0:
        rank //= 2
        depth += 1
    return depth


_BY_SIZE = ("file", "directory")
#: Kinds whose units thin out from the middle of each group (a listing's paths): its
#: first and last members stay longest, one run in between is counted.
_ENDS = ("path",)
#: How far past the budget the names of units (files that matched, directories) go
#: before some of them are dropped too.
NAMES_FACTOR = 4


def _gathered_cost(unit: Unit) -> int:
    """About what the line counting the dropped units of `unit`'s label takes."""
    return len(unit.gathered) + 3 * (len(unit.place) + 2) + 32


def _gathered_markers(gathered: dict[str, list[Unit]], compact: set[float], shown: set[str]) -> list[Item]:
    """One marker per label of the dropped units that are gathered (a linter's code),
    the most important and the most numerous first, each naming where the first of
    them are: `... 212 more F401 (src/a.py:3, src/b.py:7, src/c.py:1, …) omitted ...`;
    for a `compact` tier one marker for all its labels: `... 415 more: C0116 107, …`.
    "more" only for a label `shown` above (a unit of it shown), else `... 18 W0613 (…)`."""
    markers: list[Item] = []
    ranked = sorted(
        gathered.items(), key=lambda pair: (-max(u.priority for u in pair[1]), -sum(u.count for u in pair[1]))
    )
    tiers: dict[float, list[list[Unit]]] = {}
    for label, dropped in ranked:
        tier = dropped[0].priority
        if tier in compact:
            if tier not in tiers:
                markers.append(Omission(0))  # its place among the others, filled below
                tiers[tier] = []
            tiers[tier].append(dropped)
            continue
        places = list(dict.fromkeys(place for unit in dropped for place in (unit.place, *unit.also) if place))
        where = _places(places[:_PLACES], places) + (", …" if len(places) > _PLACES else "")
        lines = sum(_input_lines(unit.lines) for unit in dropped)
        more = "more " if label in shown else ""
        counted = sum(unit.count for unit in dropped)
        markers.append(Omission(lines, f"{counted:,} {more}{label}" + (f" ({where})" if where else "")))
    placeholders = [k for k, marker in enumerate(markers) if isinstance(marker, Omission) and not marker.count]
    for slot, groups in zip(placeholders, tiers.values(), strict=True):
        counts = [
            f"{groups_of[0].group or groups_of[0].gathered} {sum(unit.count for unit in groups_of):,}"
            for groups_of in groups
        ]
        listed = ", ".join(counts[:_COMPACT_LABELS]) + (
            f" and {len(counts) - _COMPACT_LABELS} more" if len(counts) > _COMPACT_LABELS else ""
        )
        dropped_all = [unit for groups_of in groups for unit in groups_of]
        what = pluralize(sum(unit.count for unit in dropped_all), ("more " if shown else "") + dropped_all[0].kind)
        markers[slot] = Omission(sum(_input_lines(unit.lines) for unit in dropped_all), f"{what}: {listed}")
    gathered.clear()
    return markers


_COMPACT_LABELS = 24


_PLACES = 3


def _places(places: list[str], every: list[str]) -> str:
    """`a.py:3, a.py:7, b.py:1` as `a.py:3,7, b.py:1`: each file said once, and the
    folder the files of `every` place (those listed and those not) share once (`in
    src/app/: a.py:3,7, b.py:1`): "in" says where all of them are."""
    files: dict[str, list[str]] = {}
    for place in places:
        path, _, line = place.rpartition(":")
        files.setdefault(path, []).append(line)
    paths = dict.fromkeys(place.rpartition(":")[0] for place in every)
    folders = [path.rpartition("/")[0] + "/" if "/" in path else "" for path in paths]
    shared = shared_folder(folders) if len(paths) > 1 else ""
    listed = ", ".join(f"{path[len(shared) :]}:{','.join(lines)}" for path, lines in files.items())
    return f"in {shared}: {listed}" if shared else listed


def _dropped_neighbours(index: int, neighbours: dict[int, tuple[int | None, int | None]], state: dict[int, int]) -> int:
    """How many of the units beside `index` are dropped (0, 1 or 2)."""
    return sum(1 for other in neighbours[index] if other is not None and state[other] == DROPPED)


def _shortened_marker(kind: str, note: str, units: int, hidden: int) -> Omission:
    """The marker after a run of `units` shortened side by side, counting the `hidden`
    lines they leave out: `8 lines of 2 tests (…)`; a unit that is a line says `8 lines (…)`."""
    what = "" if kind == "line" else f" of {pluralize(units, kind)}"
    return Omission(hidden, f"{pluralize(hidden, 'line')}{what} {note}")


def _unmarked_runs(
    parsed: Parsed, state: dict[int, int], partial: dict[int, tuple[Item, ...]] | None
) -> dict[int, int]:
    """`state` with each run of units shortened (their lines counted by one marker
    after the run, as `_render` closes it) shown whole where what they leave out takes
    no more room than that marker: tsc's one line of elaboration under an error is
    never swapped for `... 1 line of 1 finding (…) omitted ...`."""
    if TRIMMED not in state.values() and SHORT not in state.values():
        return state  # no unit shortened: none to show whole
    whole = dict(state)
    runs: dict[tuple[str, str], list[int]] = {}  # (kind, note): the units of a run
    hidden: dict[tuple[str, str], list[int]] = {}  # (kind, note): the characters and lines they leave out

    def close() -> None:
        for (kind, note), run in runs.items():
            chars, lines = hidden[kind, note]
            if chars <= _size([_shortened_marker(kind, note, len(run), lines)]) and -1 not in run:
                whole.update(dict.fromkeys(run, FULL))
        runs.clear()
        hidden.clear()

    for index, part in enumerate(parsed):
        form = state.get(index)
        if not isinstance(part, Unit) or form is None:
            if runs:
                close()
            continue
        own = partial[index] if partial and index in partial else None
        if (form == DROPPED and part.gathered) or (form == MINIMAL and part.tally and own is None):
            continue  # said after the run, or in a tally: the run goes on (`_render`)
        if form == LOSSLESS and part.joins:
            continue
        shown = own if own is not None else part.trimmed if form == TRIMMED else part.short if form == SHORT else None
        if shown is not None and any(isinstance(item, Omission) for item in shown):
            continue  # a marker of its own: the run goes on past it
        if shown is None or (form not in (TRIMMED, SHORT) and own is None):
            close()
            continue
        note = part.trimmed_note if form == TRIMMED and own is None else part.short_note
        if any(kind == part.kind and said != note for kind, said in runs):
            close()
        # a unit shown in part is in the run, but not whole: its marker stays
        runs.setdefault((part.kind, note), []).append(-1 if own is not None else index)
        counts = hidden.setdefault((part.kind, note), [0, 0])
        counts[0] += part.size - _size(shown)
        counts[1] += _input_lines(part.lines) - _input_lines(shown)
    close()
    return whole


def _render(
    parsed: Parsed,
    state: dict[int, int],
    partial: dict[int, tuple[Item, ...]] | None = None,
    compact: set[float] | None = None,
) -> list[Item]:
    items: list[Item] = []
    dropped: list[Unit] = []
    # short (or minimal) forms that hide lines without a marker of their own: the lines
    # each hides, by kind and what they keep
    shortened: dict[tuple[str, str], list[int]] = {}

    joined: list[Unit] = []
    tallied: list[Unit] = []

    def flush_tallied() -> None:
        if len(tallied) == 1:  # its own marker, unless its lines (or their brace list) are no longer
            alone = tallied[0]
            items.extend(_unless_shorter(alone, alone.minimal))
        elif tallied:
            items.extend(_tallies(tallied))
        tallied.clear()

    def flush_joined() -> None:
        flush_tallied()
        if joined:
            names = [str(unit.lossless[0])[:-1] for unit in joined]
            start, end = joined[0].joins, joined[0].joins_after
            # test ids: each run of one test's cases on a line, what they share outside the list
            runs = _stem_runs(names) if joined[0].factor else [names]
            for run in runs:
                head, cores, tail = _factored_names(start, run, end) if len(run) > 1 else (start, run, end)
                items.extend(brace_lines(head, cores, tail))
            joined.clear()

    def flush(runs: bool = True) -> None:
        """Close what is pending; with `runs` False a run of short forms stays open
        (a unit with a marker of its own does not end it: one marker says what every
        short form of the run left out)."""
        flush_joined()
        if dropped:
            marker = _dropped_marker(dropped)
            whole = [line for unit in dropped for line in unit.lines]
            # a marker is never longer than what it stands for: then the lines themselves
            items.extend(whole if _size(whole) <= _size([marker]) else [marker])
            dropped.clear()
        if shortened and runs:
            for (kind, note), run in shortened.items():  # one marker per kind and note, in the order they began
                items.append(_shortened_marker(kind, note, len(run), sum(run)))
            shortened.clear()

    state = _unmarked_runs(parsed, state, partial)
    # Units shown whose first line starts with their heading: (start, end, heading).
    headed: list[tuple[int, int, str]] = []
    # Dropped units that are gathered by label are counted after the last of them.
    gathered: dict[str, list[Unit]] = {}
    labels: set[str] = set()  # the labels of gathered units shown
    last_gathered = max((k for k, part in enumerate(parsed) if isinstance(part, Unit) and part.gathered), default=-1)
    for index, part in enumerate(parsed):
        if index > last_gathered and gathered:
            flush()
            items.extend(_gathered_markers(gathered, compact or set(), labels))
        if not isinstance(part, Unit):
            flush()
            items.append(part)
            continue
        form = state[index]
        if form == DROPPED and part.gathered:
            gathered.setdefault(part.gathered, []).append(part)
            continue
        if form == DROPPED:
            if shortened:
                flush()
            dropped.append(part)
            continue
        if part.gathered:
            labels.add(part.gathered)
        if dropped:
            flush()
        if form == LOSSLESS and part.joins:
            if joined and (joined[0].joins, joined[0].joins_after) != (part.joins, part.joins_after):
                flush_joined()
            joined.append(part)
            continue
        if form == MINIMAL and part.tally and not (partial and index in partial):
            if tallied and tallied[0].kind != part.kind:
                flush_tallied()
            flush_joined_only = joined
            if flush_joined_only:
                flush_joined()
            tallied.append(part)
            continue
        flush_joined()
        in_part = partial[index] if partial is not None and index in partial else None
        if in_part is not None and any(isinstance(i, Omission) for i in in_part):
            flush(runs=False)
            rest = in_part[-1]
            if part.sample and part.tally and isinstance(rest, Omission):
                # what a sampled unit leaves out is counted with the units after it left without a line
                items.extend(in_part[:-1])
                tallied.append(_rest_of(part, rest))
                continue
            items.extend(in_part)
            continue
        shown = (
            in_part  # all of its body but some heads: a short form
            if in_part is not None
            else part.lines
            if form == FULL
            else part.lossless
            if form == LOSSLESS
            else part.trimmed
            if form == TRIMMED
            else part.short
            if form == SHORT
            else part.minimal
        )
        hidden = _input_lines(part.lines) - _input_lines(shown)
        if hidden > 0 and not any(isinstance(i, Omission) for i in shown):
            notes = {SHORT: part.short_note, TRIMMED: part.trimmed_note}
            note = part.short_note if in_part is not None else notes.get(form, part.minimal_note)
            # a run of one kind goes on past units of another (a log's commits and their
            # files): it ends where its kind comes with another note
            if any(kind == part.kind and said != note for kind, said in shortened):
                flush()
            items.extend(shown)
            shortened.setdefault((part.kind, note), []).append(hidden)
            continue
        flush(runs=not any(isinstance(i, Omission) for i in shown))
        if part.heading and str(shown[0]).startswith(part.heading):
            headed.append((len(items), len(items) + len(shown), part.heading))
        items.extend(shown)
    flush()
    items.extend(_gathered_markers(gathered, compact or set(), labels))
    items = _runs_joined(_shared_headings(items, headed))
    if state and _paths_listed(parsed, _SAID_UNDER) and any(form != FULL for form in state.values()):
        return folders_said_once(items, _inside)
    return items


#: The units whose lines are said under the folder they share: a listing's folders (not
#: `ls -R`'s sections, which have their own heading) and a search's files.
_SAID_UNDER = ("directory", "file with matches", "finding")


def _paths_listed(parsed: Parsed, kinds: tuple[str, ...] = ("directory",)) -> bool:
    """Is `parsed` a listing of paths (find's, git ls-files', their folders as units),
    or of the units of `kinds`?"""
    units = [part for part in parsed if isinstance(part, Unit)]
    return bool(units) and all(unit.kind in kinds and not (unit.lead and unit.kind == "directory") for unit in units)


#: A listing's or a search's markers that name a folder or file: its entries left out
#: (`12 more entries in src/api/`), the folders and files left without a line (`src/:
#: api/ 3, cli/ 12`, `src/api/: 12 entries`, `src/api/views.py: 3 matches`).
_MORE_IN = lazy(r"^(?P<said>.* in )(?P<folder>\S*/)$")
_COUNTED_IN = lazy(r"^(?P<folder>\S*?)(?P<said>: .+)$")


def _inside(marker: Omission, folder: str) -> Omission | None:
    """`marker` among the paths said under `folder` (`reencode.folders_said_once`), the
    folder or file it names relative to it (`./` for `folder` itself), or the lines left
    out of the file above it; None for a marker that names a folder not in it."""
    detail = marker.detail or ""
    if _LINES_DROPPED.match(detail) or _LINES_OF.match(detail):
        return Indented(marker.count, detail)
    code = _CODE_PLACES.match(detail)
    if code and code["places"].startswith(folder):  # a linter's code and where its first findings are
        places = code["places"][len(folder) :]
        if code["shared"]:  # `in P/: a.py:3, …`: the folder said once, or one within it
            places = places.removeprefix(": ") if places.startswith(": ") else "in " + places
        return Indented(marker.count, f"{code['said']}({places}")
    for pattern in (_MORE_IN, _COUNTED_IN):
        found = pattern.match(detail)
        if found and found["folder"].startswith(folder):
            named = found["folder"][len(folder) :] or "./"
            said = found["said"]
            return Indented(marker.count, said + named if pattern is _MORE_IN else named + said)
    return None


#: What a marker of a linter's dropped findings of one code says (`_gathered_markers`):
#: their count and code, then where the first of them are, in the folder they share or in
#: one file (`12 more W0212 (in src/: a.py:3, b.py:7, …)`, `7 more W0621 (src/a.py:3,9)`).
_CODE_PLACES = lazy(r"^(?P<said>[\d,]+ (?:more )?\S+ )\((?P<shared>in )?(?P<places>\S+.*)$")


#: What a marker of lines left out of the units shown above it says (`21 lines of 1
#: finding (source excerpts)`): they are in the folder those are in.
_LINES_OF = lazy(r"^[\d,]+ lines? of [\d,]+ ")


#: What a marker of dropped units that are lines says (`12 more lines`), or none.
_LINES_DROPPED = lazy(r"^[\d,]+ more lines?$")


def _runs_joined(items: list[Item]) -> list[Item]:
    """`items` with each run of markers next to each other that stand for lines alone
    said as one: lines left out between the units of a cut (the head and tail cut of
    the lines between them), units dropped next to them, and units that are lines (`12
    more lines`: a program's output around its traceback) are one run to a reader,
    however many parts it had. A marker that says what it left out (a finding's
    excerpts, a code's count) stays as it is."""

    def lines_alone(marker: Omission) -> bool:
        return not marker.detail or bool(_LINES_DROPPED.match(marker.detail))

    joined: list[Item] = []
    for item in items:
        last = joined[-1] if joined else None
        if isinstance(last, Omission) and isinstance(item, Omission) and lines_alone(last) and lines_alone(item):
            count = last.count + item.count
            said = last.detail or item.detail  # `N more lines` where either said so
            joined[-1] = Omission(count, pluralize(count, "more line")) if said else Omission(count)
        else:
            joined.append(item)
    return joined


def _shared_headings(items: list[Item], headed: list[tuple[int, int, str]]) -> list[Item]:
    """`items` with each run of two or more units shown next to each other with the
    same heading (a finding's `path:`) under it said once: `path:`, then each of their
    lines that starts with it without it (`  12:5: E0602 …`, a note `  12: note: …`),
    lossless as grep's factored matches. A unit with a line that neither starts with
    the heading nor is indented (a marker) ends its run: the heading stands for the
    indented lines under it only. `headed` is (start, end, heading) of every unit
    shown whose first line has one."""
    runs: list[list[tuple[int, int, str]]] = []
    open_run = False
    for start, end, heading in headed:
        last = runs[-1][-1] if runs else None
        if open_run and last is not None and last[1] == start and last[2] == heading:
            runs[-1].append((start, end, heading))
        else:
            runs.append([(start, end, heading)])
        open_run = all(
            isinstance(item, str) and (item.startswith((" ", "\t", heading))) for item in items[start + 1 : end]
        )
    for run in reversed(runs):
        if len(run) < 2:
            continue
        heading = run[0][2]
        tsc = not heading.endswith(":")  # `path(12,5): …`: said as `path:` over `  (12,5): …`
        for start, end, _ in run:
            for k in range(start, end):
                line = items[k]
                rest = line[len(heading) :] if isinstance(line, str) and line.startswith(heading) else ""
                # a place, or places said together (`path:` then `  12:5: …`, `  {12:5,40:1}: …`), or
                # tsc's (`path` then `  (12,5): …`)
                if rest[:1] == "(" if tsc else rest[:1].isdigit() or rest[:1] == "{":
                    items[k] = Encoded("  " + rest, line.lines if isinstance(line, Encoded) else 1)
        begin, stop = run[0][0], run[-1][1]
        alone = {k - begin for start, end, _ in run if _said_alone(items[start:end]) for k in range(start, end)}
        items[begin:stop] = _said_once(items[begin:stop], alone)
        items.insert(begin, Encoded(heading + ":" if tsc else heading, 0))
    return items


def _said_alone(lines: list[Item]) -> bool:
    """Is a unit shown as `lines` under its file's heading a finding on one line, or
    findings said together on lines of their own (`  {12:5,40:1}: …`, a brace list too
    wide for one line), nothing under them?"""
    if len(lines) == 1:
        return True
    said = {found[1] if found and len(found[0]) > 1 else None for found in map(_placed_line, lines)}
    return len(said) == 1 and None not in said


def _placed_line(line: Item) -> tuple[list[str], str] | None:
    return None if isinstance(line, Omission) else placed(line)


def _said_once(items: list[Item], alone: set[int]) -> list[Item]:
    """`items` (one file's findings under its heading) with the findings that say the
    same thing at several places said once, at the first of them, their places in a
    brace list (`  {108:4,116:4,128:4}: C0116: Missing function or method docstring …`),
    which `reencode.decoded` reads back into every finding. Only findings shown as one
    line (`alone`: their positions in `items`) are said together: the lines under a
    finding belong to its place."""
    said: dict[int, tuple[list[str], str]] = {}  # position: (places, what it says)
    for k in sorted(alone):
        item = items[k]
        found = None if isinstance(item, Omission) else placed(item)
        if found:
            said[k] = found
    places: dict[str, list[str]] = {}
    first: dict[str, int] = {}
    for k, (at, text) in said.items():
        places.setdefault(text, []).extend(at)
        first.setdefault(text, k)
    if all(len(these) < 2 for these in places.values()):
        return items
    out: list[Item] = []
    for k, item in enumerate(items):
        text = said[k][1] if k in said else ""
        these = places.get(text, []) if text else []
        if len(these) < 2:
            out.append(item)
        elif first[text] == k:
            out.extend(brace_lines("  ", these, text))
    return out


def _tallies(run: list[Unit]) -> list[Item]:
    """One marker naming every unit of `run` with its count, the folder they share said
    once and folders within it once for the units in a row there:
    `... ./node_modules/: a/index.js 2, b/{index.js 1, lib/{x.js 3, y.js 1}} omitted ...`;
    the units' own lines where those are no longer."""
    folders = [unit.folder or "" for unit in run]
    shared = shared_folder(folders)
    listed = _nested([(folder[len(shared) :], unit.tally) for folder, unit in zip(folders, run, strict=True)])
    marker = Omission(sum(_input_lines(unit.lines) for unit in run), f"{shared or './'}: {listed}")
    room = _size([marker])
    for unit in run:  # the lines themselves where they are no longer (few need adding up)
        room -= min(unit.size, _size(unit.lossless) if unit.lossless else unit.size)
        if room < 0:
            return [marker]
    return [item for unit in run for item in _unless_shorter(unit, ())]


def _rest_of(unit: Unit, rest: Omission) -> Unit:
    """What a sampled unit shown in part leaves out (`rest`, its last marker), as a unit
    a run of tallies counts (`js-yaml.js 31 more`, `rich/ 72 more`); alone, its marker."""
    name = unit.tally.rpartition(" ")[0]
    return Unit(unit.kind, "", (rest,), (rest,), folder=unit.folder, tally=f"{name} {rest.count:,} more")


def _unless_shorter(unit: Unit, marker: tuple[Item, ...]) -> tuple[Item, ...]:
    """The shortest of `unit`'s lines and their lossless form (a folder's brace
    list), or `marker` when that is shorter still."""
    shown = unit.lossless if unit.lossless and _size(unit.lossless) < unit.size else unit.lines
    return marker if marker and _size(marker) < _size(shown) else shown


def _nested(entries: list[tuple[str, str]]) -> str:
    """`a/x.js 2, a/y.js 1, b.js 3` as `a/{x.js 2, y.js 1}, b.js 3`: neighbours in one
    folder share its name (entries are (folder relative to here, tally))."""
    parts: list[str] = []
    k = 0
    while k < len(entries):
        folder, tally = entries[k]
        top, slash, _ = folder.partition("/")
        if not slash:
            parts.append(tally)
            k += 1
            continue
        end = k + 1
        while end < len(entries) and entries[end][0].partition("/")[0] == top and "/" in entries[end][0]:
            end += 1
        shared = shared_folder([f for f, _ in entries[k:end]])
        inner = _nested([(f[len(shared) :], t) for f, t in entries[k:end]])
        parts.append(f"{shared}{{{inner}}}" if end - k > 1 else f"{shared}{inner}")
        k = end
    return ", ".join(parts)


def _dropped_marker(dropped: list[Unit]) -> Omission:
    count = sum(_input_lines(unit.lines) for unit in dropped)
    kinds: dict[str, dict[str, int]] = {}
    folders: dict[tuple[str, str], dict[str, int]] = {}
    for unit in dropped:
        groups = kinds.setdefault(unit.kind, {})
        groups[unit.group] = groups.get(unit.group, 0) + 1
        if unit.folder is not None:
            where = folders.setdefault((unit.kind, unit.group), {})
            where[unit.folder] = where.get(unit.folder, 0) + 1
    parts = []
    for kind, groups in kinds.items():
        number = sum(groups.values())
        detail = ", ".join(f"{n} {g}{_in_folders(folders.get((kind, g)))}" for g, n in groups.items() if g)
        parts.append(pluralize(number, f"more {kind}") + (f" ({detail})" if detail else ""))
    return Omission(count, ", ".join(parts))


_FOLDERS_NAMED = 12


def _in_folders(where: dict[str, int] | None) -> str:
    """` in src/core/ 60, tools/ 40, ./ 2`: where dropped paths were, the most first."""
    if not where:
        return ""
    ranked = sorted(where.items(), key=lambda pair: -pair[1])
    named = ", ".join(f"{folder or './'} {n}" for folder, n in ranked[:_FOLDERS_NAMED])
    rest = len(ranked) - _FOLDERS_NAMED
    return f" in {named}" + (f" and {pluralize(rest, 'more folder')}" if rest > 0 else "")


# -- parsers ------------------------------------------------------------------------------


def parse(unit: str, lines: list[str], view: Lines | None = None) -> Parsed:
    """Split `lines` into units of the kind a rule declares; `view`, when given, is
    the lines with their text, made once for whatever scans them (the test parser
    reads it)."""
    return _tests(lines, view) if unit == "test" else _PARSERS[unit](lines)


_STATUS_SECTION = lazy(
    r"^(Changes to be committed|Changes not staged for commit|Untracked files|Unmerged paths"
    r"|Ignored files):$"
)
_STATUS_ENTRY = lazy(r"^\t(?:(?P<state>[a-z][a-z ]+):\s+)?(?P<path>\S.*)$")
_SHORT_STATUS = lazy(r"^(?P<xy>[ MADRCUT?!]{2}) (?P<path>\S.*)$")
_CONFLICTS = (
    "both modified",
    "both added",
    "both deleted",
    "added by us",
    "added by them",
    "deleted by us",
    "deleted by them",
    "conflicted",
)
_SHORT_STATES = {
    "M": "modified",
    "A": "new file",
    "D": "deleted",
    "R": "renamed",
    "C": "copied",
    "U": "conflicted",
    "T": "type changed",
    "?": "untracked",
    "!": "ignored",
}


def _paths(lines: list[str]) -> Parsed:
    """git status (long or short): every path is a unit, grouped by its state in its
    section (staged, not staged, untracked; in short form its two state letters)."""
    parsed: Parsed = []
    section = ""
    for line in lines:
        heading = _STATUS_SECTION.match(line)
        if heading:
            section = heading.group(1)
            parsed.append(line)
            continue
        entry = _STATUS_ENTRY.match(line)
        short = None if entry else _SHORT_STATUS.match(line)
        if entry:
            group = entry.group("state") or ("untracked" if section.startswith("Untracked") else section.lower())
            where = section
        elif short:
            where = short.group("xy")  # staged (`M `) and not (` M`) are apart, as the sections are
            xy = where.strip()
            group = _SHORT_STATES.get(xy[:1], xy)
        else:
            parsed.append(line)
            continue
        # Untracked files are often the agent's own new files: they matter as much as changes.
        priority = 3 if group in _CONFLICTS else 1 if group == "ignored" else 2
        found = entry or short
        assert found is not None
        path = found.group("path")
        folder, _, name = path.rstrip("/").rpartition("/")
        name += "/" if path.endswith("/") else ""
        prefix = line[: found.start("path")] + (folder + "/" if folder else "")
        joinable = " -> " not in path and _brace_safe(name)
        joins = prefix if joinable else ""
        lossless: tuple[Item, ...] = (Encoded(name + ",", 1),) if joinable else ()
        parsed.append(
            Unit(
                "path",
                group,
                (line,),
                (line,),
                priority=priority,
                lossless=lossless,
                joins=joins,
                folder=folder + "/" if folder else "",
                section=where,
            )
        )
    return parsed


#: A commit's first line: git's `commit <hash>`, or a git MCP server's `Commit: <hash>`
#: (its `git_log` result: `Author:`, `Date:` and `Message: <subject>` under it).
_COMMIT = lazy(r"^(?:commit |Commit: )(?P<hash>[0-9a-f]{7,64})\b")
_ONELINE = lazy(r"^(?:[*|\\/ ]+ )?[0-9a-f]{7,40} ")


def _commits(lines: list[str]) -> Parsed:
    """git log (plain, --stat, -p) and one-line logs: every commit is a unit; its
    short form is its short hash and subject. With patches (-p) a commit's header is a
    unit whose `commit` and subject lines matter more than its files (its author,
    date and message body are worth least), and each file of its patch is a unit of
    its own (`_file_unit`), so that the room is shared evenly between the files of
    every commit."""
    parsed: Parsed = []
    current: list[str] = []
    patches = any(_DIFF_HEADER.match(line) or _headerless_file(lines, k) for k, line in enumerate(lines))

    def close() -> None:
        if not current:
            return
        first = _COMMIT.match(current[0])
        at = next((k for k, line in enumerate(current) if k and line.startswith("    ") and line.strip()), None)
        subject = current[at].strip() if at is not None else ""
        short: tuple[str, ...] = (f"{first.group('hash')[:10]} {subject}" if first and subject else current[0],)
        said = next((line for line in current[1:8] if line.startswith("Message: ")), None)
        if current[0].startswith("Commit: ") and said is not None:  # a git MCP server's: its lines as it said them
            short = (current[0], said)
        patch = next(
            (k for k, line in enumerate(current) if _DIFF_HEADER.match(line) or _headerless_file(current, k)),
            len(current),
        )
        note = "beyond their hash and subject"
        if patches:
            # Its hash and subject matter more than any file; its author, date and
            # message body are worth least (they go with the files' context lines).
            # Named even at its shortest: its files' markers need it.
            header = tuple(current[:patch])
            named = (current[0], current[at]) if at is not None and at < patch else (current[0],)
            parsed.append(
                Unit(
                    "commit",
                    "",
                    header,
                    named,
                    short,
                    2,
                    short_note=note,
                    minimal_note=note,
                    trimmed=named if len(named) < len(header) else (),
                    trimmed_note="(author, date and message body)",
                )
            )
            parsed.extend(_diff_files(current[patch:]))
        else:
            parsed.append(Unit("commit", "", tuple(current), short, short_note=note))
        current.clear()

    for line in lines:
        if _COMMIT.match(line):
            close()
            current.append(line)
        elif current:
            current.append(line)
        elif _ONELINE.match(line):
            parsed.append(Unit("commit", "", (line,), (line,)))
        else:
            parsed.append(line)
    close()
    return parsed


_DIFF_HEADER = lazy(r"^diff --(?:git|cc|combined) ")
_FILE_META = lazy(
    r"^(?:index |--- |\+\+\+ |(?:old|new|deleted file|new file) mode |(?:dis)?similarity index "
    r"|rename |copy |Binary files )"
)


def _diff_files(lines: list[str]) -> Parsed:
    """git diff / show / log -p, and unified diffs without a `diff --git` line (`diff -u`,
    a git MCP server's `git_show`: a file starts at its `--- ` and `+++ ` pair): every file
    is a unit; its short form keeps the file and hunk headers and counts the changed
    lines of each hunk."""
    parsed: Parsed = []
    current: list[str] = []
    hunks = False  # has the current file reached its hunks?

    def close() -> None:
        if current:
            parsed.append(_file_unit(current))
            current.clear()

    for k, line in enumerate(lines):
        headerless = (not current or hunks) and _headerless_file(lines, k)
        if _DIFF_HEADER.match(line) or headerless or (_COMMIT.match(line) and current):
            close()
            hunks = False
            if _COMMIT.match(line):
                parsed.append(line)
                continue
        if current or _DIFF_HEADER.match(line) or headerless:
            current.append(line)
            hunks = hunks or line.startswith("@@")
        else:
            parsed.append(line)
    close()
    return parsed


def _headerless_file(lines: list[str], k: int) -> bool:
    """Does a file of a unified diff without a `diff --git` line start at line `k`
    (`--- a/P`, then `+++ b/P`, then a hunk)?"""
    return (
        lines[k].startswith("--- ")
        and k + 2 < len(lines)
        and lines[k + 1].startswith("+++ ")
        and lines[k + 2].startswith("@@")
    )


#: Header lines a diff file's short form keeps: what changed about the file itself.
_FILE_STATE = lazy(
    r"^(?:diff --|(?:old|new|deleted file|new file) mode |(?:dis)?similarity index |rename |copy |Binary files )"
)


def _file_unit(lines: list[str]) -> Unit:
    """One file of a diff. The budget goes to what the agent acts on: its changed
    lines first, then the file they belong to, then hunk headers, then context. So
    the forms, from whole to least: without context lines (`trimmed`), without hunk
    headers too (`short`: the file's lines and its changed lines), shown in part when
    even those do not fit (`lead` the file's lines, then the first of `body`, its
    changed lines, with their hunk headers where room is left: every file its first
    changes and a count of the rest), one marker naming the file and counting its
    hunks (`minimal`)."""
    # a combined diff (`diff --cc`) marks a changed line in one column per parent
    columns = 2 if lines[0].startswith(("diff --cc ", "diff --combined ")) else 1
    full: list[Item] = []
    lead: list[Item] = []
    body: list[Item] = []
    heads: list[int] = []
    runs: list[list[int]] = []  # runs of changed lines (their places in `body`)
    trimmed: list[Item] = []
    added = removed = context = hunks = 0
    in_hunk = run = False
    state = _diff_state(lines)
    for line in lines:
        if line.startswith("@@"):
            in_hunk, run = True, False
            hunks += 1
            full.append(clip_line(line, _LINE_LIMIT))
            trimmed.append(full[-1])
            if state != " (new file)":  # a new file's only hunk header says nothing its count does not
                heads.append(len(body))
                body.append(full[-1])
        elif not in_hunk:
            full.append(clip_line(line, _LINE_LIMIT))
            trimmed.append(full[-1])
            if _FILE_STATE.match(line):
                lead.append(full[-1])
        elif "+" in line[:columns] or "-" in line[:columns]:
            # a changed line is content: whole up to a generous cap, counted in the room as it is
            full.append(Whole(line) if _LINE_LIMIT < len(line) <= _CHANGE_LIMIT else clip_line(line, _CHANGE_LIMIT))
            # a removed line after an added one starts another change (a blank context line between went)
            if not run or ("-" in line[:columns] and "+" in str(body[-1])[:columns]):
                runs.append([])
            run = True
            runs[-1].append(len(body))
            body.append(full[-1])
            trimmed.append(full[-1])
            added += "+" in line[:columns]
            removed += "-" in line[:columns] and "+" not in line[:columns]
        else:
            full.append(clip_line(line, _LINE_LIMIT))
            run = False
            context += 1
    # Cut at all, a file is said once: `diff --git {a,b}/P` (reencode.py reads it back).
    braced = braced_diff_line(lines[0])
    if braced:
        said = Encoded(braced, 1)
        for form in (lead, trimmed):
            form[0] = said
    named = full[:2] if not lead and str(full[0]).startswith("--- ") else []
    # a file without a `diff --git` line is named by its `---` and `+++` lines: once when
    # they name one path (`{--- a,+++ b}/P`), as a `diff --git` line names it
    paired = paired_name_line(*map(str, named)) if len(named) == 2 else None
    if paired:
        said = Encoded(paired, 2)
        lead.append(said)
        trimmed[:2] = [said]
    elif not lead:
        lead.extend(named or full[:1])
    changes = f"{pluralize(hunks, 'hunk')} (+{added} -{removed})" if hunks else pluralize(len(lines), "line")
    path = _diff_path(lines)
    # Even its minimal form names the file: a diff never loses a file header unnamed.
    minimal: tuple[Item, ...] = (Omission(len(lines), f"{path}{state}: {changes}"),)
    if not hunks and state not in (" (deleted)", " (new file)"):  # renamed, its mode changed, binary: said in its lines
        minimal = _state_lines(lead)
    # A deleted file's lines are what it was: its name and its count say what changed.
    deleted = state == " (deleted)"
    shown = () if deleted else tuple(body)
    changed = tuple(line for k, line in enumerate(shown) if k not in heads)
    order, breaks = _change_order(body, runs, heads, columns)
    return Unit(
        "file",
        "",
        tuple(full),
        tuple(lead) + changed,
        minimal,
        priority=0 if deleted else 1,
        lossless=(lead[0], *full[1:]) if braced else (lead[0], *full[2:]) if paired else (),
        trimmed=tuple(trimmed) if context else (),
        short_note="beyond their changed lines",
        minimal_note="beyond what changed about them",
        trimmed_note="(context lines)",
        body=shown,
        breaks=None if deleted else breaks,
        order=() if deleted else order,
        lead=tuple(lead),
        more="{n} more changed line{s}",
        heads=frozenset(heads),
    )


def _state_lines(lead: list[Item]) -> tuple[Item, ...]:
    """What changed about a file without hunks (renamed, its mode changed, a binary
    file), as few of its lines as say it: not its similarity, and its `diff --git`
    line only when no other line names it."""
    said = [line for line in lead if not str(line).startswith(("similarity index", "dissimilarity index"))]
    if any(str(line).startswith(("rename to ", "copy to ", "Binary files ")) for line in said[1:]):
        said = said[1:]
    return tuple(said)


def _change_order(
    body: list[Item], runs: list[list[int]], heads: list[int], columns: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The order a diff file's changed lines are shown in when it is shown in part, and
    where that order may be cut (`Unit.order`, `Unit.breaks`). Change by change, each
    change's removed lines and the added lines that replace them alternate (the first
    removed, the first added, the second removed…): a cut keeps the first line of each
    side. So does the file: where its first change only adds lines (or only removes
    them), the first change that removes (or adds) shows its first lines right after
    the first change's first ones. Changes that say nothing new (each of their lines
    blank, or moved within the file: removed in one place and added as it was in
    another; not looked for in a combined diff) come after every other change. A
    hunk's header comes right before the first of its lines in that order. Never cut
    between a change's first removed line and its first added line, right after a hunk
    header, or where the lines left out before a shown one would take no more than half
    again the room of their marker (a cut that saves that little is not worth a line)."""
    marker = len("... 9 more changed lines omitted ...") + 1
    slack = marker + marker // 2
    changes: list[tuple[list[int], Sequence[int]]] = []  # each change's lines in order, and where it may be cut
    hunks: list[int] = []  # each change's hunk header (-1: none)
    under = 0
    for change in runs:
        while under < len(heads) and heads[under] < change[0]:
            under += 1
        hunks.append(heads[under - 1] if under else -1)
        marks = [str(body[k])[:columns] for k in change]
        removed = [k for k, mark in zip(change, marks, strict=True) if "-" in mark and "+" not in mark]
        added = change[len(removed) :]
        if not removed or not added:  # lines added or lines removed only: in order, cut anywhere
            changes.append((change, range(1, len(change) + 1)))
            continue
        if removed != change[: len(removed)]:  # not the removed lines, then the added ones: as they are
            paired = {k for k in range(1, len(change)) if change[k - 1] in removed and change[k] not in removed}
            changes.append((change, [k for k in range(1, len(change) + 1) if k not in paired]))
            continue
        # what the removed lines from each on take: left out before a shown added line
        after = [0] * (len(removed) + 1)
        for k in reversed(range(len(removed))):
            after[k] = after[k + 1] + len(body[removed[k]]) + 1
        seq: list[int] = []
        cuts: list[int] = []
        for k in range(max(len(removed), len(added))):
            for line in removed[k : k + 1] + added[k : k + 1]:
                seq.append(line)
                if line == removed[0]:
                    continue  # the first removed line, not without the first added one
                if not 0 < after[min(k + 1, len(removed))] <= slack:
                    cuts.append(len(seq))
        changes.append((seq, cuts))

    def opening(change: int) -> int:
        """How many of a change's lines come first: up to its first cut that leaves
        more than a marker's worth of it."""
        seq, cuts = changes[change]
        rest = sum(len(body[k]) + 1 for k in seq)
        done = 0
        for cut in cuts:
            rest -= sum(len(body[k]) + 1 for k in seq[done:cut])
            done = cut
            if rest > slack:
                return cut
        return len(seq)

    def sides(change: int) -> set[str]:
        return {"-" if "+" not in str(body[k])[:columns] else "+" for k in changes[change][0][: opening(change)]}

    stale = [False] * len(runs)
    if len(runs) > 1 and columns == 1:  # the changes that say something new first
        lines = set(map(str, body))

        def said(change: list[int]) -> bool:
            """Is each line of the change blank, or found with the other mark (moved)?"""
            for k in change:
                text = str(body[k])
                if text[1:].strip() and ("+" if text[0] == "-" else "-") + text[1:] not in lines:
                    return False
            return True

        stale = list(map(said, runs))
    ranked = sorted(range(len(runs)), key=stale.__getitem__)
    lead = ranked[:1]
    missing = {"-", "+"} - sides(ranked[0]) if len(ranked) > 1 and not stale[ranked[0]] else set()
    if missing:
        lead += next(([c] for c in ranked[1:] if not stale[c] and missing & sides(c)), [])
    order: list[int] = []
    breaks: list[int] = []
    placed = {-1}

    def place(change: int, low: int, high: int) -> None:
        seq, cuts = changes[change]
        if hunks[change] not in placed:  # its hunk's header, never shown without a line under it
            placed.add(hunks[change])
            order.append(hunks[change])
        order.extend(seq[low:high])
        if low or high < len(seq):
            cuts = cuts[bisect.bisect(cuts, low) : bisect.bisect(cuts, high)]
        breaks.extend(map((len(order) - high).__add__, cuts))

    openings = {c: opening(c) if len(lead) > 1 else len(changes[c][0]) for c in lead}
    for c in lead:
        place(c, 0, openings[c])
    for c in lead:
        place(c, openings[c], len(changes[c][0]))
    for c in ranked:  # the others whole, one after the other
        if c not in openings:
            place(c, 0, len(changes[c][0]))
    placed.update(order)
    order += [k for k in range(len(body)) if k not in placed]
    return tuple(order), tuple(breaks)


def _diff_path(lines: list[str]) -> str:
    """The file a diff is about: `diff --git a/P b/P` gives P (whatever the prefixes,
    or none), a rename `old -> new`, `diff --cc P` P."""
    renamed = [line.split(" ", 2)[2] for line in lines[1:8] if line.startswith(("rename from ", "rename to "))]
    if len(renamed) == 2:
        return f"{renamed[0]} -> {renamed[1]}"
    if lines[0].startswith("--- ") and len(lines) > 1:  # `+++ b/P` (the old name if deleted)
        named = lines[1][4:] if lines[1][4:] != "/dev/null" else lines[0][4:]
        named = named.split("\t", 1)[0]
        return named[2:] if named[1:2] == "/" and named[:1] in "ab" else named
    names = lines[0].split(" ", 2)[2] if lines[0].count(" ") >= 2 else lines[0]
    if not lines[0].startswith("diff --git "):
        return names
    half = (len(names) - 1) // 2
    left, right = names[:half], names[half + 1 :]
    if len(names) % 2 and names[half] == " ":
        if left == right:
            return left
        if left[1:2] == right[1:2] == "/" and left[2:] == right[2:]:
            return left[2:]
    return names


def _diff_state(lines: list[str]) -> str:
    for line in lines[1:8]:
        if line.startswith("new file mode"):
            return " (new file)"
        if line.startswith("deleted file mode"):
            return " (deleted)"
        if line.startswith("Binary files "):
            return " (binary)"
        if line.startswith("old mode "):
            return " (mode change)"
    return ""


#: Code the project did not write: vendored, installed, generated or built copies.
_VENDORED = lazy(
    r"(?:^|/)(?:vendor|vendored|_vendor|third[_-]party|node_modules|bower_components|site-packages|dist-packages"
    r"|\.?venv|\.tox|\.nox|dist|build|target|\.git|__pycache__|\.mypy_cache|\.next|\.nuxt|\.yarn|Pods"
    r"|generated|__generated__)/"
    r"|\.min\.(?:js|css)$|\.map$|(?:^|/)(?:package-lock\.json|yarn\.lock|pnpm-lock\.yaml|Cargo\.lock|poetry\.lock"
    r"|uv\.lock|go\.sum)$"
    # generated code, by the names its generators give it
    r"|_pb2(?:_grpc)?\.pyi?$|\.pb(?:\.gw)?\.go$|\.pb\.(?:cc|h)$|\.g\.dart$|\.generated\.\w+$|_generated\.\w+$"
)


def vendored(path: str) -> bool:
    """Is `path` in code the project did not write (`node_modules/`, `vendor/`,
    `site-packages/`, `dist/`, a minified bundle, a lock file, generated code such as
    `api_pb2.py` or `schema.generated.ts`)? Its matches and findings are cut before
    the project's own."""
    return _VENDORED.search(path) is not None


_MATCH_PATH = (lazy(r"^(\S+?):\d+(?::\d+)?:"), lazy(r"^(\S+?)-\d+-"), lazy(r"^([^\s:]*[/.][^\s:]*):"))


def _match_files(lines: list[str]) -> Parsed:
    """grep -rn / rg / git grep: the matches of each file are one unit; even its
    minimal form names the file and counts its matches."""
    parsed: Parsed = []
    current: list[str] = []
    path: str | None = None

    def close(end: int) -> None:
        """The unit of `current`, the lines before line `end`."""
        if current and path is not None:
            matches = sum(1 for line in current if line != "--")
            first = clip_line(current[0], _LINE_LIMIT)
            short: tuple[Item, ...] = (first,) + (
                (Omission(len(current) - 1, f"{pluralize(matches - 1, 'more match')} in {path}"),)
                if len(current) > 1
                else ()
            )
            minimal = (Omission(len(current), f"{path}: {pluralize(matches, 'match')}"),)
            full = tuple(clip_line(c, _LINE_LIMIT) for c in current)
            factored = _factored(path, full)
            parsed.append(
                Unit(
                    "file with matches",
                    "",
                    full,
                    short,
                    minimal,
                    lossless=factored,
                    body=factored[1:] if factored else full,
                    lead=factored[:1],
                    more="{n} more line{s}",
                    priority=0 if vendored(path) else 1,
                    folder=path.rpartition("/")[0] + "/" if "/" in path else "",
                    tally=f"{path.rpartition('/')[2]} {matches}",
                    sample=True,
                    at=tuple(range(end - len(current), end)),
                    alone=full if factored else (),
                )
            )
        current.clear()

    for position, line in enumerate(lines):
        found = path if line == "--" else _match_path(line)
        if found != path:
            close(position)
            path = found
        if found is None:
            parsed.append(line)
        else:
            current.append(line)
    close(len(lines))
    return parsed


def _factored(path: str, lines: tuple[str, ...]) -> tuple[Item, ...]:
    """A file's matches with its path said once: `path:` then `  12:text` (and
    `  13-text` for context lines), every other character as grep printed it."""
    if len(lines) < 2:
        return ()
    body: list[Item] = [Encoded(f"{path}:", 0)]
    for line in lines:
        if line == "--":
            body.append(line)
        elif line.startswith(path) and line[len(path) : len(path) + 1] in (":", "-"):
            body.append(Encoded("  " + line[len(path) + 1 :], 1))
        else:
            return ()
    return tuple(body)


def _match_path(line: str) -> str | None:
    for pattern in _MATCH_PATH:
        found = pattern.match(line)
        if found:
            return found.group(1)
    return None


_STATUS_COLUMNS = ("STATUS", "STATE", "PHASE")
#: A row that needs attention: kept longer than healthy rows.
_TROUBLE = lazy(
    r"(?i)unhealthy|restarting|crashloop|\berror|\bfail|oomkilled|\bpending|evicted|backoff|\bunknown|\bdead\b"
    r"|exited \((?!0\))|notready|terminating|degraded"
)
#: Ids, counts and times: rows that differ only in these are alike (24 runs of one
#: crashing job), and the first of them stands for the others.
_NUMBERS = lazy(r"\b[0-9a-f]{7,64}\b|\d+")
_TABLE_HEADER = lazy(r"^\S+(?: \S+)*(?: {2,}\S+(?: \S+)*)+\s*$")


def _rows(lines: list[str]) -> Parsed:
    """Tables with a header line (docker ps, kubectl get, pip list): every row is a
    unit, grouped by its status column when there is one; rows in trouble (exited
    with an error, restarting, unhealthy, pending) are kept longest, and of rows alike
    but for their numbers the first is kept longest. A query's result (a header over a
    dashes line and no status column, or `|`-separated values under a header of names)
    is one unit shown from its two ends and spread between (`_query_rows`). Output that
    is not a table (JSON, YAML, a message) has nothing to cut between."""
    if not lines:
        return []
    header = lines[0]
    dashes = len(lines) > 1 and lines[1].strip() and set(lines[1].replace(" ", "")) <= {"-"}
    if header[:1] not in "{[" and _delimited(lines):
        columns = header.count("|")
        return _query_rows(lines, 1, max(k for k, line in enumerate(lines) if line.count("|") == columns))
    if header[:1] in "{[" or not (_TABLE_HEADER.match(header) or dashes):
        return list(lines)
    column = next((header.find(name) for name in _STATUS_COLUMNS if re.search(rf"\b{name}\b", header)), -1)
    if dashes and column < 0:  # a query's result (sqlite3 -column, psql): rows alike, none in trouble
        return _query_rows(lines, 2, max(k for k, line in enumerate(lines) if line.strip()))
    parsed: Parsed = [header]
    for line in lines[1:]:
        if not line.strip() or line.startswith(("---", "===")):
            parsed.append(line)
            continue
        cell = line[column:].split("  ")[0].split() if 0 <= column < len(line) else []
        group = cell[0] if cell else ""
        priority = 2 if _TROUBLE.search(line) else 1
        parsed.append(Unit("row", group, (line,), (line,), priority=priority, family=_NUMBERS.sub("#", line)))
    return parsed


#: A header of `|`-separated column names (sqlite3's list mode, `psql -A`).
_DELIMITED_HEADER = lazy(r"^[\w .()*-]+(?:\|[\w .()*-]+)+$")


def _delimited(lines: list[str]) -> bool:
    """Rows of `|`-separated values under a header of names: each of the first rows
    has as many separators as the header."""
    if not _DELIMITED_HEADER.match(lines[0]):
        return False
    columns = lines[0].count("|")
    rows = [line for line in lines[1:50] if line.strip()]
    return len(rows) >= 2 and all(line.count("|") == columns for line in rows)


def _query_rows(lines: list[str], lead: int, last: int) -> Parsed:
    """A query's rows (after the `lead` lines of its header, through line `last`) as one
    unit, shown in part in equal measure from three ends: its first rows, its last rows
    and rows spread between, every run left out counted where it was (a value that runs
    over lines is cut between its lines like a row)."""
    body = tuple(lines[lead : last + 1])
    if len(body) < 2:
        return list(lines)
    short = (body[0], Omission(len(body) - 1, pluralize(len(body) - 1, "more row")))
    unit = Unit("row", "", body, short, body=body, more="{n} more row{s}", order=_ends_and_spread(len(body)))
    return [*lines[:lead], unit, *lines[last + 1 :]]


def _ends_and_spread(count: int) -> tuple[int, ...]:
    """0 to count - 1 taken in turn from the start, from the end and spread evenly."""
    sources = [iter(range(count)), iter(range(count - 1, -1, -1)), _bisection(count)]
    order: list[int] = []
    taken: set[int] = set()
    while len(order) < count:
        for source in sources:
            for k in source:
                if k not in taken:
                    taken.add(k)
                    order.append(k)
                    break
    return tuple(order)


def _dirs(lines: list[str]) -> Parsed:
    """find / fd / ls -R / du: the entries of each directory are one unit; the
    directory itself is always named (its minimal form counts its entries)."""
    parsed: Parsed = []
    if any(line.endswith(":") and not line.startswith(" ") for line in lines[:3]):
        return _ls_sections(lines)
    entries = [line for line in lines if line.strip()]
    paths = sum(1 for line in entries if "/" in line and " " not in line.split("\t")[-1].strip())
    if paths < 0.8 * len(entries):
        return list(lines)  # not a list of paths (ls -l, one folder's names): nothing to group
    groups: dict[str, list[str]] = {}
    places: dict[str, list[int]] = {}
    order: list[str] = []
    for position, line in enumerate(lines):
        if not line.strip() or line.startswith(("find:", "fd:", "du:")):
            parsed.append(line)
            continue
        path = line.split("\t")[-1].rstrip("/")
        parent = path.rsplit("/", 1)[0] if "/" in path else "."
        if parent not in groups:
            groups[parent] = []
            places[parent] = []
            order.append(parent)
            parsed.append(parent)  # a placeholder, replaced below
        groups[parent].append(line)
        places[parent].append(position)
    result: Parsed = []
    for part in parsed:
        if isinstance(part, str) and part in groups:
            entries = groups.pop(part)
            result.append(_dir_unit(part, entries, tuple(places[part])))
        elif isinstance(part, str) and part not in order:
            result.append(part)
    return result


def _dir_unit(directory: str, entries: list[str], at: tuple[int, ...] = ()) -> Unit:
    first = entries[0]
    name = directory.rpartition("/")[2]
    short: tuple[Item, ...] = (first,) + (
        (Omission(len(entries) - 1, f"{pluralize(len(entries) - 1, 'more entry')} in {directory}/"),)
        if len(entries) > 1
        else ()
    )
    minimal = (Omission(len(entries), f"{directory}/: {pluralize(len(entries), 'entry')}"),)
    names = [entry[len(directory) + 1 :] for entry in entries if entry.startswith(directory + "/")]
    lossless: tuple[Item, ...] = ()
    braced = len(names) == len(entries) and all(map(_brace_safe, names))
    if len(entries) > 1 and braced:
        lossless = tuple(brace_lines(f"{directory}/", names, ""))
    return Unit(
        "directory",
        "",
        tuple(entries),
        short,
        minimal,
        lossless=lossless,
        body=tuple(entries),
        more=f"{{n}} more entr{{ies}} in {directory}/",
        folder=directory.rpartition("/")[0] + "/" if "/" in directory else "",
        tally=f"{name}/ {len(entries)}",
        sample=bool(at),
        at=at,
        braces=f"{directory}/" if braced else "",
    )


def _test_id_safe(name: str) -> bool:
    """Can a test's id stand in a brace list (its parameters in brackets may)?"""
    return bool(name) and not _BRACE_UNSAFE.difference("[").intersection(name.replace("]", ""))


#: Characters that would make a name ambiguous inside a `dir/{a,b}` brace list.
_BRACE_UNSAFE = frozenset(",{}\t\n\\'\" $*?[")


def _brace_safe(name: str) -> bool:
    """Can `name` stand in a brace list and be read back exactly (as bash expands it)?"""
    return bool(name) and "/" not in name.rstrip("/") and not _BRACE_UNSAFE.intersection(name)


def _ls_sections(lines: list[str]) -> Parsed:
    """ls -R: each `dir:` section is a unit; a flood of them is sampled like find's
    folders (its heading, then entries), every section left without one counted; the
    sections of folders the project did not write (`.git/`, `node_modules/`: `vendored`)
    are cut first. The blank line that parts a section from the one before leads it:
    shown with it."""
    parsed: Parsed = []
    current: list[str] = []
    start = 0

    def close() -> None:
        if current:
            named = next(k for k, line in enumerate(current) if line.strip())  # its `dir:` line
            head, rest = current[named], current[named + 1 :]
            entries = [line for line in rest if line.strip()]
            at = tuple(start + k for k, line in enumerate(current) if k > named and line.strip())
            lead = tuple(current[: named + 1])
            short: tuple[Item, ...] = lead + (
                (Omission(len(rest), f"{pluralize(len(entries), 'entry')} in {head[:-1]}"),) if rest else ()
            )
            directory = head[:-1].rstrip("/")
            name = directory.rpartition("/")[2]
            parsed.append(
                Unit(
                    "directory",
                    "",
                    tuple(current),
                    short,
                    short,
                    body=tuple(entries),
                    lead=lead,
                    more="{n} more entr{ies}",
                    folder=directory.rpartition("/")[0] + "/" if "/" in directory else "",
                    tally=f"{name}/ {len(entries)}",
                    sample=bool(entries),
                    at=at,
                    priority=0
                    if vendored(f"{directory}/")
                    else 1,  # .git/, node_modules/: the room goes elsewhere first
                )
            )
            current.clear()

    for position, line in enumerate(lines):
        if line.endswith(":") and not line.startswith(" "):
            gap = 0  # the blank lines before it: this section's
            while gap < len(current) and not current[-1 - gap].strip():
                gap += 1
            separator = current[len(current) - gap :]
            del current[len(current) - gap :]
            close()
            start = position - gap
            current.extend(separator)
        if current or line.endswith(":"):
            current.append(line)
        else:
            parsed.append(line)
    close()
    return parsed


# Test runners: (block start, short-form pattern) per runner; a block runs until the
# next block start or a line that starts a section of its own.
_TEST_BLOCK_SOURCES = (
    # pytest: `____ test_x ____`, down to `_ test_x _` when the name fills the width
    # (not its traceback's frame separator, `_ _ _ _`, nor pytest-cov's table heading,
    # `____ coverage: platform linux, python 3.11.7-final-0 ____`)
    r"^_+ (?!(?:_ )*_$)(?!coverage: platform )(?P<name>\S.*?) _+$",
    r"^\s*● (?P<name>\S.*)$",  # jest, vitest (default reporter)
    r"^\s*(?:FAIL|×|✗) (?P<name>\S.* > .*)$",  # vitest
    r"^--- FAIL: (?P<name>\S+)",  # go test
    r"^---- (?P<name>\S+) stdout ----$",  # cargo test
    r"^\s*\d+\) (?P<name>\S.*)$",  # mocha, rspec
    # unittest (and Django's runner): `FAIL: test_x (pkg.tests.TestX.test_x)`
    r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (?P<name>\S+ \(\S+\).*)$",
)
_TEST_BLOCKS = tuple(lazy(source) for source in _TEST_BLOCK_SOURCES)
#: Any block start, in one match a line (the names are read from _TEST_BLOCKS).
_ANY_TEST_BLOCK = lazy("|".join(f"(?:{source.replace('(?P<name>', '(?:')})" for source in _TEST_BLOCK_SOURCES))
_BLOCK_END = lazy(
    r"^(?:={3,}|-{3,} (?:PASS|SKIP)|failures:$|test result:|FAILED |PASSED |ok\s|FAIL\s+\S+\s+[\d.]+s$|"
    r"Tests?:|Test Suites:|Ran \d+ tests?|\d+ (?:passing|failing|pending)\b|"
    r"Finished in \d|\d+ examples?, \d+ failures?)"  # rspec's summary
    # a test file's result line (jest): `FAIL tests/cart.test.js`, `PASS src/a.test.ts (5.2 s)`
    r"|^\s*(?:FAIL|PASS)\s+\S+(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$"
)
#: What any line _ANY_TEST_BLOCK matches holds, one a runner (pytest's rule of
#: underscores and a space, jest's bullet, vitest's and go's FAIL, cargo's stdout
#: header, mocha's and rspec's `N) `, unittest's verdicts): tests/reduce/test_units.py checks them. A mark
#: is looked for alone, without the space after it: one character is found quicker.
_BLOCK_HINTS = ("_ ", "●", "FAIL", "×", "✗", " stdout ----", ") ", "ERROR: ", "SUCCESS: ")
#: The others: pytest's summary lines (`FAILED …`) are looked for among those holding `FAIL`.
_BLOCK_HINTS_BUT_FAIL = tuple(hint for hint in _BLOCK_HINTS if hint != "FAIL")
#: What any line `_passing` is true of holds.
_PASSING_HINTS = ("PASS", "ok", "✓", "√")
_ASSERTION = lazy(r"(?i)(?:assert|error|expected|received|panicked|failure|exception|mismatch|!=|==)")
_PASSING = lazy(r"(?:\bPASSED\b|^\s*(?:✓|√|ok) |^ok\s+\S+|\.\.\. ok$|^--- PASS: |^\s*PASS )")


def _passing(line: str) -> bool:
    # Every line _PASSING matches holds one of _PASSING_HINTS: most lines hold none, and
    # four substring tests cost less than a search of the alternation at every position.
    hinted = "PASS" in line or "ok" in line or "✓" in line or "√" in line
    return hinted and _PASSING.search(line) is not None


#: Where a failure's message ends: a stack frame, a source excerpt, a backtrace.
_FRAME = lazy(r"^\s*(?:at\s|\d+:\s|>?\s*\d*\s*\|)|^(?:stack backtrace:|note: )")
_MESSAGE_LINES = 4


#: A Python traceback's frame (`  File "tests/test_a.py", line 12, in test_b`) and the
#: exception line under the last one (`AssertionError: 3 != 4`, `json.decoder.JSONDecodeError: …`).
_PY_FRAME = lazy(r'^\s*File "[^"]+", line \d+')
_PY_EXCEPTION = lazy(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Failure|Warning)\b")
#: pytest's explanation lines (`E       assert 1 == 2`, `E       KeyError: 'x'`).
_E_LINE = lazy(r"^E {2,}\S")
#: Where pytest says a failure was raised: `tests/helpers.py:8: KeyError`, `app.py:12: in load`.
_RAISE_SITE = lazy(r"^\S+:\d+: (?:\w[\w.]*|in \S+)?$")
_E_LINES = 8


def _message(body: list[str]) -> list[str]:
    """A failure's message. For pytest, its `E` lines (the assertion or exception and
    what pytest explains of it) and the raise site (`tests/helpers.py:8: KeyError`),
    even when the exception came from deep inside library code. For a Python
    traceback (unittest's), the test's own frame, the frame that raised and the
    exception with the lines after it. Otherwise its assertion line (or, when none
    says so, its first line that is not a stack frame) and the lines right after it
    up to the next frame: jest's `Expected:` and `Received:`, cargo's `left:` and `right:`."""
    explained = [k for k, line in enumerate(body) if _E_LINE.match(line)]
    if explained:
        sites = [k for k, line in enumerate(body) if _RAISE_SITE.match(line) and k > explained[0]]
        picked = explained[:_E_LINES] + sites[-1:]
        return [body[k] for k in sorted(picked)]
    frames = [k for k, line in enumerate(body) if _PY_FRAME.match(line)]
    raised = (
        next((k for k in range(frames[-1] + 1, len(body)) if _PY_EXCEPTION.match(body[k])), None) if frames else None
    )
    if raised is not None:
        told = [line for line in body[raised + 1 :] if line.strip()][: _MESSAGE_LINES - 1]
        return [body[k] for k in sorted({frames[0], frames[-1]})] + [body[raised], *told]
    start = next((k for k, line in enumerate(body) if _ASSERTION.search(line) and not _FRAME.match(line)), None)
    if start is None:
        start = next((k for k, line in enumerate(body) if line.strip() and not _FRAME.match(line)), None)
    if start is None:
        return []
    message = [body[start]]
    for line in body[start + 1 :]:
        if len(message) >= _MESSAGE_LINES or _FRAME.match(line):
            break
        if line.strip():
            message.append(line)
    return message


#: pytest's short test summary: `FAILED tests/test_a.py::test_b[1] - AssertionError: …`.
_SUMMARY_LINE = lazy(r"^(?:FAILED|ERROR) (?P<id>\S.*?)(?: - .*)?$")
_PYTEST_ERROR = lazy(r"^ERROR (?:at (?:setup|teardown) of|collecting) ")


def _listed(lines: list[str]) -> set[str]:
    """The tests a short summary names, as their blocks' titles name them."""
    names = set()
    for line in lines:
        found = _SUMMARY_LINE.match(line)
        if found:
            node = found.group("id")
            names.add(node)
            if "::" in node:
                names.add(node.split("::", 1)[1].replace("::", "."))
    return names


def _family(name: str) -> str:
    """The test a case belongs to: `test_x[3]` → `test_x`, `suite › case` → `suite`,
    `TestX/sub` → `TestX`."""
    if name.endswith("]") and "[" in name:
        return name[: name.index("[")]
    for separator in (" › ", " > "):
        if separator in name:
            return name.rsplit(separator, 1)[0]
    if "/" in name and " " not in name:
        return name.split("/", 1)[0]
    return name


#: A test's verdict on a line of its own: `tests/a.py::test_b PASSED  [ 40%]` (-v) or
#: `PASSED tests/a.py::test_b` (-rA): neighbours of one file and verdict share a line.
_VERDICT_AFTER = lazy(r"^(?P<file>[^\s:]+)::(?P<name>\S+) (?P<verdict>PASSED|SKIPPED|XFAIL|XPASS)(?:\s+\[\s*\d+%\])?$")
_VERDICT_BEFORE = lazy(r"^(?P<verdict>PASSED|SKIPPED|XFAIL|XPASS) (?P<file>[^\s:]+)::(?P<name>\S+)$")


def _stem_runs(names: list[str]) -> list[list[str]]:
    """Neighbouring names of one stem (`test_p[1]`, `test_p[2]`; `test_ok_1`, `test_ok_2`)."""
    runs: list[list[str]] = []
    stem = None
    for name in names:
        own = name[: name.index("[") + 1] if "[" in name else name.rstrip("0123456789")
        if runs and own == stem:
            runs[-1].append(name)
        else:
            runs.append([name])
            stem = own
    return runs


def _factored_names(start: str, names: list[str], end: str) -> tuple[str, list[str], str]:
    """Names with what they all start and end with moved outside the list, at a word's
    edge: `test_x[1]`, `test_x[2]` as `test_x[` + `{1,2}` + `]`."""
    shortest = min(map(len, names))
    head = 0
    while head < shortest and all(name[head] == names[0][head] for name in names):
        head += 1
    while head and names[0][head - 1].isalnum():
        head -= 1  # not inside a word: `test_ok_1`, `test_ok_12` share `test_ok_`
    tail = 0
    while tail < shortest - head and all(name[len(name) - 1 - tail] == names[0][-1 - tail] for name in names):
        tail += 1
    while tail and names[0][len(names[0]) - tail].isalnum():
        tail -= 1
    cores = [name[head : len(name) - tail] for name in names]
    if not all(cores) or any(not _brace_safe(core) for core in cores):
        return start, names, end
    return start + names[0][:head], cores, names[0][len(names[0]) - tail :] + end


def _passing_unit(line: str) -> Unit:
    """A passing test; its lossless form joins its file's neighbours of the same
    verdict in one brace list (`tests/a.py::{test_b,test_c} PASSED`), the progress
    column going (it counts lines, it says nothing of a test)."""
    after = _VERDICT_AFTER.match(line)
    found = after or _VERDICT_BEFORE.match(line)
    timed = _TIMED_VERDICT.match(line) if found is None else None
    if timed is not None:  # go test -v: `--- PASS: TestWrite (0.00s)`, neighbours of one time joined
        name, joins, joins_after = timed["name"], timed["lead"], timed["after"]
    elif found is None or not _test_id_safe(found.group("name")):
        return Unit("passing test", "", (line,), (line,), priority=0)
    else:
        file, name, verdict = found.group("file", "name", "verdict")
        joins, joins_after = (f"{file}::", f" {verdict}") if after else (f"{verdict} {file}::", "")
    return Unit(
        "passing test",
        "",
        (line,),
        (line,),
        priority=0,
        lossless=(Encoded(name + ",", 1),),
        joins=joins,
        joins_after=joins_after,
        factor=timed is None,  # a test's cases by stem; go's tests one list
    )


#: A test's verdict with its time (`go test -v`: `--- PASS: TestWrite (0.00s)`).
_TIMED_VERDICT = lazy(r"^(?P<lead>--- (?:PASS|SKIP): )(?P<name>[^\s{},/]+)(?P<after> \(\d+(?:\.\d+)?s\))$")
#: A subtest's verdict under its test's (`go test -v`: `    --- PASS: TestRead/Simple (0.00s)`).
_SUBTEST_VERDICT = lazy(
    r"^(?P<lead>\s+--- (?:PASS|SKIP): [^\s{},]+/)(?P<name>[^\s{},/]+)(?P<after> \(\d+(?:\.\d+)?s\))$"
)


def _verdicts_said_once(lines: list[str]) -> tuple[Item, ...]:
    """A failing test's lines with each run of its subtests' verdicts that say the same
    but for the subtest's name said once, the names in a brace list
    (`    --- PASS: TestRead/{Simple,CRLF,BareCR} (0.00s)`); () when there is none."""
    if not any("--- " in line for line in lines[1:]):
        return ()
    out: list[Item] = []
    k = 0
    while k < len(lines):
        found = _SUBTEST_VERDICT.match(lines[k])
        if found is None:
            out.append(lines[k])
            k += 1
            continue
        lead, after, names = found["lead"], found["after"], [found["name"]]
        k += 1
        while k < len(lines) and (more := _SUBTEST_VERDICT.match(lines[k])) and more["lead"] == lead:
            if more["after"] != after:
                break
            names.append(more["name"])
            k += 1
        out.extend(brace_lines(lead, names, after) if len(names) > 1 else [lead + names[0] + after])
    return tuple(out) if len(out) < len(lines) else ()


def _tests(lines: list[str], view: Lines | None = None) -> Parsed:
    """Test runner output: every failing test's block is a unit kept whole while it
    fits (its short form is its title and the message of its failure); passing tests
    are units that go first. A block whose test the short summary names (pytest's
    `FAILED …` lines) may go whole: its name stays in the summary."""
    parsed: Parsed = []
    current: list[str] = []
    text = "\n".join(lines) if view is None else view.text(False) or ""
    failing = holding(text, ("FAIL",))  # a block's hint too: `FAILED ` is looked for once
    summary = (bool(failing) or "ERROR " in text) and any(line.startswith(("FAILED ", "ERROR ")) for line in lines)
    listed = _listed(lines) if summary else set()
    kinds_seen: set[str] = set()

    def close() -> None:
        if current:
            title = current[0]
            message = _message(current[1:])
            assertion = bool(message)
            short = (Pinned(title),) + tuple(Pinned(clip_line(line, _LINE_LIMIT)) for line in message)
            name = next((found.group("name") for found in map(lambda b: b.match(title), _TEST_BLOCKS) if found), "")
            in_summary = _PYTEST_ERROR.sub("", name) in listed
            # Failures raised at one site with one exception fail alike, whatever their
            # names: the first of each kind keeps its message longest.
            site = next((line for line in reversed(message) if _RAISE_SITE.match(line)), None)
            # A block the summary names may go whole, but for the first of each kind
            # (raise site and exception): its message says what the summary's clipped line cannot.
            kind = site.rpartition(": ")[2] or site if site is not None else None
            first_of_kind = kind is not None and kind not in kinds_seen
            if kind is not None:
                kinds_seen.add(kind)
            parsed.append(
                Unit(
                    "failing test",
                    "listed in the summary" if in_summary else "",
                    tuple(current),
                    short,
                    (short if first_of_kind else ()) if in_summary else (Pinned(title),),
                    lossless=_verdicts_said_once(current),
                    priority=3,
                    short_note="beyond their title and message" if assertion else "beyond their title",
                    minimal_note="beyond their title",
                    family=site or _family(name),
                )
            )
            current.clear()

    block, block_end = _ANY_TEST_BLOCK.match, _BLOCK_END.match
    # A block's start and a passing test's line hold one of their hints: the lines
    # that hold none, most of a long run's, are taken a run at a time.
    whole = text.count("\n") != len(lines) - 1  # a line of several: each line tried
    hinted = range(len(lines)) if whole else failing | holding(text, _BLOCK_HINTS_BUT_FAIL)
    starts = {k for k in hinted if block(lines[k])}
    marks = list(range(len(lines))) if whole else sorted(starts | holding(text, _PASSING_HINTS))
    k, end = 0, len(lines)
    while k < end:
        line = lines[k]
        if k in starts:
            close()
            current.append(line)
            k += 1
            continue
        if current:
            if not block_end(line):
                current.append(line)
                k += 1
                continue
            close()
        following = marks[bisect.bisect_left(marks, k)] if marks and marks[-1] >= k else end
        if following > k:
            parsed += lines[k:following]  # neither a block's start nor a passing test
            k = following
            continue
        parsed.append(_passing_unit(line) if _passing(line) else line)
        k += 1
    close()
    return parsed


_PARSERS: dict[str, Callable[[list[str]], Parsed]] = {
    "finding": lambda lines: findings.parse(lines, vendored),
    "record": records.parse,
    "path": _paths,
    "commit": _commits,
    "diff-file": _diff_files,
    "match-file": _match_files,
    "row": _rows,
    "dir": _dirs,
    "test": _tests,
    "traceback": traces.parse,
}
assert set(_PARSERS) == set(UNITS)


# -- regions: structure by content, for compound and unknown commands ---------------------

#: What starts a region of a kind, and what may continue it (a line that does not ends it).
_REGION_START_SOURCES = (
    ("diff", r"diff --(?:git|cc|combined) |--- [^\n]+\n\+\+\+ [^\n]+\n@@ "),
    ("commits", r"commit [0-9a-f]{7,64}\b"),
    (
        "status",
        r"(?:On branch \S|HEAD detached at |Changes to be committed:$|Changes not staged for commit:$"
        r"|Untracked files:$)",
    ),
    ("tests", r"=+ (?:test session starts|FAILURES|ERRORS) =+$"),
    ("matches", r"[^\s:\n]+:\d+(?::\d+)?:"),
    # a listing of paths (find, a host tool's file search): three lines of one path each
    ("paths", r"[^\s:\n]*[^\s:\n/]/[^\s:\n]+(?:\n[^\s:\n]*[^\s:\n/]/[^\s:\n]+){2}$"),
)
#: Where any region may start, found in one pass over the whole text (a 2-million-line
#: flood costs one search, not five matches per line).
_REGION_START = lazy("|".join(f"^(?P<{name}>{source})" for name, source in _REGION_START_SOURCES), re.MULTILINE)
_SEARCH_LINE = lazy(r"^[^\s:]+:\d+(?::\d+)?:")
_REGION_GOES_ON: dict[str, re.Pattern[str]] = {
    "diff": lazy(
        r"^(?:[ +\-@\\]|diff --|index |--- |\+\+\+ |(?:old|new|deleted file|new file) mode |(?:dis)?similarity index "
        r"|rename |copy |Binary files |$)"
    ),
    "commits": lazy(
        r"^(?:commit [0-9a-f]{7,64}\b|Author:|AuthorDate:|Commit:|CommitDate:|Date:|Merge:|    |\s*$| \S.*\|)"
    ),
    "status": lazy(
        r"^(?:\t|  \(|On branch |Your branch |HEAD detached |Changes |Untracked files:|Unmerged paths:|no changes added"
        r"|nothing (?:to commit|added)|\s*$)"
    ),
    "tests": lazy(r"^(?!=+ .*\b(?:passed|failed|errors?|no tests ran)\b.* =+$)"),
    "matches": lazy(r"^(?:[^\s:]+:\d+(?::\d+)?:|[^\s:]+-\d+-|--$)"),
    "paths": lazy(r"^[^\s:]*[^\s:/]/[^\s:]+$"),
}
_REGION_PARSERS: dict[str, Callable[[list[str]], Parsed]] = {
    "diff": _diff_files,
    "commits": _commits,
    "status": _paths,
    "tests": _tests,
    "matches": _match_files,
    "paths": lambda lines: _dirs(lines) if _grouped(lines) else list(lines),
}


def _grouped(paths: list[str]) -> bool:
    """Do the paths of a listing share their folders (two a folder at least, on
    average)? Folders of one path each would name every path past the budget."""
    return len({path.rsplit("/", 1)[0] for path in paths}) * 2 <= len(paths)


def _spans(lines: list[str]) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each region recognised by its content."""
    spans: list[tuple[str, int, int]] = []
    count = len(lines)
    text = "\n".join(lines)
    position = 0  # the first line not yet in a region
    line_of = 0  # the line the last found offset is on
    offset = 0
    for found in _REGION_START.finditer(text):
        line_of += text.count("\n", offset, found.start())
        offset = found.start()
        start = line_of
        if start < position:
            continue  # inside the region before
        kind = found.lastgroup or ""
        if kind == "matches" and not (start + 1 < count and _SEARCH_LINE.match(lines[start + 1])):
            continue  # one `path:12:` line is not a search's output
        end = start + 1
        goes_on = _REGION_GOES_ON[kind]
        while end < count and goes_on.match(lines[end]):
            end += 1
        if kind == "tests" and end < count:
            end += 1  # the closing `=== 2 failed, 3 passed in 0.1s ===` line belongs to the session
        spans.append((kind, start, end))
        position = end
    return spans


#: The noise each kind of region carries, by the noise kinds rules name (reduce/noise.py).
_REGION_NOISE = {"status": ("git-advice",), "diff": ("diff-index", "diff-names"), "tests": ("pytest-header",)}


def region_noise(lines: list[str]) -> set[int]:
    """Lines of the regions recognised in a compound command's output that are noise
    for their kind (git's advice in a git status, blob ids in a diff)."""
    from ..rules.patterns import Lines
    from . import noise

    dropped: set[int] = set()
    for kind, start, end in _spans(lines):
        kinds = _REGION_NOISE.get(kind)
        if not kinds:
            continue
        if kind not in _REGION_NOISE_PATTERNS:  # one alternation per kind, compiled once
            _REGION_NOISE_PATTERNS[kind] = re.compile("|".join(f"(?:{p})" for p in noise.patterns(kinds)))
        search = _REGION_NOISE_PATTERNS[kind].search
        dropped |= {k for k in range(start, end) if search(lines[k])}
        dropped |= {start + k for k in noise.structural(kinds, Lines(lines[start:end]))}
    return dropped


_REGION_NOISE_PATTERNS: dict[str, re.Pattern[str]] = {}


def regions(lines: list[str]) -> tuple[Parsed, tuple[tuple[str, int], ...]]:
    """Split an output made of several tools' outputs (`git status && git log -n 5`,
    `grep -c x f; git diff`) into regions recognised by their content — diffs, commit
    logs, git status, test sessions, search matches, listings of paths — each parsed into its units;
    other lines stay loose. Returns the parsed output and (kind, lines) per region."""
    parsed: Parsed = []
    found: list[tuple[str, int]] = []
    position = 0
    spans: list[tuple[str, int, int]] = []
    for kind, start, end in _spans(lines):
        if kind == "diff" and spans and spans[-1][0] == "commits" and spans[-1][2] == start:
            spans[-1] = ("commits", spans[-1][1], end)  # a commit and its patch (`git show` by a tool): one log
        else:
            spans.append((kind, start, end))
    for kind, start, end in spans:
        parsed.extend(lines[position:start])
        parsed.extend(_REGION_PARSERS[kind](lines[start:end]))
        found.append((kind, end - start))
        position = end
    parsed.extend(lines[position:])
    return parsed, tuple(found)
