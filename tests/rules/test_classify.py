import pytest
from conftest import rule_of

from tokenjuice.rules import index
from tokenjuice.rules.classify import classify, contains_word
from tokenjuice.rules.index import entry_of
from tokenjuice.shell.command import analyze


def rule(rule_id, match, priority=0, family=None):
    return entry_of(rule_of(rule_id, family=family or rule_id.replace("/", "-"), match=match, priority=priority))


RULES = sorted(
    [
        rule("generic/fallback", {}),
        rule("generic/help", {"any_of": [{"argv_includes": [["--help"]]}, {"subcommands": ["help"]}]}, priority=25),
        rule("git/status", {"argv0": ["git"], "git_subcommands": ["status"]}),
        rule("git/log", {"argv0": ["git"], "git_subcommands": ["log"]}),
        rule("git/log-oneline", {"argv0": ["git"], "git_subcommands": ["log"], "argv_includes": [["--oneline"]]}),
        rule("tests/pytest", {"argv0": ["pytest", "py.test"]}),
        rule("tests/npm-test", {"argv0": ["npm"], "argv_includes_any": [["test"], ["t"]]}),
        rule("tests/jest", {"argv0": ["jest"]}),
        rule("task/python", {"argv0": ["python", "python3"]}),
        rule("task/make", {"argv0": ["make"]}),
        rule("build/tsc", {"command_includes": ["tsc"]}),
        rule("install/yarn-install", {"argv0": ["yarn"], "argv_includes": [["install"]]}),
    ],
    key=lambda r: (r.id == "generic/fallback", r.id),
)


def chosen(command=None, argv=None, rules=RULES, forced=None):
    result = classify(analyze(command, argv), rules, "exec", forced)
    return result.rule.id, (result.candidate.source if result.candidate else None)


@pytest.mark.parametrize(
    "command, rule_id, via",
    [
        ("git status", "git/status", "original"),
        ("git -C repo status", "git/status", "original"),
        ("/usr/bin/git status", "git/status", "original"),
        ("FOO=1 git status", "git/status", "effective"),
        ("sudo git status", "git/status", "effective"),
        ("cd repo && git status", "git/status", "effective"),
        ("git log --grep status", "git/log", "original"),
        ("git log --oneline -5", "git/log-oneline", "original"),
        ("python -m pytest -x", "tests/pytest", "effective"),
        ("uv run python -m pytest", "tests/pytest", "effective"),
        ("python script.py", "task/python", "original"),
        ("npx jest", "tests/jest", "effective"),
        ("yarn jest --ci", "tests/jest", "effective"),
        ("yarn install", "install/yarn-install", "original"),
        ("npm test", "tests/npm-test", "original"),
        ("npx tsc --noEmit", "build/tsc", "effective"),
        ("pnpm tsc --noEmit", "build/tsc", "effective"),
        ("git status --help", "generic/help", "original"),
        ("cargo help build", "generic/help", "original"),
        ("gcc --help=optimizers", "generic/help", "original"),  # an option with its value is given
        ("git log --oneline=yes", "git/log-oneline", "original"),
        ("git log --helpful", "git/log", "original"),  # a longer option is another option
        ("git status && git log", "generic/fallback", None),
        ("cd ~/src/tsc-demo && make", "task/make", "effective"),
        ("tscx", "generic/fallback", "original"),
    ],
)
def test_classification(command, rule_id, via):
    assert chosen(command) == (rule_id, via)


def test_alternatives_count_once_not_per_spelling():
    # The original scored each listed argv0 spelling (6 × 100 here); a rule that
    # pins the subcommand is more specific than one that accepts many tools.
    rules = [
        rule("a/many", {"argv0": ["npm", "pnpm", "yarn", "bun", "npx", "bunx"]}),
        rule("z/one", {"argv0": ["npm"], "subcommands": ["test"]}),
        rule("generic/fallback", {}),
    ]
    assert chosen("npm test", rules=rules)[0] == "z/one"


def test_ties_prefer_alphabetical_id():
    rules = [rule("b/x", {"argv0": ["tool"]}), rule("a/x", {"argv0": ["tool"]}), rule("generic/fallback", {})]
    assert chosen("tool", rules=rules)[0] == "a/x"


def test_forced_classifier_and_unknown_forced_id():
    assert chosen("git status", forced="task/make") == ("task/make", None)
    assert chosen("git status", forced="no/such")[0] == "git/status"


def test_missing_fallback_is_survivable():
    rules = [r for r in RULES if r.id != "generic/fallback"]
    assert chosen("whatever", rules=rules)[0] == "generic/fallback"


