"""Structure-aware cutting: outputs made of units are cut between units, never inside one.

A rule declares what its output is made of (`unit = "diff-file"`, `"commit"`,
`"path"`, `"match-file"`, `"row"`, `"dir"`, `"test"`, `"finding"`…), and the parser of
that kind (reduce/changes.py, matches.py, tables.py, listings.py, testruns.py,
findings.py, records.py, traces.py) splits the filtered lines into `Unit`s and loose
lines (headers, summaries). When the whole does not fit the budget, `fit` makes it
fit in steps, each only as far as needed:

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

from ..fast.lazyre import lazy
from ..rules.model import UNITS
from ..text import pluralize
from .lines import Encoded, Indented, Item, Omission
from .lines import size as _size
from .reencode import (
    brace_lines,
    factored_names,
    folders_said_once,
    placed,
    shared_folder,
    stem_runs,
)
from .unit import Parsed, Unit, bisection
from .unit import input_lines as _input_lines
from .vendored import vendored

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ..rules.patterns import Lines


__all__ = ["Parsed", "Unit", "fit", "lossless_whole", "parse"]


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
    labels = _Labels(units, state, sizes)
    for tier, target, limit, named in steps:
        if total <= limit:
            continue
        if target == DROPPED and tier is not None and labels.gathered:
            # Before a unit of this tier goes, the labels of less important tiers (all of
            # their units gone by now) are counted on one line per tier: their places are
            # worth less than the units that matter more (the project's own findings, next
            # to a vendored copy's codes).
            for top in sorted({top for label, top in labels.tiers.items() if label in labels.gathered and top < tier}):
                if total <= limit:
                    break
                total += labels.compacted(top)
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
                total += labels.dropped(unit)
            elif target == DROPPED:  # a new run of dropped units is one more marker; joining two, one fewer
                marker = _RUN_MARKER_COST if unit.kind in _ENDS else _MARKER_COST  # its counts by state and folder
                total += marker * (1 - _dropped_neighbours(index, neighbours, state))
    if labels.gathered or labels.compact:
        total = labels.fitted(total, available, lone)
    # past the room for the names kept past it (every file that matched): not for an
    # estimate of markers that the rendered fit corrects (`fit` aims lower)
    names_over = total > available and any(state[i] != DROPPED and unit.minimal and unit.names for i, unit in units)
    partial = _refill(units, state, sizes, max(available - total, reserve) if names_over else available - total)
    return _render(parsed, state, partial, labels.compact), names_over


class _Labels:
    """The labels of the units gathered under them (a linter's findings under their
    codes) while one fit cuts: each label's tier (the importance of its most important
    unit: the tier whose cut counts it with the others on one line) and how many places
    its marker could name (its findings'); the labels of dropped units that have a
    marker line of their own, with what that line was reckoned at (`gathered`); and the
    labels counted on one line per tier instead, without places (`compact`). `state`
    and `sizes` are the fit's own, changed in place."""

    def __init__(self, units: list[tuple[int, Unit]], state: dict[int, int], sizes: dict[int, list[int]]) -> None:
        self.units, self.state, self.sizes = units, state, sizes
        self.tiers: dict[str, float] = {}
        self.places: dict[str, int] = {}
        for _, unit in units:
            if unit.gathered:
                self.tiers[unit.gathered] = max(unit.priority, self.tiers.get(unit.gathered, unit.priority))
                self.places[unit.gathered] = self.places.get(unit.gathered, 0) + 1 + len(unit.also)
        self.gathered: dict[str, int] = {}
        self.compact: set[str] = set()

    def dropped(self, unit: Unit) -> int:
        """What dropping `unit` adds to the total: one more line counting its label's
        dropped units, where its label has none yet."""
        label = unit.gathered
        if not label or label in self.gathered or label in self.compact:
            return 0
        self.gathered[label] = _gathered_cost(unit, min(_PLACES, self.places[label]))
        return self.gathered[label]

    def compacted(self, tier: float) -> int:
        """Count the labels of `tier` not yet so counted on one line (`C0116 107, C0103
        34, …`, no places), their units still shown dropped too, where that saves at
        least what the line takes: their own lines go, as they were reckoned
        (`gathered`), and the one line comes. Returns what that changes in the total."""
        labels = {label for label, top in self.tiers.items() if top == tier and label not in self.compact}
        change = 0
        first: dict[str, Unit] = {}
        for index, unit in self.units:
            if unit.gathered in labels:
                first.setdefault(unit.gathered, unit)
                if self.state[index] != DROPPED:
                    change -= self.sizes[index][self.state[index]]
        listed = sorted(first.values(), key=lambda unit: -len(unit.group))[:_COMPACT_LABELS]
        change += _COMPACT_COST + sum(len(unit.group) + 8 for unit in listed)
        change -= sum(self.gathered.get(label, 0) for label in labels)
        if not labels or change > -_COMPACT_COST:  # a line or two of their own cost about what the one line would
            return 0
        for index, unit in self.units:
            if unit.gathered in labels:
                self.state[index] = DROPPED
        for label in labels:
            self.gathered.pop(label, None)
        self.compact.update(labels)
        return change

    def fitted(self, total: int, available: int, lone: set[int]) -> int:
        """Where the lines counting each label go past the room (a hundred codes), the
        least important tiers, one at a time, are counted on one line each and their
        units still shown go too. Then the room left goes back to dropped units, the
        most important tier first, the first of each label before the others. Returns
        the new total. `lone`: the units alone of their label (`_lone`), given back
        before the others."""
        for top in sorted(set(self.tiers.values())):
            if total <= available:
                break
            total += self.compacted(top)
        tiers = sorted({unit.priority for index, unit in self.units if unit.gathered})
        for tier in reversed(tiers):
            seen: set[str] = set()
            # the only unit of its label first, then the first of each other label, then
            # those that stand for most findings (said together), then in order
            order: list[tuple[bool, bool, int, int]] = []
            for index, unit in self.units:
                if unit.priority == tier and unit.gathered:
                    order.append((unit.gathered in seen, index not in lone, -unit.count, index))
                    seen.add(unit.gathered)
            for *_, index in sorted(order):
                if self.state[index] != DROPPED:
                    continue
                # whole where it fits; shortened, it costs its share of a marker too
                sizes = self.sizes[index]
                for form, cost in ((FULL, sizes[FULL]), (SHORT, sizes[SHORT] + _RUN_MARKER_COST)):
                    if total + cost <= available:
                        self.state[index] = form
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
        orders = {index: bisection(len(units[index].body)) for index in (tier[k][0] for k in bisection(len(tier)))}
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
    """One body line for as many units as `room` holds, spread evenly over `tier`: the
    first, the last, the middle, then the middles of each half (`bisection`), each unit
    whose line fits the room left, rather than the first ones. Taken in one order
    whatever the room, the units a smaller room shows are shown by a bigger one too
    (most of them: a unit too big for the room left gives its turn to the next). No
    head is paid for: more units' first lines come before any unit's head."""
    best: dict[int, int] = {}
    left = room
    for k in bisection(len(tier)):
        index = tier[k][0]
        cost = max(0, costs[index].of(1, heads=False))
        if cost <= left:
            best[index] = 1
            left -= cost
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


def _gathered_cost(unit: Unit, places: int) -> int:
    """About what the line counting the dropped units of `unit`'s label takes, naming
    where the first `places` of them are."""
    return len(unit.gathered) + places * (len(unit.place) + 2) + 32


def _gathered_markers(gathered: dict[str, list[Unit]], compact: set[str], shown: set[str]) -> list[Item]:
    """One marker per label of the dropped units that are gathered (a linter's code),
    the most important and the most numerous first, each naming where the first of
    them are: `... 212 more F401 (src/a.py:3, src/b.py:7, src/c.py:1, …) omitted ...`;
    for the `compact` labels one marker per tier: `... 415 more findings: C0116 107, …`.
    "more" only for a label `shown` above (a unit of it shown), else `... 18 W0613 (…)`."""
    markers: list[Item] = []
    ranked = sorted(
        gathered.items(), key=lambda pair: (-max(u.priority for u in pair[1]), -sum(u.count for u in pair[1]))
    )
    tiers: dict[float, list[list[Unit]]] = {}
    for label, dropped in ranked:
        tier = max(unit.priority for unit in dropped)
        if label in compact:
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
    compact: set[str] | None = None,
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
            runs = stem_runs(names) if joined[0].factor else [names]
            for run in runs:
                head, cores, tail = factored_names(start, run, end) if len(run) > 1 else (start, run, end)
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

    def headed_at(part: Unit, shown: tuple[Item, ...]) -> None:
        """Note `part`, about to be shown as `shown`, among the units under a heading."""
        if part.heading and str(shown[0]).startswith(part.heading):
            headed.append((len(items), len(items) + len(shown), part.heading))

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
            headed_at(part, shown)  # a short form too (gcc's warning without its excerpt)
            items.extend(shown)
            shortened.setdefault((part.kind, note), []).append(hidden)
            continue
        flush(runs=not any(isinstance(i, Omission) for i in shown))
        headed_at(part, shown)
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


#: Each kind of unit a rule may declare (`rules.model.UNITS`): the module of its parser
#: and the parser's name there. A module is imported when an output of its kind is
#: first parsed: a reduction pays only for the parsers it uses.
_PARSERS = {
    "finding": ("findings", "parse"),
    "record": ("records", "parse"),
    "path": ("changes", "parse_paths"),
    "commit": ("changes", "parse_commits"),
    "diff-file": ("changes", "parse_diff_files"),
    "match-file": ("matches", "parse"),
    "row": ("tables", "parse"),
    "dir": ("listings", "parse"),
    "test": ("testruns", "parse"),
    "traceback": ("traces", "parse"),
}
assert set(_PARSERS) == set(UNITS)


def parse(unit: str, lines: list[str], view: Lines | None = None) -> Parsed:
    """Split `lines` into units of the kind a rule declares; `view`, when given, is
    the lines with their text, made once for whatever scans them (the test parser
    reads it)."""
    module, name = _PARSERS[unit]
    parser = getattr(__import__(f"{__package__}.{module}", fromlist=[name]), name)
    if unit == "test":
        return parser(lines, view)  # type: ignore[no-any-return]
    if unit == "finding":
        return parser(lines, vendored)  # type: ignore[no-any-return]
    return parser(lines)  # type: ignore[no-any-return]
