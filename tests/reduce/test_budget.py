"""The information budget (tokenjuice/reduce/budget.py) and how the engine uses it."""

import os

import pytest
from conftest import tokenjuice
from helpers import make, run

from tokenjuice.reduce.budget import BOUNDED_MAX_CHARS, FAILURE_CHARS, SUCCESS_CHARS, Budgets, from_settings
from tokenjuice.shell.command import analyze


def test_failures_get_more_room_than_successes_and_families_their_own():
    budgets = Budgets(families=(("search", 8000, 9000),))
    assert budgets.of("git-status", failed=False) == SUCCESS_CHARS < FAILURE_CHARS == budgets.of("x", failed=True)
    assert (budgets.of("search", False), budgets.of("search", True)) == (8000, 9000)


def test_a_querys_rows_are_shown_whole_up_to_the_cap_of_output_the_agent_bounded():
    """A query's rows are ones the agent picked (its SELECT and WHERE), as `| head -N`
    bounds an output: whole up to 32 KiB. A failed query keeps a failure's budget."""
    from tokenjuice.reduce.budget import BOUNDED_MAX_CHARS
    from tokenjuice.reduce.engine import Options, _rule_budget
    from tokenjuice.rules.index import load

    catalogue = load(builtin_only=True)
    for name, command in (
        ("database/sqlite3", "sqlite3 app.db 'SELECT id, name FROM users'"),
        ("database/psql", "psql -c 'SELECT * FROM airports'"),
    ):
        rule = catalogue.body(name)
        assert rule is not None and rule.summarize.budget == "bounded"
        info = analyze(command)
        assert not info.bounded
        assert _rule_budget(rule, rule.family, info, False, Options()) == BOUNDED_MAX_CHARS
        assert _rule_budget(rule, rule.family, info, True, Options()) == FAILURE_CHARS


def test_a_search_gets_the_room_of_a_failure_unless_settings_say_otherwise():
    # every line of a search (and of an npm ls tree) is what the agent asked for: its rules say so in their data
    from tokenjuice.rules.index import load

    catalogue = load(builtin_only=True)
    asked = (
        "search/grep",
        "search/rg",
        "search/git-grep",
        "filesystem/find",
        "filesystem/fd",
        "filesystem/git-ls-files",
        "filesystem/rg-files",
        "package/npm-ls",
    )
    searches = [rule for rule in map(catalogue.body, asked) if rule]
    assert len(searches) == len(asked) and all(rule.summarize.budget == "failure" for rule in searches)
    # and twice that: a sample of a flood of matches or paths is judged by how much of it is shown
    assert all(rule.summarize.budget_scale == 2 for rule in searches)
    assert Budgets().of("search", failed=False, scale=2, content=True) == 2 * FAILURE_CHARS
    assert Budgets(failure=4000).of("search", failed=False, scale=2, content=True) == 8000  # lowered with it
    assert catalogue.body("filesystem/ls").summarize.budget == "success"  # a listing, not a query
    assert Budgets().of("search", failed=False, content=True) == FAILURE_CHARS
    assert Budgets(success=3000, failure=4000).of("search", failed=False, content=True) == 4000
    assert Budgets(families=(("search", 5000, 7000),)).of("search", failed=False, content=True) == 5000
    assert Budgets().of("search", failed=False) == SUCCESS_CHARS  # a rule that does not say so


def test_settings_give_the_budgets_and_refuse_bad_family_entries():
    budgets, problems = from_settings(
        {
            "output.max_chars": 3000,
            "output.failure_max_chars": 0,  # 0: the default
            "output.family_max_chars": ["search=8000", "test-results=6000/16000", "bad", "x=10", "y=abc/1"],
        }
    )
    assert (budgets.success, budgets.failure) == (3000, FAILURE_CHARS)
    assert budgets.families == (("search", 8000, 8000), ("test-results", 6000, 16000))
    assert len(problems) == 3 and all("output.family_max_chars" in p for p in problems)


