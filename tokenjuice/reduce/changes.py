"""What changed, as units: a git status's paths (`unit = "path"`), a log's commits
(`"commit"`) and a diff's files (`"diff-file"`), each with the forms `units.fit` cuts
it to (reduce/units.py says how)."""

from __future__ import annotations

import bisect

from ..fast.lazyre import lazy
from ..text import clip_line, pluralize
from .lines import Encoded, Item, Omission, Whole
from .reencode import (
    brace_safe,
    braced_diff_line,
    paired_name_line,
)
from .unit import LINE_LIMIT, Parsed, Unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


#: A diff's changed line is content: clipped only past this many characters.
_CHANGE_LIMIT = 2000


_STATUS_SECTION = lazy(
    r"^(Changes to be committed|Changes not staged for commit|Untracked files|Unmerged paths"
    r"|Ignored files):$"
)
_STATUS_ENTRY = lazy(r"^\t(?:(?P<state>[a-z][a-z ]+):\s+)?(?P<path>\S.*)$")
_SHORT_STATUS = lazy(r"^(?P<xy>[ MADRCUT?!]{2}) (?P<path>\S.*)$")
_CONFLICTS = (
    "both modified",
    "both added",
    "both deleted",
    "added by us",
    "added by them",
    "deleted by us",
    "deleted by them",
    "conflicted",
)
_SHORT_STATES = {
    "M": "modified",
    "A": "new file",
    "D": "deleted",
    "R": "renamed",
    "C": "copied",
    "U": "conflicted",
    "T": "type changed",
    "?": "untracked",
    "!": "ignored",
}


def parse_paths(lines: list[str]) -> Parsed:
    """git status (long or short): every path is a unit, grouped by its state in its
    section (staged, not staged, untracked; in short form its two state letters)."""
    parsed: Parsed = []
    section = ""
    for line in lines:
        heading = _STATUS_SECTION.match(line)
        if heading:
            section = heading.group(1)
            parsed.append(line)
            continue
        entry = _STATUS_ENTRY.match(line)
        short = None if entry else _SHORT_STATUS.match(line)
        if entry:
            group = entry.group("state") or ("untracked" if section.startswith("Untracked") else section.lower())
            where = section
        elif short:
            where = short.group("xy")  # staged (`M `) and not (` M`) are apart, as the sections are
            xy = where.strip()
            group = _SHORT_STATES.get(xy[:1], xy)
        else:
            parsed.append(line)
            continue
        # Untracked files are often the agent's own new files: they matter as much as changes.
        priority = 3 if group in _CONFLICTS else 1 if group == "ignored" else 2
        found = entry or short
        assert found is not None
        path = found.group("path")
        folder, _, name = path.rstrip("/").rpartition("/")
        name += "/" if path.endswith("/") else ""
        prefix = line[: found.start("path")] + (folder + "/" if folder else "")
        joinable = " -> " not in path and brace_safe(name)
        joins = prefix if joinable else ""
        lossless: tuple[Item, ...] = (Encoded(name + ",", 1),) if joinable else ()
        parsed.append(
            Unit(
                "path",
                group,
                (line,),
                (line,),
                priority=priority,
                lossless=lossless,
                joins=joins,
                folder=folder + "/" if folder else "",
                section=where,
            )
        )
    return parsed


#: A commit's first line: git's `commit <hash>`, or a git MCP server's `Commit: <hash>`
#: (its `git_log` result: `Author:`, `Date:` and `Message: <subject>` under it).
_COMMIT = lazy(r"^(?:commit |Commit: )(?P<hash>[0-9a-f]{7,64})\b")
_ONELINE = lazy(r"^(?:[*|\\/ ]+ )?[0-9a-f]{7,40} ")


