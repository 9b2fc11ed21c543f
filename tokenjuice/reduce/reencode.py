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
reduce/findings.py), a listing's paths under the folder a run of them shares, said once
(`.venv/lib/python3.11/site-packages/:` then `  rich/{a.py,b.py}`: `folders_said_once`),
the `Author:` line every commit of a log shares said once over them (`Author of every
commit: …`, `author_said_once`), a test file over its summary lines (`FAILED tests/a.py::`
then `  test_b - …`, `test_files_said_once`), terminal padding and drawn rules shortened (`squeeze`).
`readings` reads each shown line back as the lines of the tool it stands for, one walker
for both readers: `decoded` spells a shown text back out as the tool printed it, so that
the example checks, the preservation guard and the scenario scorer find a fact whichever
form shows it, and `verify` checks that every line a shown line stands for was printed.
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from .lines import CLIP, RULE_MARKS, RULED, Encoded, Item, Omission, Pinned, size, weight

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
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


def squeezed(items: Sequence[Item], known: dict[tuple[type, str], Item | None] | None = None) -> tuple[Item, ...]:
    """`items`, each `squeeze`d but a line already clipped (its ends as printed, for
    `verify`): the lines with nothing to shorten are found with `str.find` over the
    text of all of them, and left as they are. `known` keeps what each line (its kind
    and text) became, or None where it stays as it is, for the next call (the engine
    squeezes the same lines for every budget it tries)."""
    from ..text import holding

    texts = [item if isinstance(item, str) else "" for item in items]  # a marker keeps its place
    shortened = list(items)
    rows = False  # a table's rows shortened: its borders line up with nothing any more
    known = {} if known is None else known
    for index in holding("\n".join(texts), _SQUEEZE_HINTS):
        item, text = items[index], texts[index]
        key = (item.__class__, text)
        if key in known:
            short = known[key]
        else:  # a line clipped in its middle is shown as the tool printed it
            short = None if CLIP.search(text) else squeeze(item)
            short = known[key] = None if short is item else short
        if short is not None:
            shortened[index] = short
            rows = rows or _table_row(text)
    if rows:
        for index, text in enumerate(texts):
            if _BORDER.match(text) and (border := bordered(text)) != text:
                shortened[index] = Pinned(border) if isinstance(items[index], Pinned) else border
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


#: A match's or finding's place where its path was said once above it: `12:`, `12:5:`, a
#: context line's `13-`, tsc's `(12,5):`. Under a file or a folder said once, places said
#: together too (`{12:5,40:1}: …`, `_PLACED_UNDER`).
_PLACE = r"\d+(?::\d+)?[:-]|\(\d+,\d+\):"
_PLACED_UNDER = _PLACE + r"|\{\d"
_FACTORED_MATCH = lazy(rf"^(?:{_PLACE})")
#: Log records said again but for a word or their prefix, on one line (reduce/records.py):
#: what differs in a brace list within the line (`Jan 30 {14:55:04,14:56:00} host kernel: …`,
#: `Dec 12 {09:13:32 host tlp[2354],09:16:45 host tlp[5769]}: Error: …`).
_SAID_AGAIN = lazy(r"^(?P<prefix>[^{}]*)\{(?P<names>[^{},]+(?:,[^{},]+)+|\d+\.\.\d+)\}(?P<after>[^{}]*)$")
_BRACES = lazy(r"^(?P<prefix>.*?)\{(?P<names>[^{}\s'\"]*,[^{}\s'\"]*|\d+\.\.\d+)\}(?P<after>[^{}\s'\"]*(?: [A-Z]+)?)$")


def test_id_safe(name: str) -> bool:
    """Can a test's id stand in a brace list (its parameters in brackets may)?"""
    return bool(name) and not _BRACE_UNSAFE.difference("[").intersection(name.replace("]", ""))


#: Characters that would make a name ambiguous inside a `dir/{a,b}` brace list.
_BRACE_UNSAFE = frozenset(",{}\t\n\\'\" $*?[")


def brace_safe(name: str) -> bool:
    """Can `name` stand in a brace list and be read back exactly (as bash expands it)?"""
    return bool(name) and "/" not in name.rstrip("/") and not _BRACE_UNSAFE.intersection(name)


