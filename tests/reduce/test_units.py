"""reduce/units.py: parsers split outputs into units; `fit` cuts between them."""

import itertools
import re

from conftest import REPO
from helpers import run
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduce.budget import SUCCESS_CHARS
from tokenjuice.reduce.lines import Omission, render
from tokenjuice.reduce.reencode import decoded
from tokenjuice.reduce.regions import regions
from tokenjuice.reduce.units import Unit, _render, fit, parse
from tokenjuice.rules.verify import unexplained_lines


def shown(items):
    return "\n".join(render(items))


def test_fit_compresses_inside_units_before_dropping_any():
    log = []
    for i in range(30):
        log += [
            f"commit {i:040x}",
            "Author: a <a@b>",
            "Date:   today",
            "",
            f"    Subject number {i}",
            "",
            "    A long body line that explains the change in far more words than anyone needs.",
            "",
        ]
    items = fit(parse("commit", log), 2000)
    text = shown(items)
    assert all(f"Subject number {i}" in text for i in range(30))
    assert len(text) <= 2000 and "beyond their hash and subject omitted" in text
    assert unexplained_lines("\n".join(log), text) == []


def test_dropped_units_are_counted_by_group():
    lines = ["NAME      READY   STATUS             RESTARTS   AGE"]
    lines += [f"web-{i:03d}   1/1     Running            0          5d" for i in range(200)]
    lines.insert(120, "api-crash  0/1     CrashLoopBackOff   12         5d")
    text = shown(fit(parse("row", lines), 1500))
    assert "api-crash" in text and "CrashLoopBackOff" in text  # the row in trouble is kept
    assert lines[0] in text and "more rows (" in text and " Running) omitted ..." in text


def test_every_matching_file_is_named_even_when_none_fits_whole():
    lines = [f"src/file_{f:03d}.py:{n}:    needle({n})" for f in range(120) for n in range(1, 6)]
    text = shown(fit(parse("match-file", lines), 4000))
    # each named in full (under its folder said once), or by its name with its count in its
    # folder's marker (`src/: file_007.py 5, …`)
    readable = decoded(text)
    assert all(f"src/file_{f:03d}.py" in readable or f"file_{f:03d}.py 5" in text for f in range(120))
    assert "... src/: " in text
    # matches are spread over the files, not spent on the first ones: the first and the
    # last files keep their matches, and files in between their first one
    readable = decoded(text)
    assert "src/file_000.py:1:    needle(1)" in readable and "src/file_119.py:5:    needle(5)" in readable
    assert sum(f"src/file_{f:03d}.py:1:" in readable for f in range(40, 80)) >= 3
    assert len(text) <= 4000 and unexplained_lines("\n".join(lines), text) == []


def test_a_flood_keeps_its_first_and_last_matches_and_a_spread_between():
    lines = [f"lib/m{f:03d}/mod.py:{n}:    x = check({f}, {n})" for f in range(300) for n in range(1, 8)]
    text = shown(fit(parse("match-file", lines), 6000))
    readable = decoded(text)
    # the head and the tail of the flood whole, and files all through it by a line each
    assert all(line in readable for line in lines[:8] + lines[-8:])
    assert sum(f"lib/m{f:03d}/mod.py:1:" in readable for f in range(100, 200)) >= 2
    # every file named with its count, the folders they share said once a run
    assert all(f"m{f:03d}/mod.py" in text for f in range(300))
    assert "... lib/: m" in text and "m150/mod.py 7" in text
    assert len(text) <= 6000 and unexplained_lines("\n".join(lines), text) == []


def test_a_flood_shows_the_projects_own_matches_before_vendored_ones():
    lines = [f"node_modules/lib{f}/index.js:{n}:  needle({n})" for f in range(80) for n in range(1, 9)]
    lines[300:300] = [f"src/app.js:{n}:  needle({n})" for n in (4, 40, 400)]
    lines += [f"vendor/x/{f}.go:1: needle()" for f in range(30)]
    text = shown(fit(parse("match-file", lines), 3000))
    assert all(f"  {n}:  needle({n})" in text for n in (4, 40, 400))  # every match of the project's file
    assert "node_modules/lib0/" in text and "vendor/x/" in text  # vendored files still named and counted


def test_a_diff_file_spends_the_room_on_its_changed_lines():
    diff = ["diff --git a/x.py b/x.py", "index 1..2 100644", "--- a/x.py", "+++ b/x.py", "@@ -1,3 +1,300 @@ def f():"]
    diff += [f"+line {i}" for i in range(300)] + [" context"]
    diff += ["diff --git a/y.py b/y.py", "--- a/y.py", "+++ b/y.py", "@@ -5 +5 @@", "-old", "+new"]
    text = shown(fit(parse("diff-file", diff), 600))
    # the file once (its path said once), then its first changed lines (past a few, with
    # their hunk header) and a count of the rest
    assert text.startswith("diff --git {a,b}/x.py\n@@ -1,3 +1,300 @@ def f():\n+line 0\n+line 1\n")
    assert "more changed lines omitted" in text
    assert re.search(r"diff --git \{a,b\}/y\.py\n(?:@@ .*\n)?-old\n\+new", text)  # the small file keeps all its changes
    assert "diff --git a/x.py b/x.py\n" in decoded(text)
    assert len(text) <= 600


def test_a_refactor_shows_one_change_of_every_file_rather_than_headers():
    diff = []
    for f in range(40):
        name = f"src/pkg/module_{f:02d}.py"
        diff += [f"diff --git a/{name} b/{name}", f"@@ -{f + 10},7 +{f + 10},7 @@ class Handler{f}:"]
        diff += ["     def run(self):", f"-        return old_api.call({f})", f"+        return new_api.call({f})"]
        diff += ["         pass", "", "     # end"]
    text = shown(fit(parse("diff-file", diff), 6000 - 160))
    assert all(f"+        return new_api.call({f})" in text for f in range(40))
    assert all(f"-        return old_api.call({f})" in text for f in range(40))


