"""Formatters: structure-aware steps a rule can opt into with `formatter = "…"`.

Each takes the filtered lines and returns body items (lines and omissions), any
extra facts, and an optional note for the trailer. They only cut, clip and count;
`gh` alone re-shapes JSON, using nothing but the keys and values it finds.
"""

from __future__ import annotations

import re

from ..text import clip_line
from .lines import Item, Omission

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

DIFF_CHANGES_PER_HUNK = 12
DIFF_LINE_LIMIT = 260
SEARCH_MATCHES_PER_FILE = 5
SEARCH_LINE_LIMIT = 300

# `path:12:text`, `path:12:3:text`, `rev:path:12:text` (git grep in a tree), `path-12-context`
# (rg/grep -C), and `path:text` (no line numbers) where the path has a / or a dot.
# Compiled when the formatter runs, not by every wrap that imports this module.
_SEARCH_LOCATION = (r"^(\S+?):\d+(?::\d+)?:", r"^(\S+?)-\d+-", r"^([^\s:]*[/.][^\s:]*):")


def git_diff(lines: list[str]) -> tuple[list[Item], dict[str, int], None]:
    """Keep every file and hunk header; within a hunk keep the first changed lines.
    The rest of a hunk's changes become one marker, where the cut starts, counting
    the added and removed lines it stands for. Lines outside hunks are untouched."""
    items: list[Item] = []
    marker: Omission | None = None
    added = removed = changed = 0
    in_hunk = False

    for line in lines:
        if line.startswith(("@@", "diff --git ")):
            in_hunk = line.startswith("@@")
            marker, changed = None, 0
            items.append(line)
            continue
        is_added = line.startswith("+") and not line.startswith("+++")
        is_removed = line.startswith("-") and not line.startswith("---")
        if in_hunk and (is_added or is_removed):
            changed += 1
            if changed > DIFF_CHANGES_PER_HUNK:
                if marker is None:
                    marker = Omission(0)
                    added = removed = 0
                    items.append(marker)
                added += is_added
                removed += is_removed
                marker.count = added + removed
                marker.detail = f"hunk clipped: {added} added, {removed} removed lines"
                continue
            items.append(clip_line(line, DIFF_LINE_LIMIT))
            continue
        items.append(line)
    return items, {}, None


def search(lines: list[str]) -> tuple[list[Item], dict[str, int], None]:
    """Group results by file: the first lines of each file, a count for the rest,
    long lines clipped. `--` group separators stay with the file they are in."""
    items: list[Item] = []
    files: set[str] = set()
    current: str | None = None
    in_file = hidden = 0

    def flush() -> None:
        nonlocal hidden
        if hidden:
            items.append(Omission(hidden, f"{hidden} more line{'s' if hidden != 1 else ''} in {current}"))
        hidden = 0

    locations = [re.compile(pattern).match for pattern in _SEARCH_LOCATION]
    for line in lines:
        path = current if line == "--" else _search_path(line, locations)
        if path != current:
            flush()
            current, in_file = path, 0
        if path is not None:
            files.add(path)
            in_file += 1
            if in_file > SEARCH_MATCHES_PER_FILE:
                hidden += 1
                continue
        items.append(clip_line(line, SEARCH_LINE_LIMIT))
    flush()
    return items, ({"file": len(files)} if files else {}), None


def _search_path(line: str, locations: Sequence[Callable[[str], re.Match[str] | None]]) -> str | None:
    for match in locations:
        found = match(line)
        if found:
            return found.group(1)
    return None


def gh(lines: list[str]) -> tuple[list[Item], dict[str, int], str | None]:
    from .gh import gh as records  # json is only loaded for rules that need it

    return records(lines)


FORMATTERS = {"git-diff": git_diff, "search": search, "gh": gh}