def stem_runs(names: list[str]) -> list[list[str]]:
    """Neighbouring names of one stem (`test_p[1]`, `test_p[2]`; `test_ok_1`, `test_ok_2`)."""
    runs: list[list[str]] = []
    stem = None
    for name in names:
        own = name[: name.index("[") + 1] if "[" in name else name.rstrip("0123456789")
        if runs and own == stem:
            runs[-1].append(name)
        else:
            runs.append([name])
            stem = own
    return runs


def factored_names(start: str, names: list[str], end: str) -> tuple[str, list[str], str]:
    """Names with what they all start and end with moved outside the list, at a word's
    edge: `test_x[1]`, `test_x[2]` as `test_x[` + `{1,2}` + `]`."""
    shortest = min(map(len, names))
    head = 0
    while head < shortest and all(name[head] == names[0][head] for name in names):
        head += 1
    while head and names[0][head - 1].isalnum():
        head -= 1  # not inside a word: `test_ok_1`, `test_ok_12` share `test_ok_`
    tail = 0
    while tail < shortest - head and all(name[len(name) - 1 - tail] == names[0][-1 - tail] for name in names):
        tail += 1
    while tail and names[0][len(names[0]) - tail].isalnum():
        tail -= 1
    cores = [name[head : len(name) - tail] for name in names]
    if not all(cores) or any(not brace_safe(core) for core in cores):
        return start, names, end
    return start + names[0][:head], cores, names[0][len(names[0]) - tail :] + end


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


def shared_folder(paths: list[str]) -> str:
    """The longest folder (`a/b/`, or '') that every one of `paths` (folders ending in
    `/`, or files) is in."""
    first = paths[0]
    end = len(first)
    for path in paths[1:]:
        end = min(end, len(path))
        for k in range(end):
            if path[k] != first[k]:
                end = k
                break
    return first[: first.rfind("/", 0, end) + 1] if end < len(first) or not first.endswith("/") else first[:end]


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


def brace_size(before: str, names: list[str], after: str, width: int = BRACE_WIDTH) -> int:
    """What `brace_lines(before, names, after, width)` takes shown (`lines.size`),
    reckoned from the names' lengths without making the lines (a big folder's entries
    are sampled one at a time: each sample is measured)."""
    if len(names) < 2 or any(map(str.isdigit, names)):  # a run of numbers may be a range
        return size(brace_lines(before, names, after, width))
    lengths = list(map(len, names))
    fixed = len(before) + len(after)
    whole = sum(lengths) + len(lengths) + 1  # the names, the commas between them, the braces
    if fixed + whole <= width:
        return fixed + whole + 1
    room = width - fixed - 2
    total = lines = count = 0
    used = -1
    for length in lengths:
        if count and used + 1 + length > room:
            total, lines = total + used + (2 if count > 1 else 0), lines + 1
            count, used = 0, -1
        count += 1
        used += 1 + length
    total, lines = total + used + (2 if count > 1 else 0), lines + 1
    return total + lines * (fixed + 1)


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


#: A log whose commits are all by one author says its `Author:` line once, on top, and
#: no more under each `commit <hash>` line (`transforms.said_once = ["author"]`): `decoded`
#: puts it back under each of them.
AUTHOR_ONCE = "Author of every commit: "
_COMMIT_HEAD = lazy(r"^commit [0-9a-f]{7,64}\b")
AUTHOR = "Author: "


def _author_at(lines: Sequence[Item], k: int) -> int:
    """Where the `Author:` line of the commit whose `commit <hash>` line is at `k` would
    be: the line after it, or after its `Merge:` line."""
    at = k + 1
    return at + 1 if at < len(lines) and str(lines[at]).startswith("Merge: ") else at


def sole_author(lines: Sequence[Item]) -> str | None:
    """The `Author:` line of every commit of a log (`lines`: all of it, noise dropped),
    when it has two commits or more and every one names the same author under its
    `commit <hash>` line (and its `Merge:` line); None otherwise."""
    author: str | None = None
    commits = 0
    for k, line in enumerate(lines):
        if isinstance(line, str) and line.startswith("commit ") and _COMMIT_HEAD.match(line):
            at = _author_at(lines, k)
            said = lines[at] if at < len(lines) else None
            if not isinstance(said, str) or not said.startswith(AUTHOR) or author not in (None, said):
                return None
            author, commits = str(said), commits + 1
    return author if commits > 1 else None


