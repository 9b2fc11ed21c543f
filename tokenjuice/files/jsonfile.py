"""Edit another tool's JSON settings file: refuse what we cannot fully understand,
change only the members we mean to change.

- A file that is not a JSON object, has duplicate keys or is empty is refused,
  never rewritten.
- Only the members that change are rewritten (`jsonedit`); every other byte of
  the file stays as it was. The edited text is parsed back and compared with the
  intended content before anything is written.
- Locking, symlinks, backups and the atomic write are `editfile.LockedFile`'s.
"""

from __future__ import annotations

import json

from . import jsonedit
from .editfile import Change, EditError, LockedFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    #: An edit of the loaded document: ("set", key path, value) or ("delete", key path).
    Edit = tuple[Any, ...]


class LockedJsonFile(LockedFile):
    """`with LockedJsonFile(path) as f: data = f.load({}); f.save_json(data, edits)`."""

    def __enter__(self) -> LockedJsonFile:
        super().__enter__()
        return self

    def load(self, default: dict[str, Any]) -> dict[str, Any]:
        """The file's top-level object (key order kept), or `default` if it is missing."""
        if self.text is None:
            return default
        return parse_object(self.text, self.path)

    def save_json(self, data: dict[str, Any], edits: list[Edit], *, dry_run: bool = False) -> Change:
        """Write `data`, the file's intended new content, produced from the loaded
        content by `edits`."""
        return self.save(self._edited(data, edits), dry_run=dry_run)

    def _edited(self, data: dict[str, Any], edits: list[Edit]) -> str:
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
        indent: int | str = unit if "\t" in unit else len(unit)
        return json.dumps(data, indent=indent, ensure_ascii=False) + ("\n" if newline else "")


def parse_object(text: str, path: str) -> dict[str, Any]:
    """A JSON settings file's top-level object; EditError names what is wrong."""
    if not text.strip():
        raise EditError(f"{path} is empty; delete it or give it {{}} and try again")
    try:
        data = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_refuse_duplicate_keys)
    except _DuplicateKey as error:
        raise EditError(
            f"{path} repeats the key {error} so part of it would be lost; merge the duplicates and try again"
        ) from None
    except (ValueError, RecursionError) as error:
        raise EditError(f"{path} is not valid JSON ({error}); fix or move it and try again") from None
    if not isinstance(data, dict):
        raise EditError(f"{path} does not hold a JSON object; fix or move it and try again")
    return data


def _same(a: object, b: object) -> bool:
    """Equal, including the order of object keys."""
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False)


class _DuplicateKey(ValueError):
    pass


def _refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [key for key, _ in pairs]
    for key in keys:
        if keys.count(key) > 1:
            raise _DuplicateKey(json.dumps(key))
    return dict(pairs)
