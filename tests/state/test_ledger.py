"""The ledger (tokenjuice.state.ledger): every wrap is recorded once, without argument values,
and a ledger that cannot be written never fails a wrap."""

import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from conftest import tokenjuice
from helpers import runs, stored_id

from tokenjuice.state import ledger

#: Enough output to be cut whatever the budget (a stored output to read back).
BIG = ("sh", "-c", "seq 1 40000; echo 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'; exit 3")


def test_wrap_records_a_run_without_the_command_line(home):
    assert tokenjuice("wrap", "--source", "cursor", "--", "git", "-C", str(home.parent), "status").returncode == 128
    assert tokenjuice("wrap", "--", "sh", "-c", "echo secret-argument-value; seq 1 300").returncode == 0
    # Only plain names are kept: not a source with spaces, not an argument that is a URL.
    assert tokenjuice("wrap", "--source", "my tool", "--", "true", "https://user:pw@example.com/x").returncode == 0
    recorded = runs(home)
    assert [(r["source"], r["argv0"], r["subcommand"], r["rule_id"], r["exit_code"]) for r in recorded] == [
        ("cursor", "git", "status", "git/status", 128),
        ("cli", "seq", None, "generic/fallback", 0),
        ("cli", "true", None, "generic/fallback", 0),
    ]
    assert recorded[1]["raw_chars"] > recorded[1]["reduced_chars"] > 0
    database = (home / "tokenjuice.db").read_bytes()
    assert b"secret-argument-value" not in database and str(home.parent).encode() not in database
    assert b"example.com" not in database
    connection = sqlite3.connect(home / "tokenjuice.db")
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("PRAGMA user_version").fetchone()[0] == len(ledger.MIGRATIONS)
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(home / "tokenjuice.db").st_mode) == 0o600


def test_fifty_concurrent_wraps_lose_no_record_while_the_spool_is_ingested(home):
    def one(i):
        if i % 6 == 5:  # the spool is folded into the ledger while wraps append to it
            return tokenjuice("prune", "--format", "json", timeout=600)
        return tokenjuice("wrap", "--", "sh", "-c", f"seq 1 {100 + i}", timeout=600)

    with ThreadPoolExecutor(max_workers=50) as pool:
        done = list(pool.map(one, range(60)))
    assert all(d.returncode == 0 for d in done), [d.stderr for d in done if d.returncode]
    recorded = runs(home)
    assert len(recorded) == 50
    assert len({r["record_id"] for r in recorded}) == 50
    assert sqlite3.connect(home / "tokenjuice.db").execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_a_new_ledger_opened_by_many_at_once_is_created_once(home):
    # Each process imports first, then all open the ledger at the same instant.
    start = time.time() + 2
    opener = (
        f"import time; from tokenjuice.state import ledger; time.sleep(max(0, {start} - time.time())); "
        "ledger.connect().close()"
    )
    processes = [subprocess.Popen([sys.executable, "-c", opener], stderr=subprocess.PIPE) for _ in range(8)]
    failures = [p.stderr.read() for p in processes if p.wait() != 0]
    assert not failures, failures
    assert sqlite3.connect(home / "tokenjuice.db").execute("PRAGMA user_version").fetchone()[0] == len(
        ledger.MIGRATIONS
    )


def test_ingesting_twice_counts_nothing_twice(home):
    tokenjuice("wrap", "--", "seq", "1", "200")
    assert len(runs(home)) == 1
    assert len(runs(home)) == 1


def test_stats_can_be_turned_off(home, monkeypatch):
    tokenjuice("wrap", "--", "seq", "1", "200", env=os.environ | {"TOKENJUICE_STATS": "0"})
    (config := home.parent / "config.toml").write_text("[stats]\nenabled = false\n")
    tokenjuice("wrap", "--", "seq", "1", "200", env=os.environ | {"TOKENJUICE_CONFIG": str(config)})
    assert not (home / "ledger-spool.jsonl").exists()


