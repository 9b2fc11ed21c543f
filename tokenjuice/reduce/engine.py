"""Reduce one tool execution to compact, honest text.

The guarantees, in the order the code enforces them:
- `raw` gives back the exact text; exact file reads and unsafe inventory pipelines
  stay whole (see `command.py`).
- Tiny outputs pass through; a rule's result is used only when it is meaningfully
  shorter than the ANSI-stripped input, otherwise the input is used.
- Nothing is cut silently: each cut leaves a `... N lines omitted ...` marker and
  the text ends with one line saying how much was hidden and how to see it all.
- Nothing is invented: the body holds input lines (some clipped, with a marker),
  and the only other lines are `exit N`, a counts line and the trailer.
- Failures say `exit N` first and get a larger budget.
"""

from __future__ import annotations

from ..classify import Classification, classify
from ..command import CommandInfo, analyze
from ..rules.index import Catalogue
from ..rules.loader import FALLBACK_ID
from ..rules.patterns import Budget, PatternTimeout
from ..shellsyntax import join, quote
from ..text import clip_line, pluralize, split_lines, strip_ansi, trim_empty_edges
from .lines import CLIP, Omission, Pinned, keep_only, render, shown_lines
from .pipeline import RuleOutcome, apply_rule, matcher_factory, pin

TINY_CHARS = 240
LINE_LIMIT = 400
_TRAILER_RESERVE = 160
_MARKER_COST = 24  # room for the omission marker a dropped run may leave
_ALWAYS_SHOW_FACTS = ("search",)
#: Passthrough reasons where the text is the exact raw output, left whole by policy
#: whatever the rule: such runs say nothing about how well a rule compacts.
EXACT_PASSTHROUGH = ("raw", "file-content", "unsafe-inventory", "mixed-inventory")


class Options:
    """How to reduce; defaults match `tokenjuice wrap` without flags."""

    __slots__ = ("classifier", "max_inline_chars", "raw", "no_omit", "trace", "raw_hint", "facts")

    def __init__(self, *, classifier: str | None = None, max_inline_chars: int | None = None,
                 raw: bool = False, no_omit: bool = False, trace: bool = False,
                 raw_hint: str | None = None, facts: bool = True) -> None:
        self.classifier = classifier
        self.max_inline_chars = max_inline_chars
        self.raw = raw
        self.no_omit = no_omit
        self.trace = trace
        self.raw_hint = raw_hint  # how a reader gets the full output; derived if None
        # Facts of a tiny output cost a rule run; `wrap` in text mode never shows them.
        self.facts = facts


def raw_text_of(execution: dict) -> str:
    combined = execution.get("combinedText") or ""
    if combined:
        return combined
    stdout, stderr = execution.get("stdout") or "", execution.get("stderr") or ""
    if stdout and stderr:
        return stdout + ("" if stdout.endswith("\n") else "\n") + stderr
    return stdout or stderr


def default_raw_hint(execution: dict) -> str | None:
    argv = execution.get("argv")
    if argv:
        return "tokenjuice wrap --raw -- " + join(argv)
    command = execution.get("command")
    if command:
        return "tokenjuice wrap --raw -- sh -c " + quote(command)
    return None


class Reduction:
    """A result together with the analysis behind it (for callers that record runs)."""

    __slots__ = ("result", "info", "classification")

    def __init__(self, result: dict, info: CommandInfo, classification: Classification) -> None:
        self.result = result
        self.info = info
        self.classification = classification


def reduce_execution(execution: dict, rules: Catalogue | list[dict], options: Options | None = None) -> dict:
    """Reduce `execution` (the camelCase ToolExecutionInput) and return the result dict."""
    return reduce(execution, rules, options).result


def reduce(execution: dict, rules: Catalogue | list[dict], options: Options | None = None) -> Reduction:
    """`rules` is a catalogue (match entries, bodies read on demand) or full rules."""
    options = options or Options()
    catalogue = Catalogue.of(rules) if isinstance(rules, list) else rules
    info = analyze(execution.get("command"), execution.get("argv"))
    classification = classify(info, catalogue.rules, execution.get("toolName") or "exec", options.classifier)
    return Reduction(_reduce(execution, options, info, classification, catalogue), info, classification)


