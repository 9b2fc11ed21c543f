"""Reduce throughput, asserted as the work a reduction does, never as time: how many
times the output is split, which lines the expensive patterns are tried on, what is
computed once instead of once per budget (docs/performance.md has the timings)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice import text
from tokenjuice.bench import real_shaped_log
from tokenjuice.commands.wire import reduce_payload
from tokenjuice.reduce import engine, guard, lines, pipeline, reencode, shape, testruns, units
from tokenjuice.reduce.lines import Omission, Pinned, dedupe_adjacent, render


class Counted:
    """Stands in for a function or a pattern's method and counts the calls."""

    def __init__(self, function):
        self.function = function
        self.calls = 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        return self.function(*args, **kwargs)


class CountedPattern:
    def __init__(self, pattern, method):
        self.pattern, self.method = pattern, method
        setattr(self, method, Counted(getattr(pattern, method)))

    def __getattr__(self, name):
        return getattr(self.pattern, name)

    @property
    def calls(self):
        return getattr(self, self.method).calls


@pytest.fixture(scope="module")
def log():
    return real_shaped_log(256 * 1024)  # what `python -m tokenjuice.bench` reduces


def reduce_log(log):
    payload = {"toolName": "exec", "command": "pytest -q", "combinedText": log, "exitCode": 1}
    return reduce_payload(payload, builtin_only=True)


def count(monkeypatch, module, name):
    counted = Counted(getattr(module, name))
    monkeypatch.setattr(module, name, counted)
    return counted


def count_pattern(monkeypatch, module, name, method):
    counted = CountedPattern(getattr(module, name), method)
    monkeypatch.setattr(module, name, counted)
    return counted


def test_the_output_is_split_into_lines_once_per_reduction(monkeypatch, log):
    splits = [count(monkeypatch, module, "split_lines") for module in (engine, pipeline)]
    reduce_log(log)
    assert sum(split.calls for split in splits) == 1


def test_padding_is_not_squeezed_line_by_line_when_squeezing_cannot_make_it_fit(monkeypatch, log):
    squeezed = count(monkeypatch, reencode, "squeeze")
    result = reduce_log(log)
    assert "lines omitted" in result["inlineText"]  # cut: it did not fit, with or without padding
    # only the lines a cut kept, shown with their rules shortened: was once per line and
    # per budget tried (3 × 6,000 lines)
    assert squeezed.calls < len(log.splitlines()) // 10


def test_a_line_is_squeezed_once_a_reduction_whatever_budgets_are_tried(monkeypatch, log):
    seen = []
    squeeze = reencode.squeeze

    def recorded(item, aligned_too=False):
        seen.append((type(item), str(item)))
        return squeeze(item, aligned_too)

    monkeypatch.setattr(reencode, "squeeze", recorded)
    reduce_log(log)
    assert seen  # the cut's lines were squeezed (the guard tried three budgets: each made the same lines)
    assert len(seen) == len(set(seen))  # was 3 times each


def test_a_listing_leads_the_skip_alternation_and_drops_the_lines_it_would_drop_last(monkeypatch, log):
    """A listing says a line a test (the bench log: 45 % of its lines), and a line's
    search stops at the first pattern that matches: listing patterns are tried first."""
    from tokenjuice.rules import patterns
    from tokenjuice.rules.index import load

    made = []
    matcher = patterns.Matcher

    def recorded(given, *args, **kwargs):
        made.append(list(given))
        return matcher(given, *args, **kwargs)

    monkeypatch.setattr(pipeline, "Matcher", recorded)
    monkeypatch.setattr(patterns, "Matcher", recorded)
    rule = load(".", builtin_only=True).body("tests/pytest")
    listing = list(rule.filters.listing_patterns)
    pipeline.apply_rule(rule, log, text.strip_ansi(log), 1, budget=patterns.Budget())
    skips = next(given for given in made if given[: len(listing)] == listing)
    assert set(rule.filters.skip_patterns) <= set(skips[len(listing) :])
    last = [*skips[len(listing) :], *listing]  # the order before: the same lines go
    lines = text.split_lines(text.strip_ansi(log))
    view = patterns.Lines(lines)
    assert matcher(skips, trusted=True).matching(view) == matcher(last, trusted=True).matching(view)


