"""The tools corpus (tests/tools-corpus): 36 real results of MCP tools and of Claude
Code's own Grep and Glob, each with must-keep strings chosen blind from the raw output.

Through `tokenjuice.compact.compact_tool_result`, as the scorer runs it: the share of
must-keep strings kept does not fall below what this round measured, the shown text
stays under the measured share of the raw, small results pass unchanged, and an image
is never touched. (Issue 32's target is 97% kept at a ratio of 0.2. The first round
measured 86.6% at 0.096, losing middle rows of one-line Python reprs, middle entries
of listings and trees, and the middle of fetched pages. Now 97.9% at 0.154: arrays and
one-line list literals keep elements spread over them (their ends, their middle),
listings of paths and diffs without a `diff --git` line are found by content, and the
tool rules keep up to 10,000 characters. Still lost: the middle of a fetched one-line
page, a deep entry of a directory tree, and one changed line of a git MCP server's
`git_show` past the share of its file, which shows where its hunks are instead (the
commit's `commit` line stays since a commit and its patch read as one log).)"""

import importlib.util
import sys

import pytest
from conftest import REPO


def _scorer():
    """tests/tools-corpus/score.py under a name of its own: the shell corpus's scorer is
    `score` too, and a test process (an xdist worker) may have imported that one."""
    spec = importlib.util.spec_from_file_location("tools_corpus_score", REPO / "tests" / "tools-corpus" / "score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


score = _scorer()

#: 139 of 142 (issue 28): a long collection too big to show is named element by element
#: (`reduce/structured.py` `_outline`), so memory's read_graph shows all 155 entities
#: by name where it showed 10 of them whole, and loses one entity's docstring; a
#: directory tree is outlined folders first and names every file asked for.
#: 138 of 142 once the guard stopped taking prose for failures in a run that
#: succeeded: git_log's commit messages (`… failed …`, `error`) widened its 50 commits
#: to 19,433 characters; at its budget it shows the newest and oldest 18 and loses
#: two strings of the ninth commit. Keeping a newest-first log's start before its end
#: (or the tool's own `max_count` as the agent's bound) is the way back, not the guard.
#: 139 once the final clamp gave a page fetched as one line the budget's room; 140 once
#: a git MCP server's git_log was cut between commits, the newest first (tools/git-log):
#: the ninth commit is back, the oldest but one is counted.
KEPT_FLOOR = 0.985
#: Measured 0.167 once tools/text filled its budget with start and end lines rather than
#: 8 of each, 0.176 once every rule's head and tail did (a git_log of 50 commits shows 36
#: where it showed 24), 0.166 once the guard stopped widening for prose, 0.175 once the
#: final clamp gave the room to the lines it clips (a pydoc page fetched as one line of
#: 34 kB showed 513 characters of it, now 9,851, and `**walk**(self)`) (issue 32's
#: ceiling: 0.2).
RATIO_CEILING = 0.18


@pytest.fixture(scope="module")
def results():
    return {result.name: result for result in score.score()}


def test_the_corpus_keeps_its_must_keep_strings_at_the_measured_floor(results):
    listed = list(results.values())
    must = sum(r.must for r in listed)
    kept = must - sum(len(r.lost) for r in listed)
    assert len(listed) == 36
    assert kept / must >= KEPT_FLOOR, score.summary(listed)
    ratio = sum(r.shown_chars for r in listed) / sum(r.raw_chars for r in listed)
    assert ratio <= RATIO_CEILING, score.summary(listed)


def test_small_results_and_images_pass_unchanged(results):
    for name in ("mcp-everything-echo", "mcp-fs-list-directory-small", "mcp-sqlite-read-query-error"):
        assert results[name].shown_chars == results[name].raw_chars and not results[name].lost
    image = results["mcp-everything-tiny-image"]
    assert not image.lost and image.shown_chars == image.raw_chars


def test_the_scorer_prints_one_line(capsys):
    assert score.main([]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cases=36 must-keep=")
