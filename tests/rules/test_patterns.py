import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.rules.patterns import Budget, Lines, Matcher, _Keywords, group_names, required_literal, scoped


@pytest.fixture
def watched(monkeypatch):
    """The sieve on from one line, and an output text that notes each literal looked
    for in it (`in`): the list of them and the text's type."""
    from tokenjuice.rules import patterns

    monkeypatch.setattr(patterns, "SIEVE_LINES", 1)
    looked: list[str] = []

    class Output(str):
        def __contains__(self, literal: object) -> bool:
            looked.append(str(literal))
            return str.__contains__(self, literal)

    return looked, Output


KEYWORD_PATTERNS = [
    (r"(?i)\b(?:error|errors|not found|fail|failed|unable to)\b", ""),
    (r"\berror\b", "i"),
    (r"\bFAILED\b", ""),
    (r"(?:panic|fatal)", ""),
    (r"\b(?:warn|warning)", "i"),
]

fragments = st.sampled_from(
    list("aeirorfldnt uAEIRORFLDNT_-.:\tÉéß0")
    + ["error", "Error", "FAILED", "not found", "fail", "ÉRROR", "errors", "unable to"]
)
text = st.lists(fragments, max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(text, max_size=30), st.sampled_from(KEYWORD_PATTERNS), st.booleans())
def test_keyword_scan_matches_exactly_what_the_regex_matches(lines, spec, ascii):
    pattern, flags = spec
    assert _Keywords.parse(pattern, flags, ascii) is not None
    matcher = Matcher([pattern], flags, trusted=True, ascii=ascii)
    regex = re.compile(scoped(pattern, flags), re.ASCII if ascii else 0)
    assert matcher.matching(Lines(lines)) == {i for i, line in enumerate(lines) if regex.search(line)}


@pytest.mark.parametrize(
    "pattern, flags",
    [("^FAILED", ""), (r"\berr.r\b", ""), ("error|", ""), (r"\bx\s\b", ""), (r"(?i)\b(?:a|b)\b", "m"), (r"a\\b", "")],
)
def test_anything_else_is_not_treated_as_keywords(pattern, flags):
    assert _Keywords.parse(pattern, flags, False) is None


def test_mixed_keyword_and_regex_patterns():
    matcher = Matcher([r"(?i)\berror\b", r"^\s+at "], trusted=True)
    lines = ["ok", "ERROR: x", "    at foo()", "terror", "at bar"]
    assert matcher.matching(Lines(lines)) == {1, 2}
    assert [bool(matcher.search(line)) for line in lines] == [False, True, True, False, False]


def test_text_whose_lowercase_changes_length_falls_back_to_lines():
    lines = ["İstanbul error", "fine"]  # 'İ'.lower() is two characters
    assert Matcher([r"(?i)\berror\b"], trusted=True).matching(Lines(lines)) == {0}


@pytest.mark.parametrize(
    "pattern, literal",
    [
        (r"^Build (?:succeeded|FAILED)\.$", "Build "),
        (r"^=+ test session starts =+$", " test session starts "),
        (r"a(?:bc)+d", "bc"),
        (r"x?yz", "yz"),
        (r"a{0,3}bb", "bb"),
        (r"(?:ab|cd)", ""),
        (r"(?i)Build", ""),
        (r"(?i:Build) ok", " ok"),
        (r"\p{L}+ done", ""),  # `regex`-only syntax: no shortcut
        (r"[abc]+", ""),
    ],
)
def test_required_literal(pattern, literal):
    assert required_literal(pattern) == literal


def test_required_literal_reads_the_flags_given_apart():
    assert required_literal("Build ok", "i") == ""
    assert required_literal("Build  ok  # the verdict", "x") == "Buildok"


def test_a_big_output_is_searched_only_for_the_patterns_whose_required_text_it_holds(monkeypatch):
    from tokenjuice.rules import patterns

    compiled = []
    original = patterns._compile_trusted
    monkeypatch.setattr(
        patterns, "_compile_trusted", lambda source, held, *rest: compiled.append(held) or original(source, held, *rest)
    )
    big = [f"tests/t_{i}.py ....  [{i % 100}%]" for i in range(patterns.SIEVE_LINES)]
    lines = [*big, "ERROR: boom", "=== 3 passed in 1.2s ==="]
    wanted = [r"^ERROR: \w+", r"^=+ (?P<count>\d+) passed", r"^collecting \.\.\.", r"^FAILED (?P<count>\S+)"]
    matcher = Matcher(wanted, trusted=True)
    assert matcher.matching(Lines(lines)) == {len(big), len(big) + 1}
    assert compiled[-1] == wanted[:2]  # the other two cannot match: their text is nowhere
    assert Matcher(wanted[2:], trusted=True).matching(Lines(lines)) == set()
    compiled.clear()
    assert Matcher(wanted, trusted=True).matching(Lines(lines[:100] + lines[-2:])) == {100, 101}
    assert compiled == [wanted[:2]]  # few lines are sieved too: the literals are known


