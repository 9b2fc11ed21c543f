"""`verify.unexplained_lines` reads a shown text as `reencode.decoded` does (one walker,
`reencode.readings`): a line in a lossless form is explained by the lines of the tool it
stands for, and a heading of tokenjuice's only by a line read under it. The outputs are
real (the scenario corpus, or captured on this machine as each test says); the shown
texts are tokenjuice's forms of them, one line forged where a test says so."""

from __future__ import annotations

import conftest

from tokenjuice.rules.verify import unexplained_lines

SCENARIOS = conftest.REPO / "tests" / "scenarios"
#: `flake8 src` over click (tests/scenarios/flake8-click-src): one message at two places.
FLAKE8 = (SCENARIOS / "flake8-click-src.out").read_text()
E501 = "E501 line too long (87 > 79 characters)"
#: `find venv -name '*.py'` (tests/scenarios/find-venv-py).
FIND = (SCENARIOS / "find-venv-py.out").read_text()
SITE = ".venv/lib/python3.11/site-packages/"
#: `grep -rn def …/pip/_internal/cli` (tests/scenarios/grep-pip-cli-defs).
GREP = (SCENARIOS / "grep-pip-cli-defs.out").read_text()
REQ = "/tmp/scen/venv/lib/python3.11/site-packages/pip/_internal/cli/req_command.py"
#: `git log -p -5` (tests/scenarios/git-log-p-5): every commit by one author.
LOG = (SCENARIOS / "git-log-p-5.out").read_text()
SEED = "Seed b4ca9b9a maintainers <maintainers@users.noreply.a-seed-b4ca9b9a.example>"


def test_places_said_together_check_each_place_and_one_forged_place_is_found():
    assert f"src/click/core.py:515:80: {E501}" in FLAKE8 and f"src/click/core.py:707:80: {E501}" in FLAKE8
    said = f"src/click/core.py:\n  {{515:80,707:80}}: {E501}"
    assert unexplained_lines(FLAKE8, said) == []
    forged = f"  {{515:80,708:80}}: {E501}"
    found = "  96:80: E501 line too long (83 > 79 characters)"  # a finding that bears the file out
    assert unexplained_lines(FLAKE8, f"src/click/core.py:\n{found}\n{forged}") == [forged]
    # alone under it, the file counts no more: a line flake8 never printed
    assert unexplained_lines(FLAKE8, f"src/click/core.py:\n{forged}") == ["src/click/core.py:", forged]
    # the same under a folder said once, the file said under it
    under = f"src/click/:\n  core.py:\n    {{515:80,707:80}}: {E501}"
    assert unexplained_lines(FLAKE8, under) == []
    forged_under = f"    {{515:80,708:80}}: {E501}"
    assert unexplained_lines(FLAKE8, f"src/click/:\n  core.py:\n{forged_under}") == [
        "src/click/:",  # no line read under it is printed: neither the folder nor its file counts
        "  core.py:",
        forged_under,
    ]


def test_a_brace_list_with_one_forged_name_is_found():
    assert f"{SITE}charset_normalizer/cd.py" in FIND and f"{SITE}charset_normalizer/md.py" in FIND
    assert unexplained_lines(FIND, f"{SITE}charset_normalizer/{{cd.py,md.py}}") == []
    forged = f"{SITE}charset_normalizer/{{cd.py,xd.py}}"
    assert unexplained_lines(FIND, forged) == [forged]
    # under a folder said once, beside a brace list that checks (which bears the folder out)
    under = f"{SITE}:\n  charset_normalizer/{{cd.py,md.py}}\n  charset_normalizer/{{api.py,evil.py}}"
    assert unexplained_lines(FIND, under) == ["  charset_normalizer/{api.py,evil.py}"]


def test_a_heading_over_nothing_it_bears_out_is_found():
    """A search's file said once with no match under it, the author of every commit over
    no commit: lines the tool never printed, though the path and the author are in the
    output (the old reader took an input line that starts with the path, or names the
    author, for enough)."""
    assert f"{REQ}:50:def _create_truststore_ssl_context()" in GREP
    match = '  50:def _create_truststore_ssl_context() -> Optional["SSLContext"]:'
    assert unexplained_lines(GREP, f"{REQ}:\n{match}") == []
    assert unexplained_lines(GREP, f"{REQ}:\n... 3 lines omitted ...") == [f"{REQ}:"]
    assert f"Author: {SEED}" in LOG
    commit = LOG.split("\n")[0]
    assert unexplained_lines(LOG, f"Author of every commit: {SEED}\n{commit}") == []
    assert unexplained_lines(LOG, f"Author of every commit: {SEED}\n... 700 lines omitted ...") == [
        f"Author of every commit: {SEED}"
    ]


#: `find tokenjuice/reduce -name 'g*.py' | sort; ls tokenjuice/rules | grep -v pycache | head -4`,
#: run in this repository: two paths of one folder, then bare names of another.
FIND_THEN_LS = (
    "tokenjuice/reduce/gh.py\ntokenjuice/reduce/guard.py\n__init__.py\nbuiltin.json\nclassify.py\ncoverage.py\n"
)


def test_a_folder_counts_only_where_a_path_read_under_it_was_printed():
    """A folder said once over names the output prints bare, in another folder: each
    line under it is a line of the output as it is, but read under the folder (as
    `decoded`, the guard and the scorer read it) it names a path never printed."""
    assert unexplained_lines(FIND_THEN_LS, "tokenjuice/reduce/:\n  {gh,guard}.py") == []
    forged = "tokenjuice/reduce/:\n  classify.py\n  coverage.py"
    assert unexplained_lines(FIND_THEN_LS, forged) == ["tokenjuice/reduce/:"]
    # one path under it printed: the folder counts, and the bare names are lines as printed
    assert unexplained_lines(FIND_THEN_LS, "tokenjuice/reduce/:\n  gh.py\n  classify.py") == []


def test_a_forged_source_line_is_not_taken_for_a_counts_line():
    """The counts line over a body (`3 errors, 2 warnings`) is tokenjuice's own; a line
    that only starts with a number (a compiler's quoted source, `8 |     if …`) is not
    one, and a forged one is found (it passed as counts before)."""
    raw = "\n".join(
        [
            "src/app.py:8:9: error: Unsupported operand types [operator]",
            "    8 |     if path in cache:",
            "      |        ^",
            "Found 1 error in 1 file",
        ]
    )
    shown = "\n".join(
        [
            "1 error",
            "src/app.py:8:9: error: Unsupported operand types [operator]",
            "8 |     if path in cache == True:",
            "Found 1 error in 1 file",
        ]
    )
    assert unexplained_lines(raw, shown) == ["8 |     if path in cache == True:"]
    assert unexplained_lines(raw, shown.replace(" == True", "")) == []