def test_every_file_of_a_big_diff_is_named():
    diff = []
    for f in range(60):
        name = f"src/module_{f:02d}.py"
        diff += [f"diff --git a/{name} b/{name}", f"--- a/{name}", f"+++ b/{name}", "@@ -1,3 +1,3 @@ def f():"]
        diff += ["     a = 1", f"-    b = {f}", f"+    b = {f + 1}", "     return a + b"]
    diff += ["diff --git a/old.py b/new.py", "similarity index 90%", "rename from old.py", "rename to new.py"]
    diff += ["diff --git a/logo.png b/logo.png", "new file mode 100644", "Binary files /dev/null and b/logo.png differ"]
    text = shown(fit(parse("diff-file", diff), 4000))
    assert all(f"src/module_{f:02d}.py" in text for f in range(60))  # no file dropped unnamed
    # files keep their changed lines, spread over the diff; the others are named with their counts
    assert "diff --git {a,b}/src/module_00.py\n-    b = 0\n+    b = 1" in text
    assert "diff --git {a,b}/src/module_59.py\n-    b = 59\n+    b = 60" in text
    assert text.count(": 1 hunk (+1 -1) omitted ...") >= 10
    assert len(text) <= 4000
    # a rename without hunks is said by its own lines, not a marker standing for them
    assert "rename from old.py\nrename to new.py" in text and "logo.png (new file)" in text
    assert unexplained_lines("\n".join(diff), text) == []


def test_a_unit_never_takes_a_form_bigger_than_the_one_it_has():
    lines = ["deploy/base:"] + [f"service-{i:02d}-configmap.yaml" for i in range(60)] + [""]
    for i in range(40):
        lines += [f"deploy/dev/svc{i:02d}:", "deployment.yaml", "service.yaml", ""]
    text = shown(fit(parse("dir", lines), 2500))
    # the big directory is shortened to its first entries and a spread; a small one is
    # whole or counted with its neighbours, never by a marker of its own that would
    # cost more than its names
    assert "deploy/base:\nservice-00-configmap.yaml" in text and "more entries omitted" in text
    assert "deploy/dev/svc39:\ndeployment.yaml\nservice.yaml" in text
    assert "entries in deploy/dev/svc" not in text
    assert all(f"svc{i:02d}" in text for i in range(40))
    assert len(text) <= 2500


def test_failing_tests_outlive_passing_ones():
    lines = [f"tests/test_a.py::test_ok_{i} PASSED" for i in range(300)]
    for i in range(10):
        lines += [
            f"____ test_bad_{i} ____",
            "",
            f"    def test_bad_{i}():",
            f">       assert {i} == {i + 1}",
            "E       assert 1 == 2",
        ]
    lines += ["==== 10 failed, 300 passed in 1.00s ===="]
    text = shown(fit(parse("test", lines), 1500))
    assert all(f"test_bad_{i}" in text for i in range(10))
    assert "10 failed, 300 passed" in text and "more passing tests omitted" in text
    # passing tests go before a failing test loses anything: every assertion stays
    assert all(f">       assert {i} == {i + 1}" in text for i in range(10))


def test_a_failing_test_keeps_the_message_of_its_failure_and_its_file():
    jest = ["FAIL tests/coupon.test.js", "  ● applyCoupon › never goes below zero"]
    jest += ["    expect(received).toBe(expected) // Object.is equality", "    Expected: 0", "    Received: -2"]
    jest += ["    > 6 |   expect(applyCoupon(3, coupon)).toBe(0);", "      at Object.toBe (tests/coupon.test.js:6:9)"]
    jest += ["FAIL tests/merge.test.js", "  ● shipping › ships to the Netherlands", "    no shipping to NL"]
    jest += ["    > 18 |   if (!(country in free)) throw new Error(`no shipping to ${country}`);"]
    jest += ["      at shipping (src/cart.js:18:33)", "Test Suites: 2 failed, 2 total"]
    parsed = parse("test", jest)
    assert "FAIL tests/merge.test.js" in parsed  # a file's result line ends the block before it
    first, second = (part for part in parsed if isinstance(part, Unit))
    assert list(first.short) == jest[1:5] and list(second.short) == jest[8:10]
    cargo = ["---- tests::fee stdout ----", "thread 'tests::fee' panicked at src/lib.rs:95:76:"]
    cargo += ["assertion `left == right` failed: a transfer above 100.00 costs 1%", "  left: 0", " right: -100"]
    cargo += ["note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace", "failures:"]
    (unit,) = (part for part in parse("test", cargo) if isinstance(part, Unit))
    assert list(unit.short) == cargo[:5]


def test_a_block_the_summary_names_may_go_whole_and_one_failure_of_each_test_stays():
    lines = ["=" * 20 + " FAILURES " + "=" * 20]
    for case in range(12):
        lines += [
            f"____ test_discount[{case}] ____",
            "tests/test_d.py:10: in test_discount",
            f"E   assert {case} == {case + 1}",
        ]
    lines += ["____ test_region ____", "tests/test_t.py:4: in test_region", "E   KeyError: 'CH'"]
    lines += ["=" * 20 + " short test summary info " + "=" * 20]
    lines += [f"FAILED tests/test_d.py::test_discount[{case}] - assert {case} == {case + 1}" for case in range(12)]
    lines += ["FAILED tests/test_t.py::test_region - KeyError: 'CH'", "13 failed in 0.10s"]
    text = shown(fit(parse("test", lines), 1300))
    assert "E   assert 0 == 1" in text and "E   KeyError: 'CH'" in text  # one failure of each test, with its message
    assert "listed in the summary) omitted ..." in text and "E   assert 11 == 12" not in text
    assert all(f"FAILED tests/test_d.py::test_discount[{case}]" in text for case in range(12))


def test_a_run_of_titles_alone_says_so():
    lines = []
    for i in range(40):
        lines += [f"____ test_bad_{i} ____", f">       assert {i} == {i + 1}", "E       assert 1 == 2"]
    text = shown(fit(parse("test", lines), 1200))
    assert "____ test_bad_39 ____" in text and "beyond their title omitted" in text


def test_of_rows_in_trouble_that_differ_only_in_numbers_the_first_stands_for_the_others():
    lines = ["CONTAINER ID   IMAGE        STATUS                      NAMES"]
    lines += [f"{i:012x}   shop/job:1   Exited (1) {i} seconds ago   shop-job-run-{i:02d}" for i in range(30, 0, -1)]
    lines += ["0000000000aa   shop/mailer  Restarting (1) 2 seconds ago   shop-mailer-1"]
    lines += ["0000000000bb   shop/api     Up 5 minutes (unhealthy)    shop-api-canary"]
    lines += [f"{i:012x}   shop/web:1   Up 5 minutes                web-{i}" for i in range(200, 210)]
    text = shown(fit(parse("row", lines), 1200))
    assert "shop-mailer-1" in text and "shop-api-canary" in text and "shop-job-run-30" in text
    assert "shop-job-run-01" not in text and "more rows (" in text


