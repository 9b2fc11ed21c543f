"""`tokenjuice ls`, `tokenjuice cat <id>`, `tokenjuice prune`: stored raw output."""

from __future__ import annotations

import sqlite3
import time

from .. import config
from ..errors import UsageError
from ..output import json_text
from ..state import artifacts, ledger, report


def listing(*, output_format: str) -> str:
    found = artifacts.listing()
    runs = _runs_by_artifact()
    rows = [{"id": a.id, "createdAt": a.created, "storedBytes": a.size, "path": a.path} | runs.get(a.id, {})
            for a in found]
    if output_format == "json":
        return json_text(rows)
    if not rows:
        return f"no stored raw output in {artifacts.artifact_dir()} (failed commands' output is kept there)\n"
    lines = []
    for row in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["createdAt"]))
        command = " ".join(filter(None, (row.get("argv0"), row.get("subcommand")))) or "?"
        exit_code = row.get("exitCode")
        lines.append(f"{row['id']}  {when}  {report.compact(row['storedBytes']):>6}B  "
                     f"{command}{'' if exit_code is None else f'  (exit {exit_code})'}")
    return "\n".join(lines) + "\n"


def _runs_by_artifact() -> dict:
    try:
        connection = ledger.open_for_reading()
        rows = connection.execute("SELECT artifact_id, argv0, subcommand, exit_code FROM runs "
                                  "WHERE artifact_id IS NOT NULL").fetchall()
    except (ledger.LedgerError, sqlite3.Error):  # the listing works without the ledger
        return {}
    return {r[0]: {"argv0": r[1], "subcommand": r[2], "exitCode": r[3]} for r in rows}


def cat(artifact_id: str) -> bytes:
    try:
        return artifacts.read(artifact_id)
    except artifacts.ArtifactError as error:
        raise UsageError(str(error)) from None


def prune(*, days: int | None, max_mb: int | None, output_format: str) -> str:
    settings = config.load()
    retention = settings["artifacts.retention_days"] if days is None else days
    limit = settings["artifacts.max_total_mb"] if max_mb is None else max_mb
    deleted = artifacts.prune(retention, limit)
    freed = sum(a.size for a in deleted)
    if output_format == "json":
        return json_text({"deleted": [a.id for a in deleted], "freedBytes": freed})
    age = f"{retention} days" if retention else "any age"
    size = f"at most {limit} MiB" if limit else "any total size"
    return f"deleted {len(deleted)} stored outputs, freed {report.compact(freed)}B (keeping {age}, {size})\n"
