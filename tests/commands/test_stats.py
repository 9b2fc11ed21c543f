"""`tokenjuice stats` (tokenjuice.commands.stats): totals by source, family, rule and day,
savings counted against what each host would have shown, read-backs per rule."""

import json
import time

from conftest import tokenjuice
from helpers import stored_id

from tokenjuice.state.report import compact


def test_stats_text_json_csv_and_time_zones(home):
    for _ in range(3):
        tokenjuice("wrap", "--", "seq", "1", "500")
    text = tokenjuice("stats").stdout.decode()
    assert "runs:   3  (cli 3)" in text and "generic/fallback" in text and "saved per day" in text
    data = json.loads(tokenjuice("stats", "--format", "json", "--timezone", "utc").stdout)
    assert data["totals"]["runs"] == 3 and data["totals"]["savedChars"] > 0
    assert data["days"][0]["name"] == time.strftime("%Y-%m-%d", time.gmtime())
    assert json.loads(tokenjuice("stats", "--format", "json", "--timezone", "Pacific/Kiritimati").stdout)["days"]
    csv = tokenjuice("stats", "--format", "csv").stdout.decode().splitlines()
    assert csv[0].startswith("day,source,argv0") and len(csv) == 4
    assert json.loads(tokenjuice("stats", "--format", "json", "--since", "2999-01-01").stdout)["totals"]["runs"] == 0
    done = tokenjuice("stats", "--timezone", "Mars/Olympus")
    assert done.returncode == 2 and b"unknown time zone" in done.stderr
    done = tokenjuice("stats", "--since", "last tuesday")
    assert done.returncode == 2 and b"--since" in done.stderr


def _csv_rows():
    lines = tokenjuice("stats", "--format", "csv").stdout.decode().splitlines()
    header = lines[0].split(",")
    return [dict(zip(header, line.split(","), strict=True)) for line in lines[1:]]


def test_savings_count_only_what_the_host_would_have_shown_less_what_was_read_back(home):
    big = ("seq", "1", "40000")  # 228,894 chars in 40,000 lines: past every host's own limit
    codex = stored_id(tokenjuice("wrap", "--source", "codex", "--", *big).stdout)
    tokenjuice("wrap", "--source", "opencode", "--", *big)
    tokenjuice("wrap", "--source", "cursor", "--", *big)
    tokenjuice("wrap", "--", "sh", "-c", "seq 1 40000 | head -n 30000")  # the command bounded its output
    read = tokenjuice("cat", codex, "--lines", "1:500").stdout
    rows = {r["source"] + (" bounded" if r["bounded"] == "1" else ""): r for r in _csv_rows()}
    assert set(rows) == {"codex", "opencode", "cursor", "cli bounded"}
    raw, shown = int(rows["codex"]["raw_chars"]), int(rows["codex"]["reduced_chars"])
    assert raw == 228_894 and 0 < shown < 10_000
    # Codex would have shown 10,000 chars; a read-back costs what it printed.
    assert (
        int(rows["codex"]["saved_chars"]) == 10_000 - shown - len(read)
        and rows["codex"]["read_back_chars"] == str(len(read)) == "1892"
    )
    # OpenCode shows 2,000 lines: at this output's average line length, 11,444 chars.
    assert int(rows["opencode"]["saved_chars"]) == raw * 2000 // 40_000 - int(rows["opencode"]["reduced_chars"])
    assert int(rows["cursor"]["saved_chars"]) == raw - int(rows["cursor"]["reduced_chars"])  # no published limit
    assert rows["cli bounded"]["saved_chars"] == "0"
    data = json.loads(tokenjuice("stats", "--format", "json").stdout)
    totals = data["totals"]
    assert totals["savedChars"] == sum(int(r["saved_chars"]) for r in rows.values())
    assert totals["savedChars"] < totals["rawMinusShownChars"] // 3  # raw minus shown would overstate it 3x
    assert (totals["readBacks"], totals["readBackChars"], totals["boundedRuns"]) == (1, len(read), 1)
    assert data["counting"].startswith("counted: ")
    text = tokenjuice("stats").stdout.decode()
    assert "saved = credited - read back (how each is counted: tokenjuice stats --help)" in text.splitlines()
    assert f"cuts:   read back 1/{totals['cutRuns']} cut runs (" in text


def test_stats_shows_per_rule_how_often_its_cuts_were_read_back(home):
    ids = [stored_id(tokenjuice("wrap", "--", "seq", "1", "40000").stdout) for _ in range(4)]
    tokenjuice("wrap", "--", "seq", "1", "3")  # not cut: not counted either way
    tokenjuice("cat", ids[0])
    tokenjuice("cat", ids[0], "--grep", "^7$")  # the same run read back twice counts once
    tokenjuice("cat", ids[1], "--shown")  # what was shown is no sign that a cut hid anything
    tokenjuice("cat", ids[2], "--json")
    rule = json.loads(tokenjuice("stats", "--format", "json").stdout)["rules"][0]
    assert rule["name"] == "generic/fallback"
    assert (rule["runs"], rule["cutRuns"], rule["readBackRuns"], rule["readBackRate"]) == (5, 4, 1, 0.25)
    assert rule["readBacks"] == 4
    assert "generic/fallback" in (
        line := next(x for x in tokenjuice("stats").stdout.decode().splitlines() if "generic/fallback" in x)
    )
    assert line.endswith("1/4 (25%)")


def test_read_backs_have_a_column_of_their_own_so_the_columns_add_up(home):
    """Issue 31: a rule whose outputs were read back showed `saved -2.8k (-79.6%)` with
    nothing to explain it: now credited - read back = saved, column by column, and
    `stats --help` says what each column counts."""
    stored = stored_id(tokenjuice("wrap", "--source", "codex", "--", "seq", "1", "40000").stdout)
    for _ in range(3):
        tokenjuice("cat", stored)  # read back far more than Codex would have shown
    data = json.loads(tokenjuice("stats", "--format", "json").stdout)
    rule = data["rules"][0]
    assert rule["savedChars"] < 0 and rule["savedChars"] == rule["creditedChars"] - rule["readBackChars"]
    text = tokenjuice("stats").stdout.decode().splitlines()
    header = next(line for line in text if line.startswith("by rule"))
    row = next(line for line in text if line.startswith("  generic/fallback"))
    columns = dict(zip(header.split()[4:], row.split()[1:], strict=False))  # past "by rule (top 10):"
    assert columns["credited"] == compact(rule["creditedChars"])
    assert row.split()[5] == compact(rule["readBackChars"])  # "read back" is two words in the header
    assert row.split()[6] == compact(rule["savedChars"])
    helped = " ".join(tokenjuice("stats", "--help").stdout.decode().split())
    assert "saved = credited - read back" in helped and "every char tokenjuice cat printed" in helped