def test_git_status_paths_are_grouped_by_state():
    lines = ["On branch main", "Untracked files:"] + [f"\tgen_{i}.go" for i in range(300)]
    lines += ["Changes not staged for commit:", "\tmodified:   important.py"]
    parsed = parse("path", lines)
    assert {u.group for u in parsed if isinstance(u, Unit)} == {"untracked", "modified"}
    text = shown(fit(parsed, 1000))
    assert "modified:   important.py" in text and "more paths (" in text


def test_units_never_cut_a_line_they_keep():
    lines = ["CONTAINER ID   STATUS   NAMES"] + [f"{i:012x}   Up 1 hour   name_{i} " + "x" * 500 for i in range(20)]
    items = fit(parse("row", lines), 3000)
    assert all(item in lines or isinstance(item, Omission) for item in items)


def test_a_big_json_document_stays_valid_json():
    import json

    from conftest import reduce_wire, rule_of

    fallback = rule_of("generic/fallback", family="generic", match={})
    doc = {
        "items": [
            {"name": f"pod-{i}", "status": {"phase": "Running", "ready": True}, "labels": {"app": "web"}}
            for i in range(400)
        ],
        "kind": "List",
        "description": "x" * 5000,
    }
    text = reduce_wire([fallback], command="kubectl get pods -o json", combined=json.dumps(doc), exit_code=0)
    lines = text["inlineText"].rsplit("\n(tokenjuice:", 1)[0].split("\n")
    markers = [line for line in lines if line.startswith("... ") and line.endswith(" omitted ...")]
    # cut between its elements, each shown one valid JSON value, markers on lines of their own
    pruned = json.loads("\n".join(line for line in lines if line not in markers))
    assert pruned["kind"] == "List" and pruned["items"][0]["name"] == "pod-0"
    assert pruned["items"][-1]["name"] == "pod-399"  # the last elements too: the newest are often last
    # spread over the array: its middle shown, each run left out counted where it was
    names = [item["name"] for item in pruned["items"]]
    assert {"pod-199", "pod-200"} <= set(names)
    runs = [re.match(r"^\.\.\. items? (\d+)(?:–(\d+))? of 400 in \.items omitted", m) for m in markers]
    left = sum(int(found.group(2) or found.group(1)) - int(found.group(1)) + 1 for found in runs if found)
    assert len(names) + left == 400
    assert "chars omitted" in pruned["description"] and len(text["inlineText"]) <= SUCCESS_CHARS


def test_a_rule_made_for_tables_still_cuts_json_between_values():
    import json

    from conftest import reduce_wire, rule_of

    table = rule_of("package/pip-list", family="package-manager", match={"argv0": ["pip"]}, unit="row")
    packages = json.dumps([{"name": f"package-{i}", "version": f"1.{i}.0"} for i in range(300)])
    text = reduce_wire([table], command="pip list --format=json", combined=packages, exit_code=0)["inlineText"]
    lines = text.rsplit("\n(tokenjuice:", 1)[0].split("\n")
    markers = [line for line in lines if line.startswith("... ") and line.endswith(" omitted ...")]
    pruned = json.loads("\n".join(line for line in lines if line not in markers))  # whole elements, not clipped
    assert pruned[0] == {"name": "package-0", "version": "1.0.0"} and pruned[-1] == {
        "name": "package-299",
        "version": "1.299.0",
    }
    # elements spread over the array (its ends, its middle), each run left out counted
    assert markers and all(re.match(r"^\.\.\. items? \d+(?:–\d+)? of 300 omitted \.\.\.$", m) for m in markers)
    assert {"name": "package-150", "version": "1.150.0"} in pruned


def test_json_lines_and_csv_lose_whole_rows_only():
    from conftest import reduce_wire, rule_of

    fallback = rule_of("generic/fallback", family="generic", match={})
    rows = "\n".join(f'{{"id": {i}, "message": "{"m" * 300}"}}' for i in range(200)) + "\n"
    text = reduce_wire([fallback], command="tool", combined=rows, exit_code=0)["inlineText"]
    body = [line for line in text.splitlines() if line.startswith("{")]
    assert body and all(line.endswith('"}') for line in body)  # no row cut in its middle
    assert "rows omitted" in text
    csv = "name,version,license\n" + "".join(f"package-{i},1.{i}.0,MIT\n" for i in range(500))
    text = reduce_wire([fallback], command="tool", combined=csv, exit_code=0)["inlineText"]
    assert text.startswith("name,version,license\npackage-0,1.0.0,MIT") and "package-499,1.499.0,MIT" in text
    quoted = "id,status,response\n" + "".join(
        f'{i},422,"{{""error"":""validation_failed"",""details"":[{"x" * 300},{i}]}}"\n' if i % 3 else f"{i},200,ok\n"
        for i in range(60)
    )
    text = reduce_wire([fallback], command="tool", combined=quoted, exit_code=0)["inlineText"]
    assert text.startswith("id,status,response\n0,200,ok") and "rows omitted" in text
    assert "chars omitted" not in text  # a row whose quoted field holds the delimiter is still one whole row


def test_a_row_too_big_for_the_room_left_does_not_stop_the_other_end():
    import json

    from conftest import reduce_wire, rule_of

    fallback = rule_of("generic/fallback", family="generic", match={})
    rows = ['{"type":"version","message":"Terraform 1.11.4"}']
    rows += [json.dumps({"type": "planned_change", "message": f"create {i}", "pad": "p" * 400}) for i in range(40)]
    rows += ['{"type":"change_summary","message":"Plan: 40 to add, 0 to change, 0 to destroy."}']
    rows += [
        json.dumps({"type": "diagnostic", "message": "Warning: Value for undeclared variable", "detail": "d" * 600})
    ]
    text = reduce_wire([fallback], command="tool", combined="\n".join(rows), exit_code=0)["inlineText"]
    assert "Terraform 1.11.4" in text and "Plan: 40 to add" in text and "Value for undeclared variable" in text
    assert "chars omitted" not in text


