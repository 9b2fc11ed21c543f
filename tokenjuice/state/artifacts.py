"""Raw output artifacts: the full output of a run, one id away.

Stored gzip-compressed, secrets redacted first, in a private folder (0700) as
private files (0600). Ids are `tj_` plus 12 hex digits and are validated before
any file is touched. Retention by age and total size keeps the folder bounded.
"""

from __future__ import annotations

import os
import time

from .. import paths

_HEX = frozenset("0123456789abcdef")
SUFFIX = ".txt.gz"
_PRUNE_STAMP = ".last-prune"
_PRUNE_EVERY_SECONDS = 24 * 3600


class ArtifactError(Exception):
    """An artifact cannot be stored or found; the message says why."""


def artifact_dir() -> str:
    override = os.environ.get("TOKENJUICE_ARTIFACT_DIR", "").strip()
    if override:
        return os.path.abspath(os.path.expanduser(override))
    return os.path.join(paths.data_dir(), "artifacts")


def new_id() -> str:
    return "tj_" + os.urandom(6).hex()


def is_id(name: str) -> bool:
    """`tj_` and 12 lower-case hex digits, nothing else (no paths, no newline)."""
    return len(name) == 15 and name.startswith("tj_") and set(name[3:]) <= _HEX


def path_of(artifact_id: str) -> str:
    if not is_id(artifact_id or ""):
        raise ArtifactError(f"{artifact_id!r} is not an artifact id (they look like tj_0123456789ab); "
                            "see tokenjuice ls")
    return os.path.join(artifact_dir(), artifact_id + SUFFIX)


def store(artifact_id: str, data: bytes, *, redact: bool, retention_days: int, max_total_mb: int) -> str:
    """Write the artifact; returns its path. Raises ArtifactError."""
    import gzip

    if redact:
        from .redact import redact as redact_text

        text, _ = redact_text(data.decode("utf-8", errors="replace"))
        data = text.encode("utf-8")
    path = path_of(artifact_id)
    directory = os.path.dirname(path)
    try:
        paths.private_dir(directory)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(gzip.compress(data, compresslevel=1, mtime=0))
    except OSError as error:
        raise ArtifactError(f"cannot store raw output in {directory}: {error.strerror}") from None
    _maybe_prune(retention_days, max_total_mb)
    return path


def read(artifact_id: str) -> bytes:
    import gzip

    path = path_of(artifact_id)
    try:
        with gzip.open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise ArtifactError(f"no artifact {artifact_id}; it may have been pruned (see tokenjuice ls)") from None
    except (OSError, EOFError) as error:
        raise ArtifactError(f"artifact {artifact_id} cannot be read ({error})") from None


class Artifact:
    __slots__ = ("id", "path", "size", "created")

    def __init__(self, artifact_id: str, path: str, size: int, created: float) -> None:
        self.id = artifact_id
        self.path = path
        self.size = size
        self.created = created


def listing() -> list[Artifact]:
    """Every stored artifact, newest first."""
    directory = artifact_dir()
    found = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        name = entry.name
        if name.endswith(SUFFIX) and is_id(name[:-len(SUFFIX)]) and entry.is_file(follow_symlinks=False):
            stat = entry.stat()
            found.append(Artifact(name[:-len(SUFFIX)], entry.path, stat.st_size, stat.st_mtime))
    return sorted(found, key=lambda a: (a.created, a.id), reverse=True)


def prune(retention_days: int, max_total_mb: int, *, now: float | None = None) -> list[Artifact]:
    """Delete artifacts older than the retention, then the oldest until the total
    fits; returns what was deleted."""
    now = time.time() if now is None else now
    deleted = []
    kept_size = 0
    limit = max_total_mb * 1024 * 1024
    for artifact in listing():  # newest first
        too_old = retention_days and artifact.created < now - retention_days * 86400
        too_big = max_total_mb and kept_size + artifact.size > limit
        if too_old or too_big:
            try:
                os.unlink(artifact.path)
                deleted.append(artifact)
            except OSError:
                continue
        else:
            kept_size += artifact.size
    return deleted


def _maybe_prune(retention_days: int, max_total_mb: int) -> None:
    stamp = os.path.join(artifact_dir(), _PRUNE_STAMP)
    try:
        if time.time() - os.stat(stamp).st_mtime < _PRUNE_EVERY_SECONDS:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    prune(retention_days, max_total_mb)
    try:
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    except OSError:
        pass
