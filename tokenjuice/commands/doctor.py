"""`tokenjuice doctor`: is everything tokenjuice relies on healthy?"""

from __future__ import annotations

import os
import sqlite3

from .. import config, paths
from ..hosts import cursor
from ..output import json_text
from ..rules import loader
from ..state import artifacts, ledger, report
from . import cursor as cursor_command


def run(*, output_format: str) -> tuple[str, int]:
    sections = {"catalogue": _catalogue(), "config": _config(), "ledger": _ledger(),
                "artifacts": _artifacts(), "hooks": _hooks()}
    overall = cursor.worst(s["status"] for s in sections.values())
    code = 1 if overall == cursor.BROKEN else 0
    if output_format == "json":
        return json_text({"status": overall, "sections": sections}), code
    lines = [f"tokenjuice health: {overall}"]
    for name, section in sections.items():
        lines.append(f"\n{name}: {section['status']}")
        lines += [f"  {line}" for line in section["lines"]]
    return "\n".join(lines) + "\n", code


def _section(status: str, lines: list[str], **data) -> dict:
    return {"status": status, "lines": lines} | data


def _catalogue() -> dict:
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
    status = cursor.BROKEN if builtin_broken or "generic/fallback" not in {r.rule["id"] for r in rules} \
        else (cursor.WARN if errors else cursor.OK)
    return _section(status, lines, rules=len(rules), problems=[p.to_dict() for p in problems])


def _config() -> dict:
    settings = config.load(os.getcwd())
    files = sorted({source for source in settings.sources.values() if source != "default"})
    lines = [f"user config: {config.user_config_path()}" +
             ("" if os.path.exists(config.user_config_path()) else " (not created; defaults apply)")]
    lines += [f"in effect: {path}" for path in files]
    lines += [f"warning: {w}" for w in settings.warnings]
    return _section(cursor.WARN if settings.warnings else cursor.OK, lines)


def _ledger() -> dict:
    path = ledger.db_path()
    pending = ledger.pending_runs()
    try:
        connection = ledger.open_for_reading()
        runs = connection.execute("SELECT count(*) FROM runs").fetchone()[0]
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
    except (ledger.LedgerError, sqlite3.Error) as error:
        if not os.path.exists(path) and not pending:
            return _section(cursor.OK, [f"{path} (not created yet; the first wrap creates it)"])
        return _section(cursor.BROKEN, [str(error)])
    size = os.path.getsize(path) if os.path.exists(path) else 0
    lines = [f"{path}: {runs} runs, {report.compact(size)}B", f"integrity: {check}"]
    if paths.read_only(os.path.dirname(path)):
        lines.append("the data folder is read-only: new runs are not recorded")
        return _section(cursor.WARN, lines)
    return _section(cursor.OK if check == "ok" else cursor.BROKEN, lines, runs=runs)


def _artifacts() -> dict:
    directory = artifacts.artifact_dir()
    stored = artifacts.listing()
    total = sum(a.size for a in stored)
    settings = config.load(os.getcwd())
    lines = [f"{directory}: {len(stored)} stored outputs, {report.compact(total)}B "
             f"(mode {settings['artifacts.mode']}, kept {settings['artifacts.retention_days']} days, "
             f"at most {settings['artifacts.max_total_mb']} MiB)"]
    if os.path.isdir(directory) and os.stat(directory).st_mode & 0o077:
        lines.append(f"{directory} can be read by other users; fix: chmod 700 {directory}")
        return _section(cursor.WARN, lines)
    return _section(cursor.OK, lines)


def _hooks() -> dict:
    overall, reports = cursor_command.hook_reports(local=False, deep=False)
    lines = [f"{name}: {r.status} ({r.path})" for name, r in reports.items()]
    if overall == cursor.DISABLED:
        lines.append(cursor_command.NOTHING_INSTALLED)
    return _section(cursor.OK if overall == cursor.DISABLED else overall, lines)
