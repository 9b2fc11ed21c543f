"""The capture layer through real processes: `wrap --raw` streaming, exact counts of
what a flood's middle lost, background jobs and the detached drainer, inherited
signal dispositions, and the parent-death signal that keeps orphans from running on."""

import os
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import tokenjuice, wrap_json
from helpers import HANG

from tokenjuice import capture

LINUX = sys.platform.startswith("linux")
WRAP = [sys.executable, "-m", "tokenjuice", "wrap"]


def _wait_for(predicate, timeout: float = HANG, step: float = 0.02) -> bool:
    """Poll until predicate() holds; False only after `timeout`: a hang guard, or,
    where what is awaited would happen by itself later (a `sleep 30` ending), the
    window in which it must happen for another reason, far from that end."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


# -- wrap --raw streams ------------------------------------------------------------------


def test_raw_passes_ten_megabytes_of_binary_through_unchanged(workdir):
    data = bytes(range(256)) * 64 + b"\x00\xff\xfe\xc3\x28 no newline at the end" + os.urandom(10 * 1024 * 1024)
    (workdir / "blob").write_bytes(data)
    direct = subprocess.run(["cat", "blob"], capture_output=True).stdout
    done = tokenjuice("wrap", "--raw", "--", "cat", "blob")
    assert done.returncode == 0
    assert done.stdout == direct == data  # unbounded (over the 4 MiB capture limit), no newline added
    assert done.stderr == b""


def test_raw_keeps_stderr_on_fd_2_byte_exact(workdir):
    script = "import os\nos.write(1, b'out\\x00\\xff')\nos.write(2, b'err\\xfe no newline')\nos.write(1, b'\\nmore')\n"
    done = tokenjuice("wrap", "--raw", "--", sys.executable, "-c", script)
    direct = subprocess.run([sys.executable, "-c", script], capture_output=True)
    assert (done.stdout, done.stderr) == (direct.stdout, direct.stderr) == (b"out\x00\xff\nmore", b"err\xfe no newline")


def test_raw_output_is_visible_before_the_command_exits(workdir):
    """Read while the command waits for the test to let it go on (no clock)."""
    script = "printf first; printf warn >&2; while [ ! -e gate ]; do sleep 0.02; done; printf second"
    proc = subprocess.Popen([*WRAP, "--raw", "--", "sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert os.read(proc.stdout.fileno(), 5) == b"first"
        assert os.read(proc.stderr.fileno(), 4) == b"warn"
    finally:
        (workdir / "gate").touch()
        out, _ = proc.communicate(timeout=HANG)
    assert out == b"second" and proc.returncode == 0


@pytest.mark.parametrize(
    ("script", "code"),
    [
        ("exit 0", 0),
        ("exit 3", 3),
        ("exit 255", 255),
        ("kill -9 $$", 137),
        ("kill -TERM $$", 143),
        ("kill -SEGV $$", 139),
    ],
)
def test_raw_keeps_exit_codes_and_signal_deaths(workdir, script, code):
    done = tokenjuice("wrap", "--raw", "--", "sh", "-c", "echo before; " + script)
    assert done.returncode == code
    assert done.stdout == b"before\n" and done.stderr == b""  # no marker, no header


def test_raw_inherits_stdin_and_the_working_directory(workdir):
    done = tokenjuice("wrap", "--raw", "--", "sh", "-c", "read line; echo got:$line; pwd", input=b"hello\n")
    assert done.stdout == f"got:hello\n{os.getcwd()}\n".encode()


def test_raw_command_not_found_is_127_on_stderr(workdir):
    done = tokenjuice("wrap", "--raw", "--", "definitely-not-a-command-xyz")
    assert done.returncode == 127 and done.stdout == b""
    assert done.stderr == b"tokenjuice: definitely-not-a-command-xyz: command not found\n"


def test_raw_forwards_sigterm(workdir):
    proc = subprocess.Popen(
        [
            *WRAP,
            "--raw",
            "--",
            "sh",
            "-c",
            "trap 'echo got-term; exit 42' TERM; echo ready; while :; do sleep 0.05; done",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    assert proc.stdout.readline() == b"ready\n"
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=HANG)
    assert proc.returncode == 42 and out == b"got-term\n"


# -- exact counts of what the middle of a flood lost -------------------------------------

PRODUCER = textwrap.dedent("""
    import sys
    out = sys.stdout.buffer
    for i in range(100_000):
        out.write(b"line %06d\\n" % i)    # 12 bytes
    out.flush()
    sys.stderr.write("the end\\n")
