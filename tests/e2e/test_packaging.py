"""An installed wheel (not the editable checkout) finds its catalogue and wraps."""

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.slow  # builds a wheel and an sdist, installs into a fresh venv


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(REPO)], check=True, capture_output=True
    )
    return next(out.glob("tokenjuice-*.whl"))


def test_wheel_ships_the_reducer_catalogue(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "tokenjuice/reducers/git/status.toml" in names
    assert "tokenjuice/reducers/generic/fallback.toml" in names
    assert "tokenjuice/rules/builtin.json" in names  # the built-in layer, built: no parsing in a fresh HOME
    assert not any(n.startswith("tests/") or "__pycache__" in n for n in names)


def test_sdist_ships_every_rule_file(tmp_path):
    import tarfile

    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(REPO)],
        check=True,
        capture_output=True,
    )
    sdist = next(tmp_path.glob("tokenjuice-*.tar.gz"))
    with tarfile.open(sdist) as archive:
        shipped = {name.split("/", 1)[1] for name in archive.getnames() if "/reducers/" in name}
    expected = {str(path.relative_to(REPO)) for path in (REPO / "reducers").rglob("*.toml")}
    assert expected and expected <= shipped, sorted(expected - shipped)[:5]


def test_installed_wheel_wraps_with_its_catalogue(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = venv / "bin" / "pip"
    subprocess.run([str(pip), "install", "-q", str(wheel)], check=True, capture_output=True)
    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / "new.txt").write_text("x\n")
    done = subprocess.run(
        [str(venv / "bin" / "tokenjuice"), "wrap", "--format", "json", "--trace", "--", "git", "status"],
        cwd=repo,
        capture_output=True,
        check=True,
    )
    result = json.loads(done.stdout)["result"]
    assert result["classification"]["matchedReducer"] == "git/status"
    assert Path(venv / "bin" / "tokenjuice").exists()
    done = subprocess.run(
        [str(venv / "bin" / "tokenjuice"), "verify", "--fixtures", "--only", "git/"], cwd=repo, capture_output=True
    )
    assert b"examples passed" in done.stdout + done.stderr


def test_the_installed_launcher_is_ours_and_a_silent_command_loads_no_regex(wheel, tmp_path):
    """bin/tokenjuice is install/tokenjuice with this venv's interpreter written in (not
    an installer's console script, which imports `re` first): `wrap` of a command that
    prints nothing never loads `re`, and the hook's direct launch recognises the script."""
    names = zipfile.ZipFile(wheel).namelist()
    assert any(name.endswith(".data/scripts/tokenjuice") for name in names)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, capture_output=True)
    launcher = venv / "bin" / "tokenjuice"
    assert launcher.read_text().splitlines()[0].startswith(f"#!{venv}/bin/python")
    silent = tmp_path / "silent"
    silent.mkdir()  # a folder without a project layer: nothing about trust applies
    subprocess.run([str(launcher), "wrap", "--", "true"], check=True, cwd=silent)  # builds the rule index
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-X", "importtime", str(launcher), "wrap", "--", "true"],
        capture_output=True,
        text=True,
        cwd=silent,
    )
    modules = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time")}
    assert done.returncode == 0 and "tokenjuice.commands.wrap" in modules
    # What a command that prints nothing never needs: patterns, enum, the validator,
    # trust, the output store, redaction, the rule machinery.
    needless = {
        "re",
        "enum",
        "tokenjuice.rules.schema",
        "tokenjuice.trust",
        "tokenjuice.state.artifacts",
        "tokenjuice.state.redact",
        "tokenjuice.reduce.pipeline",
        "tokenjuice.reduce.units",
        "tokenjuice.rules.patterns",
    }
    assert not modules & needless, sorted(modules & needless)
    # This venv lives in a temporary folder: doctor warns, and its advice is not to
    # reinstall from the same place (which would change nothing: the advice must not loop).
    env = os.environ | {"CURSOR_HOME": str(tmp_path / "cursor")}
    subprocess.run([str(launcher), "install", "cursor"], check=True, capture_output=True, env=env)
    report = json.loads(
        subprocess.run([str(launcher), "doctor", "cursor", "--json"], capture_output=True, env=env).stdout
    )
    assert any(c["name"] == "launcher place" and c["status"] == "warn" for c in report["checks"])
    assert report["fixCommand"] is None
    check = "from tokenjuice.hosts import launch; import sys; print(launch.direct_argv(sys.argv[1]))"
    direct = subprocess.run([str(venv / "bin" / "python"), "-c", check, str(launcher)], capture_output=True, text=True)
    assert direct.stdout.startswith("[") and "-P" in direct.stdout


def test_a_broken_install_without_its_catalogue_still_hands_back_every_output(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], check=True, capture_output=True)
    site = next((venv / "lib").glob("python3*/site-packages/tokenjuice"))
    import shutil

    shutil.rmtree(site / "reducers")
    env = {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    script = "for i in $(seq 1 3000); do echo line $i; done; echo FAILED the last line; exit 5"
    done = subprocess.run(
        [str(venv / "bin" / "tokenjuice"), "wrap", "--", "sh", "-c", script], cwd=tmp_path, env=env, capture_output=True
    )
    assert done.returncode == 5
    text = done.stdout.decode()
    assert text.startswith("exit 5\nline 1\n") and "FAILED the last line" in text and "tokenjuice cat" in text
    small = subprocess.run(
        [str(venv / "bin" / "tokenjuice"), "wrap", "--", "echo", "hi"], cwd=tmp_path, env=env, capture_output=True
    )
    assert small.returncode == 0 and small.stdout == b"hi\n"


def test_install_compiles_what_an_installer_left_uncompiled(wheel, tmp_path):
    """uv installs without byte code, and with PYTHONDONTWRITEBYTECODE set (many
    container images) the interpreter never writes it: every hook would compile
    tokenjuice from source. `tokenjuice install` compiles it once."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-compile", str(wheel)], check=True)
    package = next((venv / "lib").glob("python3*/site-packages/tokenjuice"))
    assert not list(package.rglob("*.pyc"))
    env = os.environ | {"PYTHONDONTWRITEBYTECODE": "1", "CURSOR_HOME": str(tmp_path / "cursor")}
    subprocess.run([str(venv / "bin" / "tokenjuice"), "install", "cursor"], check=True, capture_output=True, env=env)
    compiled = {path.name.split(".")[0] for path in (package / "hosts" / "__pycache__").glob("*.pyc")}
    assert {"hook", "base", "cursor"} <= compiled
    assert any((package / "shell" / "__pycache__").glob("argv.*.pyc"))

    def hooks_section():
        done = subprocess.run([str(venv / "bin" / "tokenjuice"), "doctor", "--json"], capture_output=True, env=env)
        return json.loads(done.stdout)["sections"]["hooks"]

    assert not any("byte code" in line for line in hooks_section()["lines"])
    for path in package.rglob("argv.*.pyc"):  # an upgrade by an installer that writes none
        path.unlink()
    (package / "settings.py").touch()
    section = hooks_section()
    warning = next(line for line in section["lines"] if "byte code" in line)
    assert section["status"] == "warn" and warning.startswith("2 of tokenjuice's modules")
    subprocess.run(warning.split("fix: ")[1], shell=True, check=True, env=env)
    assert not any("byte code" in line for line in hooks_section()["lines"])
