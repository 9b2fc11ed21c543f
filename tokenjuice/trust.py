"""Which projects' `.tokenjuice/` layers (rules and settings) the user trusts.

A repository is untrusted input: a cloned project's rules could replace a
command's output with text of its choosing or hide a failing test, and its
settings could turn redaction off. So a project's layer is ignored until the user
runs `tokenjuice trust` in it, the way git's safe.directory, `direnv allow` and
`mise trust` work. Trust is recorded in the user's data folder (0600) keyed by
the project's absolute path and a hash of the layer's files; any change to those
files makes the layer untrusted again until it is re-trusted.

Checking is cheap, because it runs on every hook call and wrap: the layer's files
are only stat'ed and compared with the sizes and mtimes recorded at trust time;
their contents are hashed only when those differ. `TOKENJUICE_TRUST_ALL=1`
trusts every layer (CI and throwaway sandboxes).
"""

from __future__ import annotations

import os
import sys
import time

from . import paths
from .fast import fastjson
from .fast.record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

LAYER = paths.PROJECT_LAYER
TRUST_FILE = "trusted-projects.json"
NOTICE_EVERY_SECONDS = 3600
_TRUE = ("1", "true", "yes", "on")


@record
class Layer:
    """A project's `.tokenjuice/` folder and what trust says of it."""

    project: str  # the folder holding .tokenjuice/
    status: str  # "trusted", "untrusted" (never trusted), "changed" (trusted, then edited), "all" (TRUST_ALL)
    changed: tuple[str, ...] = ()  # files added, removed or edited since it was trusted

    @property
    def trusted(self) -> bool:
        return self.status in ("trusted", "all")

    @property
    def directory(self) -> str:
        return os.path.join(self.project, LAYER)


def layer_for(start: str | None, env: Mapping[str, str] | None = None, *, project: str | None = None) -> Layer | None:
    """The project layer in force for `start`, with its trust status; None when there
    is none. `project` is the layer's folder when the caller has found it already."""
    project = project or paths.find_project_layer(start)
    if project is None:
        return None
    env = os.environ if env is None else env
    if env.get("TOKENJUICE_TRUST_ALL", "").strip().lower() in _TRUE:
        return Layer(project, "all")
    record_ = _records().get(project)
    if record_ is None:
        return Layer(project, "untrusted")
    if _signature(project) == record_.get("signature"):
        return Layer(project, "trusted")
    files = _digests(project)
    if files == record_.get("files"):
        try:  # touched, not changed: the new stat is recorded, so the next check only stats again
            trust(project)
        except OSError:
            pass
        return Layer(project, "trusted")
    return Layer(project, "changed", _differences(record_.get("files") or {}, files))


def trust(project: str) -> dict[str, Any]:
    """Record the layer of `project` as trusted, as it is now; returns the record."""
    project = os.path.abspath(project)
    entry = {"signature": _signature(project), "files": _digests(project), "trusted_at": time.time()}
    records = _records()
    records[project] = entry
    _save(records)
    return entry


def revoke(project: str) -> bool:
    records = _records()
    found = records.pop(os.path.abspath(project), None) is not None
    if found:
        _save(records)
    return found


def trusted_projects() -> dict[str, dict[str, Any]]:
    return _records()


def layer_files(project: str) -> list[str]:
    """The layer's entries that can change what tokenjuice does, relative to the
    project: its config.toml and every rule file. Symlinks are never followed, but
    they are listed (the rules folder too), so adding one ends trust."""
    from .rules import RULE_SUFFIXES

    root = os.path.join(project, LAYER)
    found = []
    config = os.path.join(root, "config.toml")
    if os.path.lexists(config):
        found.append(os.path.join(LAYER, "config.toml"))
    rules = os.path.join(root, "rules")
    if os.path.islink(rules) or os.path.islink(root):
        return [*found, os.path.join(LAYER, "rules")]
    for directory, folders, files in os.walk(rules):
        for name in sorted(folders):
            if os.path.islink(os.path.join(directory, name)):
                found.append(os.path.relpath(os.path.join(directory, name), project))
        folders[:] = sorted(f for f in folders if not os.path.islink(os.path.join(directory, f)))
        for name in sorted(files):
            path = os.path.join(directory, name)
            if name.endswith(RULE_SUFFIXES):
                found.append(os.path.relpath(path, project))
    return found


