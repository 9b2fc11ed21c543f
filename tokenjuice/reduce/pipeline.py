"""Apply one rule to a command's output: the rule path of the reduction.

Order: pretty-print JSON → split lines → trim edges → `match_output` short-circuit →
skip filters → (counter snapshot for `pre_keep`) → keep filters → counters →
formatter → adjacent de-duplication → `on_empty` → pins → head/tail (wider on
failure; pinned lines in the middle survive).
Every step is linear in the number of lines; patterns are compiled once per run.
"""

from __future__ import annotations

import json

from ..rules.patterns import Budget, Matcher
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
               no_omit: bool = False, budget: Budget | None = None) -> RuleOutcome:
    matcher = matcher_factory(rule, budget or Budget())
    text = stripped_text if rule["strip_ansi"] else raw_text
    if rule["pretty_print_json"]:
        text = _pretty_json(text)
    lines = split_lines(text)
    if rule["trim_empty_edges"]:
        lines = trim_empty_edges(lines)
    total = len(lines)
    kinds: list[str] = []

    if not no_omit:
        joined = None
        for entry in rule["match_output"]:
            joined = "\n".join(lines) if joined is None else joined
            if matcher([entry["pattern"]], entry["flags"]).search(joined):
                return RuleOutcome([], None, ["summary"], entry["message"], total)
        if rule["skip_patterns"]:
            skip = matcher(rule["skip_patterns"]).search
            kept = [line for line in lines if not skip(line)]
            if len(kept) != len(lines):
                kinds.append("filter")
            lines = kept
    counter_lines = lines
    if not no_omit and rule["keep_patterns"]:
        keep = matcher(rule["keep_patterns"]).search
        kept = [line for line in lines if keep(line)]
        if kept and len(kept) != len(lines):
            kinds.append("filter")
            lines = kept
    if rule["trim_empty_edges"]:
        lines = trim_empty_edges(lines)
        counter_lines = trim_empty_edges(counter_lines)

    source = counter_lines if rule["counter_source"] == "pre_keep" else lines
    facts: dict | None = None
    if rule["counters"]:
        facts = {}
        for counter in rule["counters"]:
            search = matcher([counter["pattern"]], counter["flags"]).search
            facts[counter["name"]] = sum(1 for line in source if search(line))

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
    search = matcher(rule["pin_patterns"]).search
    return [Pinned(i) if isinstance(i, str) and search(i) else i for i in items]


def _pretty_json(text: str) -> str:
    stripped = text.strip()
    if not stripped.startswith(("{", "[")):
        return text
    try:
        return json.dumps(json.loads(stripped), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return text
