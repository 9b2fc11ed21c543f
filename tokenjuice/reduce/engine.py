"""Reduce one execution: decide what survives of its output.

The guarantees, in the order the code enforces them:
- `raw` gives back the exact text; exact file reads and unsafe inventory pipelines
  stay whole (see `shell/command.py`).
- Tiny outputs pass through; a rule's result is used only when it is meaningfully
  shorter than the ANSI-stripped input, otherwise the input is used. `choose` is
  the one place that makes that decision.
- Nothing is cut silently: each cut leaves a `... N lines omitted ...` marker and
  the reduction counts what was hidden, for the renderer's trailer.
- Nothing is invented: the body holds input lines (some clipped, with a marker),
  and the only other lines are `exit N`, a counts line and the trailer.
- Failures say `exit N` first and get a larger budget.

How the result reads is `render.py`'s business; this module only decides.
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import accumulate, repeat
from operator import add, is_

from ..fast.record import record, replace
from ..model import Execution, Reduction
from ..rules.classify import IMPLICIT_FALLBACK_RULE, Classification, classify, classify_tool, sniff, sniffable
from ..rules.index import Catalogue
from ..rules.loader import FALLBACK_ID, PROJECT
from ..rules.model import Rule
from ..shell.command import CommandInfo, analyze
from ..text import clip_line, pluralize, split_lines, strip_ansi, trim_empty_edges
from .lines import (
    CLIP,
    Encoded,
    Item,
    Omission,
    Pinned,
    Trimmed,
    Whole,
    beyond,
    head_tail,
    keep_only,
    measured,
    shown_lines,
    squeezable,
)
from .lines import size as _size
from .reencode import LOSSLESS_CHARS, said_once, squeezed, worth_it
from .render import TRAILER_RESERVE, text_of

# The rule machinery (pipeline, units, structured cutting, pattern budgets) is
# imported where an output is big enough to need it: most commands print a few
# lines, and `wrap` pays every import on every command.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from ..rules.patterns import Budget
    from .budget import Budgets
    from .pipeline import RuleOutcome
    from .units import Unit

TINY_CHARS = 240
#: The passthrough reason of an output shown as it is because no reduction of it was
#: shorter (model.WHOLE_BY_POLICY: it says nothing about how well a rule compacts).
NOT_LONGER = "not-longer"
#: The passthrough reason of an output shown without its noise and without anything
#: added, where a header and a trailer would have made it longer than it was.
NOISE_ONLY = "noise-only"
#: Exact reads (`cat file`, inventory listings) are shown byte for byte up to this
#: size; a bigger one is cut to EXACT_BUDGET like any output (whole in the store).
EXACT_LIMIT = 32 * 1024
EXACT_BUDGET = 16 * 1024
LINE_LIMIT = 400
_MARKER_COST = 24  # room for the omission marker a dropped run may leave
_ALWAYS_SHOW_FACTS = ("search",)
#: An output shown whole with more lines than this gets its counts line on top.
COUNTS_LINES = 12


@record
class Options:
    """How to reduce; the defaults are `tokenjuice wrap` without flags."""

    classifier: str | None = None  # a rule id to use instead of classifying
    max_inline_chars: int | None = None  # the size budget, instead of the rule's
    raw: bool = False
    no_omit: bool = False
    # Facts of a tiny output cost a rule run; `wrap` in text mode never shows them.
    facts: bool = True
    # How the trailer tells the reader to get the full output. The renderer prints it,
    # but the choice of text depends on it too: a result is never longer than its input.
    hint: str | None = None
    redact: bool = True  # replace secrets in what is shown
    budgets: Budgets | None = None  # the information budget settings give (None: the defaults)


def reduce(execution: Execution, catalogue: Catalogue, options: Options | None = None) -> Reduction:
    """Classify `execution`'s command and decide what of its output survives."""
    options = options or Options()
    info = analyze(execution.command, execution.argv)
    raw_text = execution.output
    keep_raw = "raw" if options.raw else (info.keep_raw if not options.classifier else None)
    redacted = 0  # characters the key blocks had beyond their markers: the output's size counts them
    if options.redact and keep_raw != "raw" and "PRIVATE KEY" in raw_text:
        from ..state.redact import redact_keys

        keyless = redact_keys(raw_text)  # before any cut: no cut keeps a key's lines without its BEGIN
        redacted, raw_text = len(raw_text) - len(keyless), keyless
    stripped = strip_ansi(raw_text)
    classification, by_tool = _classified(info, catalogue, execution.tool_name or "exec", stripped, options)
    narrowed = None  # a project's rule for a host tool's result: it may only make it compact less
    if execution.tool_name != "exec" and not info.candidates:
        chosen = _body(catalogue, classification)
        if chosen.layer == PROJECT:
            baseline = catalogue.without_project()
            narrowed, classification, by_tool = _no_wider(
                chosen, classification, baseline, execution, info, stripped, options
            )
    start = _Start(execution, info, classification, len(stripped) + redacted, options)
    if keep_raw == "raw" or (keep_raw and len(raw_text) <= EXACT_LIMIT):
        return start.exact(raw_text, keep_raw)
    if keep_raw:  # an exact read too big to show: its lines, head and tail, nothing filtered
        whole_lines = trim_empty_edges(split_lines(stripped))
        header = (f"exit {format_number(execution.exit_code)}",) if execution.failed else ()
        rule = catalogue.body(FALLBACK_ID) or IMPLICIT_FALLBACK_RULE
        between = _between_elements(start, header, stripped, len(whole_lines), keep_raw + "-cut", rule)
        if between is not None:
            return between
        known = _read_by_rule(start, catalogue, header, raw_text, stripped, whole_lines, keep_raw + "-cut")
        if known is not None:
            return known
        from . import records

        if records.looks_like_a_log(whole_lines):  # what went wrong first, the chatter last, spread evenly
            from .units import fit

            room = max(200, EXACT_BUDGET - _size(header) - TRAILER_RESERVE)
            items = tuple(fit(records.parse(whole_lines), room))
            return start.made(rule, header, items, len(whole_lines), None, ("records",), keep_raw + "-cut", None)
        from .guard import pin_trouble

        # head and tail, and from the middle its warnings, errors and tracebacks (pinned)
        return start.clamped(header, pin_trouble(whole_lines), EXACT_BUDGET, keep_raw + "-cut", None, rule)

    header = (f"exit {format_number(execution.exit_code)}",) if execution.failed else ()
    lines = split_lines(stripped)
    whole = trim_empty_edges(lines)
    tiny = not options.no_omit and not beyond(whole, TINY_CHARS)
    if tiny and not options.facts:
        return start.never_longer(start.whole(header, whole, None, "tiny"), stripped)

    from ..rules.patterns import Budget, PatternTimeout
    from .pipeline import apply_rule

    rule = narrowed or _body(catalogue, classification)
    patterns = Budget()
    budget = information_budget(rule, classification, info, execution.failed, options)
    try:
        outcome = apply_rule(
            rule,
            raw_text,
            stripped,
            execution.exit_code,
            stripped_lines=lines,
            no_omit=options.no_omit,
            budget=patterns,
            structure=info.multiple or rule.id == FALLBACK_ID or (by_tool and rule.family == "generic"),
            argv=info.normalized_argv,
        )
    except PatternTimeout:
        note = f"rule {rule.id} ({rule.path or rule.layer}) timed out; output left unreduced"
        return start.clamped(header, list(whole), budget, "pattern-timeout", None, rule, note)

    if options.no_omit:
        body = outcome.items
        return start.made(
            rule,
            header + _counts(outcome, classification, execution.exit_code),
            body,
            outcome.total_lines,
            outcome.facts,
            ("no-omit",),
            None,
            None,
        )
    if tiny:
        return start.never_longer(start.whole(header, whole, outcome.facts, "tiny", rule), stripped)
    budget = _regions_budget(budget, outcome, catalogue, info, execution.failed, options)
    cut = _Cut(start, rule, outcome, header, whole, patterns)
    made = cut.within(budget)
    guarded = execution.failed or rule.summarize.guard  # documentation's prose is no failure's
    if made.cut and guarded and not options.max_inline_chars:  # else whole, or the size the caller asked for
        made = _guarded(cut, made, budget, lines)
    return start.never_longer(made, stripped)


