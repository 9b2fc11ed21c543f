"""The preservation guard (tokenjuice/reduce/guard.py) and its widening in the engine."""

import re

import pytest
from conftest import tokenjuice
from helpers import make, run
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduce import guard
from tokenjuice.reduce.lines import Omission, Pinned


class Counted:
    def __init__(self, function):
        self.function, self.calls = function, 0

    def __call__(self, *args):
        self.calls += 1
        return self.function(*args)


def test_anchors_are_failures_their_raise_sites_and_summaries():
    lines = [
        "============ FAILURES ============",
        "E       KeyError: 'mango20'",
        "",
        "tests/shop_helpers.py:8: KeyError",
        "FAILED tests/test_cart.py::test_price - KeyError: 'mango20'",
        "    error = compute()  # quoted source is no anchor",
        "  12 | let x: i64 = error_count;",
        "1 failed, 12 passed in 0.31s",
        "ERROR worker 3: gave up",  # a log level, not a pytest id
        "FAIL: test_em_dash (test.test_textwrap.WrapTestCase.test_em_dash)",  # unittest's
    ]
    found = guard.anchors(lines)
    assert "KeyError: 'mango20'" in found
    assert "tests/shop_helpers.py:8" in found
    assert "tests/test_cart.py::test_price" in found
    assert "1 failed" in found
    assert not any("compute" in a or "error_count" in a for a in found)
    assert "worker" not in found and "ERROR worker 3: gave up" in found
    assert "test_em_dash (test.test_textwrap.WrapTestCase.test_em_dash)" in found


def test_exception_is_an_anchor_as_a_name_or_a_label_not_as_a_word_of_prose():
    help_text = [
        "  -fexceptions                Enable exception handling.",
        "  -fnon-call-exceptions       Support synchronous non-call exceptions.",
        "During handling of the above exception, another exception occurred:",
    ]
    assert guard.anchors(help_text) == []
    shaped = [
        "java.lang.RuntimeException: boom",
        "Exception in thread main",
        "unhandled exception: gone",
        "UNHANDLED EXCEPTION",
    ]
    assert guard.anchors(shaped) == [
        "RuntimeException: boom",
        "Exception in thread main",
        "exception: gone",
        "EXCEPTION",
    ]


def test_error_words_in_a_search_or_a_diff_are_content_not_anchors():
    assert guard.anchors(["src/a.py:3: raise ValueError('x')"], errors=False) == []
    diff = ["diff --git a/a.py b/a.py", "@@ -1,2 +1,2 @@", "-    raise KeyError(x)", "+    raise ValueError(x)"]
    assert guard.anchors(diff) == []
    assert not guard.watched("search", failed=False) and guard.watched("search", failed=True)
    assert guard.watched("test-results", failed=False)


def test_the_share_counts_anchors_in_lossless_forms_too():
    found = ["src/a.py:12", "TypeError: bad"]
    assert guard.share(found, "src/a.py:12: x\nTypeError: bad") == 1.0
    assert guard.share(found, "nothing here") == 0.0
    assert guard.share([], "anything") == 1.0


