"""Apply one rule to a command's output: the rule path of the reduction.

Order: pretty-print JSON → split lines → trim edges → `match_output` short-circuit →
(counter snapshot for `pre_skip`) → skip filters → (snapshot for `pre_keep`) →
keep filters → trim filters → counters →
formatter → adjacent de-duplication → `on_empty` → pins → head/tail (wider on
failure; pinned lines in the middle survive).
Every step is linear in the number of lines; patterns are compiled once per run.
"""

from __future__ import annotations

from itertools import compress, repeat

from ..fast.record import record, replace
from ..rules.model import Counter, Rule
from ..rules.patterns import SIEVE_LINES, Budget, Lines, Matcher, group_names, scoped
from ..text import split_lines, trim_empty_edges
from . import noise, records, traces
from .formatters import FORMATTERS
from .lines import Item, Omission, Pinned, Trimmed, beyond, dedupe_adjacent, head_tail, size
from .reencode import said_once, sole_author, worth_it
from .units import Parsed, Unit, lossless_whole, parse

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    MatcherFactory = Callable[..., Matcher]

#: At most this many pinned lines survive from the middle of a head/tail cut.
PIN_LIMIT = 20
#: The lines of a rule's `flood_patterns` shown, the first ones; the rest are dropped.
FLOOD_SHOWN = 5
#: Outputs longer than this many lines are not searched for regions (floods).
REGION_LINES = 100_000


@record
class RuleOutcome:
    """What a rule made of the output."""

    items: tuple[Item, ...]
    facts: dict[str, int] | None
    kinds: tuple[str, ...]
    summary: str | None  # a match_output / on_empty message replacing the lines
    total_lines: int
    note: str | None = None  # what a formatter did that line counts cannot say
    # The lines with only the noise the rule names dropped (skip_patterns, repeats):
    # what is shown when the whole output fits the budget.
    denoised: tuple[Item, ...] = ()
    # The filtered lines split into units (the rule's `unit`), for cutting between them.
    units: tuple[Item | Unit, ...] = ()
    # For a compound or unknown command: the regions recognised by their content.
    regions: tuple[tuple[str, int], ...] = ()
    # `denoised` with its units in their lossless forms (grep's path once per file, a
    # folder's entries or a test file's passing ids in one brace list), when that is
    # meaningfully shorter: what is shown whole in place of `denoised`.
    lossless: tuple[Item, ...] = ()
    # The rule's lines, pinned, before its head and tail cut, when it cut them: a budget
    # wider than the cut is spent on them (`engine.choose`), pinned lines first.
    before_cut: tuple[Item, ...] = ()
    # The `Author:` line every commit of the output shares (`reencode.sole_author`), read
    # once where the rule says it once (`transforms.said_once`), for every form and budget.
    author: str | None = None