def _classified(
    info: CommandInfo, catalogue: Catalogue, tool_name: str, stripped: str, options: Options
) -> tuple[Classification, bool]:
    """The rule for an output, and whether it was told by a host tool's name: a host
    tool that runs no shell command (an MCP tool, Claude Code's Grep) is told by its
    name (`match.tool`), unless a rule for its name alone (`tool_names`) took it; a
    command that names no tool of its own by its output (`sniff`)."""
    classification = classify(info, catalogue.entries, tool_name, options.classifier)
    by_tool = (
        tool_name != "exec" and not info.candidates and classification.rule.id == FALLBACK_ID and not options.classifier
    )
    if by_tool:
        classification = classify_tool(tool_name, catalogue.entries, stripped) or classification
    elif not options.classifier and sniffable(classification):
        classification = sniff(classification, catalogue.entries, stripped) or classification
    return classification, by_tool


def _body(catalogue: Catalogue, classification: Classification) -> Rule:
    return catalogue.body(classification.rule.id) or catalogue.body(FALLBACK_ID) or IMPLICIT_FALLBACK_RULE


def _no_wider(
    project: Rule,
    classification: Classification,
    baseline: Catalogue,
    execution: Execution,
    info: CommandInfo,
    stripped: str,
    options: Options,
) -> tuple[Rule, Classification, bool]:
    """A project's rule for a host tool's result may only make it compact less: the
    result is reduced by the rule the user's and built-in layers choose (`baseline`),
    with the higher of the two budgets, heads and tails, and the project's pinned lines
    added to its own; nothing else of the project's rule applies (its filters could
    drop what the agent asked for). The rule keeps the project's name and file, so the
    trailer says a project's rule shaped it. Returns that rule, the baseline's
    classification, and whether it was told by the tool's name."""
    chosen, by_tool = _classified(info, baseline, execution.tool_name, stripped, options)
    base = _body(baseline, chosen)

    def room(failed: bool) -> int:
        mine = information_budget(project, classification, info, failed, options)
        return max(mine, information_budget(base, chosen, info, failed, options))

    def wider(table: Any, other: Any, failed: bool) -> Any:
        head, tail = max(table.head, other.head), max(table.tail, other.tail)
        return replace(table, head=head, tail=tail, max_chars=room(failed))

    own = base.filters.pin_patterns
    pins = own + tuple(pattern for pattern in project.filters.pin_patterns if pattern not in own)
    narrowed = replace(
        base,
        summarize=wider(base.summarize, project.summarize, False),
        failure=wider(base.failure, project.failure, True),
        filters=replace(base.filters, pin_patterns=pins),
        id=project.id,
        layer=project.layer,
        path=project.path,
    )
    return narrowed, chosen, by_tool


def _between_elements(
    start: _Start, header: tuple[str, ...], text: str, total_lines: int, reason: str, rule: Rule
) -> Reduction | None:
    """An exact read of a JSON, YAML, TOML or CSV/TSV file too big to show, cut between
    its elements, each kept one byte for byte (reduce/structured.py); None for any other."""
    from .structured import exact_cut

    words = [word for word in start.info.normalized_argv[1:] if not word.startswith("-")]
    used = sum(len(line) + 1 for line in header) + TRAILER_RESERVE
    cut = exact_cut(text, words[-1] if words else None, EXACT_BUDGET - used, EXACT_LIMIT - used)
    if cut is None:
        return None
    body, split, kind = cut
    made = start.made(rule, header, tuple(body), total_lines, None, (kind,), reason, None)
    return replace(made, clipped_lines=made.clipped_lines + split) if split else made


