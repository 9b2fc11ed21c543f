"""`tokenjuice cat` and `ls` (tokenjuice.commands.artifacts): line ranges, grep, what was
shown, every read recorded, ids checked before any lookup, command lines listed."""

import json
import os
import sqlite3

import pytest
from conftest import tokenjuice
from helpers import runs, stored_id

from tokenjuice.commands import artifacts

#: Enough output to be cut whatever the budget, with a secret in it.
BIG = ("sh", "-c", "seq 1 40000; echo 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'; exit 3")


def test_cat_lines_and_grep_for_big_outputs(home):
    artifact_id = stored_id(tokenjuice("wrap", "--", *BIG).stdout)
    assert tokenjuice("cat", artifact_id, "--lines", "2:4").stdout == b"2\n3\n4\n"
    last = b"39999\n40000\ntoken=[REDACTED:github-token]\n"
    assert tokenjuice("cat", artifact_id, "--lines", "39999:").stdout == last
    assert tokenjuice("cat", artifact_id, "--lines", "7").stdout == b"7\n"
    assert tokenjuice("cat", artifact_id, "--grep", "^3999[89]$").stdout == b"39998:39998\n39999:39999\n"
    nothing = tokenjuice("cat", artifact_id, "--grep", "no such line")
    assert nothing.returncode == 1 and nothing.stdout == b""
    for bad in (("--lines", "5:2"), ("--lines", "x"), ("--grep", "("), ("--lines", "1:2", "--grep", "a")):
        done = tokenjuice("cat", artifact_id, *bad)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, bad


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


def test_cat_shown_prints_what_the_agent_was_shown(home):
    shown = tokenjuice("wrap", "--", *BIG)
    artifact_id = stored_id(shown.stdout)
    again = tokenjuice("cat", artifact_id, "--shown")
    assert again.returncode == 0 and again.stdout == shown.stdout  # both sides: this, and `cat ID`
    assert b"[REDACTED:github-token]" in again.stdout and b"ghp_" not in again.stdout
    assert tokenjuice("cat", artifact_id, "--shown", "--lines", "1:2").stdout == b"exit 3\n1\n"
    meta = json.loads(tokenjuice("cat", artifact_id, "--shown", "--json").stdout)
    assert meta["shownKept"] is True and meta["shown"] == shown.stdout.decode()
    (home / "artifacts" / f"{artifact_id}.shown.gz").unlink()  # as an older tokenjuice stored it
    done = tokenjuice("cat", artifact_id, "--shown")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and b"was not kept" in done.stderr
    assert json.loads(tokenjuice("cat", artifact_id, "--json").stdout)["shownKept"] is False


def _read_backs(home):
    runs(home)  # folds the spool into the ledger
    connection = sqlite3.connect(home / "tokenjuice.db")
    return connection.execute(
        "SELECT artifact_id, options, printed_chars FROM readbacks ORDER BY created_at"
    ).fetchall()


def test_every_cat_is_recorded_with_its_options_never_their_values(home):
    artifact_id = stored_id(tokenjuice("wrap", "--", *BIG).stdout)
    printed = [
        tokenjuice("cat", artifact_id).stdout,
        tokenjuice("cat", artifact_id, "--lines", "39999:").stdout,
        tokenjuice("cat", artifact_id, "--grep", "^3999[89]$|private-pattern").stdout,
        tokenjuice("cat", artifact_id, "--shown").stdout,
        tokenjuice("cat", artifact_id, "--json").stdout,
        tokenjuice("cat", artifact_id, "--grep", "no such line").stdout,
    ]
    assert tokenjuice("cat", "0123abcd").returncode == 2  # nothing read: nothing recorded
    recorded = _read_backs(home)
    assert [(a, o) for a, o, _ in recorded] == [
        (artifact_id, ""),
        (artifact_id, "lines"),
        (artifact_id, "grep"),
        (artifact_id, "shown"),
        (artifact_id, "json"),
        (artifact_id, "grep"),
    ]
    assert [chars for _, _, chars in recorded] == [len(p.decode()) for p in printed]
    assert printed[-1] == b"" and recorded[-1][2] == 0
    assert b"private-pattern" not in (home / "tokenjuice.db").read_bytes()


def test_cat_records_nothing_when_stats_are_off(home):
    artifact_id = stored_id(tokenjuice("wrap", "--", *BIG).stdout)
    assert tokenjuice("cat", artifact_id, env=os.environ | {"TOKENJUICE_STATS": "0"}).returncode == 0
    assert _read_backs(home) == []


def test_ls_shows_the_command_line_redacted_and_clipped(home):
    long_one = "seq 1 40000 # " + "x" * 200
    tokenjuice("wrap", "--", "sh", "-c", long_one)
    # A hook's wrap runs `bash -lc '<command>'`: the command is what ls shows.
    tokenjuice("wrap", "--", "bash", "-lc", "seq 1 40000\necho password=hunter2-very-secret")
    listed = tokenjuice("ls").stdout.decode().splitlines()
    assert len(listed) == 2
    assert "seq 1 40000 echo password=[REDACTED" in listed[0] and "hunter2" not in listed[0]
    assert "bash -lc" not in listed[0]
    assert f"  seq 1 40000 # {'x' * 30}" in listed[1] and listed[1].endswith("…  (exit 0)")
    rows = json.loads(tokenjuice("ls", "--format", "json").stdout)
    assert all(len(row["command"]) <= artifacts.COMMAND_WIDTH for row in rows)
    assert rows[0]["rule"] == "generic/fallback"


def test_ls_marks_the_outputs_of_the_shared_temporary_store(isolated_home, tmp_path, workdir):
    """Issue 31: `ls` listed outputs of the temporary store (which every HOME of the same
    user shares) among the own store's without a word: each entry says where it lives."""
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    other = os.environ | {"TOKENJUICE_HOME": str(blocked / "tj")}  # a store that cannot be made: the fallback
    shared = stored_id(tokenjuice("wrap", "--", "seq", "1", "30000", env=other).stdout)
    own = stored_id(tokenjuice("wrap", "--", "seq", "1", "40000").stdout)
    rows = {row["id"]: row for row in json.loads(tokenjuice("ls", "--json").stdout)}
    assert rows[shared]["store"] == "temporary" and rows[own]["store"] == "own"
    text = tokenjuice("ls").stdout.decode().splitlines()
    assert next(line for line in text if line.startswith(shared)).split()[4] == "tmp"
    assert next(line for line in text if line.startswith(own)).split()[4] == "seq"
    assert any(line.startswith("tmp: in the temporary store every HOME of your user shares") for line in text)