def parse_commits(lines: list[str]) -> Parsed:
    """git log (plain, --stat, -p) and one-line logs: every commit is a unit; its
    short form is its short hash and subject. With patches (-p) a commit's header is a
    unit whose `commit` and subject lines matter more than its files (its author,
    date and message body are worth least), and each file of its patch is a unit of
    its own (`_file_unit`), so that the room is shared evenly between the files of
    every commit."""
    parsed: Parsed = []
    current: list[str] = []
    patches = any(_DIFF_HEADER.match(line) or _headerless_file(lines, k) for k, line in enumerate(lines))

    def close() -> None:
        if not current:
            return
        first = _COMMIT.match(current[0])
        at = next((k for k, line in enumerate(current) if k and line.startswith("    ") and line.strip()), None)
        subject = current[at].strip() if at is not None else ""
        short: tuple[str, ...] = (f"{first.group('hash')[:10]} {subject}" if first and subject else current[0],)
        said = next((line for line in current[1:8] if line.startswith("Message: ")), None)
        if current[0].startswith("Commit: ") and said is not None:  # a git MCP server's: its lines as it said them
            short = (current[0], said)
        patch = next(
            (k for k, line in enumerate(current) if _DIFF_HEADER.match(line) or _headerless_file(current, k)),
            len(current),
        )
        note = "beyond their hash and subject"
        if patches:
            # Its hash and subject matter more than any file; its author, date and
            # message body are worth least (they go with the files' context lines).
            # Named even at its shortest: its files' markers need it.
            header = tuple(current[:patch])
            named = (current[0], current[at]) if at is not None and at < patch else (current[0],)
            parsed.append(
                Unit(
                    "commit",
                    "",
                    header,
                    named,
                    short,
                    2,
                    short_note=note,
                    minimal_note=note,
                    trimmed=named if len(named) < len(header) else (),
                    trimmed_note="(author, date and message body)",
                )
            )
            parsed.extend(parse_diff_files(current[patch:]))
        else:
            parsed.append(Unit("commit", "", tuple(current), short, short_note=note))
        current.clear()

    for line in lines:
        if _COMMIT.match(line):
            close()
            current.append(line)
        elif current:
            current.append(line)
        elif _ONELINE.match(line):
            parsed.append(Unit("commit", "", (line,), (line,)))
        else:
            parsed.append(line)
    close()
    return parsed


_DIFF_HEADER = lazy(r"^diff --(?:git|cc|combined) ")
_FILE_META = lazy(
    r"^(?:index |--- |\+\+\+ |(?:old|new|deleted file|new file) mode |(?:dis)?similarity index "
    r"|rename |copy |Binary files )"
)


def parse_diff_files(lines: list[str]) -> Parsed:
    """git diff / show / log -p, and unified diffs without a `diff --git` line (`diff -u`,
    a git MCP server's `git_show`: a file starts at its `--- ` and `+++ ` pair): every file
    is a unit; its short form keeps the file and hunk headers and counts the changed
    lines of each hunk."""
    parsed: Parsed = []
    current: list[str] = []
    hunks = False  # has the current file reached its hunks?

    def close() -> None:
        if current:
            parsed.append(_file_unit(current))
            current.clear()

    for k, line in enumerate(lines):
        headerless = (not current or hunks) and _headerless_file(lines, k)
        if _DIFF_HEADER.match(line) or headerless or (_COMMIT.match(line) and current):
            close()
            hunks = False
            if _COMMIT.match(line):
                parsed.append(line)
                continue
        if current or _DIFF_HEADER.match(line) or headerless:
            current.append(line)
            hunks = hunks or line.startswith("@@")
        else:
            parsed.append(line)
    close()
    return parsed


def _headerless_file(lines: list[str], k: int) -> bool:
    """Does a file of a unified diff without a `diff --git` line start at line `k`
    (`--- a/P`, then `+++ b/P`, then a hunk)?"""
    return (
        lines[k].startswith("--- ")
        and k + 2 < len(lines)
        and lines[k + 1].startswith("+++ ")
        and lines[k + 2].startswith("@@")
    )


