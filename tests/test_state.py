import gzip
import json
import os
import sqlite3
import stat
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from conftest import tokenjuice

NOISY_FAILURE = ("sh", "-c", "seq 1 2000; echo 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'; exit 3")


@pytest.fixture
def home(tmp_path, monkeypatch, workdir):
    path = tmp_path / "tjhome"
    monkeypatch.setenv("TOKENJUICE_HOME", str(path))
    return path


def runs(home):
    tokenjuice("prune", "--format", "json")  # folds the spool into the ledger
    connection = sqlite3.connect(home / "tokenjuice.db")
    connection.row_factory = sqlite3.Row
    return connection.execute("SELECT * FROM runs ORDER BY created_at").fetchall()


# -- the ledger ------------------------------------------------------------------------


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
    assert connection.execute("PRAGMA user_version").fetchone()[0] == 1
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
    assert sqlite3.connect(home / "tokenjuice.db").execute("PRAGMA user_version").fetchone()[0] == 1


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


def test_doctor_says_when_runs_can_no_longer_be_recorded(home):
    tokenjuice("wrap", "--", "seq", "1", "300")
    tokenjuice("prune")
    home.chmod(0o500)  # read-only on purpose, even for root, who could still write
    try:
        ledger = json.loads(tokenjuice("doctor", "--format", "json").stdout)["sections"]["ledger"]
    finally:
        home.chmod(0o700)
    assert ledger["status"] == "warn" and any("read-only" in line for line in ledger["lines"])


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


def test_recording_costs_well_under_five_milliseconds(home, monkeypatch):
    from tokenjuice.state import spool

    spool.record({"record_id": "warm", "created_at": 0, "rule_id": "x"})
    timings = []
    for i in range(50):
        started = time.perf_counter()
        assert spool.record(
            {
                "record_id": f"r{i}",
                "created_at": time.time(),
                "source": "cli",
                "rule_id": "x",
                "family": "y",
                "raw_chars": 1,
                "reduced_chars": 1,
            }
        )
        timings.append((time.perf_counter() - started) * 1000)
    assert statistics.median(timings) < 5


# -- stats, discover, doctor -----------------------------------------------------------


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


def test_report_day_boundaries_follow_the_zone():
    from datetime import timezone

    from tokenjuice.state.report import day_of, since_timestamp, timezone_named

    moment = 1795305600.0  # 2026-11-22T00:00:00Z
    assert day_of(moment - 1, timezone.utc) == "2026-11-21"
    assert day_of(moment - 1, timezone_named("Asia/Tokyo")) == "2026-11-22"
    assert since_timestamp("2026-11-22", timezone.utc) == moment
    assert since_timestamp("2d", None, now=moment) == moment - 2 * 86400


def test_discover_finds_fallback_commands_and_weak_rules(home):
    for _ in range(3):
        tokenjuice("wrap", "--", "sh", "-c", "seq 1 2000")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    assert found["fallbackCommands"][0]["argv0"] == "seq" and found["fallbackCommands"][0]["runs"] == 3
    assert "tokenjuice example" in found["fallbackCommands"][0]["advice"]
    text = tokenjuice("discover").stdout.decode()
    assert "Commands no rule knows" in text and "seq" in text


def test_discover_finds_rules_that_save_too_little(home, isolated_home):
    rule = isolated_home / ".config" / "tokenjuice" / "rules" / "custom" / "seq.toml"
    rule.parent.mkdir(parents=True)
    rule.write_text(
        'family = "numbers"\n[match]\nargv0 = ["seq"]\n[summarize]\nhead = 5000\ntail = 0\nmax_chars = 100000\n'
    )
    tokenjuice("wrap", "--", "seq", "1", "2000")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    assert [w["name"] for w in found["weakRules"]] == ["custom/seq"] and found["weakRules"][0]["ratio"] >= 0.65
    assert found["fallbackCommands"] == []


