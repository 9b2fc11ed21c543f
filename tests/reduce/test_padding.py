"""Terminal padding is shortened (`squeeze`), source text never is: a rule whose
output quotes source (a search's matches, a diff's lines, blame) declares
`squeeze_padding = false`, and its lines come back with their spaces exact, so an
agent can copy a match into an edit. A table's column padding is still shortened, and
so are rules drawn to the terminal's width; a pretty JSON document is laid out with its
small containers on one line, token for token."""

import difflib
from pathlib import Path

import pytest
from conftest import tokenjuice

from tokenjuice.reduce.reencode import decoded, shows, squeeze

PACKAGE = Path(__file__).resolve().parents[2] / "tokenjuice"
SOURCES = sorted(PACKAGE.rglob("*.py"))


def reduced(command: str, output: str, exit_code: int = 0) -> str:
    done = tokenjuice("reduce", "--command", command, "--exit-code", str(exit_code), input=output)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


@pytest.mark.parametrize("command", ["grep -rn return tokenjuice", "rg -n return tokenjuice", "git grep -n return"])
def test_a_searchs_matches_keep_their_codes_indentation_whole_or_cut(command):
    matches = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if line.startswith("        ") and "return" in line:  # deep in a function: its indentation counts
                matches.append(f"{path.relative_to(PACKAGE.parent)}:{number}:{line}")
    matches = matches[:160]
    output = "\n".join(matches) + "\n"  # under a search's budget: shown whole, or shortened
    assert 8_000 < len(output) < 16_000
    shown = set(decoded(reduced(command, output)).splitlines())
    assert len(shown & set(matches)) > 20  # matches shown as the tool printed them
    shortened = {str(squeeze(m)) for m in matches} - set(matches)
    assert len(shortened) == 160 and not shown & shortened  # none with its spaces shortened


def test_a_diffs_changed_lines_keep_their_spaces_whole_or_cut():
    parts = []
    for path in SOURCES[:40]:
        old = path.read_text().splitlines(keepends=True)
        new = [line.replace("self.", "this.") if "        self." in line else line for line in old]
        if old == new:
            continue
        name = str(path.relative_to(PACKAGE.parent))
        parts.append(f"diff --git a/{name} b/{name}\n")
        parts.extend(difflib.unified_diff(old, new, f"a/{name}", f"b/{name}"))
        if sum(map(len, parts)) > 7_000:
            break
    output = "".join(parts)  # under a diff's budget: shown whole, or shortened
    changed = {line.rstrip("\n") for line in parts if line.startswith(("+", "-"))}
    shown = reduced("git diff", output).splitlines()
    lines = [
        line
        for line in shown
        if line.startswith(("+", "-")) and not line.startswith(("+++", "---")) and "chars omitted" not in line
    ]
    assert len(lines) > 20 and all(line in changed for line in lines), [x for x in lines if x not in changed][:3]
    assert len([line for line in lines if str(squeeze(line)) != line]) > 5  # lines a squeeze would have shortened


def test_a_tables_column_padding_is_still_shortened():
    """Under the budget too, where shortening saves enough (here a fifth of the text)."""
    rows = [f"web-{k:04d}      Running      10.0.0.{k}      {k % 7}d      node-{k % 9}" for k in range(80)]
    output = "NAME          STATUS       IP            AGE     NODE\n" + "\n".join(rows) + "\n"
    shown = reduced("kubectl-like get pods", output)
    assert "web-0000  Running  10.0.0.0  0d  node-0" in shown and "web-0079  Running" in shown
    assert "      Running" not in shown


def _failing_pytest_run(tmp_path, count):
    """The output of a real `pytest -q` run of `count` failing tests."""
    import subprocess
    import sys

    cases = "\n".join(
        f"def test_case_{k}():\n    assert {k} == {k + 1}, 'case {k} is off by one'\n" for k in range(count)
    )
    (tmp_path / "test_cases.py").write_text(cases)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_cases.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    ).stdout


def test_rules_drawn_to_the_terminals_width_are_shortened_and_read_back(tmp_path):
    """pytest's `_____ test_x _____` and `===== FAILURES =====` say nothing in their
    length: a real failing run shows them three wide, and the scorer's reading of the
    shown text (`shows`) still finds each line as pytest printed it."""
    raw = _failing_pytest_run(tmp_path, 12)
    titles = [line for line in raw.splitlines() if line.startswith("____") and "test_case_" in line]
    assert len(titles) == 12
    shown = reduced("python -m pytest -q", raw, exit_code=1)
    assert "________" not in shown and "========" not in shown
    readable = decoded(shown)
    assert all(shows(readable, title) for title in titles)
    assert all(f"AssertionError: case {k} is off by one" in shown for k in range(12))
    assert "12 failed" in shown
    assert len(shown) < len(raw)


def test_what_a_cut_between_failures_keeps_has_its_drawn_rules_shortened_too(tmp_path):
    """Past the budget (units cut: some failures left out), the titles kept are shown
    three wide as well, so the room goes to failures, not to underscores."""
    raw = _failing_pytest_run(tmp_path, 60)
    done = tokenjuice(
        "reduce", "--command", "python -m pytest -q", "--exit-code", "1", "--max-inline-chars", "2500", input=raw
    )
    shown = done.stdout.decode()
    assert "omitted" in shown and "60 failed" in shown  # cut between failures
    assert "___ test_case_0 ___" in shown
    assert "________" not in shown and "========" not in shown


