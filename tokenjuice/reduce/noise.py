"""Noise many tools share, declared once and named by rules (`filters.noise`).

A rule that names a kind here drops its lines like its own skip patterns, so the
same regexes are not copied into every rule that can see them. `compiler-notes`
is not a pattern: a `note:` line is noise only when it follows the first note of
a diagnostic already shown.
"""

from __future__ import annotations

import re

#: kind -> skip patterns (stdlib `re` syntax; built-in, trusted).
PATTERNS: dict[str, tuple[str, ...]] = {
    # git's hints in status, merge, rebase and commit output
    "git-advice": (
        r'^\s*\(use "git [^)]*\)$',
        r"^\s*\((?:commit or discard|fix conflicts and run|all conflicts fixed)[^)]*\)$",
        r'^hint: (?:Use|Disable this message|See "git help|You can (?:also )?(?:use|run)|and then use|After resolving)',
        r"^no changes added to commit \(use",
    ),
    # npm's request log and timing lines (--loglevel http/timing/verbose)
    "npm-chatter": (
        r"^npm (?:http fetch|timing|sill|verb|info (?:using|ok|run)) ",
        r"^npm notice\s*$",
    ),
    # pip re-checking what is installed
    "pip-satisfied": (r"^Requirement already satisfied: ",),
    # pytest's session header: versions, rootdir, configuration and plugins
    "pytest-header": (
        r"^platform \S+ -- Python \d",
        r"^(?:rootdir|configfile|testpaths|plugins|cachedir|hypothesis profile|asyncio|benchmark): ",
        r"^(?:INFO|DEBUG)\s+\S+:\S+:\d+ ",
    ),
    # blob ids of a diff: `index 0daeb4a..3e0219d 100644`
    "diff-index": (r"^index [0-9a-f]+(?:,[0-9a-f]+)*\.\.[0-9a-f]+(?: \d{6})?$",),
    # downloads and transfer progress
    "download-progress": (
        r"^\s*(?:Downloading|Downloaded|Fetching|Fetched|Progress:)\b.*(?:\d+(?:\.\d+)?\s*[kKMG]i?B|\d+%)",
        r"^\s*[|/\\-]?\s*\[?[#=>.\s-]{10,}\]?\s*\d+%",
    ),
}
COMPILER_NOTE = re.compile(r"^\S+?:\d+(?::\d+)?: note: ")
_DIAGNOSTIC = re.compile(r"^\S+?:\d+(?::\d+)?: (?:warning|error|fatal error): ")


def patterns(kinds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(pattern for kind in kinds for pattern in PATTERNS.get(kind, ()))


def repeated_notes(lines: list[str]) -> set[int]:
    """gcc/clang `note:` lines after the first note of the diagnostic above them."""
    dropped: set[int] = set()
    notes_seen = -1  # -1: no diagnostic yet
    for index, line in enumerate(lines):
        if _DIAGNOSTIC.match(line):
            notes_seen = 0
        elif COMPILER_NOTE.match(line) and notes_seen >= 0:
            notes_seen += 1
            if notes_seen > 1:
                dropped.add(index)
    return dropped
