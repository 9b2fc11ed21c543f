"""Lossless re-encodings (tokenjuice/reduce/reencode.py, reduce/units.py) read back."""

import gzip
import re

import conftest
import pytest
from conftest import tokenjuice
from helpers import make, run
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.reduce import reencode
from tokenjuice.reduce.lines import Encoded, Indented, Omission, Pinned, render, size
from tokenjuice.reduce.reencode import braced_diff_line, decoded, shows, squeeze, squeezed, unbraced_diff_line
from tokenjuice.reduce.regions import regions
from tokenjuice.reduce.units import fit, parse
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
    under the folder said once (`folders_said_once`), each read back on its own."""
    entries = [f"/tmp/project/src/app/module_{i:03d}_handler.py" for i in range(400)]
    text = shown(fit(parse("dir", entries), 12000))
    heading, *lines = text.split("\n")
    assert heading == "/tmp/project/src/app/:"
    assert len(lines) > 5 and all(line.startswith("  {module_") for line in lines)
    assert max(map(len, lines)) <= reencode.BRACE_WIDTH
    assert decoded(text).split("\n") == entries  # the folder said once is no line of find's


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
    assert reencode.brace_size(before, names, after, width) == size(lines)  # measured without making them


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


# -- a listing's folder said once ---------------------------------------------------------

LISTINGS = conftest.REPO / "tests" / "data" / "listings"


def _listing(name):
    path = LISTINGS / name
    raw = gzip.decompress(path.read_bytes()) if name.endswith(".gz") else path.read_bytes()
    return raw.decode()


def _reduced(command, output):
    from tokenjuice.model import Execution
    from tokenjuice.reduce.engine import reduce
    from tokenjuice.reduce.render import text_of
    from tokenjuice.rules import index

    catalogue = index.load(".", builtin_only=True)
    return text_of(reduce(Execution(command=command, stdout=output, exit_code=0), catalogue))


def _paths_read_back(text):
    """The lines `decoded` reads out of `text`, but the folders said once over them."""
    return [line for line in decoded(text).split("\n") if not reencode.folder_heading(line)]


_PART = st.text(alphabet="abXY01._-", min_size=1, max_size=8)


def _counted_in(marker, folder):  # what reduce/units.py's listing markers do, for these tests
    said, _, named = (marker.detail or "").rpartition(" in ")
    return Indented(marker.count, f"{said} in {named[len(folder) :] or './'}") if named.startswith(folder) else None


@settings(max_examples=300, deadline=None)
@given(
    root=st.sampled_from(["", "./", "/srv/app/", ".venv/lib/python3.11/site-packages/", "node_modules/"]),
    folders=st.lists(st.lists(_PART, min_size=1, max_size=4), min_size=1, max_size=12),
    names=st.lists(st.lists(_PART, min_size=1, max_size=12, unique=True), min_size=1, max_size=12),
    marked=st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_paths_said_under_their_folder_read_back_exactly(root, folders, names, marked):
    """Any listing (paths alone and brace lists of a folder's entries, markers of
    entries left out between them) said under the folders it shares reads back as the
    same paths in the same order, never longer; each marker names its folder."""
    items = []
    for k, (parts, entries) in enumerate(zip(folders, names, strict=False)):
        folder = root + "/".join(parts) + "/"
        items += reencode.brace_lines(folder, entries, "") if len(entries) > 1 else [folder + entries[0]]
        if marked[k]:
            items.append(Omission(3, f"3 more entries in {folder}"))
    said = reencode.folders_said_once(items, _counted_in)
    paths = [line for line in _paths_read_back(shown(said)) if " omitted ..." not in line]
    assert paths == [line for line in decoded(shown(items)).split("\n") if " omitted ..." not in line]
    assert len(shown(said)) <= len(shown(items))
    inside = [line for line in shown(said).split("\n") if line.startswith("  ... ")]
    assert all(re.match(r"^  \.\.\. 3 more entries in \S*/ omitted \.\.\.$", line) for line in inside)


@pytest.mark.parametrize("name", ["ls-Rs-idna.out", "ls-R-rich.out", "tree-F-requests.out", "pip-show-f-rich.out"])
def test_real_output_near_a_folder_heading_is_read_as_it_is(name):
    """`ls -R dir/` heads each folder's entries with `dir/:`, `ls -Rs` puts sizes two
    spaces in (`  4 cli.py`), `tree` and `pip show -f` indent paths: none of it is a
    folder said once, and `decoded` leaves it as the tools printed it."""
    output = _listing(name)
    assert decoded(output) == output


def test_a_venv_listing_shows_every_path_said_under_its_folders():
    """`find venv -name '*.py'` (1,311 paths, 85 kB): the site-packages folder said once
    over its packages' brace lists shows every path within a search's budget, each read
    back as find printed it (as brace lists alone, 316 of them were cut)."""
    output = _listing("find-venv-py.out")
    text = _reduced("find venv -name '*.py'", output)
    assert "venv/lib/python3.11/site-packages/:\n  " in text
    assert sorted(_paths_read_back(text)[1:]) == sorted(output.rstrip("\n").split("\n"))  # after `1311 matches`
    assert len(text) < 20_000 and not unexplained_lines(output, text)


def test_a_listing_past_the_budget_counts_every_path_it_leaves_out_in_its_folder():
    """`find venv` (2,998 paths, 227 kB): the paths shown and those its markers count
    make up the listing; a marker among paths under a folder names its folder relative
    to it, and the first and last paths are shown, with paths spread between."""
    output = _listing("find-venv-all.out.gz")
    paths = output.rstrip("\n").split("\n")
    text = _reduced("find venv", output)
    shown_paths = [line for line in _paths_read_back(text) if line in set(paths)]
    counted = 0
    for marker in re.findall(r"^ *\.\.\. (.*) omitted \.\.\.$", text, re.MULTILINE):
        # `12 more entries in rich/`, `rich/: 80 entries`, `./: utils/ 29, utils/{a/ 3, b/ 2}`
        said = re.match(r"^(\d+) more entr|^\S+/: (\d+) entr", marker)
        counted += int(said.group(1) or said.group(2)) if said else sum(map(int, re.findall(r"/ (\d+)", marker)))
    assert len(shown_paths) == len(set(shown_paths)) and len(shown_paths) + counted == len(paths)
    assert paths[0] in shown_paths and paths[-1] in shown_paths
    assert any(line.startswith("  ... ") and " in ./ omitted" not in line for line in text.split("\n"))
    assert not unexplained_lines(output, text)


_MATCH = st.text(alphabet="ab (x)=:'-.", min_size=0, max_size=20)


@settings(max_examples=300, deadline=None)
@given(
    root=st.sampled_from(["./", "node_modules/", "venv/lib/python3.11/site-packages/"]),
    files=st.lists(
        st.tuples(st.lists(_PART, min_size=1, max_size=3), st.lists(_MATCH, min_size=1, max_size=4)),
        min_size=1,
        max_size=12,
    ),
    marked=st.lists(st.booleans(), min_size=12, max_size=12),
)
def test_matches_said_under_their_folder_read_back_exactly(root, files, marked):
    """A search's matches (a file's one match as grep printed it, a file's several under
    its path said once, markers of lines left out between them) said under the folders
    they share read back as grep printed them, in the same order, never longer."""
    items = []
    for k, (parts, texts) in enumerate(files):
        path = root + "/".join(parts) + ".py"
        if len(texts) == 1:
            items.append(f"{path}:{k + 1}:{texts[0]}")
        else:
            items += [
                reencode.Encoded(f"{path}:", 0),
                *(reencode.Encoded(f"  {n}:{t}", 1) for n, t in enumerate(texts)),
            ]
        if marked[k]:
            items.append(Omission(3, "3 more lines"))
    said = reencode.folders_said_once(items, lambda marker, folder: Indented(marker.count, marker.detail))
    before = [line for line in decoded(shown(items)).split("\n") if " omitted ..." not in line]
    assert [line for line in _paths_read_back(shown(said)) if " omitted ..." not in line] == before
    assert len(shown(said)) <= len(shown(items))


def test_a_search_flood_says_its_matches_under_the_folders_they_share():
    """`grep -rn "raise ValueError" venv` (422 matches in 150 files, 54 kB): the
    site-packages folder said once over the matches sampled from the flood, a file's
    several matches under its path, each read back as grep printed it; every file is
    named (a line of it shown, or its count in a marker). Said in full, 157 matches fit."""
    output = _listing("grep-rn-raise-valueerror-venv.out")
    text = _reduced('grep -rn "raise ValueError" venv --include=*.py', output)
    assert "\nvenv/lib/python3.11/site-packages/:\n  " in text and "\n    " in text  # a file's matches under it
    matches = set(output.split("\n"))
    assert sum(1 for line in set(decoded(text).split("\n")) if line in matches) > 200
    files = {line.split(":", 1)[0] for line in matches if line}
    counted = re.compile(r"([^\s/,{:]+):? [\d,]+")  # `lt.js 1` in a folder's tally, `lt.js: 1 match` alone
    named = {name for line in text.split("\n") if line.endswith(" omitted ...") for name in counted.findall(line)}
    assert all(path in decoded(text) or path.rpartition("/")[2] in named for path in files)
    assert len(text) < 20_000 and not unexplained_lines(output, text)


def test_verify_finds_a_path_under_a_folder_that_the_output_does_not_hold():
    """`unexplained_lines` reads a folder said once as `decoded` does: a path under it
    that find never printed, or a folder no path is in, is invented."""
    output = _listing("find-venv-py.out")
    text = _reduced("find venv -name '*.py'", output)
    assert "\n  charset_normalizer/{" in text and not unexplained_lines(output, text)
    assert unexplained_lines(output, text.replace("\n  charset_normalizer/{", "\n  charset_normaliser/{", 1))
    assert unexplained_lines(output, text.replace("venv/lib/python3.11/site-packages/:", "venv/lib/python3.12/:", 1))


@settings(max_examples=200, deadline=None)
@given(count=st.integers(min_value=1, max_value=60), picks=st.sets(st.integers(min_value=0, max_value=59), min_size=1))
def test_a_sampled_units_size_is_reckoned_as_it_is_shown(count, picks):
    """`Unit.picked_size` (what sampling a flood measures) is the size of `picked` (what
    is shown): a folder's entries in a brace list, a file's matches under its path."""
    chosen = sorted(k for k in picks if k < count) or [0]
    listing = [f"./pkg/sub/mod_{k:03d}_{'x' * (k % 7)}.py" for k in range(count)]
    search = [f"src/app/views.py:{k + 1}:    return render(request, 'page_{k}.html')" for k in range(count)]
    for unit in (*parse("dir", listing), *parse("match-file", search)):
        if hasattr(unit, "picked_size"):
            assert unit.picked_size(chosen) == size(unit.picked(chosen))


#: Lines `squeeze` shortens or leaves (padding, drawn rules, a table's row and border,
#: aligned source, a clipped line), drawn from few so that they come again.
_SQUEEZE_LINES = [
    "name     value     kind",
    "a   b",
    "  indented   but   kept",
    "=" * 30,
    "─" * 20 + " title " + "─" * 20,
    "   1 | Customer 001 | FR      |      4",
    "------+------",
    "E       assert 1 == 2",
    "24 |     Stock {",
    "head  …[120 chars omitted]…   tail",
    "plain line",
]
_SQUEEZABLE = st.lists(
    st.one_of(
        st.builds(Omission, st.integers(1, 5)),
        st.builds(
            lambda text, pinned: Pinned(text) if pinned else text, st.sampled_from(_SQUEEZE_LINES), st.booleans()
        ),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_SQUEEZABLE, min_size=1, max_size=4))
def test_lines_squeezed_again_from_what_was_kept_read_as_squeezed_anew(calls):
    known: dict = {}
    for items in calls:  # the engine squeezes the lines of every budget it tries with one `known`
        again, anew = squeezed(items, known), squeezed(items)
        assert again == anew
        assert [type(item) for item in again] == [type(item) for item in anew]
        # a line left as it was is the line itself (the engine tells unchanged items by identity)
        assert [a is b for a, b in zip(again, items, strict=True)] == [a is b for a, b in zip(anew, items, strict=True)]


# -- a log's one author said once (transforms.author_said_once) ----------------------------

#: `git log -n 50 --stat` of this repository (tests/scenarios/git-log-50-stat): 50 commits, one author.
_LOG_50 = (conftest.REPO / "tests/scenarios/git-log-50-stat.out").read_text()
_SEED = "Seed b4ca9b9a maintainers <maintainers@users.noreply.a-seed-b4ca9b9a.example>"
#: `git log --stat` of a small repository with a merge (captured: git 2.39.5, Debian 12).
_MERGED = """commit 5455c2d66b17e86d774e261655699e0d53516f41
Merge: bd0a1f1 71b478b
Author: Ada Lovelace <ada@example.org>
Date:   Mon Dec 7 10:07:00 2026 +0000

    Merge branch 'side'

