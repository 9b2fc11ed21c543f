"""Edit another tool's JSON settings file without ever corrupting or losing it.

- A file we cannot fully understand (invalid JSON, duplicate keys, not an object)
  is refused, never rewritten.
- Before a change, the original bytes are copied to `<file>.bak` (or the first free
  `.bak.N`: an older backup is never overwritten).
- The new content goes to a temporary file in the same directory, is fsynced and
  renamed over the original, so a crash leaves either the old or the new file.
- An exclusive lock on the directory serialises concurrent edits.
- Only the members that change are rewritten (`jsonedit`); every other byte of
  the file stays as it was. The edited text is parsed back and compared with the
  intended content before anything is written.
"""

from __future__ import annotations

import difflib
import fcntl
import json
import os
import stat

from . import jsonedit, paths
from .atomic import write_atomically
from .errors import UsageError


class JsonFileError(UsageError):
    """The file cannot be edited safely; the message says why and what to do."""


class Change:
    __slots__ = ("path", "before", "after", "backup")

    def __init__(self, path: str, before: str | None, after: str, backup: str | None) -> None:
        self.path = path
        self.before = before
        self.after = after
        self.backup = backup

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        before = (self.before or "").splitlines(keepends=True)
        after = self.after.splitlines(keepends=True)
        label = "/dev/null" if self.before is None else f"a/{os.path.basename(self.path)}"
        return "".join(difflib.unified_diff(before, after, label, f"b/{os.path.basename(self.path)}"))


class LockedJsonFile:
    """`with LockedJsonFile(path) as f: data = f.load(); f.save(new)`.

    With `create=False` (dry runs, doctor) a missing folder is not created.
    """

    def __init__(self, path: str, *, create: bool = True) -> None:
        self.path = os.path.abspath(path)
        self.directory = os.path.dirname(self.path)
        self.create = create
        self._lock_fd: int | None = None
        self.text: str | None = None

    def __enter__(self) -> "LockedJsonFile":
        if not self.create and not os.path.isdir(self.directory):
            return self
        try:
            os.makedirs(self.directory, exist_ok=True)
            self._lock_fd = os.open(self.directory, os.O_RDONLY)
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX)
        except OSError as error:
            raise JsonFileError(f"cannot use {self.directory}: {error.strerror}") from None
        try:
            with open(self.path, encoding="utf-8") as handle:
                self.text = handle.read()
        except FileNotFoundError:
            self.text = None
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or "it is not UTF-8 text"
            raise JsonFileError(f"cannot read {self.path}: {reason}") from None
        return self

    def __exit__(self, *exc) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing releases the lock

    def load(self, default: dict) -> dict:
        """The file's top-level object (key order kept), or `default` if it is missing."""
        if self.text is None:
            return default
        if not self.text.strip():
            raise JsonFileError(f"{self.path} is empty; delete it or give it {{}} and try again")
        try:
            data = json.loads(self.text, object_pairs_hook=_refuse_duplicate_keys)
        except _DuplicateKey as error:
            raise JsonFileError(f"{self.path} repeats the key {error} so part of it would be lost; "
                                "merge the duplicates and try again") from None
        except (ValueError, RecursionError) as error:
            raise JsonFileError(f"{self.path} is not valid JSON ({error}); fix or move it and try again") from None
        if not isinstance(data, dict):
            raise JsonFileError(f"{self.path} does not hold a JSON object; fix or move it and try again")
        return data

    def save(self, data: dict, edits: list[tuple], *, dry_run: bool = False) -> Change:
        """Write `data`, the file's intended new content, produced from the loaded
        content by `edits`: ("set", key path, value) or ("delete", key path)."""
        after = self._edited(data, edits)
        change = Change(self.path, self.text, after, None)
        if dry_run or not change.changed:
            return change
        self._check_writable()
        if self.text is not None:
            change.backup = self._backup()
        self._replace(after)
        self.text = after
        return change

    def _edited(self, data: dict, edits: list[tuple]) -> str:
        if self.text is not None:
            try:
                text = self.text
                for operation, path, *value in edits:
                    if operation == "set":
                        text = jsonedit.set_member(text, path, value[0])
                    else:
                        text = jsonedit.delete_member(text, path)
                if _same(json.loads(text), data):
                    return text
            except (ValueError, IndexError, StopIteration, RecursionError):
                pass  # fall back to writing the whole document
        unit = jsonedit.indent_unit(self.text) if self.text else "  "
        newline = self.text is None or self.text.endswith("\n")
        indent = unit if "\t" in unit else len(unit)
        return json.dumps(data, indent=indent, ensure_ascii=False) + ("\n" if newline else "")

    def _check_writable(self) -> None:
        for target, noun in ((self.path, "file"), (self.directory, "folder")):
            if paths.read_only(target):
                raise JsonFileError(f"the {noun} {target} is read-only; make it writable and try again")

    def _backup(self) -> str:
        candidate = self.path + ".bak"
        number = 0
        while os.path.exists(candidate):
            number += 1
            candidate = f"{self.path}.bak.{number}"
        with open(self.path, "rb") as source:
            original = source.read()
        mode = stat.S_IMODE(os.stat(self.path).st_mode)
        fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
        with os.fdopen(fd, "wb") as handle:
            handle.write(original)
        return candidate

    def _replace(self, text: str) -> None:
        try:
            write_atomically(self.path, text.encode("utf-8"))
        except OSError as error:
            raise JsonFileError(f"cannot write {self.path}: {error.strerror}") from None


def _same(a, b) -> bool:
    """Equal, including the order of object keys."""
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


class _DuplicateKey(ValueError):
    pass


def _refuse_duplicate_keys(pairs: list[tuple[str, object]]) -> dict:
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise _DuplicateKey(json.dumps(key))
    return dict(pairs)