def _read_by_rule(
    start: _Start,
    catalogue: Catalogue,
    header: tuple[str, ...],
    raw_text: str,
    stripped: str,
    whole_lines: list[str],
    reason: str,
) -> Reduction | None:
    """An exact read too big to show whose content a rule recognises by its `output`
    patterns (a saved `terraform apply` or pytest run), cut to EXACT_BUDGET with that
    rule's knowledge: its noise goes first, then its trim patterns' lines (and those
    its keep patterns do not keep), then the rest from the middle out, its pinned lines
    last; a rule with units has them cut as it cuts them. The rule's own head and tail
    do not apply: the agent asked for the file, the read's budget is what is cut to.
    None when no rule recognises it, or the rule would replace it with a message."""
    found = start.classification  # a command that names no tool is told by its output (`sniff`)
    rule = catalogue.body(found.rule.id) if found.candidate and found.candidate.source == "output" else None
    if rule is None or rule.formatter or rule.transforms.pretty_print_json:
        return None
    from ..rules.patterns import Budget, PatternTimeout
    from .pipeline import apply_rule

    try:
        outcome = apply_rule(
            rule, raw_text, stripped, 0, stripped_lines=split_lines(stripped), budget=Budget(), uncut=True
        )
    except PatternTimeout:
        return None
    if outcome.summary is not None:
        return None
    counts = _counts(outcome, found, start.execution.exit_code)
    room = EXACT_BUDGET - _size(header + counts) - TRAILER_RESERVE
    total = len(whole_lines)
    if not beyond(outcome.denoised, room):  # whole but for its noise
        return start.made(rule, header, outcome.denoised, total, outcome.facts, ("filter",), reason, None)
    if outcome.units:
        from .units import fit

        items = tuple(fit(list(outcome.units), max(200, room)))
        return start.made(rule, header + counts, items, total, outcome.facts, outcome.kinds, reason, None)
    return start.clamped(
        header + counts,
        outcome.items,
        EXACT_BUDGET,
        reason,
        outcome.facts,
        rule,
        total_lines=total,
        kinds=outcome.kinds,
    )


class _Cut:
    """What every try at a budget shares: the execution, its rule and what the rule
    made of the output, and what is measured of it once for every budget tried (the
    size of the whole, its longest line). `within(budget)` makes the reduction for
    one budget."""

    def __init__(
        self,
        start: _Start,
        rule: Rule,
        outcome: RuleOutcome,
        header: tuple[str, ...],
        whole: list[str],
        patterns: Budget,
    ) -> None:
        self.start, self.rule, self.outcome = start, rule, outcome
        self.header, self.whole, self.patterns = header, whole, patterns
        self._measured: dict[int, tuple[int, int]] = {}
        self._read: dict[tuple[int, bool], tuple[int, int]] = {}
        self._longest: int | None = None
        self._relaid: tuple[str, ...] | None = None
        #: What `squeezed` made of each line it shortened, for every budget tried.
        self.squeezes: dict[tuple[type, str], Item | None] = {}
        #: The last rule's result `choose` made: its clamp budget, whether it is the
        #: rule's lines, the items clamped, the reduction and its length.
        self.chosen: tuple[int, bool, tuple[Item, ...], Reduction, int] | None = None

    def within(self, budget: int, widened: bool = False) -> Reduction:
        """Whole but for noise if it fits, structured output cut between values,
        otherwise the rule's result cut between units. A budget the guard widened
        keeps the rule's own filtering (keep and trim patterns): the wider room goes
        to what the rule keeps."""
        fits = None if widened else self.fits(budget)
        if fits is not None:
            return fits
        shaped = _structured(self.start, self.rule, self.outcome, self.header, self.whole, budget, self.longest)
        if shaped is not None:
            return replace(shaped, budget=budget)
        made = choose(self, budget)
        return replace(made, budget=budget, regions=self.outcome.regions)

    def fits(self, budget: int) -> Reduction | None:
        """The output whole but for its noise, if that fits `budget`."""
        fits = _fits(self, budget)
        return None if fits is None else replace(fits, budget=budget, regions=self.outcome.regions)

    def relaid(self) -> tuple[str, ...] | None:
        """The output, when it is one pretty-printed JSON document the engine shapes,
        laid out with its small containers on one line (`structured.relaid`), where that
        saves enough to be worth it; None otherwise. Made once for every budget tried."""
        if self._relaid is None:
            self._relaid = ()
            whole, outcome = self.whole, self.outcome
            pretty = len(whole) > 1 and whole[0].lstrip()[:1] in "{[" and outcome.denoised == tuple(whole)
            if pretty and _shapes_structured(self.rule, outcome):
                from .structured import relaid

                text = "\n".join(whole)
                laid = relaid(text)
                saved = len(text) - _size(laid) if laid is not None else 0
                if laid is not None and worth_it(saved, len(text)):
                    self._relaid = tuple(laid)
        return self._relaid or None

    def longest(self) -> int:
        """The length of the longest line of the whole output."""
        if self._longest is None:
            self._longest = max(map(len, self.whole), default=0)
        return self._longest

    def beyond(self, items: Sequence[Item], room: int, solid: bool = False) -> bool:
        """`beyond` for the output's or the outcome's lines, read once for every budget tried."""
        return measured(items, room, solid, self._read) > room

    def size(self, items: Sequence[Item], limit: int) -> int:
        """`measured` for the output's or the outcome's lines, read once for every budget tried."""
        return measured(items, limit, False, self._read)

    def measure(self, items: tuple[Item, ...]) -> tuple[int, int]:
        """The characters `items` (the outcome's denoised or lossless lines) take shown
        and the characters among them squeezing may shorten, counted once for every
        budget tried."""
        key = id(items)
        if key not in self._measured:
            self._measured[key] = (_size(items), squeezable(items))
        return self._measured[key]