@pytest.mark.parametrize(
    ("command", "bounded"),
    [
        ("grep -rn def src | head -50", True),
        ("git log --oneline | tail -n 20", True),
        ("cat big.log | sed -n 10,80p", True),
        ("git log -n 5", True),
        ("git log -5 --stat", True),
        ("git log --max-count=3", True),
        ("grep -m 3 error app.log", True),
        ("rg --max-count 2 TODO", True),
        ("journalctl -u api -n 100", True),
        ("kubectl logs api --tail 50", True),
        ("docker logs --tail=100 web", True),
        ("tail -f app.log | grep x", False),  # follows: never bounded
        ("grep -rn def src | tail -f", False),
        ("git log", False),
        ("git diff -n", False),  # not a log
        ("grep -rn def src", False),
        ("cat big.log | sed -n '/start/,/end/p'", False),  # not a line range
        ("pytest -q | grep FAILED", False),
    ],
)
def test_output_the_agent_bounded_itself(command, bounded):
    assert analyze(command).bounded is bounded


def test_bounded_output_is_shown_whole_up_to_its_cap():
    output = "".join(f"src/module_{i:04d}.py:{i}:    def function_{i}(argument): pass\n" for i in range(300))
    assert len(output) > 2 * SUCCESS_CHARS
    unbounded = run(output, make(), command="grep -rn def src")["inlineText"]
    bounded = run(output, make(), command="grep -rn def src | head -300")["inlineText"]
    assert "omitted" in unbounded and "omitted" not in bounded
    too_big = "".join(f"line {i:06d} " + "x" * 200 + "\n" for i in range(400))
    assert len(run(too_big, make(), command="cat f | head -400")["inlineText"]) <= BOUNDED_MAX_CHARS


def test_a_rule_whose_lines_were_all_asked_for_gets_a_failures_room_when_the_command_succeeds():
    output = "".join(f"line {i:05d} with some padding to look like real output\n" for i in range(140))
    assert SUCCESS_CHARS < len(output) < FAILURE_CHARS
    assert "omitted" in run(output, make())["inlineText"]
    assert "omitted" not in run(output, make(summarize={"budget": "failure"}))["inlineText"]


def test_a_rules_own_budget_and_the_callers_win_over_the_information_budget():
    output = "".join(f"line {i:05d} with some padding to look like real output\n" for i in range(100))
    assert "omitted" not in run(output, make())["inlineText"]  # 5.5 kB: within the information budget
    assert "omitted" in run(output, make(summarize={"max_chars": 1200}))["inlineText"]
    assert len(run(output, make(), max_inline_chars=800)["inlineText"]) <= 800


def test_a_rule_scales_the_information_budget_and_settings_scale_with_it():
    budgets = Budgets(success=3000, families=(("search", 8000, 9000),))
    assert budgets.of("git-diff", failed=False, scale=2) == 6000  # a lowered budget stays lowered, twice over
    assert budgets.of("search", failed=False, scale=2) == 8000  # a family's own entry is taken as it is
    assert budgets.of("x", failed=False, scale=0) == 3000  # not a positive number: as if 1
    output = "".join(f"line {i:05d} with some padding to look like real output\n" for i in range(180))
    assert "omitted" in run(output, make())["inlineText"]  # 10 kB: past the information budget
    assert "omitted" not in run(output, make(summarize={"budget_scale": 2}))["inlineText"]


def test_the_settings_reach_wrap(workdir):
    script = 'for i in $(seq 1 400); do echo "line $i with some padding to look like real output"; done'
    default = tokenjuice("wrap", "--", "sh", "-c", script).stdout.decode()
    assert "omitted" in default and len(default) <= SUCCESS_CHARS
    wide = tokenjuice(
        "wrap", "--", "sh", "-c", script, env=os.environ | {"TOKENJUICE_MAX_CHARS": "40000"}
    ).stdout.decode()
    assert "omitted" not in wide and "line 400 with" in wide
    refused = tokenjuice("wrap", "--", "sh", "-c", "echo hi", env=os.environ | {"TOKENJUICE_MAX_CHARS": "10"})
    assert refused.returncode == 0 and b"hi" in refused.stdout


