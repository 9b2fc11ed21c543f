"""`tokenjuice doctor` (tokenjuice.commands.doctor): its sections and what they warn about."""

import json

from conftest import tokenjuice


def test_doctor_says_when_runs_can_no_longer_be_recorded(home):
    tokenjuice("wrap", "--", "seq", "1", "300")
    tokenjuice("prune")
    home.chmod(0o500)  # read-only on purpose, even for root, who could still write
    try:
        ledger = json.loads(tokenjuice("doctor", "--format", "json").stdout)["sections"]["ledger"]
    finally:
        home.chmod(0o700)
    assert ledger["status"] == "warn" and any("read-only" in line for line in ledger["lines"])


def test_doctor_reports_every_section(home):
    data = json.loads(tokenjuice("doctor", "--format", "json").stdout)
    assert set(data["sections"]) == {"catalogue", "config", "ledger", "artifacts", "hooks"}
    assert data["sections"]["catalogue"]["status"] == "ok"


def test_doctor_reports_broken_user_rules(home, isolated_home):
    rules = isolated_home / ".config" / "tokenjuice" / "rules" / "demo"
    rules.mkdir(parents=True)
    (rules / "bad.toml").write_text('family = "x"\n[match]\nargv0 = "git"\n')
    data = json.loads(tokenjuice("doctor", "--format", "json").stdout)
    catalogue = data["sections"]["catalogue"]
    assert catalogue["status"] == "warn"
    assert any("match.argv0" in line for line in catalogue["lines"])


def test_a_ledger_not_created_yet_is_not_reported_as_runs_of_zero_bytes(home, workdir):
    assert b"tokenjuice.db (not created yet: no run yet)" in b" ".join(tokenjuice("doctor").stdout.split())
    tokenjuice("wrap", "--", "seq", "1", "3")
    out = tokenjuice("doctor").stdout.decode().replace("\n      ", " ")  # a long line is folded at 100 columns
    ledger = next(line for line in out.splitlines() if "tokenjuice.db" in line)
    assert "(not created yet: 1 runs waiting in the spool" in ledger and "0B" not in ledger


def test_doctor_says_what_it_does_on_a_terminal_and_nothing_more_in_a_pipe(workdir):
    """Issue 31: doctor took seconds with nothing on the screen: on a terminal one line
    comes first; in a pipe nothing is added."""
    import sys

    from helpers import on_a_terminal

    code, shown = on_a_terminal([sys.executable, "-m", "tokenjuice", "doctor"])
    assert code in (0, 1) and "checking rules, config, ledger, stored outputs and hooks" in shown, shown
    assert shown.index("checking rules") < shown.index("tokenjuice health:")
    piped = tokenjuice("doctor")
    assert b"checking rules" not in piped.stdout + piped.stderr
