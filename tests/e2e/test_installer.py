"""install/install.sh on a scratch HOME: install, idempotent re-run, host hooks, uninstall."""

import json
import os
import subprocess

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
    assert os.readlink(link) == str(home / ".local" / "share" / "tokenjuice" / "venv" / "bin" / "tokenjuice")
    assert done.stdout.count("deep check: passed") == 2  # each host's hook proved to work
    assert (home / ".codeium" / "windsurf" / "memories" / "global_rules.md").exists()
    hooks = json.loads((home / ".cursor" / "hooks.json").read_text())
    command = hooks["hooks"]["preToolUse"][0]["command"]
    # The venv's interpreter starts the hook itself; rewritten commands use the link.
    assert command.startswith(str(home / ".local" / "share" / "tokenjuice" / "venv" / "bin" / "python"))
    assert " -P -c " in command and command.endswith(f"hook cursor --wrap-launcher {link}")

    again = subprocess.run(["sh", script], env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and "linked" in again.stdout

    gone = subprocess.run(["sh", script, "--uninstall"], env=env, capture_output=True, text=True, timeout=120)
    assert gone.returncode == 0, gone.stderr
    assert not link.exists() and not (home / ".local" / "share" / "tokenjuice" / "venv").exists()
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
