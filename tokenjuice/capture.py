"""Run a command and capture its output, bounded, in arrival order; or stream it raw.

Why not `subprocess`: importing it costs ~10 ms, paid on every wrapped command.
`posix_spawn` plus `poll` do the same job with modules Python has loaded anyway.

`run` captures. With `merged`, the child's stdout and stderr share one pipe,
exactly like `2>&1` (and like a terminal), so the kernel keeps their order. With
two pipes (when the streams must stay apart: JSON reports them separately) the
order across streams is only as good as the reads: lines are merged at line
boundaries, but writes that land between two reads may reorder.

Memory is bounded: the first 3/4 of `max_bytes` is kept from the start of the
output and the last 1/4 from its end (where errors and summaries usually are);
what falls between is drained and counted exactly (bytes and newlines), and a
marker line says how much was skipped.

`stream` (`wrap --raw`) captures nothing: the child inherits wrap's stdin, stdout
and stderr, so its output reaches the reader byte for byte, as it is written,
with no size limit and no copy through Python.

Both keep the child's exit status (128+N when a signal killed it), forward
SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to tokenjuice, and leave the child in wrap's
process group, so a terminal's Ctrl-C and job control reach both as before.
Signals wrap's parent ignored (`trap '' INT`, `nohup`) stay ignored in the child
and are not forwarded; SIGPIPE and SIGXFSZ, which Python ignores for itself at
start-up, are reset to their defaults as a shell would give them (the state
before Python started cannot be seen, so a parent that ignored SIGPIPE is not
honoured).

On Linux the child gets PR_SET_PDEATHSIG(SIGTERM) before it execs (it is forked
and calls prctl, see "starting the child" below), so if wrap itself is SIGKILLed
(a host killing the hook's process tree) the command is sent SIGTERM instead of
running on forever as an orphan. Only the direct child gets it: a shell running
the command dies of it, but the programs that shell started are not signalled
(the kernel also clears it when the child execs a set-user-ID program, `sudo`). macOS has no parent-death signal:
there `posix_spawn` is used and an orphaned command keeps running; one that
writes into the capture pipe dies of SIGPIPE at its next write (nobody reads it
any more), a silent one, or one streaming to wrap's own stdout (`--raw`), runs
to its end.
"""

from __future__ import annotations

import os
import select
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import signal
    from collections.abc import Callable, Mapping
    from typing import Any
else:
    try:
        # The C module under `signal`: the same functions and numbers, without the
        # `enum` wrappers whose import (~2 ms) `wrap` would pay on every command.
        # Handlers and signal numbers are plain ints here, which is all capture
        # compares or passes on.
        import _signal as signal
    except ImportError:  # pragma: no cover - not CPython
        import signal

DEFAULT_MAX_CAPTURE_BYTES = 4 * 1024 * 1024
STDOUT, STDERR = 1, 2
_READ_SIZE = 1 << 20
#: Linux lets a pipe hold 1 MiB (fcntl F_SETPIPE_SZ): a flood then takes 16x fewer reads.
_F_SETPIPE_SZ = 1031
#: A stream's unfinished line is held back (so the other stream cannot land in the
#: middle of it) up to this size; a longer line without a newline goes through.
_PARTIAL_LINE_LIMIT = 1 << 16
#: The kept tail starts after the first newline within this many bytes, if there is one.
_TAIL_ALIGN = 4096
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
#: Signals Python sets to SIG_IGN for itself at start-up; the child gets them back at SIG_DFL.
_PYTHON_IGNORED = tuple(s for s in (signal.SIGPIPE, getattr(signal, "SIGXFSZ", None)) if s)
#: Once the command has exited, background jobs it started may still hold the pipes
#: open: stop waiting after this much silence from them…
_ORPHAN_GRACE_SECONDS = 0.25
#: …or after this long in all, however chatty they are (the agent must not hang).
_ORPHAN_MAX_SECONDS = 1.0
#: A detached drainer (see `drain_detached`) gives up after this long.
DRAIN_MAX_SECONDS = 600.0
_PR_SET_PDEATHSIG = 1
_SIGTERM = int(signal.SIGTERM)


