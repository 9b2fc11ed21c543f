"""Replace a user's file so that a crash leaves either the old or the new content."""

from __future__ import annotations

import os
import stat
import tempfile

from ..paths import remove_quietly


def write_atomically(path: str, data: bytes, *, mode: int | None = None) -> None:
    """Write `data` to a temporary file beside `path`, fsync it, give it `mode` (by
    default the mode `path` has, or for a new file the umask's default without
    write access for group and others) and rename it over `path`. Raises OSError;
    the temporary file never outlives a failure."""
    directory = os.path.dirname(path) or "."
    if mode is None:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o644 & ~umask  # never writable by others, whatever the umask (000 on some services)
    fd, temporary = tempfile.mkstemp(prefix=".tokenjuice-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except OSError:
        remove_quietly(temporary)
        raise
    try:  # make the rename itself durable
        directory_fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(directory_fd)
        finally:
            os.close(directory_fd)
    except OSError:
        pass
