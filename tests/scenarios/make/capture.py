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
#: Files that come with the machine's own installs (Debian's google-cloud-sdk, pyenv's site-packages).
GCLOUD = "/usr/lib/google-cloud-sdk/lib/googlecloudsdk"
SITE311 = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages"

# issue 28: logs, builds, infra
LIBUV_CONFIGURE = "cmake -S . -B build -DLIBUV_BUILD_TESTS=OFF -DCMAKE_C_FLAGS=-Wshadow"

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
    # issue 28: diffs, bounds, floods, exact reads (fixtures: make/issue28.py)
    "git-diff-rename-48-files": (GIT / "rename2to3", "git diff", ""),
    "git-show-style-commit": (ROOT / "tj", "git show 9948cdc", ""),
    "git-log-p-5": (ROOT / "tj", "git log -p -n 5", ""),
    "pytest-q-tail-100": (ROOT / "p30", "python -m pytest -q 2>&1 | tail -100", ""),
    "compound-cd-pytest-x-tail-40": (ROOT / "p30", "cd tests && python -m pytest -x 2>&1 | tail -n40", ""),
    "git-show-head2-head-100": (ROOT / "tjshow", "git show HEAD~2 | head -100", ""),
    "make-errors-bash-lc-tail-40": (FX / "cwork", "bash -lc 'cd proj && make 2>&1 | tail -40'", "rm -rf proj/build"),
    "jest-tail-60": (FX / "jsapp", "npx jest 2>&1 | tail -60", ""),
    "cargo-build-head-c-2000": (FX / "stockrs", "cargo build 2>&1 | head -c 2000", "rm -rf target Cargo.lock"),
    "pytest-v-4-failures": (ROOT / "pv", "python -m pytest -v", ""),
    "pytest-ra-4-failures": (ROOT / "pv", "python -m pytest -rA", ""),
    "pytest-q-small": (ROOT / "psmall", "python -m pytest -q", ""),
    "grep-timeout-venv-vendored": (FX / "pyapp", "grep -rn timeout .", "rm -rf .ruff_cache .pytest_cache"),
    "rg-timeout-vendored": (FX / "pyapp", "rg -n timeout", "rm -rf .ruff_cache .pytest_cache"),
    "grep-require-node-modules": (FX / "jsapp", 'grep -rn "require(\'./" .', ""),
    "ruff-check-vendored": (FX / "pyapp", "ruff check .", "rm -rf .ruff_cache"),
    "flake8-vendored": (FX / "pyapp", "flake8 .", ""),
    "pylint-urllib3": (FX / "pyapp", "pylint third_party/urllib3", f"rm -rf {ROOT}/pylinthome"),
    "cat-package-lock-json": (FX / "jsapp", "cat package-lock.json", ""),
    "cat-pnpm-lock-yaml": (FX / "pnpmapp", "cat pnpm-lock.yaml", ""),
    "cat-uv-lock": (FX / "uvapp", "cat uv.lock", ""),
    "cat-airports-csv": (ROOT / "datavenv", "cat lib/python3.11/site-packages/vega_datasets/_data/airports.csv", ""),
    "cat-cars-json": (ROOT / "datavenv", "cat lib/python3.11/site-packages/vega_datasets/_data/cars.json", ""),
    # issue 28: more exact reads of structured files and JSON a command prints, of files on the machine
    "cat-gcloud-resource-map-yaml": (Path(GCLOUD) / "command_lib/util/resource_map", "cat resource_map.yaml", ""),
    "cat-boto3-ec2-resources-json": (Path(SITE311) / "boto3/data/ec2/2016-11-15", "cat resources-1.json", ""),
    "cat-numpy-log2-csv": (Path(SITE311) / "numpy/_core/tests/data", "cat umath-validation-set-log2.csv", ""),
    "json-npm-ls-jest": (
        FX / "jestls",
        "npm ls --all --json",
        f"rm -rf node_modules package-lock.json package.json {ROOT}/npmcache-jest && npm init -y > /dev/null"
        f" && npm install --no-audit --no-fund --cache {ROOT}/npmcache-jest jest@30.5.2 > /dev/null",
    ),
    "json-pip-inspect": (
        ROOT / "inspectvenv",
        "./bin/pip inspect",
        f"python3 -m venv --clear {ROOT}/inspectvenv"
        f" && {ROOT}/inspectvenv/bin/pip install -q requests==2.32.3 rich==14.0.0",
    ),
    # issue 28: logs, builds, infra (fixtures: make/infra.py)
    "cat-postgresql-log": (ROOT / "pg", "cat postgresql-15-main.log", ""),
    "cat-flask-healthcheck-log": (ROOT / "web", "cat app.log", ""),
    "go-run-panic": (FX / "goworker", "go run .", ""),
    "cmake-configure-libuv": (FX / "libuv", LIBUV_CONFIGURE, "rm -rf build"),
    "cmake-build-libuv": (FX / "libuv", "cmake --build build", f"rm -rf build && {LIBUV_CONFIGURE} > /dev/null"),
    "cargo-workspace-error": (FX / "shopws", "cargo build", "rm -rf target Cargo.lock"),
    "ruff-statistics": (FX / "ruffstats", "ruff check --statistics .", "rm -rf .ruff_cache"),
    "pip-install-requirements-bad-pin": (
        FX / "pipreqs",
        "pip install -r requirements.txt",
        f"rm -rf {ROOT}/reqvenv {ROOT}/pipcache-reqs && python -m venv {ROOT}/reqvenv",
    ),
    # issue 28: search, lint and listing floods, second round (fixture: make/floods.py)
    "grep-def-parse-venv": (FX / "tjflood", 'grep -rn "def parse" .', ""),
    "rg-valueerror-own": (FX / "tjflood", "rg -n ValueError", ""),
    "ruff-select-all-reduce": (FX / "tjflood", "ruff check --select ALL tokenjuice/reduce", "rm -rf .ruff_cache"),
    "pylint-click-site-packages": (
        FX / "tjflood",
        "pylint .venv/lib/python3.11/site-packages/click",
        f"rm -rf {ROOT}/pylinthome",
    ),
    "find-venv-py": (FX / "tjflood", 'find .venv -name "*.py"', ""),
    # issue 28: diffs and statuses of public repositories (fixtures: make/diffs.py)
    "git-show-click-annotations": (GIT / "click", "git show ecdeb0c6", ""),
    "git-diff-click-fstrings": (GIT / "click", "git diff 9897d81d~1 9897d81d", ""),
    "git-log-p-click-release": (GIT / "click", "git log -p 8.4.0..8.4.1", ""),
    "git-status-pip-codemod": (GIT / "pipwork", "git status", ""),
    "git-status-short-pip-codemod": (GIT / "pipwork", "git status --short", ""),
    "git-diff-cached-pip-codemod": (GIT / "pipwork", "git diff --cached", ""),
}

# extra environment per scenario (what the agent's shell would already have)
ENVS: dict[str, dict[str, str]] = {
    # issue 28: logs, builds, infra: a fresh venv and pip cache for the requirements install
    "pip-install-requirements-bad-pin": {
        "PIP_CACHE_DIR": f"{ROOT}/pipcache-reqs",
        "PATH": f"{ROOT}/reqvenv/bin:" + os.environ["PATH"],
        "VIRTUAL_ENV": f"{ROOT}/reqvenv",
    },
    # issue 28: a fresh pylint home, so the score line has no "previous run" part
    "pylint-urllib3": {"PYLINTHOME": f"{ROOT}/pylinthome"},
    "pylint-click-site-packages": {"PYLINTHOME": f"{ROOT}/pylinthome"},
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