""")


@pytest.mark.parametrize("merged", [True, False])
def test_dropped_bytes_and_lines_are_counted_exactly(workdir, merged):
    total_bytes, total_lines = 100_000 * 12 + 8, 100_001
    result = capture.run([sys.executable, "-c", PRODUCER], max_bytes=65536, merged=merged)
    assert result.exit_code == 0 and result.truncated and not result.background
    kept = b"".join(data for data in (c for _, c in result.chunks) if not data.startswith(b"\n[tokenjuice:"))
    assert result.kept_bytes == len(kept)
    assert result.kept_bytes + result.dropped_bytes == total_bytes
    assert kept.count(b"\n") + result.dropped_lines == total_lines
    # Head: the first 48 KiB (4,096 whole lines); tail: the last 16 KiB less the partial
    # line it starts with (8 bytes), i.e. 1,364 lines and "the end".
    assert (result.dropped_bytes, result.dropped_lines) == (1_134_480, 94_540)
    assert (total_bytes - 49152 - 16376, total_lines - 4096 - 1365) == (1_134_480, 94_540)
    marker = "[tokenjuice: 94,540 lines (1,134,480 bytes, 1.1 MiB) of output skipped here"
    assert marker.encode() in result.combined()
    assert result.combined().endswith(b"line 099999\nthe end\n") or not merged


def test_one_line_marker_is_singular():
    assert b"[tokenjuice: 1 line (10 bytes, 10 bytes) of output skipped" in capture.skipped_marker(10, 1, 1024)


def test_a_short_output_drops_nothing(workdir):
    result = capture.run(["sh", "-c", "seq 1 1000"], merged=True)
    assert (result.dropped_bytes, result.dropped_lines, result.kept_bytes) == (0, 0, len(result.combined()))
    assert result.combined() == b"".join(b"%d\n" % i for i in range(1, 1001))


def test_wrap_marker_states_the_exact_counts(workdir):
    data = b"".join(b"%d\n" % i for i in range(1, 300_001))
    head, tail = data[:49152], data[-16384:]
    tail = tail[tail.index(b"\n") + 1 :]
    dropped, lines = len(data) - len(head) - len(tail), data.count(b"\n") - head.count(b"\n") - tail.count(b"\n")
    payload, code = wrap_json("seq", "1", "300000", options=("--max-capture-bytes", "65536"))
    assert code == 0
    assert payload["stdout"] == (head + tail).decode()
    assert payload["stderr"] == (
        f"\n[tokenjuice: {lines:,} lines ({dropped:,} bytes, {dropped / 2**20:.1f} MiB) of "
        "output skipped here; capture keeps the first 48.0 KiB and the last 16.0 KiB "
        "(--max-capture-bytes)]\n"
    )


# -- background jobs ---------------------------------------------------------------------


def test_a_job_the_shell_waits_for_is_captured_whole(workdir):
    result = capture.run(["bash", "-c", "(sleep 0.6; echo late) & echo early; wait"], merged=True)
    assert result.combined() == b"early\nlate\n"
    assert not result.background and result.held == []


def test_a_chatty_background_job_cannot_hold_wrap(workdir):
    """The job ticks until the test ends it, after wrap returned: a wrap that waited for it would never return."""
    try:
        done = tokenjuice(
            "wrap",
            "--",
            "bash",
            "-c",
            "(while [ ! -e gate ]; do sleep 0.05; echo tick; done) & echo started",
            timeout=HANG,
        )
    finally:
        (workdir / "gate").touch()
    assert b"started\n" in done.stdout  # the job's ticks may come first on a busy machine


DRIVER = textwrap.dedent("""
    import sys
    from tokenjuice import capture
    result = capture.run(["bash", "-c", sys.argv[1]], merged=True)
    print(result.background, result.combined().decode().strip(), result.held != [], flush=True)
    path = sys.argv[2] or None
    pid = capture.drain_detached(result, path, **eval(sys.argv[3]))
    print(pid, result.held, flush=True)