def apply_rule(
    rule: Rule,
    raw_text: str,
    stripped_text: str,
    exit_code: float | None,
    *,
    stripped_lines: list[str] | None = None,
    no_omit: bool = False,
    budget: Budget | None = None,
    structure: bool = False,
    argv: Sequence[str] = (),
    uncut: bool = False,
) -> RuleOutcome:
    """`stripped_lines`, when given, is `split_lines(stripped_text)`, already computed;
    `argv` is the command's words (a word matching the rule's `detail_flags` makes
    its `listing_patterns` lines content); `uncut` leaves out the rule's head and tail
    cut of its lines (an exact read is cut to its own budget by the engine)."""
    matcher = matcher_factory(rule, budget or Budget())
    transforms, filters = rule.transforms, rule.filters
    if transforms.strip_ansi and not transforms.pretty_print_json and stripped_lines is not None:
        lines, source = stripped_lines, stripped_text
    else:
        text = stripped_text if transforms.strip_ansi else raw_text
        source = pretty_json(text) if transforms.pretty_print_json else text
        lines = split_lines(source)
    if transforms.trim_empty_edges:
        lines = trim_empty_edges(lines)
    total = len(lines)
    kinds: list[str] = []
    # A flood (a log of millions of lines) is not looked at for regions: one pass over it
    # costs more than the structure of so much output could give back.
    structure = structure and total <= REGION_LINES

    unfiltered = lines
    dropped: set[int] = set()
    skips = filters.skip_patterns + noise.patterns(filters.noise)
    if filters.listing_patterns and not asks_for_detail(rule, argv, matcher):
        # first: a listing says a line a test (a file, a package), the most lines of an
        # output that has one, and the alternation stops at the pattern that matches
        # (which one does not matter: a line goes if any does)
        skips = filters.listing_patterns + skips
    view = Lines(lines, source)  # every line is in `source`: what is not there is in none of them
    views = {id(lines): view}

    def view_of(some: list[str]) -> Lines:
        """`some` lines, their text made once for every set of patterns that scans them:
        the lines the filters kept are scanned in their own text, a fraction of the
        output's where the filters dropped much (the output's for all its lines)."""
        found = views.get(id(some))
        if found is None or found.lines is not some:
            found = views[id(some)] = Lines(some)
        return found

    if not no_omit and skips:
        dropped = matcher(skips).matching(view)
    if not no_omit and filters.flood_patterns:
        dropped |= flooded(matcher(filters.flood_patterns).matching(view) - dropped)
    if not no_omit and filters.noise:
        dropped |= noise.structural(filters.noise, view)
    if not no_omit and structure:  # a compound command: each region's own noise (git's advice…)
        from .regions import region_noise

        dropped |= region_noise(lines)
    undropped = _without(lines, dropped) if dropped else lines
    kept_lines = trim_empty_edges(undropped) if transforms.trim_empty_edges else undropped
    denoised: list[Item] = list(kept_lines)
    marked: list[int] = []  # where the repeats' markers are among the denoised lines
    if transforms.dedupe_adjacent and not no_omit:
        denoised = dedupe_adjacent(denoised, marked)
    if not no_omit:
        joined = None
        for entry in rule.match_output:
            joined = "\n".join(lines) if joined is None else joined
            if matcher([entry.pattern], entry.flags).search(joined):
                return RuleOutcome((), None, ("summary",), entry.message, total, denoised=tuple(denoised))
        if dropped:
            kinds.append("filter")
            lines = undropped
    counter_lines = lines
    if not no_omit and filters.keep_patterns:
        kept = matcher(filters.keep_patterns).matching(view_of(lines))
        if kept and filters.keep_under:
            kept = kept | _under(kept, matcher(filters.keep_under).matching(view_of(lines)))
        if kept and len(kept) != len(lines):
            kinds.append("filter")
            lines = [line for i, line in enumerate(lines) if i in kept]
    trimmed_runs: dict[int, list[str]] = {}
    if not no_omit and filters.trim_patterns:  # least-worth content: gone on the cut path only
        trim_hits = matcher(filters.trim_patterns).matching(view_of(lines))
        if trim_hits and filters.keep_under and filters.pin_patterns:  # what a pinned line is about stays
            pinned = matcher(filters.pin_patterns).matching(view_of(lines))
            trim_hits -= _under(pinned, matcher(filters.keep_under).matching(view_of(lines)))
        if trim_hits and len(trim_hits) != len(lines):
            kinds.append("filter")
            if not (rule.unit or rule.formatter):  # cut by lines: its blocks are marked where they were
                trimmed_runs = _runs_before(lines, trim_hits)
            lines = _without(lines, trim_hits)
    if transforms.trim_empty_edges:
        lines = trim_empty_edges(lines)
        counter_lines = trim_empty_edges(counter_lines)

    counted = {"pre_skip": unfiltered, "pre_keep": counter_lines}.get(rule.counter_source, lines)
    facts = count(rule.counters, view_of(counted), matcher) if rule.counters else None

    if no_omit:
        return RuleOutcome(tuple(lines), facts, tuple(kinds), None, total)

    formatter = rule.formatter
    # A block of lines a rule trims (installed code's rows in a coverage table) is
    # marked where it was; shorter runs between the lines kept (a warning's excerpt)
    # are counted in the trailer, where a marker each would cost the room of a line
    # kept. Units and formatters count what they leave out their own way.
    blocks = {at: run for at, run in trimmed_runs.items() if len(run) >= TRIMMED_BLOCK}
    items: list[Item] = _marked(lines, blocks) if blocks else list(lines)
    note = None
    if formatter:
        items, extra, note = FORMATTERS[formatter](lines)
        if extra:
            facts = (facts or {}) | extra
        if any(isinstance(i, Omission) for i in items) or len(items) != len(lines):
            kinds.append(formatter)
    undeduped = items  # units are cut by the engine, repeats among them with the rest
    if transforms.dedupe_adjacent:
        # The denoised lines' repeats, when no keep or trim pattern or formatter changed them.
        deduped = _remarked(denoised, marked) if not formatter and lines == kept_lines else dedupe_adjacent(items)
        if len(deduped) != len(items):
            kinds.append("dedupe")
        items = deduped
    if formatter:  # the rule's own encoding of the output is what fits whole (gh: records, not raw JSON)
        denoised = list(items)

    if not any(isinstance(i, str) and i.strip() for i in items) and rule.on_empty:
        return RuleOutcome((), facts, (*kinds, "summary"), rule.on_empty, total, note, tuple(denoised))

    if rule.unit:  # cut between units, to the budget, in the engine
        lines_only = [i for i in undeduped if isinstance(i, str)] if formatter else lines
        whole = parse(rule.unit, lines_only, view_of(lines_only)) if len(lines_only) == len(undeduped) else None
        # a program's output without a traceback is cut as if it had no unit: by head and tail
        if whole is not None and (rule.unit != "traceback" or any(isinstance(part, Unit) for part in whole)):
            failed = bool(exit_code) and exit_code != 0
            table = rule.failure if failed and rule.failure.preserve_on_failure else rule.summarize
            scanned = view_of(lines_only)
            if rule.unit == "record" and filters.pin_patterns:
                whole = _pinned_records(whole, rule, matcher)
            parsed = loose_head_tail(whole, table.head, table.tail, rule, matcher, scanned)
            if rule.unit == "traceback":
                parsed = traces.around(parsed)
            if rule.unit == "match-file":
                facts = (facts or {}) | {"file": sum(1 for part in parsed if isinstance(part, Unit))}
            # No unit in it (`ls -la` of one folder for a rule of folders, a script's output
            # with no traceback) and cut: its head and tail are the least shown, as any
            # rule's (`engine.choose`)
            before_cut = (
                _pinned(rule, lines_only, matcher, scanned, plain=True)[0]
                if rule.summarize.fill
                and len(parsed) != len(whole)
                and not any(isinstance(part, Unit) for part in whole)
                else []
            )
            if beyond(denoised, LOSSLESS_MAX):
                whole = []  # too big to be shown whole in any form
            elif any(isinstance(i, Omission) for i in denoised):  # a repeat's marker: units between them
                whole = _parsed_between_markers(rule.unit, denoised)
            elif lines_only != denoised:  # the rule kept or trimmed lines: the whole is made of other units
                whole = parse(rule.unit, [i for i in denoised if isinstance(i, str)])
            outcome = _in_units(items, facts, kinds, total, note, denoised, parsed, whole)
            if "author" in transforms.said_once:
                outcome = replace(outcome, author=sole_author(denoised))
            if transforms.said_once and not beyond(denoised, LOSSLESS_MAX):
                outcome = _said_once(outcome, transforms.said_once)
            return replace(outcome, before_cut=tuple(before_cut)) if before_cut else outcome
    elif structure:  # a compound or unknown command: structure recognised in the output itself
        lines_only = [i for i in items if isinstance(i, str)]
        if len(lines_only) == len(items):
            from .regions import regions

            found, recognised = regions(lines_only)
            if not recognised and records.looks_like_a_log(lines_only):  # a program's own log
                found, recognised = records.parse(lines_only), (("log", len(lines_only)),)
            if recognised:
                failed = bool(exit_code) and exit_code != 0
                table = rule.failure if failed and rule.failure.preserve_on_failure else rule.summarize
                parsed = loose_head_tail(found, table.head, table.tail, rule, matcher)
                whole = found if not beyond(denoised, LOSSLESS_MAX) and list(items) == list(denoised) else []
                return _in_units(items, facts, kinds, total, note, denoised, parsed, whole, recognised)

    items = pin(rule, items, matcher)
    failed = bool(exit_code) and exit_code != 0
    budget_table = rule.failure if failed and rule.failure.preserve_on_failure else rule.summarize
    trimmed = items if uncut else head_tail(items, budget_table.head, budget_table.tail, PIN_LIMIT)
    if len(trimmed) == len(items):
        return RuleOutcome(tuple(trimmed), facts, tuple(kinds), None, total, note, tuple(denoised))
    kinds.append("head-tail")
    return RuleOutcome(tuple(trimmed), facts, tuple(kinds), None, total, note, tuple(denoised), before_cut=tuple(items))


