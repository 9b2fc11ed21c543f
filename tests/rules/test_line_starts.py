"""Lines found in their joined text (`joined.starting_lines`) are the lines a search of each
line alone finds: for every pattern `joined.line_bound` lets through, on generated lines and
on every line of the scenario corpus; the patterns it keeps out would not be."""

import gzip
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tokenjuice.rules import joined, patterns
from tokenjuice.rules.patterns import Lines, Matcher, _after_newline, _alternation, _compile_trusted, _sieve_facts

ROOT = Path(__file__).resolve().parents[2]

#: Patterns anchored at the start, each with whether it is line-bound: what it
#: consumes or looks at can never be a newline, and it anchors nothing to the text.
PATTERNS = [
    (r"^a", True),
    (r"^a$", True),
    (r"^$", True),
    (r"^\s*+[\^~]*+$", False),  # \s holds the newline
    (r"^[^\s:]+\.py::(?:[^ \n]*+ )+?(?:PASSED|SKIPPED)\b", True),
    (r"^[^ ]+ b", False),  # [^ ] holds it
    (r"^[^a]", False),
    (r"^\S+ \d+$", True),
    (r"^.*b$", True),
    (r"(?s)^.*b$", False),  # . with DOTALL
    (r"^(?s:.)b", False),
    (r"^(?s:(?-s:.))b", True),
    (r"^\w+\b", True),
    (r"^a\B", True),
    (r"^a\Z", False),  # the end of the text, not of the line
    (r"^\Aa", False),
    (r"^(?=a$)", True),
    (r"^(?!a)", True),
    (r"^(?!.)", True),
    (r"^a(?<=^a)", True),
    (r"^(?<!b)a", True),
    (r"^(?<![^a])a", False),
    (r"^(?<=\n)a", False),
    (r"^[\x00-\x1f]", False),
    (r"^[\t-\r]a", False),
    (r"^[^\n]+$", True),
    (r"^(a)\1", False),  # a backreference: not looked into
    (r"^(?:a|\W)", False),
    (r"^(?:a|\D)", False),
    (r"^(?i:A)b$", True),
    (r"^(?>a+)b", True),
    (r"^a{2,}+$", True),
    (r"^_{3,} .+ _{3,}$", True),
    # patterns starting with neither a character nor a class: tried behind a lookahead
    # for their first characters (`_opening`)
    (r"^(?:ab|\d)x", True),
    (r"^(?:a?b)", True),
    (r"^(?:a*|b)c", True),
    (r"^[ab]?c", True),
    (r"^(?=b)\w", True),
    (r"^(?:_)+\d", True),
    (r"^x{0}y", True),
    (r"^(?:PASSED|SKIPPED) ", True),
    (r"^(?:\d+ (?:b|aa)|:)\b", True),
    (r"^(?:é|━)+", True),
    (r"^(?:\s|b)a", False),
    (r"^(?:[^a]|b)", False),
]

_PIECES = st.sampled_from(
    ["a", "b", "aa", "_", "___", " ", "  ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\xa0"]
    + [":", ".py::", "PASSED", "SKIPPED", "x", "^", "~", "é", "━", "1", "12", "b\r"]
)
_LINE = st.lists(_PIECES, max_size=6).map("".join)


def starting(pattern_list: list[str], lines: list[str]) -> set[int] | None:
    openings = [_sieve_facts(pattern, "")[4] for pattern in pattern_list]
    scan = _compile_trusted(_after_newline(pattern_list, openings), pattern_list, "", False, True)
    return joined.starting_lines(scan, "\n".join(lines), lines[0], len(lines))


def one_by_one(pattern_list: list[str], lines: list[str]) -> set[int]:
    search = re.compile(_alternation(pattern_list)).search
    return {i for i, line in enumerate(lines) if search(line)}


@pytest.mark.parametrize(("pattern", "bound"), PATTERNS)
def test_line_bound_is_told_from_what_the_pattern_can_see(pattern, bound):
    _, anchored, _, told, _ = _sieve_facts(pattern, "")
    assert anchored or pattern.startswith("(?s)")  # a leading flag: not anchored for a sieve
    assert told is bound


