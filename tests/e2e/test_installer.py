"""install/install.sh on a scratch HOME: install, idempotent re-run, host hooks, uninstall."""

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO


@pytest.mark.slow
def test_installer_round_trip(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = os.environ | {
        "HOME": str(home),
        "CURSOR_HOME": str(home / ".cursor"),
        "XDG_DATA_HOME": "",
        "TOKENJUICE_PREFIX": "",
        "TOKENJUICE_BIN_DIR": "",
    }
    script = str(REPO / "install" / "install.sh")
    done = subprocess.run(
        ["sh", script, "--cursor", "--host", "windsurf"], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    link = home / ".local" / "bin" / "tokenjuice"
    venv = home / ".local" / "lib" / "tokenjuice" / "venv"  # not in the data folder, which a user may wipe
    assert os.readlink(link) == str(venv / "bin" / "tokenjuice")
    assert done.stdout.count("deep check: passed") == 2  # each host's hook proved to work
    assert (home / ".codeium" / "windsurf" / "memories" / "global_rules.md").exists()
    hooks = json.loads((home / ".cursor" / "hooks.json").read_text())
    command = hooks["hooks"]["preToolUse"][0]["command"]
    # The venv's launcher starts the hook (its #! line: the venv's interpreter); rewritten commands use the link.
    assert command.startswith(str(venv / "bin"))
    assert command == f"{venv / 'bin' / 'tokenjuice-hook'} cursor --wrap-launcher {link}"
    assert (venv / "bin" / "tokenjuice-hook").read_text().startswith(f"#!{venv / 'bin'}/python")

    again = subprocess.run(["sh", script], env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "linked" in again.stdout

    gone = subprocess.run(["sh", script, "--uninstall"], env=env, capture_output=True, text=True, timeout=120)
    assert gone.returncode == 0, gone.stderr
    assert not link.exists() and not venv.exists()
    assert not (home / ".cursor" / "hooks.json").exists()  # install created it: uninstall leaves no trace
    assert not (home / ".codeium" / "windsurf" / "memories" / "global_rules.md").exists()  # every host, not only Cursor


def test_installer_rejects_unknown_options(tmp_path):
    done = subprocess.run(
        ["sh", str(REPO / "install" / "install.sh"), "--frobnicate"],
        capture_output=True,
        text=True,
        env=os.environ | {"HOME": str(tmp_path)},
    )
    assert done.returncode == 1 and "unknown option --frobnicate" in done.stderr


def installer(*args, home, cwd=None, script=None):
    return subprocess.run(
        ["sh", str(script or REPO / "install" / "install.sh"), *args],
        capture_output=True,
        text=True,
        env=os.environ | {"HOME": str(home), "TOKENJUICE_PREFIX": "", "TOKENJUICE_BIN_DIR": ""},
        cwd=cwd,
        timeout=60,
    )


def test_installer_help_prints_help_only(tmp_path):
    done = installer("--help", home=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith("Install tokenjuice")
    assert "set -eu" not in done.stdout and not done.stdout.endswith("\n\n") and not list(tmp_path.iterdir())


def test_installer_outside_a_checkout_refuses_the_package_index(tmp_path):
    copy = tmp_path / "install.sh"
    copy.write_text((REPO / "install" / "install.sh").read_text())
    done = installer(home=tmp_path, script=copy)
    assert done.returncode == 1 and "never installed from there" in done.stderr
    done = installer("--source", "tokenjuice", home=tmp_path, script=copy, cwd=tmp_path)
    assert done.returncode == 1 and "never installed from the package index" in done.stderr
    assert not (tmp_path / ".local").exists()


def test_installer_never_replaces_another_installers_link(tmp_path):
    bin_dir = tmp_path / ".local" / "bin"
    bin_dir.mkdir(parents=True)
    other = tmp_path / ".local" / "pipx" / "venvs" / "tokenjuice" / "bin" / "tokenjuice"
    (bin_dir / "tokenjuice").symlink_to(other)
    done = installer(home=tmp_path)
    assert done.returncode == 1 and "not a link this script made" in done.stderr
    assert os.readlink(bin_dir / "tokenjuice") == str(other)


def test_installer_shows_pips_progress_on_a_terminal_and_stays_quiet_in_a_pipe(tmp_path):
    """Issue 31: install.sh was silent for minutes: on a terminal it says the install takes
    a while and lets pip show its own progress; in a pipe it adds nothing and pip stays
    quiet. (pip and the environment are stand-ins that log how they were called.)"""
    from helpers import on_a_terminal

    prefix = tmp_path / "prefix"
    bin_dir = prefix / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "pip.log"
    (bin_dir / "python").write_text(f'#!/bin/sh\n[ "$1" = -m ] && echo "$*" >> {log}\nexit 0\n')
    (bin_dir / "tokenjuice").write_text("#!/bin/sh\necho tokenjuice 0.0\n")
    for stub in bin_dir.iterdir():
        stub.chmod(0o755)
    env = os.environ | {
        "HOME": str(tmp_path),
        "TOKENJUICE_PREFIX": str(prefix),
        "TOKENJUICE_BIN_DIR": str(tmp_path / "bin"),
    }
    argv = ["sh", str(REPO / "install" / "install.sh"), "--python", sys.executable]
    code, shown = on_a_terminal(argv, env=env)
    assert code == 0 and "a minute or two: pip shows its progress" in shown, shown
    installs = [line for line in log.read_text().splitlines() if "--upgrade /" in line]
    assert installs and "--quiet" not in installs[-1]
    log.unlink()
    piped = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)
    assert piped.returncode == 0 and "a minute or two" not in piped.stdout + piped.stderr
    installs = [line for line in log.read_text().splitlines() if "--upgrade /" in line]
    assert installs and "--quiet" in installs[-1]