def author_said_once(items: Sequence[Item], author: str) -> Sequence[Item]:
    """`items` (a log's lines shown, every commit of it by `author`, `sole_author`) with
    the `Author:` line under each `commit <hash>` line left out and said once on top
    (`Author of every commit: Name <mail>`, standing for the lines left out), where it
    stood under two commits or more; `items` themselves otherwise."""
    under = [
        at
        for k, item in enumerate(items)
        if isinstance(item, str)
        and item.startswith("commit ")
        and _COMMIT_HEAD.match(item)
        and (at := _author_at(items, k)) < len(items)
        and items[at] == author
    ]
    if len(under) < 2:
        return items
    left = set(under)
    heading = Encoded(AUTHOR_ONCE + author[len(AUTHOR) :], len(under))
    return [heading, *(item for k, item in enumerate(items) if k not in left)]


#: A line naming a test by its id (pytest's summary line `FAILED tests/a.py::test_b -
#: AssertionError: …`, its verdict line `tests/a.py::test_b FAILED  [ 40%]`): its verdict
#: first if any and the file, then what follows `::`. Lines of one file in a row say the
#: file once (`transforms.said_once = ["test-file"]`): `FAILED tests/a.py::`, then each
#: line's rest two spaces in (`  test_b - AssertionError: …`).
_SUMMARY_ID = lazy(r"^(?P<file>(?:(?:FAILED|ERROR) )?[^\s:]+\.py::)(?P<rest>\S.*)$")
#: A run of a test file's lines is said under the file only from this many on, and only
#: where that saves this many characters more than the file's line takes (FOLDER_WORTH).
SAID_UNDER_FILE = 3


def test_files_said_once(items: Sequence[Item]) -> Sequence[Item]:
    """`items` with each run of summary lines naming one file (`FAILED tests/a.py::…`,
    SAID_UNDER_FILE or more in a row, saving FOLDER_WORTH characters) said under it: `FAILED tests/a.py::` (a heading
    standing for no line), then what each line says after `::`, two spaces in (pinned
    as the line was); `items` themselves where there is no such run."""
    out: list[Item] = []
    said = False
    k = 0
    while k < len(items):
        item = items[k]
        found = _SUMMARY_ID.match(item) if isinstance(item, str) else None
        end = k + 1
        while found and end < len(items) and isinstance(items[end], str):
            after = _SUMMARY_ID.match(str(items[end]))
            if after is None or after["file"] != found["file"]:
                break
            end += 1
        file = found["file"] if found else ""
        saved = (end - k) * (len(file) - 2) - len(file) - 1  # two spaces a line, the file's own line
        # a line two spaces in after the run would be read as one more under the file
        next_under = end < len(items) and _UNDER_FILE.match(str(items[end])) is not None
        if found is None or end - k < SAID_UNDER_FILE or saved < FOLDER_WORTH or next_under:
            out.append(item)
            k += 1
            continue
        said = True
        out.append(Encoded(file, 0))
        for line in items[k:end]:
            rest = "  " + str(line)[len(file) :]
            out.append(Pinned(rest) if isinstance(line, Pinned) else Encoded(rest, 1))
        k = end
    return out if said else items


_SUMMARY_FILE = lazy(r"^(?:(?:FAILED|ERROR) )?[^\s:]+\.py::$")
_UNDER_FILE = lazy(r"^  \S")


def said_once(items: Sequence[Item], kinds: Sequence[str], author: str | None) -> Sequence[Item]:
    """`items` with what a rule says once (`transforms.said_once`): `author`, the
    `Author:` line every commit of the output shares (`sole_author`), if any; a test
    file over its summary lines; a diff's path on its `diff --git` line; the extension
    the names of a brace list share. `items` themselves where nothing is said once."""
    out = items
    if "author" in kinds and author is not None:
        out = author_said_once(out, author)
    if "test-file" in kinds:
        out = test_files_said_once(out)
    if "diff-path" in kinds:
        out = diff_paths_said_once(out)
    if "extension" in kinds:
        out = extensions_said_once(out)
    return out


