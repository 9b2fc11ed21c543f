"""Body lines (tokenjuice.reduce.lines): the repeats de-duplication leaves alone."""

from itertools import pairwise

import conftest
import pytest
from helpers import make, run

from tokenjuice.reduce.lines import Omission, dedupe_adjacent

#: Real unified diffs whose added lines repeat (two blank lines added before each
#: definition) and whose context holds blank lines in pairs.
DIFFS = conftest.REPO / "tests" / "data" / "diffs"


def _hunk_lines(text):
    """The lines of the hunks of a unified diff, as many as each header counts."""
    body, old, new = [], 0, 0
    for line in text.split("\n"):
        if line.startswith("@@ -"):
            counts = [part.lstrip("-+").split(",") for part in line.split(" ")[1:3]]
            old, new = (int(c[1]) if len(c) > 1 else 1 for c in counts)
            continue
        if old or new:
            body.append(line.rstrip())
            old -= line[:1] in ("-", " ", "")
            new -= line[:1] in ("+", " ", "")
    return body


@pytest.mark.parametrize("name", ["ruff-format-diff.out", "diff-u-blank-pairs.out"])
def test_a_diffs_lines_that_repeat_are_no_repeats(name):
    """`+` twice adds two blank lines, ` ` twice is two lines of context: every line a
    hunk's header counts stays, in order."""
    raw = (DIFFS / name).read_text()
    items = [line.rstrip() for line in raw.split("\n")]
    assert any(a == b and a[:1] in "+ " for a, b in pairwise(items))  # there are such repeats
    deduped = dedupe_adjacent(items)
    assert _hunk_lines("\n".join(item for item in deduped if isinstance(item, str))) == _hunk_lines(raw)


def test_repeats_outside_a_hunk_still_go():
    """The same `+` and `-` lines with no hunk around them (a table's corners, a log's marks)."""
    items = ["== run ==", "+", "+", "+", "done", "-", "-", "ok"]
    deduped = dedupe_adjacent(items)
    assert [item for item in deduped if isinstance(item, str)] == ["== run ==", "+", "done", "-", "ok"]
    assert [item.count for item in deduped if isinstance(item, Omission)] == [2]


def test_a_diff_printed_by_a_formatter_is_shown_as_it_was():
    """Through a rule that de-duplicates (as ruff's does): the hunks come out whole."""
    raw = (DIFFS / "ruff-format-diff.out").read_text()
    shown = run(raw, make(), exit_code=1)["inlineText"]
    assert "+import os, sys\n+\n+\n+def f(a, b):" in shown
    assert _hunk_lines(shown) == _hunk_lines(raw)


def _java_example(name):
    """The output of one of task/java's examples (real: `java Orders.java`)."""
    import tomllib

    rule = tomllib.loads((conftest.REPO / "reducers" / "task" / "java.toml").read_text())
    (example,) = [e for e in rule["examples"] if e["name"].startswith(name)]
    return example["output"]


def test_a_recursions_cycle_of_frames_is_said_once():
    """A StackOverflowError through two toString methods repeats seven frames 26 times:
    they are said once, a marker counts the rest, and what it stands for is exactly the
    lines it replaced (the seven above, again and again)."""
    items = _java_example("StackOverflowError through two toString").rstrip("\n").split("\n")
    deduped = dedupe_adjacent(items)
    markers = [k for k, item in enumerate(deduped) if isinstance(item, Omission)]
    assert len(markers) == 1
    marker = deduped[markers[0]]
    assert marker.render() == f"... {marker.count} lines repeating the 7 above omitted ..."
    assert marker.count >= 7 * 20 and marker.count % 7 == 0
    block = deduped[markers[0] - 7 : markers[0]]
    expanded = deduped[: markers[0]] + block * (marker.count // 7) + deduped[markers[0] + 1 :]
    assert expanded == items
    assert "\tat Orders$Customer.toString(Orders.java:5)" in block


def test_a_block_said_twice_is_no_cycle():
    """Two frames said twice before each of 40 other lines: an output of repeats, looked
    at for cycles, but no block is said three times in a row, so nothing goes."""
    twice = ["\tat a(A.java:1)", "\tat b(B.java:2)"] * 2
    items = [line for k in range(40) for line in [*twice, f"job {k} failed"]]
    sample = items[::8]
    assert len(set(sample)) * 2 <= len(sample)  # looked at: most of the sampled lines repeat
    assert dedupe_adjacent(items) == items


def test_rows_a_diff_adds_again_and_again_are_no_cycle():
    """A real `git diff` adding the same four rows six times: every added row stays."""
    raw = (DIFFS / "git-diff-repeated-rows.out").read_text()
    items = raw.split("\n")
    assert dedupe_adjacent(items) == items


def test_marked_names_every_marker_it_adds_and_no_other():
    """The pipeline reuses the denoised lines' repeats by the positions `marked` gives
    (pipeline._remarked): a cycle's marker is one of them, as a run's is, and a marker
    already among the lines is not."""
    given = Omission(3, "3 lines")
    cycle = ["\tat a(A.java:1)", "\tat b(B.java:2)"] * 30
    items = ["start", given, "tick", "tick", "tick", "tick", *cycle, "end"]
    marked: list[int] = []
    deduped = dedupe_adjacent(items, marked)
    added = [k for k, item in enumerate(deduped) if isinstance(item, Omission) and item is not given]
    assert len(added) == 2  # the run of ticks and the cycle
    assert marked == added
    assert deduped[added[1]].render() == "... 58 lines repeating the 2 above omitted ..."