@pytest.mark.parametrize(
    "text, part, found",
    [
        ("pnpm tsc --noEmit", "tsc", True),
        ("tscx", "tsc", False),
        ("jest.config.js", "jest", True),
        ("my_jest", "jest", False),
        ("a --help", " --help", True),
        ("", "x", False),
    ],
)
def test_contains_word(text, part, found):
    assert contains_word(text, part) is found


def test_builtin_catalogue_classifies_git_status_behind_a_login_shell(workdir):
    catalogue = index.load(str(workdir))
    result = classify(analyze(argv=["bash", "-lc", "cd /repo && git status --short"]), catalogue.entries)
    assert result.rule.id == "git/status"
    assert result.candidate.source == "effective"


def test_a_wrapper_script_is_classified_by_its_output(workdir):
    from conftest import tokenjuice

    script = workdir / "run-tests.sh"
    script.write_text(
        "#!/bin/sh\necho '============================= test session starts =============================='\n"
        'for i in $(seq 1 200); do echo "tests/test_$i.py::test_x PASSED"; done\n'
        "echo 'FAILED tests/test_7.py::test_boom - AssertionError: boom'\n"
        "echo '==================== 1 failed, 199 passed in 0.50s ===================='\nexit 1\n"
    )
    script.chmod(0o755)
    import json

    done = tokenjuice("wrap", "--format", "json", "--", "./run-tests.sh")
    classification = json.loads(done.stdout)["result"]["classification"]
    assert classification["matchedReducer"] == "tests/pytest" and classification["matchedVia"] == "output"
    make = tokenjuice("wrap", "--format", "json", "--", "sh", "-c", "echo building; echo done")
    assert json.loads(make.stdout)["result"]["classification"]["matchedReducer"] == "generic/fallback"


def test_a_host_tool_without_a_command_is_classified_by_its_tool_name():
    rules = RULES + [rule("openclaw/sessions-history", {"tool_names": ["sessions_history"]}, priority=100)]
    result = classify(analyze(None, None), rules, "sessions_history")
    assert result.rule.id == "openclaw/sessions-history"
    assert classify(analyze(None, None), rules, "exec").rule.id == "generic/fallback"


def test_output_signatures_prefer_a_test_runner_and_see_the_end_of_the_output():
    from tokenjuice.rules.classify import Classification, sniff

    rules = [
        rule("build/cargo-build", {"argv0": ["cargo"], "output": [r"^\s+Compiling \S+ v\d"]}),
        rule(
            "tests/cargo-test",
            {"argv0": ["cargo"], "output": [r"^test result: (?:ok|FAILED)\. \d+ passed"]},
            family="test-results",
        ),
        rule("tests/jest", {"argv0": ["jest"], "output": [r"^Test Suites: \d+ "]}, family="test-results"),
    ]
    make = Classification(rule("task/make", {"argv0": ["make"]}), None, 0.9)
    cargo = "   Compiling ledger v0.1.0\n" + "test x ... ok\n" * 100 + "test result: ok. 100 passed; 0 failed\n"
    assert sniff(make, rules, cargo).rule.id == "tests/cargo-test"  # its line is among the last 40
    assert sniff(make, rules, "   Compiling ledger v0.1.0\n    Finished\n").rule.id == "build/cargo-build"
    both = "test result: ok. 3 passed; 0 failed\nTest Suites: 1 passed, 1 total\n"
    assert sniff(make, rules, both).rule.id == "tests/cargo-test"  # the earliest hit among test runners
    assert sniff(make, rules, "all good\n") is None
    assert sniff(make, rules, "\n\n") is None


def test_a_project_output_pattern_that_backtracks_forever_costs_one_budget_not_a_hang(monkeypatch):
    """Checked on the work, not timed: every search of the pattern is bounded by what
    is left of one budget (shared by all 80 lines, not renewed per line), which
    tokenjuice enforces and reports as no match."""
    from tokenjuice.rules import patterns
    from tokenjuice.rules.classify import Classification, sniff

    timeouts: list[float] = []
    real = patterns.compile_checked

    class Counted:
        def __init__(self, compiled):
            self.compiled = compiled

        def search(self, line, timeout=None):
            timeouts.append(timeout)
            return self.compiled.search(line, timeout=timeout)

    monkeypatch.setattr(patterns, "compile_checked", lambda *args: Counted(real(*args)))
    hostile = entry_of(rule_of("proj/slow", layer="project", family="x", match={"output": [r"^(a+)+$"]}))
    assert not hostile.trusted and hostile.output_literals == ("a",)
    make = Classification(rule("task/make", {"argv0": ["make"]}), None, 0.9)
    assert sniff(make, [hostile], ("a" * 40 + "!\n") * 80) is None
    assert timeouts and all(t is not None for t in timeouts)
    assert timeouts == sorted(timeouts, reverse=True) and timeouts[0] <= patterns.USER_PATTERN_BUDGET_SECONDS
