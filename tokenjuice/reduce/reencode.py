"""Lossless re-encodings, and reading them back.

The reduction may show content in a shorter form that loses no fact (reduce/units.py
makes them): grep's path said once per file (`path:` then `  12:text`), a folder's
entries or git status paths in one brace list (`src/api/{a.py,b.py}`), a diff's
`diff --git a/P b/P` with its path said once (`diff --git {a,b}/P`), and a diff
without such lines its `--- a/P` and `+++ b/P` (`{--- a,+++ b}/P`), log records
said again but for one word on one line with that word's values in a brace list
(`Jan 30 {14:55:04,14:56:00} host kernel: …`, reduce/records.py), a file's findings
that say the same at several places on one line under its path (`  {108:4,116:4}: C0116: …`,
reduce/units.py) and under one heading a `-->` line per file (`  --> src/a.py:{12:5,40:1}`,
reduce/findings.py), terminal padding and drawn rules
shortened (`squeeze`). `decoded` spells a shown text back out as the tool
printed it, so that `verify`, the example checks, the preservation guard and the
scenario scorer find a fact whichever form shows it.
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from .lines import CLIP, RULE_MARKS, RULED, Encoded, Item, Omission, Pinned

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from re import Match

#: A lossless form is taken for an output that fits its budget only when it saves at
#: least this share of it and this many characters (less is not worth decoding).
LOSSLESS_SHARE = 0.1
LOSSLESS_CHARS = 500


def worth_it(saved: int, size: int) -> bool:
    """Does a lossless form that saves `saved` of `size` characters save enough to be
    worth reading (LOSSLESS_SHARE of it, and LOSSLESS_CHARS)?"""
    return saved >= max(LOSSLESS_CHARS, size * LOSSLESS_SHARE)


#: The widest line a brace list makes: a longer list goes on several lines, each with the
#: same prefix and end. 1,000 characters are at most 2,000 UTF-16 units, the longest line
#: Gemini CLI's read_file shows uncut (any character), and a line a reader still takes in
#: whole; the prefix said again costs a few per cent of such a line.
BRACE_WIDTH = 1000
#: Three or more spaces inside a line: terminal padding, shown as two.
_PADDING = lazy(r"(?<=[^ \t]) {3,}(?=[^ \t])")  # between any two characters but blanks (controls too)
#: A rule drawn to the terminal's width (`lines.RULED`) is shown three wide. A table's
#: border between junctions (`+------+----+`, `-----+-----`) is left as drawn: its
#: columns line up with the rows'.
_JUNCTIONS = frozenset("+|┼┬┴├┤")


def _ruled(found: Match[str]) -> str:
    start, end, line = found.start(), found.end(), found.string
    if (start and line[start - 1] in _JUNCTIONS) or (end < len(line) and line[end] in _JUNCTIONS):
        return found.group()
    return found.group(1) * 3


_RULES = tuple(mark * 8 for mark in RULE_MARKS)  # the shortest of each, found with `in`


#: A line whose spaces place something under a column of the line above: a source
#: excerpt behind its gutter (`24 |     Stock {`), a caret line (`   |     ^^^^^`),
#: pytest's failing line and explanation (`>       assert x`, `E       assert 1 == 2`).
_ALIGNED = lazy(r"^\s*(?:\d+\s*)?[|│┃]|[\^~]{2,}|\s\^(?:\s|$)|^[>E] {2,}")


def _table_row(line: str) -> bool:
    """Is `line` a row of a drawn table, though it starts as a source excerpt's gutter
    does (psql's `   1 | Customer 001 | FR      |      4`, sqlite3's `│ mazda glc   │ 46.6 │`)?
    Three cell separators or more (an excerpt has its gutter's one); a box-drawn row
    also ends with its border."""
    core = line.strip()
    if core[:1] == "│":
        return core[-1:] == "│" and core.count("│") >= 3
    return line.count(" | ") >= 3


def squeeze(item: Item, aligned_too: bool = False) -> Item:
    """`item` with its padding shortened (runs of three spaces or more between words
    become two: columns stay apart, nothing is lost) and its drawn rules (eight or more
    `_`, `=`, `-`, box lines) shown three wide; markers, and lines
    whose spaces align them with the line above (source excerpts, carets, but not a
    table's rows), unchanged; `aligned_too` shortens those too (a piece of a line looked
    for, which may be a piece of a table's row)."""
    if isinstance(item, Omission):
        return item
    padded, ruled = "   " in item.strip(), any(rule in item for rule in _RULES)
    if not (padded or ruled) or (not aligned_too and _ALIGNED.search(item) and not _table_row(item)):
        return item
    squeezed = _PADDING.sub("  ", item) if padded else item
    squeezed = RULED.sub(_ruled, squeezed) if ruled else squeezed
    if squeezed == item:
        return item
    return Pinned(squeezed) if isinstance(item, Pinned) else squeezed


#: What a line `squeeze` may shorten holds (found in C by `squeezed` over all lines at once).
_SQUEEZE_HINTS = ("   ", *_RULES)


def squeezed(items: Sequence[Item]) -> tuple[Item, ...]:
    """`items`, each `squeeze`d but a line already clipped (its ends as printed, for
    `verify`): the lines with nothing to shorten are found with `str.find` over the
    text of all of them, and left as they are."""
    from ..text import holding

    texts = [item if isinstance(item, str) else "" for item in items]  # a marker keeps its place
    shortened = list(items)
    rows = False  # a table's rows shortened: its borders line up with nothing any more
    for index in holding("\n".join(texts), _SQUEEZE_HINTS):
        if not CLIP.search(texts[index]):  # a line clipped in its middle is shown as the tool printed it
            shortened[index] = squeeze(shortened[index])
            rows = rows or (shortened[index] is not items[index] and _table_row(texts[index]))
    if rows:
        for index, text in enumerate(texts):
            if _BORDER.match(text) and (short := bordered(text)) != text:
                shortened[index] = Pinned(short) if isinstance(items[index], Pinned) else short
    return tuple(shortened)


#: A table's border between its junctions (`------+------`, `├─────┼─────┤`): drawn
#: characters only, a run of eight or more among them.
_BORDER = lazy(r"^\s*[-─═+|│┌┐└┘├┤┬┴┼╞╡╪]*(?:([-─═])\1{7,})[-─═+|│┌┐└┘├┤┬┴┼╞╡╪]*\s*$")
_BORDER_RUN = lazy(r"([-─═])\1{3,}")


def bordered(line: str) -> str:
    """A table's border (`_BORDER`) with each run between its junctions shown three
    wide, for a table whose rows had their padding shortened (`squeezed`); any other
    line as it is."""
    return _BORDER_RUN.sub(lambda found: found.group(1) * 3, line) if _BORDER.match(line) else line


_FACTORED_MATCH = lazy(r"^\d+(?::\d+)?[:-]")
#: Log records said again but for a word or their prefix, on one line (reduce/records.py):
#: what differs in a brace list within the line (`Jan 30 {14:55:04,14:56:00} host kernel: …`,
#: `Dec 12 {09:13:32 host tlp[2354],09:16:45 host tlp[5769]}: Error: …`).
_SAID_AGAIN = lazy(r"^(?P<prefix>[^{}]*)\{(?P<names>[^{},]+(?:,[^{},]+)+|\d+\.\.\d+)\}(?P<after>[^{}]*)$")
_BRACES = lazy(r"^(?P<prefix>.*?)\{(?P<names>[^{}\s'\"]*,[^{}\s'\"]*|\d+\.\.\d+)\}(?P<after>[^{}\s'\"]*(?: [A-Z]+)?)$")


def brace_names(names: str) -> list[str]:
    """What a brace list stands for, as bash expands it: `a,b,c`, or `0..119` (a run of
    numbers, zero-padded when its ends are)."""
    low, dots, high = names.partition("..")
    if dots and low.isdigit() and high.isdigit():
        width = len(low) if len(low) > 1 and low.startswith("0") and len(low) == len(high) else 0
        return [str(n).zfill(width) for n in range(int(low), int(high) + 1)]
    return names.split(",")


def brace_list(names: list[str]) -> str:
    """`{a,b,c}`, or `{0..119}` for a run of consecutive numbers written alike."""
    if len(names) > 2 and all(name.isdigit() for name in names):
        numbers = [int(name) for name in names]
        width = len(names[0])
        padded = width > 1 and names[0].startswith("0")
        alike = all(
            (len(name) == width) if padded else (str(n) == name) for n, name in zip(numbers, names, strict=True)
        )
        if alike and numbers == list(range(numbers[0], numbers[0] + len(numbers))):
            return f"{{{names[0]}..{names[-1]}}}"
    return "{" + ",".join(names) + "}"


def brace_lines(before: str, names: list[str], after: str, width: int = BRACE_WIDTH) -> list[Encoded]:
    """`before{a,b,c}after` standing for each name between `before` and `after`, on
    as many lines as keep each within `width` characters (a name too long for one
    with others stands alone, as the tool printed it); each line reads back on its own."""
    whole = before + brace_list(names) + after
    if len(whole) <= width or len(names) < 2:
        return [Encoded(whole if len(names) > 1 else before + names[0] + after, len(names))]
    room = width - len(before) - len(after) - 2  # the braces
    runs: list[list[str]] = [[]]
    used = -1  # the characters of the run's names and the commas between them
    for name in names:
        if runs[-1] and used + 1 + len(name) > room:
            runs.append([])
            used = -1
        runs[-1].append(name)
        used += 1 + len(name)
    return [Encoded(before + (brace_list(run) if len(run) > 1 else run[0]) + after, len(run)) for run in runs]


#: `diff --git a/P b/P`: one path under two one-letter prefixes (git's `a/` `b/`, or its
#: mnemonic `i/` `w/` `c/` `o/`), without spaces, quotes or braces.
_DIFF_LINE = lazy(r"^diff --git (?P<old>[a-z])/(?P<path>[^\s\"'{},]+) (?P<new>[a-z])/(?P=path)$")
_BRACED_DIFF_LINE = lazy(r"^diff --git \{(?P<old>[a-z]),(?P<new>[a-z])\}/(?P<path>[^\s\"'{},]+)$")


def braced_diff_line(line: str) -> str | None:
    """`diff --git a/P b/P` with its path said once, `diff --git {a,b}/P` (what bash
    expands back to the line git printed); None for any other line."""
    found = _DIFF_LINE.match(line)
    return f"diff --git {{{found['old']},{found['new']}}}/{found['path']}" if found else None


def unbraced_diff_line(line: str) -> str | None:
    """The `diff --git a/P b/P` line a `braced_diff_line` stands for; None for any other line."""
    found = _BRACED_DIFF_LINE.match(line)
    return f"diff --git {found['old']}/{found['path']} {found['new']}/{found['path']}" if found else None


#: `--- a/P` or `+++ b/P`: a file of a diff without `diff --git` lines, named under a
#: one-letter prefix, without spaces, quotes, braces or a tab (`diff -u`'s time after it).
_NAME_LINE = lazy(r"^(?P<sign>---|\+\+\+) (?P<prefix>[a-z])/(?P<path>[^\s\"'{},]+)$")


def paired_name_line(old: str, new: str) -> str | None:
    """`--- a/P` and `+++ b/P` said once, `{--- a,+++ b}/P` (`decoded` reads it back
    into both lines, as it reads a log's records said again); None unless they are such
    a pair naming one path."""
    first, second = _NAME_LINE.match(old), _NAME_LINE.match(new)
    if first is None or second is None or (first["sign"], second["sign"]) != ("---", "+++"):
        return None
    if first["path"] != second["path"]:
        return None
    return f"{{--- {first['prefix']},+++ {second['prefix']}}}/{first['path']}"


def shows(readable: str, snippet: str) -> bool:
    """Does `readable` (a `decoded` shown text) hold `snippet`, as it is or with its
    padding shortened as the reduction shortens it?"""
    if snippet in readable:
        return True
    squeezed = "\n".join(bordered(str(squeeze(line, aligned_too=True))) for line in snippet.split("\n"))
    return squeezed != snippet and squeezed in readable


def decoded(text: str) -> str:
    """`text` with its lossless re-encodings spelled out as the tool printed them
    (grep's factored matches as `path:12:text`, `dir/{a,b}` as `dir/a` and `dir/b`,
    `diff --git {a,b}/P` as `diff --git a/P b/P`), so that a fact is found whichever form shows it."""
    out: list[str] = []
    path: str | None = None
    for line in text.split("\n"):
        core = line.strip()
        if line.endswith(":") and not line.startswith(" ") and len(line) > 1:
            path = line[:-1]
            out.append(line)
            continue
        if path is not None and line.startswith("  ") and _FACTORED_MATCH.match(line[2:]):
            out.append(unfactored(path, line))
            continue
        places = placed_together(path, line) if path is not None and line.startswith("  {") else None
        if places is not None:
            out.extend(places)
            continue
        if not line.startswith("  ") and core != "--":
            path = None
        if "{" not in line:  # no brace list, nor a braced diff line (most lines): nothing to spell out
            out.append(line)
            continue
        diff_line = unbraced_diff_line(line) if line.startswith("diff --git {") else None
        if diff_line is not None:
            out.append(diff_line)
            continue
        braces = _BRACES.match(line)
        if braces:
            prefix, after = braces.group("prefix", "after")
            out.extend(prefix + name + after for name in brace_names(braces.group("names")))
            continue
        out.append(line)
        again = _SAID_AGAIN.match(line)
        if again:  # the line too: a line of the input may hold braces of its own
            prefix, after = again.group("prefix", "after")
            out.extend(prefix + name + after for name in brace_names(again.group("names")))
    return "\n".join(out)


def is_factored_heading(line: str, input_lines: list[str]) -> bool:
    """`path:` standing for the path grep printed before each match of one file."""
    if not line.endswith(":") or len(line) < 2:
        return False
    head = line[:-1]
    return any(source.startswith(line) and _FACTORED_MATCH.match(source[len(line) :]) for source in input_lines) or any(
        source.startswith(head + "-") and _FACTORED_MATCH.match(source[len(head) + 1 :]) for source in input_lines
    )


def unfactored(path: str, line: str) -> str:
    """A factored match line (`  12:text`, `  13-text`) as grep printed it."""
    rest = line[2:]
    number = _FACTORED_MATCH.match(rest)
    separator = "-" if number and number.group().endswith("-") else ":"
    return (path + separator + rest).strip()


#: A finding under its file's heading (reduce/units.py), its place then what it says
#: (`  12:5: F821 …`, `  12: error: …`), and findings that say the same at several places
#: said once: `  {108:4,116:4}: C0116: Missing function or method docstring (…)`. What they
#: say holds no brace, so a brace list of places reads back unambiguously.
_PLACED = lazy(r"^  (?P<place>\d+(?::\d+)?)(?P<said>: [^{}]+)$")
_PLACES = lazy(r"^  \{(?P<names>\d+(?::\d+)?(?:,\d+(?::\d+)?)+|\d+\.\.\d+)\}(?P<said>: [^{}]+)$")


def placed(line: str) -> tuple[list[str], str] | None:
    """A finding's place and what it says (`(["108:4"], ": C0116: …")`), or the places of
    findings already said together (`  {108:4,116:4}: …`), for a line that can be said
    together with others at their places (`brace_lines("  ", places, said)`, read back
    by `placed_together`); None for any other line."""
    found = _PLACED.match(line) or _PLACES.match(line)
    if found is None:
        return None
    return ([found["place"]] if "place" in found.groupdict() else brace_names(found["names"])), found["said"]


def placed_together(path: str, line: str) -> list[str] | None:
    """Each finding a line of findings said once at several places stands for, as the
    tool printed it (`path:108:4: C0116: …`); None for any other line."""
    found = _PLACES.match(line)
    if found is None:
        return None
    return [f"{path}:{place}{found['said']}" for place in brace_names(found["names"])]


def is_brace_list(line: str, inputs: set[str]) -> bool:
    """`prefix{a,b,c}`: every `prefix` + name is an input line (a directory's entries,
    git status paths of one folder, re-encoded by reduce/units.py)."""
    found = _BRACES.match(line) or _SAID_AGAIN.match(line)
    if not found:
        return False
    prefix, after = found.group("prefix", "after")
    return all((prefix + name + after).strip() in inputs for name in brace_names(found.group("names")))


_PROGRESS = lazy(r"\s+\[\s*\d+%\]$")


def without_progress(line: str) -> str:
    """`line` without a test runner's progress column (`tests/a.py::test_b PASSED  [ 40%]`),
    which a brace list of verdicts leaves out (it counts lines, it says nothing of a test)."""
    return _PROGRESS.sub("", line)