def _parsed_between_markers(unit: str, items: Sequence[Item]) -> Parsed:
    """`items` (denoised lines and the markers of repeats dropped among them) split into
    units between the markers, each marker where it was: a unit ends at a marker."""
    parsed: Parsed = []
    run: list[str] = []
    for item in items:
        if isinstance(item, Omission):
            parsed += parse(unit, run) if run else []
            parsed.append(item)
            run = []
        else:
            run.append(item)
    return parsed + (parse(unit, run) if run else [])


def _in_units(
    items: Sequence[Item],
    facts: dict[str, int] | None,
    kinds: list[str],
    total: int,
    note: str | None,
    denoised: Sequence[Item],
    parsed: Parsed,
    whole: Parsed,
    recognised: tuple[tuple[str, int], ...] = (),
) -> RuleOutcome:
    """What a rule made of an output cut between its units by the engine; `whole` is
    the output whole split into units (for its lossless form), or [] when it has none."""
    lossless = _lossless(whole, denoised) if whole else []
    return RuleOutcome(
        tuple(items),
        facts,
        tuple(kinds),
        None,
        total,
        note,
        tuple(denoised),
        tuple(parsed),
        recognised,
        tuple(lossless),
    )


def _pinned_records(parsed: Parsed, rule: Rule, matcher: MatcherFactory) -> Parsed:
    """A log's records with a line the rule pins (`Start request repeated too quickly`)
    rank with its failures, but for a record said again to the letter right after
    itself (chatter: the first says it)."""
    from ..fast.record import replace
    from .records import CRITICAL

    units = [(k, part) for k, part in enumerate(parsed) if isinstance(part, Unit)]
    first_lines = Lines([str(unit.lines[0]) for _, unit in units])
    hits = matcher(rule.filters.pin_patterns).matching(first_lines)
    result = list(parsed)
    for hit in hits:
        position, unit = units[hit]
        if hit and unit.lines == units[hit - 1][1].lines:
            continue  # the record before it again, to the letter: its marker counts it
        result[position] = replace(unit, priority=max(unit.priority, CRITICAL), expendable=False)
    return result


