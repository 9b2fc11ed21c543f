"""Lossless re-encodings (tokenjuice/reduce/reencode.py, reduce/units.py) read back."""

import re

from helpers import make, run
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduce import reencode
from tokenjuice.reduce.lines import render
from tokenjuice.reduce.reencode import braced_diff_line, decoded, shows, squeeze, unbraced_diff_line
from tokenjuice.reduce.units import fit, parse, regions
from tokenjuice.rules.verify import unexplained_lines


def shown(items):
    return "\n".join(render(items))


def test_grep_matches_say_their_path_once_and_read_back_exactly():
    lines = [f"src/pkg/module.py:{n}:    def handler_{n}(request): return response" for n in range(1, 60)]
    lines += ["src/other.py:3:def x(): pass", "src/other.py-4-    context line"]
    full = sum(len(line) + 1 for line in lines)
    text = shown(fit(parse("match-file", lines), full - 200))  # too big as printed, not once factored
    assert "src/pkg/module.py:\n  1:    def handler_1(request)" in text
    assert all(line in decoded(text).split("\n") for line in lines)
    assert not unexplained_lines("\n".join(lines), text)


def test_a_folders_entries_and_git_status_paths_share_one_brace_list():
    entries = [f"./src/api/handler_{i:02d}.py" for i in range(80)]
    text = shown(fit(parse("dir", entries), 1500))
    assert "./src/api/{handler_00.py,handler_01.py," in text
    assert all(entry in decoded(text).split("\n") for entry in entries)
    status = ["Changes not staged for commit:"] + [f"\tmodified:   src/core/mod_{i:03d}.py" for i in range(120)]
    text = shown(fit(parse("path", status), 2000))
    assert "\tmodified:   src/core/mod_{000..119}.py" in text  # what the names share outside, the run a range
    assert all(line in decoded(text).split("\n") for line in status)


def test_a_long_brace_list_goes_on_several_lines_of_one_prefix():
    """A big folder's brace list is cut into lines of at most BRACE_WIDTH characters
    (read_file shows a line of 2,000 at most; a reader takes one of 1,000 in), each
    naming the folder again, each read back on its own."""
    entries = [f"/tmp/project/src/app/module_{i:03d}_handler.py" for i in range(400)]
    text = shown(fit(parse("dir", entries), 12000))
    lines = text.split("\n")
    assert len(lines) > 5 and all(line.startswith("/tmp/project/src/app/{module_") for line in lines)
    assert max(map(len, lines)) <= reencode.BRACE_WIDTH
    assert decoded(text).split("\n") == entries