@settings(max_examples=600, deadline=None)
@given(
    st.lists(_LINE, min_size=1, max_size=12),
    st.lists(st.sampled_from([p for p, _ in PATTERNS]), min_size=1, max_size=4),
)
def test_the_lines_found_in_their_text_are_those_found_one_by_one(lines, chosen):
    bound = [pattern for pattern in chosen if _sieve_facts(pattern, "")[3]]  # what a matcher would join
    assume(bound)
    assert starting(bound, lines) == one_by_one(bound, lines)


@settings(max_examples=600, deadline=None)
@given(_LINE, st.sampled_from([p for p, _ in PATTERNS]))
def test_a_line_a_pattern_matches_starts_with_a_character_of_its_opening(line, pattern):
    opening = _sieve_facts(pattern, "")[4]
    if opening and re.search(pattern, line):
        assert re.match(f"[{opening}]", line)


def test_the_patterns_kept_out_would_find_other_lines():
    """Each kind of pattern `joined.line_bound` keeps out finds, in the lines' text, a line
    it does not match alone (or misses one it does)."""
    lines = ["b", "", "a", " a", "b", "aa b", "b"]
    for pattern in (r"^\s*+[\^~]*+$", r"^[^ ]+ b", r"(?s)^.*b$", r"^a\Z", r"^(?<![^a])a", r"^(?<=\n)a", r"^[^a]"):
        assert starting([pattern], lines) != one_by_one([pattern], lines), pattern


def test_a_line_holding_a_newline_is_searched_alone():
    lines = ["a", "b\na", "a"]
    assert starting([r"^a"], lines) is None
    assert Matcher([r"^a"], trusted=True).matching(Lines(lines)) == {0, 2}


def test_a_big_view_of_its_own_text_is_searched_at_once(monkeypatch):
    """From SIEVE_LINES lines, the lines the filters kept (a view of its own text) are
    found in their text, not line by line; the lines of an output (a view held by it)
    are searched one by one."""
    lines = [f"src/m_{i}.c:1: warning" if i % 3 else f"E   assert {i}" for i in range(patterns.SIEVE_LINES)]
    wanted = [r"^E {2,}\S", r"^>", r"^_{3,} .+ _{3,}$"]
    expected = one_by_one(wanted, lines)
    monkeypatch.setattr(patterns, "_indexes", lambda *a: pytest.fail("searched line by line"))
    assert Matcher(wanted, trusted=True).matching(Lines(lines)) == expected
    monkeypatch.undo()
    calls = []
    monkeypatch.setattr(joined, "starting_lines", lambda *a: calls.append(a))
    assert Matcher(wanted, trusted=True).matching(Lines(lines, "\n".join(lines))) == expected
    assert calls == []


def _rule_patterns() -> list[list[str]]:
    """Each built-in rule's anchored, line-bound filter patterns (flags aside)."""
    found = []
    for path in sorted((ROOT / "reducers").rglob("*.toml")):
        rule = tomllib.loads(path.read_text(encoding="utf-8"))
        filters = rule.get("filters", {})
        listed = [p for key, value in filters.items() if isinstance(value, list) and key != "noise" for p in value]
        listed += [counter["pattern"] for counter in rule.get("counters", []) if not counter.get("flags")]
        kept = []
        for pattern in listed:
            if not isinstance(pattern, str):
                continue
            facts = _sieve_facts(pattern, "")
            if facts[1] and facts[3]:
                kept.append(pattern)
        if kept:
            found.append(kept)
    return found


@pytest.mark.slow
def test_every_rule_finds_the_same_lines_of_the_scenario_corpus_in_their_text():
    lines: set[str] = set()
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.out*")):
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        lines.update(raw.decode("utf-8", "replace").split("\n"))
    corpus = sorted(lines)
    assert len(corpus) > 10_000
    rules = _rule_patterns()
    assert len(rules) > 50
    found = 0
    for kept in rules:
        hits = one_by_one(kept, corpus)
        assert starting(kept, corpus) == hits, kept
        found += len(hits)
    assert found > 1_000