def test_a_verbose_test_run_keeps_every_passing_id_grouped_by_file():
    from tokenjuice.rules import index

    rule = index.load(str(REPO), builtin_only=True).body("tests/pytest")
    listing = [f"tests/test_shop.py::test_case_{n} PASSED{' ' * 30}[{n:3d}%]" for n in range(60)]
    listing += ["tests/test_shop.py::test_bad FAILED                    [ 61%]"]
    listing += [f"tests/test_util.py::test_u_{n} PASSED                    [{n:3d}%]" for n in range(30)]
    output = "\n".join(listing + ["", "=== short test summary info ===", "FAILED tests/test_shop.py::test_bad - x"])
    output += "\n=== 1 failed, 90 passed in 0.50s ===\n"
    verbose = run(output, rule, exit_code=1, command="python -m pytest -v")["inlineText"]
    assert "tests/test_shop.py::test_case_{0..59} PASSED" in verbose  # a run of numbered ids: a range
    assert "tests/test_util.py::test_u_{0..29} PASSED" in verbose and "tests/test_shop.py::test_bad FAILED" in verbose
    assert decoded(verbose).count(" PASSED") == 90  # every id, losslessly
    params = "\n".join(f"t.py::test_p[{k}] PASSED" for k in (1, 2, 3, 7)) + "\nt.py::test_q[a-b] PASSED\n"
    params += "".join(f"t.py::test_fill_{k} PASSED\n" for k in range(40)) + "=== 45 passed in 0.1s ===\n"
    shown_params = run(params, rule, command="pytest -v")["inlineText"]
    assert "t.py::test_p[{1,2,3,7}] PASSED" in shown_params and "t.py::test_q[a-b] PASSED" in shown_params
    quiet = run(output, rule, exit_code=1, command="python -m pytest")["inlineText"]
    assert "test_case_1" not in quiet and "FAILED tests/test_shop.py::test_bad" in quiet  # not asked for


def test_go_test_v_verdicts_of_one_time_share_a_brace_list_tests_and_subtests_alike():
    """go test -v prints a line a passing test and a line a subtest under its failing
    test; neighbours with the same time say it once (`--- PASS: {TestA,TestB} (0.00s)`,
    `    --- PASS: TestRead/{Simple,CRLF} (0.00s)`), read back line for line. Repeated
    lines the run printed (an example's output) leave a marker, and the units between
    the markers still take their lossless forms."""
    from tokenjuice.rules import index

    raw = (REPO / "tests" / "scenarios" / "go-test-v-inv.out").read_text()
    rule = index.load(str(REPO), builtin_only=True).body("tests/go-test")
    text = run(raw, rule, exit_code=1, command="go test -count=1 -v ./...")["inlineText"]
    assert "    --- PASS: TestRead/{Simple,CRLF,BareCR,RFC4180test," in text
    assert (
        "--- PASS: {TestWrite,TestError,ExampleReader," in text and "    --- FAIL: TestRead/TrimSpace (0.00s)" in text
    )
    verdicts = [line for line in raw.splitlines() if re.match(r"^\s*--- (?:PASS|SKIP): ", line)]
    readable = decoded(text).splitlines()
    assert len(verdicts) > 90 and all(line in readable for line in verdicts)
    assert len(text) < len(raw) / 2 and not unexplained_lines(raw, text, rule)


def test_a_removed_line_goes_with_the_line_that_replaces_it():
    diff = []
    for f in range(50):
        name = f"lib/fixes/fix_{f:02d}.py"
        diff += [f"diff --git a/{name} b/{name}", "@@ -10,3 +10,3 @@", f"-class Fix{f}(fixer_base.BaseFix):"]
        diff += [f"+class Fix{f}(fixer_base.Fixer):"]
    text = shown(fit(parse("diff-file", diff), 3000))
    for f in range(50):
        assert (f"-class Fix{f}(" in text) == (f"+class Fix{f}(" in text)  # never one side of a change alone


def test_a_change_shows_its_first_removed_and_first_added_lines_and_marks_those_between():
    diff = []
    for f in range(20):
        name = f"src/cli/spinner_{f:02d}.py"
        diff += [f"diff --git a/{name} b/{name}", f"@@ -220,12 +220,7 @@ def hidden_cursor_{f}():", "     pass"]
        diff += [
            f"-    if WINDOWS_{f}:",
            "-        yield",
            "-    # We don't want to clutter the output with control characters",
        ]
        diff += ["-    # writing to a file, or if the user is running with --quiet.", "-    elif not file.isatty():"]
        diff += [
            f"+    if WINDOWS_{f} or not file.isatty() or logger.getEffectiveLevel() > logging.INFO:",
            "         yield",
        ]
    text = shown(fit(parse("diff-file", diff), 4000))
    for f in range(20):  # every file the first line of each side, where they are
        first, replaced = f"-    if WINDOWS_{f}:\n", f"+    if WINDOWS_{f} or not file.isatty()"
        assert first in text and replaced in text
        assert re.search(
            re.escape(first) + r"(?:-.*\n)*\.\.\. \d+ more changed lines? omitted \.\.\.\n" + re.escape(replaced), text
        )
    assert len(text) <= 4000 and not unexplained_lines("\n".join(diff), text)
    # a line between no longer than the marker that would stand for it is shown instead
    diff = [
        "diff --git a/g.py b/g.py",
        "@@ -98,5 +98,4 @@",
        "-    else:",
        '-        return ("glibc", v)',
        '+    return ("glibc", v)',
    ]
    diff += [f"+    extra_{k} = {k}" for k in range(40)]
    text = shown(fit(parse("diff-file", diff), 200))
    assert '-    else:\n-        return ("glibc", v)\n+    return ("glibc", v)\n' in text


def test_a_changed_line_is_kept_whole_up_to_a_generous_cap():
    row = "| `tests/bun-test` | " + "argv0 `bun`, any of: subcommand `test`; " * 12 + "| 4 | 0.28 |"
    huge = "+" + "x" * 5000
    diff = [
        "diff --git a/docs/r.md b/docs/r.md",
        "@@ -1,3 +1,3 @@",
        " context " * 60,
        "-" + row,
        "+" + row + " new |",
        huge,
    ]
    diff += [f"diff --git a/m{f}.py b/m{f}.py" for f in range(3)]
    text = shown(fit(parse("diff-file", diff), 4000))
    assert len(row) > 400 and "-" + row in text and "+" + row + " new |" in text
    assert "+" + "x" * 1000 in text and huge not in text  # clipped only past 2,000 chars
    clipped = [line for line in text.split("\n") if " context " in line]
    assert all(len(line) < 400 for line in clipped)  # a context line is no content: clipped early