def worker_log(jobs, every):
    """A worker's log of `jobs` INFO lines with an ERROR after every `every`-th: (output, errors)."""
    errors = [f"ERROR worker {i}: TimeoutError: job {i} exceeded 30s" for i in range(0, jobs, every)]
    lines = []
    for i in range(jobs):
        lines.append(f"INFO worker {i}: job {i} done in 12ms with a long enough line of padding")
        if i % every == 0:
            lines.append(errors[i // every])
    return "\n".join(lines) + "\n", errors


def test_the_engine_widens_the_budget_until_failures_survive():
    """A rule that keeps only the head and tail of a long failing run would drop the
    errors in its middle; the guard widens the budget until they are carried."""
    output, errors = worker_log(600, 40)
    rule = make(family="generic", summarize={"head": 5, "tail": 5}, failure={"head": 5, "tail": 5})
    result = run(output, rule, exit_code=1, trace=True)
    text = result["inlineText"]
    assert all(error in text for error in errors), text
    assert result["trace"]["guard"]["kept"] == result["trace"]["guard"]["anchors"] > 0
    assert len(text) < len(output) / 2


def test_a_widened_budget_keeps_the_rule_s_own_pinned_lines_beside_the_anchors():
    """The guard's cut around the anchors still honours the rule's pin patterns: a
    line the rule says carries a failure's reason survives the cut (unittest's
    `FAIL: test_x (…)` beside the exception the guard saw)."""
    errors = [f"ERROR worker {i}: TimeoutError: job {i} exceeded 30s" for i in range(0, 600, 40)]
    steps = [f"STEP {i}: restored from /var/ckpt/{i}" for i in range(0, 600, 40)]
    lines = []
    for i in range(600):
        lines.append(f"INFO worker {i}: job {i} done in 12ms with a long enough line of padding")
        if i % 40 == 0:
            lines += [steps[i // 40], errors[i // 40]]
    output = "\n".join(lines) + "\n"
    rule = make(family="generic", failure={"head": 5, "tail": 5}, pin_patterns=["^STEP "])
    result = run(output, rule, exit_code=1, trace=True)
    text = result["inlineText"]
    assert result["trace"]["guard"]["widened"] > 0
    assert all(error in text for error in errors) and all(step in text for step in steps), text


def test_a_type_checkers_flood_of_one_kind_is_cut_by_code_not_widened_to_every_message():
    """400 errors of 4 codes, each message its own (a name, a type): the findings cut
    shows each code's first error and counts the rest by code with their places; the
    guard weighs that by each code's first error, not by every message, and does not
    widen the budget until the whole output is shown (a real 38 kB tsc run came back
    uncut)."""
    codes = {
        "TS7006": "Parameter '{}' implicitly has an 'any' type.",
        "TS2339": "Property '{}' does not exist on type 'SemVer'.",
        "TS2322": "Type '{}' is not assignable to type 'string'.",
        "TS7053": "Element '{}' implicitly has an 'any' type.",
    }
    lines = []
    for k in range(400):
        code = list(codes)[0 if k % 5 else k // 5 % 4]
        lines.append(f"src/mod{k % 37}.js({k + 1},{k % 9 + 1}): error {code}: {codes[code].format(f'name{k}')}")
    output = "\n".join(lines) + "\n"
    rule = make(family="lint", unit="finding", failure={"head": 5, "tail": 5})
    result = run(output, rule, exit_code=2, trace=True)
    text = result["inlineText"]
    assert result["trace"]["guard"]["widened"] == 0
    assert len(text) <= result["trace"]["budgetChars"] < len(output) / 3
    first = {code: next(line for line in lines if f" {code}: " in line) for code in codes}
    assert all(line.split("): ", 1)[1] in text for line in first.values()), text
    assert all(re.search(rf"\b\d+ more {code}\b", text) for code in ("TS7006",)), text


def test_an_exact_read_too_big_keeps_what_went_wrong_in_its_middle():
    lines = [
        f"2026-11-25 09:{i // 60:02d}:{i % 60:02d} INFO orders: order {i} reserved sku=SKU-{i:04d}" for i in range(2000)
    ]
    lines[1000] = "2026-11-25 09:16:40 ERROR orders: order 1000 failed while parsing payload"
    lines[1001:1001] = [
        "Traceback (most recent call last):",
        '  File "app.py", line 45, in parse',
        "KeyError: 'SKU-9999'",
    ]
    text = run("\n".join(lines) + "\n", command="cat app.log")["inlineText"]
    for needed in (
        "order 1000 failed",
        "Traceback (most recent call last):",
        'File "app.py", line 45',
        "KeyError: 'SKU-9999'",
    ):
        assert needed in text
    assert "order 0 reserved" in text and "order 1999 reserved" in text  # head and tail still
    pinned = guard.pin_trouble(
        ["ok", "WARNING disk at 91%", "Traceback (most recent call last):", "  File x", "ValueError: v", "after"]
    )
    assert [isinstance(line, Pinned) for line in pinned] == [False, True, True, True, True, False]


#: Runs of lines that make anchors, hide them, or carry state from line to line (an
#: error line's raise sites after it, a diff's lines), for the chunking property.
_RUNS = [
    ("E       KeyError: 'k1'", "src/app.py:12: in run", "lib/x.c:3:7: warning: unused"),
    ("FAILED tests/a.py::test_b - AssertionError", "--- FAIL: TestX (0.01s)", "not ok 3 - parses"),
    ("  ✗ renders the page", "3 failed, 12 passed in 0.31s", "0 errors"),
    ("diff --git a/a.py b/a.py", "@@ -1,2 +1,2 @@", " ValueError: context", "-    raise KeyError(x)", "+ KeyError"),
    ("  12 | let error = 1;", "ERROR worker 3: gave up", "ok", ""),
    ("  ━━━━ 40% İ", "panicked at src/main.rs:4:5", "tests/b.py:7"),
]


@settings(max_examples=300, deadline=None)
@given(
    runs=st.lists(st.tuples(st.integers(0, len(_RUNS)), st.integers(0, 3)), max_size=25),
    chunk=st.integers(1, 9),
    errors=st.booleans(),
    limit=st.integers(1, 12),
)
def test_anchors_read_a_chunk_at_a_time_find_what_one_pass_finds(runs, chunk, errors, limit):
    """Reading the lines a chunk at a time, and stopping at the chunk where the last
    anchor counted is, finds the same anchors in the same order as one pass over all."""
    items: list[object] = []
    for n, (run_, start) in enumerate(runs):
        items += [Omission(2)] if run_ == len(_RUNS) else [*_RUNS[run_][start:], f"x{n} FAILED t{n}.py::t - E"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(guard, "MAX_ANCHORS", limit)
        patch.setattr(guard, "CHUNK_LINES", 10**9)
        whole = guard.anchors([item for item in items if isinstance(item, str)], errors)
        patch.setattr(guard, "CHUNK_LINES", chunk)
        assert guard.anchors(items, errors) == whole


def test_anchors_stop_reading_at_the_chunk_where_the_last_anchor_counted_is(monkeypatch):
    lowered = Counted(guard.lowered_text)
    monkeypatch.setattr(guard, "lowered_text", lowered)
    lines = [f"E   ValueError: bad value {n}" for n in range(3 * guard.MAX_ANCHORS)]
    monkeypatch.setattr(guard, "CHUNK_LINES", 50)
    assert len(guard.anchors(lines)) == guard.MAX_ANCHORS
    assert lowered.calls == guard.MAX_ANCHORS // 50  # 4 chunks of 50 lines read, not 12


def test_help_text_the_agent_asked_for_is_not_widened_for_the_counts_its_prose_mentions():
    """pytest's own --help (`at least 2 tests are …`): the guard keeps what a failure is
    made of, and documentation that succeeded is none (`[summarize] guard = false`)."""
    import json
    import subprocess
    import sys

    text = subprocess.run([sys.executable, "-m", "pytest", "--help"], capture_output=True, text=True, check=True).stdout
    assert len(text) > 20_000 and guard.anchors(text.split("\n"), errors=False)  # a count in its prose
    done = tokenjuice("reduce", "--command", "pytest --help", "--exit-code", "0", "--json", "--trace", input=text)
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "generic/help"
    assert result["trace"]["budgetChars"] == 20_000 and "guard" not in result["trace"]
    assert len(result["inlineText"]) <= 20_000


DPKG_LINES = [  # dpkg -l on Debian 12
    "ii  libasan8:amd64                            12.2.0-14+deb12u1              amd64        AddressSanitizer -- a fast memory error detector",
    "ii  libcom-err2:amd64                         1.47.0-2                       amd64        common error description library",
    "ii  liberror-perl                             0.17029-2                      all          Perl module for error/exception handling in an OO-ish way",
]


def test_in_a_run_that_succeeded_an_error_line_needs_an_errors_shape():
    """Prose that names errors (a package's description) is no failure's anchor when the
    command succeeded; after a failure every error word still counts."""
    assert guard.anchors(DPKG_LINES, shaped=True) == []
    assert guard.anchors(DPKG_LINES) != []
    shaped = [
        "2023/10/10 10:00:00 [error] 123#0: *1 open() failed",
        "time=12:00 level=error msg=gave up",
        "Failed to start nginx.service - A high performance web server.",
        "E       KeyError: 'mango20'",
        "error[E0308]: mismatched types",
        "fatal: not a git repository",
        "Main process exited, code=exited, status=1/FAILURE",
    ]
    assert len(guard.anchors(shaped, shaped=True)) == len(shaped)


def test_the_guard_takes_the_least_room_between_its_steps_that_carries_as_many_anchors():
    """A step doubles the room; the anchors may fit in much less. The room between
    the step that carried them and the one before is tried, halving the gap twice:
    the least that carries every anchor the widest one did is shown."""
    output, errors = worker_log(1200, 10)
    rule = make(family="generic", summarize={"head": 5, "tail": 5}, failure={"head": 5, "tail": 5})
    result = run(output, rule, exit_code=1, trace=True)
    text, trace = result["inlineText"], result["trace"]
    assert all(error in text for error in errors), text
    assert trace["guard"]["kept"] == trace["guard"]["anchors"] > 0 and trace["guard"]["widened"] == 1
    assert trace["budgetChars"] < guard.WIDEN * 10000 and len(text) < 15000
