"""Test runs as units (`unit = "test"`): each failing test's block, cut to its title,
message and raise site, and passing tests whose lossless form joins their file's
neighbours of one verdict in a brace list."""

from __future__ import annotations

import bisect

from ..fast.lazyre import lazy
from ..text import clip_line, holding
from .lines import Encoded, Item, Pinned
from .reencode import (
    brace_lines,
    test_id_safe,
)
from .unit import LINE_LIMIT, Parsed, Unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..rules.patterns import Lines


# Test runners: (block start, short-form pattern) per runner; a block runs until the
# next block start or a line that starts a section of its own.
_TEST_BLOCK_SOURCES = (
    # pytest: `____ test_x ____`, down to `_ test_x _` when the name fills the width
    # (not its traceback's frame separator, `_ _ _ _`, nor pytest-cov's table heading,
    # `____ coverage: platform linux, python 3.11.7-final-0 ____`)
    r"^_+ (?!(?:_ )*_$)(?!coverage: platform )(?P<name>\S.*?) _+$",
    r"^\s*● (?P<name>\S.*)$",  # jest, vitest (default reporter)
    r"^\s*(?:FAIL|×|✗) (?P<name>\S.* > .*)$",  # vitest
    r"^--- FAIL: (?P<name>\S+)",  # go test
    r"^---- (?P<name>\S+) stdout ----$",  # cargo test
    r"^\s*\d+\) (?P<name>\S.*)$",  # mocha, rspec
    # unittest (and Django's runner): `FAIL: test_x (pkg.tests.TestX.test_x)`
    r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (?P<name>\S+ \(\S+\).*)$",
)
_TEST_BLOCKS = tuple(lazy(source) for source in _TEST_BLOCK_SOURCES)
#: Any block start, in one match a line (the names are read from _TEST_BLOCKS).
_ANY_TEST_BLOCK = lazy("|".join(f"(?:{source.replace('(?P<name>', '(?:')})" for source in _TEST_BLOCK_SOURCES))
_BLOCK_END = lazy(
    r"^(?:={3,}|-{3,} (?:PASS|SKIP)|failures:$|test result:|FAILED |PASSED |ok\s|FAIL\s+\S+\s+[\d.]+s$|"
    r"Tests?:|Test Suites:|Ran \d+ tests?|\d+ (?:passing|failing|pending)\b|"
    r"Finished in \d|\d+ examples?, \d+ failures?)"  # rspec's summary
    # a test file's result line (jest): `FAIL tests/cart.test.js`, `PASS src/a.test.ts (5.2 s)`
    r"|^\s*(?:FAIL|PASS)\s+\S+(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$"
)
#: What any line _ANY_TEST_BLOCK matches holds, one a runner (pytest's rule of
#: underscores and a space, jest's bullet, vitest's and go's FAIL, cargo's stdout
#: header, mocha's and rspec's `N) `, unittest's verdicts): tests/reduce/test_units.py checks them. A mark
#: is looked for alone, without the space after it: one character is found quicker.
_BLOCK_HINTS = ("_ ", "●", "FAIL", "×", "✗", " stdout ----", ") ", "ERROR: ", "SUCCESS: ")
#: The others: pytest's summary lines (`FAILED …`) are looked for among those holding `FAIL`.
_BLOCK_HINTS_BUT_FAIL = tuple(hint for hint in _BLOCK_HINTS if hint != "FAIL")
#: What any line `_passing` is true of holds.
_PASSING_HINTS = ("PASS", "ok", "✓", "√")
_ASSERTION = lazy(r"(?i)(?:assert|error|expected|received|panicked|failure|exception|mismatch|!=|==)")
_PASSING = lazy(r"(?:\bPASSED\b|^\s*(?:✓|√|ok) |^ok\s+\S+|\.\.\. ok$|^--- PASS: |^\s*PASS )")


def _passing(line: str) -> bool:
    # Every line _PASSING matches holds one of _PASSING_HINTS: most lines hold none, and
    # four substring tests cost less than a search of the alternation at every position.
    hinted = "PASS" in line or "ok" in line or "✓" in line or "√" in line
    return hinted and _PASSING.search(line) is not None


#: Where a failure's message ends: a stack frame, a source excerpt, a backtrace.
_FRAME = lazy(r"^\s*(?:at\s|\d+:\s|>?\s*\d*\s*\|)|^(?:stack backtrace:|note: )")
_MESSAGE_LINES = 4


#: A Python traceback's frame (`  File "tests/test_a.py", line 12, in test_b`) and the
#: exception line under the last one (`AssertionError: 3 != 4`, `json.decoder.JSONDecodeError: …`).
_PY_FRAME = lazy(r'^\s*File "[^"]+", line \d+')
_PY_EXCEPTION = lazy(r"^[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Failure|Warning)\b")
#: pytest's explanation lines (`E       assert 1 == 2`, `E       KeyError: 'x'`).
_E_LINE = lazy(r"^E {2,}\S")
#: Where pytest says a failure was raised: `tests/helpers.py:8: KeyError`, `app.py:12: in load`.
_RAISE_SITE = lazy(r"^\S+:\d+: (?:\w[\w.]*|in \S+)?$")
_E_LINES = 8