#: Header lines a diff file's short form keeps: what changed about the file itself.
_FILE_STATE = lazy(
    r"^(?:diff --|(?:old|new|deleted file|new file) mode |(?:dis)?similarity index |rename |copy |Binary files )"
)


def _file_unit(lines: list[str]) -> Unit:
    """One file of a diff. The budget goes to what the agent acts on: its changed
    lines first, then the file they belong to, then hunk headers, then context. So
    the forms, from whole to least: without context lines (`trimmed`), without hunk
    headers too (`short`: the file's lines and its changed lines), shown in part when
    even those do not fit (`lead` the file's lines, then the first of `body`, its
    changed lines, with their hunk headers where room is left: every file its first
    changes and a count of the rest), one marker naming the file and counting its
    hunks (`minimal`)."""
    # a combined diff (`diff --cc`) marks a changed line in one column per parent
    columns = 2 if lines[0].startswith(("diff --cc ", "diff --combined ")) else 1
    full: list[Item] = []
    lead: list[Item] = []
    body: list[Item] = []
    heads: list[int] = []
    runs: list[list[int]] = []  # runs of changed lines (their places in `body`)
    trimmed: list[Item] = []
    added = removed = context = hunks = 0
    in_hunk = run = False
    state = _diff_state(lines)
    for line in lines:
        if line.startswith("@@"):
            in_hunk, run = True, False
            hunks += 1
            full.append(clip_line(line, LINE_LIMIT))
            trimmed.append(full[-1])
            if state != " (new file)":  # a new file's only hunk header says nothing its count does not
                heads.append(len(body))
                body.append(full[-1])
        elif not in_hunk:
            full.append(clip_line(line, LINE_LIMIT))
            trimmed.append(full[-1])
            if _FILE_STATE.match(line):
                lead.append(full[-1])
        elif "+" in line[:columns] or "-" in line[:columns]:
            # a changed line is content: whole up to a generous cap, counted in the room as it is
            full.append(Whole(line) if LINE_LIMIT < len(line) <= _CHANGE_LIMIT else clip_line(line, _CHANGE_LIMIT))
            # a removed line after an added one starts another change (a blank context line between went)
            if not run or ("-" in line[:columns] and "+" in str(body[-1])[:columns]):
                runs.append([])
            run = True
            runs[-1].append(len(body))
            body.append(full[-1])
            trimmed.append(full[-1])
            added += "+" in line[:columns]
            removed += "-" in line[:columns] and "+" not in line[:columns]
        else:
            full.append(clip_line(line, LINE_LIMIT))
            run = False
            context += 1
    # Cut at all, a file is said once: `diff --git {a,b}/P` (reencode.py reads it back).
    braced = braced_diff_line(lines[0])
    if braced:
        said = Encoded(braced, 1)
        for form in (lead, trimmed):
            form[0] = said
    named = full[:2] if not lead and str(full[0]).startswith("--- ") else []
    # a file without a `diff --git` line is named by its `---` and `+++` lines: once when
    # they name one path (`{--- a,+++ b}/P`), as a `diff --git` line names it
    paired = paired_name_line(*map(str, named)) if len(named) == 2 else None
    if paired:
        said = Encoded(paired, 2)
        lead.append(said)
        trimmed[:2] = [said]
    elif not lead:
        lead.extend(named or full[:1])
    changes = f"{pluralize(hunks, 'hunk')} (+{added} -{removed})" if hunks else pluralize(len(lines), "line")
    path = _diff_path(lines)
    # Even its minimal form names the file: a diff never loses a file header unnamed.
    minimal: tuple[Item, ...] = (Omission(len(lines), f"{path}{state}: {changes}"),)
    if not hunks and state not in (" (deleted)", " (new file)"):  # renamed, its mode changed, binary: said in its lines
        minimal = _state_lines(lead)
    # A deleted file's lines are what it was: its name and its count say what changed.
    deleted = state == " (deleted)"
    shown = () if deleted else tuple(body)
    changed = tuple(line for k, line in enumerate(shown) if k not in heads)
    order, breaks = _change_order(body, runs, heads, columns)
    return Unit(
        "file",
        "",
        tuple(full),
        tuple(lead) + changed,
        minimal,
        priority=0 if deleted else 1,
        lossless=(lead[0], *full[1:]) if braced else (lead[0], *full[2:]) if paired else (),
        trimmed=tuple(trimmed) if context else (),
        short_note="beyond their changed lines",
        minimal_note="beyond what changed about them",
        trimmed_note="(context lines)",
        body=shown,
        breaks=None if deleted else breaks,
        order=() if deleted else order,
        lead=tuple(lead),
        more="{n} more changed line{s}",
        heads=frozenset(heads),
    )