#: A brace list of names that ends its line (`src/{a.py,b.py}`): the extension every name
#: of it ends with (`.py`, `.cpython-311.pyc`: from the first dot of what they all end
#: with) is said once after it (`src/{a,b}.py`), which `decoded` reads back as bash expands it.
_BRACED_NAMES = lazy(r"^(?P<prefix>[^{}]*)\{(?P<names>[^{}\s'\",]+(?:,[^{}\s'\",]+)+)\}$")


def shared_extension(names: Sequence[str]) -> str:
    """The extension every one of `names` ends with, from the first dot of what they all
    end with (`.py`, `.cpython-311.pyc`), each keeping a name before it that does not
    end with a dot; '' when they share none."""
    ending = names[0]
    for name in names[1:]:
        while not name.endswith(ending):  # the characters they all end with, one fewer at a time
            ending = ending[1:]
    dot = ending.find(".")
    if dot < 0:
        return ""
    shared = ending[dot:]
    if any(len(name) == len(shared) or name[-len(shared) - 1] == "." or ".." in name for name in names):
        return ""
    return shared


def extensions_said_once(items: Sequence[Item]) -> Sequence[Item]:
    """`items` with each brace list of names sharing an extension (`shared_extension`),
    said once after it (`src/{a,b}.py` for `src/{a.py,b.py}`); `items` themselves where
    there is none."""
    out = list(items)
    said = False
    for k, item in enumerate(items):
        found = _BRACED_NAMES.match(item) if isinstance(item, str) and item.endswith("}") else None
        names = found["names"].split(",") if found else []
        shared = shared_extension(names) if names else ""
        if found is None or not shared:
            continue
        text = found["prefix"] + "{" + ",".join(name[: -len(shared)] for name in names) + "}" + shared
        out[k] = Pinned(text) if isinstance(item, Pinned) else Encoded(text, weight(item))
        said = True
    return out if said else items


def diff_paths_said_once(items: Sequence[Item]) -> Sequence[Item]:
    """`items` with each `diff --git a/P b/P` line shown as `diff --git {a,b}/P`
    (`braced_diff_line`, as a diff cut between its files shows it); `items` themselves
    where there is none."""
    out = list(items)
    for k, item in enumerate(items):
        braced = braced_diff_line(item) if isinstance(item, str) and item.startswith("diff --git ") else None
        if braced is not None:
            out[k] = Pinned(braced) if isinstance(item, Pinned) else Encoded(braced, 1)
    return out if out != list(items) else items


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
    `diff --git {a,b}/P` as `diff --git a/P b/P`, the paths under a folder said once
    with it), so that a fact is found whichever form shows it: what each of its
    `readings` stands for, in their order."""
    if "{" not in text and ":\n" not in text and AUTHOR_ONCE not in text:
        return text  # no brace list, no heading of any form: every line reads as it is
    return "\n".join([line for reading in readings(text.split("\n")) for line in reading[1]])


#: One shown line read back (`readings`), a plain tuple (a class would cost every run its
#: making): `(index, lines, under, heading, as_is)`. `index`: the shown line that says
#: `lines`, the lines of the tool it stands for at this place, in the order the tool
#: printed them (`decoded` joins them). `under`: the index of the heading of tokenjuice's
#: this line is read with, or -1. `heading`: a line that may be tokenjuice's own, said over
#: the lines read under it (a folder `P/:`, a search's file `path:`, a test file `FAILED
#: a.py::`, `Author of every commit: …`), true only if one of those is: its `lines` (a
#: search's file as shown, or none) are nothing of the tool's to check. `as_is`: `lines[0]`
#: is the line as it reads, which the tool may have printed so (braces of its own), the
#: rest what its brace list stands for.
if TYPE_CHECKING:
    Reading = tuple[int, Sequence[str], int, bool, bool]


def _read(index: int, lines: Sequence[str] = (), under: int = -1, heading: bool = False) -> Reading:
    """The reading of a shown line that stands for `lines` (read under the heading at
    `under`), or that may be tokenjuice's own `heading` showing them."""
    return index, lines, under, heading, False


def _spelled(index: int, says: str, under: int = -1) -> Reading:
    """The reading of a shown line that `says` a line (itself, or a path under a folder
    or a test file said once), its brace list spelled out (`spelled`)."""
    lines = spelled(says)
    return index, lines, under, False, len(lines) > 1 and lines[0] == says


