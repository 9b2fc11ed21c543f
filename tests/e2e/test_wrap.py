import json
import os
import signal
import subprocess
import sys

import pytest
from conftest import tokenjuice, wrap_json
from helpers import HANG, signalled_wrap


def test_exit_code_is_the_commands(workdir):
    done = tokenjuice("wrap", "--", "sh", "-c", "exit 3")
    assert done.returncode == 3
    assert done.stdout == b"exit 3\n"


def test_trace_shows_the_nested_command_behind_a_login_shell(repo):
    payload, code = wrap_json("bash", "-lc", "git status --short", options=("--trace",), cwd=repo)
    assert code == 0
    result = payload["result"]
    assert result["trace"]["normalizedCommand"] == "git status --short"
    assert result["trace"]["normalizedArgv"] == ["git", "status", "--short"]
    assert result["trace"]["reducerArgv"] == ["git", "status", "--short"]
    assert result["classification"]["matchedReducer"] == "git/status"
    assert result["classification"]["matchedVia"] == "shell-body"
    assert "A  n1.txt" in result["inlineText"]
    assert list(payload) == ["result", "exitCode", "stdout", "stderr"]


def test_raw_is_byte_identical_with_ratio_one(workdir):
    script = "printf '\\033[31mred\\033[0m\\r\\n'; printf 'bin\\000\\377\\376'; seq 1 500; printf 'no newline'"
    direct = subprocess.run(["sh", "-c", script], capture_output=True).stdout
    done = tokenjuice("wrap", "--raw", "--", "sh", "-c", script)
    assert done.stdout == direct
    payload, _ = wrap_json("sh", "-c", script, options=("--raw",))
    assert payload["result"]["stats"]["ratio"] == 1


def test_plain_argv_is_quoted_not_split_on_operators(workdir):
    payload, _ = wrap_json("echo", "git", "log", "--grep", "a && b", options=("--trace",))
    assert payload["result"]["trace"]["normalizedCommand"] == "echo git log --grep 'a && b'"
    assert payload["result"]["inlineText"] == "git log --grep a && b"


def test_everything_after_double_dash_belongs_to_the_child(workdir):
    done = tokenjuice("wrap", "--", "echo", "hi", "--tee", "--raw")
    assert done.stdout == b"hi --tee --raw\n"


def test_command_not_found_is_127_with_a_message(workdir):
    done = tokenjuice("wrap", "--", "definitely-not-a-command-xyz")
    assert done.returncode == 127
    assert b"definitely-not-a-command-xyz: command not found" in done.stdout
    done = tokenjuice("wrap", "--", "bash", "-c", "definitely-not-a-command-xyz")
    assert done.returncode == 127
    assert b"definitely-not-a-command-xyz: command not found" in done.stdout


def test_stdin_is_inherited(workdir):
    done = tokenjuice("wrap", "--", "sh", "-c", "read line; echo got:$line", input=b"hello\n")
    assert done.stdout == b"got:hello\n"


def test_binary_and_invalid_utf8_survive(workdir):
    done = tokenjuice("wrap", "--format", "json", "--", "sh", "-c", "head -c 20000 /dev/urandom; echo; echo end")
    payload = json.loads(done.stdout)
    assert done.returncode == 0 and "end" in payload["result"]["inlineText"]


def test_killed_by_a_signal_is_128_plus_n_with_a_marker(workdir):
    done = tokenjuice("wrap", "--", "sh", "-c", "echo before; kill -9 $$")
    assert done.returncode == 128 + signal.SIGKILL
    assert b"before" in done.stdout
    assert b"killed by SIGKILL (exit 137)" in done.stdout


def test_sigterm_to_wrap_reaches_the_child_and_wrap_exits_promptly(workdir):
    trap = "trap 'echo got-term; exit 42' TERM; echo ready; touch ready; while :; do sleep 0.05; done"
    code, out = signalled_wrap(
        ["sh", "-c", trap], signal.SIGTERM, ready=workdir / "ready"
    )  # promptly: the loop never ends
    assert code == 42
    assert b"got-term" in out


def test_sigint_to_wrap_reaches_the_child(workdir):
    trap = "trap 'echo got-int; exit 7' INT; touch ready; while :; do sleep 0.05; done"
    code, out = signalled_wrap(["sh", "-c", trap], signal.SIGINT, ready=workdir / "ready")
    assert code == 7 and b"got-int" in out


