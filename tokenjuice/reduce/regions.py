"""Regions of an output recognised by their content (a diff, commits, search matches,
a listing, test output), for compound and unknown commands: each region is parsed as
the rule of its kind would parse it."""

from __future__ import annotations

import re

from ..fast.lazyre import lazy
from . import changes, listings, matches, testruns
from .unit import Parsed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


# -- regions: structure by content, for compound and unknown commands ---------------------

#: What starts a region of a kind, and what may continue it (a line that does not ends it).
_REGION_START_SOURCES = (
    ("diff", r"diff --(?:git|cc|combined) |--- [^\n]+\n\+\+\+ [^\n]+\n@@ "),
    ("commits", r"commit [0-9a-f]{7,64}\b"),
    (
        "status",
        r"(?:On branch \S|HEAD detached at |Changes to be committed:$|Changes not staged for commit:$"
        r"|Untracked files:$)",
    ),
    ("tests", r"=+ (?:test session starts|FAILURES|ERRORS) =+$"),
    ("matches", r"[^\s:\n]+:\d+(?::\d+)?:"),
    # a listing of paths (find, a host tool's file search): three lines of one path each
    ("paths", r"[^\s:\n]*[^\s:\n/]/[^\s:\n]+(?:\n[^\s:\n]*[^\s:\n/]/[^\s:\n]+){2}$"),
)
#: Where any region may start, found in one pass over the whole text (a 2-million-line
#: flood costs one search, not five matches per line).
_REGION_START = lazy("|".join(f"^(?P<{name}>{source})" for name, source in _REGION_START_SOURCES), re.MULTILINE)
_SEARCH_LINE = lazy(r"^[^\s:]+:\d+(?::\d+)?:")
_REGION_GOES_ON: dict[str, re.Pattern[str]] = {
    "diff": lazy(
        r"^(?:[ +\-@\\]|diff --|index |--- |\+\+\+ |(?:old|new|deleted file|new file) mode |(?:dis)?similarity index "
        r"|rename |copy |Binary files |$)"
    ),
    "commits": lazy(
        r"^(?:commit [0-9a-f]{7,64}\b|Author:|AuthorDate:|Commit:|CommitDate:|Date:|Merge:|    |\s*$| \S.*\|)"
    ),
    "status": lazy(
        r"^(?:\t|  \(|On branch |Your branch |HEAD detached |Changes |Untracked files:|Unmerged paths:|no changes added"
        r"|nothing (?:to commit|added)|\s*$)"
    ),
    "tests": lazy(r"^(?!=+ .*\b(?:passed|failed|errors?|no tests ran)\b.* =+$)"),
    "matches": lazy(r"^(?:[^\s:]+:\d+(?::\d+)?:|[^\s:]+-\d+-|--$)"),
    "paths": lazy(r"^[^\s:]*[^\s:/]/[^\s:]+$"),
}
_REGION_PARSERS: dict[str, Callable[[list[str]], Parsed]] = {
    "diff": changes.parse_diff_files,
    "commits": changes.parse_commits,
    "status": changes.parse_paths,
    "tests": testruns.parse,
    "matches": matches.parse,
    "paths": lambda lines: listings.parse(lines) if _grouped(lines) else list(lines),
}


def _grouped(paths: list[str]) -> bool:
    """Do the paths of a listing share their folders (two a folder at least, on
    average)? Folders of one path each would name every path past the budget."""
    return len({path.rsplit("/", 1)[0] for path in paths}) * 2 <= len(paths)


def _spans(lines: list[str]) -> list[tuple[str, int, int]]:
    """(kind, start, end) of each region recognised by its content."""
    spans: list[tuple[str, int, int]] = []
    count = len(lines)
    text = "\n".join(lines)
    position = 0  # the first line not yet in a region
    line_of = 0  # the line the last found offset is on
    offset = 0
    for found in _REGION_START.finditer(text):
        line_of += text.count("\n", offset, found.start())
        offset = found.start()
        start = line_of
        if start < position:
            continue  # inside the region before
        kind = found.lastgroup or ""
        if kind == "matches" and not (start + 1 < count and _SEARCH_LINE.match(lines[start + 1])):
            continue  # one `path:12:` line is not a search's output
        end = start + 1
        goes_on = _REGION_GOES_ON[kind]
        while end < count and goes_on.match(lines[end]):
            end += 1
        if kind == "tests" and end < count:
            end += 1  # the closing `=== 2 failed, 3 passed in 0.1s ===` line belongs to the session
        spans.append((kind, start, end))
        position = end
    return spans


#: The noise each kind of region carries, by the noise kinds rules name (reduce/noise.py).
_REGION_NOISE = {"status": ("git-advice",), "diff": ("diff-index", "diff-names"), "tests": ("pytest-header",)}


def region_noise(lines: list[str]) -> set[int]:
    """Lines of the regions recognised in a compound command's output that are noise
    for their kind (git's advice in a git status, blob ids in a diff)."""
    from ..rules.patterns import Lines
    from . import noise

    dropped: set[int] = set()
    for kind, start, end in _spans(lines):
        kinds = _REGION_NOISE.get(kind)
        if not kinds:
            continue
        if kind not in _REGION_NOISE_PATTERNS:  # one alternation per kind, compiled once
            _REGION_NOISE_PATTERNS[kind] = re.compile("|".join(f"(?:{p})" for p in noise.patterns(kinds)))
        search = _REGION_NOISE_PATTERNS[kind].search
        dropped |= {k for k in range(start, end) if search(lines[k])}
        dropped |= {start + k for k in noise.structural(kinds, Lines(lines[start:end]))}
    return dropped


_REGION_NOISE_PATTERNS: dict[str, re.Pattern[str]] = {}


def regions(lines: list[str]) -> tuple[Parsed, tuple[tuple[str, int], ...]]:
    """Split an output made of several tools' outputs (`git status && git log -n 5`,
    `grep -c x f; git diff`) into regions recognised by their content — diffs, commit
    logs, git status, test sessions, search matches, listings of paths — each parsed into its units;
    other lines stay loose. Returns the parsed output and (kind, lines) per region."""
    parsed: Parsed = []
    found: list[tuple[str, int]] = []
    position = 0
    spans: list[tuple[str, int, int]] = []
    for kind, start, end in _spans(lines):
        if kind == "diff" and spans and spans[-1][0] == "commits" and spans[-1][2] == start:
            spans[-1] = ("commits", spans[-1][1], end)  # a commit and its patch (`git show` by a tool): one log
        else:
            spans.append((kind, start, end))
    for kind, start, end in spans:
        parsed.extend(lines[position:start])
        parsed.extend(_REGION_PARSERS[kind](lines[start:end]))
        found.append((kind, end - start))
        position = end
    parsed.extend(lines[position:])
    return parsed, tuple(found)
