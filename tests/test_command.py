import pytest

from tokenjuice.argv import git_subcommand, strip_runner, strip_wrappers, unwrap_shell
from tokenjuice.command import analyze


def effective(command=None, argv=None):
    info = analyze(command, argv)
    return [list(c.argv) for c in info.candidates if c.source == "effective"]


@pytest.mark.parametrize(
    "argv, body",
    [
        (["bash", "-lc", "git status"], "git status"),
        (["/bin/bash", "-c", "git status"], "git status"),
        (["/usr/local/bin/zsh", "-ic", "ls"], "ls"),
        (["sh", "-e", "-c", "make"], "make"),
        (["bash", "-l", "-c", "make"], "make"),
        (["bash", "--login", "-c", "make"], "make"),
        (["bash", "-o", "pipefail", "-c", "make"], "make"),
        (["dash", "-c", "x"], "x"),
        (["ksh", "-c", "x"], "x"),
        (["fish", "-c", "x"], "x"),
        (["env", "bash", "-c", "x"], "x"),
        (["env", "-i", "FOO=1", "bash", "-c", "x"], "x"),
        (["busybox", "sh", "-c", "x"], "x"),
    ],
)
def test_shell_launchers_unwrap(argv, body):
    assert unwrap_shell(argv)[0] == body


@pytest.mark.parametrize(
    "argv",
    [["bash", "script.sh"], ["bash"], ["bash", "-c"], ["bash", "-c", "  "], ["python", "-c", "x"], ["pwsh", "-c", "x"]],
)
def test_non_launchers_do_not_unwrap(argv):
    assert unwrap_shell(argv) is None


def test_fish_body_uses_fish_dialect():
    assert unwrap_shell(["fish", "-c", "echo 'a\\'b'"]) == ("echo 'a\\'b'", "fish")
    assert analyze(argv=["fish", "-c", "cd x; and git status"]).normalized_argv == ("git", "status")


def test_nested_launchers_unwrap():
    info = analyze(argv=["/bin/bash", "-lc", "bash -c 'sh -c \"npm test\"'"])
    assert info.normalized_argv == ("npm", "test")


@pytest.mark.parametrize(
    "argv, stripped",
    [
        (["FOO=1", "BAR=2", "git", "status"], ["git", "status"]),
        (["env", "FOO=1", "git", "status"], ["git", "status"]),
        (["env", "-u", "X", "-i", "--", "git", "status"], ["git", "status"]),
        (["sudo", "-u", "root", "-E", "git", "status"], ["git", "status"]),
        (["time", "-p", "make"], ["make"]),
        (["nice", "-n", "5", "make"], ["make"]),
        (["timeout", "10", "pytest"], ["pytest"]),
        (["timeout", "-s", "KILL", "5m", "pytest"], ["pytest"]),
        (["command", "git", "status"], ["git", "status"]),
        (["exec", "make"], ["make"]),
        (["nohup", "stdbuf", "-oL", "make"], ["make"]),
        (["!", "grep", "x"], ["grep", "x"]),
        (["env"], ["env"]),
        (["sudo", "env"], ["env"]),
        (["env", "-i", "A=1"], ["env", "-i", "A=1"]),
        (["FOO=1", "env"], ["env"]),
        (["sudo", "-l"], ["sudo", "-l"]),
    ],
)
def test_wrappers_strip(argv, stripped):
    assert strip_wrappers(argv) == stripped