""")


def _drive(script: str, path: str | None, options: str = "{}") -> list[str]:
    """Run the driver with its stdout on a pipe; its output lines, once at EOF."""
    proc = subprocess.Popen(
        [sys.executable, "-c", DRIVER, script, path or "", options],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    out, err = proc.communicate(timeout=HANG)  # EOF: nothing left holds the driver's stdout
    assert proc.returncode == 0, err
    return out.decode().splitlines()


def test_late_background_output_reaches_the_drainers_file(tmp_path):
    path = tmp_path / "late.log"
    gate = tmp_path / "gate"
    script = (
        f"(while [ ! -e {gate} ]; do sleep 0.02; done; echo late; printf 'binary\\000\\377'; echo later) & echo early"
    )
    try:
        lines = _drive(script, str(path))  # the driver (wrap) returned while the job still waited for the gate
    finally:
        gate.touch()
    assert lines[0] == "True early True"
    pid, held = lines[1].split(" ", 1)
    assert int(pid) > 0 and held == "[]"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert _wait_for(lambda: path.read_bytes() == b"late\nbinary\x00\xfflater\n")
    assert _wait_for(lambda: not _alive(int(pid)))  # EOF: the drainer exits


def test_the_drainer_discards_without_a_path_and_exits_at_eof(tmp_path):
    gate = tmp_path / "gate"
    try:
        lines = _drive(f"(while [ ! -e {gate} ]; do sleep 0.02; done; echo late) & echo early", None)
        assert lines[0] == "True early True"
        pid = int(lines[1].split()[0])
        assert _alive(pid)  # the job still holds the pipe
    finally:
        gate.touch()
    assert _wait_for(lambda: not _alive(pid))


def test_the_drainer_writes_at_most_its_limit_and_says_what_it_discarded(tmp_path):
    path = tmp_path / "late.log"
    lines = _drive("(sleep 0.6; head -c 1000 /dev/zero | tr '\\0' x) & echo early", str(path), "{'max_bytes': 100}")
    assert lines[0] == "True early True"
    assert _wait_for(lambda: b"discarded" in path.read_bytes())
    data = path.read_bytes()
    assert data.startswith(b"x" * 100 + b"\n[tokenjuice: 900 more bytes of background output discarded")


def test_the_drainer_gives_up_at_its_deadline(tmp_path):
    path, gate = tmp_path / "late.log", tmp_path / "gate"
    # "late" comes once the caller has returned (the gate), whenever that is: only the
    # deadline, far from both ends, is a time the drainer is told
    script = f"(while [ ! -e {gate} ]; do sleep 0.02; done; echo late; sleep 300) & echo early"
    lines = _drive(script, str(path), "{'max_seconds': 5}")
    gate.touch()
    pid = int(lines[1].split()[0])
    # gone long before the job's own end (300 s, past the hang guard): only the deadline ends it
    assert _wait_for(lambda: not _alive(pid))
    assert path.read_bytes() == b"late\n\n[tokenjuice: stopped reading: the background job was still running]\n"


def test_the_drainer_keeps_none_of_the_callers_descriptors(tmp_path):
    if not LINUX:
        pytest.skip("reads /proc")
    gate = tmp_path / "gate"
    try:
        lines = _drive(
            f"(while [ ! -e {gate} ]; do sleep 0.02; done; echo late) & echo early", str(tmp_path / "late.log")
        )
        pid = int(lines[1].split()[0])
        fds = {name: os.readlink(f"/proc/{pid}/fd/{name}") for name in os.listdir(f"/proc/{pid}/fd")}
    finally:
        gate.touch()
    assert {fds["0"], fds["1"], fds["2"]} == {os.devnull}
    assert sorted(fds) == ["0", "1", "2", *sorted(n for n in fds if n not in "012")]
    assert len(fds) == 5  # stdio on /dev/null, the pipe, the file
    assert os.getsid(pid) == pid or os.getsid(pid) != os.getsid(0)  # its own session


def test_drain_refuses_an_existing_file_or_symlink_and_still_closes_the_pipes(tmp_path):
    target = tmp_path / "target"
    target.write_text("keep me")
    link = tmp_path / "link"
    link.symlink_to(target)
    for path in (target, link):
        result = capture.run(["bash", "-c", "(sleep 0.6; echo late) & echo early"], merged=True)
        assert result.background and result.held
        held = list(result.held)
        with pytest.raises(OSError):
            capture.drain_detached(result, str(path))
        assert result.held == []
        for fd in held:
            with pytest.raises(OSError):
                os.fstat(fd)
    assert target.read_text() == "keep me"


def test_nothing_to_drain_without_background_jobs(workdir):
    result = capture.run(["sh", "-c", "echo hi"], merged=True)
    assert not result.background and capture.drain_detached(result, None) is None


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # pragma: no cover - no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


# -- signals the parent ignored stay ignored --------------------------------------------


def _sig_ignored(status: bytes) -> int:
    line = next(line for line in status.decode().splitlines() if line.startswith("SigIgn:"))
    return int(line.split()[1], 16)


@pytest.mark.parametrize("mode", [(), ("--raw",)])
@pytest.mark.parametrize("name", ["INT", "HUP", "TERM", "QUIT"])
def test_a_signal_ignored_by_the_parent_stays_ignored(workdir, mode, name):
    wrap = " ".join([sys.executable, "-m", "tokenjuice", "wrap", *mode])
    done = subprocess.run(
        ["bash", "-c", f"trap '' {name}; {wrap} -- sh -c 'kill -{name} $$; echo survived'"],
        capture_output=True,
        timeout=HANG,
    )
    assert done.returncode == 0 and b"survived" in done.stdout


def test_nohup_keeps_sighup_ignored(workdir):
    if not shutil.which("nohup"):
        pytest.skip("no nohup")
    done = subprocess.run(
        ["nohup", *WRAP, "--raw", "--", "sh", "-c", "kill -HUP $$; echo survived"], capture_output=True, timeout=HANG
    )
    assert done.returncode == 0 and done.stdout == b"survived\n"


def _run_with_default_dispositions(*args: str) -> subprocess.CompletedProcess:
    """`tokenjuice ARGS` started with the signals a caller may ignore at their default:
    the test's own runner may have been started under `nohup` (SIGHUP ignored) or as a
    background job of a shell without job control (SIGINT, SIGQUIT ignored), which the
    wrapped child rightly inherits."""

    def default_dispositions() -> None:
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            signal.signal(signum, signal.SIG_DFL)

    return subprocess.run([*WRAP[:-1], *args], capture_output=True, timeout=HANG, preexec_fn=default_dispositions)


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_the_child_gets_default_dispositions_otherwise(workdir):
    done = _run_with_default_dispositions("wrap", "--raw", "--", "sh", "-c", "cat /proc/$$/status")
    ignored = _sig_ignored(done.stdout)
    for signum in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        assert not ignored & (1 << (signum - 1)), signal.Signals(signum).name
    trapped = subprocess.run(
        ["bash", "-c", f"trap '' INT; {' '.join(WRAP)} --raw -- sh -c 'cat /proc/$$/status'"], capture_output=True
    ).stdout
    assert _sig_ignored(trapped) & (1 << (signal.SIGINT - 1))
    assert not _sig_ignored(trapped) & (1 << (signal.SIGPIPE - 1))


def test_sigint_still_kills_a_child_whose_parent_did_not_ignore_it(workdir):
    done = _run_with_default_dispositions("wrap", "--raw", "--", "sh", "-c", "kill -INT $$; echo survived")
    assert done.returncode == 130 and done.stdout == b""


def test_sigpipe_is_the_default_in_the_child(workdir):
    done = subprocess.run(
        f"{' '.join(WRAP)} --raw -- yes | head -1; echo ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        timeout=HANG,
    )
    assert done.stdout == b"y\n141\n"


# -- the parent-death signal (Linux) -----------------------------------------------------

ORPHAN_DRIVER = textwrap.dedent("""
    import sys
    from tokenjuice import capture
    command = ["sh", "-c", "echo $$ > " + sys.argv[2] + "; exec sleep 30"]
    if sys.argv[3] == "raw":
        capture.stream(command)
    else:
        capture.run(command, merged=True)
