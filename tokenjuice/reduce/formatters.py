"""Formatters: structure-aware steps a rule can opt into with `formatter = "…"`.

Each takes the filtered lines and returns body items (lines and omissions), any
extra facts, and an optional note for the trailer. They only cut, clip and count;
`gh` alone re-shapes JSON, using nothing but the keys and values it finds.
"""

from __future__ import annotations

import re

from ..text import clip_line
from .gh import gh
from .lines import Omission

DIFF_CHANGES_PER_HUNK = 12
DIFF_LINE_LIMIT = 260
SEARCH_MATCHES_PER_FILE = 5
SEARCH_LINE_LIMIT = 300

# `path:12:text`, `path:12:3:text`, `path-12-context`, `path:text` where path has a / or .
_SEARCH_PREFIX = re.compile(r"^([^\s:]*[/.][^\s:]*?)(?::\d+(?::\d+)?:|-\d+-|:)")


def git_diff(lines: list[str]) -> tuple[list, dict, None]:
    """Keep every file and hunk header; within a hunk keep the first changed lines
    and replace the rest with one count of added and removed lines."""
    items: list = []
    added = removed = changed = 0

    def flush() -> None:
        nonlocal added, removed
        if added or removed:
            items.append(Omission(added + removed, f"hunk clipped: {added} added, {removed} removed lines"))
        added = removed = 0

    for line in lines:
        if line.startswith(("@@", "diff --git ")):
            flush()
            changed = 0
            items.append(line)
            continue
        is_added = line.startswith("+") and not line.startswith("+++")
        is_removed = line.startswith("-") and not line.startswith("---")
        if is_added or is_removed:
            changed += 1
            if changed > DIFF_CHANGES_PER_HUNK:
                added += is_added
                removed += is_removed
                continue
            line = clip_line(line, DIFF_LINE_LIMIT)
        items.append(line)
    flush()
    return items, {}, None


def search(lines: list[str]) -> tuple[list, dict, None]:
    """Group matches by file: a few per file, a count for the rest, long lines clipped."""
    items: list = []
    files: set[str] = set()
    current: str | None = None
    in_file = hidden = 0

    def flush() -> None:
        nonlocal hidden
        if hidden:
            noun = "match" if hidden == 1 else "matches"
            items.append(Omission(hidden, f"{hidden} more {noun} in {current}"))
        hidden = 0

    for line in lines:
        found = _SEARCH_PREFIX.match(line)
        path = found.group(1) if found else None
        if path != current:
            flush()
            current, in_file = path, 0
        if path is not None:
            files.add(path)
            in_file += 1
            if in_file > SEARCH_MATCHES_PER_FILE and line != "--":
                hidden += 1
                continue
        items.append(clip_line(line, SEARCH_LINE_LIMIT))
    flush()
    return items, ({"file": len(files)} if files else {}), None


FORMATTERS = {"git-diff": git_diff, "search": search, "gh": gh}
