"""Best-effort JSON cache files: read if valid, write atomically, never fail.

A cache that cannot be read or written only costs speed, so errors are swallowed.
A keyed entry (`stem`, `read_current`, `write_current`) lives in one file per key
and is current only for the same tokenjuice version and the same signature (the
mtimes and sizes of what it was built from), so an upgrade or an edit rebuilds it
in place instead of reading what another version wrote.
"""

from __future__ import annotations

import os

from .. import __version__, paths
from ..fast import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_writes = True


def disable_writes() -> None:
    """For commands that only look (doctor, stats, config get…): caches are read,
    never written, so no file or folder is created."""
    global _writes
    _writes = False


def stem(kind: str, key: object) -> str:
    """The cache path (without suffix) for `key`, a JSON-able value, under `kind`."""
    import zlib

    digest = zlib.crc32(fastjson.dumps([__version__, key]).encode())
    return os.path.join(paths.cache_dir(), kind, f"{digest:08x}")


def read_current(path: str, signature: object) -> dict[str, Any] | None:
    """The entry stored by `write_current`, if this version wrote it for `signature`."""
    data = read(path)
    if isinstance(data, dict) and data.get("version") == __version__ and data.get("signature") == signature:
        return data
    return None


def write_current(path: str, signature: object, entry: dict[str, Any]) -> None:
    write(path, {"version": __version__, "signature": signature} | entry)


#: A cache file larger than this is not one of ours (the rule index is ~200 KiB).
MAX_CACHE_BYTES = 64 * 1024 * 1024


def read(path: str) -> Any:
    """The JSON value stored at `path`, or None if missing or unreadable (see `read_bytes`)."""
    data = read_bytes(path)
    if data is None:
        return None
    try:
        return fastjson.loads(data)
    except ValueError:
        return None


def read_bytes(path: str) -> bytes | None:
    """The bytes stored at `path`, or None if missing or unreadable, and also when
    another user could have written them: the cache folder must pass
    `paths.secure_root`, and the opened file must be a regular file of this user's
    that no one else may write (a cache decides settings and rules)."""
    if not paths.secure_root(paths.cache_dir()):
        return None
    try:
        return paths.read_regular(path, MAX_CACHE_BYTES, follow=False, own=True)
    except OSError:
        return None


def write(path: str, data: object) -> None:
    """Write `data` as JSON via a temporary file and an atomic rename."""
    if _writes:
        write_bytes(path, fastjson.dumps(data).encode("utf-8"))


def write_bytes(path: str, data: bytes) -> None:
    """Write `data` via a temporary file and an atomic rename; a new file first has its
    folder pruned of entries nobody rewrote for a month (files/cacheprune.py)."""
    if not _writes:
        return
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        folder = os.path.dirname(path)
        paths.private_dir(folder)
        if not os.path.lexists(path):
            from .cacheprune import prune  # a cache miss only: not on every run's import path

            prune(folder)
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, path)
    except OSError:
        paths.remove_quietly(temporary)