def test_read_only_data_dir_never_fails_a_wrap(home):
    home.mkdir(mode=0o500)
    try:
        done = tokenjuice("wrap", "--", "seq", "1", "300", env=os.environ | {"TOKENJUICE_DEBUG": "1"})
        assert done.returncode == 0 and b"300" in done.stdout
        assert b"run not recorded" in done.stderr
        done = tokenjuice("wrap", "--", "seq", "1", "300")
        assert done.returncode == 0 and done.stderr == b""
    finally:
        home.chmod(0o700)


def test_a_corrupt_ledger_never_fails_a_wrap_and_is_reported(home):
    home.mkdir(mode=0o700)
    (home / "tokenjuice.db").write_bytes(b"this is not a database" * 100)
    done = tokenjuice("wrap", "--", "seq", "1", "300")
    assert done.returncode == 0 and b"300" in done.stdout
    done = tokenjuice("stats")
    assert done.returncode == 1
    assert b"is damaged or locked" in done.stderr and b"move it aside" in done.stderr
    done = tokenjuice("doctor")
    assert done.returncode == 1 and b"ledger: broken" in done.stdout


def test_a_ledger_from_a_newer_version_is_refused(home):
    home.mkdir(mode=0o700)
    connection = sqlite3.connect(home / "tokenjuice.db")
    connection.execute("PRAGMA user_version = 99")
    connection.commit()
    done = tokenjuice("stats")
    assert done.returncode == 1 and b"newer tokenjuice" in done.stderr


def _ledger_of_schema_1(home):
    """A ledger as the first schema wrote it, with one run that stored an output."""
    home.mkdir(mode=0o700)
    connection = sqlite3.connect(home / "tokenjuice.db")
    for statement in filter(str.strip, ledger.MIGRATIONS[0].split(";")):
        connection.execute(statement)
    connection.execute("PRAGMA user_version = 1")
    connection.execute(
        "INSERT INTO runs (record_id, created_at, source, argv0, rule_id, family, exit_code, raw_chars, "
        "reduced_chars, artifact_id) VALUES ('old', ?, 'cli', 'seq', 'generic/fallback', 'generic', 0, 9000, 400, "
        "'0123abcd')",
        (time.time(),),
    )
    connection.commit()
    connection.close()


def test_a_ledger_of_the_first_schema_is_read_as_it_is_then_migrated_with_its_runs(home):
    _ledger_of_schema_1(home)
    stats = json.loads(tokenjuice("stats", "--format", "json").stdout)
    # Read without being changed: an old run with a stored output that showed less counts as cut.
    assert stats["totals"]["runs"] == 1 and stats["totals"]["cutRuns"] == 1
    assert sqlite3.connect(home / "tokenjuice.db").execute("PRAGMA user_version").fetchone()[0] == 1
    tokenjuice("wrap", "--", *BIG)
    recorded = runs(home)  # prune folds the spool in, migrating first
    connection = sqlite3.connect(home / "tokenjuice.db")
    assert connection.execute("PRAGMA user_version").fetchone()[0] == len(ledger.MIGRATIONS) == 4
    assert (recorded[0]["record_id"], recorded[0]["cut"], recorded[0]["bounded"]) == ("old", None, 0)
    assert (recorded[0]["guard_widened"], recorded[1]["guard_widened"]) == (0, 0)
    assert (recorded[1]["cut"], recorded[1]["bounded"], recorded[1]["raw_lines"]) == (1, 0, 40001)
    assert connection.execute("SELECT count(*) FROM readbacks").fetchone()[0] == 0
    assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_read_backs_are_spooled_by_cat_and_folded_into_the_ledger_once(home):
    artifact_id = stored_id(tokenjuice("wrap", "--", *BIG).stdout)
    assert tokenjuice("cat", artifact_id, "--lines", "1:3").stdout == b"1\n2\n3\n"
    spooled = (home / "ledger-spool.jsonl").read_text().splitlines()
    assert json.loads(spooled[-1])["kind"] == "readback"
    # Seen before the spool is folded in (stats reads both), and after, counted once.
    assert json.loads(tokenjuice("stats", "--format", "json").stdout)["totals"]["readBacks"] == 1
    runs(home)
    runs(home)
    rows = sqlite3.connect(home / "tokenjuice.db").execute("SELECT artifact_id, options, printed_chars FROM readbacks")
    assert rows.fetchall() == [(artifact_id, "lines", 6)]
    assert json.loads(tokenjuice("stats", "--format", "json").stdout)["totals"]["readBacks"] == 1