def _reduce(execution: dict, options: Options, info: CommandInfo, classification: Classification,
            catalogue: Catalogue) -> dict:
    raw_text = raw_text_of(execution)
    exit_code = execution.get("exitCode")
    failed = exit_code is not None and exit_code != 0
    stripped = strip_ansi(raw_text)
    raw_chars = len(stripped)
    keep_raw = "raw" if options.raw else (info.keep_raw if not options.classifier else None)
    if keep_raw:
        return _result(raw_text, raw_chars, None, [], keep_raw, info, classification, options)

    header = [f"exit {_format_number(exit_code)}"] if failed else []
    lines = split_lines(stripped)
    passthrough = trim_empty_edges(lines)
    passthrough_chars = _size(passthrough)
    tiny = passthrough_chars <= TINY_CHARS and not options.no_omit
    if tiny and not options.facts:
        return _tiny(header, passthrough, raw_chars, None, info, classification, options)

    rule = catalogue.body(classification.rule["id"]) or catalogue.body(FALLBACK_ID)
    patterns = Budget()
    # A failing command's output is worth more context: rules carry a larger failure budget.
    budget = options.max_inline_chars or (rule["failure_max_chars"] if failed else rule["max_chars"])
    hint = options.raw_hint if options.raw_hint is not None else default_raw_hint(execution)

    try:
        outcome = apply_rule(rule, raw_text, stripped, exit_code, stripped_lines=lines, no_omit=options.no_omit,
                             budget=patterns)
    except PatternTimeout:
        note = f"rule {rule['id']} ({rule.get('path') or rule['layer']}) timed out; output left unreduced"
        text, kinds = _passthrough(header, passthrough, budget, hint, note)
        return _result(text, raw_chars, None, kinds, "pattern-timeout", info, classification, options)

    facts = outcome.facts
    if options.no_omit:
        text = _compose(header + _facts_line(outcome, classification, exit_code), outcome.items,
                        outcome.total_lines, None)
        return _result(text, raw_chars, facts, ["no-omit"], None, info, classification, options)

    if tiny:
        return _tiny(header, passthrough, raw_chars, facts, info, classification, options)

    counts = _facts_line(outcome, classification, exit_code)
    compact_items = [outcome.summary] if outcome.summary is not None else outcome.items
    compact_chars = _size(render(header + counts + compact_items))
    items = _clamp(header + counts, compact_items, budget)
    clamped = items is not compact_items
    if counts and not (clamped or _cut(outcome) or _counts_always_shown(outcome, classification, exit_code)):
        counts = []  # nothing was cut: the lines themselves show what the counts would
    text = _compose(header + counts, items, outcome.total_lines, hint, outcome.note)
    # The rule's result must be meaningfully shorter — or the input is too big to show
    # whole anyway, so the rule's filtering can only help — and never longer as printed.
    shorter = compact_chars < passthrough_chars * 0.9 and passthrough_chars - compact_chars >= 64
    if (shorter or passthrough_chars > budget) and len(text) < passthrough_chars:
        kinds = outcome.kinds + (["size-clamp"] if clamped else [])
        return _result(text, raw_chars, facts, kinds, None, info, classification, options)

    try:
        pinned = pin(rule, passthrough, matcher_factory(rule, patterns))
    except PatternTimeout:
        pinned = passthrough
    text, kinds = _passthrough(header, pinned, budget, hint)
    return _result(text, raw_chars, facts, kinds, "not-smaller", info, classification, options)


def _tiny(header: list[str], lines: list[str], raw_chars: int, facts: dict | None, info: CommandInfo,
          classification: Classification, options: Options) -> dict:
    text = "\n".join(header + lines) if lines or header else ""
    return _result(text, raw_chars, facts, [], "tiny", info, classification, options)


def _size(lines: list[str]) -> int:
    return sum(map(len, lines)) + len(lines)


def _passthrough(header: list[str], lines: list[str], budget: int, hint: str | None,
                 note: str | None = None) -> tuple[str, list[str]]:
    """The whole (ANSI-stripped) output, cut to the budget only if it must be."""
    items = _clamp(header, lines, budget)
    text = _compose(header, items, len(lines), hint, note)
    return text, (["size-clamp"] if items is not lines else [])


def _facts_line(outcome: RuleOutcome, classification: Classification, exit_code) -> list[str]:
    """`3 failed, 120 passed` for the top of the body: the counts above zero."""
    facts = outcome.facts
    if not facts or outcome.summary is not None:
        return []
    fallback_success = classification.rule["id"] == FALLBACK_ID and exit_code == 0
    parts = []
    for name, count in facts.items():
        if count <= 0:
            continue
        if fallback_success and name in ("error", "warning"):
            name += " mention"  # a successful command that merely prints the word
        parts.append(pluralize(count, name))
    return [", ".join(parts)] if parts else []


def _cut(outcome: RuleOutcome) -> bool:
    return any(isinstance(i, Omission) for i in outcome.items) or shown_lines(outcome.items) < outcome.total_lines