def test_discover_one_saved_log(home, workdir):
    (workdir / "build.log").write_text("".join(f"step {i} ok\n" for i in range(800)))
    done = tokenjuice("discover", "build.log", "--source-command", "./build.sh --all", "--exit-code", "1")
    assert done.returncode == 0
    assert b"classified as generic/fallback" in done.stdout and b"write a rule" in done.stdout
    done = tokenjuice("discover", "build.log")
    assert done.returncode == 2 and b"--source-command" in done.stderr
    # An exact file read stays whole by policy: no rule would change that.
    done = tokenjuice("discover", "build.log", "--source-command", "cat build.log", "--format", "json")
    found = json.loads(done.stdout)
    assert found["passthrough"] == "file-content" and found["advice"] == []


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


# -- the output store -------------------------------------------------------------------


def stored_id(stdout: bytes) -> str:
    trailer = stdout.decode().splitlines()[-1]
    assert " — full output: tokenjuice cat " in trailer, trailer
    return trailer.split("tokenjuice cat ")[1].rstrip(")")


def test_a_cut_output_is_kept_whole_redacted_and_named_in_the_trailer(home):
    done = tokenjuice("wrap", *("--",) + NOISY_FAILURE)
    assert done.returncode == 3
    artifact_id = stored_id(done.stdout)
    assert len(artifact_id) == 8 and "re-run" not in done.stdout.decode() and "--raw" not in done.stdout.decode()
    raw = tokenjuice("cat", artifact_id)
    assert raw.returncode == 0
    assert raw.stdout.startswith(b"1\n2\n3\n") and b"token=[REDACTED:github-token]" in raw.stdout
    assert b"ghp_" not in raw.stdout and b"ghp_" not in done.stdout  # redacted when shown, too
    path = home / "artifacts" / f"{artifact_id}.out.gz"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(home / "artifacts" / f"{artifact_id}.json").st_mode) == 0o600
    assert stat.S_IMODE(os.stat(home / "artifacts").st_mode) == 0o700
    assert gzip.decompress(path.read_bytes()) == raw.stdout
    meta = json.loads(tokenjuice("cat", artifact_id, "--json").stdout)
    assert meta["exit_code"] == 3 and meta["command"].startswith("sh -c") and meta["cwd"] == os.getcwd()
    assert artifact_id.encode() in tokenjuice("ls").stdout
    assert runs(home)[0]["artifact_id"] == artifact_id


def test_cat_lines_and_grep_for_big_outputs(home):
    artifact_id = stored_id(tokenjuice("wrap", "--", *NOISY_FAILURE).stdout)
    assert tokenjuice("cat", artifact_id, "--lines", "2:4").stdout == b"2\n3\n4\n"
    assert tokenjuice("cat", artifact_id, "--lines", "1999:").stdout == b"1999\n2000\ntoken=[REDACTED:github-token]\n"
    assert tokenjuice("cat", artifact_id, "--lines", "7").stdout == b"7\n"
    assert tokenjuice("cat", artifact_id, "--grep", "^199[89]$").stdout == b"1998:1998\n1999:1999\n"
    nothing = tokenjuice("cat", artifact_id, "--grep", "no such line")
    assert nothing.returncode == 1 and nothing.stdout == b""
    for bad in (("--lines", "5:2"), ("--lines", "x"), ("--grep", "("), ("--lines", "1:2", "--grep", "a")):
        done = tokenjuice("cat", artifact_id, *bad)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, bad


def test_a_background_job_keeps_writing_and_its_later_output_joins_the_stored_one(home):
    """`server &`: wrap returns when the command does, the job is not killed by a
    closed pipe, and what it writes afterwards is found with tokenjuice cat."""
    script = "echo started; (sleep 0.5; echo later-1; sleep 0.2; echo token=ghp_abcdefghijklmnopqrstuvwxyz0123456789) & echo done"
    began = time.monotonic()
    done = tokenjuice("wrap", "--", "bash", "-c", script)
    assert done.returncode == 0 and time.monotonic() - began < 5
    assert done.stdout.decode().startswith("started\ndone\n")
    assert "a background job still holds the output and may write more" in done.stdout.decode()
    artifact_id = done.stdout.decode().rsplit("tokenjuice cat ", 1)[1].split(")")[0]
    deadline = time.monotonic() + 10
    while b"token=" not in (shown := tokenjuice("cat", artifact_id).stdout) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert shown.startswith(b"started\ndone\n") and b"later-1\n" in shown
    assert b"token=[REDACTED:github-token]" in shown and b"ghp_" not in shown
    assert json.loads(tokenjuice("cat", artifact_id, "--json").stdout)["lateOutput"] is True
    late = home / "artifacts" / f"{artifact_id}.late"
    assert stat.S_IMODE(os.stat(late).st_mode) == 0o600


