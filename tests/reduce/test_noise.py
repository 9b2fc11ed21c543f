"""Named noise (tokenjuice.reduce.noise): kinds of line a rule drops by name."""

import re

import pytest
from helpers import lines, make, run


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
    with pytest.raises(Exception, match="filters.noise: 'chatter' is not one of"):
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
    assert repeated_notes(lines) == {5, 6, 7}
