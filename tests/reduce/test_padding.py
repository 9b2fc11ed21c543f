"""Terminal padding is shortened (`squeeze`), source text never is: a rule whose
output quotes source (a search's matches, a diff's lines, blame) declares
`squeeze_padding = false`, and its lines come back with their spaces exact, so an
agent can copy a match into an edit. A table's column padding is still shortened."""

import difflib
from pathlib import Path

import pytest
from conftest import tokenjuice

from tokenjuice.reduce.reencode import decoded, squeeze

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