def test_the_guard_searches_error_lines_only_where_an_error_word_is(monkeypatch, log):
    error = count_pattern(monkeypatch, guard, "_ERROR", "search")
    reduce_log(log)
    lines = log.splitlines()
    worded = [line for line in lines if any(word in line.lower() for word in guard._ERROR_HINTS)]
    # an error word's line, and the three after it when they are not ASCII (the raise site)
    assert 0 < error.calls <= 4 * len(worded) < len(lines) // 10


def test_the_guard_looks_for_counts_only_where_a_digit_comes_before_a_count_noun(monkeypatch, log):
    summary = count_pattern(monkeypatch, guard, "_SUMMARY", "search")
    reduce_log(log)
    lines = log.splitlines()
    worded = [line for line in lines if any(word in line.lower() for word in guard._ERROR_HINTS)]
    # not every line naming a test, a warning or a pass: a count is `3 warnings`
    assert 0 < summary.calls <= 4 * len(worded) < len(lines) // 10


def test_passing_tests_are_searched_for_only_on_lines_that_can_say_so(monkeypatch, log):
    passing = count_pattern(monkeypatch, testruns, "_PASSING", "search")
    block = count_pattern(monkeypatch, testruns, "_ANY_TEST_BLOCK", "match")
    reduce_log(log)
    hinted = [line for line in log.splitlines() if "PASS" in line or "ok" in line]
    assert passing.calls <= len(hinted) < len(log.splitlines())
    assert block.calls <= len(log.splitlines())  # one match a line, not one per test runner


def test_redrawn_lines_are_looked_at_frame_by_frame_only_when_an_early_frame_alarms(monkeypatch):
    frames = count(monkeypatch, text, "_final_states")
    redrawn = "".join(f"  Downloading pkg_{i} (3 kB)\r  ━━━━ {i}%\n" for i in range(1000))
    alarming = "  warning: retrying pkg_x\r  ━━━━ 100%\n"
    assert text.split_lines(redrawn) == [*(f"  ━━━━ {i}%" for i in range(1000)), ""]
    assert frames.calls == 0  # the overdrawn frames of all lines searched at once, none alarming
    assert text.split_lines(redrawn + alarming) == [
        *(f"  ━━━━ {i}%" for i in range(1000)),
        "warning: retrying pkg_x",
        "  ━━━━ 100%",
        "",
    ]
    assert frames.calls == 1001  # an alarming frame: every redrawn line looked at, as it always was


def test_json_lines_are_recognised_from_their_first_twenty_rows():
    class Watched(list):
        seen = 0

        def __iter__(self):
            for item in super().__iter__():
                Watched.seen += 1
                yield item

    rows = Watched([f'{{"n": {i}}}' for i in range(100_000)])
    assert shape.json_lines(rows)
    assert Watched.seen == 20


_ITEMS = st.lists(
    st.one_of(st.text(alphabet=" ab━\t", max_size=12), st.builds(Omission, st.integers(1, 30))), max_size=40
)


