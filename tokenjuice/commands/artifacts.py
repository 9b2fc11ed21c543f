"""`tokenjuice ls`, `tokenjuice cat <id>`, `tokenjuice prune`: stored raw output.

Every `cat` that prints something is recorded in the ledger as a read-back (its
time, the artifact id, the names of its options and how many characters it
printed; never a pattern or a range): `stats` and `discover` tie it to the run
that stored the output, and so to the rule that cut it. `wrap` records nothing of
the kind, so its cost is untouched.
"""

from __future__ import annotations

import os
import sqlite3
import time
from typing import Any

from ..errors import TokenjuiceError, UsageError
from ..settings import Settings, resolve
from ..state import artifacts, ledger, report
from .output import Output, json_text

#: How much of a command line `ls` shows (the rest is clipped with `…`).
COMMAND_WIDTH = 64


def _store(settings: Settings | None = None) -> artifacts.Store:
    return artifacts.Store.from_settings(settings or resolve(os.getcwd()))


def listing() -> Output:
    store = _store()
    runs = _runs_by_artifact()
    rows: list[dict[str, Any]] = []
    for a in store.listing():
        meta = artifacts.read_meta(a.path)
        command = command_line(str(meta.get("command") or ""), redact=store.redact)
        in_temp = os.path.dirname(a.path) != store.directory  # the temporary store every HOME of yours shares
        rows.append(
            {
                "id": a.id,
                "createdAt": a.created,
                "storedBytes": a.size,
                "path": a.path,
                "store": "temporary" if in_temp else "own",
                "command": command,
            }
            | runs.get(a.id, {})
        )
    if not rows:
        return Output(
            text=f"nothing stored in {store.directory}\n(the full output of every cut run is kept there)\n", data=rows
        )
    lines = []
    for row in rows:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row["createdAt"]))
        command = row["command"] or " ".join(filter(None, (row.get("argv0"), row.get("subcommand")))) or "?"
        exit_code = row.get("exitCode")
        where = "tmp" if row["store"] == "temporary" else "   "
        lines.append(
            f"{row['id']}  {when}  {report.compact(row['storedBytes']):>6}B  {where}  "
            f"{command}{'' if exit_code is None else f'  (exit {exit_code})'}"
        )
    shared = [row["path"] for row in rows if row["store"] == "temporary"]
    if shared:
        lines += [
            "tmp: in the temporary store every HOME of your user shares (where the own store cannot be written):",
            f"  {os.path.dirname(shared[0])}",
            f"the others: in {store.directory}",
        ]
    return Output(text="\n".join(lines) + "\n", data=rows)


def _runs_by_artifact() -> dict[str, dict[str, object]]:
    try:
        rows = (
            ledger.snapshot()
            .execute(
                "SELECT artifact_id, argv0, subcommand, exit_code, rule_id FROM runs WHERE artifact_id IS NOT NULL"
            )
            .fetchall()
        )
    except (ledger.LedgerError, sqlite3.Error):  # the listing works without the ledger
        return {}
    return {r[0]: {"argv0": r[1], "subcommand": r[2], "exitCode": r[3], "rule": r[4]} for r in rows}


def command_line(command: str, *, redact: bool = True, width: int = COMMAND_WIDTH) -> str:
    """A stored command line as one line of `ls`: the body of a hook's `bash -lc
    '<body>'`, whitespace folded, secrets redacted, controls escaped, clipped."""
    import shlex

    from ..shell.argv import launcher_body
    from ..text import sanitize

    try:
        words = shlex.split(command)
    except ValueError:
        words = []
    found = launcher_body(words) if words else None
    if found and found[0] < len(words):
        command = words[found[0]]
    command = " ".join(command.split())
    if redact and command:
        from ..state.redact import redact as redact_text

        command = redact_text(command)[0]
    command = sanitize(command)
    return command if len(command) <= width else command[: width - 1] + "…"


def cat(
    artifact_id: str,
    *,
    lines: str | None = None,
    grep: str | None = None,
    shown: bool = False,
    as_json: bool = False,
) -> Output:
    """The stored output exactly as it was kept; `--lines A:B` (1-based, inclusive,
    either end may be left open) or `--grep PATTERN` (matching lines, numbered) for
    big ones; `--shown` for what the agent was shown instead; `--json` for what it
    came from. Records the read-back (unless stats are off)."""
    settings = resolve(os.getcwd())
    try:
        stored = _store(settings).read(artifact_id)
    except artifacts.ArtifactError as error:
        raise UsageError(str(error)) from None
    data: dict[str, Any] = {
        "id": stored.id,
        **stored.meta,
        "lateOutput": stored.late,
        "bytesStored": len(stored.output),
        "shownKept": stored.shown is not None,
    }
    if shown and stored.shown is None:
        raise UsageError(
            f"what the agent was shown for {artifact_id} was not kept (it was stored by an older tokenjuice); "
            f"tokenjuice cat {artifact_id} prints the full output"
        )
    source = stored.shown if shown and stored.shown is not None else stored.output
    if shown:
        data["shown"] = source.decode("utf-8", errors="replace")
    output = _select(source, data, lines, grep)
    if as_json:
        output = Output(data=data, exit_code=output.exit_code)
        printed = len(json_text(data))
    else:
        printed = len((output.raw or b"").decode("utf-8", errors="replace"))
    options = [name for name, used in (("lines", lines), ("grep", grep), ("shown", shown), ("json", as_json)) if used]
    _record_read_back(settings, artifact_id, options, printed)
    return output


def _record_read_back(settings: Settings, artifact_id: str, options: list[str], printed: int) -> None:
    """One line in the ledger's spool; never fails the read."""
    if not settings["stats.enabled"]:
        return
    from .. import state

    state.record(
        {
            "kind": ledger.READBACK,
            "record_id": os.urandom(8).hex(),
            "created_at": time.time(),
            "artifact_id": artifact_id,
            "options": ",".join(options),
            "printed_chars": printed,
        },
        debug=settings["debug.enabled"],
    )


def _select(source: bytes, data: dict[str, Any], lines: str | None, grep: str | None) -> Output:
    """All of `source`, a range of its lines, or its lines matching a pattern."""
    if lines is None and grep is None:
        return Output(raw=source, data=data)
    text_lines = source.split(b"\n")
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
