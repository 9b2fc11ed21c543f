"""A newcomer's first run, scripted: a fresh HOME where agent hosts are in use,
`pipx install .` (a plain venv and `pip install .` where pipx is absent), `tokenjuice
install --all`, `doctor HOST --deep` for every host it hooked, a wrapped command,
`tokenjuice uninstall --all --purge`; then the HOME holds exactly what it held
before, byte for byte, and the private temporary store is gone."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # installs tokenjuice from this checkout into a fresh environment

#: The folders of agent hosts a newcomer already uses (what makes install --all find them).
HOST_FOLDERS = (".cursor", ".claude", ".codex", ".gemini", ".copilot", ".config/opencode")


def tree(root: Path) -> dict[str, bytes | str | None]:
    found: dict[str, bytes | str | None] = {}
    for entry in sorted(root.rglob("*")):
        name = str(entry.relative_to(root))
        if entry.is_symlink():
            found[name] = "-> " + os.readlink(entry)
        else:
            found[name] = entry.read_bytes() if entry.is_file() else None
    return found


def install_tokenjuice(tmp_path: Path, env: dict[str, str]) -> Path:
    """The folder holding the `tokenjuice` program a newcomer's PATH finds."""
    pipx = shutil.which("pipx")
    if pipx:
        env |= {"PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "pipx-bin")}
        subprocess.run([pipx, "install", str(REPO)], env=env, check=True, capture_output=True, timeout=900)
        return tmp_path / "pipx-bin"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(REPO)],
        env=env,
        check=True,
        capture_output=True,
        timeout=900,
    )
    return venv / "bin"


def test_a_newcomers_round_trip_leaves_the_home_as_it_was(tmp_path):
    home = tmp_path / "home"
    for folder in HOST_FOLDERS:
        (home / folder).mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text('{\n  "model": "opus"\n}\n')  # a config of the user's own
    temp = tmp_path / "tmp"
    temp.mkdir()
    before = tree(home)
    env = {
        "HOME": str(home),
        "TMPDIR": str(temp),
        "LANG": "C.UTF-8",
        "SHELL": "/bin/sh",
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "PIP_CACHE_DIR": str(tmp_path / "pip-cache"),  # the installer's own cache is not tokenjuice's
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    bin_dir = install_tokenjuice(tmp_path, env)
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    assert tree(home) == before  # installing the program writes nothing into HOME
    first_steps_on_a_machine_without_hosts(tmp_path, env)

    def tj(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["tokenjuice", *args], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
        assert "Traceback" not in done.stderr, done.stderr
        return done

    done = tj("install", "--all", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    hooked = [row["host"] for row in json.loads(done.stdout) if row["action"] == "installed"]
    assert {"cursor", "claude-code", "codex", "gemini", "copilot", "opencode"} <= set(hooked), done.stdout
    for host in hooked:
        deep = tj("doctor", host, "--deep")
        assert deep.returncode == 0, f"{host}:\n{deep.stdout}{deep.stderr}"
    wrapped = tj("wrap", "--", "seq", "1", "3000")
    assert wrapped.returncode == 0 and "lines omitted" in wrapped.stdout and "tokenjuice cat" in wrapped.stdout
    gone = tj("uninstall", "--all", "--purge")
    assert gone.returncode == 0, gone.stdout + gone.stderr
    assert tree(home) == before
    assert not (temp / f"tokenjuice-{os.getuid()}").exists()


def first_steps_on_a_machine_without_hosts(tmp_path: Path, env: dict[str, str]) -> None:
    """Before any host is in use, what did not happen is an exit code of its own
    (docs/hosts.md#exit-codes), never a 0: `install --all` finding no host exits 3 with
    nothing installed, and `install codex --approve` without codex exits 4, its hook in
    place. The HOME is thrown away after."""
    bare = tmp_path / "bare-home"
    bare.mkdir()
    bare_env = env | {"HOME": str(bare)}

    def tj(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["tokenjuice", *args], env=bare_env, capture_output=True, text=True, timeout=300)

    found = shutil.which("codex", path=env["PATH"]) or any(
        shutil.which(program, path=env["PATH"]) for program in ("cursor", "claude", "gemini", "copilot", "opencode")
    )
    if found:
        return  # an agent host on this PATH: not a machine without hosts
    none = tj("install", "--all")
    assert none.returncode == 3 and "nothing was installed" in none.stdout, none.stdout + none.stderr
    assert not any(bare.iterdir())
    approve = tj("install", "codex", "--approve")
    assert approve.returncode == 4, approve.stdout + approve.stderr
    assert "install codex --approve" not in approve.stdout and (bare / ".codex" / "hooks.json").exists()
    listed = json.loads(tj("install", "--json").stdout)  # the folder install made is not Codex in use
    assert [row["detected"] for row in listed if row["host"] == "codex"] == [""], listed