def test_capture_is_bounded_and_keeps_the_end(workdir):
    payload, code = wrap_json(
        "sh", "-c", "seq 1 300000; echo FINAL-LINE; exit 5", options=("--max-capture-bytes", "65536")
    )
    assert code == 5
    text = payload["result"]["inlineText"]
    assert "FINAL-LINE" in text
    assert "of output skipped here" in payload["stderr"] + payload["stdout"] + text
    assert len(payload["stdout"]) < 70000


def test_background_job_holding_the_pipe_does_not_hang_wrap(workdir):
    done = tokenjuice("wrap", "--", "sh", "-c", "(sleep 300 &) ; echo started", timeout=HANG)  # not 300 s
    first, trailer = done.stdout.decode().splitlines()
    assert first == "started" and "a background job still holds the output" in trailer


def test_tee_streams_raw_output_to_stderr(workdir):
    done = tokenjuice("wrap", "--tee", "--", "sh", "-c", "seq 1 2000")
    assert done.stderr.decode().splitlines()[:3] == ["1", "2", "3"]
    assert b"lines omitted" in done.stdout


def test_wrap_usage_errors_are_one_sentence(workdir):
    done = tokenjuice("wrap", "--frobnicate", "--", "ls")
    assert done.returncode == 2
    assert (
        done.stderr
        == b"tokenjuice wrap: unknown option --frobnicate; options go before -- (see tokenjuice wrap --help)\n"
    )
    done = tokenjuice("wrap")
    assert done.returncode == 2 and b"give the command to run after --" in done.stderr
    done = tokenjuice("wrap", "--max-inline-chars", "zero", "--", "ls")
    assert done.returncode == 2 and done.stderr == b"tokenjuice wrap: --max-inline-chars must be a positive integer\n"


def test_wrap_help(workdir):
    done = tokenjuice("wrap", "--help")
    assert done.returncode == 0 and b"usage: tokenjuice wrap [options] -- <command>" in done.stdout


def test_output_through_a_closed_pipe_keeps_the_exit_code(workdir):
    done = subprocess.run(
        f"{sys.executable} -m tokenjuice wrap --raw -- seq 1 200000 | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
    )
    assert done.stdout == b"1\n"
    assert b"Traceback" not in done.stderr


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_wrap_works_from_a_directory_without_permissions_to_cache(workdir, isolated_home, fmt):
    cache = isolated_home / ".cache"
    cache.mkdir(exist_ok=True)
    cache.chmod(0o500)
    try:
        done = tokenjuice("wrap", "--format", fmt, "--", "sh", "-c", "seq 1 100")
        assert done.returncode == 0 and b"100" in done.stdout
    finally:
        cache.chmod(0o700)


def test_no_omit_keeps_every_line(workdir):
    env = os.environ | {"TOKENJUICE_NO_OMISSION": "1"}
    done = tokenjuice("wrap", "--", "seq", "1", "3000", env=env)
    assert done.stdout.decode().splitlines()[-1] == "3000"
    assert b"omitted" not in done.stdout


def test_streams_are_merged_at_line_boundaries(workdir):
    script = (
        "import os, time\n"
        "os.write(1, b'stdout start of a line ')\n"
        "time.sleep(0.2)\n"
        "os.write(2, b'a whole stderr line\\n')\n"
        "time.sleep(0.2)\n"
        "os.write(1, b'and its end\\n')\n"
    )
    payload, _ = wrap_json(sys.executable, "-c", script)
    lines = payload["result"]["inlineText"].splitlines()
    assert sorted(lines) == ["a whole stderr line", "stdout start of a line and its end"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="F_SETPIPE_SZ is Linux-only")
@pytest.mark.parametrize("options", [(), ("--format", "json")])
def test_capture_pipes_hold_a_mebibyte(workdir, options):
    """Fewer, larger reads for floods: the child's stdout and stderr pipes are widened."""
    probe = "import fcntl, sys; print(fcntl.fcntl(1, 1032), fcntl.fcntl(2, 1032))"  # F_GETPIPE_SZ
    done = tokenjuice("wrap", *options, "--", sys.executable, "-c", probe)
    text = json.loads(done.stdout)["stdout"] if options else done.stdout.decode()
    assert text.split() == ["1048576", "1048576"]


# -- the last-resort guard: once the command ran, its output and exit code come back -----