def flooded(hits: set[int]) -> set[int]:
    """Of the lines at `hits` (a flood pattern's), those that go: all but the first
    `FLOOD_SHOWN`."""
    return set(sorted(hits)[FLOOD_SHOWN:]) if len(hits) > FLOOD_SHOWN else set()


def asks_for_detail(rule: Rule, argv: Sequence[str], matcher: MatcherFactory) -> bool:
    """Does a word of the command match one of the rule's `detail_flags` (`-v`, `-rA`)?"""
    if not rule.filters.detail_flags or not argv:
        return False
    return bool(matcher(rule.filters.detail_flags).matching(Lines([str(word) for word in argv[1:]])))


#: Past this size an output is not shown whole in any form (the widest budget, the
#: guard's fourfold 10,000 characters, with room for what a lossless form saves), so
#: its lossless whole is not made.
LOSSLESS_MAX = 160_000


def _lossless(parsed: Parsed, denoised: Sequence[Item]) -> list[Item]:
    """`denoised` with its units in their lossless forms, or [] when that saves too
    little to be worth reading (`reencode.worth_it`)."""
    encoded = lossless_whole(parsed)
    if not encoded:
        return []
    before, after = size(list(denoised)), size(encoded)
    return encoded if worth_it(before - after, before) else []


def _said_once(outcome: RuleOutcome, kinds: tuple[str, ...]) -> RuleOutcome:
    """`outcome` with what its rule says once (`reencode.said_once`) in its lossless form,
    where that saves enough to be worth reading."""
    denoised = outcome.denoised
    base = outcome.lossless or denoised
    encoded = said_once(base, kinds, outcome.author)
    if encoded is base:
        return outcome  # nothing said once: the output is not measured
    before = size(list(denoised))
    return replace(outcome, lossless=tuple(encoded)) if worth_it(before - size(encoded), before) else outcome