def readings(lines: Sequence[str]) -> Iterator[Reading]:
    """Each of the shown `lines` read back as the lines of the tool it stands for
    (`Reading`), in order; the lines of every commit's `Author:` line said once come
    where git printed them, under each `commit <hash>` line (and its `Merge:` line), read
    from the heading that says them. One walker for `decoded` and `verify`."""
    # The headings in force, each with the index of its line: a folder said once over the
    # paths under it (`P/:`); a search's file said under that folder over its matches
    # (`  a.py:`); a file said once over its matches or findings (`path:`); a test file
    # over its summary lines (`FAILED a.py::`); the `Author:` line of every commit.
    folder = inner = path = test_file = author = ""
    folder_at = inner_at = path_at = test_file_at = author_at = -1
    pending = False  # a commit's line (and its `Merge:` line) read, its author not yet
    for k, line in enumerate(lines):
        if pending and not line.startswith("Merge: "):
            yield _read(author_at, (author,), author_at)
            pending = False
        if line.startswith(AUTHOR_ONCE):
            author, author_at = AUTHOR + line[len(AUTHOR_ONCE) :], k
            yield _read(k, heading=True)
            continue
        if author and line.startswith("commit ") and _COMMIT_HEAD.match(line):
            pending = True
        if test_file and _UNDER_FILE.match(line):
            folder = inner = path = ""  # a line of the tool's own, not two spaces in
            yield _spelled(k, test_file + line[2:], test_file_at)
            continue
        test_file = ""
        after = lines[k + 1] if k + 1 < len(lines) else ""
        if line.endswith("::") and _SUMMARY_FILE.match(line) and _UNDER_FILE.match(after):
            test_file, test_file_at = line, k
            yield _read(k, heading=True)
            continue
        if inner and line.startswith(_UNDER_A_MATCH) and not _MATCH_UNDER.match(line):
            yield _read(k, (line[2:],))  # a finding's line under it (gcc's excerpt, tsc's elaboration)
            continue
        if inner and _MATCH_UNDER.match(line):
            together = placed_together(inner, line[2:]) if line.startswith("    {") else None
            yield _read(k, together or (unfactored(inner, line[2:]),), inner_at)
            continue
        inner = ""
        if folder:
            under = folder_line(folder, line, after)
            if under is not None and under.endswith(":") and _FILE_UNDER.match(line):
                inner, inner_at = under[:-1], k
                yield _read(k, (under,), folder_at, heading=True)
            elif under == line:  # a marker among its paths
                yield _read(k, (line,))
            elif under is not None:
                yield _spelled(k, under, folder_at)
            if under is not None:
                continue
            folder = ""
        if folder_heading(line) and folder_line(line[:-1], after, lines[k + 2] if k + 2 < len(lines) else ""):
            folder, folder_at, path = line[:-1], k, ""
            yield _read(k, heading=True)
            continue
        if line.endswith(":") and not line.startswith(" ") and len(line) > 1:
            path, path_at = line[:-1], k
            yield _read(k, (line,), heading=True)
            continue
        if path and line.startswith("  ") and _FACTORED_MATCH.match(line[2:]):
            yield _read(k, (unfactored(path, line),), path_at)
            continue
        places = placed_together(path, line) if path and line.startswith("  {") else None
        if places is not None:
            yield _read(k, places, path_at)
            continue
        if not line.startswith("  ") and line.strip() != "--":
            path = ""
        yield _spelled(k, line)
    if pending:
        yield _read(author_at, (author,), author_at)


def spelled(line: str) -> list[str]:
    """The lines a shown line stands for: the names of its brace list, a braced diff
    line's `diff --git a/P b/P`, a line said again with each of its values (and the
    line itself: a line of the input may hold braces of its own); else the line."""
    if "{" not in line:  # no brace list, nor a braced diff line (most lines): nothing to spell out
        return [line]
    diff_line = unbraced_diff_line(line) if line.startswith("diff --git {") else None
    if diff_line is not None:
        return [diff_line]
    braces = _BRACES.match(line)
    if braces:
        prefix, after = braces.group("prefix", "after")
        return [prefix + name + after for name in brace_names(braces.group("names"))]
    again = _SAID_AGAIN.match(line)
    if not again:
        return [line]
    prefix, after = again.group("prefix", "after")
    return [line, *(prefix + name + after for name in brace_names(again.group("names")))]