""")


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux-only; macOS orphans run on (see capture.py)")
@pytest.mark.parametrize("mode", ["capture", "raw"])
def test_the_child_dies_when_wrap_is_sigkilled(tmp_path, mode):
    pidfile = tmp_path / "pid"
    proc = subprocess.Popen(
        [sys.executable, "-c", ORPHAN_DRIVER, "fork", str(pidfile), mode],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _assert_the_child_dies_with(proc, pidfile)


@pytest.mark.skipif(not LINUX, reason="PR_SET_PDEATHSIG is Linux-only")
def test_wrap_itself_sigkilled_takes_the_child_along(workdir):
    pidfile = workdir / "pid"
    proc = subprocess.Popen(
        [*WRAP, "--", "sh", "-c", "echo $$ > pid; exec sleep 30"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _assert_the_child_dies_with(proc, pidfile)


def _assert_the_child_dies_with(proc, pidfile) -> None:
    """Once the child wrote its pid to pidfile and is sleeping, SIGKILL proc (a wrap
    process): the child must be gone long before its `sleep 30` would end."""
    try:
        assert _wait_for(lambda: pidfile.exists() and pidfile.read_text().strip(), timeout=HANG), proc.stderr
        child = int(pidfile.read_text())
        assert _wait_for(lambda: _comm(child) == "sleep")
        proc.kill()
        proc.wait()
        assert _wait_for(lambda: not _alive(child), timeout=20)  # long before its sleep 30 ends
    finally:
        proc.kill()
        proc.wait()


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return ""


# -- the ways of starting a child agree -------------------------------------------------


@pytest.fixture(params=["fork", "posix_spawn"])
def spawn_path(request, monkeypatch):
    if request.param != "posix_spawn" and not LINUX:
        pytest.skip("Linux only")
    if request.param == "posix_spawn":
        monkeypatch.setattr(capture, "_LINUX", False)
    return request.param


def test_every_spawn_path_runs_reports_and_fails_alike(workdir, spawn_path):
    result = capture.run(["sh", "-c", "echo out; echo err >&2; read x; echo got:$x; exit 3"])
    assert result.exit_code == 3
    assert result.stream(capture.STDOUT) == b"out\ngot:\n" and result.stream(capture.STDERR) == b"err\n"
    missing = capture.run(["definitely-not-a-command-xyz"])
    assert (missing.exit_code, missing.spawn_error) == (
        127,
        "tokenjuice: definitely-not-a-command-xyz: command not found",
    )
    (workdir / "garbage").write_bytes(b"\x00\x01garbage")
    (workdir / "garbage").chmod(0o755)
    bad = capture.run(["./garbage"])
    assert bad.exit_code == 126 and bad.spawn_error == "tokenjuice: ./garbage: Exec format error"
    denied = capture.run(["/etc/passwd"])
    assert denied.exit_code == 126 and denied.spawn_error == "tokenjuice: /etc/passwd: Permission denied"
    killed = capture.run(["sh", "-c", "kill -KILL $$"])
    assert (killed.exit_code, killed.signal) == (137, signal.SIGKILL)


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_the_child_inherits_no_descriptor_of_ours_but_stdio(workdir, spawn_path):
    result = capture.run(["sh", "-c", "ls /proc/$$/fd"], merged=True)
    theirs = {int(fd) for fd in result.combined().split()}
    ours = {int(fd) for fd in os.listdir("/proc/self/fd") if os.path.exists(f"/proc/self/fd/{fd}")}
    inheritable = {fd for fd in ours if fd > 2 and os.get_inheritable(fd)}
    assert theirs - {0, 1, 2} - inheritable <= {max(theirs)}  # the directory ls itself reads


def test_the_package_holds_no_machine_code_and_writes_no_program(tmp_path):
    """Nothing in the package is a binary or assembled code, and a wrap writes nothing
    into the cache folder that it then executes (issue 24: no trampoline)."""
    package = Path(capture.__file__).parent
    for path in package.rglob("*"):
        if path.is_file() and path.suffix not in (".pyc",):
            head = path.read_bytes()[:4]
            assert head != b"\x7fELF", path
    source = Path(capture.__file__).read_text()
    assert "fromhex" not in source and "_STUB" not in source
    cache = tmp_path / "cache"
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "wrap", "--", "sh", "-c", "echo hi"],
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=HANG,
    )
    assert done.returncode == 0 and b"hi" in done.stdout
    executables = [p for p in cache.rglob("*") if p.is_file() and os.access(p, os.X_OK)]
    assert executables == []


@pytest.mark.parametrize("mode", [[], ["--raw"]])
def test_a_closed_stdout_is_no_internal_error_and_keeps_the_code(workdir, mode):
    """`tokenjuice wrap … >&-`: nothing can be shown, the exit code is the command's
    and stderr carries no "internal error" (Python's sys.stdout is None then)."""
    script = f'"$0" -m tokenjuice wrap {" ".join(mode)} -- sh -c "echo hi; echo oops >&2; exit 3" >&-'
    done = subprocess.run(["/bin/sh", "-c", script, sys.executable], capture_output=True, cwd=workdir, timeout=HANG)
    assert done.returncode == 3
    assert b"internal error" not in done.stderr and b"Traceback" not in done.stderr
