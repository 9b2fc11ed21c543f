"""Named noise (tokenjuice.reduce.noise): kinds of line a rule drops by name."""

import re

import pytest
from helpers import lines, make, run

from tokenjuice.rules.patterns import Lines


def test_named_noise_is_dropped_like_skip_patterns():
    output = (
        "Requirement already satisfied: flask in /venv (3.1.3)\n"
        + "".join(f"Requirement already satisfied: pkg{i} in /venv (from flask) (1.{i})\n" for i in range(60))
        + "Successfully installed widget-1.0\n"
    )
    text = run(output, make(filters={"noise": ["pip-satisfied"]}))["inlineText"]
    assert "(from flask)" not in text and "Successfully installed widget-1.0" in text
    assert "Requirement already satisfied: flask in /venv (3.1.3)" in text  # asked for by name
    notes = (
        "src/a.c:3:5: warning: unused variable 'x'\n"
        + "src/a.c:1:1: note: declared here\n"
        + "src/a.c:2:1: note: in expansion of macro\n" * 3
    ) * 20 + lines(40)
    text = run(notes, make(filters={"noise": ["compiler-notes"]}, summarize={"max_chars": 6000}))["inlineText"]
    assert text.count("note: declared here") == 20 and "in expansion of macro" not in text


def test_unknown_noise_kinds_are_refused():
    with pytest.raises(Exception, match=r"filters\.noise: 'chatter' is not one of"):
        make(filters={"noise": ["chatter"]})


def test_the_branch_line_and_its_upstream_are_never_noise():
    """The agent needs the branch it is on and whether it is in step with its upstream."""
    from tokenjuice.reduce.noise import STRUCTURAL, patterns

    lines = ["On branch main", "Your branch is up to date with 'origin/main'.", '  (use "git add <file>..." to x)']
    found = {i for i, line in enumerate(lines) for p in patterns(("git-advice",)) if re.search(p, line)}
    assert found == {2} and "git-advice" not in STRUCTURAL


def test_a_dropped_note_takes_its_source_excerpt_with_it():
    from tokenjuice.reduce.noise import repeated_notes

    lines = [
        "a.cpp:3:5: error: no matching function",
        "   3 |   f(x);",
        "a.cpp:1:6: note: candidate: 'void f(int)'",
        "    1 | void f(int);",
        "      |      ^",
        "a.cpp:2:6: note: candidate: 'void f(long)'",
        "    2 | void f(long);",
        "      |      ^",
        "a.cpp:9:1: warning: unused",
    ]
    assert repeated_notes(Lines(lines)) == {5, 6, 7}


def test_a_diff_names_its_file_once():
    from tokenjuice.reduce.noise import repeated_names

    diff = [
        "diff --git a/src/a.py b/src/a.py",
        "index 1..2 100644",
        "--- a/src/a.py",
        "+++ b/src/a.py",
        "@@ -1 +1 @@",
        "--- a/src/a.py",  # a removed line that looks like a header stays: it is in a hunk
        "diff --git a/new.txt b/new.txt",
        "new file mode 100644",
        "--- /dev/null",
        "+++ b/new.txt",
        "diff --git a/old.py b/renamed.py",
        "rename from old.py",
        "rename to renamed.py",
        "--- a/old.py",
        "+++ b/renamed.py",
    ]
    assert repeated_names(Lines(diff)) == {2, 3, 8, 9, 13, 14}
    assert repeated_names(Lines(["--- a.txt 2026-01-01", "+++ b.txt 2026-01-02", "@@ -1 +1 @@"])) == set()  # diff -u


