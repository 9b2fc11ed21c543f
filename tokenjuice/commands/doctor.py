"""`tokenjuice doctor`: is everything tokenjuice relies on healthy?"""

from __future__ import annotations

import os
import sqlite3
import sys
from typing import Any

import tokenjuice

from .. import paths
from ..hosts import BROKEN, DISABLED, OK, WARN, manage
from ..rules import loader
from ..settings import resolve, user_config_path
from ..shell.syntax import quote
from ..state import artifacts, ledger, report
from . import hosts as hosts_command
from .output import Output, fold


def run() -> Output:
    sections: dict[str, dict[str, Any]] = {
        "catalogue": _catalogue(),
        "config": _config(),
        "ledger": _ledger(),
        "artifacts": _artifacts(),
        "hooks": _hooks(),
    }
    overall = manage.worst(s["status"] for s in sections.values())
    code = 1 if overall == BROKEN else 0
    lines = [f"tokenjuice health: {overall}"]
    for name, section in sections.items():
        lines.append(f"\n{name}: {section['status']}")
        lines += [fold(f"  {line}", "    ") for line in section["lines"]]
    return Output(text="\n".join(lines) + "\n", data={"status": overall, "sections": sections}, exit_code=code)


def _section(status: str, lines: list[str], **data: object) -> dict[str, Any]:
    return {"status": status, "lines": lines} | data


def _catalogue() -> dict[str, Any]:
    roots = loader.layer_roots(os.getcwd())
    rules, problems = loader.load_catalogue(roots)
    by_layer: dict[str, int] = {}
    for rule in rules:
        by_layer[rule.layer] = by_layer.get(rule.layer, 0) + 1
    errors = [p for p in problems if p.severity == "error"]
    notices = [p for p in problems if p.severity != "error"]
    lines = [f"{len(rules)} rules in force: " + ", ".join(f"{n} {layer}" for layer, n in by_layer.items())]
    lines += [f"layer {layer}: {root}" + ("" if os.path.isdir(root) else " (none)") for layer, root in roots]
    lines += [f"override: {p.path} ({p.message})" for p in notices]
    lines += [f"broken, skipped: {p}" for p in errors]
    if errors:
        lines.append("fix: tokenjuice verify names each problem; the rest of the catalogue keeps working")
    builtin_broken = any(p.layer == loader.BUILTIN for p in errors)
    status = (
        BROKEN if builtin_broken or "generic/fallback" not in {r.rule.id for r in rules} else (WARN if errors else OK)
    )
    return _section(status, lines, rules=len(rules), problems=[p.to_dict() for p in problems])


def _config() -> dict[str, Any]:
    settings = resolve(os.getcwd())
    files = sorted({origin for origin in settings.origins.values() if origin != "default"})
    lines = [
        f"user config: {user_config_path()}"
        + ("" if os.path.exists(user_config_path()) else " (not created; defaults apply)")
    ]
    lines += [f"in effect: {path}" for path in files]
    lines += [f"warning: {w}" for w in settings.warnings]
    return _section(WARN if settings.warnings else OK, lines)


def _ledger() -> dict[str, Any]:
    path = ledger.db_path()
    pending = ledger.pending_runs()
    try:
        runs = ledger.snapshot().execute("SELECT count(*) FROM runs").fetchone()[0]
        check = _integrity(path)
    except (ledger.LedgerError, sqlite3.Error) as error:
        return _section(BROKEN, [str(error)])
    if not os.path.exists(path):
        waiting = f"{pending} runs waiting in the spool; tokenjuice prune moves them in" if pending else "no run yet"
        return _section(OK, [f"{path} (not created yet: {waiting})"], runs=runs)
    size = os.path.getsize(path)
    lines = [f"{path}: {runs} runs ({pending} waiting in the spool), {report.compact(size)}B", f"integrity: {check}"]
    if paths.read_only(os.path.dirname(path)):
        lines.append("the data folder is read-only: new runs are not recorded")
        return _section(WARN, lines)
    return _section(OK if check == "ok" else BROKEN, lines, runs=runs)


def _integrity(path: str) -> str:
    if not os.path.exists(path):
        return "ok"
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        result: str = connection.execute("PRAGMA quick_check").fetchone()[0]
        return result
    finally:
        connection.close()


def _artifacts() -> dict[str, Any]:
    settings = resolve(os.getcwd())
    store = artifacts.Store.from_settings(settings)
    directory = store.directory
    stored = store.listing()
    total = sum(a.size for a in stored)
    lines = [
        f"{directory}: {len(stored)} stored outputs, {report.compact(total)}B "
        f"(mode {settings['artifacts.mode']}, kept {settings['artifacts.retention_days']} days, "
        f"at most {settings['artifacts.max_total_mb']} MiB)"
    ]
    if os.path.isdir(directory) and os.stat(directory).st_mode & 0o077:
        lines.append(f"{directory} can be read by other users; fix: chmod 700 {directory}")
        return _section(WARN, lines)
    return _section(OK, lines)


def _hooks() -> dict[str, Any]:
    overall, reports = hosts_command.hook_reports(local=False, deep=False)
    lines = [f"{name}: {r.status} ({r.path})" for name, r in reports.items()]
    lines += [
        f"{name}: look-alike: {check['message']}"
        for name, r in reports.items()
        for check in r.checks
        if check["name"] == "look-alike"
    ]
    if overall == DISABLED:
        lines.append(hosts_command.NOTHING_INSTALLED)
        return _section(OK, lines)
    package = os.path.dirname(os.path.abspath(tokenjuice.__file__))
    uncompiled = _uncompiled_modules(package)
    if uncompiled:
        fix = f"{quote(sys.executable)} -m compileall -q {quote(package)}"
        lines.append(
            f"{uncompiled} of tokenjuice's modules have no up-to-date byte code, so every hook compiles them "
            f"(~50 ms a shell command); fix: {fix}"
        )
        overall = manage.worst([overall, WARN])
    return _section(overall, lines)


def _uncompiled_modules(package: str) -> int:
    """How many of the package's modules have no byte code Python would use (missing,
    or written for another version of the source): uv installs none unless asked,
    and PYTHONDONTWRITEBYTECODE stops Python writing it."""
    from importlib.util import cache_from_source

    count = 0
    for folder, _, names in os.walk(package):
        for source in (os.path.join(folder, name) for name in names if name.endswith(".py")):
            try:
                with open(cache_from_source(source), "rb") as handle:
                    header = handle.read(16)
                current = _is_current(header, os.stat(source))
            except OSError:
                current = False
            count += not current
    return count


def _is_current(header: bytes, source: os.stat_result) -> bool:
    """Would Python use byte code with this 16-byte header for this source (PEP 552)?"""
    from importlib.util import MAGIC_NUMBER

    if header[:4] != MAGIC_NUMBER:
        return False
    if int.from_bytes(header[4:8], "little"):
        return True  # checked by hash: valid as written
    mtime, size = int.from_bytes(header[8:12], "little"), int.from_bytes(header[12:16], "little")
    return mtime == int(source.st_mtime) & 0xFFFFFFFF and size == source.st_size & 0xFFFFFFFF
