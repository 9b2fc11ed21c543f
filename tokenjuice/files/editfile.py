"""Edit a file another tool (or the user) owns without ever corrupting or losing it.

Every edit tokenjuice makes to a settings file — a host's hook config, the user's
`config.toml` — goes through `LockedFile`:
- An exclusive lock on the file's folder serialises concurrent edits.
- A symlinked file (dotfiles repositories do this) is edited through the link:
  the target changes, the link stays a link.
- Before a change, the original bytes are copied to `<file>.bak` (the first
  backup: the file as it was before tokenjuice touched it) or the next
  `<file>.bak.N`; only the newest `KEEP_NUMBERED` numbered backups are kept. An
  uninstall that gives the file its bytes from before install back, or removes
  the file install created, deletes the backups install made (hosts/manage.py).
- The new content is written to a temporary file beside the target, fsynced and
  renamed over it with the target's mode (`atomic.write_atomically`), so a crash
  leaves either the old or the new file.
- A read-only file or folder is refused with one sentence, never forced.
Parsing and the edit itself belong to the caller (`jsonfile.py`, `commands/config.py`).
"""

from __future__ import annotations

import difflib
import fcntl
import os
import stat

from .. import paths
from ..errors import UsageError
from ..fast.record import record
from .atomic import write_atomically

#: Numbered backups kept besides the first one.
KEEP_NUMBERED = 4


class EditError(UsageError):
    """The file cannot be edited safely; the message says why and what to do."""


@record
class Change:
    """One edit of a file: before, after, and where the original was backed up."""

    path: str
    before: str | None
    after: str
    backup: str | None = None
    removed: bool = False  # the file itself goes (`after` is then "")

    @property
    def changed(self) -> bool:
        return self.before != self.after or (self.removed and self.before is not None)

    def diff(self) -> str:
        """A unified diff naming the file by its full path (`/dev/null` for a file
        created or removed), which `patch -p0` applies."""
        before = (self.before or "").splitlines(keepends=True)
        after = self.after.splitlines(keepends=True)
        old = "/dev/null" if self.before is None else self.path
        new = "/dev/null" if self.removed else self.path
        return "".join(difflib.unified_diff(before, after, old, new))


class LockedFile:
    """`with LockedFile(path) as f: ...f.text...; f.save(new_text)`.

    With `create=False` (dry runs, doctor) a missing folder is not created and no
    lock is taken where there is nothing to lock."""

    def __init__(self, path: str, *, create: bool = True) -> None:
        self.path = os.path.abspath(path)  # what the user knows the file as
        self.target = os.path.realpath(self.path)  # what is really written (through symlinks)
        self.directory = os.path.dirname(self.target)
        self.create = create
        self._lock_fd: int | None = None
        self.text: str | None = None
        self.created_dirs: list[str] = []  # folders this edit had to create, deepest first

    def __enter__(self) -> LockedFile:
        if not self.create and not os.path.isdir(self.directory):
            return self
        folder = self.directory
        while not os.path.exists(folder) and os.path.dirname(folder) != folder:
            self.created_dirs.append(folder)
            folder = os.path.dirname(folder)
        try:
            for created in reversed(self.created_dirs):  # writable by no one else, whatever the umask
                try:
                    os.mkdir(created, 0o755)
                except FileExistsError:
                    pass
            os.makedirs(self.directory, exist_ok=True)
            self._lock_fd = os.open(self.directory, os.O_RDONLY)
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        except OSError as error:
            raise EditError(f"cannot use {self.directory}: {error.strerror}") from None
        try:
            with open(self.target, encoding="utf-8", newline="") as handle:
                self.text = handle.read()
        except FileNotFoundError:
            self.text = None
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "it is not UTF-8 text"
            raise EditError(f"cannot read {self.path}: {reason}") from None
        return self

    def __exit__(self, *exc: object) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the lock

    def save(self, after: str, *, dry_run: bool = False, keep_backup: bool = True) -> Change:
        """Replace the file's text with `after` (backed up unless `keep_backup` is
        False, atomically). A dry run refuses what the real run would refuse."""
        change = Change(self.path, self.text, after)
        if not change.changed:
            return change
        self._check_writable()
        if dry_run:
            return change
        backup = self.backup() if self.text is not None and keep_backup else None
        try:
            write_atomically(self.target, after.encode("utf-8"))
        except OSError as error:
            raise EditError(f"cannot write {self.path}: {error.strerror}") from None
        self.text = after
        return Change(self.path, change.before, after, backup)

    def remove(self, *, dry_run: bool = False) -> Change:
        """Delete the file (no backup: only files tokenjuice itself created go this way)."""
        change = Change(self.path, self.text, "", removed=True)
        self._check_writable()
        if not dry_run:
            try:
                os.unlink(self.target)
            except OSError as error:
                raise EditError(f"cannot remove {self.path}: {error.strerror}") from None
        return change

    def _check_writable(self) -> None:
        folder = self.directory
        while not os.path.exists(folder) and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)  # a dry run: the nearest folder install would create in
        for target, noun in ((self.target, "file"), (folder, "folder")):
            if paths.read_only(target):
                raise EditError(f"the {noun} {target} is read-only; make it writable and try again")

    def backup(self) -> str:
        first = self.target + ".bak"
        numbered = sorted(_numbered_backups(self.target))
        if not os.path.exists(first):
            candidate = first
        else:
            candidate = f"{self.target}.bak.{(numbered[-1][0] if numbered else 0) + 1}"
        with open(self.target, "rb") as source:
            original = source.read()
        mode = stat.S_IMODE(os.stat(self.target).st_mode)
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
            with os.fdopen(fd, "wb") as handle:
                handle.write(original)
        except OSError as error:
            raise EditError(f"cannot back up {self.path} to {candidate}: {error.strerror}") from None
        for _, old in numbered[: max(0, len(numbered) + 1 - KEEP_NUMBERED)]:
            try:
                os.unlink(old)
            except OSError:
                pass
        return candidate


def _numbered_backups(target: str) -> list[tuple[int, str]]:
    directory, name = os.path.split(target)
    prefix = name + ".bak."
    found = []
    try:
        entries = os.listdir(directory)
    except OSError:
        return []
    for entry in entries:
        if entry.startswith(prefix) and entry[len(prefix) :].isdigit():
            found.append((int(entry[len(prefix) :]), os.path.join(directory, entry)))
    return found