@settings(max_examples=300, deadline=None)
@given(items=_ITEMS, room=st.integers(-5, 300), scan=st.integers(1, 5))
def test_a_size_read_only_as_far_as_it_takes_tells_what_the_whole_size_does(items, room, scan):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lines, "SCAN_ITEMS", scan)
        assert lines.beyond(items, room) == (lines.size(items) > room)
        read: dict = {}
        for solid in (False, True):
            whole = lines.size(items) - (lines.squeezable(items) if solid else 0)
            # read on from where an earlier question stopped, for a smaller or a larger limit
            for limit in (room, room // 2, room * 3 + 1, room - 7):
                for memo in (None, read):
                    measured = lines.measured(items, limit, solid, memo)
                    assert measured == whole if whole <= limit else limit < measured <= whole


def test_a_long_output_is_never_measured_whole(monkeypatch, log):
    measured = []
    size = lines.size
    for module in (engine, lines, pipeline):
        name = "_size" if module is engine else "size"
        monkeypatch.setattr(module, name, lambda items: measured.append(len(items)) or size(items))
    assert "lines omitted" in reduce_log(log)["inlineText"]
    # the output's and the rule's lines are read a part at a time, as far as a budget
    assert max(measured) < len(log.splitlines()) // 4


def test_the_whole_output_is_not_measured_for_spaces_when_it_cannot_fit(monkeypatch, log):
    measured = []
    spaces = lines.squeezable
    monkeypatch.setattr(lines, "squeezable", lambda items: measured.append(len(items)) or spaces(items))
    monkeypatch.setattr(engine, "squeezable", lambda items: measured.append(len(items)) or spaces(items))
    result = reduce_log(log)
    assert "lines omitted" in result["inlineText"]
    # a few parts for each budget tried, as far as the budget: not every line (was once per reduction)
    # (its drawn rules squeeze too, so a few parts more are read than spaces alone take)
    assert 0 < sum(measured) < len(log.splitlines()) // 3


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(st.sampled_from(["a", "b", "", " "]), max_size=30))
def test_repeats_found_once_are_the_repeats_found_again(lines):
    marked: list[int] = []
    deduped = dedupe_adjacent(lines, marked)
    assert marked == [k for k, item in enumerate(deduped) if isinstance(item, Omission)]
    again = pipeline._remarked(deduped, marked)
    assert render(again) == render(dedupe_adjacent(list(lines)))
    markers = [(a, b) for a, b in zip(deduped, again, strict=True) if isinstance(a, Omission)]
    assert all(a is not b and (a.count, a.detail) == (b.count, b.detail) for a, b in markers)


def test_repeats_are_found_once_a_reduction(monkeypatch, log):
    dedupes = count(monkeypatch, pipeline, "dedupe_adjacent")
    reduce_log(log)
    assert dedupes.calls == 1  # the denoised lines', reused for the lines cut when no pattern changed them


def test_the_lines_the_filters_kept_are_joined_once_for_all_that_scans_them(monkeypatch):
    """Trim patterns, counters, the test parser and the pins of a long run (enough
    lines for the patterns' sieve to read their text) share one text of the lines
    the filters kept; the skip patterns read the output's own."""
    from tokenjuice.rules import patterns

    scanned = []
    matching = patterns.Matcher.matching
    monkeypatch.setattr(
        patterns.Matcher, "matching", lambda self, lines: scanned.append(lines) or matching(self, lines)
    )
    parsed = []
    tests = testruns.parse
    monkeypatch.setattr(testruns, "parse", lambda lines, view=None: parsed.append(view) or tests(lines, view))
    log = real_shaped_log(1536 * 1024)
    reduce_log(log)
    long = {id(lines): lines for lines in scanned if len(lines.lines) >= patterns.SIEVE_LINES}
    assert len(long) == 2  # the output's lines (skip patterns), the lines kept (the rest)
    kept = next(lines for lines in long.values() if lines.within is None)
    assert parsed == [kept] and len([lines for lines in scanned if lines is kept]) >= 3


def _loose_head_tail_by_definition(parsed, head, tail, rule, matcher):
    """What `loose_head_tail` keeps, one item at a time: the head, the tail, pinned
    lines and markers of the lines between units, each run of the others one marker."""
    loose = pipeline.pin(rule, [part for part in parsed if not isinstance(part, units.Unit)], matcher)
    count = len(loose)
    keep = {k for k, item in enumerate(loose) if k < head or k >= count - tail or isinstance(item, Pinned | Omission)}
    result, hidden, position = [], 0, 0
    for part in parsed:
        if not isinstance(part, units.Unit):
            part, position = loose[position], position + 1
            if position - 1 not in keep:
                hidden += 1
                continue
        if hidden:
            result.append(Omission(hidden))
            hidden = 0
        result.append(part)
    return result + ([Omission(hidden)] if hidden else [])