def test_capture_limits_are_counted_exactly_in_the_trailer(home):
    done = tokenjuice("wrap", "--max-capture-bytes", "65536", "--", "seq", "1", "200000")
    trailer = done.stdout.decode().splitlines()[-1]
    stated = int(trailer.split(" lines (")[0].rsplit("; ", 1)[-1].replace(",", ""))
    kept = [line for line in tokenjuice("cat", stored_id(done.stdout)).stdout.splitlines() if line.isdigit()]
    assert stated + len(kept) == 200000  # every line is either kept or counted, none twice
    assert len(set(kept)) == len(kept) and kept[0] == b"1" and kept[-1] == b"200000"
    assert "in the middle of the output were never kept, not even in the full output" in trailer


def test_store_modes(home):
    tokenjuice("wrap", "--", "sh", "-c", "echo short; exit 1")
    assert not (home / "artifacts").exists()  # nothing was cut: nothing to keep
    done = tokenjuice("wrap", "--", "seq", "1", "2000")
    assert len(list((home / "artifacts").glob("*.out.gz"))) == 1 and stored_id(done.stdout)
    payload = json.loads(tokenjuice("wrap", "--store", "--format", "json", "--", "echo", "hi").stdout)
    assert len(payload["result"]["rawRef"]["id"]) == 8  # --store: kept even when shown whole
    assert list(payload["result"])[-3:] == ["rawRef", "stats", "classification"]
    config = home.parent / "config.toml"
    config.write_text('[artifacts]\nmode = "never"\n')
    env = os.environ | {"TOKENJUICE_CONFIG": str(config)}
    done = tokenjuice("wrap", "--", *NOISY_FAILURE, env=env)
    assert len(list((home / "artifacts").glob("*.out.gz"))) == 2
    assert "full output not kept (artifacts.mode is never;" in done.stdout.decode().splitlines()[-1]
    config.write_text('[artifacts]\nmode = "always"\n')
    tokenjuice("wrap", "--", "echo", "hi", env=env)
    assert len(list((home / "artifacts").glob("*.out.gz"))) == 3


def test_an_output_bigger_than_the_whole_store_is_not_kept_and_the_trailer_says_so(home):
    config = home.parent / "config.toml"
    config.write_text("[artifacts]\nmax_total_mb = 1\n")
    producer = "import os, sys; sys.stdout.write(os.urandom(3 << 20).hex())"
    done = tokenjuice("wrap", "--", sys.executable, "-c", producer, env=os.environ | {"TOKENJUICE_CONFIG": str(config)})
    trailer = done.stdout.decode().splitlines()[-1]
    assert "full output not kept: it is bigger" in trailer and "artifacts.max_total_mb = 1" in trailer


def test_a_failure_shown_whole_pays_for_no_storage(home):
    """The redaction rules (the regex module) and gzip are only loaded when output is
    kept or may hold a secret."""
    tokenjuice("wrap", "--", "true")  # builds the catalogue index (which validates with regex)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "tokenjuice", "wrap", "--", "sh", "-c", "echo short; exit 4"],
        capture_output=True,
    )
    assert done.returncode == 4 and done.stdout == b"exit 4\nshort\n"
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.decode().splitlines()}
    assert "tokenjuice.commands.wrap" in imported and not {"regex", "gzip"} & imported
    assert not (home / "artifacts").exists()


