"""Build the git fixture repositories the scenarios run in.

Usage: python git_repos.py ROOT

Creates under ROOT:
  status50/   a clone 3 commits ahead of its upstream, ~50 status entries
  status600/  the same shape with ~600 entries
  diff40/     ~40 files of real Python (from the stdlib) with real edits
  diff60/     ~60 changed files plus notes.txt for the grep -c step
  branches/   a repository with many local and remote-tracking branches
The file contents are copies of standard-library modules, so diffs show real code.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

STDLIB = Path(sysconfig.get_paths()["stdlib"])
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Dana Dev",
    "GIT_AUTHOR_EMAIL": "dana@example.test",
    "GIT_COMMITTER_NAME": "Dana Dev",
    "GIT_COMMITTER_EMAIL": "dana@example.test",
    "GIT_AUTHOR_DATE": "2026-11-20T10:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-11-20T10:00:00+00:00",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, env=ENV, check=True, capture_output=True, text=True).stdout


def stdlib_files(pattern: str, count: int, skip: int = 0) -> list[Path]:
    files = sorted(
        p
        for p in STDLIB.glob(pattern)
        if p.is_file()
        and p.stat().st_size > 2000
        and not {"site-packages", "idlelib", "__pycache__"} & set(p.relative_to(STDLIB).parts)
    )
    return files[skip : skip + count]


def flat(f: Path) -> str:
    """A unique file name for a stdlib path: email/mime/text.py -> email_mime_text.py."""
    return "_".join(f.relative_to(STDLIB).parts)


def init(repo: Path) -> None:
    if repo.exists():
        shutil.rmtree(repo)
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Dana Dev")
    git(repo, "config", "user.email", "dana@example.test")


def populate(repo: Path, dirs: dict[str, list[Path]]) -> list[Path]:
    placed = []
    for d, files in dirs.items():
        (repo / d).mkdir(parents=True, exist_ok=True)
        for f in files:
            dest = repo / d / flat(f)
            shutil.copyfile(f, dest)
            placed.append(dest)
    return placed


def edit(path: Path, k: int) -> None:
    """A real edit: rename a word in some lines, drop a block, add a block."""
    lines = path.read_text(errors="replace").splitlines(keepends=True)
    n = len(lines)
    if k % 3 == 0:  # big hunk: rewrite a 40-line region
        start = n // 3
        for j in range(start, min(n, start + 40)):
            lines[j] = lines[j].replace("self", "this").replace("return", "return  ")
    elif k % 3 == 1:  # small hunk: insert two lines near the top
        lines.insert(min(5, n), f"# TODO(dana): revisit ({k})\nDEBUG_{k} = False\n")
    else:  # delete a block and change one line
        del lines[n // 2 : n // 2 + 8]
        lines[2] = lines[2].rstrip("\n") + "  # touched\n"
    path.write_text("".join(lines))


def status_repo(root: Path, name: str, scale: int) -> None:
    upstream = root / f"{name}-upstream.git"
    repo = root / name
    if upstream.exists():
        shutil.rmtree(upstream)
    init(repo)
    groups = {
        "src/core": stdlib_files("**/*.py", 4 * scale, 0),
        "src/net": stdlib_files("email/**/*.py", 2 * scale, 0),
        "lib/json": stdlib_files("json/*.py", 6),
        "docs": stdlib_files("**/*.py", 2 * scale, 4 * scale),
        "tools": stdlib_files("**/*.py", scale, 6 * scale),
    }
    placed = populate(repo, groups)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Initial import")
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(upstream)], check=True)
    git(repo, "remote", "add", "origin", str(upstream))
    git(repo, "fetch", "-q", "origin")
    git(repo, "branch", "-q", "--set-upstream-to=origin/main", "main")
    for c in range(3):  # three local commits: ahead by 3
        f = placed[c]
        f.write_text(f.read_text(errors="replace") + f"\n# local change {c}\n")
        git(repo, "commit", "-q", "-am", f"Local change {c}")
    placed = placed[3:]
    n = len(placed)
    # modified (unstaged), deleted, staged modified, staged deleted
    for k, f in enumerate(placed[: n // 3]):
        edit(f, k)
    for f in placed[n // 3 : n // 3 + n // 10]:
        f.unlink()
    staged_mod = placed[n // 3 + n // 10 : n // 3 + n // 10 + n // 8]
    for k, f in enumerate(staged_mod):
        edit(f, k)
        git(repo, "add", str(f.relative_to(repo)))
    staged_del = placed[n // 3 + n // 10 + n // 8 : n // 3 + n // 10 + n // 8 + n // 20 + 1]
    for f in staged_del:
        git(repo, "rm", "-q", str(f.relative_to(repo)))
    # staged new files
    new_dir = repo / "src" / "plugins"
    new_dir.mkdir(parents=True, exist_ok=True)
    for f in stdlib_files("xml/etree/*.py", max(2, scale // 2)) + stdlib_files("http/*.py", max(2, scale // 2)):
        shutil.copyfile(f, new_dir / flat(f))
    git(repo, "add", "src/plugins")
    # untracked files in several directories (listed one by one: files sit in tracked dirs)
    for d, files in {
        "src/core": stdlib_files("**/*.py", scale, 8 * scale),
        "tools": stdlib_files("logging/*.py", 3),
        "tests": stdlib_files("unittest/*.py", max(3, scale)),
    }.items():
        (repo / d).mkdir(parents=True, exist_ok=True)
        for f in files:
            dest = repo / d / ("new_" + flat(f))
            shutil.copyfile(f, dest)
    (repo / "notes.md").write_text("scratch notes\n")
    (repo / "build").mkdir(exist_ok=True)
    (repo / "build" / "out.log").write_text("built\n")


def diff_repo(root: Path, name: str, count: int) -> None:
    repo = root / name
    init(repo)
    files = populate(
        repo,
        {
            "app": stdlib_files("*.py", count // 2, 20),
            "app/mail": stdlib_files("email/**/*.py", count // 4),
            "app/web": stdlib_files("http/*.py", 4),
            "scripts": stdlib_files("**/*.py", count - count // 2 - count // 4 - 4, 300),
        },
    )
    (repo / "notes.txt").write_text("".join(f"{'TODO' if i % 7 == 0 else 'note'}: line {i}\n" for i in range(120)))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Import sources")
    for k, f in enumerate(files):
        edit(f, k)


def branches_repo(root: Path) -> None:
    repo = root / "branches"
    up = root / "branches-upstream.git"
    if up.exists():
        shutil.rmtree(up)
    init(repo)
    (repo / "README").write_text("branches\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Start")
    names = [
        f"{kind}/{topic}"
        for kind in ("feature", "fix", "chore")
        for topic in (
            "login-form",
            "rate-limit",
            "cache-warmup",
            "pdf-export",
            "sso",
            "dark-mode",
            "i18n",
            "search-index",
        )
    ] + ["release/2.3", "release/2.4", "release/3.0", "hotfix/cve-2026-1187", "develop", "staging"]
    for b in names:
        git(repo, "branch", b)
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(up)], check=True)
    git(repo, "remote", "add", "origin", str(up))
    git(repo, "fetch", "-q", "origin")
    for b in names[:10]:
        git(repo, "branch", "-q", "-D", b)
    git(repo, "checkout", "-q", "feature/pdf-export")


def main() -> None:
    root = Path(sys.argv[1])
    root.mkdir(parents=True, exist_ok=True)
    status_repo(root, "status50", 5)
    status_repo(root, "status600", 112)
    diff_repo(root, "diff40", 40)
    diff_repo(root, "diff60", 60)
    branches_repo(root)


if __name__ == "__main__":
    main()