def test_the_literals_are_worked_out_once_a_version(monkeypatch):
    """A later run reads the patterns' literals from the cache instead of parsing them."""
    from tokenjuice.rules import patterns

    wanted = [r"^ERROR: \w+", r"^collecting \.\.\."]
    monkeypatch.setattr(patterns, "_FACTS", {})
    assert Matcher(wanted, trusted=True).matching(Lines(["ERROR: boom", "ok"])) == {0}
    monkeypatch.setattr(patterns, "_FACTS", {})  # a new run
    monkeypatch.setattr(patterns, "_sieve_facts", lambda *a: pytest.fail("parsed again"))
    assert Matcher(wanted, trusted=True).matching(Lines(["ok", "ERROR: again"])) == {1}


def test_a_sieve_keeps_an_anchored_pattern_that_turns_a_line_away_at_its_first_character_without_a_search(
    watched,
):
    """`^\\[gw\\d+\\]` costs a line one comparison in an alternation anchored at the
    start: less than a search for a short literal (`[gw`) in the whole output. Its
    text is looked for only when no other pattern is left (the pass over every line
    is saved), and a long literal is looked for (the search skips ahead)."""
    looked, Output = watched
    lines = ["tests/t.py::test_a PASSED", "3 passed", "not [gw] yet, collecting."]
    quick, costly, long = r"^\[gw\d+\] ", r"^\S+ (?:PASSED|FAILED)$", r"^collecting \.\.\."
    assert Matcher([quick, costly, long], trusted=True).matching(Lines(lines, Output("\n".join(lines)))) == {0}
    assert "[gw" not in looked and "collecting ..." in looked
    assert (
        Matcher([quick, r"^\s*=+ \d+ failed"], trusted=True).matching(Lines(lines, Output("\n".join(lines)))) == set()
    )
    assert "[gw" in looked  # no other pattern could match: looked for, and nothing is tried
    unanchored = Matcher([quick, r"(?:PASSED|FAILED)$"], trusted=True)  # tried at every character: both looked for
    looked.clear()
    assert unanchored.matching(Lines(lines, Output("\n".join(lines)))) == {0}
    assert "[gw" in looked


def test_a_very_big_output_is_not_searched_for_the_long_literal_of_a_pattern_starting_with_its_character(
    watched, monkeypatch
):
    r"""From UNSEARCHED_LINES lines, `^collecting \.\.\.` is kept unsearched (the engine
    turns a line away at its `c`); `^=+ test session starts` is still looked for (a
    repeat is no character the engine turns a line away at once)."""
    from tokenjuice.rules import patterns

    monkeypatch.setattr(patterns, "UNSEARCHED_LINES", 3)
    looked, Output = watched
    lines = ["tests/t.py::test_a PASSED", "collecting ... 3 items", "== test session starts =="]
    wanted = [r"^\S+ (?:PASSED|FAILED)$", r"^collecting \.\.\.", r"^=+ test session starts =+$"]
    expected = {i for i, line in enumerate(lines) if any(re.search(p, line) for p in wanted)}
    assert Matcher(wanted, trusted=True).matching(Lines(lines, Output("\n".join(lines)))) == expected == {0, 1, 2}
    assert "collecting ..." not in looked and " test session starts " in looked
    looked.clear()
    assert Matcher(wanted, trusted=True).matching(Lines(lines[:2], Output("\n".join(lines[:2])))) == {0, 1}
    assert "collecting ..." in looked  # fewer lines: looked for, as before


