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

#: A rule "cuts too much" when more than one of its cut runs in five was read back
#: (`tokenjuice cat ID`)...
READBACK_MAX_RATE = 0.2
#: ...over at least this many cut runs. With 10, a rule whose cuts are read back one
#: time in ten (a fair price for what it saves) is flagged by chance 7% of the time
#: (3 or more of 10, binomial), and one read back two times in five is flagged 83%
#: of the time; with 5 runs the chance flags stay at 8% but the real ones drop to 66%.
READBACK_MIN_CUT_RUNS = 10
#: Read-back options that print something other than the stored output itself
#: (what was shown, or what the output came from): they cost what they print but
#: are no sign that a cut hid something.
_NOT_CONTENT = frozenset({"shown", "json"})

#: What each host shows of a command's output by itself (docs: the baseline a
#: saving is counted against): characters, and lines where the host also counts
#: lines. Codex counts ~10,000 bytes or tokens depending on the model: the smaller
#: is taken. Cursor publishes no limit; `cli` (a person at a terminal) has none.
HOST_LIMITS: dict[str, tuple[int, int | None]] = {
    "claude-code": (30_000, None),
    "codex": (10_000, None),
    "gemini": (40_000, None),
    "opencode": (50 * 1024, 2_000),
    "copilot": (50_000, None),
}
COUNTING = (
    "counted: a run saves at most what its host would have shown (claude-code 30k chars, codex 10k, "
    "gemini 40k, opencode 51.2k or 2,000 lines, copilot 50k; cursor and cli uncapped), nothing when the "
    "command bounded its own output (| head, -n N), less every char tokenjuice cat printed back"
)


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


class ReadBacks:
    """The read-backs of one stored output."""

    __slots__ = ("chars", "content", "count", "last")

    def __init__(self) -> None:
        self.count = 0  # every read-back, whatever its options
        self.content = 0  # those that printed the stored output (whole, --lines, --grep)
        self.chars = 0  # characters they printed
        self.last = 0.0


def read_backs(connection: sqlite3.Connection) -> dict[str, ReadBacks]:
    """Read-backs by artifact id."""
    found: dict[str, ReadBacks] = {}
    query = "SELECT artifact_id, options, printed_chars, created_at FROM readbacks"
    for artifact_id, options, printed, created in connection.execute(query):
        entry = found.setdefault(artifact_id, ReadBacks())
        entry.count += 1
        entry.content += not _NOT_CONTENT & set(str(options or "").split(","))
        entry.chars += int(printed or 0)
        entry.last = max(entry.last, float(created or 0))
    return found


def was_cut(row: sqlite3.Row) -> bool:
    """Was the run's output cut? Runs recorded before the ledger said so count as cut
    when their output was stored and they showed less than the output."""
    if row["cut"] is not None:
        return bool(row["cut"])
    return row["artifact_id"] is not None and row["reduced_chars"] < row["raw_chars"]


