"""Report arithmetic (tokenjuice.state.report): days and --since in a time zone, what a
host would have shown, when a rule's cuts are read back too often."""

import sqlite3
from datetime import UTC


def test_report_day_boundaries_follow_the_zone():
    from tokenjuice.state.report import day_of, since_timestamp, timezone_named

    moment = 1795305600.0  # 2026-11-22T00:00:00Z
    assert day_of(moment - 1, UTC) == "2026-11-21"
    assert day_of(moment - 1, timezone_named("Asia/Tokyo")) == "2026-11-22"
    assert since_timestamp("2026-11-22", UTC) == moment
    assert since_timestamp("2d", None, now=moment) == moment - 2 * 86400


def test_what_each_host_would_have_shown():
    from tokenjuice.state.report import host_limit

    assert host_limit("claude-code", 100_000, 10) == 30_000
    assert host_limit("codex", 100_000, None) == 10_000
    assert host_limit("gemini", 100_000, None) == 40_000
    assert host_limit("copilot", 100_000, None) == 50_000
    assert host_limit("opencode", 100_000, 1_000) == 51_200  # 50 KiB comes first
    assert host_limit("opencode", 100_000, 10_000) == 20_000  # 2,000 lines of 10 chars come first
    assert host_limit("cursor", 100_000, 10) is None and host_limit("cli", 100_000, 10) is None


def _ledger_with(cut_runs: int, read_back: int) -> sqlite3.Connection:
    from tokenjuice.state import ledger

    connection = sqlite3.connect(":memory:")
    for script in ledger.MIGRATIONS:
        for statement in filter(str.strip, script.split(";")):
            connection.execute(statement)
    for number in range(cut_runs):
        connection.execute(
            "INSERT INTO runs (record_id, created_at, source, rule_id, family, raw_chars, reduced_chars, artifact_id, "
            "cut) VALUES (?, ?, 'cli', 'tool/x', 'tool', 9000, 900, ?, 1)",
            (f"r{number}", number, f"{number:08x}"),
        )
    for number in range(read_back):
        connection.execute(
            "INSERT INTO readbacks (record_id, created_at, artifact_id, options, printed_chars) "
            "VALUES (?, ?, ?, 'lines', 50)",
            (f"b{number}", 100 + number, f"{number:08x}"),
        )
    return connection


def test_a_rule_cuts_too_much_only_past_one_read_back_in_five_over_enough_runs():
    from tokenjuice.state.report import READBACK_MIN_CUT_RUNS, discoveries

    assert READBACK_MIN_CUT_RUNS == 10
    flagged = [
        name
        for name, (runs, reads) in {
            "all 9 read back: too few runs to judge": (9, 9),
            "2 of 10: one in five, not more": (10, 2),
            "3 of 10": (10, 3),
            "11 of 50": (50, 11),
            "10 of 50": (50, 10),
        }.items()
        if discoveries(_ledger_with(runs, reads), None)["cutsTooMuch"]
    ]
    assert flagged == ["3 of 10", "11 of 50"]
