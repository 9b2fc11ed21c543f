"""Build the fixtures of issue 28's diff and status scenarios from public repositories.

Usage: python diffs.py ROOT        (ROOT is /tmp/scen; needs git, and ruff on PATH)

Creates under ROOT:
  git/click/    pallets/click at 2c8cd3ac (its real history: commits, merges, releases)
  git/pipwork/  pypa/pip at 6d309205, on a new branch, after a session of real edits: `ruff check --fix` of
                five rule families over src/ and tests/ (about 200 files), the changes
                under src/pip/_internal staged, vendored truststore removed with `git rm`,
                one module renamed with `git mv`, two unit tests deleted unstaged, and new
                untracked files (a notes folder, 30 new test modules, a scratch script)
The repositories are cloned from GitHub, or from the clones named by CLICK_REPO and
PIP_REPO (a local mirror).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from git_repos import ENV

CLICK = (os.environ.get("CLICK_REPO", "https://github.com/pallets/click"), "2c8cd3ac958a7eb316d67f2d316c27086c4c0369")
PIP = (os.environ.get("PIP_REPO", "https://github.com/pypa/pip"), "6d3092057")
#: The codemod: rule families ruff fixes by itself, as an agent asked to modernise the code runs it.
RUFF_FIX = "ruff check --isolated --select RET,SIM,C4,PIE,UP --target-version py38 --fix --unsafe-fixes -q src tests"


def run(cwd: Path, *args: str, check: bool = True) -> None:
    subprocess.run(list(args), cwd=cwd, env=ENV, check=check)


def clone(source: tuple[str, str], dest: Path) -> None:
    url, commit = source
    shutil.rmtree(dest, ignore_errors=True)
    run(dest.parent, "git", "clone", "-q", url, str(dest))
    run(dest, "git", "checkout", "-q", commit)


def pip_session(repo: Path) -> None:
    clone(PIP, repo)
    run(repo, "git", "checkout", "-q", "-b", "modernise")
    run(repo, "bash", "-c", RUFF_FIX + " >/dev/null", check=False)  # exits 1: some findings have no fix
    run(repo, "git", "add", "src/pip/_internal")
    run(repo, "git", "rm", "-q", "-r", "-f", "src/pip/_vendor/truststore")
    run(repo, "git", "mv", "src/pip/_internal/utils/compat.py", "src/pip/_internal/utils/_compat.py")
    for name in ("test_options.py", "test_urls.py"):
        (repo / "tests/unit" / name).unlink()
    (repo / "notes").mkdir()
    (repo / "notes/plan.md").write_text("# Modernise the code base\n\n- ruff fixes\n- drop truststore\n")
    (repo / "notes/todo.md").write_text("- check the resolver tests\n")
    units = sorted((repo / "tests/unit").glob("test_*.py"))[:30]
    for source in units:
        shutil.copy(source, source.with_name(source.name.replace("test_", "test_new_", 1)))
    (repo / "scratch.py").write_text("import pip\nprint(pip.__version__)\n")


def main(root: Path) -> None:
    (root / "git").mkdir(parents=True, exist_ok=True)
    clone(CLICK, root / "git/click")
    pip_session(root / "git/pipwork")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
