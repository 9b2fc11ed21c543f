"""An installed wheel (not the editable checkout) finds its catalogue and wraps."""

import json
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
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(REPO)],
                   check=True, capture_output=True)
    return next(out.glob("tokenjuice-*.whl"))


def test_wheel_ships_the_reducer_catalogue(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "tokenjuice/reducers/git/status.toml" in names
    assert "tokenjuice/reducers/generic/fallback.toml" in names
    assert not any(n.startswith("tests/") or "__pycache__" in n for n in names)


def test_sdist_ships_every_rule_file(tmp_path):
    import tarfile

    subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(REPO)],
                   check=True, capture_output=True)
    sdist = next(tmp_path.glob("tokenjuice-*.tar.gz"))
    shipped = {name.split("/", 1)[1] for name in tarfile.open(sdist).getnames() if "/reducers/" in name}
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
    done = subprocess.run([str(venv / "bin" / "tokenjuice"), "wrap", "--format", "json", "--trace", "--",
                           "git", "status"], cwd=repo, capture_output=True, check=True)
    result = json.loads(done.stdout)["result"]
    assert result["classification"]["matchedReducer"] == "git/status"
    assert Path(venv / "bin" / "tokenjuice").exists()
    done = subprocess.run([str(venv / "bin" / "tokenjuice"), "verify", "--fixtures", "--only", "git/"],
                          cwd=repo, capture_output=True)
    assert b"examples passed" in done.stdout + done.stderr
