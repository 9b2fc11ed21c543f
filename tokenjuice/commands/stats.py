"""`tokenjuice stats`: what tokenjuice saved, by family, rule, non-shell tool and day."""

from __future__ import annotations

import csv
import io
import sqlite3
from datetime import tzinfo
from typing import Any

from ..errors import TokenjuiceError, UsageError
from ..state import ledger, report
from .output import Output


def run(*, since: str | None, zone_name: str, csv_format: bool = False) -> Output:
    try:
        zone = report.timezone_named(zone_name)
        start = report.since_timestamp(since, zone)
    except report.ReportError as error:
        raise UsageError(str(error)) from None
    try:
        connection = ledger.snapshot()
    except ledger.LedgerError as error:
        raise TokenjuiceError(str(error)) from None
    data = report.savings(connection, start, zone)
    rows, reads = data.pop("rows"), data.pop("reads")
    if csv_format:
        return Output(text=_csv(rows, reads, zone))
    return Output(text=_text(data, since, zone_name, zone), data={"since": start, "timezone": zone_name} | data)


def _csv(rows: list[sqlite3.Row], reads: dict[str, report.ReadBacks], zone: tzinfo | None) -> str:
    """One row per run; saved_chars is counted as `stats` counts it (report.COUNTING)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "day",
            "source",
            "argv0",
            "subcommand",
            "tool",
            "rule_id",
            "family",
            "exit_code",
            "raw_chars",
            "reduced_chars",
            "saved_chars",
            "duration_ms",
            "cut",
            "bounded",
            "read_backs",
            "read_back_chars",
        ]
    )
    for r in rows:
        read = reads.get(r["artifact_id"]) or report.ReadBacks()
        writer.writerow(
            [
                report.day_of(r["created_at"], zone),
                r["source"],
                r["argv0"] or "",
                r["subcommand"] or "",
                report.tool_of(r) or "",
                r["rule_id"],
                r["family"],
                r["exit_code"],
                r["raw_chars"],
                r["reduced_chars"],
                report.credited(r) - read.chars,
                r["duration_ms"],
                int(report.was_cut(r)),
                int(bool(r["bounded"])),
                read.count,
                read.chars,
            ]
        )
    return out.getvalue()


#: How `stats` counts, for its text (the full account is in `tokenjuice stats --help`).
COLUMNS = "saved = credited - read back (how each is counted: tokenjuice stats --help)"


def _text(data: dict[str, Any], since: str | None, zone_name: str, zone: tzinfo | None) -> str:
    totals = data["totals"]
    if not totals["runs"]:
        return (
            "no runs recorded"
            + (f" since {since}" if since else "")
            + "; every tokenjuice wrap adds one\n(unless stats are off: tokenjuice config get stats.enabled)\n"
        )
    lines = [
        f"tokenjuice savings{' since ' + since if since else ''} (days in {zone_name} time)",
        f"runs:   {totals['runs']}  (" + ", ".join(f"{s['name']} {s['runs']}" for s in data["sources"]) + ")",
        f"output: {report.compact(totals['rawChars'])} chars raw -> {report.compact(totals['reducedChars'])} shown",
        f"saved:  {report.compact(totals['creditedChars'])} credited - {report.compact(totals['readBackChars'])} "
        f"read back = {report.compact(totals['savedChars'])} chars ({totals['savedPercent']}% of raw), "
        f"about {report.compact(totals['approxTokensSaved'])} tokens",
        f"cuts:   {_read_back(totals)}" + (f", {totals['readBacks']} reads" if totals["readBacks"] else ""),
        COLUMNS,
        "",
    ]
    sections = [("by family", data["families"][:10]), ("by rule (top 10)", data["rules"][:10])]
    if data["tools"]:  # MCP and search tools, apart from shell commands
        sections.append(("by tool, not shell (top 10)", data["tools"][:10]))
    for title, groups in sections:
        width = max(len(title) - 2, *(len(g["name"]) for g in groups))
        lines.append(
            f"{title + ':':<{width + 2}}  {'runs':>5}  {'raw':>6}  {'shown':>6}  {'credited':>8}  {'read back':>9}"
            f"  {'saved':>6} {'':>8}  cuts read back"
        )
        lines += [
            f"  {g['name']:<{width}}  {g['runs']:>5}  {report.compact(g['rawChars']):>6}  "
            f"{report.compact(g['reducedChars']):>6}  {report.compact(g['creditedChars']):>8}  "
            f"{report.compact(g['readBackChars']):>9}  {report.compact(g['savedChars']):>6} "
            f"{'(' + str(g['savedPercent']) + '%)':>8}  {_cuts(g)}"
            + (f", guard widened {g['guardWidenedRuns']}" if g["guardWidenedRuns"] else "")
            for g in groups
        ]
        lines.append("")
    days = report.recent_days(data["days"], 14, zone)
    largest = max(d["savedChars"] for d in days)
    lines.append("saved per day (last 14 days):")
    lines += [
        f"  {d['name']}  {report.bar(d['savedChars'], largest):<31} {report.compact(d['savedChars']):>7}"
        f"  ({d['runs']} runs)"
        for d in days
    ]
    return "\n".join(lines) + "\n"


def _cuts(group: dict[str, Any]) -> str:
    """`2/9 (22%)`: of a group's cut runs, those whose stored output was read back."""
    if not group["cutRuns"]:
        return "no cuts"
    return f"{group['readBackRuns']}/{group['cutRuns']} ({round(100 * group['readBackRate'])}%)"


def _read_back(group: dict[str, Any]) -> str:
    """`read back 2/9 cut runs (22%)`: cut runs whose stored output was read back with tokenjuice cat."""
    if not group["cutRuns"]:
        return "no cut runs"
    return f"read back {group['readBackRuns']}/{group['cutRuns']} cut runs ({round(100 * group['readBackRate'])}%)"