#: A folder said once over the paths of a listing or a search under it
#: (`folders_said_once`): `P/:`, the folder without blanks, braces, commas or colons, then
#: each path under it without it, two spaces in (`  rich/{a.py,b.py}`,
#: `  rich/cells.py:12:text`), a search's file of several matches as its path (`  rich/a.py:`)
#: over its matches four spaces in (`    12:text`), and the markers among them two spaces in.
#: A linter's findings, cut, are said so too (`  core.py:`, `    12:5: W0212 …`), the markers
#: counting a code's other findings naming files within the folder, and a finding's lines
#: under its place (gcc's excerpt, four spaces in or more) two more spaces in.
#: Only a path without blanks that does not end with `:`, or a search's match or context
#: line whose path has no blank or `:` (`a.py:12:text`, `a.py-13-text`), is said under a
#: folder, and a line under one is read as such (or as a marker, or as a file's path
#: over its matches): text that happens to follow a line ending in `/:` (`ls -Rs dir/`'s
#: `  4 cli.py`, a YAML key's `  get:` with no match under it) is not.
_FOLDER_HEADING = lazy(r"^[^\s{},:]*/:$")
# matched from where the path starts: a path, or a match's or finding's path before its place
# (`:12:`, `-13-`, places said together `:{12:5,…}`, tsc's `(12,5):`)
_PATH_UNDER = lazy(r"\S*[^\s:]\Z|(?P<path>[^\s:(]+?)(?::\d+:|-\d+-|:\{\d|\(\d+,\d+\):)")
_FILE_UNDER = lazy(r"^  [^\s:]+:$")
#: A line under a match of a file said under a folder, indented as printed (one space in
#: or more: gcc's source excerpt, tsc's elaboration), two more spaces in under the folder:
#: three or more, where a file's path is two in and its matches four and a digit.
_UNDER_A_MATCH = "   "
_MATCH_UNDER = lazy(rf"^    (?:{_PLACED_UNDER})")
_INDENTED_MARKER = lazy(r"^  \.\.\. .+ omitted \.\.\.$")


def folder_heading(line: str) -> bool:
    """Is `line` a folder said once over the paths under it (`P/:`)?"""
    return _FOLDER_HEADING.match(line) is not None


def folder_line(folder: str, line: str, after: str = "") -> str | None:
    """The path a line under a folder said once (`folder/:`) stands for (a file's
    path over its matches with its `:`: `after`, the line after it, must be its first
    match), the line itself for a marker among them; None for a line that ends the
    folder's lines."""
    if not line.startswith("  "):
        return None
    if _INDENTED_MARKER.match(line):
        return line
    if _FILE_UNDER.match(line):
        return folder + line[2:] if _MATCH_UNDER.match(after) else None
    return folder + line[2:] if _PATH_UNDER.match(line, 2) else None


#: A folder is said once over the paths under it only where that saves this many
#: characters more than its line takes: a heading is one more thing to read.
FOLDER_WORTH = 24