@pytest.mark.parametrize(
    "argv, stripped",
    [
        (["npx", "tsc", "--noEmit"], ["tsc", "--noEmit"]),
        (["npx", "-y", "--package", "x", "jest"], ["jest"]),
        (["pnpm", "exec", "vitest"], ["vitest"]),
        (["pnpm", "dlx", "create-vite"], ["create-vite"]),
        (["yarn", "jest"], ["jest"]),
        (["yarn", "esbuild", "src/index.ts"], ["esbuild", "src/index.ts"]),
        (["yarn", "--cwd", "web", "prettier", "--check", "."], ["prettier", "--check", "."]),
        (["pnpm", "esbuild", "src/index.ts", "--bundle"], ["esbuild", "src/index.ts", "--bundle"]),
        (["pnpm", "prettier", "--check", "."], ["prettier", "--check", "."]),
        (["pnpm", "--filter", "web", "vitest", "run"], ["vitest", "run"]),
        (["pnpm", "-r", "--silent", "tsc"], ["tsc"]),
        (["bunx", "eslint", "."], ["eslint", "."]),
        (["uv", "run", "--with", "x", "pytest", "-x"], ["pytest", "-x"]),
        (["uv", "run", "--", "pytest"], ["pytest"]),
        (["poetry", "run", "pytest"], ["pytest"]),
        (["pipx", "run", "black", "."], ["black", "."]),
        (["python", "-m", "pytest"], ["pytest"]),
        (["python3.11", "-X", "dev", "-m", "pip", "install", "x"], ["pip", "install", "x"]),
        (["bundle", "exec", "rspec"], ["rspec"]),
    ],
)
def test_runners_strip(argv, stripped):
    assert strip_runner(argv) == stripped


@pytest.mark.parametrize("argv", [["python", "script.py"], ["npm", "test"], ["uv", "sync"], ["npx"]])
def test_non_runners(argv):
    assert strip_runner(argv) is None


@pytest.mark.parametrize(
    "argv",
    [
        ["pnpm", "install"],
        ["pnpm", "i", "--frozen-lockfile"],
        ["pnpm", "test"],
        ["pnpm", "add", "-D", "esbuild"],
        ["pnpm", "run", "build"],
        ["pnpm", "--filter", "web", "test"],
        ["pnpm", "-r", "update"],
        ["pnpm", "audit"],
        ["pnpm", "ls"],
        ["pnpm", "why", "react"],
        ["pnpm", "outdated"],
        ["pnpm", "publish"],
        ["pnpm", "store", "prune"],
        ["yarn", "add", "lodash"],
        ["yarn", "install", "--frozen-lockfile"],
        ["yarn", "test"],
        ["yarn", "run", "lint"],
        ["yarn", "upgrade"],
        ["yarn", "remove", "x"],
        ["yarn", "workspace", "web", "build"],
        ["yarn", "--cwd", "a", "add", "x"],
        ["pnpm"],
        ["yarn"],
        ["pnpm", "--version"],
    ],
)
def test_package_manager_commands_are_not_runners(argv):
    """`pnpm install` is pnpm at work; only a word that is none of its own commands names a binary."""
    assert strip_runner(argv) is None


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
    from tokenjuice.classify import classify
    from tokenjuice.rules import index

    assert classify(analyze(command), index.load(str(workdir)).entries).rule.id == rule


@pytest.mark.parametrize(
    "argv, sub",
    [
        (["kubectl", "-n", "prod", "get", "pods"], "get"),
        (["docker", "--context", "x", "ps"], "ps"),
        (["helm", "-n", "ns", "--kube-context", "k", "list"], "list"),
        (["npm", "--prefix", "app", "install"], "install"),
        (["pytest", "-k", "help"], None),
        (["cargo", "help", "build"], "help"),
        (["unknown", "sub"], "sub"),
    ],
)
def test_subcommand_after_global_options(argv, sub):
    from tokenjuice.argv import subcommand

    assert subcommand(argv) == sub


@pytest.mark.parametrize(
    "argv, sub",
    [
        (["git", "status"], "status"),
        (["git", "-C", "repo", "status"], "status"),
        (["git", "-c", "a=b", "--no-pager", "log"], "log"),
        (["/usr/bin/git", "--git-dir", "x", "diff"], "diff"),
        (["git"], None),
        (["hg", "status"], None),
    ],
)
def test_git_subcommand(argv, sub):
    assert git_subcommand(argv) == sub


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
