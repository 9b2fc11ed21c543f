import json

from tokenjuice.reduce.formatters import git_diff, search
from tokenjuice.reduce.gh import gh
from tokenjuice.reduce.lines import render
from tokenjuice.rules.verify import unexplained_lines


def test_git_diff_keeps_headers_and_counts_clipped_hunk_lines():
    lines = ["diff --git a/x.py b/x.py", "--- a/x.py", "+++ b/x.py", "@@ -1,30 +1,30 @@"]
    lines += [f"-old {i}" for i in range(15)] + [f"+new {i}" for i in range(15)]
    lines += ["@@ -90 +90 @@", "+tail"]
    items, facts, note = git_diff(lines)
    text = render(items)
    assert text[:4] == lines[:4]
    assert "... hunk clipped: 15 added, 3 removed lines omitted ..." in text
    assert text[-2:] == ["@@ -90 +90 @@", "+tail"]
    assert facts == {} and note is None


def test_search_caps_matches_per_file_and_counts_files():
    lines = [f"src/a.py:{i}:match {i}" for i in range(1, 9)] + ["src/b.py:3:other", "README:5:x"]
    items, facts, _ = search(lines)
    text = render(items)
    assert text[:5] == lines[:5]
    assert "... 3 more lines in src/a.py omitted ..." in text
    assert "src/b.py:3:other" in text and "README:5:x" in text
    assert facts == {"file": 3}


def test_search_groups_git_grep_in_a_tree_and_context_separators():
    lines = [f"v20.0:packaging/utils.py:{i}:def f{i}():" for i in range(1, 4)]
    lines += ["v20.0:packaging/version.py:7:def parse():"]
    _, facts, _ = search(lines)
    assert facts == {"file": 2}
    context = ["a.py-1-ctx", "a.py:2:hit", "a.py-3-ctx", "--", "a.py-9-ctx", "a.py:10:hit", "a.py-11-ctx"]
    items, facts, _ = search(context)
    assert render(items) == context[:5] + ["... 2 more lines in a.py omitted ..."] and facts == {"file": 1}


def test_search_clips_minified_lines_but_keeps_the_location():
    line = "dist/app.min.js:1:" + "x" * 2000
    (clipped,), _, _ = search([line])
    assert clipped.startswith("dist/app.min.js:1:xxx") and "chars omitted]…" in clipped


def test_gh_records_and_status_checks():
    pr = {
        "number": 12,
        "title": "Add feature",
        "state": "OPEN",
        "headRefName": "feat",
        "id": "PR_1",
        "author": {"login": "bob"},
        "labels": [{"name": "bug"}, {"name": "ui"}],
        "body": "First line\n\nSecond line",
        "url": "https://github.com/o/r/pull/12",
        "statusCheckRollup": [
            {"name": "test", "conclusion": "FAILURE", "workflowName": "CI"},
            {"name": "lint", "status": "IN_PROGRESS", "conclusion": ""},
            *({"name": f"ok{i}", "conclusion": "SUCCESS"} for i in range(30)),
        ],
    }
    raw = json.dumps(pr, indent=2)
    items, facts, note = gh(raw.splitlines())
    text = render(items)
    assert text[:7] == [
        "number: 12",
        "title: Add feature",
        "state: OPEN",
        "headRefName: feat",
        "author: bob",
        "labels: bug, ui",
        "url: https://github.com/o/r/pull/12",
    ]
    assert "  name: test | workflowName: CI | conclusion: FAILURE" in text
    assert "... 30 passing checks omitted ..." in text
    assert text[text.index("body:") : text.index("body:") + 3] == ["body:", "  First line", "  Second line"]
    assert facts == {"check": 32, "failing check": 1, "pending check": 1}
    assert note and unexplained_lines(raw, "\n".join(text)) == []


def test_gh_joins_paginated_arrays_and_json_lines():
    items, _, _ = gh(['[{"number": 1, "title": "a"}][{"number": 2, "title": "b"}]'])
    assert render(items) == ["number: 1 | title: a", "number: 2 | title: b"]
    items, _, _ = gh(['{"number": 1}', '{"number": 2}'])
    assert render(items) == ["number: 1", "number: 2"]


def test_gh_leaves_non_json_alone():
    lines = ["12\tAdd feature\tfeat\tOPEN", "11\tFix\tfix\tMERGED"]
    assert gh(lines) == (lines, {}, None)
    assert gh(["[" * 50_000]) == (["[" * 50_000], {}, None)