def folders_said_once(items: Sequence[Item], inside: Callable[[Omission, str], Omission | None]) -> list[Item]:
    """`items` (a listing's paths, brace lists among them; a search's matches, a file's
    under its path said once) with each run of paths in one folder said under it: `P/:`,
    then each path without `P/`, two spaces in (a file's matches four), wherever that
    makes the items shorter (the folders chosen for the fewest characters in all, one
    level deep). `inside(marker, folder)` is a marker between two paths of a run, naming
    what it counts relative to `folder` (shown two spaces in); None where the marker
    ends the run. `decoded` reads each path back as it was."""
    entries = _entries(items)
    if len(entries) < 2:
        return list(items)
    # best[P]: the fewest characters of the entries so far, the last one under folder P
    # ("" under none); came[i][P]: the folder the entry before was under, and whether P
    # is said again over entry i.
    best: dict[str, int] = {"": 0}
    came: list[dict[str, tuple[str, bool]]] = []
    previous = 0
    for start, end, path in entries:
        between = [item for item in items[previous:start] if isinstance(item, Omission)]
        previous = end
        plain = size(items[start:end])
        least = min(best, key=best.__getitem__)
        low = best[least]
        now = {"": low + plain}
        back = {"": (least, False)}
        for folder in _folders_of(path):
            under = plain - len(folder) + 2 * (end - start)
            heading = low + len(folder) + 2 + FOLDER_WORTH
            going = best.get(folder)
            if going is not None and going <= heading and all(inside(m, folder) is not None for m in between):
                now[folder], back[folder] = going + under, (folder, False)
            else:
                now[folder], back[folder] = heading + under, (least, True)
        best = now
        came.append(back)
    state = min(best, key=best.__getitem__)
    chosen: list[tuple[str, bool]] = []
    for back in reversed(came):
        before, opens = back[state]
        chosen.append((state, opens))
        state = before
    chosen.reverse()
    if all(not folder for folder, _ in chosen):
        return list(items)
    out: list[Item] = []
    at = {start: (end, folder, opens) for (start, end, _), (folder, opens) in zip(entries, chosen, strict=True)}
    open_folder = ""
    k = 0
    while k < len(items):
        item = items[k]
        if isinstance(item, Omission):  # among the paths of its folder, or after them
            marker = inside(item, open_folder) if open_folder else None
            out.append(marker if marker is not None else item)
            if marker is None:
                open_folder = ""
            k += 1
            continue
        end, folder, opens = at[k]
        if folder and (opens or folder != open_folder):
            out.append(Encoded(folder + ":", 0))
        if folder:
            out.append(Encoded("  " + item[len(folder) :], weight(item)))
            out.extend(Encoded("  " + str(line), weight(line)) for line in items[k + 1 : end])
        else:
            out.extend(items[k:end])
        open_folder = folder
        k = end
    return out


def _entries(items: Sequence[Item]) -> list[tuple[int, int, str]]:
    """The lines of `items` that may be said under a folder, each (start, end, its path
    or line): a line, or a search's file of matches, its `path:` and the `  12:text`
    lines under it; a marker is none."""
    entries: list[tuple[int, int, str]] = []
    k = 0
    while k < len(items):
        item = items[k]
        if isinstance(item, Omission):
            k += 1
            continue
        end = k + 1
        if isinstance(item, Encoded) and not item.lines and item.endswith(":"):  # a file's path over its matches
            # its matches (a marker's text never), and a finding's lines under it, indented as
            # printed (gcc's excerpt, `  773 |   …`; tsc's elaboration, `  'T' could be …`)
            while end < len(items) and (
                _FACTORED_UNDER.match(str(items[end]))
                or (end > k + 1 and not isinstance(items[end], Omission) and str(items[end]).startswith(" "))
            ):
                end += 1
            separated = end < len(items) and items[end] == "--"  # grep's `--` between context: said as it was
            entries.append((k, end, item[:-1] if end > k + 1 and not separated else ""))
        else:
            entries.append((k, end, str(item)))
        k = end
    return entries


#: A match (or context) line under a file's path said once (`  12:text`, `  13-text`).
_FACTORED_UNDER = lazy(rf"^  (?:{_PLACED_UNDER})")


def _folders_of(line: str) -> list[str]:
    """The folders a path shown as `line` (or the path of a match line) may be said
    under: each of its leading parts ending in `/`, up to a brace or a comma (a brace
    list's names)."""
    said = None if line.endswith(":") else _PATH_UNDER.match(line)  # not a heading of its own (grep's `path:`)
    if not said:
        return []
    path = said["path"] or line  # a match's path, or the whole line
    folders = []
    for k, char in enumerate(path):
        if char in "{},:":
            break
        if char == "/" and k + 1 < len(path):
            folders.append(path[: k + 1])
    return folders


def unfactored(path: str, line: str) -> str:
    """A factored match line (`  12:text`, `  13-text`) as grep printed it."""
    rest = line[2:]
    number = _FACTORED_MATCH.match(rest)
    separator = "" if rest[:1] == "(" else "-" if number and number.group().endswith("-") else ":"
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


_PROGRESS = lazy(r"\s+\[\s*\d+%\]$")


def without_progress(line: str) -> str:
    """`line` without a test runner's progress column (`tests/a.py::test_b PASSED  [ 40%]`),
    which a brace list of verdicts leaves out (it counts lines, it says nothing of a test)."""
    return _PROGRESS.sub("", line)