@pytest.mark.parametrize(
    ("pattern", "flags", "anchored", "quick"),
    [
        (r"^collecting \.\.\.", "", True, True),  # (its literal is long: looked for all the same)
        (r"^=+ test session starts =+$", "", True, True),
        (r"^(?P<n>ERROR) \S", "", True, True),
        (r"^(?:_ )+_$", "", True, False),  # a repeat of more than one character: a general repeat
        (r"^\s*$", "", True, False),
        (r"^(?:FAILED|ERROR) ", "", True, False),
        (r"^x", "m", False, False),  # `^` at each line of a text
        (r"(?m)^x", "", False, False),
        (r"(?s)^x", "", False, False),  # `scoped` puts the anchor in a group of its own
        (r"^a|b", "", False, False),
        (r"x^", "", False, False),
    ],
)
def test_the_sieve_knows_a_pattern_anchored_at_the_start_and_one_that_turns_a_line_away_at_once(
    pattern, flags, anchored, quick
):
    from tokenjuice.rules.patterns import _sieve_facts

    assert _sieve_facts(pattern, flags)[1:3] == (anchored, quick)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"^\s*(?:Compiling|Build) (?:ok|FAILED)[.!]? \d+ (?:tests?|errors?)$"))
def test_every_line_a_pattern_matches_holds_its_required_literal(line):
    pattern = r"^\s*(?:Compiling|Build) (?:ok|FAILED)[.!]? \d+ (?:tests?|errors?)$"
    assert re.search(pattern, line) and required_literal(pattern) in line


def test_every_built_in_output_pattern_has_its_literal_in_the_example_lines_it_matches():
    from tokenjuice.rules import index, loader

    examples = {loaded.rule.id: loaded.examples for loaded in loader.load_layer("builtin", loader.builtin_root())[0]}
    checked = 0
    for entry in index.load(builtin_only=True).entries:
        for pattern, literal in zip(entry.match.output, entry.output_literals, strict=True):
            for example in examples[entry.id]:
                for line in example.output.split("\n"):
                    if re.search(pattern, line):
                        assert literal in line, (entry.id, pattern, line)
                        checked += 1
    assert checked > 40


@pytest.mark.parametrize("trusted", [True, False])
def test_patterns_naming_the_same_group_still_join_into_one_search(trusted):
    """pytest's counters all name a `count` group; joined as they are, the alternation
    would not compile and every line would be searched once per pattern."""
    patterns = [r"(?P<count>\d+) failed\b", r"(?P<count>\d+) passed\b", r"(?P<n>x)(?P=n)"]
    lines = Lines(["1 failed, 2 passed", "2 passed", "xx", "none", "3 failed"])
    joined = Matcher(patterns[:2], trusted=trusted, budget=Budget())
    assert joined.matching(lines) == {0, 1, 4}
    if trusted:
        assert isinstance(joined.search.__self__, re.Pattern)  # one compiled alternation, not a per-pattern loop
    with_backreference = Matcher(patterns, trusted=trusted, budget=Budget())
    assert with_backreference.matching(lines) == {0, 1, 2, 4}
    assert Matcher(patterns[:1], trusted=trusted, budget=Budget()).search("7 failed").group("count") == "7"


@pytest.mark.parametrize(
    ("pattern", "names"),
    [
        (r"(?P<count>\d+) failed", {"count"}),
        (r"\(?P<count>x", set()),  # an escaped parenthesis opens no group
        (r"\\(?P<count>x)", {"count"}),  # an escaped backslash, then a group
        (r"(?P<a>x)(?:y)(?P<count>\d)", {"a", "count"}),
    ],
)
def test_group_names(pattern, names):
    assert group_names(pattern) == names


_LINE_PATTERNS = [
    r"^E {2,}\S",
    r"^\s*$",
    r"^(?:INFO|DEBUG)\s+\S+:\d+",
    r"^[^\s:]+\.py::.* (?:PASSED|FAILED)\b",
    r"^(?P<count>\d+) passed",
    r"^[.sF]+ *(?:\[ *\d+%\])?$",
    r"^ {4}",
    r"(?i)^info\b",
    r"warn(?:ing)?:",
    r"(?:FAIL|ERROR) ",
]
_LINE_WORDS = st.sampled_from(
    [" ", "  ", "\t", "E", "INFO", "info", "DEBUG", "x", "t.py::t", "PASSED", "FAILED", "3", "passed", "ERROR"]
    + ["%", "[", "]", ":", ".", "s", "F", "warn", "warning:", "é", "━"]
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(_LINE_WORDS, max_size=6).map("".join), min_size=1, max_size=40),
    st.lists(st.sampled_from(_LINE_PATTERNS), min_size=1, max_size=5, unique=True),
    st.sampled_from(["", "i", "m"]),
)
def test_a_big_output_is_matched_as_each_line_alone_is(lines, wanted, flags):
    from unittest import mock

    from tokenjuice.rules import patterns

    alone = [re.compile(p, patterns._bits(flags, False)) for p in wanted]
    expected = {k for k, line in enumerate(lines) if any(p.search(line) for p in alone)}
    with mock.patch.object(patterns, "SIEVE_LINES", 1):  # every output is big: the sieve leaves out patterns
        assert Matcher(wanted, flags, trusted=True).matching(Lines(lines)) == expected


