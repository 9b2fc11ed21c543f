"""doctor's note on `tokenjuice` found on PATH (hosts/manage.py), for each way a
user installs tokenjuice: pipx, uv tool and a plain venv put the program in a venv
and (pipx, uv) link it into ~/.local/bin; the hook runs that venv's launcher. Real
venvs, real links, the real CLI: the note fires only for another installation."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

NOTE = b"is not the installation the hook runs"


def make_venv(folder: Path) -> Path:
    """A venv holding this checkout as its tokenjuice, the way pip lays it out: the
    package importable from site-packages, bin/tokenjuice with the venv's shebang."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig;print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(site, "tokenjuice-checkout.pth").write_text(f"{REPO}\n")
    for dependency in ("click", "shellingham", "regex", "tomli_w", "platformdirs", "tomlkit"):
        found = __import__(dependency).__file__
        source = Path(found).parent if Path(found).name == "__init__.py" else Path(found)
        target = Path(site, source.name)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy(source, target)
    script = folder / "bin" / "tokenjuice"
    script.write_text(f"#!{python}\n" + (REPO / "install" / "tokenjuice").read_text().split("\n", 1)[1])
    script.chmod(0o755)
    return script


def layout(kind: str, home: Path) -> tuple[Path, Path]:
    """(what the user runs, the bin folder on PATH) for each installer."""
    local_bin = home / ".local" / "bin"
    local_bin.mkdir(parents=True)
    if kind == "venv":
        script = make_venv(home / "project" / ".venv")
        return script, script.parent
    folder = {"pipx": home / ".local" / "pipx" / "venvs", "uv": home / ".local" / "share" / "uv" / "tools"}[kind]
    script = make_venv(folder / "tokenjuice")
    (local_bin / "tokenjuice").symlink_to(script)
    return local_bin / "tokenjuice", local_bin


@pytest.mark.parametrize("kind", ["pipx", "uv", "venv"])
def test_no_note_for_the_installation_the_hook_runs(kind, workdir, isolated_home):
    program, bin_dir = layout(kind, isolated_home)
    env = os.environ | {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    (isolated_home / ".cursor").mkdir()
    done = subprocess.run([str(program), "install", "cursor"], capture_output=True, env=env, cwd=workdir)
    assert done.returncode == 0, done.stderr
    assert b"tokenjuice-hook cursor" in done.stdout  # the readable launcher, beside the venv's interpreter
    doctor = subprocess.run([str(program), "doctor", "cursor"], capture_output=True, env=env, cwd=workdir)
    assert NOTE not in doctor.stdout, doctor.stdout
    # another installation first on PATH: now the note is true
    other = make_venv(isolated_home / "other")
    env = os.environ | {"PATH": f"{other.parent}:{bin_dir}:/usr/bin:/bin"}
    doctor = subprocess.run([str(program), "doctor", "cursor"], capture_output=True, env=env, cwd=workdir)
    assert NOTE in b" ".join(doctor.stdout.split()), doctor.stdout  # a long note is folded