def test_a_store_that_cannot_be_written_is_not_promised(home, monkeypatch, tmp_path):
    home.mkdir(parents=True, exist_ok=True)
    (home / "artifacts").write_text("a file where the folder should be")
    (tmp_path / "not-a-folder").write_text("")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "not-a-folder"))  # no fallback either
    done = tokenjuice("wrap", "--", *NOISY_FAILURE)
    assert done.returncode == 3 and done.stderr == b""
    trailer = done.stdout.decode().splitlines()[-1]
    assert "full output not kept: it cannot be written to" in trailer and "tokenjuice cat" not in trailer
    done = tokenjuice("wrap", "--store", "--", *NOISY_FAILURE)
    assert b"tokenjuice cat" not in done.stdout and done.stderr.startswith(b"tokenjuice: ")


def test_a_sandbox_that_forbids_the_data_folder_keeps_outputs_in_a_private_temp_folder(home, monkeypatch, tmp_path):
    """Codex's workspace-write sandbox lets a command write the workspace and /tmp
    only: the full output goes to $TMPDIR/tokenjuice-<uid>/artifacts, and cat, ls
    and prune find it there."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "artifacts").write_text("a file where the folder should be")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    artifact_id = stored_id(tokenjuice("wrap", "--", *NOISY_FAILURE).stdout)
    private = temp / f"tokenjuice-{os.getuid()}"
    assert stat.S_IMODE(os.stat(private).st_mode) == 0o700
    assert (private / "artifacts" / f"{artifact_id}.out.gz").exists()
    assert tokenjuice("cat", artifact_id).stdout.startswith(b"1\n2\n3\n")
    assert artifact_id.encode() in tokenjuice("ls").stdout
    # a folder of that name someone else planted (here: a link) is never used
    planted = tmp_path / "tmp2"
    planted.mkdir()
    (planted / f"tokenjuice-{os.getuid()}").symlink_to(tmp_path)
    monkeypatch.setenv("TMPDIR", str(planted))
    trailer = tokenjuice("wrap", "--", *NOISY_FAILURE).stdout.decode().splitlines()[-1]
    assert "full output not kept" in trailer


@pytest.mark.parametrize(
    "bad_id",
    ["../../etc/passwd", "0123abc", "0123abcdX", "0123ABCD", "0123abcd/../x", "0123abcd\n", "tj_0123456789ab", ""],
)
def test_output_ids_are_validated_before_any_lookup(home, bad_id):
    done = tokenjuice("cat", bad_id)
    assert done.returncode == 2 and b"is not an output id" in done.stderr


def test_missing_output(home):
    done = tokenjuice("cat", "0123abcd")
    assert done.returncode == 2 and b"no stored output 0123abcd" in done.stderr


def test_a_symlink_planted_in_the_store_is_never_followed(home, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("private\n")
    store = home / "artifacts"
    store.mkdir(parents=True)
    (store / "0123abcd.out.gz").symlink_to(secret)
    done = tokenjuice("cat", "0123abcd")
    assert done.returncode == 2 and b"private" not in done.stdout
    (store / ".last-prune").symlink_to(secret)
    tokenjuice("wrap", "--", *NOISY_FAILURE)  # stores one, and prunes
    assert secret.read_text() == "private\n"  # the stamp's link was replaced, its target untouched


def store_here():
    from tokenjuice.settings import resolve
    from tokenjuice.state import artifacts

    return artifacts.Store.from_settings(resolve())


def test_retention_by_age_and_total_size(home):
    from tokenjuice.state import artifacts

    ids = []
    store = store_here()
    unbounded = artifacts.Store(store.directory, redact=False, retention_days=0, max_total_mb=0)
    for age_days in (30, 20, 2, 1, 0):
        artifact_id = artifacts.new_id()
        path = unbounded.store(artifact_id, os.urandom(400 * 1024), {"command": "x"})
        moment = time.time() - age_days * 86400
        os.utime(path, (moment, moment))
        ids.append(artifact_id)
    deleted = {a.id for a in store.prune(retention_days=14, max_total_mb=0)}
    assert deleted == set(ids[:2])
    assert not list((home / "artifacts").glob(f"{ids[0]}.*"))  # output and metadata both gone
    deleted = {a.id for a in store.prune(retention_days=14, max_total_mb=1)}
    assert deleted == {ids[2]}  # the oldest of the rest goes until the total fits in 1 MiB
    done = json.loads(tokenjuice("prune", "--days", "0", "--max-mb", "0", "--format", "json").stdout)
    assert done["deleted"] == [] and [a.id for a in store.listing()] == ids[:2:-1]  # 0: no limit
    assert b"(keeping any age, any total size)" in tokenjuice("prune", "--days", "0", "--max-mb", "0").stdout


def test_stored_output_is_pruned_by_itself_at_most_once_a_day(home):
    from tokenjuice.state import artifacts

    store = store_here()

    def old_artifact():
        artifact_id = artifacts.new_id()
        path = store.path_of(artifact_id)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(gzip.compress(b"old\n"))
        os.utime(path, (time.time() - 30 * 86400,) * 2)
        return artifact_id

    first = old_artifact()
    tokenjuice("wrap", "--", *NOISY_FAILURE)  # stores one, and prunes: the first time today
    assert first not in {a.id for a in store.listing()}
    second = old_artifact()
    tokenjuice("wrap", "--", *NOISY_FAILURE)
    assert second in {a.id for a in store.listing()}  # already pruned today


def test_artifact_dir_override_and_redaction_off(home, tmp_path):
    elsewhere = tmp_path / "raw-outputs"
    config = home.parent / "config.toml"
    config.write_text("[redaction]\nenabled = false\n")
    env = os.environ | {"TOKENJUICE_ARTIFACT_DIR": str(elsewhere), "TOKENJUICE_CONFIG": str(config)}
    done = tokenjuice("wrap", "--", *NOISY_FAILURE, env=env)
    artifact_id = stored_id(done.stdout)
    stored = gzip.decompress((elsewhere / f"{artifact_id}.out.gz").read_bytes())
    assert b"token=ghp_abcdefghijklmnopqrstuvwxyz0123456789" in stored  # kept as it was: redaction is off
    assert not (home / "artifacts").exists()


# -- config ----------------------------------------------------------------------------


def test_config_set_get_unset_keeps_unrelated_keys(home, isolated_home):
    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[cursor]\nskip = ["make deploy*"]\n\n[custom]\nmine = 1\n')
    path.chmod(0o640)
    assert tokenjuice("config", "set", "artifacts.mode", "always").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # replaced atomically, with the file's own mode
    assert sorted(p.name for p in path.parent.iterdir()) == ["config.toml", "config.toml.bak"]
    assert tokenjuice("config", "get", "artifacts.mode").stdout == b"always\n"
    assert tokenjuice("config", "get", "artifacts.mode", "--json").stdout == b'"always"\n'
    assert tokenjuice("config", "set", "hook.skip", "a*, b *").returncode == 0
    assert tokenjuice("config", "get", "hook.skip").stdout == b"a*, b *\n"
    assert json.loads(tokenjuice("config", "get", "hook.skip", "--format", "json").stdout) == ["a*", "b *"]
    assert tokenjuice("config", "unset", "artifacts.mode").returncode == 0
    assert "custom" in path.read_text() and "mine = 1" in path.read_text()
    listing = json.loads(tokenjuice("config", "list", "--format", "json").stdout)
    assert {s["key"]: s["origin"] for s in listing["settings"]}["hook.skip"] == f"user:{path}"
    assert any("unknown setting custom.mine" in w for w in listing["warnings"])


@pytest.mark.parametrize(
    "args, message",
    [
        (("set", "nope.key", "1"), b"unknown setting nope.key"),
        (("set", "stats.enabled", "maybe"), b"takes true or false"),
        (("set", "capture.max_bytes", "lots"), b"takes a whole number"),
        (("set", "artifacts.mode", "sometimes"), b"must be one of cut, always, never"),
        (("get", "x.y"), b"unknown setting x.y"),
    ],
)
def test_config_errors_are_one_sentence(home, args, message):
    done = tokenjuice("config", *args)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1


def test_a_broken_config_never_breaks_wrap(home, isolated_home):
    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[capture\nmax_bytes = ")
    done = tokenjuice("wrap", "--", "seq", "1", "300")
    assert done.returncode == 0 and b"300" in done.stdout
    assert b"not readable TOML" in done.stderr
    path.write_text("[capture]\nmax_bytes = -5\n[artifacts]\nmode = 3\n")
    done = tokenjuice("wrap", "--", "seq", "1", "300")
    assert done.returncode == 0 and b"capture.max_bytes must be a non-negative integer" in done.stderr
    assert tokenjuice("config", "set", "stats.enabled", "false").returncode == 0  # fixable from the CLI
    done = tokenjuice("config", "set", "stats.enabled", "false", env=os.environ)
    assert done.returncode == 0


def test_the_settings_cache_is_one_file_per_config_and_this_versions_own(home, isolated_home, workdir):
    from tokenjuice.settings import resolve

    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    for days in (3, 4, 5):
        path.write_text(f"[artifacts]\nretention_days = {days}\n")
        os.utime(path, ns=(days * 10**9, days * 10**9))
        assert resolve(str(workdir))["artifacts.retention_days"] == days
    caches = list((isolated_home / ".cache" / "tokenjuice" / "settings").iterdir())
    assert len(caches) == 1  # rewritten in place, not one file per edit
    cached = json.loads(caches[0].read_text())
    # What an older or newer tokenjuice left: another version, fewer settings.
    cached["values"] = {"artifacts.retention_days": 99}
    caches[0].write_text(json.dumps(cached | {"version": "0.0.1"}))
    assert resolve(str(workdir))["artifacts.retention_days"] == 5
    caches[0].write_text(json.dumps(cached))  # this version, but a setting it does not hold
    settings = resolve(str(workdir))
    assert settings["artifacts.retention_days"] == 99 and settings["redaction.enabled"] is True


def test_project_settings_are_laid_over_the_users_key_by_key(home, isolated_home, workdir, trust_all):
    from tokenjuice.settings import resolve

    user = isolated_home / ".config" / "tokenjuice" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[artifacts]\nmode = "always"\nretention_days = 3\n')
    project = workdir / ".tokenjuice" / "config.toml"
    project.parent.mkdir()
    project.write_text("[artifacts]\nretention_days = 2\n")
    settings = resolve(str(workdir))
    assert settings["artifacts.mode"] == "always" and settings["artifacts.retention_days"] == 2
    assert settings.origins["artifacts.mode"] == f"user:{user}"
    assert settings.origins["artifacts.retention_days"] == f"project:{project}"
    project.write_text("[artifacts]\nretention_days = 5\n")  # a project may lower a limit, never raise it
    settings = resolve(str(workdir))
    assert settings["artifacts.retention_days"] == 3
    assert any("retention_days = 5 would raise your limit (3)" in w for w in settings.warnings)
    flagged = resolve(
        str(workdir),
        flags={"artifacts.mode": ("--store", "never")},
        env={"TOKENJUICE_STATS": "off", "TOKENJUICE_CURSOR": "maybe"},
    )
    assert flagged["artifacts.mode"] == "never" and flagged.origins["artifacts.mode"] == "flag:--store"
    assert flagged["stats.enabled"] is False and flagged.origins["stats.enabled"] == "env:TOKENJUICE_STATS"
    assert flagged["hook.enabled"] is True and any("TOKENJUICE_CURSOR='maybe'" in w for w in flagged.warnings)


def test_settings_named_before_hooks_served_every_host_are_still_read(isolated_home, tmp_path):
    from tokenjuice.settings import resolve

    config = isolated_home / ".config" / "tokenjuice" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[cursor]\nskip = ["make deploy*"]\nenabled = false\n')
    settings = resolve(str(tmp_path), env={"TOKENJUICE_CURSOR_SHELL": "/bin/zsh"})
    assert settings["hook.skip"] == ["make deploy*"] and settings["hook.enabled"] is False
    assert settings["hook.shell"] == "/bin/zsh" and not settings.warnings
    done = tokenjuice("config", "set", "cursor.skip", "x")
    assert done.returncode == 2 and b"cursor.skip is now called hook.skip" in done.stderr