def notice_untrusted(layer: Layer) -> None:
    """One line on stderr, at most once an hour per project: the layer is ignored."""
    if layer.trusted:
        return
    stamp = os.path.join(paths.data_dir(), "notices", f"trust-{_key(layer.project)}")
    try:
        if time.time() - os.lstat(stamp).st_mtime < NOTICE_EVERY_SECONDS:
            return
    except OSError:
        pass
    what = "changed since you trusted them" if layer.status == "changed" else "untrusted"
    from .text import one_line

    sys.stderr.write(
        f"tokenjuice: ignoring {what} project rules in {one_line(layer.project)} (run: tokenjuice trust)\n"
    )
    try:
        paths.private_dir(os.path.dirname(stamp))
        try:
            os.unlink(stamp)
        except FileNotFoundError:
            pass
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
    except OSError:
        pass


def _key(project: str) -> str:
    import zlib

    return f"{zlib.crc32(project.encode('utf-8', 'surrogateescape')):08x}"


def _signature(project: str) -> list[list[Any]]:
    """What `stat` says of each entry: any difference (ctime too, which no one can
    set back: `touch -d`, `cp -p` and `tar -x` keep size and mtime) means hashing."""
    rows = []
    for relative in layer_files(project):
        try:
            stat = os.lstat(os.path.join(project, relative))
        except OSError:
            continue
        rows.append([relative, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino, stat.st_mode])
    return rows


#: The most of one layer file that is hashed: a larger one is never loaded (the
#: caps in docs/security.md), so its size stands for its content.
_MAX_HASHED = 1024 * 1024


def _digests(project: str) -> dict[str, str]:
    import errno
    import hashlib

    files = {}
    for relative in layer_files(project):
        path = os.path.join(project, relative)
        try:
            # never through a link, never blocking on a FIFO, never more than the cap
            files[relative] = hashlib.sha256(paths.read_regular(path, _MAX_HASHED, follow=False)).hexdigest()
        except OSError as error:
            try:
                if os.path.islink(path):
                    files[relative] = "symlink to " + os.readlink(path)
                elif error.errno == errno.EFBIG:
                    files[relative] = f"too large ({os.lstat(path).st_size} bytes)"
                else:
                    files[relative] = "unreadable"
            except OSError:
                files[relative] = "unreadable"
    return files


def _differences(before: dict[str, str], after: dict[str, str]) -> tuple[str, ...]:
    changes = [f"added {name}" for name in sorted(set(after) - set(before))]
    changes += [f"removed {name}" for name in sorted(set(before) - set(after))]
    changes += [f"edited {name}" for name in sorted(set(before) & set(after)) if before[name] != after[name]]
    return tuple(changes)


def _path() -> str:
    return os.path.join(paths.data_dir(), TRUST_FILE)


#: trusted-projects.json is never this large (~300 bytes a project).
_MAX_RECORDS = 16 * 1024 * 1024


def _records() -> dict[str, dict[str, Any]]:
    """The trust records; none when another user could have written them (the data
    folder must pass `paths.secure_root`, the file be this user's and theirs alone)."""
    if not paths.secure_root(paths.data_dir()):
        return {}
    try:
        data = fastjson.loads(paths.read_regular(_path(), _MAX_RECORDS, follow=False, own=True))
    except (OSError, ValueError):
        return {}
    projects = data.get("projects") if isinstance(data, dict) else None
    return {k: v for k, v in projects.items() if isinstance(v, dict)} if isinstance(projects, dict) else {}


def _save(records: dict[str, dict[str, Any]]) -> None:
    from .files.atomic import write_atomically

    paths.private_dir(paths.data_dir())
    path = _path()
    if os.path.islink(path):
        os.unlink(path)  # never write through a link planted in our folder
    write_atomically(path, fastjson.dumps({"version": 1, "projects": records}).encode("utf-8"), mode=0o600)