def _unredacted(reduction: Reduction) -> str:
    """The text a reduction shows, not redacted: what it is weighed by (its length
    against the input, the anchors it carries). Redaction, a scan of the whole text,
    is left to the one text that is shown."""
    return text_of(replace(reduction, redact=False))


def _length(reduction: Reduction) -> int:
    return len(_unredacted(reduction))


def _guarded(cut: _Cut, made: Reduction, budget: int, lines: list[str]) -> Reduction:
    """The preservation guard (reduce/guard.py): widen the budget while the shown text
    carries too few of the output's anchors, up to a hard cap."""
    from . import guard
    from .reencode import decoded
    from .units import Unit

    start, outcome = cut.start, cut.outcome
    # Anchors of the content: what the rule names as noise is no anchor, nor what lies
    # in units that matter less than others (a vendored library's findings, a linter's
    # conventions beside its errors): those go first by design.
    denoised = outcome.denoised  # its markers are passed over
    content = _most_important(outcome.units) or (denoised if any(isinstance(i, str) for i in denoised) else lines)
    failed = start.execution.failed
    found = guard.anchors(content, guard.watched(start.classification.rule.family, failed), shaped=not failed)
    if not found:
        return made
    weighed: dict[str, float] = {}  # the share each text carries: a wider budget may make the same one

    def carried(reduction: Reduction) -> float:
        text = _unredacted(reduction)
        if text not in weighed:
            weighed[text] = guard.share(found, decoded(text))  # its lossless forms spelled out
        return weighed[text]

    best, best_kept = made, carried(made)
    steps = best_steps = 0
    rule_pinned: list[Item] | None = None

    def candidates(room: int) -> list[Reduction]:
        """What a widened room shows: the rule's own cut first; the whole only if it
        carries more; or, too big whole and with no units to weigh, a cut around the
        lines that carry anchors and those the rule pins (a failure's reason the anchors miss)."""
        nonlocal rule_pinned
        made_at = [cut.within(room, widened=True)]
        whole_enough = cut.fits(room)  # only noise removed
        if whole_enough is not None:
            made_at.append(whole_enough)
        elif not outcome.units:
            if rule_pinned is None:
                rule_pinned = _rule_pinned(cut)
            pinned = guard.pin_anchors(rule_pinned, found)
            header = cut.header + _counts(outcome, start.classification, start.execution.exit_code)
            around = start.clamped(header, pinned, room, None, outcome.facts, cut.rule, kinds=("guard",))
            made_at.append(replace(around, budget=room))
        return made_at

    widened = budget
    while best_kept < guard.THRESHOLD and widened < budget * guard.HARD_CAP_FACTOR:
        widened = min(widened * guard.WIDEN, budget * guard.HARD_CAP_FACTOR)
        steps += 1
        for candidate in candidates(widened):
            share = carried(candidate)
            if share > best_kept:
                best, best_kept, best_steps = candidate, share, steps
    if best_steps and not any(isinstance(part, Unit) and part.gathered for part in outcome.units):
        # A step doubles the room: the anchors may fit in much less. The room between
        # the step that carried them and the one before is tried, the gap halved NARROWING times,
        # and the least that carries as many of them is taken (not where they are only
        # the first unit of each label, a linter's code: a smaller room would drop the
        # others, which the guard does not watch).
        low = budget * guard.WIDEN ** (best_steps - 1)
        high = min(budget * guard.WIDEN**best_steps, budget * guard.HARD_CAP_FACTOR)
        for _ in range(guard.NARROWING):
            between = round((low + high) / 2)
            fitting = [c for c in candidates(between) if _length(c) < _length(best) and carried(c) >= best_kept]
            if fitting:
                best, high = min(fitting, key=_length), between
            else:
                low = between
    return replace(best, guard=(len(found), round(best_kept * len(found)), best_steps))


def _rule_pinned(cut: _Cut) -> list[Item]:
    """The rule's denoised lines with its pin patterns' lines pinned (as `choose` pins
    them for its fallback), or unpinned if the patterns ran out of time."""
    from ..rules.patterns import PatternTimeout
    from .pipeline import matcher_factory, pin

    denoised = list(cut.outcome.denoised)
    try:
        return pin(cut.rule, denoised, matcher_factory(cut.rule, cut.patterns))
    except PatternTimeout:
        return denoised


def _most_important(parsed: Sequence[Item | Unit]) -> list[str]:
    """The lines between units and those of the units that matter most, when the units
    do not all matter alike or are counted by label; [] otherwise. Of units counted by
    label (a linter's findings by code), the first of each label: a cut counts the
    others with their code and first places, by design (a type checker's 400 errors
    of 30 codes show each code, not each message)."""
    from .units import Unit

    units = [part for part in parsed if isinstance(part, Unit)]
    priorities = {unit.priority for unit in units}
    if len(priorities) < 2 and not any(unit.gathered for unit in units):
        return []
    top = max(priorities)
    labels: set[str] = set()
    lines: list[str] = []
    for part in parsed:
        if isinstance(part, Unit):
            if part.priority == top and part.gathered not in labels:
                lines.extend(line for line in part.lines if isinstance(line, str))
            if part.priority == top and part.gathered:
                labels.add(part.gathered)
        elif isinstance(part, str):
            lines.append(part)
    return lines


