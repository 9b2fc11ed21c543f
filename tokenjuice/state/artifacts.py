"""Raw output artifacts: the full output of a run, one id away.

Stored gzip-compressed, secrets redacted first, in a private folder (0700) as
private files (0600). Ids are `tj_` plus 12 hex digits and are validated before
any file is touched. Retention by age and total size keeps the folder bounded.
"""

from __future__ import annotations

import os
import time

from .. import paths
from ..record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..settings import Settings

_HEX = frozenset("0123456789abcdef")
SUFFIX = ".txt.gz"
_PRUNE_STAMP = ".last-prune"
_PRUNE_EVERY_SECONDS = 24 * 3600


class ArtifactError(Exception):
    """An artifact cannot be stored or found; the message says why."""


def new_id() -> str:
    return "tj_" + os.urandom(6).hex()


def is_id(name: str) -> bool:
    """`tj_` and 12 lower-case hex digits, nothing else (no paths, no newline)."""
    return len(name) == 15 and name.startswith("tj_") and set(name[3:]) <= _HEX


@record
class Artifact:
    id: str
    path: str
    size: int
    created: float


class Store:
    """The folder of stored raw outputs, with its redaction and retention settings."""

    def __init__(
        self, directory: str, *, redact: bool = True, retention_days: int = 14, max_total_mb: int = 200
    ) -> None:
        self.directory = directory
        self.redact = redact
        self.retention_days = retention_days
        self.max_total_mb = max_total_mb

    @classmethod
    def from_settings(cls, settings: Settings) -> Store:
        configured = settings["artifacts.dir"].strip()
        directory = (
            os.path.abspath(os.path.expanduser(configured))
            if configured
            else os.path.join(paths.data_dir(), "artifacts")
        )
        return cls(
            directory,
            redact=settings["redaction.enabled"],
            retention_days=settings["artifacts.retention_days"],
            max_total_mb=settings["artifacts.max_total_mb"],
        )

    def path_of(self, artifact_id: str) -> str:
        if not is_id(artifact_id or ""):
            raise ArtifactError(
                f"{artifact_id!r} is not an artifact id (they look like tj_0123456789ab); see tokenjuice ls"
            )
        return os.path.join(self.directory, artifact_id + SUFFIX)

    def store(self, artifact_id: str, data: bytes) -> str:
        """Write the artifact; returns its path. Raises ArtifactError."""
        import gzip

        if self.redact:
            from .redact import redact as redact_text

            text, _ = redact_text(data.decode("utf-8", errors="replace"))
            data = text.encode("utf-8")
        path = self.path_of(artifact_id)
        try:
            paths.private_dir(self.directory)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(gzip.compress(data, compresslevel=1, mtime=0))
        except OSError as error:
            raise ArtifactError(f"cannot store raw output in {self.directory}: {error.strerror}") from None
        self._maybe_prune()
        return path

    def read(self, artifact_id: str) -> bytes:
        import gzip

        path = self.path_of(artifact_id)
        try:
            with gzip.open(path, "rb") as handle:
                data: bytes = handle.read()
                return data
        except FileNotFoundError:
            raise ArtifactError(f"no artifact {artifact_id}; it may have been pruned (see tokenjuice ls)") from None
        except (OSError, EOFError) as error:
            raise ArtifactError(f"artifact {artifact_id} cannot be read ({error})") from None

    def listing(self) -> list[Artifact]:
        """Every stored artifact, newest first."""
        found = []
        try:
            entries = list(os.scandir(self.directory))
        except OSError:
            return []
        for entry in entries:
            name = entry.name
            if name.endswith(SUFFIX) and is_id(name[: -len(SUFFIX)]) and entry.is_file(follow_symlinks=False):
                stat = entry.stat()
                found.append(Artifact(name[: -len(SUFFIX)], entry.path, stat.st_size, stat.st_mtime))
        return sorted(found, key=lambda a: (a.created, a.id), reverse=True)

    def prune(
        self, retention_days: int | None = None, max_total_mb: int | None = None, *, now: float | None = None
    ) -> list[Artifact]:
        """Delete artifacts older than the retention, then the oldest until the total
        fits (0 means no limit); returns what was deleted."""
        days = self.retention_days if retention_days is None else retention_days
        megabytes = self.max_total_mb if max_total_mb is None else max_total_mb
        now = time.time() if now is None else now
        deleted = []
        kept_size = 0
        limit = megabytes * 1024 * 1024
        for artifact in self.listing():  # newest first
            too_old = days and artifact.created < now - days * 86400
            too_big = megabytes and kept_size + artifact.size > limit
            if too_old or too_big:
                try:
                    os.unlink(artifact.path)
                    deleted.append(artifact)
                except OSError:
                    continue
            else:
                kept_size += artifact.size
        return deleted

    def _maybe_prune(self) -> None:
        stamp = os.path.join(self.directory, _PRUNE_STAMP)
        try:
            if time.time() - os.stat(stamp).st_mtime < _PRUNE_EVERY_SECONDS:
                return
        except FileNotFoundError:
            pass
        except OSError:
            return
        self.prune()
        try:
            os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        except OSError:
            pass