def test_the_budget_has_a_floor_and_a_project_may_only_lower_it():
    from tokenjuice.settings import BY_KEY, check, project_refusal

    setting = BY_KEY["output.max_chars"]
    assert check(setting, 999) and "at least 1000" in check(setting, 999)
    assert check(setting, 0) is None and check(setting, 1000) is None  # 0: the default
    assert check(setting, 200_001) is not None  # the hard cap
    assert project_refusal(setting, 3000, 6000) is None
    assert "raise your limit" in project_refusal(setting, 9000, 6000)
    assert BY_KEY["output.family_max_chars"].project == "never"


def test_a_large_stored_output_says_how_to_read_a_part():
    big = "".join(f"line {i:05d} with some padding to look like real output\n" for i in range(1500))
    small = "".join(f"line {i:05d} with some padding to look like real output\n" for i in range(300))
    from conftest import reduce_wire

    def trailer(output):
        hint = "full output: tokenjuice cat 0123abcd"
        text = reduce_wire([make()], hint=hint, command="tool run", combined=output, exit_code=0)["inlineText"]
        return text.splitlines()[-1]

    assert trailer(big).endswith("— full output: tokenjuice cat 0123abcd [--grep RE|--lines A:B])")
    assert len(trailer(big)) <= 105  # ~100 columns with a count of four digits
    assert "--grep" not in trailer(small) and "tokenjuice cat 0123abcd" in trailer(small)


COMPOUND = os.path.join(os.path.dirname(__file__), "..", "scenarios", "compound-grep-count-git-diff.out")


def test_a_compound_command_mostly_one_tools_output_takes_that_tools_budget():
    """`grep -c …; git diff` falls to the generic rule (a command of several tools) but
    is nearly all a diff, recognised by its content: it gets git diff's budget (twice
    the budget), as `git diff` alone would; a diff that is under half of the output
    does not, and a size the caller asked for stays as it is."""
    with open(COMPOUND, encoding="utf-8") as handle:
        raw = handle.read()
    command = "grep -c TODO notes.txt; git diff"

    def shown(output: str, *extra: str) -> str:
        done = tokenjuice("reduce", "--command", command, "--exit-code", "0", *extra, input=output)
        assert done.returncode == 0
        return done.stdout.decode()

    assert SUCCESS_CHARS < len(shown(raw)) <= 2 * SUCCESS_CHARS
    filler = "".join(f"note {i:05d}: a line of another tool's output, padded\n" for i in range(raw.count("\n") + 10))
    assert len(shown(filler + raw)) <= SUCCESS_CHARS  # the diff is under half of the lines
    assert len(shown(raw, "--max-inline-chars", "3000")) < SUCCESS_CHARS  # the caller's size, not the diff's


FLORIDA = os.path.join(os.path.dirname(__file__), "..", "scenarios", "psql-airports-florida.out")


def test_a_querys_rows_are_shown_whole_up_to_a_searchs_room():
    """psql's aligned table of 100 rows (~10 kB, over a success's budget) is what the
    agent asked for: every row shown, its padding shortened, none cut."""
    with open(FLORIDA, encoding="utf-8") as handle:
        raw = handle.read()
    command = "psql -d airports -c \"SELECT iata, name, city, latitude, longitude FROM airports WHERE state = 'FL'\""
    done = tokenjuice("reduce", "--command", command, "--exit-code", "0", input=raw)
    shown = done.stdout.decode()
    assert len(raw) > SUCCESS_CHARS and "omitted" not in shown and len(shown) < len(raw)
    assert shown.count(" | ") >= raw.count(" | ") and "(100 rows)" in shown