def test_blank_lines_go_but_a_hunks_blank_context_lines_stay():
    """A hunk's blank context line (` `, its space stripped) is a line of the file: the
    hunk does not apply without it, and reads as if the lines around it touched. Lines
    of `git show 2243127` of this repository (its header and the first file cut out);
    the commit's blank lines go."""
    from tokenjuice.reduce.noise import blank_lines

    show = [
        "commit 2243127d65b8a2bdbe0b411e7fce1f4bede79e46",
        "",
        "    perf(hook): the activate script's function pattern compiles where an activate script is read, so",
        "",
        "diff --git a/tokenjuice/shell/rewrite.py b/tokenjuice/shell/rewrite.py",
        "@@ -25,7 +25,6 @@ from __future__ import annotations",
        "",
        " import os",
        " ",
        "-from ..fast.lazyre import lazy",
        " from ..fast.record import record",
        " from .argv import SHELLS, basename, is_python, strip_wrappers",
        " from .syntax import (",
        "",
    ]
    assert blank_lines(Lines(show)) == {1, 3, 13}
    assert blank_lines(Lines(["Oh no!", "", "1 file would be reformatted."])) == {1}  # no hunk


def test_doctest_drops_the_examples_that_passed_and_keeps_the_one_that_failed():
    """Lines of `python -m doctest -v` (Python 3.11.7) on a module with 42 examples."""
    from tokenjuice.reduce.noise import passed_examples

    lines = [
        "Trying:",
        "    round(40 * 2.54, 2)",
        "Expecting:",
        "    101.6",
        "ok",
        "Trying:",
        "    round(41 * 2.54, 2)",
        "Expecting:",
        "    104.13",
        "**********************************************************************",
        'File "/tmp/h51w/py/src/inventory/units.py", line 83, in units',
        "Failed example:",
        "    round(41 * 2.54, 2)",
        "Expected:",
        "    104.13",
        "Got:",
        "    104.14",
        "40 passed and 2 failed.",
        "ok",  # not a block's end: no `Trying:` open
    ]
    assert passed_examples(Lines(lines)) == {0, 1, 2, 3, 4}


def test_cargo_keeps_the_compiling_line_of_the_crate_that_failed():
    from tokenjuice.reduce.noise import built_crates

    lines = [
        "   Compiling codec v0.1.0 (/w/crates/codec)",
        "   Compiling pricing v0.1.0 (/w/crates/pricing)",
        "error[E0308]: mismatched types",
        "error: could not compile `pricing` (lib) due to 1 previous error",
    ]
    assert built_crates(Lines(lines)) == {0}


def test_make_drops_the_commands_of_files_that_compiled_without_a_word():
    from tokenjuice.reduce.noise import clean_compiles

    lines = [
        "cc -Wall -O2 -c src/a.c -o build/a.o",
        "cc -Wall -O2 -c src/b.c -o build/b.o",
        "cc -Wall -O2 -c src/c.c -o build/c.o",
        "src/c.c:3:9: warning: unused variable 'x' [-Wunused-variable]",
        "cc -Wall -O2 -c src/d.c -o build/d.o",
        "cc -o app build/a.o build/b.o build/c.o build/d.o",
    ]
    lines.insert(5, "cc -Wall -O2 -c src/e.c -o build/e.o")
    assert clean_compiles(Lines(lines)) == {1, 4}  # the first and last show the flags; c.c warned; linking stays


def test_make_j4_keeps_the_command_of_the_file_a_diagnostic_names_wherever_it_comes():
    """With jobs in parallel the compiler's words come after other jobs' commands: in
    this real `make -j4` of zlib, gzlib.c's error comes after gzread.c's command, and
    crc32.c's warnings after deflate.c's."""
    from conftest import REPO

    from tokenjuice.reduce.noise import clean_compiles

    lines = (REPO / "tests/scenarios/make-j4-zlib-warnings-error.out").read_text().splitlines()
    dropped = clean_compiles(Lines(lines))
    kept = {lines[k].rsplit(" ", 1)[1] for k, line in enumerate(lines) if " -c -o " in line and k not in dropped}
    # the files that warned or failed, and the first and the last command (the flags, how far it got)
    assert kept == {"test/example.c", "crc32.c", "deflate.c", "inflate.c", "trees.c", "gzlib.c", "gzread.c"}
    gzlib = next(k for k, line in enumerate(lines) if line.endswith("-c -o gzlib.o gzlib.c"))
    assert " -c -o gzread.o " in lines[gzlib + 1]  # followed by another command, yet it is the one that failed