def _state_lines(lead: list[Item]) -> tuple[Item, ...]:
    """What changed about a file without hunks (renamed, its mode changed, a binary
    file), as few of its lines as say it: not its similarity, and its `diff --git`
    line only when no other line names it."""
    said = [line for line in lead if not str(line).startswith(("similarity index", "dissimilarity index"))]
    if any(str(line).startswith(("rename to ", "copy to ", "Binary files ")) for line in said[1:]):
        said = said[1:]
    return tuple(said)


def _change_order(
    body: list[Item], runs: list[list[int]], heads: list[int], columns: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The order a diff file's changed lines are shown in when it is shown in part, and
    where that order may be cut (`Unit.order`, `Unit.breaks`). Change by change, each
    change's removed lines and the added lines that replace them alternate (the first
    removed, the first added, the second removed…): a cut keeps the first line of each
    side. So does the file: where its first change only adds lines (or only removes
    them), the first change that removes (or adds) shows its first lines right after
    the first change's first ones. Changes that say nothing new (each of their lines
    blank, or moved within the file: removed in one place and added as it was in
    another; not looked for in a combined diff) come after every other change. A
    hunk's header comes right before the first of its lines in that order. Never cut
    between a change's first removed line and its first added line, right after a hunk
    header, or where the lines left out before a shown one would take no more than half
    again the room of their marker (a cut that saves that little is not worth a line)."""
    marker = len("... 9 more changed lines omitted ...") + 1
    slack = marker + marker // 2
    changes: list[tuple[list[int], Sequence[int]]] = []  # each change's lines in order, and where it may be cut
    hunks: list[int] = []  # each change's hunk header (-1: none)
    under = 0
    for change in runs:
        while under < len(heads) and heads[under] < change[0]:
            under += 1
        hunks.append(heads[under - 1] if under else -1)
        marks = [str(body[k])[:columns] for k in change]
        removed = [k for k, mark in zip(change, marks, strict=True) if "-" in mark and "+" not in mark]
        added = change[len(removed) :]
        if not removed or not added:  # lines added or lines removed only: in order, cut anywhere
            changes.append((change, range(1, len(change) + 1)))
            continue
        if removed != change[: len(removed)]:  # not the removed lines, then the added ones: as they are
            paired = {k for k in range(1, len(change)) if change[k - 1] in removed and change[k] not in removed}
            changes.append((change, [k for k in range(1, len(change) + 1) if k not in paired]))
            continue
        # what the removed lines from each on take: left out before a shown added line
        after = [0] * (len(removed) + 1)
        for k in reversed(range(len(removed))):
            after[k] = after[k + 1] + len(body[removed[k]]) + 1
        seq: list[int] = []
        cuts: list[int] = []
        for k in range(max(len(removed), len(added))):
            for line in removed[k : k + 1] + added[k : k + 1]:
                seq.append(line)
                if line == removed[0]:
                    continue  # the first removed line, not without the first added one
                if not 0 < after[min(k + 1, len(removed))] <= slack:
                    cuts.append(len(seq))
        changes.append((seq, cuts))

    def opening(change: int) -> int:
        """How many of a change's lines come first: up to its first cut that leaves
        more than a marker's worth of it."""
        seq, cuts = changes[change]
        rest = sum(len(body[k]) + 1 for k in seq)
        done = 0
        for cut in cuts:
            rest -= sum(len(body[k]) + 1 for k in seq[done:cut])
            done = cut
            if rest > slack:
                return cut
        return len(seq)

    def sides(change: int) -> set[str]:
        return {"-" if "+" not in str(body[k])[:columns] else "+" for k in changes[change][0][: opening(change)]}

    stale = [False] * len(runs)
    if len(runs) > 1 and columns == 1:  # the changes that say something new first
        lines = set(map(str, body))

        def said(change: list[int]) -> bool:
            """Is each line of the change blank, or found with the other mark (moved)?"""
            for k in change:
                text = str(body[k])
                if text[1:].strip() and ("+" if text[0] == "-" else "-") + text[1:] not in lines:
                    return False
            return True

        stale = list(map(said, runs))
    ranked = sorted(range(len(runs)), key=stale.__getitem__)
    lead = ranked[:1]
    missing = {"-", "+"} - sides(ranked[0]) if len(ranked) > 1 and not stale[ranked[0]] else set()
    if missing:
        lead += next(([c] for c in ranked[1:] if not stale[c] and missing & sides(c)), [])
    order: list[int] = []
    breaks: list[int] = []
    placed = {-1}

    def place(change: int, low: int, high: int) -> None:
        seq, cuts = changes[change]
        if hunks[change] not in placed:  # its hunk's header, never shown without a line under it
            placed.add(hunks[change])
            order.append(hunks[change])
        order.extend(seq[low:high])
        if low or high < len(seq):
            cuts = cuts[bisect.bisect(cuts, low) : bisect.bisect(cuts, high)]
        breaks.extend(map((len(order) - high).__add__, cuts))

    openings = {c: opening(c) if len(lead) > 1 else len(changes[c][0]) for c in lead}
    for c in lead:
        place(c, 0, openings[c])
    for c in lead:
        place(c, openings[c], len(changes[c][0]))
    for c in ranked:  # the others whole, one after the other
        if c not in openings:
            place(c, 0, len(changes[c][0]))
    placed.update(order)
    order += [k for k in range(len(body)) if k not in placed]
    return tuple(order), tuple(breaks)