_NAME = st.text(alphabet="abcXYZ019._-", min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(
    before=st.sampled_from(["", "./", "src/api/", "/tmp/a b/x/", "\tmodified:   lib/", "tests/t.py::"]),
    names=st.lists(_NAME, min_size=1, max_size=60),
    after=st.sampled_from(["", ".py", " PASSED", "]"]),
    width=st.integers(min_value=10, max_value=400),
)
def test_brace_lines_read_back_as_the_names_were(before, names, after, width):
    lines = reencode.brace_lines(before, names, after, width)
    assert decoded("\n".join(lines)).split("\n") == [before + name + after for name in names]
    assert sum(line.lines for line in lines) == len(names)
    assert all(len(line) <= width or line.lines == 1 for line in lines)


def test_names_that_a_brace_list_would_garble_stay_as_they_are():
    status = ["Untracked files:"] + [f"\tnotes/{name}" for name in ("a,b.md", "c d.md", "{x}.md", "plain.md")] * 30
    text = shown(fit(parse("path", status), 4000))
    assert "{a,b.md" not in text and "\tnotes/a,b.md" in text


def test_a_cut_diff_says_each_file_once_and_reads_back_as_git_printed_it():
    diff = []
    for f in range(30):
        diff += [f"diff --git a/src/pkg/module_{f:02d}.py b/src/pkg/module_{f:02d}.py", "@@ -1,3 +1,3 @@"]
        diff += ["     a = 1", f"-    b = {f}", f"+    b = {f + 1}", "     return a"]
    diff += ['diff --git "a/odd name.py" "b/odd name.py"', "@@ -1 +1 @@", "-x", "+y"]  # quoted by git: as it is
    diff += ["diff --git a/old.py b/new.py", "similarity index 90%", "rename from old.py", "rename to new.py"]
    text = shown(fit(parse("diff-file", diff), 1200))
    assert re.search(r"diff --git \{a,b\}/src/pkg/module_00\.py\n(?:@@ .*\n)?-    b = 0\n\+    b = 1", text)
    assert "diff --git {a,b}/src/pkg/module_00.py" in braced_lines(text) and "{a,b}/odd" not in text
    assert "diff --git a/src/pkg/module_00.py b/src/pkg/module_00.py" in decoded(text).split("\n")
    assert not unexplained_lines("\n".join(diff), text)
    assert braced_diff_line("diff --git a/x.py b/y.py") is None  # two paths: as git printed them
    assert unbraced_diff_line(braced_diff_line("diff --git i/a.py w/a.py") or "") == "diff --git i/a.py w/a.py"


def test_a_cut_diff_without_git_lines_names_each_file_once_and_reads_back():
    """A diff of `---`/`+++` pairs alone (an MCP git_show, `diff -ru`) names each file on
    one line when the pair names one path, as `diff --git {a,b}/P` does."""
    diff = ["commit 0123abc", ""]
    for f in range(30):
        diff += [f"--- a/src/pkg/module_{f:02d}.py", f"+++ b/src/pkg/module_{f:02d}.py", "@@ -1,3 +1,3 @@"]
        diff += ["     a = 1", f"-    b = {f}", f"+    b = {f + 1}", "     return a"]
    diff += ["--- /dev/null", "+++ b/new.py", "@@ -0,0 +1 @@", "+x"]  # two names: as printed
    diff += ["--- a/x.py\t2026-12-06", "+++ b/x.py\t2026-12-07", "@@ -1 +1 @@", "-x", "+y"]
    text = shown(fit(parse("diff-file", diff), 1200))
    assert re.search(r"\{--- a,\+\+\+ b\}/src/pkg/module_00\.py\n(?:@@ .*\n)?-    b = 0\n\+    b = 1", text)
    assert "--- a/src/pkg/module_00.py" not in text and "+++ b/src/pkg/module_00.py" not in text
    read = decoded(text).split("\n")
    assert "--- a/src/pkg/module_00.py" in read and "+++ b/src/pkg/module_00.py" in read
    assert not unexplained_lines("\n".join(diff), text)
    assert reencode.paired_name_line("--- a/x.py", "+++ b/y.py") is None  # two paths: as printed
    assert reencode.paired_name_line("--- a/x.py\t1", "+++ b/x.py\t2") is None  # their times differ
    assert reencode.paired_name_line("--- i/a.py", "+++ w/a.py") == "{--- i,+++ w}/a.py"


def braced_lines(text):
    return [line for line in text.split("\n") if unbraced_diff_line(line)]


def test_padding_squeezed_still_reads_as_the_line():
    line = " docs/architecture.md                               |   6 +-"
    assert squeeze(line) == " docs/architecture.md  |  6 +-"
    assert shows(str(squeeze(line)), line)
    assert squeeze("  indented   but   kept") == "  indented  but  kept"  # leading indentation stays


def test_units_shown_in_part_fill_the_room_the_cuts_leave():
    lines = [f"src/big.py:{n}:    value_{n} = compute({n})" for n in range(1, 200)]
    lines += [f"src/small_{k}.py:1:    x = {k}" for k in range(3)]
    text = shown(fit(parse("match-file", lines), 2500))
    assert "more lines omitted" in text
    assert text.count("value_") > 20  # not just the first match: as many as fit
    assert all(f"src/small_{k}.py" in text for k in range(3))


def test_a_diff_loses_context_before_changes():
    diff = ["diff --git a/a.py b/a.py", "--- a/a.py", "+++ b/a.py", "@@ -1,30 +1,30 @@"]
    for i in range(30):
        diff.append(f" context line {i} that nobody asked for, padding it out")
        if i % 10 == 0:
            diff += [f"-old value {i}", f"+new value {i}"]
    text = shown(fit(parse("diff-file", diff), 600))
    assert all(f"+new value {i}" in text and f"-old value {i}" in text for i in (0, 10, 20))
    assert "context line 5" not in text and "lines of 1 file (context lines) omitted" in text


def test_regions_recognise_several_tools_in_one_output():
    lines = [
        "18",
        "On branch main",
        "Changes not staged for commit:",
        '  (use "git add <file>..." to update what will be committed)',
        "\tmodified:   src/a.py",
        "",
        "diff --git a/src/a.py b/src/a.py",
        "--- a/src/a.py",
        "+++ b/src/a.py",
        "@@ -1 +1 @@",
        "-x = 1",
        "+x = 2",
        "commit 0123456789abcdef0123456789abcdef01234567",
        "Author: A <a@b>",
        "",
        "    Fix the widget",
    ]
    parsed, found = regions(lines)
    assert [kind for kind, _ in found] == ["status", "diff", "commits"]
    assert parsed[0] == "18"


def test_no_state_of_git_status_is_dropped_whole_while_another_keeps_many():
    """Each state loses its last paths in turn; untracked files (often the agent's own
    new files) weigh like changes, and a drop marker names the folders it counts."""
    status = ["On branch main", "Changes not staged for commit:"]
    status += [f"\tmodified:   src/core/module_with_a_long_name_{i:03d}.py" for i in range(150)]
    status += ["", "Untracked files:"] + [f"\tsrc/new/{'x' * 30}_{i:03d}/" for i in range(150)]
    text = shown(fit(parse("path", status), 3000))
    assert "On branch main" in text
    readable = decoded(text)
    assert "\tmodified:   src/core/module_with_a_long_name_000.py" in readable
    assert f"\tsrc/new/{'x' * 30}_000/" in readable
    assert "untracked in src/new/" in text and "modified in src/core/" in text


def test_lossless_forms_apply_to_an_output_that_fits_the_budget():
    # grep's path said once: every match kept, a third shorter, though the whole fits
    output = "".join(f"src/service/handlers.py:{n}:    register(route_{n}, methods=GET)\n" for n in range(1, 60))
    result = run(output, make(unit="match-file", family="search"), command="grep -rn register src")
    text = result["inlineText"]
    assert text.startswith("src/service/handlers.py:\n  1:    register(route_1, methods=GET)")
    assert len(text) < 0.75 * len(output) and decoded(text).count("register(") == 59
    # a table's padding is shortened as soon as it saves enough to be worth it
    table = "".join(f"pkg-{n:02d}{' ' * 30}{n}.0.{n}{' ' * 20}ok\n" for n in range(40))
    text = run(table, make(), command="tool list")["inlineText"]
    assert "pkg-00  0.0.0  ok" in text and all(shows(text, line) for line in table.splitlines())


def test_a_small_saving_leaves_the_output_as_it_was():
    output = "".join(f"src/a.py:{n}:x = {n}\n" for n in range(1, 9))  # factoring would save a few characters
    result = run(output, make(unit="match-file", family="search"), command="grep -rn x src")
    assert result["inlineText"].strip() == output.strip()


def test_log_records_said_again_read_back_and_a_line_with_braces_of_its_own_stays():
    said = "Dec 12 {09:13:32 x1c tlp[2354],09:16:45 x1c tlp[5769]}: Error: tlp.service is not enabled"
    assert decoded(said).split("\n")[1:] == [
        "Dec 12 09:13:32 x1c tlp[2354]: Error: tlp.service is not enabled",
        "Dec 12 09:16:45 x1c tlp[5769]: Error: tlp.service is not enabled",
    ]
    own = "Dec 12 09:13:32 x1c bash[12]: cp conf.{yml,bak} failed"
    assert own in decoded(own).split("\n")


@settings(max_examples=300, deadline=None)
@given(line=st.text(alphabet="ab ,.:-}0123456789\t'\"/diff--git", max_size=40))
def test_a_line_without_a_brace_is_spelled_out_as_it_is(line):
    """`decoded` passes lines without `{` over without trying its patterns: none of
    them can match such a line."""
    assert reencode._BRACES.match(line) is None
    assert reencode._SAID_AGAIN.match(line) is None
    assert reencode.unbraced_diff_line(line) is None
    assert reencode.decoded(line) == line