def information_budget(
    rule: Rule, classification: Classification, info: CommandInfo, failed: bool, options: Options
) -> int:
    """How many characters the shown text may take: what the caller asked for, else
    what the rule declares, else the information budget for its family and outcome
    (reduce/budget.py; a success gets a failure's when the rule says `budget =
    "failure"`) times the rule's `budget_scale`; output the agent bounded
    itself gets at least the bounded cap."""
    if options.max_inline_chars:
        return options.max_inline_chars
    return _rule_budget(rule, classification.rule.family, info, failed, options)


def _rule_budget(rule: Rule, family: str, info: CommandInfo, failed: bool, options: Options) -> int:
    """`information_budget` of `rule` for an output of `family`, whatever the caller asked for."""
    from .budget import BOUNDED_MAX_CHARS, Budgets

    table = rule.failure if failed and rule.failure.preserve_on_failure else rule.summarize
    budgets = options.budgets or Budgets()
    content = not failed and rule.summarize.budget != "success"
    budget = table.max_chars or budgets.of(family, failed, table.budget_scale, content)
    chosen = not failed and rule.summarize.budget == "bounded"  # rows the agent picked: as if it bounded them
    return max(budget, BOUNDED_MAX_CHARS) if info.bounded or chosen else budget


#: The rule whose budget a region of a compound or unknown command's output takes, by
#: the region's kind (reduce/units.py `regions`): the rule that output would meet alone.
REGION_RULES = {
    "diff": "git/diff",
    "commits": "git/log",
    "status": "git/status",
    "tests": "tests/pytest",
    "matches": "search/grep",
    "paths": "filesystem/find",
}


def _regions_budget(
    budget: int, outcome: RuleOutcome, catalogue: Catalogue, info: CommandInfo, failed: bool, options: Options
) -> int:
    """The budget of an output made of regions recognised by their content (`grep -c x
    f; git diff`): the larger of the rule's and, when regions of one kind make at least
    half of its lines, the budget of the rule that kind's output would meet alone (a
    diff's twice the budget). What the caller asked for stays as it is."""
    if options.max_inline_chars or not outcome.regions:
        return budget
    lines: dict[str, int] = {}
    for kind, count in outcome.regions:
        lines[kind] = lines.get(kind, 0) + count
    for kind, count in lines.items():
        dominant = kind in REGION_RULES and count * 2 >= outcome.total_lines
        owner = catalogue.body(REGION_RULES[kind]) if dominant else None
        if owner is not None:
            budget = max(budget, _rule_budget(owner, owner.family, info, failed, options))
    return budget


def _shapes_structured(rule: Rule, outcome: RuleOutcome) -> bool:
    """Is a structured output's shape the engine's to give? Not for rules that shape
    it their own way: a formatter, keep patterns that pick the fields that matter,
    units the output was split into (a rule made for tables still gets JSON cut
    between values, `pip list --format=json`)."""
    from .units import Unit

    return not (
        rule.formatter
        or rule.transforms.pretty_print_json
        or any(isinstance(part, Unit) for part in outcome.units)
        or rule.filters.keep_patterns
        or outcome.summary is not None
    )


def _structured(
    start: _Start,
    rule: Rule,
    outcome: RuleOutcome,
    header: tuple[str, ...],
    whole: list[str],
    budget: int,
    longest: Callable[[], int],
) -> Reduction | None:
    """JSON, JSON lines and CSV/TSV too big to show: cut between values and rows,
    never inside one (reduce/structured.py). None for any other output, and for
    rules that shape structured output their own way (`_shapes_structured`)."""
    if not _shapes_structured(rule, outcome):
        return None
    from . import shape

    room = max(200, budget - sum(len(h) + 1 for h in header) - TRAILER_RESERVE)
    value = shape.document("\n".join(whole)) if whole and whole[0].lstrip()[:1] in "{[" else None
    if value is not None:
        from . import structured

        lines = structured.fit_document(value, room)
        total = len(structured.indented(value))
        return start.made(rule, header, tuple(lines), total, outcome.facts, ("json",), None, None)
    json_lines = shape.json_lines(whole)
    delimiter = None if json_lines else shape.delimited(whole)
    if delimiter is not None or json_lines:
        from . import structured

        rows = structured.fit_rows(whole, room, header=delimiter is not None)
        return start.made(rule, header, tuple(rows), len(whole), outcome.facts, ("rows",), None, None)
    found = shape.long_line(whole, room, longest)
    if found is None:
        return None
    from . import structured

    long_line = structured.fit_long_line(whole, room, longest, found)
    if long_line is not None:
        items, total = long_line
        return start.made(rule, header, tuple(items), total, outcome.facts, ("elements",), None, None)
    return None


def _fits(cut: _Cut, budget: int) -> Reduction | None:
    """An output that fits the budget is shown whole but for the noise the rule
    names (skip patterns, repeated lines): never cut in its middle, never replaced
    by a summary. None when it does not fit."""
    start, rule, outcome, header, whole = cut.start, cut.rule, cut.outcome, cut.header, cut.whole
    denoised = outcome.denoised
    if outcome.summary is not None and not any(isinstance(i, str) and i.strip() for i in denoised):
        return None  # nothing but noise: the rule's own summary says it best
    # A long output shown whole still gets its counts on top (`33 warnings`): a reader
    # should not have to count them.
    counts = _counts(outcome, start.classification, start.execution.exit_code) if len(denoised) > COUNTS_LINES else ()
    header = header + counts
    room = budget - TRAILER_RESERVE
    # Lossless forms, whatever the size, where they save enough to be worth reading:
    # units re-encoded (grep's path once per file, brace lists), then padded columns
    # (`git diff --stat`, tables) read the same with their runs of spaces shortened.
    kinds: tuple[str, ...] = ()
    if outcome.lossless:
        denoised, kinds = outcome.lossless, ("lossless",)
    if cut.beyond(denoised, budget - _size(header), solid=True):
        return None  # not even without every space would it fit
    if not kinds and rule.transforms.squeeze_padding and (relaid := cut.relaid()) is not None:
        denoised, kinds = relaid, ("lossless",)  # pretty JSON, its small containers on one line each
    size, spaces = cut.measure(denoised)
    shown = _size(header) + size
    if rule.transforms.squeeze_padding and (shown > room or spaces >= LOSSLESS_CHARS):
        shorter = squeezed(denoised, cut.squeezes)
        saved = size - _size(shorter)
        if shown > room or worth_it(saved, size):
            denoised, kinds, shown = shorter, (*kinds, "squeeze"), shown - saved
    if shown > budget:
        return None
    if kinds:
        made = start.made(rule, header, denoised, len(whole), outcome.facts, kinds, None, None)
    elif len(denoised) == len(whole) and all(a is b or a == b for a, b in zip(denoised, whole, strict=True)):
        made = start.whole(header, whole, outcome.facts, "fits", rule)
    else:
        # Noise goes whatever the size; where the trailer would cost more than the noise
        # saved, `never_longer` shows it without one.
        made = start.made(rule, header, denoised, len(whole), outcome.facts, ("filter",), None, None)
    # The room kept for a trailer is kept for one that is shown: the output whole, or
    # nearly, fits the budget itself, trailer and all.
    return made if shown <= room or _length(made) <= budget else None


