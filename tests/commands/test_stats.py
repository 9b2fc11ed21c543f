"""`tokenjuice stats` (tokenjuice.commands.stats)."""

import json
import time

from conftest import tokenjuice


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
