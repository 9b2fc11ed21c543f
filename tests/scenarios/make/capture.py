"""Capture every scenario's raw output into tests/scenarios/.

Usage: python capture.py [NAME ...]     (no names: all)

Builds nothing itself: run build.sh first (it builds the fixtures under
/tmp/scen and calls this).  Each command runs as `bash -c COMMAND` in its
working folder with stdout and stderr joined (2>&1, one pipe, so the bytes
interleave as they would in a terminal scrollback), not on a terminal, so no
tool colours its output.  The bytes go to <name>.out (gzip-compressed as
<name>.out.gz past 200 kB) and the exit code to make/captured.json.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent
ROOT = Path("/tmp/scen")
FX = ROOT / "fx"
GIT = ROOT / "git"
STDLIB = "/root/.pyenv/versions/3.11.7/lib/python3.11"
SITE = f"{ROOT}/venv/lib/python3.11/site-packages"
PIPDIR = f"{SITE}/pip"

# name: (cwd, command, setup run before and not captured; it runs in cwd)
SCENARIOS: dict[str, tuple[Path, str, str]] = {
    # grep
    "grep-pip-cli-defs": (ROOT, f'grep -rn "def " {PIPDIR}/_internal/cli', ""),
    "grep-stdlib-isinstance-email": (ROOT, f'grep -rn "isinstance(" {STDLIB}/email', ""),
    "grep-stdlib-notimplemented": (
        ROOT,
        f'grep -rn --include=*.py "raise NotImplementedError" {STDLIB}/asyncio {STDLIB}/email {STDLIB}/importlib {STDLIB}/concurrent',
        "",
    ),
    "grep-stdlib-isinstance-all": (
        ROOT,
        f'grep -rn --include=*.py "isinstance(" {STDLIB} --exclude-dir=test --exclude-dir=site-packages',
        "",
    ),
    "grep-import-head-50": (ROOT, f'grep -rn "import " {STDLIB}/asyncio | head -50', ""),
    # pytest
    "pytest-5-failures": (ROOT / "p5", "python -m pytest tests", ""),
    "pytest-30-failures-q": (ROOT / "p30", "python -m pytest -q tests", ""),
    "pytest-200-failures-q": (ROOT / "p200", "python -m pytest -q", ""),
    "pytest-30-failures-verbose": (ROOT / "p30", "pytest -v tests", ""),
    # git status / diff / log
    "git-status-50": (GIT / "status50", "git status", ""),
    "git-status-600": (GIT / "status600", "git status", ""),
    "git-status-short-600": (GIT / "status600", "git status --short", ""),
    "git-diff-40-files": (GIT / "diff40", "git diff", ""),
    "git-log-50-stat": (ROOT / "tj", "git log -n 50 --stat", ""),
    "git-diff-head5": (ROOT / "tj", "git diff HEAD~5", ""),
    "git-diff-head30-stat": (ROOT / "tj", "git diff HEAD~30 --stat", ""),
    "git-branch-a": (GIT / "branches", "git branch -a", ""),
    # json
    "json-npm-pack-10": (FX / "eslintproj/node_modules/fast-deep-equal", "npm pack --dry-run --json", ""),
    "json-pip-list-40": (ROOT / "pipvenv", "./bin/pip list --format=json", ""),
    "json-npm-view-deps": (ROOT, "npm view express@5.1.0 dependencies --json", ""),
    "json-pypi-simple-400": (
        ROOT,
        'curl -s -H "Accept: application/vnd.pypi.simple.v1+json" https://pypi.org/simple/pytest/',
        "",
    ),
    "json-pypi-simple-4000": (
        ROOT,
        'curl -s -H "Accept: application/vnd.pypi.simple.v1+json" https://pypi.org/simple/boto3/',
        "",
    ),
    "json-npm-ls-all": (FX / "eslintproj", "npm ls --all --json", ""),
    # find
    "find-pytest-package": (ROOT, f"find {SITE}/_pytest", ""),
    "find-stdlib-test": (ROOT, f"find {STDLIB}/test {STDLIB}/idlelib", ""),
    # compound
    "compound-grep-count-git-diff": (GIT / "diff60", "grep -c TODO notes.txt; git diff", ""),
    "compound-git-status-log": (GIT / "status50", "git status && git log -n 5", ""),
    "compound-cd-pytest": (ROOT / "p30", "cd tests && python -m pytest -q", ""),
    "compound-make-tee": (FX / "cproj", "make 2>&1 | tee build.log", "rm -rf build build.log"),
    "compound-npm-install-test": (
        FX / "npmtwo",
        "npm install && npm test",
        f"rm -rf node_modules package-lock.json {ROOT}/npmcache-two",
    ),
    # linters / type checkers
    "ruff-check": (FX / "lint", "ruff check .", "rm -rf .ruff_cache"),
    "mypy-strict": (FX / "lint", "mypy --strict shop", "rm -rf .mypy_cache"),
    "eslint": (FX / "eslintproj", "npx eslint src", ""),
    # TAP
    "node-test-tap": (FX / "nodetap", "node --test --test-reporter=tap", ""),
    "prove": (FX / "perlt", "prove -v t/", ""),
    # small listings
    "pip-show-pytest": (ROOT, "pip show pytest", ""),
    "tree-symlinks": (FX / "deploy", "tree", ""),
    # logs
    "cat-app-log": (ROOT / "app", "cat app.log", ""),
    "tail-300-app-log": (ROOT / "app", "tail -n 300 app.log", ""),
    # noisy builds and installs
    "npm-install-fresh": (
        FX / "npmfresh",
        "npm install express request lodash && npm ls",
        f"rm -rf node_modules package-lock.json package.json {ROOT}/npmcache-fresh && echo '{{}}' > package.json",
    ),
    "pip-install-fresh-venv": (
        ROOT / "freshvenv",
        "pip install requests rich",
        f"rm -rf {ROOT}/freshvenv {ROOT}/pipcache-fresh && python -m venv {ROOT}/freshvenv",
    ),
    "gcc-errors-warnings": (FX / "calc", "gcc -Wall -Wextra -o calc main.c lexer.c eval.c", ""),
    "cargo-build-errors": (FX / "ledger", "cargo build", "rm -rf target Cargo.lock"),
    "make-many-lines": (FX / "cmany", "make", "rm -rf build"),
}

# extra environment per scenario (what the agent's shell would already have)
ENVS: dict[str, dict[str, str]] = {
    "compound-npm-install-test": {"npm_config_cache": f"{ROOT}/npmcache-two"},
    "npm-install-fresh": {"npm_config_cache": f"{ROOT}/npmcache-fresh"},
    "pip-install-fresh-venv": {
        "PIP_CACHE_DIR": f"{ROOT}/pipcache-fresh",
        "PATH": f"{ROOT}/freshvenv/bin:" + os.environ["PATH"],
        "VIRTUAL_ENV": f"{ROOT}/freshvenv",
    },
}


def capture(name: str) -> dict[str, object]:
    cwd, command, setup = SCENARIOS[name]
    env = {
        **os.environ,
        "PATH": f"{ROOT}/venv/bin:/root/.cargo/bin:" + os.environ["PATH"],
        "VIRTUAL_ENV": f"{ROOT}/venv",
    }
    env.update(ENVS.get(name, {}))
    if setup:
        cwd.mkdir(parents=True, exist_ok=True)
        subprocess.run(["bash", "-c", setup], cwd=ROOT if "freshvenv" in setup else cwd, env=env, check=True)
    r, w = os.pipe()
    proc = subprocess.Popen(["bash", "-c", command], cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=w, stderr=w)
    os.close(w)
    chunks = []
    with os.fdopen(r, "rb") as f:
        while chunk := f.read(65536):
            chunks.append(chunk)
    code = proc.wait()
    data = b"".join(chunks)
    for old in OUT.glob(f"{name}.out*"):
        old.unlink()
    if len(data) > 200_000:
        fname = f"{name}.out.gz"
        (OUT / fname).write_bytes(gzip.compress(data, mtime=0))
    else:
        fname = f"{name}.out"
        (OUT / fname).write_bytes(data)
    return {
        "command": command,
        "cwd": str(cwd),
        "exit_code": code,
        "bytes": len(data),
        "output_file": fname,
        "captured": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
    }


def main() -> None:
    names = sys.argv[1:] or list(SCENARIOS)
    meta_path = HERE / "captured.json"
    meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
    for name in names:
        meta[name] = capture(name)
        print(f"{name}: exit {meta[name]['exit_code']}, {meta[name]['bytes']} bytes")
        meta_path.write_text(json.dumps(dict(sorted(meta.items())), indent=2) + "\n")


if __name__ == "__main__":
    main()