def choose(cut: _Cut, budget: int) -> Reduction:
    """The one fallback decision: the rule's result, or the whole (ANSI-stripped)
    output cut to the budget. The rule's result must be meaningfully shorter — or the
    input too big to show whole anyway, so the rule's filtering can only help — and
    never longer than the input as printed."""
    from .units import fit

    start, rule, outcome, header, whole = cut.start, cut.rule, cut.outcome, cut.header, cut.whole

    counts = _counts(outcome, start.classification, start.execution.exit_code)
    compact_items: tuple[Item, ...] = (outcome.summary,) if outcome.summary is not None else outcome.items
    units_fitted = False
    if outcome.before_cut and outcome.summary is None and rule.summarize.fill:
        # The rule's head and tail lines are the least it shows, not the most: the
        # budget goes to the lines between them, its pinned lines first (`clamp`), their
        # padding shortened first: a lossless form before any cut.
        compact_items = _within_reach(outcome.before_cut, budget)
        if rule.transforms.squeeze_padding:
            compact_items = squeezed(compact_items, cut.squeezes)
    elif outcome.units and outcome.summary is None:
        # Cut between units: compress them, then drop whole ones, to fit the room left.
        room = max(200, budget - sum(len(h) + 1 for h in header + counts) - TRAILER_RESERVE)
        fitted = tuple(fit(list(outcome.units), room))
        if rule.transforms.said_once:  # what every unit repeats (a log's author), said once
            fitted = tuple(said_once(fitted, rule.transforms.said_once, outcome.author))
        if beyond(compact_items, _size(fitted)):
            # What was kept, its padding and drawn rules shortened: they say nothing.
            squeezing = rule.transforms.squeeze_padding
            compact_items = squeezed(fitted, cut.squeezes) if squeezing else fitted
        units_fitted = True
    elif outcome.summary is None and rule.transforms.squeeze_padding:
        # What the rule's filters, trim patterns, head and tail kept, its padding and
        # drawn rules shortened: a lossless form, as on the other paths.
        padded = squeezed(compact_items, cut.squeezes)
        if any(a is not b for a, b in zip(padded, compact_items, strict=True)):
            compact_items = padded
    compact_chars = _size(header) + _size(counts) + _size(compact_items)
    if compact_chars + TRAILER_RESERVE < budget and any(isinstance(i, Trimmed) for i in compact_items):
        room = budget - compact_chars - TRAILER_RESERVE
        compact_items = _blocks_opened(compact_items, room, squeezing=rule.transforms.squeeze_padding)
        compact_chars = _size(header) + _size(counts) + _size(compact_items)
    # What units.fit kept is already cut to the room, but for the names it keeps past
    # it on purpose (every file that matched, every directory): the clamp leaves those.
    clamp_budget = max(budget, compact_chars + TRAILER_RESERVE) if units_fitted else budget
    # The same items clamped to the same budget make the same text (units without a
    # cut of their own fit every room alike): made once for every budget tried.
    key = (clamp_budget, compact_items is outcome.items, compact_items)
    last = cut.chosen
    if last is not None and last[:2] == key[:2] and _same(last[2], compact_items):
        made, length = last[3], last[4]
    else:
        items = clamp(header + counts, compact_items, clamp_budget)
        clamped = items is not compact_items
        units_cut = compact_items is not outcome.items and any(isinstance(i, Omission) for i in compact_items)
        if counts and not (
            clamped
            or units_cut
            or _cut(outcome)
            or _counts_always_shown(outcome, start.classification, start.execution.exit_code)
        ):
            counts = ()  # nothing was cut: the lines themselves show what the counts would
        kinds = outcome.kinds + (("size-clamp",) if clamped else ())
        made = start.made(rule, header + counts, items, outcome.total_lines, outcome.facts, kinds, None, outcome.note)
        length = _length(made)
        cut.chosen = (*key, made, length)
    # The output's size, read only as far as it takes to tell: past the budget, the
    # made text and twice the rule's result, every test below holds.
    whole_chars = cut.size(whole, max(budget, length, 2 * compact_chars + 64))
    shorter = compact_chars < whole_chars * 0.9 and whole_chars - compact_chars >= 64
    if (shorter or whole_chars > budget) and length < whole_chars:
        return made
    pinned = _rule_pinned(cut)
    kinds = ("filter",) if len(outcome.denoised) != len(whole) else ()
    return start.clamped(
        header, pinned, budget, "not-smaller", outcome.facts, rule, total_lines=len(whole), kinds=kinds
    )