commit bd0a1f1ecdeea4d133b030985ba204aee7a6e20e
Author: Ada Lovelace <ada@example.org>
Date:   Mon Dec 7 10:06:00 2026 +0000

    add f4

 f4.txt | 1 +
 1 file changed, 1 insertion(+)

commit 71b478b086700cdfaf9169d92aad06df0ee7fcf0
Author: Ada Lovelace <ada@example.org>
Date:   Mon Dec 7 10:05:00 2026 +0000

    side work

 s.txt | 1 +
 1 file changed, 1 insertion(+)
"""


def _log_rule(said_once=True):
    return make(
        unit="commit",
        family="git-history",
        skip_patterns=[r"^\s*$"],
        transforms={"said_once": ["author"] if said_once else []},
    )


def _commit_authors(text):
    """Each `commit <hash>` line of `text` with the `Author:` line git printed under it."""
    lines = text.split("\n")
    pairs = []
    for k, line in enumerate(lines):
        if re.match(r"commit [0-9a-f]{40}$", line):
            at = k + 2 if lines[k + 1].startswith("Merge: ") else k + 1
            pairs.append((line, lines[at]))
    return pairs


def test_a_log_by_one_author_says_it_once_and_fits_whole():
    """50 commits by one author: the author said once on top, the log fits its 32 KiB
    whole (it did not with 50 `Author:` lines), and reads back as git printed it."""
    said = run(_LOG_50, _log_rule(), command="tool log", max_inline_chars=32 * 1024)["inlineText"]
    plain = run(_LOG_50, _log_rule(False), command="tool log", max_inline_chars=32 * 1024)["inlineText"]
    assert said.split("\n")[0] == reencode.AUTHOR_ONCE + _SEED and "\nAuthor: " not in said
    marker = re.compile(r"^\.\.\. .+ omitted \.\.\.$", re.MULTILINE)
    assert said.count("\ncommit ") == 50 and not marker.search(said) and len(said) < len(plain)
    assert plain.count("\nAuthor: ") > 40 and marker.search(plain)
    assert _commit_authors(decoded(said)) == _commit_authors(_LOG_50)
    kept = [line for line in _LOG_50.split("\n") if line.strip()]
    assert [line for line in decoded(said).split("\n") if line in set(kept)] == kept
    assert not unexplained_lines(_LOG_50, said)


def test_a_cut_log_by_one_author_says_it_once_over_the_commits_it_shows():
    text = run(_LOG_50, _log_rule(), command="tool log", max_inline_chars=20000)["inlineText"]
    assert reencode.AUTHOR_ONCE + _SEED in text.split("\n") and "\nAuthor: " not in text
    shown = _commit_authors(decoded(text))
    assert len(shown) >= 5 and all(author == "Author: " + _SEED for _, author in shown)
    assert not unexplained_lines(_LOG_50, text)


def test_an_author_said_once_reads_back_under_a_merge_line_too():
    lines = _MERGED.rstrip("\n").split("\n")
    author = reencode.sole_author(lines)
    assert author == "Author: Ada Lovelace <ada@example.org>"
    said = reencode.author_said_once(lines, author)
    assert said[0] == "Author of every commit: Ada Lovelace <ada@example.org>" and said[0].lines == 3
    assert "\n".join(said).count("Author: ") == 0
    assert decoded("\n".join(said)) == _MERGED.rstrip("\n")
    assert not unexplained_lines(_MERGED, "\n".join(said))


def test_a_log_of_several_authors_says_each_where_git_did():
    click = (conftest.REPO / "tests/scenarios/git-log-p-click-release.out").read_text()
    lines = click.split("\n")
    assert len({author for _, author in _commit_authors(click)}) > 1 and reencode.sole_author(lines) is None
    one = _MERGED.split("\n")[:6]  # one commit: nothing to say once
    assert reencode.author_said_once(one, "Author: Ada Lovelace <ada@example.org>") == one
    assert reencode.sole_author(one) is None


def test_verify_finds_an_author_said_once_that_the_log_does_not_name():
    said = reencode.author_said_once(_MERGED.split("\n"), "Author: Ada Lovelace <ada@example.org>")
    forged = "\n".join(said).replace("Ada Lovelace", "Grace Hopper")
    assert unexplained_lines(_MERGED, forged) == ["Author of every commit: Grace Hopper <ada@example.org>"]


def test_one_reading_stands_for_each_shown_line_and_decoded_joins_them():
    """`readings`: every shown line is read, in order, and `decoded` is what they stand
    for; the `Author:` lines said once come under each commit (after its `Merge:` line),
    read from the heading that says them, which stands for nothing of its own; a folder
    said once stands for nothing, the paths under it are read with it."""
    said = "\n".join(reencode.author_said_once(_MERGED.split("\n"), "Author: Ada Lovelace <ada@example.org>"))
    read = list(reencode.readings(said.split("\n")))
    assert "\n".join(line for _, lines, *_ in read for line in lines) == decoded(said) == _MERGED
    assert {index for index, *_ in read} == set(range(len(said.split("\n"))))
    authors = [(index, lines, under) for index, lines, under, heading, _ in read if index == 0 and not heading]
    assert authors == [(0, ("Author: Ada Lovelace <ada@example.org>",), 0)] * 3
    before = [read[at - 1][1][0] for at, (index, *_) in enumerate(read) if index == 0 and at > 0]
    assert [line.split(" ")[0] for line in before] == ["Merge:", "commit", "commit"]  # under each, after Merge:
    shown = "src/:\n  {a,b}.py\n  c.py\nend"
    assert list(reencode.readings(shown.split("\n"))) == [
        (0, (), -1, True, False),
        (1, ["src/a.py", "src/b.py"], 0, False, False),
        (2, ["src/c.py"], 0, False, False),
        (3, ["end"], -1, False, False),
    ]


# -- a test file said once over its summary lines (transforms.said_once = ["test-file"]) ---

#: `python -m pytest -q` over 200 failures in five files (tests/scenarios/pytest-200-failures-q).
_PYTEST_200 = (conftest.REPO / "tests/scenarios/pytest-200-failures-q.out").read_text()


def _summary(text):
    return [line for line in text.split("\n") if line.startswith(("FAILED ", "ERROR "))]


def test_a_test_summary_says_each_file_once_over_its_ids():
    """pytest's 200 `FAILED tests/test_cart.py::…` lines under their five files: every
    one read back as pytest printed it, the output shorter for it (the fit measured the
    lines as printed: what they save is left out, not spent)."""
    done = tokenjuice("reduce", "--command", "python -m pytest -q", "--exit-code", "1", input=_PYTEST_200)
    text = done.stdout.decode()
    assert "\nFAILED tests/test_cart.py::\n  test_reads_config_5 - FileNotFoundError: [Errno 2]...\n" in text
    headings = _summary(text)
    assert len(headings) == 5 and all(line.endswith("::") for line in headings)
    assert _summary(decoded(text)) == _summary(_PYTEST_200) and len(text) < 30_000  # 34,130 with the file on every line
    assert not unexplained_lines(_PYTEST_200, text)


def test_a_summary_file_said_once_reads_back_pinned_and_clipped_lines_as_they_were():
    lines = [Pinned(line) for line in _summary(_PYTEST_200)[:3]]
    lines += ["FAILED tests/test_cart.py::test_x - AssertionError: a very long …[40 chars omitted]… message"]
    said = reencode.test_files_said_once([*lines, "200 failed, 300 passed in 1.91s"])
    assert said[0] == "FAILED tests/test_cart.py::" and said[0].lines == 0
    assert all(isinstance(line, Pinned) for line in said[1:4]) and said[4].lines == 1
    assert decoded(shown(said)).split("\n") == [*lines, "200 failed, 300 passed in 1.91s"]


def test_a_short_run_of_one_files_summary_lines_stays_as_printed():
    two = _summary(_PYTEST_200)[:2]
    mixed = [two[0], _summary(_PYTEST_200)[-1], two[1]]  # test_cart, test_parse, test_cart
    assert reencode.test_files_said_once(two) == two and reencode.test_files_said_once(mixed) == mixed
    # nor is a run followed by a line two spaces in, which would read as one more of the file's
    three = _summary(_PYTEST_200)[:3]
    assert reencode.test_files_said_once([*three, "  indented"]) == [*three, "  indented"]
    assert reencode.test_files_said_once([*three, "    deeper"])[0] == "FAILED tests/test_cart.py::"
    # a line ending in `::` over indented lines that are no summary's is read as it is
    text = "FAILED tests/a.py::\n\nother::\n  indented"
    assert decoded(text) == text


def test_verify_finds_a_summary_line_under_its_file_that_the_run_did_not_print():
    said = reencode.test_files_said_once(_summary(_PYTEST_200)[:4])
    forged = shown([*said[:2], "  test_never_ran - AssertionError: nope", *said[2:]])
    assert unexplained_lines(_PYTEST_200, forged) == ["  test_never_ran - AssertionError: nope"]


def test_a_verbose_runs_verdict_lines_say_their_file_once_too():
    """pytest -v over click's suite (tests/scenarios/pytest-v-click-all): a run of one
    file's verdict lines (`tests/test_formatting.py::test_x FAILED  [ 20%]`) under the file."""
    raw = gzip.decompress((conftest.REPO / "tests/scenarios/pytest-v-click-all.out.gz").read_bytes()).decode()
    command = "python -m pytest -v -p no:cacheprovider tests"
    text = tokenjuice("reduce", "--command", command, "--exit-code", "1", input=raw).stdout.decode()
    assert "\ntests/test_formatting.py::\n  test_basic_functionality FAILED  [ 20%]\n" in text
    verdicts = [line for line in decoded(text).split("\n") if line.startswith("tests/") and "::test_" in line]
    printed = {str(squeeze(line)) for line in raw.split("\n")}  # their padding shortened, as any line's
    assert len(verdicts) > 20 and all(line in printed for line in verdicts)
    assert not unexplained_lines(raw, text)