def test_pytest_drops_the_source_of_frames_in_library_code():
    from tokenjuice.reduce.noise import library_source

    lines = [
        "_____ test_payload _____",
        "    def test_payload():",
        ">       data = json.loads(payload)",
        "tests/test_money.py:18: ",
        "/usr/lib/python3.11/json/__init__.py:346: in loads",
        "    return _default_decoder.decode(s)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
        "self = <json.decoder.JSONDecoder object at 0x7f1a>",
        '        """Decode a JSON document from ``s``',
        '>           raise JSONDecodeError("Expecting value", s, err.value) from None',
        "E           json.decoder.JSONDecodeError: Expecting value: line 1 column 19 (char 18)",
        "/usr/lib/python3.11/json/decoder.py:355: JSONDecodeError",
    ]
    assert library_source(Lines(lines)) == {5, 6, 8, 9}  # the test's own frame and every > and E line stay


def test_pytest_drops_the_unknown_source_of_frozen_frames_and_keeps_their_place():
    """A collection error's trace through importlib (pytest 9.2.0, a test module that does
    not parse): a frozen module's name holds a space, and its `???` source line goes with
    every other library frame's source."""
    from tokenjuice.reduce.noise import library_source

    lines = [
        "____________________ ERROR collecting tests/test_syntax.py _____________________",
        "/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module",
        "    return _bootstrap._gcd_import(name[level:], package, level)",
        "           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "<frozen importlib._bootstrap>:1204: in _gcd_import",
        "    ???",
        "<frozen importlib._bootstrap>:1176: in _find_and_load",
        "    ???",
        "/root/.pyenv/versions/3.11.7/lib/python3.11/ast.py:50: in parse",
        "    return compile(source, filename, mode, flags,",
        'E     File "/tmp/h50/pyproj/tests/test_syntax.py", line 1',
        "E       def test_broken(:",
        "E   SyntaxError: invalid syntax",
    ]
    assert library_source(Lines(lines)) == {2, 3, 5, 7, 9}


def test_pytest_header_noise_knows_each_plugins_banner():
    header = re.compile("|".join(__import__("tokenjuice.reduce.noise", fromlist=["x"]).patterns(("pytest-header",))))
    for line in (
        "platform linux -- Python 3.11.7, pytest-9.2.0",
        "rootdir: /w",
        "hypothesis profile 'default'",
        "created: 2/2 workers",  # pytest-xdist 3.8.0
        "[gw0] linux -- Python 3.11.7 /tmp/h50/pyv/bin/python",
    ):
        assert header.search(line), line
    for line in ("tests/test_a.py::test_b PASSED", "[gw1] [ 50%] FAILED tests/test_store.py::test_value"):
        assert not header.search(line), line


def test_library_frames_are_not_looked_for_when_the_output_names_no_library():
    from tokenjuice.reduce.noise import library_source

    class Unjoined(Lines):
        def text(self, folded):
            raise AssertionError("joined")

    output = "_____ test_a _____\n\n    def test_a():\n>       assert 1 == 2\nE       assert 1 == 2\n\ntests/a.py:3: AssertionError"
    assert library_source(Unjoined(output.split("\n"), output)) == set()


@pytest.mark.parametrize(
    "output",
    [
        "x",
        "a-packages/b",
        "venv/site-packages/x.py:3: in f",
        "/usr/lib/dist-packages/y.py",
        "/usr/lib/python3.11/json/decoder.py:355: JSONDecodeError",
        "<frozen importlib._bootstrap>:1: in _call",
        "site-packages",
        "dist-packages /lib/pytho",
    ],
)
def test_an_output_holds_a_library_place_when_it_holds_one_of_them(output):
    """`-packages/` looked for first answers as `site-packages/` and `dist-packages/`
    looked for one by one."""
    from tokenjuice.reduce.noise import _LIBRARY_PLACES, _holds_a_library_place

    view = Lines(output.split("\n"), output)
    assert _holds_a_library_place(view) == any(place in output for place in _LIBRARY_PLACES)