def _blocks_opened(items: tuple[Item, ...], room: int, squeezing: bool) -> tuple[Item, ...]:
    """`items` with the blocks of lines a rule trimmed shown by their first and last
    line around their marker (their padding shortened as the rest's, when `squeezing`),
    in order, while `room` characters hold them."""
    opened: list[Item] = []
    for item in items:
        if isinstance(item, Trimmed):
            ends = squeezed(item.opened()) if squeezing else item.opened()
            cost = _size(ends) - _size([item])
            if cost <= room:
                opened.extend(ends)
                room -= cost
                continue
        opened.append(item)
    return tuple(opened)


def _within_reach(items: tuple[Item, ...], budget: int) -> tuple[Item, ...]:
    """Of `items`, those `clamp` can show within `budget`: the lines from either end
    until they hold twice the budget (their padding squeezed, lines keep half their
    room at the least that matters), and the first and last of the pinned lines, as
    many as the budget holds lines of 20 characters; the rest one run each side.
    Summed in C: a flood is 100,000s of lines."""
    reach = 2 * budget

    def lines_to_reach(window: tuple[Item, ...]) -> int:
        return bisect_left(list(accumulate(map(add, map(len, window), repeat(1)))), reach) + 1

    head, tail = lines_to_reach(items[:reach]), lines_to_reach(items[: -reach - 1 : -1])
    return tuple(head_tail(list(items), head, tail, budget // 20))


class _Start:
    """What every reduction of one execution shares, and the ways to finish one."""

    def __init__(
        self, execution: Execution, info: CommandInfo, classification: Classification, raw_chars: int, options: Options
    ) -> None:
        self.execution = execution
        self.info = info
        self.classification = classification
        self.raw_chars = raw_chars
        self.options = options
        self.capture_note = capture_note(execution)

    def _reduction(self, rule: Rule | None, **fields: Any) -> Reduction:
        return Reduction(
            self.classification,
            self.info,
            rule,
            self.raw_chars,
            hint=self.options.hint,
            redact=self.options.redact,
            capture_note=self.capture_note,
            **fields,
        )

    def exact(self, text: str, reason: str) -> Reduction:
        return self._reduction(None, passthrough=reason, exact=text)

    def never_longer(self, made: Reduction, stripped: str) -> Reduction:
        """`made`, unless its text (header, markers and trailer included) is no shorter
        than the output itself. Then, where the rule dropped only noise (no content
        cut, no line clipped), the output without its noise and without anything
        added: no header, no trailer, nothing stored. Otherwise the output as the tool
        printed it (colours removed), nothing added, nothing stored, nothing counted
        as saved. What the capture could not keep is said either way; a tiny output
        keeps its `exit N` (the status is most of what a few words of output say), and
        a command that printed nothing is still shown as `exit N`."""
        if made.capture_note or made.passthrough == "tiny" or not stripped or stripped.isspace():
            return made  # (`isspace`, not a stripped copy of a long output)
        length = len(stripped)  # as shown: a text's last newlines are not shown either
        while stripped[length - 1] == "\n":
            length -= 1
        if len(_unredacted(made)) <= length:
            return made  # shorter, or the output itself
        if made.exact is None and not made.clipped_lines and not any(isinstance(i, Omission) for i in made.body):
            quiet = replace(made, header=(), omitted_lines=0, kinds=(), passthrough=NOISE_ONLY, note=None)
            if len(_unredacted(quiet)) < length:
                return quiet
        return replace(self.exact(stripped, NOT_LONGER), rule=made.rule, facts=made.facts)

    def whole(
        self,
        header: tuple[str, ...],
        lines: list[str],
        facts: dict[str, int] | None,
        reason: str,
        rule: Rule | None = None,
    ) -> Reduction:
        return self._reduction(
            rule, header=header, body=tuple(lines), total_lines=len(lines), facts=facts, passthrough=reason
        )

    def clamped(
        self,
        header: tuple[str, ...],
        lines: Sequence[Item],
        budget: int,
        reason: str | None,
        facts: dict[str, int] | None,
        rule: Rule,
        note: str | None = None,
        *,
        total_lines: int | None = None,
        kinds: tuple[str, ...] = (),
    ) -> Reduction:
        """The (denoised) whole output, cut to the budget only if it must be."""
        whole = tuple(lines)
        items = clamp(header, whole, budget)
        kinds += ("size-clamp",) if items is not whole else ()
        total = len(whole) if total_lines is None else total_lines
        return self.made(rule, header, items, total, facts, kinds, reason, note)

    def made(
        self,
        rule: Rule,
        header: tuple[str, ...],
        items: tuple[Item, ...],
        total_lines: int,
        facts: dict[str, int] | None,
        kinds: tuple[str, ...],
        reason: str | None,
        note: str | None,
    ) -> Reduction:
        clipped = sum(1 for i in items if isinstance(i, str) and CLIP.search(i))
        return self._reduction(
            rule,
            header=header,
            body=items,
            omitted_lines=max(0, total_lines - shown_lines(items)),
            total_lines=total_lines,
            clipped_lines=clipped,
            facts=facts,
            kinds=kinds,
            passthrough=reason,
            note=note,
        )


def capture_note(execution: Execution) -> str | None:
    """What the capture itself could not keep, in exact numbers, for the trailer."""
    capture = execution.capture
    if capture is None:
        return None
    notes = []
    if capture.truncated:
        lines = f"{capture.dropped_lines:,} line{'' if capture.dropped_lines == 1 else 's'}"
        notes.append(
            f"{lines} ({_size_text(capture.dropped_bytes)}) in the middle of the output were never kept, "
            f"not even in the full output (the capture keeps {_size_text(capture.limit_bytes)}; "
            f"tokenjuice wrap --max-capture-bytes N keeps more)"
        )
    if capture.background:
        notes.append("a background job still holds the output and may write more")
    return "; ".join(notes) or None


def _size_text(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count:,} bytes"


def _shown(item: Item) -> str:
    return item.render() if isinstance(item, Omission) else item


def _same(items: Sequence[Item], others: Sequence[Item]) -> bool:
    """The very same items (not equal ones: a pinned line equals its text)."""
    return len(items) == len(others) and all(map(is_, items, others))


def _counts(outcome: RuleOutcome, classification: Classification, exit_code: float | None) -> tuple[str, ...]:
    """`3 failed, 120 passed` for the top of the body: the counts above zero."""
    facts = outcome.facts
    if not facts or outcome.summary is not None:
        return ()
    fallback_success = classification.rule.id == FALLBACK_ID and exit_code == 0
    parts = []
    for name, count in facts.items():
        if count <= 0:
            continue
        # A successful command that merely prints the word is not failing.
        mention = " mention" if fallback_success and name in ("error", "warning") else ""
        parts.append(pluralize(count, name + mention))
    return (", ".join(parts),) if parts else ()


def _cut(outcome: RuleOutcome) -> bool:
    return any(isinstance(i, Omission) for i in outcome.items) or shown_lines(outcome.items) < outcome.total_lines


def _counts_always_shown(outcome: RuleOutcome, classification: Classification, exit_code: float | None) -> bool:
    """Counts tell something the lines do not for search results and failing tests."""
    family = classification.rule.family
    return family in _ALWAYS_SHOW_FACTS or (family == "test-results" and bool(exit_code))


def clamp(header: tuple[str, ...], items: tuple[Item, ...], budget: int) -> tuple[Item, ...]:
    """Fit the body into `budget` chars: where it does not fit as it is, clip
    overlong lines, then drop lines, pinned ones last, otherwise from the middle
    outwards (the start keeps a bit more room than the end). Returns `items` itself
    when it already fits."""
    available = max(200, budget - sum(len(h) + 1 for h in header) - TRAILER_RESERVE)
    if sum(len(_shown(i)) + 1 for i in items) <= available:
        return items  # a long line within the room is content to its end (a coverage row's Missing column)
    limit = max(80, min(LINE_LIMIT, available // 3))
    clipped = [_clip(i, limit) for i in items]
    sizes = [len(_shown(i)) + 1 for i in clipped]
    if sum(sizes) <= available:
        if all(a is b for a, b in zip(clipped, items, strict=True)):
            return items
        # The lines clipped share the room the others leave, as evenly as it goes: a
        # page fetched as one 34 kB line keeps the budget's worth of it, not 400 characters.
        wider = _clip_limit(items, clipped, available, limit)
        return tuple(_clip(i, wider) for i in items) if wider > limit else tuple(clipped)
    last = len(clipped) - 1
    # Lines before the biggest head/tail cut belong to the head (they go from its far
    # end first), lines after it to the tail, so no stray line is left between cuts.
    cuts = [(item.count, i) for i, item in enumerate(clipped) if isinstance(item, Omission) and not item.detail]
    pivot = max(cuts)[1] if cuts else None

    def rank(i: int) -> int:
        if pivot is None:
            return min(2 * i, 3 * (last - i))
        return 2 * i if i < pivot else 3 * (last - i)

    ranked = sorted(
        (i for i, item in enumerate(clipped) if not isinstance(item, Omission)),
        key=lambda i: (not isinstance(clipped[i], Pinned), rank(i)),
    )
    keep: set[int] = set()
    # A run of lines dropped leaves one marker: each pinned line kept inside the run
    # between the head and the tail may split it in two, while lines kept from the
    # edges inwards stay next to the head or the tail and split nothing (the run's own
    # marker fits in the trailer's room).
    used = 0
    for index in ranked:
        cost = sizes[index] + (_MARKER_COST if isinstance(clipped[index], Pinned) else 0)
        if used + cost <= available:
            keep.add(index)
            used += cost
        elif not isinstance(clipped[index], Pinned):
            break
    # A lone dropped line no longer than its marker would be would save nothing.
    single = len(Omission(1).render())
    for index, item in enumerate(clipped):
        if (
            index not in keep
            and isinstance(item, str)
            and len(item) <= single
            and (index == 0 or index - 1 in keep)
            and (index == last or index + 1 in keep)
        ):
            keep.add(index)
    return tuple(keep_only(clipped, keep))


#: What clipping a line adds to it: ` …[12345 chars omitted]… `, and a token the cut
#: would split, left out whole, on either side (text.clip_line).
_CLIP_COST = 48


def _clip_limit(items: tuple[Item, ...], clipped: list[Item], available: int, limit: int) -> int:
    """The widest clip limit (at least `limit`) that keeps `items` within `available`
    characters: the room the lines `clip` leaves whole do not take, shared evenly among
    those it cuts (the shortest of them may fit whole, and give their share back)."""
    cut = sorted(len(item) for item, shown in zip(items, clipped, strict=True) if shown is not item)
    room = available - sum(len(_shown(shown)) + 1 for item, shown in zip(items, clipped, strict=True) if shown is item)
    for k, length in enumerate(cut):
        share = room // (len(cut) - k) - _CLIP_COST
        if length + 1 > share:
            return max(limit, share)
        room -= length + 1
    return max(limit, cut[-1] if cut else limit)


def _clip(item: Item, limit: int) -> Item:
    if isinstance(item, Omission | Encoded | Whole) or len(item) <= limit:
        return item  # a lossless re-encoding or a whole line was sized by units.fit: clipping it would lose facts
    if len(item) <= 2 * limit and CLIP.search(item):
        # clipped already, by the unit it belongs to, which sized it: a second cut
        # would count the first one's marker as text and can come out longer
        return item
    return Pinned(clip_line(item, limit)) if isinstance(item, Pinned) else clip_line(item, limit)


def format_number(value: float | None) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