def test_a_log_with_patches_shares_the_room_between_its_commits():
    lines = []
    for c in range(4):
        lines += [f"commit {c:040x}", "Author: A <a@b.c>", "Date:   Fri Nov 27 12:00:00 2026 +0000", ""]
        lines += [f"    change number {c}", ""]
        for f in range(3):
            lines += [f"diff --git a/m{c}_{f}.py b/m{c}_{f}.py", "@@ -1,40 +1,40 @@"]
            lines += [f"-old {c}.{f}.{k}" if k % 2 == 0 else f"+new {c}.{f}.{k}" for k in range(40)]
    text = shown(fit(parse("commit", lines), 2500))
    assert all(f"    change number {c}" in text and f"diff --git {{a,b}}/m{c}_0.py" in text for c in range(4))
    # every file of every commit keeps its first changes, and a count of the rest
    assert all(f"-old {c}.{f}.0" in text for c in range(4) for f in range(3))
    assert "more changed lines" in text and len(text) <= 2500


def test_a_log_counts_its_commits_shortened_in_one_marker_past_their_files():
    lines = []
    for c in range(6):
        lines += [f"commit {c:040x}", "Author: A <a@b.c>", "Date:   Fri Nov 27 12:00:00 2026 +0000", ""]
        lines += [f"    change number {c}", "", "    Longer explanation of the change.", ""]
        for f in range(2):
            lines += [f"diff --git a/m{c}_{f}.py b/m{c}_{f}.py", "@@ -1,5 +1,5 @@ def f():", "     context one"]
            lines += [f"-    old = {c}{f}", f"+    new = {c}{f}", "     context two"]
    text = shown(fit(parse("commit", lines), 1800))
    assert all(f"-    old = {c}{f}\n+    new = {c}{f}" in text for c in range(6) for f in range(2))
    # one marker for the commits' bodies after the files, not one at each switch
    assert text.count("(author, date and message body) omitted") == 1
    assert "... 24 lines of 4 commits (author, date and message body) omitted ..." in text


def test_a_marker_is_never_longer_than_the_lines_it_stands_for():
    from tokenjuice.reduce.units import DROPPED, _render

    parsed = parse(
        "path", ["Untracked files:", "\tx", "\tnotes/a much longer name for a file that says a lot about it.md"]
    )
    short = shown(_render(parsed, {1: DROPPED, 2: 0}))
    assert (
        short == "Untracked files:\n\tx\n\tnotes/a much longer name for a file that says a lot about it.md"
    )  # cheaper shown than counted
    long = shown(_render(parsed, {1: DROPPED, 2: DROPPED}))
    assert long == "Untracked files:\n... 2 more paths (2 untracked in ./ 1, notes/ 1) omitted ..."


def test_a_unified_diff_without_git_headers_and_a_listing_of_paths_are_found_by_content():
    from tokenjuice.reduce.regions import regions
    from tokenjuice.reduce.units import Unit

    diff = ["--- a/src/one.py", "+++ b/src/one.py", "@@ -1,2 +1,2 @@", "-old", "+new"]
    diff += ["--- a/src/two.py", "+++ b/src/two.py", "@@ -3 +3 @@", "-x = 1", "+x = 2"]
    listing = [f"/srv/app/pkg{k}/mod{j}.py" for k in range(3) for j in range(4)]
    parsed, found = regions(["Diff:", *diff, "", *listing])
    assert [kind for kind, _ in found] == ["diff", "paths"]
    files = [part for part in parsed if isinstance(part, Unit) and part.kind == "file"]
    assert [unit.short[0] for unit in files] == ["{--- a,+++ b}/src/one.py", "{--- a,+++ b}/src/two.py"]
    assert sum(1 for part in parsed if isinstance(part, Unit) and part.kind == "directory") == 3


def test_generated_code_goes_before_the_projects_own():
    lines = [f"api/v1/service_pb2.py:{n}:    _descriptor.FieldDescriptor(name='timeout_{n}')" for n in range(1, 120)]
    lines += [f"src/schema.generated.ts:{n}:  timeout_{n}: number;" for n in range(1, 120)]
    lines += ["src/client.py:17:    def __init__(self, timeout=30):", "src/client.py:41:        self.timeout = timeout"]
    text = shown(fit(parse("match-file", lines), 2000))
    assert "src/client.py:\n  17:    def __init__(self, timeout=30):\n  41:        self.timeout = timeout" in text
    assert "service_pb2.py" in text and "schema.generated.ts" in text  # named, with their counts


def test_a_folder_shown_in_part_keeps_its_names_in_one_brace_list():
    lines = [f"./pkg/mod_{k:03d}.py" for k in range(400)] + [
        f"./pkg/sub{d}/x_{k}.py" for d in range(30) for k in range(4)
    ]
    text = shown(fit(parse("dir", lines), 3000))
    # the first entries, their folder said once over them and its subfolders'
    assert "./pkg/:\n  {mod_000.py,mod_001.py," in text and "\n  sub29/{x_0.py," in text
    assert "mod_399.py" in decoded(text)  # and the last
    assert re.search(r"\n  \.\.\. \d+ more entries in \./ omitted \.\.\.\n", text)  # the folder said once
    assert all(f"sub{d}/" in text for d in range(30))  # every folder named with its count
    assert len(text) <= 3000 and unexplained_lines("\n".join(lines), text) == []


def test_ls_r_sections_shown_in_part_keep_the_blank_line_before_them():
    """`ls -R` parts its sections with a blank line: a section shown (whole, in part,
    sampled) keeps the one before it; a section left out takes its own with it."""
    lines = [".:", *(f"pkg_{d:02d}" for d in range(20))]
    for d in range(20):
        lines += ["", f"./pkg_{d:02d}:", *(f"module_{k}.py" for k in range(80)), "sub"]
    text = shown(fit(parse("dir", lines), 4000))
    headers = [k for k, line in enumerate(text.split("\n")) if line.startswith("./pkg_")]
    assert len(headers) > 5 and all(text.split("\n")[k - 1] == "" for k in headers)
    assert "\n\n\n" not in text and "omitted" in text
    assert unexplained_lines("\n".join(lines), text) == []


def test_a_folder_alone_in_its_marker_shows_its_brace_list_when_that_is_no_longer():
    from tokenjuice.reduce.units import MINIMAL, _render

    lines = [f"./deep/folder/name/{n}.py" for n in ("a", "b")]
    parsed = parse("dir", lines)
    text = shown(_render(parsed, {0: MINIMAL}))
    assert text == "./deep/folder/name/{a.py,b.py}"  # the marker would take more and name nothing
    many = [f"./deep/folder/name/module_with_a_long_name_{n}.py" for n in range(3)]
    marker = shown(_render(parse("dir", many), {0: MINIMAL}))
    assert marker == "... ./deep/folder/name/: 3 entries omitted ..."