def test_a_built_in_matcher_compiles_its_patterns_only_once_it_is_used(monkeypatch):
    from tokenjuice.rules import patterns

    compiled = []
    original = patterns._compile_trusted
    monkeypatch.setattr(
        patterns, "_compile_trusted", lambda source, held, *rest: compiled.append(held) or original(source, held, *rest)
    )
    matcher = Matcher([r"^ERROR: \w+", r"^FAILED \S"], trusted=True)
    assert matcher.matching(Lines([])) == set()
    assert compiled == []  # no line to look at: nothing compiled
    assert matcher.search("FAILED x") and matcher.search("ERROR: y") and not matcher.search("ok")
    assert len(compiled) == 1


def test_the_sieve_looks_for_each_literal_once_in_an_output_for_all_the_matchers_of_a_reduction(watched):
    looked, Output = watched
    lines = ["ERROR: boom", "tests/t.py ....", "3 passed"]
    output = Output("\n".join(lines))
    budget = Budget()  # one reduction's
    first = Matcher([r"^ERROR: \w+", r"^collecting \.\.\.", r"^\s*$"], trusted=True, budget=budget)
    second = Matcher([r"^collecting \.\.\.", r"^(?P<count>\d+) passed", r"^ERROR: \w+"], trusted=True, budget=budget)
    view = Lines(lines, output)  # alive while the other views are made, as in a reduction
    assert first.matching(view) == {0}
    assert second.matching(Lines(lines, output)) == {0, 2}
    assert len(looked) == len(set(looked))  # nothing looked for twice, "" never
    # the output has no "c": "collecting ..." is not searched for as a whole
    assert {literal for literal in looked if len(literal) > 1} == {"ERROR: ", " passed"}
    assert "c" in looked


def test_a_budget_lets_go_of_an_output_once_the_view_that_looked_in_it_first_is_gone(monkeypatch):
    import gc

    from tokenjuice.rules import patterns

    monkeypatch.setattr(patterns, "SIEVE_LINES", 1)
    budget = Budget()
    lines = ["ERROR: boom", "ok"]
    view = Lines(lines, "\n".join(lines))
    assert Matcher([r"^ERROR: \w+", r"^collecting \.\.\."], trusted=True, budget=budget).matching(view) == {0}
    later = Lines(lines[1:], view.within)  # another view of the same output shares what was found
    assert Matcher([r"^collecting \.\.\."], trusted=True, budget=budget).matching(later) == set()
    assert later._held is view._held
    del view
    gc.collect()
    assert budget._seen is None  # the output is not held for as long as the reduction


_SIEVED_PATTERNS = [
    r"^\[gw\d+\] ",  # turn a line away at its first character, a short literal
    r"^=+ \d",
    r"^E {2,}\S",
    r"^(?P<n>F) \S",
    r"^_(?: _)+$",
    r"^collecting \.\.\.",  # the others: tried where their text is in the output
    r"^\s*$",
    r"^\S+\.py::\S+ PASSED",
    r"^(?:_ )+_$",
    r"(?i)^info\b",
    r"warn(?:ing)?:",
]
_SIEVED_LINES = st.sampled_from(
    ["collecting ...", "collecting", "=== 3 passed", "E   boom", "E x", "F t", "", "  ", "t.py::a PASSED"]
    + ["_ _ _", "INFO x", "warning: w", "x", "[gw1] [ 5%] PASSED", "[gw] x"]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_SIEVED_LINES, min_size=1, max_size=12),
    st.lists(st.sampled_from(_SIEVED_PATTERNS), min_size=1, max_size=5, unique=True),
)
def test_a_sieve_that_keeps_patterns_unsearched_matches_as_each_line_alone_is(lines, wanted):
    from unittest import mock

    from tokenjuice.rules import patterns

    expected = {k for k, line in enumerate(lines) if any(re.search(p, line) for p in wanted)}
    with mock.patch.object(patterns, "SIEVE_LINES", 1):
        assert Matcher(wanted, trusted=True).matching(Lines(lines, "\n".join(lines))) == expected