def host_limit(source: str, raw_chars: int, raw_lines: int | None) -> int | None:
    """How many characters of this output the host would have shown by itself (None: all)."""
    found = HOST_LIMITS.get(source)
    if found is None:
        return None
    chars, lines = found
    if lines and raw_lines and raw_lines > lines:  # its lines, at their average length
        chars = min(chars, raw_chars * lines // raw_lines)
    return chars


def credited(row: sqlite3.Row) -> int:
    """The characters a run is credited with saving, before its read-backs."""
    if row["bounded"]:
        return 0
    raw: int = row["raw_chars"]
    limit = host_limit(row["source"], raw, row["raw_lines"])
    baseline = raw if limit is None else min(raw, limit)
    shown: int = min(row["reduced_chars"], raw)
    return max(0, baseline - shown)


def _totals(rows: list[sqlite3.Row], reads: dict[str, ReadBacks]) -> dict[str, Any]:
    raw = sum(r["raw_chars"] for r in rows)
    reduced = sum(min(r["reduced_chars"], r["raw_chars"]) for r in rows)
    credit = sum(credited(r) for r in rows)
    mine = [reads[r["artifact_id"]] for r in rows if r["artifact_id"] in reads]
    read_chars = sum(entry.chars for entry in mine)
    cut = [r for r in rows if was_cut(r)]
    read_back = sum(1 for r in cut if r["artifact_id"] in reads and reads[r["artifact_id"]].content)
    saved = credit - read_chars
    return {
        "runs": len(rows),
        "rawChars": raw,
        "reducedChars": reduced,
        "savedChars": saved,
        "savedPercent": round(100 * saved / raw, 1) if raw else 0.0,
        "approxTokensSaved": saved // 4,
        "rawMinusShownChars": raw - reduced,
        "creditedChars": credit,
        "boundedRuns": sum(1 for r in rows if r["bounded"]),
        # runs whose budget the preservation guard widened to keep what a failure is made of
        "guardWidenedRuns": sum(1 for r in rows if _widened(r)),
        "cutRuns": len(cut),
        "readBackRuns": read_back,
        "readBackRate": round(read_back / len(cut), 3) if cut else None,
        "readBacks": sum(entry.count for entry in mine),
        "readBackChars": read_chars,
    }


def _widened(row: sqlite3.Row) -> bool:
    """Did the guard widen this run's budget? (False for a ledger from before it was recorded.)"""
    return "guard_widened" in row.keys() and bool(row["guard_widened"])  # noqa: SIM118 - `in row` looks at values


def _grouped(
    rows: list[sqlite3.Row], key: Callable[[sqlite3.Row], Any], reads: dict[str, ReadBacks]
) -> list[dict[str, Any]]:
    groups: dict[Any, list[sqlite3.Row]] = {}
    for row in rows:
        groups.setdefault(key(row), []).append(row)
    result = [{"name": name, **_totals(members, reads)} for name, members in groups.items()]
    return sorted(result, key=lambda g: (-g["savedChars"], -g["runs"], str(g["name"])))


def tool_of(row: sqlite3.Row) -> str | None:
    """The host tool of a run that ran no shell command (an MCP tool, a search tool), or
    None for a command (and for a ledger from before tools were recorded)."""
    return row["tool"] if "tool" in row.keys() else None  # noqa: SIM118 - `in row` looks at values


def savings(connection: sqlite3.Connection, since: float | None, zone: tzinfo | None) -> dict[str, Any]:
    rows = _rows(connection, since)
    reads = read_backs(connection)
    days = _grouped(rows, lambda r: day_of(r["created_at"], zone), reads)
    return {
        "counting": COUNTING,
        "totals": _totals(rows, reads),
        "sources": _grouped(rows, lambda r: r["source"], reads),
        "families": _grouped(rows, lambda r: r["family"], reads),
        "rules": _grouped(rows, lambda r: r["rule_id"], reads),
        # non-shell tools by their names (`mcp__github__list_issues`, `Grep`), never among commands
        "tools": _grouped([r for r in rows if tool_of(r)], tool_of, reads),
        "days": sorted(days, key=lambda d: d["name"]),
        "rows": rows,
        "reads": reads,
    }


def discoveries(connection: sqlite3.Connection, since: float | None) -> dict[str, Any]:
    """Commands that keep falling back, rules that save too little, rules whose cuts
    are read back too often."""
    rows = _rows(connection, since)
    reads = read_backs(connection)
    fallback = [
        r
        for r in rows
        if r["rule_id"] == "generic/fallback" and r["argv0"] and r["passthrough"] not in WHOLE_ON_PURPOSE
    ]
    commands = [
        g
        for g in _grouped(fallback, lambda r: (r["argv0"], r["subcommand"] or ""), reads)
        if g["rawChars"] >= FALLBACK_MIN_RAW
    ]
    measured = [r for r in rows if r["rule_id"] != "generic/fallback" and r["passthrough"] not in WHOLE_ON_PURPOSE]
    weak = []
    for group in _grouped(measured, lambda r: r["rule_id"], reads):
        ratio = group["reducedChars"] / group["rawChars"] if group["rawChars"] else 1
        if ratio >= WEAK_RATIO and group["rawChars"] >= WEAK_MIN_RAW:
            weak.append(group | {"ratio": round(ratio, 2)})
    too_much = []
    for group in _grouped(rows, lambda r: r["rule_id"], reads):
        if group["cutRuns"] >= READBACK_MIN_CUT_RUNS and group["readBackRuns"] > READBACK_MAX_RATE * group["cutRuns"]:
            ids = [
                r["artifact_id"]
                for r in rows
                if r["rule_id"] == group["name"] and was_cut(r) and r["artifact_id"] in reads
                if reads[r["artifact_id"]].content
            ]
            ids.sort(key=lambda artifact_id: reads[artifact_id].last, reverse=True)
            too_much.append(group | {"readBackIds": ids[:3]})
    too_much.sort(key=lambda g: (-g["readBackRate"], -g["cutRuns"], g["name"]))
    return {
        "fallbackCommands": [
            g | {"argv0": g["name"][0], "subcommand": g["name"][1] or None}
            for g in sorted(commands, key=lambda g: (-g["rawChars"], -g["runs"]))
        ],
        "weakRules": weak,
        "cutsTooMuch": too_much,
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
