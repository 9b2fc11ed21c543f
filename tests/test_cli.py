"""The command line itself (tokenjuice.cli): version, help, unknown commands, usage and JSON
errors, colour, shell completion, and read-only commands that write nothing."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, tokenjuice

from tokenjuice import __version__


def test_version(workdir):
    done = tokenjuice("--version")
    assert done.returncode == 0 and done.stdout.decode() == f"tokenjuice {__version__}\n"
    verbose = tokenjuice("--version", "-v").stdout.decode().splitlines()
    assert verbose[0] == f"tokenjuice {__version__}" and verbose[1].startswith("Python 3.")


def test_help_lists_each_command_on_one_line(workdir):
    text = tokenjuice("--help").stdout.decode()
    commands = text.split("Commands:\n")[1].strip().splitlines()
    names = [line.split()[0] for line in commands]
    assert {"wrap", "reduce", "reduce-json", "verify", "example"} <= set(names)
    assert all(len(line.split(None, 1)) == 2 and not line.rstrip().endswith("...") for line in commands)


def test_unknown_command(workdir):
    done = tokenjuice("frobnicate")
    assert done.returncode == 2 and b"No such command" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("--version",),
        ("-V", "-v"),
        ("doctor",),
        ("stats",),
        ("config", "get", "artifacts.mode"),
        ("config", "list", "--show-origin"),
        ("paths",),
        ("ls",),
        ("discover",),
        ("schema", "rule"),
        ("completion", "bash"),
    ],
)
def test_read_only_commands_create_no_file_or_folder(workdir, isolated_home, args):
    before = sorted(p for p in isolated_home.rglob("*"))
    done = tokenjuice(*args)
    assert done.returncode in (0, 1), done.stderr
    assert sorted(p for p in isolated_home.rglob("*")) == before
    assert not list(workdir.iterdir())


@pytest.mark.parametrize(
    "args, message",
    [
        (("reduce", "nope.txt", "--format", "json"), "cannot read nope.txt"),
        (("config", "get", "no.such", "--json"), "unknown setting no.such"),
        (("reduce", "--classifier", "no/such", "--json", "nope.txt"), "--classifier no/such: no such rule"),
        (("stats", "--since", "yesterday", "--json"), "--since 'yesterday'"),
        (("verify", "--json", "--bogus"), "No such option '--bogus'"),
    ],
)
def test_errors_in_json_mode_are_a_json_object(workdir, args, message):
    done = tokenjuice(*args)
    assert done.returncode == 2, done.stderr
    error = json.loads(done.stdout)["error"]
    assert message in error["message"] and error["kind"] == "usage" and error["exitCode"] == 2
    assert b"Traceback" not in done.stderr


def test_unknown_classifier_and_only_are_usage_errors(workdir):
    done = tokenjuice("reduce", "--classifier", "no/such-rule", input="x\n")
    assert done.returncode == 2 and done.stderr.startswith(b"tokenjuice reduce: --classifier no/such-rule: no such")
    done = tokenjuice("verify", "--only", "zzz/")
    assert done.returncode == 2 and b"no rule id starts with 'zzz/'" in done.stderr


def test_colour_only_for_terminals_or_when_forced(workdir):
    plain = tokenjuice("config", "get", "no.such").stderr
    assert b"\x1b[" not in plain and plain.startswith(b"tokenjuice config get: unknown setting")
    forced = tokenjuice("config", "get", "no.such", env=os.environ | {"FORCE_COLOR": "1"}).stderr
    assert forced.startswith(b"\x1b[31mtokenjuice config get: \x1b[0m")
    both = tokenjuice("config", "get", "no.such", env=os.environ | {"FORCE_COLOR": "1", "NO_COLOR": "1"}).stderr
    assert b"\x1b[" not in both


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(workdir, shell):
    done = tokenjuice("completion", shell)
    assert done.returncode == 0 and b"_TOKENJUICE_COMPLETE" in done.stdout
    if shutil.which(shell):  # the script is valid in its own shell
        check = ["-n"] if shell != "fish" else ["--no-execute"]
        parsed = subprocess.run([shell, *check, "-c", done.stdout.decode()], capture_output=True)
        assert parsed.returncode == 0, parsed.stderr


def test_completion_completes_commands(workdir):
    env = os.environ | {"_TOKENJUICE_COMPLETE": "bash_complete", "COMP_WORDS": "tokenjuice ver", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "tokenjuice"], env=env, capture_output=True)
    assert b"plain,verify" in done.stdout


#: Lines that show a command to copy whole (the hook's): data, not a message, never folded.
COMMAND_LINES = ("command:", "expected command:", "configured command:")


def test_the_messages_a_newcomer_reads_stay_within_100_columns(workdir, isolated_home):
    """Issue 31: some lines of tokenjuice's own messages ran to 250-330 columns. Every
    line a newcomer's first commands print fits in 100 once the paths of this machine
    (HOME, the installation) are written short: a path stays whole, prose is folded."""
    for folder in (".cursor", ".claude", ".codex"):
        (isolated_home / folder).mkdir()
    env = os.environ | {"PATH": "/usr/bin:/bin"}
    short = [(str(Path(sys.prefix)), "<venv>"), (str(isolated_home), "~"), (str(REPO), "<repo>")]
    newcomer = (
        ("install",),
        ("install", "--all", "--local"),
        ("install", "codex", "--approve", "--local"),
        ("doctor",),
        ("doctor", "hooks", "--local"),
        ("doctor", "codex", "--local"),
        ("doctor", "claude-code", "--local"),
        ("config", "list"),
        ("stats",),
        ("ls",),
        ("uninstall", "--all"),
    )
    for args in newcomer:
        done = tokenjuice(*args, env=env)
        text = (done.stdout + done.stderr).decode()
        for old, new in short:
            text = text.replace(old, new)
        lines = [line for line in text.splitlines() if not line.lstrip().startswith(COMMAND_LINES)]
        wide = [line for line in lines if len(line) > 100]
        assert not wide, (args, wide)