def _message(body: list[str]) -> list[str]:
    """A failure's message. For pytest, its `E` lines (the assertion or exception and
    what pytest explains of it) and the raise site (`tests/helpers.py:8: KeyError`),
    even when the exception came from deep inside library code. For a Python
    traceback (unittest's), the test's own frame, the frame that raised and the
    exception with the lines after it. Otherwise its assertion line (or, when none
    says so, its first line that is not a stack frame) and the lines right after it
    up to the next frame: jest's `Expected:` and `Received:`, cargo's `left:` and `right:`."""
    explained = [k for k, line in enumerate(body) if _E_LINE.match(line)]
    if explained:
        sites = [k for k, line in enumerate(body) if _RAISE_SITE.match(line) and k > explained[0]]
        picked = explained[:_E_LINES] + sites[-1:]
        return [body[k] for k in sorted(picked)]
    frames = [k for k, line in enumerate(body) if _PY_FRAME.match(line)]
    raised = (
        next((k for k in range(frames[-1] + 1, len(body)) if _PY_EXCEPTION.match(body[k])), None) if frames else None
    )
    if raised is not None:
        told = [line for line in body[raised + 1 :] if line.strip()][: _MESSAGE_LINES - 1]
        return [body[k] for k in sorted({frames[0], frames[-1]})] + [body[raised], *told]
    start = next((k for k, line in enumerate(body) if _ASSERTION.search(line) and not _FRAME.match(line)), None)
    if start is None:
        start = next((k for k, line in enumerate(body) if line.strip() and not _FRAME.match(line)), None)
    if start is None:
        return []
    message = [body[start]]
    for line in body[start + 1 :]:
        if len(message) >= _MESSAGE_LINES or _FRAME.match(line):
            break
        if line.strip():
            message.append(line)
    return message


#: pytest's short test summary: `FAILED tests/test_a.py::test_b[1] - AssertionError: …`.
_SUMMARY_LINE = lazy(r"^(?:FAILED|ERROR) (?P<id>\S.*?)(?: - .*)?$")
_PYTEST_ERROR = lazy(r"^ERROR (?:at (?:setup|teardown) of|collecting) ")


def _listed(lines: list[str]) -> set[str]:
    """The tests a short summary names, as their blocks' titles name them."""
    names = set()
    for line in lines:
        found = _SUMMARY_LINE.match(line)
        if found:
            node = found.group("id")
            names.add(node)
            if "::" in node:
                names.add(node.split("::", 1)[1].replace("::", "."))
    return names


def _family(name: str) -> str:
    """The test a case belongs to: `test_x[3]` → `test_x`, `suite › case` → `suite`,
    `TestX/sub` → `TestX`."""
    if name.endswith("]") and "[" in name:
        return name[: name.index("[")]
    for separator in (" › ", " > "):
        if separator in name:
            return name.rsplit(separator, 1)[0]
    if "/" in name and " " not in name:
        return name.split("/", 1)[0]
    return name


#: A test's verdict on a line of its own: `tests/a.py::test_b PASSED  [ 40%]` (-v) or
#: `PASSED tests/a.py::test_b` (-rA): neighbours of one file and verdict share a line.
_VERDICT_AFTER = lazy(r"^(?P<file>[^\s:]+)::(?P<name>\S+) (?P<verdict>PASSED|SKIPPED|XFAIL|XPASS)(?:\s+\[\s*\d+%\])?$")
_VERDICT_BEFORE = lazy(r"^(?P<verdict>PASSED|SKIPPED|XFAIL|XPASS) (?P<file>[^\s:]+)::(?P<name>\S+)$")


def _passing_unit(line: str) -> Unit:
    """A passing test; its lossless form joins its file's neighbours of the same
    verdict in one brace list (`tests/a.py::{test_b,test_c} PASSED`), the progress
    column going (it counts lines, it says nothing of a test)."""
    after = _VERDICT_AFTER.match(line)
    found = after or _VERDICT_BEFORE.match(line)
    timed = _TIMED_VERDICT.match(line) if found is None else None
    if timed is not None:  # go test -v: `--- PASS: TestWrite (0.00s)`, neighbours of one time joined
        name, joins, joins_after = timed["name"], timed["lead"], timed["after"]
    elif found is None or not test_id_safe(found.group("name")):
        return Unit("passing test", "", (line,), (line,), priority=0)
    else:
        file, name, verdict = found.group("file", "name", "verdict")
        joins, joins_after = (f"{file}::", f" {verdict}") if after else (f"{verdict} {file}::", "")
    return Unit(
        "passing test",
        "",
        (line,),
        (line,),
        priority=0,
        lossless=(Encoded(name + ",", 1),),
        joins=joins,
        joins_after=joins_after,
        factor=timed is None,  # a test's cases by stem; go's tests one list
    )