def _diff_of(files, hunks=1, changes=2):
    diff = []
    for f in range(files):
        diff += [f"diff --git a/pkg/mod{f}.py b/pkg/mod{f}.py"]
        for h in range(hunks):
            diff += [f"@@ -{10 * h + 1},7 +{10 * h + 1},7 @@ def function_{f}_{h}():", "     context"]
            diff += [f"-    old_{f}_{h}_{k} = 1" for k in range(changes)]
            diff += [f"+    new_{f}_{h}_{k} = 2" for k in range(changes)]
    return diff


def test_a_file_shows_its_first_hunk_header_with_more_than_its_first_changes():
    diff = _diff_of(12, hunks=3)
    # too little room for more than a few changed lines a file: every file its first
    # change, no hunk header
    text = shown(fit(parse("diff-file", diff), 1500))
    assert "@@" not in text and all(f"-    old_{f}_0_0 = 1" in text for f in range(12))
    # room for more: each file's first hunk header comes with its lines, the other
    # headers only get what every file's changed lines leave; context still gone
    text = shown(fit(parse("diff-file", diff), 3400))
    for f in range(12):
        assert f"def function_{f}_0():" in text and f"-    old_{f}_1_0 = 1" in text
        assert f"def function_{f}_1():" not in text
    assert " context" not in text and len(text) <= 3400
    # room for all of it but the context: every hunk header with its lines
    text = shown(fit(parse("diff-file", diff), 4800))
    assert all(f"def function_{f}_{h}():" in text for f in range(12) for h in range(3))


def test_a_file_shown_with_all_its_changed_lines_shows_where_they_are():
    diff = []
    for f in range(10):
        name, pins = f"src/tool/part_{f}.py", f"tests/golden/pins_{f}.json"
        diff += [
            f"diff --git a/{name} b/{name}",
            f"@@ -{40 + f},8 +{40 + f},8 @@ def main_{f}(argv: list[str]) -> int:",
        ]
        diff += [
            "     return 0",
            f'-    """The process {f}, then its code."""',
            f'+    """The process {f}: its code."""',
        ]
        diff += [f"diff --git a/{pins} b/{pins}", f"@@ -{500 + f},40 +{500 + f},40 @@"]
        diff += [f'-"case {f}.{k}": "{k:016x}",' for k in range(40)]
        diff += [f'+"case {f}.{k}": "{k + 1:016x}",' for k in range(40)]
    text = shown(fit(parse("diff-file", diff), 4000))
    for f in range(10):  # a small file whole with its hunk header, not a big file's third line instead
        assert f'def main_{f}(argv: list[str]) -> int:\n-    """The process {f}, then its code."""\n' in text
        assert f'"case {f}.0": "0000000000000001",' in text
    assert len(text) <= 4000 and not unexplained_lines("\n".join(diff), text)
    # where not every file gets its first change, no file pays for a header
    text = shown(fit(parse("diff-file", diff), 1800))
    assert "@@" not in text and text.count('"""The process') > 4


def test_git_status_keeps_the_first_and_last_paths_of_each_state_in_each_section():
    lines = ["On branch main", "Changes to be committed:"]
    lines += [f"\tmodified:   src/core/staged_{i:03d}.py" for i in range(80)]
    lines += ["", "Changes not staged for commit:"]
    lines += [f"\tmodified:   src/core/unstaged_{i:03d}.py" for i in range(300)]
    lines += [f"\tdeleted:    src/core/gone_{i:03d}.py" for i in range(60)]
    lines += ["", "Untracked files:", "\tnotes.md"] + [f"\ttools/new_{i:03d}.py" for i in range(120)]
    text = decoded(shown(fit(parse("path", lines), 3000)))
    for name, count in (("staged", 80), ("unstaged", 300), ("gone", 60), ("new", 120)):
        first, last = f"{name}_000.py", f"{name}_{count - 1:03d}.py"
        assert first in text and last in text, name  # the ends of every group, staged apart from unstaged
    assert "notes.md" in text and "more paths (" in text
    # a state with a handful of paths is never cut into: its marker would be longer
    few = ["Changes not staged for commit:"] + [f"\tmodified:   f{i}.txt" for i in range(4)]
    few += ["Untracked files:"] + [f"\tsrc_{i:02d}.py" for i in range(60)]
    text = shown(fit(parse("path", few), 300))
    assert "\tmodified:   {f0,f1,f2,f3}.txt" in text


def test_a_commit_followed_by_its_patch_without_git_headers_reads_as_one_log():
    # a git MCP server's git_show: the commit, then `--- a/P` / `+++ b/P` files
    lines = ["commit " + "ab" * 20, "Author: A <a@b.c>", "Date:   2026-12-06", "", "    fix the parser", ""]
    for f in range(20):
        lines += [f"--- a/src/m{f}.py", f"+++ b/src/m{f}.py", "@@ -1,3 +1,3 @@"]
        lines += [f"-old {f}.{k}" if k % 2 == 0 else f"+new {f}.{k}" for k in range(30)]
    parsed, found = regions(lines)
    assert [kind for kind, _ in found] == ["commits"]
    text = shown(fit(parsed, 2500))
    # its own lines, not a derived one (its author and date too: they take less room than a marker saying so)
    assert text.startswith("commit " + "ab" * 20 + "\n") and "\n    fix the parser\n" in text
    assert all(f"-old {f}.0" in text for f in range(20))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_every_test_block_start_holds_one_of_the_hints_it_is_looked_for_by(data):
    from tokenjuice.reduce import testruns

    source = data.draw(st.sampled_from(testruns._TEST_BLOCK_SOURCES))
    line = data.draw(st.from_regex(source, fullmatch=True).filter(lambda line: "\n" not in line))
    assert testruns._ANY_TEST_BLOCK.match(line)
    assert any(hint in line for hint in testruns._BLOCK_HINTS), (source, line)


def test_test_blocks_and_passing_lines_are_found_among_lines_that_hold_neither():
    lines = [f"   Compiling crate_{i} v0.1.{i}" for i in range(500)]
    lines[100:100] = ["_____ test_a _____", "E   assert 1 == 2", "", "tests/a.py:3: AssertionError", "=" * 20]
    lines[300:300] = ["tests/b.py::test_b PASSED", "  1) renders the page"]
    parsed = parse("test", lines)
    assert [part.kind for part in parsed if isinstance(part, Unit)] == ["failing test", "passing test", "failing test"]
    assert sum(len(part.lines) if isinstance(part, Unit) else 1 for part in parsed) == len(lines)
    compiling = [f"   Compiling crate_{i} v0.1.{i}" for i in range(295)]  # the rest are in mocha's block
    assert [part for part in parsed if isinstance(part, str)] == [*compiling[:100], "=" * 20, *compiling[100:]]


