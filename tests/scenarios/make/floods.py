"""Build the fixture of issue 28's second round of search, lint and listing floods.

Usage: python floods.py ROOT        (ROOT is /tmp/scen; needs git and PyPI)

Creates under ROOT:
  fx/tjflood/   a clone of this repository pinned at 4ab9641 (its own tokenjuice/ and
                tests/ are the project's code), with a .venv (git-ignored, so ripgrep
                skips it) holding requests 2.34.2, click 8.5.1 and rich 15.0.0 as pip
                installs them (pip 23.2.1 and setuptools 65.5.0 come with the venv)
The venv is kept when present (pip is slow); the clone is checked out again.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(root: Path) -> None:
    repo = root / "fx/tjflood"
    if not repo.exists():
        subprocess.run(["git", "clone", "-q", str(HERE.parents[2]), str(repo)], check=True)
    subprocess.run(["git", "checkout", "-q", "4ab9641"], cwd=repo, check=True)
    venv = repo / ".venv"
    if not (venv / "bin/python").exists():
        subprocess.run(["python", "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin/pip"), "install", "-q", "requests==2.34.2", "click==8.5.1", "rich==15.0.0"], check=True
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
