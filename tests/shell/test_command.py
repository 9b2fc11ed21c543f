import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.shell.argv import unwrap_shell
from tokenjuice.shell.command import analyze


def effective(command=None, argv=None):
    info = analyze(command, argv)
    return [list(c.argv) for c in info.candidates if c.source == "effective"]


def test_fish_body_uses_fish_dialect():
    assert unwrap_shell(["fish", "-c", "echo 'a\\'b'"]) == ("echo 'a\\'b'", "fish")
    assert analyze(argv=["fish", "-c", "cd x; and git status"]).normalized_argv == ("git", "status")


def test_nested_launchers_unwrap():
    info = analyze(argv=["/bin/bash", "-lc", "bash -c 'sh -c \"npm test\"'"])
    assert info.normalized_argv == ("npm", "test")


@pytest.mark.parametrize(
    "command, rule",
    [
        ("pnpm esbuild src/index.ts --bundle", "build/esbuild"),
        ("yarn esbuild src/index.ts", "build/esbuild"),
        ("npx esbuild src/index.ts", "build/esbuild"),
        ("pnpm prettier --check .", "lint/prettier-check"),
        ("pnpm prettier -c src", "lint/prettier-check"),
        ("npx prettier --check .", "lint/prettier-check"),
        ("pnpm install", "install/pnpm-install"),
        ("pnpm test", "tests/pnpm-test"),
        ("yarn add lodash", "install/yarn-install"),
        ("yarn test", "tests/yarn-test"),
        ("pnpm build", "build/pnpm-build"),
    ],
)
def test_package_manager_binaries_classify_as_the_binary(command, rule, workdir):
    from tokenjuice.rules import index
    from tokenjuice.rules.classify import classify

    assert classify(analyze(command), index.load(str(workdir)).entries).rule.id == rule


@pytest.mark.parametrize(
    "command, argv",
    [
        ("cd repo && git status", ["git", "status"]),
        ("cd repo; git status", ["git", "status"]),
        ("cd 'my repo' && FOO=1 git status", ["git", "status"]),
        ("source .venv/bin/activate && pytest", ["pytest"]),
        ("export CI=1 && set -e && pytest -q", ["pytest", "-q"]),
        ("cd x || exit 1; pytest", ["pytest"]),
        ("pytest || true", ["pytest"]),
        ("echo '== tests ==' && pytest", ["pytest"]),
        ("(cd x && pytest)", ["pytest"]),
        ("git status | head -5", ["git", "status"]),
        ("git status 2>&1 | tail -n 20 | sort", ["git", "status"]),
        ("pytest -q 2>&1 | tee log.txt", ["pytest", "-q"]),
        ("nvm use 20 && npm test", ["npm", "test"]),
        ("cd /tmp && env | sort", ["env"]),
    ],
)
def test_effective_command(command, argv):
    assert argv in effective(command)


@pytest.mark.parametrize(
    "command",
    [
        "git diff | grep foo",  # grep reshapes the output: no single rule fits
        "cat a.txt | sort -o out",
    ],
)
def test_non_structural_pipelines_have_no_effective_argv(command):
    assert effective(command) == []


@pytest.mark.parametrize("command", ["git status && git log", "npm ci && npm test", "pushd x && git status && git log"])
def test_multiple_substantive_commands(command):
    assert analyze(command).multiple


@pytest.mark.parametrize(
    "command",
    [
        "cd x; git status",
        "export A=1 && pytest",
        "pytest || true",
        "pytest; echo done",
        "cd x || exit 1; pytest",
        "git status | head",
    ],
)
def test_single_substantive_command(command):
    assert not analyze(command).multiple


