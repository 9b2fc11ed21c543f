"""A user's `hook.skip` patterns: globs over the command's text, or `[[tool]]` tables in the
catalogue's format read as the built-in entries are. Loaded only where `hook.skip` holds
something, so that the hook's common call (no patterns) never unmarshals it."""

from __future__ import annotations

from ..argv import basename
from ..syntax import join, star_match
from .engine import _check, _Context

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from .engine import Entry

__all__ = ["glob_match", "matches_user_pattern"]


def matches_user_pattern(command_text: str, argv: Sequence[str], patterns: Sequence[str | Entry]) -> str | None:
    """The first of the user's `hook.skip` glob patterns (`*` = any run of characters) that
    matches the whole command text, or the argv written back as a command line (also with
    the program's directory dropped). Case-sensitive; blank patterns never match.

    A pattern may also be a table in the catalogue's `[[tool]]` format (docs/never-wrapped.md):
    it matches when it decides the argv is not to be wrapped, read as the built-in entries are
    (wrappers and runners looked through), and its reason is returned. An invalid table never matches."""
    targets = [command_text.strip()]
    words = [w for w in argv if isinstance(w, str)]
    if words:
        targets.append(join(words))
        if basename(words[0]) != words[0]:
            targets.append(join([basename(words[0]), *words[1:]]))
    targets = [t for t in targets if t]
    for pattern in patterns:
        if isinstance(pattern, dict):
            entry = _user_entry(pattern)
            found = _check(words, _Context(), entry) if entry and words else None
            if found:
                return found[1]
            continue
        glob = pattern.strip() if isinstance(pattern, str) else ""
        if glob and any(glob_match(target, glob) for target in targets):
            return pattern  # as configured, surrounding blanks and all
    return None


_USER_ENTRIES: dict[str, Entry | None] = {}


def _user_entry(table: Entry) -> Entry | None:
    """A user's `[[tool]]` table as the engine reads it, validated once (None when invalid)."""
    key = repr(table)
    if key not in _USER_ENTRIES:
        from .schema import user_entry

        _USER_ENTRIES[key] = user_entry(table)
    return _USER_ENTRIES[key]


def glob_match(text: str, pattern: str) -> bool:
    """Does `pattern`, where `*` stands for any run of characters, match all of `text`?"""
    return star_match(text, pattern.split("*"))