class Capture:
    """The captured output of one run.

    `chunks` holds what was kept, with the skip marker (on STDERR) where the middle
    was cut; `kept_bytes` counts the command's bytes among them (not the marker),
    `dropped_bytes`/`dropped_lines` what was drained and not kept (lines are the
    newlines among the dropped bytes). `background` says the pipes were still held
    open (by jobs the command left running) when capture stopped waiting: hand them
    to `drain_detached`, or `release` them.
    """

    __slots__ = (
        "background",
        "chunks",
        "dropped_bytes",
        "dropped_lines",
        "duration_ms",
        "exit_code",
        "held",
        "kept_bytes",
        "limit_bytes",
        "signal",
        "spawn_error",
    )

    def __init__(self) -> None:
        self.chunks: list[tuple[int, bytes]] = []  # (stream, data) in arrival order
        self.kept_bytes = 0
        self.dropped_bytes = 0
        self.dropped_lines = 0
        self.limit_bytes = DEFAULT_MAX_CAPTURE_BYTES
        self.exit_code = 0
        self.signal: int | None = None
        self.duration_ms = 0.0
        self.spawn_error: str | None = None
        self.background = False
        self.held: list[int] = []  # read ends still open when `background`

    @property
    def skipped(self) -> int:
        """Bytes drained but not kept (the older name of `dropped_bytes`)."""
        return self.dropped_bytes

    @property
    def truncated(self) -> bool:
        return self.dropped_bytes > 0

    def combined(self) -> bytes:
        return b"".join(data for _, data in self.chunks)

    def stream(self, which: int) -> bytes:
        return b"".join(data for stream, data in self.chunks if stream == which)

    def drop_through(self, marker: bytes) -> int:
        """Cut each stream up to and including its last line holding `marker` (what
        a login profile printed before it; the marker is printed once per stream,
        twice into one merged pipe); the bytes cut. Only a stream's first MiB is
        searched: a marker further on is left where it is."""
        cut = 0
        for which in (STDOUT, STDERR):
            positions = [index for index, (stream, _) in enumerate(self.chunks) if stream == which]
            seen = b""
            used: list[int] = []
            for index in positions:
                if len(seen) > 1 << 20:
                    break
                seen += self.chunks[index][1]
                used.append(index)
            found = seen.rfind(marker)
            end = seen.find(b"\n", found) + 1 if found >= 0 else 0
            if not end:
                continue
            for index in used:
                self.chunks[index] = (which, b"")
            self.chunks[used[-1]] = (which, seen[end:])
            cut += end
        if cut:
            self.chunks = [(stream, data) for stream, data in self.chunks if data]
            self.kept_bytes = max(0, self.kept_bytes - cut)
        return cut

    def release(self) -> None:
        """Close the pipes background jobs still hold, without draining them (their
        next write then fails with EPIPE or SIGPIPE, as when wrap exits)."""
        for fd in self.held:
            _close(fd)
        self.held = []


def skipped_marker(dropped_bytes: int, dropped_lines: int, limit: int) -> bytes:
    lines = f"{dropped_lines:,} line{'' if dropped_lines == 1 else 's'}"
    return (
        f"\n[tokenjuice: {lines} ({dropped_bytes:,} bytes, {_size(dropped_bytes)}) of output skipped here; "
        f"capture keeps the first {_size(limit - limit // 4)} and the last {_size(limit // 4)} "
        f"(--max-capture-bytes)]\n"
    ).encode()