def test_runs_whose_budget_the_guard_widened_are_counted_per_rule(home, isolated_home, workdir):
    """A rule that keeps only a head and a tail of a long failing log would drop the
    errors in its middle: the preservation guard widens the budget, the ledger says
    so, and stats counts it for the rule."""
    from conftest import make_rule

    rules = isolated_home / ".config" / "tokenjuice" / "rules"
    make_rule(rules, "demo/job", 'family = "demo"\n\n[match]\nargv0 = ["job.sh"]\n\n[failure]\nhead = 5\ntail = 5\n')
    job = workdir / "job.sh"
    job.write_text(
        '#!/bin/sh\ni=0\nwhile [ $i -lt 1500 ]; do\n  echo "INFO job $i done in 12ms, nothing to see in this line"\n'
        '  [ $((i % 100)) = 50 ] && echo "ERROR job $i: TimeoutError: gave up after 30s"\n  i=$((i+1))\ndone\nexit 1\n'
    )
    job.chmod(0o755)
    done = tokenjuice("wrap", "--", "./job.sh", cwd=workdir)
    assert done.returncode == 1 and b"ERROR job 750: TimeoutError" in done.stdout
    recorded = runs(home)
    assert recorded[-1]["rule_id"] == "demo/job" and recorded[-1]["guard_widened"] >= 1
    stats = json.loads(tokenjuice("stats", "--format", "json").stdout)
    assert stats["totals"]["guardWidenedRuns"] == 1
    assert "guard widened 1" in tokenjuice("stats").stdout.decode()


def test_a_ledger_another_user_could_have_written_is_not_read(home):
    """`stats` reads the ledger and the spool only from a data folder no other user could
    have made or replaced, and only files of this user's: another user's numbers (or a
    crafted database) are never shown as this user's."""
    assert tokenjuice("wrap", "--", "sh", "-c", "seq 1 3000").returncode == 0
    assert len(runs(home)) == 1
    assert tokenjuice("wrap", "--", "sh", "-c", "seq 1 3000").returncode == 0  # one more, still spooled
    ok = tokenjuice("stats", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    above = home.parent.stat().st_mode
    home.parent.chmod(0o777)  # anyone may now replace the data folder itself
    try:
        refused = tokenjuice("stats", "--format", "json")
    finally:
        home.parent.chmod(above)
    assert refused.returncode != 0 and b"not this user's alone" in refused.stderr + refused.stdout
    assert b"Traceback" not in refused.stderr
    if os.geteuid() != 0:
        return  # what follows needs a second owner
    os.chown(home / "tokenjuice.db", 65534, 65534)
    refused = tokenjuice("stats", "--format", "json")
    assert refused.returncode != 0 and b"not this user's alone" in refused.stderr + refused.stdout
    os.chown(home / "tokenjuice.db", 0, 0)
    spools = [path for path in home.iterdir() if path.name.startswith("ledger-spool")]
    assert spools
    for path in spools:
        os.chown(path, 65534, 65534)
    assert ledger.pending_runs() == 0  # a spool another user wrote is not counted
    for path in spools:
        os.chown(path, 0, 0)
    assert ledger.pending_runs() == 1
