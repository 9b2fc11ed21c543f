"""The preservation guard: check a reduction against the output it came from.

A reduction is judged by what the agent can still act on, not by its size. The
guard finds the output's anchors — what a reader acts on after a failure — and
counts how many the shown text still carries, directly or in a lossless
re-encoding (`verify.decoded`):

- error, failure and exception lines, by what follows their marker
  (`KeyError: 'mango20'`, `error[E0308]: mismatched types`);
- failing test ids (`FAILED tests/a.py::test_b`, `--- FAIL: TestX`, `FAIL: test_b (a.T.test_b)`);
- the `file:line` locations on those lines and right after them (where it was raised);
- verdict and summary lines with their numbers (`3 failed, 120 passed`).

Listings (matches, paths, rows) are content, and the information budget decides
how much of them is shown; the guard watches only what a failure is made of. When
the share kept falls below THRESHOLD, the engine widens the budget step by step
(WIDEN, up to HARD_CAP_FACTOR times the budget) and keeps the first reduction that
carries enough; past the cap, the widest one. A step doubles the room, so the room
between it and the step before is then tried, the gap halved NARROWING times, and
the least room that carries as many anchors is kept. The trace reports anchors found
and kept and the steps taken.
"""

from __future__ import annotations

from bisect import bisect_left

from ..fast.lazyre import lazy, lazy_bytes
from ..text import holding, lines_at, lines_holding, lowered_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from .lines import Item

#: Share of anchors a reduction must carry: below it the budget is widened. Chosen on
#: the scenario corpus (tests/scenarios, reduced at the plain budget): where every
#: must-keep string survived, the reductions carried 97-100 % of their anchors; a
#: 200-failure pytest run that lost its failure messages carried 28 %; a cargo build
#: whose source excerpts went carried 88 % (widening it costs 400 characters).
THRESHOLD = 0.9
#: Each step multiplies the budget by WIDEN, at most up to HARD_CAP_FACTOR times it.
WIDEN = 2
HARD_CAP_FACTOR = 4
#: How many times the gap between the step that carried enough and the one before is
#: halved in search of less room that carries as many anchors.
NARROWING = 2
#: Only the first anchors are counted: a run with thousands of failures cannot show
#: them all, and the guard is not meant to make it try.
MAX_ANCHORS = 200
#: The lines the guard reads at a time (one join, one lowering and one search a
#: hint each): the first MAX_ANCHORS anchors of a long log are often found long
#: before its end, and the lines after them are not read.
CHUNK_LINES = 1024
_CLIP = 80

_ERROR_HINTS = ("err", "exception", "fatal", "panic", "fail")
#: An error line's marker. `exception` counts as a name (`Exception`, `KeyError`,
#: `EXCEPTION`) or a label (`exception: …`): lowercase in a sentence it is prose, as
#: in a compiler's help (`-fexceptions  Enable exception handling.`).
_ERROR = lazy(
    r"(?<![\w-])(?:\w*(?:(?i:error)|Exception|EXCEPTION)\b|exception:"
    r"|(?i:fatal\b|panic(?:ked)?\b|failed\b|failure\b)|ERR!)[^\n]*"
)
#: An error line's marker in a run that succeeded, where the words are more often
#: prose (a package's `error reporting library`, `liberror-perl`) than a failure: an
#: error's name (`KeyError`, `RuntimeException`), a level in capitals (`ERROR`, `FATAL`,
#: `FAILED`, a log's `[error]` or `level=error`), a label (`error:`, `error[E0308]:`,
#: `fatal:`, `panic:`), a sentence that starts with `Failed`.
_SHAPED_ERROR = lazy(
    r"(?<![\w-])(?:\w+(?:Error|Exception)\b|(?:ERROR|FATAL|FAIL(?:ED|URE)?|PANIC|EXCEPTION)\b"
    r"|(?i:error|fatal|panic|exception|failed|failure)(?:\[[\w-]+\])?:|Failed\b|ERR!)[^\n]*"
    r"|(?:\[|level=)(?i:error|fatal)\b[^\n]*"
)
_TEST_ID = lazy(
    r"^(?:FAILED|ERROR) (\S+::\S+|\S+\.\w+(?:::\S+)?)(?= |$)|^--- FAIL: (\S+)"
    r"|^\s*(?:✗|×|✕) (\S.*)$|^not ok \d+ (?:- )?(\S.*)$"
    r"|^(?:FAIL|ERROR): (\S+ \(\S+\))"  # unittest's
)
_LOCATION = lazy(r"(?<![\w/.-])((?:[\w.@+-]+/)*[\w.@+-]+\.[A-Za-z]\w{0,7}):(\d+)")
_SUMMARY = lazy(r"(?i)\b\d+ (?:passed|failed|failures?|errors?|warnings?|tests?|problems?|skipped|examples?|issues?)\b")
#: Quoted source, not a diagnostic: a compiler's or linter's excerpt (`12 | x = 1`,
#: `  |     ^^^`), a diff's changed line, a traceback's code line under its frame.
_QUOTED = lazy(r"^\s*(?:\d+\s*)?[|│┃╭╰]|^[+-](?![+-])|^\s+\^|^ {4}\S")
#: Mentions that are not failures: `0 errors`, `no errors`, `error-free`, option names.
_HARMLESS = lazy(r"(?i)\b(?:0|no|zero) (?:errors?|failures?)\b|--\w*(?:error|fail)")