@pytest.mark.parametrize(
    "command, reason",
    [
        ("cat README.md", "file-content"),
        ("head -50 build.log", "file-content"),
        ("sed -n 1,80p src/app.py", "file-content"),
        ("jq . package.json", "file-content"),
        ("git show HEAD:README.md", "file-content"),
        ("cat a.txt | grep x", "file-content"),
        ("cat a && ls", "file-content"),
        ("ls && cat a", "file-content"),
        ("find . | grep x", "unsafe-inventory"),
        ("find . -name '*.pyc' -delete", "unsafe-inventory"),
        ("fd -e py -x wc -l", "unsafe-inventory"),
        ("ls | xargs rm", "unsafe-inventory"),
        ("ls && git status", "mixed-inventory"),
        ("find . -name '*.py' | sort | head", None),
        ("rg --files | sort | uniq", None),
        ("cd x && ls -la", None),
        ("ls src && ls tests", None),
        ("git show HEAD", None),
        ("npm ci && npm test", None),
    ],
)
def test_keep_raw_policy(command, reason):
    assert analyze(command).keep_raw == reason


def test_plain_argv_is_classified_as_one_command():
    info = analyze(argv=["git", "log", "--grep", "a && b"])
    assert not info.multiple
    assert info.normalized_command == "git log --grep 'a && b'"
    assert info.normalized_argv == ("git", "log", "--grep", "a && b")


def test_plain_command_keeps_original_candidate():
    info = analyze("git status")
    assert [(c.source, c.argv) for c in info.candidates] == [("original", ("git", "status"))]


@pytest.mark.parametrize(
    "command, reason",
    [
        ("ssh app1 cat app/tests/test_pricing.py", "file-content"),
        ("ssh -p 2222 -i key deploy@host 'tail -n 60 /etc/services'", "file-content"),
        ("ssh host sudo cat /etc/shadow", "file-content"),
        ("ssh host 'ls -la'", None),
        ("ssh -v app1 uptime", None),
        ("ssh host", None),
    ],
)
def test_remote_file_reads_stay_raw(command, reason):
    assert analyze(command).keep_raw == reason


# -- the agent's own bound (issue 28) -------------------------------------------------

_TOOLS = [
    "pytest -q",
    "python -m pytest tests/ -x",
    "make",
    "cargo build",
    "npm test",
    "git show HEAD~2",
    "grep -rn x .",
]
_BOUNDS = [
    "tail -40",
    "tail -n40",
    "tail -n 40",
    "tail --lines=40",
    "head -100",
    "head -n 100",
    "head -c 2000",
    "head --bytes=2000",
    "sed -n 1,80p",
    "sed -n '10,80p'",
    "sed 40q",
    "awk 'NR<=40'",
    "awk 'NR>=10 && NR<=50'",
]
_NOT_BOUNDS = ["tail -f", "tail -F", "sed s/a/b/", "grep error", "sort", "awk '{print $1}'"]


def _line(tool, stage, redirect, before, after, wrapper):
    core = f"{tool}{redirect} | {stage}"
    line = f"{before}{core}{after}"
    if wrapper:
        line = f"{wrapper} {shlex.quote(line)}"
    return line


_shapes = dict(
    tool=st.sampled_from(_TOOLS),
    redirect=st.sampled_from(["", " 2>&1", " 2>/dev/null"]),
    before=st.sampled_from(["", "cd sub && ", "export X=1; ", "cd a && cd b && "]),
    after=st.sampled_from(["", "; echo done", " && git status"]),
    wrapper=st.sampled_from(["", "bash -lc", "sh -c", "bash -c", "zsh -lc"]),
)


@settings(max_examples=300, deadline=None)
@given(stage=st.sampled_from(_BOUNDS), **_shapes)
def test_every_form_of_the_agents_own_bound_is_recognised(stage, tool, redirect, before, after, wrapper):
    line = _line(tool, stage, redirect, before, after, wrapper)
    assert analyze(line).bounded, line


@settings(max_examples=200, deadline=None)
@given(stage=st.sampled_from(_NOT_BOUNDS), **_shapes)
def test_a_filter_that_keeps_no_chosen_count_is_no_bound(stage, tool, redirect, before, after, wrapper):
    line = _line(tool, stage, redirect, before, after.replace("git status", "true"), wrapper)
    assert not analyze(line).bounded, line
