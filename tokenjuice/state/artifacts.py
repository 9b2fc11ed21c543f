"""The output store: the full output of every run whose shown output was cut.

The agent must never have to re-run a command to see what tokenjuice left out:
re-running `git commit`, a deploy or a migration repeats its side effects, and a
flaky test gives different output. So whenever a reduction cuts anything, the
whole captured output (stdout and stderr as they were interleaved) is kept here
with what it came from (command, working directory, exit code, time, capture
facts), and the trailer names it: `tokenjuice cat 7f3a2c1d`.

- Private: a 0700 folder of 0600 files, created with O_NOFOLLOW|O_EXCL, never
  following a symlink planted in it; secrets are redacted before anything is
  written (the same redaction as everything shown).
- Bounded: the age and total-size limits (`artifacts.retention_days`,
  `artifacts.max_total_mb`) are applied at most once a day by a write, and by
  `tokenjuice prune`; an output bigger than the whole limit is not kept, and the
  trailer says so.
- Ids are 8 lower-case hex digits, validated before any file is touched.

Layout: `<id>.out.gz` (the output), `<id>.json` (what it came from),
`<id>.shown.gz` (what the agent was shown for that run, `tokenjuice cat ID
--shown`), and `<id>.late` for output a background job wrote after the command
returned.
"""

from __future__ import annotations

import os
import time

from .. import paths
from ..fast import fastjson
from ..fast.record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..settings import Settings

_HEX = frozenset("0123456789abcdef")
ID_LENGTH = 8
OUTPUT_SUFFIX = ".out.gz"
META_SUFFIX = ".json"
LATE_SUFFIX = ".late"
SHOWN_SUFFIX = ".shown.gz"
_PRUNE_STAMP = ".last-prune"
#: An output in the fallback store names, under this key, the store it stands in for.
STORE_KEY = "store"
_PRUNE_EVERY_SECONDS = 24 * 3600
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class ArtifactError(Exception):
    """An output cannot be stored or found; the message says why."""