def test_a_block_moved_within_a_file_comes_after_the_changes_that_say_something_new():
    imports = ["TYPE_CHECKING = False", "if TYPE_CHECKING:", "    from typing import Any", ""]
    diff = []
    for f in range(8):
        diff += [f"diff --git a/pkg/m{f}.py b/pkg/m{f}.py", "@@ -12,16 +12,16 @@ from __future__ import annotations"]
        diff += [" import os", *("-" + line for line in imports), " from .errors import UsageError"]
        diff += [*("+" + line for line in imports), " _NAMES = ()"]
        diff += [f"@@ -113,7 +113,7 @@ def hint_{f}(execution):", "     if execution.argv:"]
        diff += [f'-        return "wrap --raw -- " + join(execution.argv_{f})']
        diff += [f'+        return "wrap --raw -- " + join(list(execution.argv_{f}))', "     return None"]
    text = shown(fit(parse("diff-file", diff), 1600))
    for f in range(8):  # every file its real change, the block it only moved left for a marker
        assert f'-        return "wrap --raw -- " + join(execution.argv_{f})' in text
        assert f'+        return "wrap --raw -- " + join(list(execution.argv_{f}))' in text
    assert text.count("-TYPE_CHECKING = False") < 8 and "+TYPE_CHECKING = False" not in text
    assert len(text) <= 1600 and not unexplained_lines("\n".join(diff), text)


def test_a_file_shows_its_first_removed_and_first_added_lines_first():
    diff = []
    for f in range(6):
        diff += [f"diff --git a/src/p{f}.py b/src/p{f}.py", f"@@ -606,15 +606,35 @@ def _tempfilepager_{f}("]
        diff += [
            "         os.unlink(f.name)",
            *(f"+    helper_{f}_{k} = {k}" for k in range(15)),
            " @contextlib.contextmanager",
        ]
        diff += [f'-    """Simply print unformatted text {f}."""', f'+    """Simply print the text {f} unformatted."""']
        diff += ["     encoding = get_best_encoding(stream)"]
    text = shown(fit(parse("diff-file", diff), 1800))
    for f in range(6):  # an added block first, then the first change that removes a line
        assert f"+    helper_{f}_0 = 0" in text
        assert f'-    """Simply print unformatted text {f}."""' in text
        assert f'+    """Simply print the text {f} unformatted."""' in text
    assert len(text) <= 1800 and not unexplained_lines("\n".join(diff), text)


@settings(max_examples=200, deadline=None)
@given(
    parsed=st.lists(st.one_of(st.text(max_size=30), st.builds(Omission, st.integers(1, 9))), max_size=30),
    available=st.integers(0, 400),
)
def test_lines_without_a_unit_fit_as_they_are(parsed, available):
    """`fit` of lines among which is no unit gives them as a whole fit renders them
    (markers next to each other said as one)."""
    assert render(fit(parsed, available)) == render(_render(parsed, {}, {}, set()))
    assert not any(isinstance(a, Omission) and isinstance(b, Omission) for a, b in itertools.pairwise(fit(parsed, 0)))


def test_a_pytest_failure_whose_name_fills_the_width_is_a_block_of_its_own():
    # pytest -q of click with a broken formatter (real lines): past 76 characters the
    # title's rule shrinks to one underscore a side, `_ test_x[...] _`
    wide = "_ test_help_option_custom_names_and_class[name_specs1-  -h      Show this message and exit.\\n-True] _"
    lines = ["_____________________ test_option_help_preserve_paragraphs _____________________", ""]
    lines += [">       assert (", "E       AssertionError: assert '  -C, --config PATH' in 'Usage: cmd'", ""]
    lines += ["tests/test_options.py:1110: AssertionError", wide, ""]
    lines += ["runner = <click.testing.CliRunner object at 0x7ff599153350>, custom_class = True", ""]
    lines += [">       assert expected in result.output", "E       AssertionError: assert '  -h' in 'Usage: cmd'"]
    lines += ["", "tests/test_options.py:1251: AssertionError", "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _"]
    lines += ["", "    def helper():", ">       raise KeyError('x')", "E       KeyError: 'x'", ""]
    lines += ["tests/helpers.py:8: KeyError", "=========================== short test summary info ==="]
    first, second = (part for part in parse("test", lines) if isinstance(part, Unit))
    assert first.short[-1] == "tests/test_options.py:1110: AssertionError"  # its own raise site, not the next one's
    assert second.lines[0] == wide and second.short[0] == wide
    # a traceback's frame separator is no test's title: the frame below stays in the block
    assert "E       KeyError: 'x'" in second.lines and second.short[-1] == "tests/helpers.py:8: KeyError"


def test_a_unittest_failure_is_a_block_whose_short_form_is_its_frames_and_exception():
    # python -m unittest test.test_textwrap with a broken width (real lines, separators skipped)
    path = '  File "/usr/lib/python3.11/test/test_textwrap.py", line'
    lines = ["FAIL: test_em_dash (test.test_textwrap.WrapTestCase.test_em_dash)"]
    lines += [f"{path} 112, in test_em_dash", "    self.check_wrap(text, 30, expect)"]
    lines += [f"{path} 37, in check_wrap", "    self.check(result, expect)"]
    lines += [f"{path} 31, in check", "    self.assertEqual(result, expect,"]
    lines += ["AssertionError: Lists differ: ['Em-dashes should be written', '-- thus.'] != ['Em-dashes']"]
    lines += ["First differing element 0:", "'Em-dashes should be written'", "'Em-dashes should be written --'"]
    lines += ["- ['Em-dashes should be written', '-- thus.']", "ERROR: test_load (tests.test_io.IOTests.test_load)"]
    lines += [f"{path} 9, in test_load", "    json.loads('{')", "json.decoder.JSONDecodeError: Expecting value"]
    lines += ["Ran 66 tests in 0.018s", "FAILED (failures=1, errors=1)"]
    fail, error = (part for part in parse("test", lines) if isinstance(part, Unit))
    assert list(fail.short) == [*lines[:2], lines[5], *lines[7:11]]
    assert list(error.short) == lines[12:13] + lines[13:14] + lines[15:16]
    assert "Ran 66 tests in 0.018s" in parse("test", lines)  # the verdict ends the last block