def test_a_pretty_json_document_is_laid_out_with_its_small_containers_on_one_line():
    """Losslessly: the same document, every token spelled as it was, and no trailer
    saying lines were left out; a number or an escape JSON would spell otherwise
    leaves the document as it was, and an exact read of a file stays byte for byte."""
    import json

    raw = (Path(__file__).resolve().parents[1] / "scenarios" / "json-npm-ls-all.out").read_text()
    shown = reduced("npm ls --all --json", raw)
    assert json.loads(shown) == json.loads(raw)
    assert len(shown) < 0.7 * len(raw) and "omitted" not in shown
    assert '"@eslint/core": {"version": "1.2.1", "overridden": false' in shown
    spelled = raw.replace('"version": "10.0.1"', '"version": 10.10', 1)
    assert reduced("npm ls --all --json", spelled) == spelled
    assert reduced("cat package-tree.json", raw) == raw


def test_a_querys_rows_are_shortened_though_they_start_as_a_source_excerpt_does():
    """psql's rows with a number first and sqlite3's box rows look like an excerpt's
    gutter (`24 |     Stock {`, `   │ code`) but hold three separators or more, a box
    row its border at both ends: their padding goes; an excerpt's indentation stays,
    and a piece of a row looked for is found in the shortened row."""
    row = "   1 | Customer 001 | FR      |      4 |         33000"
    assert squeeze(row) == "   1 | Customer 001 | FR  |  4 |  33000"
    box = "│ mazda glc                   │ 46.6             │ 4         │"
    assert squeeze(box) == "│ mazda glc  │ 46.6  │ 4  │"
    for excerpt in ("  24 |     Stock {", "   │     let total = a | b;", "  7 |     x = a | b", "  |     ^^^^^"):
        assert squeeze(excerpt) == excerpt
    assert shows(str(squeeze(box)), "│ mazda glc                   │ 46.6") and not shows(box, "│ mazda  glc")
    rows = [f"│ mazda glc {k:<17} │ {k / 10:<16} │ 4         │" for k in range(100)]
    shown = reduced("sqlite3 -box cars.db 'SELECT name, mpg FROM cars'", "\n".join(rows) + "\n")
    assert "│ mazda glc 99  │ 9.9  │ 4  │" in shown and "mazda glc 99   " not in shown


def test_what_a_rules_trim_patterns_left_has_its_padding_shortened_too():
    """coverage report's rows of installed code go on the cut path (trim patterns); the
    project's rows left fit the budget whole, and their padding (here 100 columns) is
    shortened as any other output's: the path that keeps them without a cut squeezes too."""
    rows = [f"src/pkg/module_{k:02d}.py" + " " * 80 + f"{100 + k:5d}   {k:4d}   {90 - k}%" for k in range(12)]
    installed = [
        f"/venv/lib/python3.11/site-packages/dep/mod_{k:03d}.py" + " " * 60 + f"{50 + k:5d}   {k:4d}   50%"
        for k in range(400)
    ]
    header = "Name" + " " * 96 + "Stmts   Miss  Cover"
    output = "\n".join([header, "-" * 120, *installed, *rows, "-" * 120, "TOTAL" + " " * 95 + "99999   9999    70%"])
    shown = reduced("coverage report -m", output + "\n")
    assert "site-packages/dep/mod_200.py" not in shown  # trimmed: installed code goes first
    assert "src/pkg/module_11.py  111  11  79%" in shown and "module_11.py   " not in shown
    assert shows(decoded(shown), rows[5])


def test_a_tables_border_between_junctions_is_left_as_drawn():
    """Its columns line up with the rows' (psql, mysql -t); a rule alone is shortened."""
    assert squeeze("+-----------+------------------+--------+") == "+-----------+------------------+--------+"
    assert squeeze("-----+--------------+---------") == "-----+--------------+---------"
    assert squeeze("=================== 3 failed in 0.12s ===================") == "=== 3 failed in 0.12s ==="
    assert squeeze("------------------------------------------") == "---"


def test_a_tables_border_is_shortened_with_its_rows_and_only_then():
    """A border lines up with the rows' columns; once their padding is shortened it
    lines up with nothing, and each run between its junctions is drawn three wide."""
    from tokenjuice.reduce.reencode import squeezed

    border = "-----+--------------+---------+--------+---------------"
    rows = [
        "   1 | Customer 001 | FR      |      4 |         33000",
        "   2 | Customer 002 | US      |      4 |         34964",
    ]
    assert squeezed([border, *rows]) == (
        "---+---+---+---+---",
        "   1 | Customer 001 | FR  |  4 |  33000",
        rows[1].replace("      |      4 |         ", "  |  4 |  "),
    )
    tight = ["  1 | Customer 001 | FR | 4 | 33000"]
    assert squeezed([border, *tight]) == (border, *tight)  # nothing shortened: the border lines up still
    box = ["┌─────────────┬──────────┐", "│ mazda glc   │ 46.6     │", "└─────────────┴──────────┘"]
    assert squeezed(box) == ("┌───┬───┐", "│ mazda glc  │ 46.6  │", "└───┴───┘")
    assert shows("---+---+---+---+---\n   1 | Customer 001 | FR  |  4 |  33000", "-----+--------------+")


def test_a_line_already_clipped_is_shown_as_the_tool_printed_its_ends():
    """Squeezing a clipped line would make its ends something the tool never printed
    (its caret line cut off, its source excerpt no longer seen as aligned)."""
    from tokenjuice.reduce.reencode import squeezed

    clipped = "src/a.js:8:6:      8 │ if (x == NaN) …[8579 chars omitted]… ==" + "=" * 20
    plain = "a      b ________________ c"
    assert squeezed([clipped, plain]) == (clipped, "a  b ___ c")