def new_id() -> str:
    return os.urandom(ID_LENGTH // 2).hex()


def is_id(name: str) -> bool:
    """8 lower-case hex digits, nothing else (no paths, no newline)."""
    return len(name) == ID_LENGTH and set(name) <= _HEX


@record
class Artifact:
    id: str
    path: str  # the output file
    size: int  # bytes on disk (compressed output and metadata)
    created: float


@record
class Stored:
    """One stored run as `tokenjuice cat` reads it."""

    id: str
    output: bytes  # the output as captured (redacted), with any late background output after it
    meta: dict[str, Any]
    late: bool = False  # a background job wrote more after the command returned
    shown: bytes | None = None  # what the agent was shown for the run (None: not kept)


class Store:
    """The folder of stored outputs, with its redaction and retention settings."""

    def __init__(
        self,
        directory: str,
        *,
        redact: bool = True,
        retention_days: int = 14,
        max_total_mb: int = 200,
        fallback: bool = False,
    ) -> None:
        self.directory = directory
        self.redact = redact
        self.retention_days = retention_days
        self.max_total_mb = max_total_mb
        #: With the default folder: when it cannot be written (an agent's sandbox that
        #: allows only the workspace and /tmp), outputs go to a private folder in /tmp.
        self.fallback = fallback

    def _directories(self) -> list[str]:
        """Where outputs may be: the store's folder, then the fallback's; only
        folders no other user could have made or written (`_private`)."""
        found = [self.directory] if paths.private_entry(self.directory, folder=True) else []
        temp = paths.owned_temp_dir() if self.fallback else None
        if temp and paths.private_entry(os.path.join(temp, "artifacts"), folder=True):
            found.append(os.path.join(temp, "artifacts"))
        return found

    def _locate(self, artifact_id: str) -> str:
        """The folder holding `artifact_id` (the store's own when none does)."""
        name = self.path_of(artifact_id)[len(self.directory) + 1 :]
        for directory in self._directories():
            if os.path.lexists(os.path.join(directory, name)):
                return directory
        return self.directory

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
            fallback=not configured,
        )

    def path_of(self, artifact_id: str, suffix: str = OUTPUT_SUFFIX) -> str:
        if not is_id(artifact_id or ""):
            raise ArtifactError(f"{artifact_id!r} is not an output id (they look like 7f3a2c1d); see tokenjuice ls")
        return os.path.join(self.directory, artifact_id + suffix)

    def store(self, artifact_id: str, data: bytes, meta: dict[str, Any]) -> str:
        """Keep `data` (redacted first) and its metadata; returns the output's path.
        Raises ArtifactError when it cannot be kept (the reason is the message)."""
        import gzip

        if self.redact:
            from .redact import redact as redact_text

            # surrogateescape: bytes that are not UTF-8 are kept as they were (`cat` is byte-exact)
            data = redact_text(data.decode("utf-8", errors="surrogateescape"))[0].encode("utf-8", "surrogateescape")
            meta = meta | {"command": redact_text(str(meta.get("command") or ""))[0]}
        compressed = gzip.compress(data, compresslevel=1, mtime=0)
        limit = self.max_total_mb * 1024 * 1024
        if limit and len(compressed) > limit:
            raise ArtifactError(
                f"it is bigger ({len(compressed) // 1024} KiB compressed) than the whole store "
                f"(artifacts.max_total_mb = {self.max_total_mb})"
            )
        try:
            paths.private_dir(self.directory)
            return self._write(self.directory, artifact_id, compressed, meta)
        except OSError as error:
            if not self.fallback:
                raise ArtifactError(f"it cannot be written to {self.directory} ({error.strerror or error})") from None
            first = error
        try:
            temp = os.path.join(paths.private_temp_dir(), "artifacts")
            if not os.path.lexists(temp):
                os.mkdir(temp, 0o700)
            if not paths.private_entry(temp, folder=True):
                raise PermissionError(1, "not a private folder of this user's", temp)
            # whose it is: every HOME of this user shares the fallback store, and `uninstall
            # --all --purge` takes away only the outputs of its own
            return self._write(temp, artifact_id, compressed, meta | {STORE_KEY: self.directory})
        except OSError:
            raise ArtifactError(f"it cannot be written to {self.directory} ({first.strerror or first})") from None

    def _write(self, directory: str, artifact_id: str, compressed: bytes, meta: dict[str, Any]) -> str:
        path = os.path.join(directory, os.path.basename(self.path_of(artifact_id)))
        _write_new(path, compressed)
        _write_new(path.removesuffix(OUTPUT_SUFFIX) + META_SUFFIX, fastjson.dumps(meta).encode("utf-8"))
        self._maybe_prune()
        return path

    def read(self, artifact_id: str) -> Stored:
        import gzip

        self.path_of(artifact_id)  # validates the id before any file is looked up
        path = os.path.join(self._locate(artifact_id), artifact_id + OUTPUT_SUFFIX)
        try:
            data = gzip.decompress(_read_own(path))
        except FileNotFoundError:
            raise ArtifactError(
                f"no stored output {artifact_id}; it may have been pruned (tokenjuice ls lists what is kept)"
            ) from None
        except (OSError, EOFError, ValueError) as error:
            raise ArtifactError(f"stored output {artifact_id} cannot be read ({error})") from None
        meta = _read_json(path.removesuffix(OUTPUT_SUFFIX) + META_SUFFIX)
        late = self._late(path.removesuffix(OUTPUT_SUFFIX) + LATE_SUFFIX)
        if late:
            data += late
        return Stored(artifact_id, data, meta, bool(late), _read_shown(path.removesuffix(OUTPUT_SUFFIX) + SHOWN_SUFFIX))

    def _late(self, late_path: str) -> bytes:
        """What a background job wrote after the command returned, redacted."""
        try:
            late = _read_own(late_path)
        except OSError:
            return b""
        if late and self.redact:
            from .redact import redact as redact_text

            late = redact_text(late.decode("utf-8", errors="surrogateescape"))[0].encode("utf-8", "surrogateescape")
        return late

    def listing(self) -> list[Artifact]:
        """Every stored output, newest first."""
        found: dict[str, Artifact] = {}
        entries = []
        for directory in self._directories():
            try:
                entries += list(os.scandir(directory))
            except OSError:
                continue
        sizes: dict[str, int] = {}
        for entry in entries:
            name = entry.name
            stem, _, _ = name.partition(".")
            if not is_id(stem) or not entry.is_file(follow_symlinks=False):
                continue
            stat = entry.stat(follow_symlinks=False)
            if (paths.POSIX_OWNERS and stat.st_uid != paths.euid()) or paths.others_can_write(stat):
                continue  # not written by tokenjuice for this user
            sizes[stem] = sizes.get(stem, 0) + stat.st_size
            if name.endswith(OUTPUT_SUFFIX):
                found[stem] = Artifact(stem, entry.path, 0, stat.st_mtime)
        artifacts = [Artifact(a.id, a.path, sizes[a.id], a.created) for a in found.values()]
        return sorted(artifacts, key=lambda a: (a.created, a.id), reverse=True)

    def prune(
        self, retention_days: int | None = None, max_total_mb: int | None = None, *, now: float | None = None
    ) -> list[Artifact]:
        """Delete outputs older than the retention, then the oldest until the total
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
                for suffix in (OUTPUT_SUFFIX, META_SUFFIX, LATE_SUFFIX, SHOWN_SUFFIX):
                    try:
                        os.unlink(os.path.join(os.path.dirname(artifact.path), artifact.id + suffix))
                    except OSError:
                        continue
                deleted.append(artifact)
            else:
                kept_size += artifact.size
        return deleted

    def _maybe_prune(self) -> None:
        stamp = os.path.join(self.directory, _PRUNE_STAMP)
        if not paths.private_entry(self.directory, folder=True):  # a symlink or a folder another user could write
            return
        try:
            if time.time() - os.lstat(stamp).st_mtime < _PRUNE_EVERY_SECONDS:
                return
        except FileNotFoundError:
            pass
        except OSError:
            return
        self.prune()
        paths.remove_quietly(stamp)  # a fresh stamp: never truncate or follow what sits at that name
        try:
            os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600))
        except OSError:
            pass


def keep_shown(output_path: str, text: str, *, redact: bool = False) -> bool:
    """Keep beside the stored output at `output_path` what the agent was shown for
    that run (already redacted, as everything shown is, unless `redact` asks for it:
    `wrap --raw` shows the bytes as written). Written like the output: gzip, 0600,
    a new file never following a symlink. False when it could not be kept; the run
    goes on either way (`cat --shown` then says it was not kept)."""
    import gzip

    if redact:
        from .redact import redact as redact_text

        text = redact_text(text)[0]
    try:
        data = gzip.compress(text.encode("utf-8", errors="surrogateescape"), compresslevel=1, mtime=0)
        _write_new(output_path.removesuffix(OUTPUT_SUFFIX) + SHOWN_SUFFIX, data)
    except (OSError, ValueError):
        return False
    return True


def read_meta(output_path: str) -> dict[str, Any]:
    """What the stored output at `output_path` came from ({} when unknown)."""
    return _read_json(output_path.removesuffix(OUTPUT_SUFFIX) + META_SUFFIX)


def _read_shown(path: str) -> bytes | None:
    """What the agent was shown (None when it was not kept, or the file is not one
    tokenjuice wrote for this user: read like the output, `_read_own`)."""
    import gzip

    try:
        return gzip.decompress(_read_own(path))
    except (OSError, EOFError, ValueError):
        return None


#: A stored file larger than this was not written by the store (its whole limit is smaller).
_MAX_READ = 1 << 40


def _read_own(path: str) -> bytes:
    """A stored file's bytes: a regular file (no link) of this user's that no one
    else may write, checked on the opened descriptor."""
    return paths.read_regular(path, _MAX_READ, follow=False, own=True)


def _no_follow(path: str, flags: int) -> int:
    """An `open()` opener that refuses to follow a symlink at `path`."""
    return os.open(path, flags | _NOFOLLOW)


def _write_new(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _read_json(path: str) -> dict[str, Any]:
    try:
        data = fastjson.loads(_read_own(path))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
