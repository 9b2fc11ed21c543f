"""Apply one rule to a command's output: the rule path of the reduction.

Order: pretty-print JSON → split lines → trim edges → `match_output` short-circuit →
(counter snapshot for `pre_skip`) → skip filters → (snapshot for `pre_keep`) →
keep filters → counters →
formatter → adjacent de-duplication → `on_empty` → pins → head/tail (wider on
failure; pinned lines in the middle survive).
Every step is linear in the number of lines; patterns are compiled once per run.
"""

from __future__ import annotations

from ..rules.patterns import Budget, Lines, Matcher, scoped
from ..text import split_lines, trim_empty_edges
from .formatters import FORMATTERS
from .lines import Omission, Pinned, dedupe_adjacent, head_tail

#: At most this many pinned lines survive from the middle of a head/tail cut.
PIN_LIMIT = 20


class RuleOutcome:
    """What a rule made of the output."""

    __slots__ = ("items", "facts", "kinds", "summary", "total_lines", "note")

    def __init__(self, items: list, facts: dict | None, kinds: list[str], summary: str | None,
                 total_lines: int, note: str | None = None) -> None:
        self.items = items
        self.facts = facts
        self.kinds = kinds
        self.summary = summary  # a match_output / on_empty message replacing the lines
        self.total_lines = total_lines
        self.note = note  # what a formatter did that line counts cannot say


def apply_rule(rule: dict, raw_text: str, stripped_text: str, exit_code: int | None, *,
               stripped_lines: list[str] | None = None, no_omit: bool = False,
               budget: Budget | None = None) -> RuleOutcome:
    """`stripped_lines`, when given, is `split_lines(stripped_text)`, already computed."""
    matcher = matcher_factory(rule, budget or Budget())
    if rule["strip_ansi"] and not rule["pretty_print_json"] and stripped_lines is not None:
        lines = stripped_lines
    else:
        text = stripped_text if rule["strip_ansi"] else raw_text
        lines = split_lines(_pretty_json(text) if rule["pretty_print_json"] else text)
    if rule["trim_empty_edges"]:
        lines = trim_empty_edges(lines)
    total = len(lines)
    kinds: list[str] = []

    unfiltered = lines
    if not no_omit:
        joined = None
        for entry in rule["match_output"]:
            joined = "\n".join(lines) if joined is None else joined
            if matcher([entry["pattern"]], entry["flags"]).search(joined):
                return RuleOutcome([], None, ["summary"], entry["message"], total)
        if rule["skip_patterns"]:
            dropped = matcher(rule["skip_patterns"]).matching(Lines(lines))
            if dropped:
                kinds.append("filter")
                lines = [line for i, line in enumerate(lines) if i not in dropped]
    counter_lines = lines
    if not no_omit and rule["keep_patterns"]:
        kept = matcher(rule["keep_patterns"]).matching(Lines(lines))
        if kept and len(kept) != len(lines):
            kinds.append("filter")
            lines = [line for i, line in enumerate(lines) if i in kept]
    if rule["trim_empty_edges"]:
        lines = trim_empty_edges(lines)
        counter_lines = trim_empty_edges(counter_lines)

    source = {"pre_skip": unfiltered, "pre_keep": counter_lines}.get(rule["counter_source"], lines)
    facts = count(rule["counters"], source, matcher) if rule["counters"] else None

    if no_omit:
        return RuleOutcome(list(lines), facts, kinds, None, total)

    items: list = lines
    note = None
    formatter = rule["formatter"]
    if formatter:
        items, extra, note = FORMATTERS[formatter](lines)
        if extra:
            facts = (facts or {}) | extra
        if any(isinstance(i, Omission) for i in items) or len(items) != len(lines):
            kinds.append(formatter)
    if rule["dedupe_adjacent"]:
        deduped = dedupe_adjacent(items)
        if len(deduped) != len(items):
            kinds.append("dedupe")
        items = deduped

    if not any(isinstance(i, str) and i.strip() for i in items) and rule["on_empty"]:
        return RuleOutcome([], facts, kinds + ["summary"], rule["on_empty"], total, note)

    items = pin(rule, items, matcher)
    failed = bool(exit_code) and exit_code != 0
    if failed and rule["preserve_on_failure"]:
        head, tail = rule["failure_head"], rule["failure_tail"]
    else:
        head, tail = rule["head"], rule["tail"]
    trimmed = head_tail(items, head, tail, PIN_LIMIT)
    if len(trimmed) != len(items):
        kinds.append("head-tail")
    return RuleOutcome(trimmed, facts, kinds, None, total, note)


def count(counters: list[dict], lines: list[str], matcher) -> dict:
    """Lines matching each counter. Keyword counters scan the whole text; the other
    counters first find, with one combined search per line, the few lines any of
    them matches, and only those lines are tested again one counter at a time."""
    view = Lines(lines)
    matchers = {c["name"]: matcher([c["pattern"]], c["flags"]) for c in counters}
    per_line = [c for c in counters if not matchers[c["name"]].scans_text]
    subset = view
    if len(per_line) > 1:
        candidates = matcher([scoped(c["pattern"], c["flags"]) for c in per_line]).matching(view)
        subset = Lines([lines[i] for i in sorted(candidates)])
    return {name: len(m.matching(view if m.scans_text else subset)) for name, m in matchers.items()}


def matcher_factory(rule: dict, budget: Budget):
    """`matcher(patterns, flags)` for this rule: fast for built-ins, time-bounded otherwise."""
    trusted = rule.get("layer", "builtin") == "builtin"

    def matcher(patterns: list[str], flags: str = "") -> Matcher:
        return Matcher(patterns, flags, trusted=trusted, ascii=rule["ascii"], budget=budget)

    return matcher


def pin(rule: dict, items: list, matcher) -> list:
    """Mark the lines matching the rule's `pin_patterns` as `Pinned`."""
    if not rule["pin_patterns"]:
        return items
    positions = [i for i, item in enumerate(items) if isinstance(item, str)]
    hits = matcher(rule["pin_patterns"]).matching(Lines([items[i] for i in positions]))
    if not hits:
        return items
    pinned = list(items)
    for hit in hits:
        pinned[positions[hit]] = Pinned(pinned[positions[hit]])
    return pinned


def _pretty_json(text: str) -> str:
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return text
    import json

    try:
        return json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text
