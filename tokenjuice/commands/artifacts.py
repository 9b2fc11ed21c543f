"""`tokenjuice ls`, `tokenjuice cat <id>`, `tokenjuice prune`: stored raw output."""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any

from ..errors import TokenjuiceError, UsageError
from ..output import Output
from ..settings import resolve
from ..state import artifacts, ledger, report


def _store() -> artifacts.Store:
    return artifacts.Store.from_settings(resolve(os.getcwd()))


def listing() -> Output:
    store = _store()
    runs = _runs_by_artifact()
    rows: list[dict[str, Any]] = [
        {"id": a.id, "createdAt": a.created, "storedBytes": a.size, "path": a.path} | runs.get(a.id, {})
        for a in store.listing()
    ]
    if not rows:
        return Output(
            text=f"nothing stored in {store.directory} (the full output of every cut run is kept there)\n", data=rows
        )
    lines = []
    for row in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["createdAt"]))
        command = " ".join(filter(None, (row.get("argv0"), row.get("subcommand")))) or "?"
        exit_code = row.get("exitCode")
        lines.append(
            f"{row['id']}  {when}  {report.compact(row['storedBytes']):>6}B  "
            f"{command}{'' if exit_code is None else f'  (exit {exit_code})'}"
        )
    return Output(text="\n".join(lines) + "\n", data=rows)


def _runs_by_artifact() -> dict[str, dict[str, object]]:
    try:
        rows = (
            ledger.snapshot()
            .execute("SELECT artifact_id, argv0, subcommand, exit_code FROM runs WHERE artifact_id IS NOT NULL")
            .fetchall()
        )
    except (ledger.LedgerError, sqlite3.Error):  # the listing works without the ledger
        return {}
    return {r[0]: {"argv0": r[1], "subcommand": r[2], "exitCode": r[3]} for r in rows}


def cat(artifact_id: str, *, lines: str | None = None, grep: str | None = None) -> Output:
    """The stored output exactly as it was kept; `--lines A:B` (1-based, inclusive,
    either end may be left open) or `--grep PATTERN` (matching lines, numbered) for
    big ones; `--json` for what it came from."""
    try:
        stored = _store().read(artifact_id)
    except artifacts.ArtifactError as error:
        raise UsageError(str(error)) from None
    data = {"id": stored.id, **stored.meta, "lateOutput": stored.late, "bytesStored": len(stored.output)}
    if lines is None and grep is None:
        return Output(raw=stored.output, data=data)
    text_lines = stored.output.split(b"\n")
    if text_lines and text_lines[-1] == b"":
        text_lines.pop()
    if lines is not None:
        first, last = _line_range(lines, len(text_lines))
        return Output(raw=b"".join(line + b"\n" for line in text_lines[first - 1 : last]), data=data)
    import re

    try:
        pattern = re.compile(str(grep).encode("utf-8"))
    except re.error as error:
        raise UsageError(f"--grep {grep!r} is not a valid regular expression ({error})") from None
    found = [b"%d:%s\n" % (number, line) for number, line in enumerate(text_lines, start=1) if pattern.search(line)]
    return Output(raw=b"".join(found), data=data, exit_code=0 if found else 1)


def _line_range(spec: str, count: int) -> tuple[int, int]:
    start, separator, end = spec.partition(":")
    try:
        first = int(start) if start.strip() else 1
        last = (int(end) if end.strip() else count) if separator else first
    except ValueError:
        raise UsageError(f"--lines {spec!r}: use A:B, A: or :B with line numbers from 1") from None
    if first < 1 or last < first:
        raise UsageError(f"--lines {spec!r}: use A:B with 1 <= A <= B")
    return first, last


def prune(*, days: int | None, max_mb: int | None) -> Output:
    """Apply retention now, and fold the run spool into the ledger."""
    store = _store()
    deleted = store.prune(days, max_mb)
    try:
        ledger.ingest_now()
    except ledger.LedgerError as error:
        raise TokenjuiceError(str(error)) from None
    freed = sum(a.size for a in deleted)
    retention = store.retention_days if days is None else days
    limit = store.max_total_mb if max_mb is None else max_mb
    age = f"{retention} days" if retention else "any age"
    size = f"at most {limit} MiB" if limit else "any total size"
    return Output(
        text=f"deleted {len(deleted)} stored outputs, freed {report.compact(freed)}B (keeping {age}, {size})\n",
        data={"deleted": [a.id for a in deleted], "freedBytes": freed},
    )