def _size(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


class _Buffer:
    """Head-and-tail bounded store of tagged chunks, merged at line boundaries:
    each stream's unfinished line waits for its newline, so one stream's output
    never lands in the middle of the other's line. What falls out of the middle is
    counted as it goes (bytes, and the newlines among them)."""

    def __init__(self, limit: int, merged: bool = False) -> None:
        self.merged = merged  # one pipe already carries both streams in order
        self.partial: dict[int, bytes] = {STDOUT: b"", STDERR: b""}
        self.limit = limit
        self.head_limit = limit - limit // 4
        self.tail_limit = limit // 4
        self.head: list[tuple[int, bytes]] = []
        self.head_size = 0
        self.tail: list[tuple[int, bytes]] = []
        self.tail_size = 0
        self.dropped = 0
        self.dropped_lines = 0

    def feed(self, stream: int, chunk: bytes) -> None:
        if self.merged:
            self._add(stream, chunk)
            return
        data = self.partial[stream] + chunk
        cut = data.rfind(b"\n") + 1
        if cut == 0 and len(data) < _PARTIAL_LINE_LIMIT:
            self.partial[stream] = data
            return
        cut = cut or len(data)
        self.partial[stream] = data[cut:]
        self._add(stream, data[:cut])

    def close(self, stream: int) -> None:
        if self.partial[stream]:
            self._add(stream, self.partial[stream])
            self.partial[stream] = b""

    def _add(self, stream: int, data: bytes) -> None:
        room = self.head_limit - self.head_size
        if room > 0:
            piece = data[:room]
            self.head.append((stream, piece))
            self.head_size += len(piece)
            data = data[room:]
            if not data:
                return
        self.tail.append((stream, data))
        self.tail_size += len(data)
        while self.tail_size > self.tail_limit:
            excess = self.tail_size - self.tail_limit
            first_stream, first = self.tail[0]
            if len(first) <= excess:
                self.tail.pop(0)
                self.tail_size -= len(first)
                self._drop(first, len(first))
            else:
                self.tail[0] = (first_stream, first[excess:])
                self.tail_size -= excess
                self._drop(first, excess)

    def _drop(self, data: bytes, count: int) -> None:
        """Count the first `count` bytes of `data` as dropped."""
        self.dropped += count
        self.dropped_lines += data.count(b"\n", 0, count)

    def finish(self) -> list[tuple[int, bytes]]:
        for stream in self.partial:
            self.close(stream)
        if not self.dropped:
            return self.head + self.tail
        # Start the kept tail on a line boundary when one is near, so no half line shows.
        scanned = 0
        for index, (stream, chunk) in enumerate(self.tail):
            cut = chunk.find(b"\n", 0, _TAIL_ALIGN - scanned)
            if cut >= 0:
                for _, before in self.tail[:index]:
                    self._drop(before, len(before))
                    self.tail_size -= len(before)
                self._drop(chunk, cut + 1)
                self.tail_size -= cut + 1
                self.tail = [(stream, chunk[cut + 1 :])] + self.tail[index + 1 :]
                break
            scanned += len(chunk)
            if scanned >= _TAIL_ALIGN:
                break
        marker = (STDERR, skipped_marker(self.dropped, self.dropped_lines, self.limit))
        return self.head + [marker] + self.tail


def run(
    argv: list[str],
    *,
    max_bytes: int = DEFAULT_MAX_CAPTURE_BYTES,
    tee: bool = False,
    env: Mapping[str, str] | None = None,
    merged: bool = False,
) -> Capture:
    """Run `argv` (no shell), capturing stdout and stderr; never raises for the child.

    If `background` is set on the result, its pipes are still open: the caller
    passes them to `drain_detached` (or calls `release`) before it exits.
    """
    capture = Capture()
    capture.limit_bytes = max_bytes
    started = time.monotonic()
    # One pipe per stream, or one for both: {stream: (read end, write end)}.
    pipes = {stream: _pipe() for stream in ((STDOUT,) if merged else (STDOUT, STDERR))}
    err_write = pipes[STDOUT if merged else STDERR][1]
    forwarder = _Forwarder().install()
    try:
        pid = _spawn(argv, env, {1: pipes[STDOUT][1], 2: err_write})
    except OSError as error:
        forwarder.restore()
        for ends in pipes.values():
            for fd in ends:
                os.close(fd)
        capture.exit_code, capture.spawn_error = _spawn_failure(argv[0], error)
        capture.chunks = [(STDERR, (capture.spawn_error + "\n").encode())]
        return capture
    forwarder.attach(pid)
    for _, write_end in pipes.values():
        os.close(write_end)

    still_open: set[int] = set()
    try:
        buffer = _Buffer(max_bytes, merged)
        status, still_open = _pump(pid, {read_end: stream for stream, (read_end, _) in pipes.items()}, buffer, tee)
    finally:
        forwarder.restore()
        for read_end, _ in pipes.values():
            if read_end not in still_open:
                _close(read_end)
    capture.chunks = buffer.finish()
    capture.kept_bytes = buffer.head_size + buffer.tail_size
    capture.dropped_bytes, capture.dropped_lines = buffer.dropped, buffer.dropped_lines
    capture.background = bool(still_open)
    capture.held = sorted(still_open)
    capture.exit_code, capture.signal = _exit_code(status)
    capture.duration_ms = (time.monotonic() - started) * 1000
    return capture


def stream(argv: list[str], *, env: Mapping[str, str] | None = None) -> int:
    """Run `argv` with wrap's own stdin, stdout and stderr; return its exit code.

    This is `wrap --raw`: nothing to capture, so nothing is piped. The output
    reaches wrap's reader exactly as the command writes it, unbounded and
    unbuffered, stdout on fd 1 and stderr on fd 2. wrap only waits, forwards
    signals and reports the exit code (128+N for a signal death). A command that
    cannot start gets the shell's message on stderr and 127 (not found) or 126.
    """
    forwarder = _Forwarder().install()
    try:
        pid = _spawn(argv, env, {})
    except OSError as error:
        forwarder.restore()
        code, message = _spawn_failure(argv[0], error)
        write_out((message + "\n").encode(), 2)
        return code
    forwarder.attach(pid)
    try:
        status = _reap(pid, block=True)
    finally:
        forwarder.restore()
    return _exit_code(status)[0]


def _exit_code(status: int | None) -> tuple[int, int | None]:
    """(exit code, killing signal or None) of a wait status."""
    if status is None:
        return 0, None
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        return 128 + signum, signum
    return os.waitstatus_to_exitcode(status), None


def _spawn_failure(name: str, error: OSError) -> tuple[int, str]:
    code = 127 if isinstance(error, FileNotFoundError) else 126
    reason = "command not found" if code == 127 else (error.strerror or str(error))
    from .text import one_line

    return code, f"tokenjuice: {one_line(name)}: {reason}"


def _pump(pid: int, fds: dict[int, int], buffer: _Buffer, tee: bool) -> tuple[int, set[int]]:
    """Read until the pipes close, or the child is gone and they fall silent.

    Returns the child's wait status and the pipes still open: those are held by
    background jobs the command started, which may still write.
    """
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    pidfd = _open_pidfd(pid)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    open_fds = set(fds)
    status: int | None = None
    exited_at = silent_since = 0.0
    try:
        while open_fds:
            timeout = 50 if status is not None else (None if pidfd is not None else 100)
            try:
                events = poller.poll(timeout)
            except InterruptedError:  # pragma: no cover - Python retries poll itself
                continue
            got_data = False
            for fd, _ in events:
                if fd == pidfd:
                    poller.unregister(pidfd)
                    status = _reap(pid, block=True)
                    continue
                chunk = os.read(fd, _READ_SIZE)
                stream = fds[fd]
                if not chunk:
                    poller.unregister(fd)
                    open_fds.discard(fd)
                    buffer.close(stream)
                    continue
                got_data = True
                if tee:
                    try:
                        write_all(2, chunk)
                    except OSError:
                        tee = False  # nobody is reading stderr any more; keep capturing
                buffer.feed(stream, chunk)
            if status is None and pidfd is None:
                status = _reap(pid, block=False)
            if status is not None and open_fds:
                now = time.monotonic()
                if not exited_at:
                    exited_at = silent_since = now
                if got_data:
                    silent_since = now
                if now - silent_since >= _ORPHAN_GRACE_SECONDS or now - exited_at >= _ORPHAN_MAX_SECONDS:
                    break  # background jobs hold the pipes; the command itself is done
    finally:
        if pidfd is not None:
            os.close(pidfd)
    if status is None:
        status = _reap(pid, block=True)
    return (status or 0), open_fds


def drain_detached(
    capture: Capture,
    path: str | None = None,
    *,
    max_bytes: int | None = None,
    max_seconds: float = DRAIN_MAX_SECONDS,
    transform: Callable[[bytes], bytes] | None = None,
) -> int | None:
    """Hand the pipes background jobs still hold (`capture.held`) to a detached
    process that reads them until EOF, and close them here so the caller can exit.

    Without this, whatever a job like `server &` writes after wrap stops waiting
    is lost, and its next write fails (EPIPE, or death by SIGPIPE). The drainer
    is double-forked into its own session, keeps none of the caller's descriptors
    (its stdin, stdout and stderr are /dev/null, so it never holds the agent's
    pipes open), and appends what it reads to `path`: created here, mode 0600,
    with O_EXCL|O_NOFOLLOW (an existing file or symlink raises FileExistsError or
    OSError before anything is forked); without a path it only discards. It
    writes at most `max_bytes` (default: the capture limit) and keeps reading and
    discarding past that, so the job is not killed by SIGPIPE, until EOF or
    `max_seconds`, then exits; a last line in the file says what it discarded or
    that it gave up. With `transform` (redaction), what it writes goes through it
    first, whole lines at a time (a line longer than 64 KiB in pieces). Returns
    the drainer's pid, or None when there was nothing to drain or it could not be
    started (the pipes are closed either way).
    """
    fds, capture.held = capture.held, []
    if not fds:
        return None
    out: int | None = None
    try:
        if path is not None:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
            out = os.open(path, flags, 0o600)
        limit = capture.limit_bytes if max_bytes is None else max_bytes
        report_r, report_w = os.pipe()
        try:
            middle = os.fork()
        except OSError:
            os.close(report_r)
            os.close(report_w)
            return None
        if middle == 0:  # pragma: no cover - runs in the forked children
            try:
                os.close(report_r)
                os.setsid()  # no controlling terminal, no terminal signals, not wrap's job
                drainer = os.fork()
                if drainer == 0:
                    os.close(report_w)
                    _drainer(fds, out, limit, time.monotonic() + max_seconds, transform)
                os.write(report_w, str(drainer).encode())
            finally:
                os._exit(0)
        os.close(report_w)
        try:
            report = _read_to_end(report_r)
        finally:
            os.close(report_r)
            _reap(middle, block=True)
        return int(report) if report else None
    finally:
        for fd in fds:
            _close(fd)
        if out is not None:
            _close(out)


def _drainer(  # pragma: no cover - forked
    fds: list[int], out: int | None, limit: int, deadline: float, transform: Callable[[bytes], bytes] | None
) -> None:
    """The detached drainer's whole life (never returns)."""
    try:
        import gc

        gc.disable()  # touching every object would copy the parent's memory for nothing
        for signum in (*_FORWARDED, signal.SIGPIPE):
            signal.signal(signum, signal.SIG_DFL)
        os.chdir("/")
        fds, out = _above_stdio(fds, out)
        null = os.open(os.devnull, os.O_RDWR)
        for target in (0, 1, 2):
            os.dup2(null, target)
        _close_all_except({0, 1, 2, *fds, *(() if out is None else (out,))})
        poller = select.poll()
        for fd in fds:
            poller.register(fd, select.POLLIN)
        open_fds = set(fds)
        written = discarded = 0
        pending = b""  # kept bytes not yet written: the unfinished line, when transformed

        def flush(final: bool) -> None:
            nonlocal pending, out
            cut = len(pending) if final or transform is None else pending.rfind(b"\n") + 1
            if not cut and len(pending) > _PARTIAL_LINE_LIMIT:
                cut = len(pending)
            if out is None or not cut:
                return
            piece, pending = pending[:cut], pending[cut:]
            try:
                write_all(out, transform(piece) if transform is not None else piece)
            except OSError:
                out = None  # disk full or the like: keep draining, discard

        while open_fds:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            for fd, _ in poller.poll(remaining * 1000):
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    chunk = b""
                if not chunk:
                    poller.unregister(fd)
                    open_fds.discard(fd)
                    continue
                if out is not None and written < limit:
                    piece = chunk[: limit - written]
                    pending += piece
                    written += len(piece)
                    chunk = chunk[len(piece) :]
                    flush(False)
                discarded += len(chunk)
        flush(True)
        if out is not None and (discarded or open_fds):
            notes = []
            if discarded:
                notes.append(f"{discarded:,} more bytes of background output discarded (limit {limit:,} bytes)")
            if open_fds:
                notes.append("stopped reading: the background job was still running")
            write_all(out, f"\n[tokenjuice: {'; '.join(notes)}]\n".encode())
    finally:
        os._exit(0)


def _above_stdio(fds: list[int], out: int | None) -> tuple[list[int], int | None]:
    """Move descriptors that sit on 0-2 (wrap started with those closed) out of the way."""
    import fcntl

    def lift(fd: int) -> int:
        return fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3) if fd <= 2 else fd

    return [lift(fd) for fd in fds], (None if out is None else lift(out))


