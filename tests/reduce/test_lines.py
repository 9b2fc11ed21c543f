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