def _diff_path(lines: list[str]) -> str:
    """The file a diff is about: `diff --git a/P b/P` gives P (whatever the prefixes,
    or none), a rename `old -> new`, `diff --cc P` P."""
    renamed = [line.split(" ", 2)[2] for line in lines[1:8] if line.startswith(("rename from ", "rename to "))]
    if len(renamed) == 2:
        return f"{renamed[0]} -> {renamed[1]}"
    if lines[0].startswith("--- ") and len(lines) > 1:  # `+++ b/P` (the old name if deleted)
        named = lines[1][4:] if lines[1][4:] != "/dev/null" else lines[0][4:]
        named = named.split("\t", 1)[0]
        return named[2:] if named[1:2] == "/" and named[:1] in "ab" else named
    names = lines[0].split(" ", 2)[2] if lines[0].count(" ") >= 2 else lines[0]
    if not lines[0].startswith("diff --git "):
        return names
    half = (len(names) - 1) // 2
    left, right = names[:half], names[half + 1 :]
    if len(names) % 2 and names[half] == " ":
        if left == right:
            return left
        if left[1:2] == right[1:2] == "/" and left[2:] == right[2:]:
            return left[2:]
    return names


def _diff_state(lines: list[str]) -> str:
    for line in lines[1:8]:
        if line.startswith("new file mode"):
            return " (new file)"
        if line.startswith("deleted file mode"):
            return " (deleted)"
        if line.startswith("Binary files "):
            return " (binary)"
        if line.startswith("old mode "):
            return " (mode change)"
    return ""
