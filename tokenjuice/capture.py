"""Run a command and capture its output, bounded, in arrival order.

Why not `subprocess`: importing it costs ~10 ms, paid on every wrapped command.
`posix_spawn` plus `poll` does the same job with modules Python has loaded anyway.

With `merged`, the child's stdout and stderr share one pipe, exactly like `2>&1`
(and like a terminal), so the kernel keeps their order. With two pipes (when the
streams must stay apart: `--raw` writes each to its own descriptor, JSON reports
them separately) the order across streams is only as good as the reads: lines are
merged at line boundaries, but writes that land between two reads may reorder.

Memory is bounded: the first 3/4 of `max_bytes` is kept from the start of the
output and the last 1/4 from its end (where errors and summaries usually are);
what falls between is drained and counted, and a marker line says how much was
skipped. The child's stdin is inherited, its exit status is kept (128+N when a
signal killed it), and SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to tokenjuice reach it.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

DEFAULT_MAX_CAPTURE_BYTES = 4 * 1024 * 1024
STDOUT, STDERR = 1, 2
_READ_SIZE = 1 << 20
#: Linux lets a pipe hold 1 MiB (fcntl F_SETPIPE_SZ): a flood then takes 16x fewer reads.
_F_SETPIPE_SZ = 1031
#: A stream's unfinished line is held back (so the other stream cannot land in the
#: middle of it) up to this size; a longer line without a newline goes through.
_PARTIAL_LINE_LIMIT = 1 << 16
_FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
#: Once the command has exited, stop waiting for output that background jobs it
#: started may still hold open, after this much silence.
_ORPHAN_GRACE_SECONDS = 0.25


class Capture:
    """The captured output of one run."""

    __slots__ = ("chunks", "duration_ms", "exit_code", "signal", "skipped", "spawn_error")

    def __init__(self) -> None:
        self.chunks: list[tuple[int, bytes]] = []  # (stream, data) in arrival order
        self.skipped = 0  # bytes drained but not kept
        self.exit_code = 0
        self.signal: int | None = None
        self.duration_ms = 0.0
        self.spawn_error: str | None = None

    @property
    def truncated(self) -> bool:
        return self.skipped > 0

    def combined(self) -> bytes:
        return b"".join(data for _, data in self.chunks)

    def stream(self, which: int) -> bytes:
        return b"".join(data for stream, data in self.chunks if stream == which)


def skipped_marker(skipped: int, limit: int) -> bytes:
    return (
        f"\n[tokenjuice: {_size(skipped)} of output skipped here; capture keeps the first and last "
        f"{_size(limit)} (--max-capture-bytes)]\n"
    ).encode()


def _size(count: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


class _Buffer:
    """Head-and-tail bounded store of tagged chunks, merged at line boundaries:
    each stream's unfinished line waits for its newline, so one stream's output
    never lands in the middle of the other's line."""

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
        self.skipped = 0

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
                self.skipped += len(first)
            else:
                self.tail[0] = (first_stream, first[excess:])
                self.tail_size -= excess
                self.skipped += excess

    def finish(self) -> tuple[list[tuple[int, bytes]], int]:
        for stream in self.partial:
            self.close(stream)
        if not self.skipped:
            return self.head + self.tail, 0
        # Start the kept tail on a line boundary when one is near, so no half line shows.
        if self.tail:
            stream, first = self.tail[0]
            cut = first.find(b"\n", 0, 4096)
            if cut >= 0:
                self.tail[0] = (stream, first[cut + 1 :])
                self.skipped += cut + 1
        marker = (STDERR, skipped_marker(self.skipped, self.limit))
        return self.head + [marker] + self.tail, self.skipped


def run(
    argv: list[str],
    *,
    max_bytes: int = DEFAULT_MAX_CAPTURE_BYTES,
    tee: bool = False,
    env: Mapping[str, str] | None = None,
    merged: bool = False,
) -> Capture:
    """Run `argv` (no shell), capturing stdout and stderr; never raises for the child."""
    capture = Capture()
    started = time.monotonic()
    # One pipe per stream, or one for both: {stream: (read end, write end)}.
    pipes = {stream: _pipe() for stream in ((STDOUT,) if merged else (STDOUT, STDERR))}
    err_write = pipes[STDOUT if merged else STDERR][1]
    actions = [(os.POSIX_SPAWN_DUP2, pipes[STDOUT][1], 1), (os.POSIX_SPAWN_DUP2, err_write, 2)]
    defaults = [s for s in (signal.SIGPIPE, getattr(signal, "SIGXFSZ", None), *_FORWARDED) if s]
    try:
        pid = os.posix_spawnp(
            argv[0], argv, os.environ if env is None else env, file_actions=actions, setsigdef=defaults
        )
    except OSError as error:
        for ends in pipes.values():
            for fd in ends:
                os.close(fd)
        capture.exit_code = 127 if isinstance(error, FileNotFoundError) else 126
        reason = "command not found" if capture.exit_code == 127 else (error.strerror or str(error))
        capture.spawn_error = f"tokenjuice: {argv[0]}: {reason}"
        capture.chunks = [(STDERR, (capture.spawn_error + "\n").encode())]
        return capture
    for _, write_end in pipes.values():
        os.close(write_end)

    previous = _forward_signals(pid)
    try:
        buffer = _Buffer(max_bytes, merged)
        status = _pump(pid, {read_end: stream for stream, (read_end, _) in pipes.items()}, buffer, tee)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for read_end, _ in pipes.values():
            try:
                os.close(read_end)
            except OSError:
                pass
    capture.chunks, capture.skipped = buffer.finish()
    if os.WIFSIGNALED(status):
        capture.signal = os.WTERMSIG(status)
        capture.exit_code = 128 + capture.signal
    else:
        capture.exit_code = os.waitstatus_to_exitcode(status)
    capture.duration_ms = (time.monotonic() - started) * 1000
    return capture


def _pump(pid: int, fds: dict[int, int], buffer: _Buffer, tee: bool) -> int:
    """Read until both pipes close (or the child is gone and they fall silent)."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    pidfd = _open_pidfd(pid)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    open_fds = set(fds)
    status: int | None = None
    silent_since: float | None = None
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
                if got_data or silent_since is None:
                    silent_since = now
                elif now - silent_since >= _ORPHAN_GRACE_SECONDS:
                    break  # background jobs hold the pipes; the command itself is done
    finally:
        if pidfd is not None:
            os.close(pidfd)
    return status if status is not None else (_reap(pid, block=True) or 0)


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


def _forward_signals(pid: int) -> dict[int, Any]:
    """Pass termination signals on to the child; returns the handlers to restore."""
    foreground = _in_terminal_foreground()

    def forward(signum: int, _frame: object) -> None:
        # A terminal's Ctrl-C/Ctrl-\ already reached the child (same process group).
        if foreground and signum in (signal.SIGINT, signal.SIGQUIT):
            return
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    previous: dict[int, Any] = {}
    for signum in _FORWARDED:
        try:
            previous[signum] = signal.signal(signum, forward)
        except (OSError, ValueError):  # not the main thread, or not allowed
            pass
    return previous


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
    """Write to stdout (or stderr), tolerating a closed pipe (`… | head`)."""
    try:
        (sys.stdout if fd == 1 else sys.stderr).flush()
        write_all(fd, data)
    except OSError:
        pass