def watched(family: str, failed: bool) -> bool:
    """Are error lines anchors here? In a failure, in what diagnoses code (tests,
    linters, builds) and in logs, even when it exits 0; a search or a listing that
    matched the word `error` is content, which the information budget rules."""
    return (
        failed
        or family in ("test-results", "lint-results", "generic")
        or family.startswith("build")
        or family.endswith("-logs")  # a log is read for what went wrong in it
    )


def anchors(lines: Sequence[Item], errors: bool = True, shaped: bool = False) -> list[str]:
    """The anchors of an output (ANSI-stripped lines; markers among them are passed
    over), each an exact substring of it, in order, without repeats, at most
    MAX_ANCHORS; error lines only when `errors`, and with `shaped` (a run that
    succeeded) only those with an error's shape (`_SHAPED_ERROR`). The lines are read
    CHUNK_LINES at a time, and none after the chunk where the last anchor counted was found."""
    error_pattern = _SHAPED_ERROR if shaped else _ERROR
    found: dict[str, None] = {}
    near = 0  # lines after an error line whose locations are its raise site
    in_diff = False  # a diff's lines are content, whatever words they hold
    for first in range(0, len(lines), CHUNK_LINES):
        chunk = [line for line in lines[first : first + CHUNK_LINES] if isinstance(line, str)]
        joined = "\n".join(chunk)
        lowered = lowered_text(joined)
        # An ASCII line _ERROR matches holds one of these (lowered): the others are not searched.
        worded = holding(lowered, _ERROR_HINTS)
        candidates = worded | holding(lowered, _ANCHOR_HINTS) | holding(joined, _ANCHOR_MARKS) | _counted(lowered)
        if not errors:
            worded = set()
        # Only the lines an anchor can be on are visited: the candidates, and the lines
        # after an error line or in a diff, which the lines before them tell (the other
        # lines of a long log are passed over in C, not one loop a line).
        ahead = sorted(candidates)
        next_at = 0  # the first of `ahead` not visited
        index, size = -1, len(chunk)
        while True:
            index += 1
            if not near and not in_diff:  # nothing an anchor is made of until the next candidate
                next_at = bisect_left(ahead, index, next_at)
                if next_at == len(ahead):
                    break
                index = ahead[next_at]
            elif index >= size:
                break
            if len(found) >= MAX_ANCHORS:
                return list(found)
            line = chunk[index]
            if line.startswith(("diff --git ", "diff --cc ", "@@ ")):
                in_diff = True
                continue
            if in_diff and (not line or line[0] in " +-@\\" or line.startswith(("index ", "new file", "deleted file"))):
                continue
            in_diff = False
            if len(line) > 2000 or _QUOTED.match(line):
                continue
            test = _TEST_ID.search(line)
            if test:
                found[next(group for group in test.groups() if group)[:_CLIP]] = None
            summary = _SUMMARY.search(line)
            error = (
                error_pattern.search(line)
                if errors and not summary and (index in worded or not line.isascii())
                else None
            )
            if summary:
                found[summary.group()] = None
            elif error and not _HARMLESS.search(line):
                found[error.group().strip()[:_CLIP]] = None
                near = 3
            if near:
                for location in _LOCATION.finditer(line):
                    found[location.group()] = None
                near -= 1
        if len(found) >= MAX_ANCHORS:
            break
    return list(found)