@pytest.mark.parametrize(
    "fault",
    [RuntimeError("a bug"), RecursionError("deep"), OSError(28, "No space left"), MemoryError(), KeyboardInterrupt()],
)
def test_any_internal_failure_after_the_run_shows_the_raw_output(workdir, monkeypatch, capfd, fault):
    from tokenjuice.commands import wrap
    from tokenjuice.reduce import engine

    def broken(*args, **kwargs):
        raise fault

    monkeypatch.setattr(engine, "reduce", broken)
    code = wrap.main(["--", "sh", "-c", "seq 1 5000; echo 'the end'; exit 3"])
    out, err = capfd.readouterr()
    assert code == 3
    assert out.startswith("1\n2\n3\n") and out.endswith("5000\nthe end\n")
    assert err == f"tokenjuice: internal error ({type(fault).__name__}); showing raw output\n"


def test_a_broken_store_or_record_never_loses_the_output(workdir, monkeypatch, capfd):
    from tokenjuice.commands import wrap
    from tokenjuice.state import artifacts, spool

    monkeypatch.setattr(artifacts.Store, "store", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "full")))
    monkeypatch.setattr(spool, "append", lambda *a, **k: (_ for _ in ()).throw(ValueError("bad record")))
    code = wrap.main(["--", "sh", "-c", "seq 1 3000; exit 2"])
    out, err = capfd.readouterr()
    assert code == 2 and out.startswith("1\n2\n") and "3000" in out and "internal error" in err


def test_a_rule_file_nested_ten_thousand_deep_breaks_nothing(workdir, isolated_home):
    rules = isolated_home / ".config" / "tokenjuice" / "rules" / "tests"
    rules.mkdir(parents=True)
    (rules / "seq.json").write_text('{"id": "tests/seq", "family": "x", "match": ' + "[" * 10000 + "]" * 10000 + "}")
    (rules / "deep.toml").write_text('family = "x"\nmatch = ' + "[" * 10000 + "]" * 10000 + "\n")
    done = tokenjuice("wrap", "--", "sh", "-c", "seq 1 3000; exit 4")
    assert done.returncode == 4 and done.stdout.startswith(b"exit 4\n1\n")
    assert b"skipped rule" in done.stderr and b"internal error" not in done.stderr
    assert b"Traceback" not in done.stderr


def test_an_exact_read_that_fits_is_byte_exact(workdir):
    (workdir / "notes.txt").write_bytes(b"first line\nno newline at the end \xff\xfe")
    done = tokenjuice("wrap", "--", "cat", "notes.txt")
    assert done.returncode == 0 and done.stdout == b"first line\nno newline at the end \xff\xfe"
    (workdir / "trojan.txt").write_text("access = 'user\u202e \u2066// admin\u2069 \u2066'\n")
    shown = tokenjuice("wrap", "--", "cat", "trojan.txt").stdout.decode()
    assert "\u202e" not in shown and "\\u202e" in shown and "\\u2066" in shown
    raw = tokenjuice("wrap", "--raw", "--", "cat", "trojan.txt").stdout.decode()
    assert "\u202e" in raw  # --raw is the byte-exact escape hatch


def test_wrap_says_what_was_wrong_with_its_options_the_way_it_was_asked(workdir):
    """Issue 31: an unknown --classifier is named (on stderr, or in the JSON asked for),
    and the command still runs with its exit code kept; a usage error of `wrap --format
    json` is a JSON error object, not plain text."""
    text = tokenjuice("wrap", "--classifier", "no-such-rule", "--", "sh", "-c", "echo hi; exit 3")
    assert text.returncode == 3 and b"hi" in text.stdout
    assert b"--classifier no-such-rule: no such rule" in text.stderr
    payload, code = wrap_json("sh", "-c", "echo hi; exit 3", options=("--classifier", "no-such-rule"))
    assert code == 3 and payload["stdout"] == "hi\n"
    assert any("--classifier no-such-rule: no such rule" in w for w in payload["warnings"])
    fine, _ = wrap_json("echo", "hi", options=("--classifier", "generic/fallback"))
    assert "warnings" not in fine
    for options in (("--format", "json", "--bogus"), ("--format=json", "--max-inline-chars", "x")):
        done = tokenjuice("wrap", *options, "--", "echo", "hi")
        assert done.returncode == 2
        assert json.loads(done.stdout)["error"]["kind"] == "usage", done.stdout