def test_a_diff_shown_but_for_its_context_says_each_files_path_once():
    """`git diff` of a rename over 48 files (tests/scenarios/git-diff-rename-48-files),
    shown without its context lines: each `diff --git a/P b/P` line as `diff --git {a,b}/P`,
    as a diff cut between its files says it, read back as git printed it."""
    raw = (conftest.REPO / "tests/scenarios/git-diff-rename-48-files.out").read_text()
    text = tokenjuice("reduce", "--command", "git diff", "--exit-code", "0", input=raw).stdout.decode()
    git_lines = [line for line in raw.split("\n") if line.startswith("diff --git ")]
    assert len(git_lines) == 48 and text.count("\ndiff --git {a,b}/lib2to3/") == 48
    assert [line for line in decoded(text).split("\n") if line.startswith("diff --git ")] == git_lines
    assert not unexplained_lines(raw, text)
    pinned = [Pinned(git_lines[0]), "@@ -11,7 +11,7 @@"]
    assert reencode.diff_paths_said_once(pinned) == [Pinned("diff --git {a,b}/lib2to3/fixer_base.py"), pinned[1]]
    hunk = pinned[1:]
    assert reencode.diff_paths_said_once(hunk) is hunk  # nothing to say once: the items themselves


# -- the extension a folder's names share said once (transforms.said_once = ["extension"]) ---