def share(found: list[str], readable: str) -> float:
    """The share of `found` that `readable` (a shown text, decoded) carries."""
    if not found:
        return 1.0
    from .reencode import shows

    return sum(1 for anchor in found if shows(readable, anchor)) / len(found)


#: A log line that says something went wrong: its level, or an error word.
_TROUBLE = lazy(
    r"(?i)\b(?:WARN(?:ING)?|ERROR|ERR|CRIT(?:ICAL)?|FATAL|SEVERE|ALERT|EMERG(?:ENCY)?|PANIC)\b"
    r"|\b\w*(?:Error|Exception)\b|\bfailed\b|\bpanicked\b"
)
_TRACEBACK = lazy(
    r"^(?:Traceback \(most recent call last\):|Exception in thread |goroutine \d+ \[|thread '.*' panicked)"
)
#: A traceback is followed to its exception line, at most this many lines.
_TRACEBACK_LINES = 40


def pin_trouble(lines: list[str]) -> list[str]:
    """`lines` with what went wrong pinned (`Pinned`), so a cut to head and tail keeps
    it from the middle too: warning and error lines, and each traceback to its
    exception line. An exact read too big to show (a log read with `cat`) is cut so."""
    from .lines import Pinned

    candidates = _candidates(lines)
    result: list[str] = []
    following = 0
    for index, line in enumerate(lines):
        if index in candidates and _TRACEBACK.match(line):
            following = _TRACEBACK_LINES
        if following:
            following -= 1
            if following < _TRACEBACK_LINES - 1 and line[:1] not in (" ", "\t") and not _TRACEBACK.match(line):
                following = 0  # the exception line ends the traceback
            result.append(Pinned(line))
        elif index in candidates and len(line) <= 2000 and _TROUBLE.search(line):
            result.append(Pinned(line))
        else:
            result.append(line)
    return result


#: What any troubled line holds, found with `str.find` over the lowered text (a
#: 100,000-line log costs a dozen passes in C, not one regular expression per line).
_HINTS = (
    "warn",
    "err",
    "crit",
    "fatal",
    "severe",
    "alert",
    "emerg",
    "panic",
    "exception",
    "fail",
    "traceback",
    "goroutine",
)


def _candidates(lines: list[str]) -> set[int]:
    """The indexes of the lines that may say something went wrong."""
    return lines_holding(lines, _HINTS)


#: What the line of any anchor but a count holds (lowered), beside an error word: a
#: failing test's verdict, the start of a diff.
_ANCHOR_HINTS = ("not ok", "diff --", "@@ ")
#: A failing test's mark (no case to lower): looked for as one character in the
#: text as it is, which is quicker than a several-byte string in its UTF-8.
_ANCHOR_MARKS = ("✗", "×", "✕")
#: A count's line (`3 failed, 2 warnings`, lowered): a digit, a space and one of
#: _SUMMARY's nouns. In UTF-8 a digit that is not ASCII ends in a continuation byte.
_COUNTED_NOUNS = r"(?:passed|failed|failures?|errors?|warnings?|tests?|problems?|skipped|examples?|issues?)"
#: Written to start with the space: a search for one character is quick, a digit's
#: class at every position is not.
_COUNTED = lazy(r" (?<=\d )" + _COUNTED_NOUNS)
_COUNTED_BYTES = lazy_bytes(rb" (?<=[0-9\x80-\xbf] )" + _COUNTED_NOUNS.encode())


def _counted(text: str | bytes) -> set[int]:
    """The indexes of the lines of `text` (lowered) that may hold a count (_SUMMARY)."""
    pattern: Any = _COUNTED if isinstance(text, str) else _COUNTED_BYTES
    return lines_at(text, [found.start() for found in pattern.finditer(text)])


def pin_anchors(items: list[Item], found: list[str]) -> list[Item]:
    """`items` with every line that carries an anchor pinned, so that a cut to the
    budget goes around them."""
    from .lines import Omission, Pinned

    telling = [anchor for anchor in found if len(anchor) >= 6]  # `1 failed` yes, a bare word no
    return [
        Pinned(item) if not isinstance(item, Omission | Pinned) and any(a in item for a in telling) else item
        for item in items
    ]