def loose_head_tail(
    parsed: Parsed, head: int, tail: int, rule: Rule, matcher: MatcherFactory, lines: Lines | None = None
) -> Parsed:
    """The rule's head and tail (and pins), applied to the lines between units only
    (headers, progress, passing lines): units are cut by `units.fit`, never by position.
    `lines` are the lines `parsed` was made of, with their text."""
    # What kinds of item there are, told in one pass: most outputs are lines alone.
    kinds = set(map(type, parsed))
    between: list[Item] = (
        [part for part in parsed if not isinstance(part, Unit)]
        if any(issubclass(kind, Unit) for kind in kinds)
        else list(parsed)  # type: ignore[arg-type]  # no unit among them: told by their kinds
    )
    kinds -= {kind for kind in kinds if issubclass(kind, Unit)}
    loose, pinned_at = _pinned(rule, between, matcher, lines, all(issubclass(kind, str) for kind in kinds))
    count = len(loose)
    if count <= head + tail:
        keep = set(range(count))
    else:
        keep = set(range(head)) | set(range(count - tail, count))
        if any(issubclass(kind, Pinned | Omission) for kind in kinds):  # pinned or cut before: looked for
            keep.update(compress(range(count), map(isinstance, loose, repeat((Pinned, Omission)))))
        else:
            keep.update(pinned_at)
    result: Parsed = []
    if count == len(parsed):  # no unit among the lines: those kept, and a marker for each run between
        previous = -1
        for k in sorted(keep):
            if k > previous + 1:
                result.append(Omission(k - previous - 1))
            result.append(loose[k])
            previous = k
        if previous < count - 1:
            result.append(Omission(count - 1 - previous))
        return result
    hidden = 0
    position = 0
    for part in parsed:
        if not isinstance(part, Unit):
            item: Item | Unit = loose[position]
            position += 1
            if position - 1 not in keep:
                hidden += 1
                continue
        else:
            item = part
        if hidden:
            result.append(Omission(hidden))
            hidden = 0
        result.append(item)
    if hidden:
        result.append(Omission(hidden))
    return result


def count(counters: tuple[Counter, ...], view: Lines, matcher: MatcherFactory) -> dict[str, int]:
    """Lines matching each counter, or for a counter with a `(?P<count>…)` group the
    sum of the numbers it captures. Keyword counters scan the whole text; the other
    counters first find, with one combined search per line, the few lines any of
    them matches, and only those lines are tested again one counter at a time."""
    lines = view.lines
    matchers = {c.name: matcher([c.pattern], c.flags) for c in counters}
    per_line = [c for c in counters if not matchers[c.name].scans_text]
    subset = view
    if len(per_line) > 1:
        candidates = matcher([scoped(c.pattern, c.flags) for c in per_line]).matching(view)
        # a text holding them all where one is at hand, or the sieve would want one
        within = view.within if view.within is not None or len(candidates) < SIEVE_LINES else view.text(False)
        subset = Lines([lines[i] for i in sorted(candidates)], within)
    facts = {}
    for counter in counters:
        found = matchers[counter.name]
        searched = view if found.scans_text else subset
        hits = found.matching(searched)
        if "count" in group_names(counter.pattern):
            facts[counter.name] = sum(_captured_count(found.search(searched.lines[i])) for i in hits)
        else:
            facts[counter.name] = len(hits)
    return facts


