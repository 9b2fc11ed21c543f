"""The output store (tokenjuice.state.artifacts): a cut output is kept whole, redacted,
private and pruned, and the trailer never promises what was not kept."""

import gzip
import json
import os
import stat
import subprocess
import sys
import time

from conftest import tokenjuice
from helpers import HANG, runs, stored_id

#: A failure whose output is cut whatever the budget, with a secret in it.
NOISY_FAILURE = ("sh", "-c", "seq 1 40000; echo 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'; exit 3")


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


def test_a_background_job_keeps_writing_and_its_later_output_joins_the_stored_one(home):
    """`server &`: wrap returns when the command does, the job is not killed by a
    closed pipe, and what it writes afterwards is found with tokenjuice cat."""
    gate = home.parent / "gate"  # the job writes once the test lets it: after wrap returned, or never
    script = (
        f"echo started; (while [ ! -e {gate} ]; do sleep 0.02; done; echo later-1; sleep 0.2; "
        "echo token=ghp_abcdefghijklmnopqrstuvwxyz0123456789) & echo done"
    )
    try:
        done = tokenjuice("wrap", "--", "bash", "-c", script, timeout=HANG)
    finally:
        gate.touch()
    assert done.returncode == 0
    assert done.stdout.decode().startswith("started\ndone\n")
    assert "a background job still holds the output and may write more" in done.stdout.decode()
    artifact_id = done.stdout.decode().rsplit("tokenjuice cat ", 1)[1].split(")")[0]
    deadline = time.monotonic() + HANG  # a guard: the job writes at once now
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
    done = tokenjuice("wrap", "--", "seq", "1", "40000")
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


def test_what_was_shown_is_kept_private_beside_the_output_and_pruned_with_it(home, tmp_path):
    from tokenjuice.state import artifacts

    done = tokenjuice("wrap", "--", "sh", "-c", "seq 1 40000; echo token=ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    artifact_id = stored_id(done.stdout)
    shown = home / "artifacts" / f"{artifact_id}.shown.gz"
    assert stat.S_IMODE(os.stat(shown).st_mode) == 0o600
    assert gzip.decompress(shown.read_bytes()) == done.stdout and b"ghp_" not in done.stdout
    # Never written through, nor read through, a symlink planted where it goes.
    secret = tmp_path / "secret.gz"
    secret.write_bytes(gzip.compress(b"private\n"))
    shown.unlink()
    shown.symlink_to(secret)
    read = tokenjuice("cat", artifact_id, "--shown")
    assert read.returncode == 2 and b"private" not in read.stdout
    assert not artifacts.keep_shown(str(home / "artifacts" / f"{artifact_id}.out.gz"), "overwritten?\n")
    assert gzip.decompress(secret.read_bytes()) == b"private\n"
    # Pruned with its output.
    shown.unlink()
    assert artifacts.keep_shown(
        str(home / "artifacts" / f"{artifact_id}.out.gz"),
        "token=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n",
        redact=True,
    )
    assert gzip.decompress(shown.read_bytes()) == b"token=[REDACTED:github-token]\n"
    shown.chmod(0o666)  # a file others could have written is not what tokenjuice kept
    assert tokenjuice("cat", artifact_id, "--shown").returncode == 2
    shown.chmod(0o600)
    assert tokenjuice("cat", artifact_id, "--shown").stdout == b"token=[REDACTED:github-token]\n"
    old = time.time() - 30 * 86400
    os.utime(home / "artifacts" / f"{artifact_id}.out.gz", (old, old))
    tokenjuice("prune")
    assert not list((home / "artifacts").glob(f"{artifact_id}.*"))
