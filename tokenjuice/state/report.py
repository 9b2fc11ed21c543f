"""Questions asked of the ledger: what did tokenjuice save, and where could it do better."""

from __future__ import annotations

import re
import sqlite3
import time
from datetime import UTC, datetime, timedelta, tzinfo

from ..model import EXACT_PASSTHROUGH

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

WEAK_RATIO = 0.65
WEAK_MIN_RAW = 5000
FALLBACK_MIN_RAW = 2000
#: Runs left whole on purpose whatever the rule (a run that merely fits a rule's
#: budget still counts: a rule whose budget swallows big outputs saves nothing).
WHOLE_ON_PURPOSE = ("tiny", *EXACT_PASSTHROUGH)


class ReportError(ValueError):
    """Bad --since or --timezone; the message says what is accepted."""


def timezone_named(name: str) -> tzinfo | None:
    """None means the local time zone."""
    if name in ("", "local"):
        return None
    if name.lower() == "utc":
        return UTC
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ReportError(f"unknown time zone {name!r}; use local, utc or an IANA name such as Europe/Paris") from None


def since_timestamp(value: str | None, zone: tzinfo | None, now: float | None = None) -> float | None:
    """`7d`, `24h`, `2w` ago, or a date (`2026-11-01`, midnight in `zone`); None for all time."""
    if not value:
        return None
    now = time.time() if now is None else now
    relative = re.fullmatch(r"(\d+)\s*([hdw])", value.strip())
    if relative:
        hours = {"h": 1, "d": 24, "w": 24 * 7}[relative.group(2)] * int(relative.group(1))
        return now - hours * 3600
    try:
        day = datetime.strptime(value.strip(), "%Y-%m-%d")
    except ValueError:
        raise ReportError(f"--since {value!r}: use a duration like 7d, 24h or 2w, or a date like 2026-11-01") from None
    return day.replace(tzinfo=zone).timestamp() if zone else day.timestamp()


def day_of(timestamp: float, zone: tzinfo | None) -> str:
    moment = datetime.fromtimestamp(timestamp, zone) if zone else datetime.fromtimestamp(timestamp)
    return moment.strftime("%Y-%m-%d")


def _rows(connection: sqlite3.Connection, since: float | None) -> list[sqlite3.Row]:
    connection.row_factory = sqlite3.Row
    return connection.execute("SELECT * FROM runs WHERE created_at >= ? ORDER BY created_at", (since or 0,)).fetchall()


def _totals(rows: list[sqlite3.Row]) -> dict[str, Any]:
    raw = sum(r["raw_chars"] for r in rows)
    reduced = sum(min(r["reduced_chars"], r["raw_chars"]) for r in rows)
    return {
        "runs": len(rows),
        "rawChars": raw,
        "reducedChars": reduced,
        "savedChars": raw - reduced,
        "savedPercent": round(100 * (raw - reduced) / raw, 1) if raw else 0.0,
        "approxTokensSaved": (raw - reduced) // 4,
    }


def _grouped(rows: list[sqlite3.Row], key: Callable[[sqlite3.Row], Any]) -> list[dict[str, Any]]:
    groups: dict[Any, list[sqlite3.Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    result = [{"name": name, **_totals(members)} for name, members in groups.items()]
    return sorted(result, key=lambda g: (-g["savedChars"], -g["runs"], str(g["name"])))


def savings(connection: sqlite3.Connection, since: float | None, zone: tzinfo | None) -> dict[str, Any]:
    rows = _rows(connection, since)
    days = _grouped(rows, lambda r: day_of(r["created_at"], zone))
    return {
        "totals": _totals(rows),
        "sources": _grouped(rows, lambda r: r["source"]),
        "families": _grouped(rows, lambda r: r["family"]),
        "rules": _grouped(rows, lambda r: r["rule_id"]),
        "days": sorted(days, key=lambda d: d["name"]),
        "rows": rows,
    }


def discoveries(connection: sqlite3.Connection, since: float | None) -> dict[str, Any]:
    """Commands that keep falling back, and rules that save too little."""
    rows = _rows(connection, since)
    fallback = [
        r
        for r in rows
        if r["rule_id"] == "generic/fallback" and r["argv0"] and r["passthrough"] not in WHOLE_ON_PURPOSE
    ]
    commands = [
        g
        for g in _grouped(fallback, lambda r: (r["argv0"], r["subcommand"] or ""))
        if g["rawChars"] >= FALLBACK_MIN_RAW
    ]
    measured = [r for r in rows if r["rule_id"] != "generic/fallback" and r["passthrough"] not in WHOLE_ON_PURPOSE]
    weak = []
    for group in _grouped(measured, lambda r: r["rule_id"]):
        ratio = group["reducedChars"] / group["rawChars"] if group["rawChars"] else 1
        if ratio >= WEAK_RATIO and group["rawChars"] >= WEAK_MIN_RAW:
            weak.append(group | {"ratio": round(ratio, 2)})
    return {
        "fallbackCommands": [
            g | {"argv0": g["name"][0], "subcommand": g["name"][1] or None}
            for g in sorted(commands, key=lambda g: (-g["rawChars"], -g["runs"]))
        ],
        "weakRules": weak,
    }


def compact(number: float) -> str:
    """1234 -> 1.2k, 3400000 -> 3.4M."""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(number) >= scale:
            return f"{number / scale:.1f}{unit}"
    return str(int(number))


def bar(value: float, largest: float, width: int = 30) -> str:
    if largest <= 0 or value <= 0:
        return ""
    eighths = round(value / largest * width * 8)
    return "█" * (eighths // 8) + ("", "▏", "▎", "▍", "▌", "▋", "▊", "▉")[eighths % 8]


def recent_days(days: list[dict[str, Any]], count: int, zone: tzinfo | None) -> list[dict[str, Any]]:
    """The last `count` days up to today, empty days included, for the chart."""
    by_name = {d["name"]: d for d in days}
    today = datetime.now(zone) if zone else datetime.now()
    names = [(today - timedelta(days=offset)).strftime("%Y-%m-%d") for offset in range(count - 1, -1, -1)]
    return [by_name.get(name, {"name": name, "runs": 0, "savedChars": 0}) for name in names]