def _close_all_except(keep: set[int]) -> None:
    """Close every descriptor but `keep`, so the drainer holds none of the caller's pipes."""
    upper = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1 << 16
    upper = min(upper if upper > 0 else 1 << 16, 1 << 20)
    low = 0
    for fd in sorted(keep):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, upper)


def _read_to_end(fd: int) -> bytes:
    data = b""
    while chunk := os.read(fd, 64):
        data += chunk
    return data


def _close(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _pipe() -> tuple[int, int]:
    """A pipe, widened to `_READ_SIZE` on Linux."""
    read_end, write_end = os.pipe()
    if sys.platform.startswith("linux"):
        import fcntl

        try:
            fcntl.fcntl(read_end, _F_SETPIPE_SZ, _READ_SIZE)
        except OSError:  # above /proc/sys/fs/pipe-max-size, or not allowed: keep the default
            pass
    return read_end, write_end


# -- starting the child -------------------------------------------------------------
#
# Linux: the child gets PR_SET_PDEATHSIG(SIGTERM) before it execs the command.
# posix_spawn cannot run code in the child, so the child is forked and calls
# prctl through `_ctypes` (libc's own function, looked up once), checks that wrap
# is still its parent (wrap may have died before prctl) and execs the command; if
# that exec fails, it writes the errno to a report pipe. Measured against a plain
# posix_spawn, `wrap -- true` costs ~1.2 ms more (~0.15x `python -c pass`, see
# docs/performance.md): the price of the guarantee, paid in Python the standard
# library ships, with no program of our own written to disk and run. Without
# `_ctypes`, or off Linux, plain posix_spawn(p): an orphan then runs on.

_LINUX = sys.platform.startswith("linux")


def _spawn(argv: list[str], env: Mapping[str, str] | None, redirect: dict[int, int]) -> int:
    """Start `argv` with descriptors `redirect` ({target: source}) and wrap's others
    (stdin always), the signal dispositions described in the module docstring, and
    on Linux a parent-death signal. Raises OSError as `posix_spawnp` does."""
    environment = os.environ if env is None else env
    if not _LINUX:
        actions = [(os.POSIX_SPAWN_DUP2, source, target) for target, source in redirect.items()]
        return os.posix_spawnp(argv[0], argv, environment, file_actions=actions, setsigdef=_signals_to_reset())
    executable = _resolve(argv[0])
    prctl = _prctl()
    if prctl is None:  # pragma: no cover - a Python without _ctypes
        actions = [(os.POSIX_SPAWN_DUP2, source, target) for target, source in redirect.items()]
        return os.posix_spawn(executable, argv, environment, file_actions=actions, setsigdef=_signals_to_reset())
    # execve would convert os.environ in the child, running Python (and copying pages) there.
    return _fork_exec(executable, argv, dict(os.environb if env is None else env), redirect, prctl)


def _started(pid: int, report_r: int) -> int:
    """`pid` once its exec succeeded (the report pipe closed empty), else the
    OSError for the errno written into the pipe."""
    try:
        report = _read_to_end(report_r)
    finally:
        os.close(report_r)
    if report:
        _reap(pid, block=True)
        errno = int.from_bytes(report[:4], "little")
        raise OSError(errno, os.strerror(errno))  # FileNotFoundError for ENOENT, and so on
    return pid


def _signals_to_reset() -> list[int]:
    """Python's own ignored signals, and the forwarded ones unless wrap's parent
    ignored them (then they stay ignored: exec keeps SIG_IGN, resets handlers)."""
    return [*_PYTHON_IGNORED, *(s for s in _FORWARDED if signal.getsignal(s) != signal.SIG_IGN)]


def _fork_exec(
    executable: str,
    argv: list[str],
    env: Mapping[bytes, bytes] | Mapping[str, str],
    redirect: dict[int, int],
    prctl: Callable[[int, int], int],
) -> int:
    """fork, set the parent-death signal, exec; an exec failure comes back as OSError.

    The child runs as little Python as possible
    (every page it touches is copied): the PATH search, the environment and
    SIGPIPE/SIGXFSZ (set to SIG_DFL around the fork; handlers vanish at exec by
    themselves) are prepared in the parent. A pipe closed by exec reports
    success; an errno written into it, failure.
    """
    parent = os.getpid()
    report_r, report_w = os.pipe()
    restore: list[tuple[int, Any]] = []
    try:
        for signum in _PYTHON_IGNORED:
            restore.append((signum, signal.signal(signum, signal.SIG_DFL)))
    except ValueError:  # not the main thread: the child resets them itself
        pass
    try:
        pid = os.fork()
    except OSError:
        os.close(report_r)
        os.close(report_w)
        raise
    finally:
        if os.getpid() == parent:
            for signum, handler in restore:
                signal.signal(signum, handler)
    if pid == 0:  # pragma: no cover - the child, until exec
        try:
            prctl(_PR_SET_PDEATHSIG, _SIGTERM)
            if os.getppid() != parent:  # wrap died before the line above: do not start
                os._exit(128 + _SIGTERM)
            if not restore:
                for signum in _PYTHON_IGNORED:
                    signal.signal(signum, signal.SIG_DFL)
            for target, source in redirect.items():
                if source == target:
                    os.set_inheritable(target, True)
                else:
                    os.dup2(source, target)
            os.execve(executable, argv, env)  # noqa: S606 - running the command is the job
        except OSError as error:
            os.write(report_w, (error.errno or 0).to_bytes(4, "little"))
        finally:
            os._exit(127)
    os.close(report_w)
    return _started(pid, report_r)


def _resolve(name: str) -> str:
    """`name` looked up in PATH as posix_spawnp/execvp do, or an OSError."""
    if "/" in name:
        return name
    import errno
    import stat

    denied = False
    # os.get_exec_path() would import `warnings` (~0.2 ms) for the same answer
    for directory in os.environ.get("PATH", os.defpath).split(os.pathsep) if name else ():
        candidate = os.path.join(directory or ".", name)
        try:
            mode = os.stat(candidate).st_mode
        except OSError:
            continue
        if stat.S_ISREG(mode) and os.access(candidate, os.X_OK):
            return candidate
        denied = True
    code = errno.EACCES if denied else errno.ENOENT
    raise OSError(code, os.strerror(code), name)


#: The libc prctl: False until looked up (Linux only), None when unavailable.
_PRCTL: Callable[[int, int], int] | bool | None = False if _LINUX else None


def _prctl() -> Callable[[int, int], int] | None:
    """libc's prctl(option, arg), built from `_ctypes` directly: the `ctypes`
    package costs ~2 ms to import, `_ctypes` ~0.5 ms."""
    global _PRCTL
    if _PRCTL is False:
        _PRCTL = None
        try:
            import _ctypes

            class _ULong(_ctypes._SimpleCData):  # type: ignore[type-arg]
                _type_ = "L"

            class _Int(_ctypes._SimpleCData):  # type: ignore[type-arg]
                _type_ = "i"

            class _Function(_ctypes.CFuncPtr):
                _flags_ = _ctypes.FUNCFLAG_CDECL
                _restype_ = _Int
                _argtypes_ = (_Int, _ULong)

            libc = _ctypes.dlopen(None)  # type: ignore[arg-type]  # None: the program and its libc
            _PRCTL = _Function(_ctypes.dlsym(libc, "prctl"))
        except (ImportError, OSError, AttributeError):  # pragma: no cover - a Python without ctypes
            _PRCTL = None
    return _PRCTL if callable(_PRCTL) else None


# -- waiting and signals ------------------------------------------------------------


def _open_pidfd(pid: int) -> int | None:
    opener = getattr(os, "pidfd_open", None)
    if opener is None:
        return None
    try:
        fd: int = opener(pid)
        return fd
    except OSError:
        return None


def _reap(pid: int, block: bool) -> int | None:
    while True:
        try:
            reaped, status = os.waitpid(pid, 0 if block else os.WNOHANG)
        except InterruptedError:  # pragma: no cover - Python retries waitpid itself
            continue
        except ChildProcessError:
            return 0
        return status if reaped else None


class _Forwarder:
    """Passes termination signals on to the child.

    Installed *before* the child is spawned, so a signal that arrives between
    the spawn and the wait (the child may already have printed its first line) is
    held and delivered once the child's pid is known, instead of killing wrap and
    orphaning the child. A signal wrap's parent ignored stays ignored here too (it
    is not forwarded: the child ignores it as well, see `_signals_to_reset`)."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.pending: list[int] = []
        self.previous: dict[int, Any] = {}
        self.foreground = _in_terminal_foreground()

    def install(self) -> _Forwarder:
        for signum in _FORWARDED:
            try:
                if signal.getsignal(signum) == signal.SIG_IGN:
                    continue
                self.previous[signum] = signal.signal(signum, self._forward)
            except (OSError, ValueError):  # not the main thread, or not allowed
                pass
        return self

    def _forward(self, signum: int, _frame: object) -> None:
        # A terminal's Ctrl-C/Ctrl-\ already reached the child (same process group).
        if self.foreground and signum in (signal.SIGINT, signal.SIGQUIT):
            return
        if self.pid is None:
            self.pending.append(signum)
            return
        try:
            os.kill(self.pid, signum)
        except ProcessLookupError:
            pass

    def attach(self, pid: int) -> None:
        self.pid = pid
        for signum in self.pending:
            self._forward(signum, None)
        self.pending = []

    def restore(self) -> None:
        """Put wrap's own handlers back; a signal that came while no child could
        receive it (the spawn failed) is delivered to wrap itself."""
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        for signum in self.pending:
            os.kill(os.getpid(), signum)


def _in_terminal_foreground() -> bool:
    for fd in (0, 1, 2):
        try:
            if os.isatty(fd):
                return os.tcgetpgrp(fd) == os.getpgrp()
        except OSError:
            continue
    return False


def decode(data: bytes) -> str:
    """Bytes to text; invalid UTF-8 becomes U+FFFD rather than an error."""
    return data.decode("utf-8", errors="replace")


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def write_out(data: bytes, fd: int = 1) -> None:
    """Write to stdout (or stderr), tolerating a closed pipe (`… | head`) and a
    descriptor closed before we started (`>&-`: Python's stream is then None)."""
    stream = sys.stdout if fd == 1 else sys.stderr
    try:
        if stream is not None:
            stream.flush()
        write_all(fd, data)
    except OSError:
        pass
