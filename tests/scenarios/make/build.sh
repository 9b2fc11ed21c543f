#!/usr/bin/env bash
# Build every fixture under /tmp/scen, then capture the scenarios.
# Usage: bash build.sh [NAME ...]   (no names: capture all)   (Debian 12, Python 3.11.7 via pyenv,
# node 20 + npm, cargo, gcc, make, perl/prove, tree; network: PyPI and the npm registry)
set -euo pipefail
NAMES=("$@")
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT=/tmp/scen
mkdir -p "$ROOT"
cd "$ROOT"
if [ ! -x venv/bin/python ]; then
  python -m venv venv
  venv/bin/pip install -q pytest ruff mypy
fi
# a venv holding ~40 packages, for `pip list --format=json`
if [ ! -x pipvenv/bin/pip ]; then
  python -m venv pipvenv
  pipvenv/bin/pip install -q requests rich httpx jinja2 click attrs pyyaml packaging pytest python-dateutil tomli-w flask sqlalchemy alembic pydantic
fi
for spec in "p5 5 12" "p30 30 120" "p200 200 300"; do
  set -- $spec
  rm -rf "$1"
  venv/bin/python "$HERE/pytest_suite.py" "$1" "$2" "$3"
done
venv/bin/python "$HERE/git_repos.py" "$ROOT/git"
venv/bin/python "$HERE/fixtures.py" "$ROOT/fx"
if [ ! -d fx/eslintproj/node_modules ]; then
  (cd fx/eslintproj && npm install --no-audit --no-fund eslint@10.15.0 @eslint/js@10.0.1)
fi
mkdir -p app
cp "$HERE/applog.py" app/service.py
(cd app && ../venv/bin/python service.py app.log)
# the tokenjuice repository's own history, pinned
if [ ! -d tj ]; then git clone -q /work/main tj; fi
git -C tj checkout -q 8d4e355
# issue 28: diffs, bounds, floods, exact reads (needs ripgrep: apt-get install ripgrep)
if [ ! -x venv/bin/pylint ]; then venv/bin/pip install -q flake8==7.5.0 pylint==4.1.5 uv==0.13.9; fi
venv/bin/python "$HERE/issue28.py" "$ROOT"
# issue 28: logs, builds, infra (needs postgresql-15, golang-go, cmake: apt-get install postgresql golang-go cmake)
python "$HERE/infra.py" "$ROOT"
# issue 28: search, lint and listing floods, second round
python "$HERE/floods.py" "$ROOT"
# issue 28: diffs and statuses of public repositories (GitHub reachable, or CLICK_REPO/PIP_REPO: local clones)
PATH="$ROOT/venv/bin:$PATH" venv/bin/python "$HERE/diffs.py" "$ROOT"
venv/bin/python "$HERE/capture.py" "${NAMES[@]}"
# issue 28: logs, builds, infra: the published outputs are stored, not captured; register them
venv/bin/python "$HERE/published.py" --register
