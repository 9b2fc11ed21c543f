"""Pruning a cache folder (files/cachefile.py writes a new entry only after it): a
cache would otherwise grow with every upgrade and every rule edit. Imported on a cache
miss only, not on every run's path."""

from __future__ import annotations

import os

from .. import paths

#: A cache entry not written for this long goes when a new entry is written beside it:
#: what an older version, an edited rule or a settings file since removed left behind.
#: An entry still read is rebuilt once after that (caches are read, never touched).
STALE_DAYS = 30
#: A temporary file a write left behind (the process was killed between open and rename).
_STALE_TEMPORARY_SECONDS = 3600


def _is_entry(name: str) -> bool:
    """Is `name` what `stem` names a cache entry (its digest, a suffix) or a write's
    temporary file for one (`….json.4242.tmp`)?"""
    digest, dot, rest = name.partition(".")
    parts = rest.split(".")
    if len(digest) != 8 or not dot or any(c not in "0123456789abcdef" for c in digest):
        return False
    if len(parts) == 3 and parts[2] == "tmp" and parts[1].isdigit():
        parts = parts[:1]
    return len(parts) == 1 and parts[0].isalpha() and parts[0].islower()


def prune(folder: str, now: float | None = None) -> int:
    """Remove the entries of the cache `folder` (of `stem`'s shape, regular files of
    this user's, never a link) not written for `STALE_DAYS`, and temporary files older
    than an hour; returns how many went. The cache would otherwise grow with every
    upgrade and every rule edit; a cache folder not verified private is left as it is."""
    import stat
    import time

    if not paths.secure_root(paths.cache_dir()):
        return 0
    now = time.time() if now is None else now
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        if not _is_entry(entry.name):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            continue
        age = now - info.st_mtime
        limit = _STALE_TEMPORARY_SECONDS if entry.name.endswith(".tmp") else STALE_DAYS * 86400
        if age > limit:
            paths.remove_quietly(entry.path)
            removed += 1
    return removed