#: A test's verdict with its time (`go test -v`: `--- PASS: TestWrite (0.00s)`).
_TIMED_VERDICT = lazy(r"^(?P<lead>--- (?:PASS|SKIP): )(?P<name>[^\s{},/]+)(?P<after> \(\d+(?:\.\d+)?s\))$")
#: A subtest's verdict under its test's (`go test -v`: `    --- PASS: TestRead/Simple (0.00s)`).
_SUBTEST_VERDICT = lazy(
    r"^(?P<lead>\s+--- (?:PASS|SKIP): [^\s{},]+/)(?P<name>[^\s{},/]+)(?P<after> \(\d+(?:\.\d+)?s\))$"
)


def _verdicts_said_once(lines: list[str]) -> tuple[Item, ...]:
    """A failing test's lines with each run of its subtests' verdicts that say the same
    but for the subtest's name said once, the names in a brace list
    (`    --- PASS: TestRead/{Simple,CRLF,BareCR} (0.00s)`); () when there is none."""
    if not any("--- " in line for line in lines[1:]):
        return ()
    out: list[Item] = []
    k = 0
    while k < len(lines):
        found = _SUBTEST_VERDICT.match(lines[k])
        if found is None:
            out.append(lines[k])
            k += 1
            continue
        lead, after, names = found["lead"], found["after"], [found["name"]]
        k += 1
        while k < len(lines) and (more := _SUBTEST_VERDICT.match(lines[k])) and more["lead"] == lead:
            if more["after"] != after:
                break
            names.append(more["name"])
            k += 1
        out.extend(brace_lines(lead, names, after) if len(names) > 1 else [lead + names[0] + after])
    return tuple(out) if len(out) < len(lines) else ()


def parse(lines: list[str], view: Lines | None = None) -> Parsed:
    """Test runner output: every failing test's block is a unit kept whole while it
    fits (its short form is its title and the message of its failure); passing tests
    are units that go first. A block whose test the short summary names (pytest's
    `FAILED …` lines) may go whole: its name stays in the summary."""
    parsed: Parsed = []
    current: list[str] = []
    text = "\n".join(lines) if view is None else view.text(False) or ""
    failing = holding(text, ("FAIL",))  # a block's hint too: `FAILED ` is looked for once
    summary = (bool(failing) or "ERROR " in text) and any(line.startswith(("FAILED ", "ERROR ")) for line in lines)
    listed = _listed(lines) if summary else set()
    kinds_seen: set[str] = set()

    def close() -> None:
        if current:
            title = current[0]
            message = _message(current[1:])
            assertion = bool(message)
            short = (Pinned(title),) + tuple(Pinned(clip_line(line, LINE_LIMIT)) for line in message)
            name = next((found.group("name") for found in map(lambda b: b.match(title), _TEST_BLOCKS) if found), "")
            in_summary = _PYTEST_ERROR.sub("", name) in listed
            # Failures raised at one site with one exception fail alike, whatever their
            # names: the first of each kind keeps its message longest.
            site = next((line for line in reversed(message) if _RAISE_SITE.match(line)), None)
            # A block the summary names may go whole, but for the first of each kind
            # (raise site and exception): its message says what the summary's clipped line cannot.
            kind = site.rpartition(": ")[2] or site if site is not None else None
            first_of_kind = kind is not None and kind not in kinds_seen
            if kind is not None:
                kinds_seen.add(kind)
            parsed.append(
                Unit(
                    "failing test",
                    "listed in the summary" if in_summary else "",
                    tuple(current),
                    short,
                    (short if first_of_kind else ()) if in_summary else (Pinned(title),),
                    lossless=_verdicts_said_once(current),
                    priority=3,
                    short_note="beyond their title and message" if assertion else "beyond their title",
                    minimal_note="beyond their title",
                    family=site or _family(name),
                )
            )
            current.clear()

    block, block_end = _ANY_TEST_BLOCK.match, _BLOCK_END.match
    # A block's start and a passing test's line hold one of their hints: the lines
    # that hold none, most of a long run's, are taken a run at a time.
    whole = text.count("\n") != len(lines) - 1  # a line of several: each line tried
    hinted = range(len(lines)) if whole else failing | holding(text, _BLOCK_HINTS_BUT_FAIL)
    starts = {k for k in hinted if block(lines[k])}
    marks = list(range(len(lines))) if whole else sorted(starts | holding(text, _PASSING_HINTS))
    k, end = 0, len(lines)
    while k < end:
        line = lines[k]
        if k in starts:
            close()
            current.append(line)
            k += 1
            continue
        if current:
            if not block_end(line):
                current.append(line)
                k += 1
                continue
            close()
        following = marks[bisect.bisect_left(marks, k)] if marks and marks[-1] >= k else end
        if following > k:
            parsed += lines[k:following]  # neither a block's start nor a passing test
            k = following
            continue
        parsed.append(_passing_unit(line) if _passing(line) else line)
        k += 1
    close()
    return parsed