def test_a_listing_says_the_extension_its_folders_names_share_once():
    """find over pytest's package (tests/scenarios/find-pytest-package): each folder's
    names that all end in `.py` in one brace list with `.py` said once after it, every
    path read back as find printed it, the listing shorter for it."""
    raw = (conftest.REPO / "tests/scenarios/find-pytest-package.out").read_text()
    command = "find /tmp/scen/venv/lib/python3.11/site-packages/_pytest"
    text = tokenjuice("reduce", "--command", command, "--exit-code", "0", input=raw).stdout.decode()
    assert "  _py/{path.py,__init__.py,error.py,__pycache__}" in text.split("\n")  # a folder among them
    assert "  _py/__pycache__/{path,__init__,error}.cpython-311.pyc" in text.split("\n")
    lists = [found.group(1).split(",") for found in re.finditer(r"\{([^{}]*)\}", text)]
    assert lists and not any(all(name.endswith(".py") for name in names) for names in lists)
    back = [line for line in decoded(text).split("\n") if line.startswith("/tmp/")]
    assert sorted(back) == sorted(line for line in raw.split("\n") if line) and len(text) < 3300
    assert not unexplained_lines(raw, text)


def test_an_extension_is_said_once_only_where_every_name_has_it():
    lines = [
        Encoded("src/{a.py,b.py,c.py}", 3),
        "src/{a.py,README.md}",  # two extensions
        "src/{a.py,LICENSE}",  # a name without one
        "src/{.py,b.py}",  # a name that is all extension
        "src/{a..py,b..py}",  # a name before it that ends with a dot
        "src/a.py",
        Pinned("lib/{x.d.ts,y.ts}"),
    ]
    said = reencode.extensions_said_once(lines)
    assert said == ["src/{a,b,c}.py", *lines[1:6], "lib/{x.d,y}.ts"]
    assert said[0].lines == 3 and isinstance(said[6], Pinned)
    assert decoded("\n".join(said)).split("\n") == [n for line in lines for n in reencode.spelled(line)]
    none = lines[1:6]
    assert reencode.extensions_said_once(none) is none  # nothing to say once: the items themselves
    assert reencode.shared_extension(["a.cpython-311.pyc", "ab.cpython-311.pyc"]) == ".cpython-311.pyc"
