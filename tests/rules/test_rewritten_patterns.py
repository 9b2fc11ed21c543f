"""Built-in patterns rewritten to cost less match what they matched: each one's
earlier form is kept here and both are tried on generated lines and on every line of
the scenario corpus (real outputs)."""

import gzip
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]

#: (rule file, the pattern as written now, the patterns it was written as before: it
#: matches what any of them matched)
REWRITTEN = [
    (
        "reducers/tests/pytest.toml",
        r"^[^\s:]+\.py::(?:[^ \n]*+ )+?(?:PASSED|SKIPPED|XFAIL|XPASS)\b",
        (r"^[^\s:]+\.py::.* (?:PASSED|SKIPPED|XFAIL|XPASS)\b",),
    ),
    ("reducers/tests/pytest.toml", r"^\s*+[\^~]*+$", (r"^\s*$", r"^\s*[\^~]+$")),
    ("reducers/tests/pytest.toml", r"^_(?: _)+$", (r"^(?:_ )+_$",)),
    ("reducers/tests/pytest.toml", r"^[.sxXR]++ *+(?:\[ *+\d++%\])?+$", (r"^[.sxXR]+ *(?:\[ *\d+%\])?$",)),
    ("reducers/tests/pytest.toml", r"^[.sFEexXR]++ *+(?:\[ *+\d++%\])?+$", (r"^[.sFEexXR]+ *(?:\[ *\d+%\])?$",)),
]

#: A line: how it starts (a test id's file, or not), then pieces of what may follow.
_STARTS = st.sampled_from(
    ["t.py::", "a/b.py::", "t.py:", ".py::", " t.py::", "x", "", " ", "^", "~", "\n", "_", "_ ", ".", "s", "..F", "R "]
)
_PIECES = st.sampled_from(
    ["test_a[1-2]", " ", "   ", "PASSED", "SKIPPED", "XFAIL", "XPASS", "PASSEDx", "FAILED", "::"]
    + [
        "[ 50%]",
        "\n",
        "\t",
        ":",
        "é",
        "━",
        "x",
        "(reason)",
        "\u00a0",
        "^",
        "^^^",
        "~",
        "\r",
        "\x0c",
        "_",
        " _",
        "_ ",
        ".",
        "s",
        "F",
        "R",
        "..sF",
        "[",
        "]",
        "%",
        "5",
        "[ 40%]",
        "[100%]",
        "[ 5%",
        "[100%",
    ]
)
_LINES = st.tuples(_STARTS, st.lists(_PIECES, max_size=8).map("".join)).map("".join)


def _patterns_of(rule_file: str) -> set[str]:
    filters = tomllib.loads((ROOT / rule_file).read_text(encoding="utf-8")).get("filters", {})
    return {pattern for patterns in filters.values() if isinstance(patterns, list) for pattern in patterns}


@pytest.mark.parametrize(("rule_file", "now", "before"), REWRITTEN)
def test_the_rewritten_pattern_is_the_rules(rule_file, now, before):
    assert now in _patterns_of(rule_file)
    assert not set(before) & _patterns_of(rule_file)


@pytest.mark.parametrize(("rule_file", "now", "before"), REWRITTEN)
@settings(max_examples=1500, deadline=None)
@given(line=_LINES)
def test_a_rewritten_pattern_matches_the_generated_lines_its_earlier_form_matched(rule_file, now, before, line):
    assert bool(re.search(now, line)) == any(re.search(pattern, line) for pattern in before)


def test_a_rewritten_pattern_matches_the_real_lines_its_earlier_form_matched():
    lines: set[str] = set()
    for path in sorted((ROOT / "tests" / "scenarios").glob("*.out*")):
        raw = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        lines.update(raw.decode("utf-8", "replace").replace("\r", "\n").split("\n"))
    assert len(lines) > 10_000
    matched = 0
    for _, now, before in REWRITTEN:
        compiled_now, compiled_before = re.compile(now), re.compile("|".join(f"(?:{p})" for p in before))
        differ = [line for line in lines if bool(compiled_now.search(line)) != bool(compiled_before.search(line))]
        assert differ == [], (now, differ[:3])
        matched += sum(1 for line in lines if compiled_now.search(line))
    assert matched > 100  # the corpus has lines they match (distinct ones: pytest's -v lines, carets)