def _counts_always_shown(outcome: RuleOutcome, classification: Classification, exit_code) -> bool:
    """Counts tell something the lines do not for search results and failing tests."""
    family = classification.rule["family"]
    return family in _ALWAYS_SHOW_FACTS or (family == "test-results" and bool(exit_code))


def _clamp(header: list[str], items: list, budget: int) -> list:
    """Fit the body into `budget` chars: clip overlong lines, then drop lines, pinned
    ones last, otherwise from the middle outwards (the start keeps a bit more room
    than the end). Returns `items` itself when it already fits."""
    available = max(200, budget - sum(len(h) + 1 for h in header) - _TRAILER_RESERVE)
    limit = max(80, min(LINE_LIMIT, available // 3))
    clipped = [_clip(i, limit) for i in items]
    sizes = [len(i.render() if isinstance(i, Omission) else i) + 1 for i in clipped]
    if sum(sizes) <= available:
        return clipped if any(a is not b for a, b in zip(clipped, items)) else items
    last = len(clipped) - 1
    # Lines before the biggest head/tail cut belong to the head (they go from its far
    # end first), lines after it to the tail, so no stray line is left between cuts.
    cuts = [(item.count, i) for i, item in enumerate(clipped) if isinstance(item, Omission) and not item.detail]
    pivot = max(cuts)[1] if cuts else None

    def rank(i: int) -> int:
        if pivot is None:
            return min(2 * i, 3 * (last - i))
        return 2 * i if i < pivot else 3 * (last - i)

    ranked = sorted((i for i, item in enumerate(clipped) if not isinstance(item, Omission)),
                    key=lambda i: (not isinstance(clipped[i], Pinned), rank(i)))
    keep: set[int] = set()
    used = 0
    for index in ranked:
        cost = sizes[index] + _MARKER_COST
        if used + cost <= available:
            keep.add(index)
            used += cost
        elif not isinstance(clipped[index], Pinned):
            break
    # A lone dropped line no longer than its marker would be would save nothing.
    single = len(Omission(1).render())
    for index, item in enumerate(clipped):
        if index not in keep and isinstance(item, str) and len(item) <= single \
                and (index == 0 or index - 1 in keep) and (index == last or index + 1 in keep):
            keep.add(index)
    return keep_only(clipped, keep)


def _clip(item, limit: int):
    if isinstance(item, Omission) or len(item) <= limit:
        return item
    return Pinned(clip_line(item, limit)) if isinstance(item, Pinned) else clip_line(item, limit)


def _compose(header: list[str], items: list, total_lines: int, hint: str | None,
             note: str | None = None) -> str:
    lines = header + render(items)
    hidden = total_lines - shown_lines(items)
    clipped = sum(1 for i in items if isinstance(i, str) and CLIP.search(i))
    notes = [note] if note else []
    if hidden > 0:
        notes.append(f"{hidden} of {total_lines} lines omitted")
    if clipped:
        notes.append(f"{clipped} long line{'s' if clipped != 1 else ''} clipped")
    if notes:
        if hint:
            notes.append(f"full output: {hint}")
        lines.append(f"(tokenjuice: {'; '.join(notes)})")
    return "\n".join(lines)


def _format_number(value) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _ratio(reduced: int, raw: int):
    if raw == 0:
        return 1
    ratio = reduced / raw
    return int(ratio) if ratio.is_integer() else ratio


def _result(text: str, raw_chars: int, facts: dict | None, kinds: list[str], passthrough: str | None,
            info: CommandInfo, classification: Classification, options: Options) -> dict:
    reduced = raw_chars if passthrough in EXACT_PASSTHROUGH else len(text)
    result: dict = {"inlineText": text}
    if facts is not None:
        result["facts"] = facts
    result["compaction"] = {"authoritative": bool(kinds), "kinds": kinds}
    if passthrough:
        result["passthrough"] = passthrough
    if options.trace:
        result["trace"] = _trace(info, classification)
    result["stats"] = {"rawChars": raw_chars, "reducedChars": reduced, "ratio": _ratio(reduced, raw_chars)}
    result["classification"] = classification.to_dict()
    return result


def _trace(info: CommandInfo, classification: Classification) -> dict:
    trace: dict = {}
    if info.normalized_command:
        trace["normalizedCommand"] = info.normalized_command
    if info.normalized_argv:
        trace["normalizedArgv"] = info.normalized_argv
    candidate = classification.candidate
    if candidate is not None:
        if candidate.command and candidate.command != info.normalized_command:
            trace["reducerCommand"] = candidate.command
        if candidate.argv:
            trace["reducerArgv"] = candidate.argv
    trace["matchedReducer"] = classification.rule["id"]
    trace["family"] = classification.rule["family"]
    return trace