def test_a_querys_rows_keep_their_first_last_and_spread_rows_each_gap_counted():
    """sqlite3's list mode (`a|b|c` under a header of names) and column mode (a dashes
    line under the header): the rows are one unit shown from its two ends and spread
    between, never only its head."""
    rows = [f"A{k:03d}|Airport number {k}|City {k}|CA|{30 + k / 100:.4f}" for k in range(400)]
    listed = ["iata|name|city|state|latitude", *rows]
    columns = ["id   kind      created_at", "---  --------  -------------------"]
    columns += [f"{k:<4} view      2024-05-01 08:{k % 60:02d}:00" for k in range(1, 401)]
    for lines, first, last in ((listed, rows[0], rows[-1]), (columns, columns[2], columns[-1])):
        text = shown(fit(parse("row", lines), 3000))
        assert text.startswith(lines[0] + "\n") and first in text and last in text
        assert lines[len(lines) // 2] in text or lines[len(lines) // 2 + 1] in text  # one from the middle
        assert len(re.findall(r"^\.\.\. \d+ more rows omitted \.\.\.$", text, re.M)) >= 4  # each gap said
        assert len(text) <= 3000 and unexplained_lines("\n".join(lines), text) == []


def test_a_table_with_a_status_column_is_still_cut_by_its_rows_in_trouble():
    lines = [
        "NAME      READY   STATUS             RESTARTS   AGE",
        "--------  ------  -----------------  ---------  ---",
    ]
    lines += [f"web-{k:03d}   1/1     Running            0          2d" for k in range(200)]
    lines.insert(120, "web-bad   0/1     CrashLoopBackOff   41         2d")
    text = shown(fit(parse("row", lines), 1500))
    assert "web-bad   0/1     CrashLoopBackOff" in text


def test_ls_r_cuts_the_sections_of_git_and_node_modules_before_the_projects_own():
    lines = [".:", "README.md", "src", ""]
    for k in range(40):
        lines += [f"./.git/objects/{k:02x}:", *(f"{k:02x}{n:036x}" for n in range(4)), ""]
    lines += ["./src:", *(f"module_{n}.py" for n in range(12)), ""]
    for k in range(20):
        lines += [f"./node_modules/pkg{k}:", "index.js", "package.json", "README.md", ""]
    lines += ["./tests:", *(f"test_module_{n}.py" for n in range(12))]
    text = shown(fit(parse("dir", lines), 1200))
    assert all(f"module_{n}.py" in text and f"test_module_{n}.py" in text for n in range(12))
    assert len(text) <= 1200 and unexplained_lines("\n".join(lines), text) == []


def test_pytest_covs_table_heading_is_no_failing_test():
    """pytest-cov heads its table like a failure (captured: pytest 8.4.2, pytest-cov 7.1.0):
    the table is no test, and a cut does not count it as one."""
    lines = [
        "=================================== FAILURES ===================================",
        "______________________________ test_choice_option ______________________________",
        "E       AssertionError: assert '--method [foo|bar|baz]' in 'Usage: cli [OPTIONS]'",
        "tests/test_basic.py:382: AssertionError",
        "================================ tests coverage ================================",
        "_______________ coverage: platform linux, python 3.11.7-final-0 ________________",
        "Name                            Stmts   Miss Branch BrPart  Cover   Missing",
        "---------------------------------------------------------------------------",
        "src/click/types.py                413     40    120      9    90%   17-21, 118, 162",
        "TOTAL                            4176    801   1488    180    79%",
    ]
    tests = [part for part in parse("test", lines) if isinstance(part, Unit)]
    assert [unit.lines[0] for unit in tests] == [lines[1]]
    assert "TOTAL                            4176" not in "\n".join(map(str, tests[0].lines))


def test_a_git_mcp_servers_log_is_cut_between_commits_the_newest_whole_the_rest_by_hash_and_subject():
    """mcp-server-git's git_log (`Commit: <hash>`, `Author:`, `Date:`, `Message: …` and
    the message's body, newest first) was cut as text from both ends: the ninth
    commit of fifty went. Its commits are units now: the newest stay whole, the others
    keep their `Commit:` and `Message:` lines as the server printed them, the oldest
    are counted."""
    import json

    from tokenjuice.commands.wire import reduce_payload

    text = json.loads((REPO / "tests" / "tools-corpus" / "mcp-git-log-50.json").read_text())["content"][0]["text"]
    commits = re.findall(r"^Commit: ([0-9a-f]{40})\nAuthor: .*\nDate: .*\n(Message: .*)$", text, re.MULTILINE)
    assert len(commits) == 50
    payload = {"toolName": "mcp__git__git_log", "command": "", "combinedText": text, "exitCode": 0}
    result = reduce_payload(payload)
    shown = result["inlineText"]
    assert result["classification"]["matchedReducer"] == "tools/git-log"
    assert len(shown) <= 10_000
    assert f"Commit: {commits[0][0]}\nAuthor: " in shown  # the newest whole
    kept = [k for k, (sha, subject) in enumerate(commits) if f"Commit: {sha}\n" in shown]
    assert kept == list(range(len(kept))) and len(kept) >= 40  # newest first, none skipped
    assert all(f"Commit: {commits[k][0]}\n{commits[k][1]}" in shown or commits[k][1] in shown for k in kept)
    assert f"... {50 - len(kept)} more commits omitted ..." in shown


def test_more_room_shows_the_files_a_flood_showed_in_less():
    """A diff of more files than one changed line each fits: the files that get a line
    are spread over the diff, and taken in one order whatever the room, so a bigger
    budget shows every file a smaller one showed (the evenly spaced picks of one count
    were not those of another: `git diff` at 6,000 characters lost changes it showed
    at 4,500)."""
    diff = []
    for f in range(10, 90):  # names of one width: every file's line costs the same
        diff += [f"diff --git a/pkg/mod{f}.py b/pkg/mod{f}.py", f"@@ -1,7 +1,7 @@ def function_{f}():"]
        diff += ["     context", f"-    old_{f} = 1", f"+    new_{f} = 2"]
    before: set[int] = set()
    for room in range(1000, 3000, 100):
        text = shown(fit(parse("diff-file", diff), room))
        changed = {f for f in range(10, 90) if f"-    old_{f} = 1" in text}
        assert {10, 89} <= changed and len(changed) < 80
        assert before <= changed, (room, sorted(before - changed))
        before = changed
        assert unexplained_lines("\n".join(diff), text) == []