def _captured_count(match: object) -> int:
    """The number a counter's `count` group captured on one line (0 if it is not one)."""
    group = getattr(match, "group", None)
    digits = group("count") if group is not None else None
    return int(digits) if isinstance(digits, str) and digits.isascii() and digits.isdigit() else 0


def matcher_factory(rule: Rule, budget: Budget) -> MatcherFactory:
    """`matcher(patterns, flags)` for this rule: fast for built-ins, time-bounded otherwise."""
    trusted, ascii = rule.trusted, rule.ascii

    def matcher(patterns: Sequence[str], flags: str = "") -> Matcher:
        return Matcher(list(patterns), flags, trusted=trusted, ascii=ascii, budget=budget)

    return matcher


def pin(rule: Rule, items: Sequence[Item], matcher: MatcherFactory) -> list[Item]:
    """Mark the lines matching the rule's `pin_patterns` as `Pinned`."""
    return _pinned(rule, items, matcher)[0]


def _pinned(
    rule: Rule, items: Sequence[Item], matcher: MatcherFactory, lines: Lines | None = None, plain: bool = False
) -> tuple[list[Item], list[int]]:
    """`pin`, and the positions it pinned. `plain`: the items are all lines, known
    without looking. `lines`, when its lines are the items, lends them its text."""
    if not rule.filters.pin_patterns:
        return list(items), []
    texts = list(items) if plain else [item for item in items if isinstance(item, str)]
    positions = (
        range(len(items)) if len(texts) == len(items) else [i for i, item in enumerate(items) if isinstance(item, str)]
    )
    view = lines if lines is not None and texts == lines.lines else Lines(texts)  # type: ignore[arg-type]  # `plain`
    hits = matcher(rule.filters.pin_patterns).matching(view)
    if hits and rule.filters.keep_under:  # and what a pinned line is about: the lines right under it
        hits |= _under(hits, matcher(rule.filters.keep_under).matching(view))
    pinned = list(items)
    at = sorted(positions[hit] for hit in hits)
    for k in at:
        pinned[k] = Pinned(str(pinned[k]))
    return pinned, at


def _remarked(items: list[Item], marked: list[int]) -> list[Item]:
    """`items` with a new marker in place of each of theirs, at the positions `marked`
    (markers are told apart by identity, and a formatter may change one)."""
    remarked = list(items)
    for k in marked:
        marker = remarked[k]
        assert isinstance(marker, Omission)
        remarked[k] = Omission(marker.count, marker.detail)
    return remarked


def _under(kept: set[int], hits: set[int]) -> set[int]:
    """Of the lines at `hits`, those right under a line at `kept` or under each other."""
    found: set[int] = set()
    for index in sorted(hits):
        if index - 1 in kept or index - 1 in found:
            found.add(index)
    return found


#: Lines trimmed in a row that are marked where they were (`apply_rule`).
TRIMMED_BLOCK = 20


def _runs_before(lines: list[str], dropped: set[int]) -> dict[int, list[str]]:
    """Each run of the `dropped` indexes of `lines`, as {the index the line after it
    has once they are gone: its lines}."""
    runs: dict[int, list[str]] = {}
    for gone, index in enumerate(sorted(dropped)):
        runs.setdefault(index - gone, []).append(lines[index])  # keyed by the lines kept before it
    return runs


def _marked(lines: list[str], runs: dict[int, list[str]]) -> list[Item]:
    """`lines` with a marker where each run of lines left out was (`_runs_before`),
    which keeps the run's first and last line aside (`Trimmed`)."""
    items: list[Item] = []
    for index, line in enumerate(lines):
        if index in runs:
            items.append(Trimmed(runs[index]))
        items.append(line)
    if len(lines) in runs:
        items.append(Trimmed(runs[len(lines)]))
    return items


def _without(lines: list[str], dropped: set[int]) -> list[str]:
    """`lines` but those at the indexes `dropped` (in C but for one store an index)."""
    kept = [True] * len(lines)
    for index in dropped:
        kept[index] = False
    return list(compress(lines, kept))


def pretty_json(text: str) -> str:
    """One JSON document re-indented (keys in their order); any other text as it is."""
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return text
    import json

    try:
        return json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text
