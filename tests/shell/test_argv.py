"""argv.py: what the words of a command line mean (shell launchers, wrappers,
runners, subcommands after global options)."""

import pytest

from tokenjuice.shell.argv import git_subcommand, strip_runner, strip_wrappers, subcommand, unwrap_shell


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