@settings(max_examples=300, deadline=None)
@given(
    kinds=st.lists(st.sampled_from(["line", "E  pinned", "pinned", "marker", "unit"]), max_size=30),
    head=st.integers(0, 4),
    tail=st.integers(0, 4),
)
def test_the_head_tail_of_loose_lines_keeps_what_a_walk_over_them_keeps(kinds, head, tail):
    from helpers import make

    rule = make(pin_patterns=[r"^E {2}"])
    matcher = pipeline.matcher_factory(rule, pipeline.Budget())
    made = {
        "line": lambda n: f"line {n}",
        "E  pinned": lambda n: f"E  line {n}",
        "pinned": lambda n: Pinned(f"kept {n}"),
        "marker": lambda n: Omission(n + 1),
        "unit": lambda n: units.Unit("path", "", (f"unit {n}",), (f"unit {n}",)),
    }
    parsed = [made[kind](n) for n, kind in enumerate(kinds)]
    fast = pipeline.loose_head_tail(parsed, head, tail, rule, matcher)
    slow = _loose_head_tail_by_definition(parsed, head, tail, rule, matcher)
    assert [(type(x), render([x]) if not isinstance(x, units.Unit) else x) for x in fast] == [
        (type(x), render([x]) if not isinstance(x, units.Unit) else x) for x in slow
    ]


def test_the_guard_weighs_a_text_once_whatever_budgets_make_it(monkeypatch, log):
    """The wider budgets the guard tries show the same lines here (the rule's head,
    tail and pins fit the first): its anchors are counted in that text once."""
    weighed = count(monkeypatch, guard, "share")
    result = reduce_payload(
        {"toolName": "exec", "command": "pytest -q", "combinedText": log, "exitCode": 1}, builtin_only=True, trace=True
    )
    assert result["trace"]["guard"]["kept"] < 0.9 * result["trace"]["guard"]["anchors"]  # it widened, in vain
    assert weighed.calls == 1


def test_the_rule_s_result_is_reused_for_the_very_same_items_only():
    line = "tests/a.py:3: AssertionError"
    items = (line, Omission(2))
    assert engine._same(items, list(items))
    assert not engine._same((Pinned(line), items[1]), items)  # equal text, another kind of line
    assert not engine._same((line, Omission(2)), items)  # another marker


def test_a_later_run_parses_no_pattern_a_run_before_compiled(monkeypatch, log):
    """Every pattern a reduction compiles (the rule's alternations, the guard's, the
    secret test's) is read back by the next run as its program, not parsed and
    compiled again in Python (~45 M instructions for a 4 MiB log)."""
    import re

    from tokenjuice.fast import lazyre
    from tokenjuice.rules import patterns

    monkeypatch.setattr(lazyre, "_COMPILED", {})  # a first run, in this test's cache folder
    monkeypatch.setattr(patterns, "_FACTS", {})
    first = reduce_log(log)
    monkeypatch.setattr(lazyre, "_COMPILED", {})  # a new run
    monkeypatch.setattr(patterns, "_FACTS", {})
    monkeypatch.setattr(re, "_cache", {})
    parsed = count(monkeypatch, re._parser, "parse")
    assert reduce_log(log) == first
    assert parsed.calls == 0


def _index(times):
    """A package index's JSON (PyPI's simple API shape): files under a project, with an
    upload time each when `times`."""
    files = [
        {"filename": f"pkg-1.{k}.tar.gz", "hashes": {"sha256": f"{k:064x}"}, "yanked": False}
        | ({"upload-time": f"2026-01-{k % 28 + 1:02d}T00:{k % 60:02d}:00Z"} if times else {})
        for k in range(600)
    ]
    return {"files": files, "meta": {"api-version": "1.1"}, "name": "pkg"}


def test_an_outline_searches_no_element_for_a_time_where_no_time_can_start(monkeypatch):
    from tokenjuice.reduce import structured

    searches = count_pattern(monkeypatch, structured, "_TIME", "search")
    structured.fit_document(_index(times=False), 4000)
    assert searches.calls == 0  # each outlined collection searched each element's text to its end


def test_an_outline_searches_an_element_for_its_time_from_where_one_can_start(monkeypatch):
    from tokenjuice.reduce import structured

    searches = count_pattern(monkeypatch, structured, "_TIME", "search")
    read = []
    searched = searches.search.function
    searches.search.function = lambda text, start, end: (
        read.append(text[start : start + 4]) or searched(text, start, end)
    )
    structured.fit_document(_index(times=True), 4000)
    assert searches.calls > 0 and all(year == "2026" for year in read)  # not from the element's `{`
