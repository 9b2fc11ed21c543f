"""Noise many tools share, declared once and named by rules (`filters.noise`).

A rule that names a kind here drops its lines like its own skip patterns, so the
same regexes are not copied into every rule that can see them. Some noise is not a
pattern but depends on the lines around it (`STRUCTURAL`): a `note:` line is noise
only when it follows the first note of a diagnostic already shown; git's `On
branch main` only when nothing else is said about the branch.
"""

from __future__ import annotations

import re
from itertools import compress, count
from operator import not_

from ..fast.lazyre import lazy
from .lines import hunk_bodies

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from ..rules.patterns import Lines

#: kind -> skip patterns (stdlib `re` syntax; built-in, trusted).
PATTERNS: dict[str, tuple[str, ...]] = {
    # git's hints in status, merge, rebase and commit output; not those that say how to
    # finish, skip or abort an operation in progress (a merge's `fix conflicts and run
    # "git commit"`, `use "git merge --abort"`, a rebase's `--continue`, `--skip`): they
    # are shown only then, and the agent's next step is one of them
    "git-advice": (
        r'^\s*\(use "git (?!\S+ --(?:continue|skip|abort|quit)\b)[^)]*\)$',
        r"^\s*\(commit or discard[^)]*\)$",
        r'^hint: (?:Use|Disable this message|See "git help|You can (?:also )?(?:use|run)|and then use|After resolving)',
        r"^no changes added to commit \(use",
        r"^nothing added to commit but untracked files present \(use",
    ),
    # npm's request and cache log and timing lines (--loglevel http/verbose, --timing)
    "npm-chatter": (
        r"^npm (?:http (?:fetch|cache)|timing|sill|verb|info (?:using|ok|run)) ",
        r"^npm notice\s*$",
    ),
    # pip re-checking what is installed for a dependency or a requirements file
    # (`… (from flask) (8.1.7)`, `… (from -r requirements.txt (line 3)) (2.32.3)`); a
    # package asked for by name keeps its line: it answers the request
    "pip-satisfied": (r"^Requirement already satisfied: \S+ in \S+ \(from ",),
    # pytest's session header (versions, rootdir, configuration, plugins and what the
    # plugins say about themselves), live-log banners, and INFO/DEBUG log records
    # (WARNING and above stay)
    "pytest-header": (
        r"^platform \S+ -- Python \d",
        r"^(?:rootdir|configfile|inifile|testpaths|plugins|cachedir|hypothesis profile|asyncio|anyio|benchmark"
        r"|django|timeout(?: method| func_only)?): ",
        r"^Using --randomly-seed=\d+$",
        r"^hypothesis profile '[^']*'",  # newer hypothesis: `hypothesis profile 'default'`
        r"^-+ live log (?:sessionstart|collection|setup|call|teardown|sessionfinish|finish) -+$",
        # pytest-xdist: its workers started, and the platform line it puts under each failure's title
        r"^(?:created: \d+/\d+ workers?|bringing up nodes\.\.\.)$",
        r"^\[gw\d+\] \S+ -- Python \d",
        r"^(?:INFO|DEBUG)\s+\S+:\S+:\d+ ",
    ),
    # the pyright wrapper from PyPI telling of a newer pyright, after every run
    "pyright-update": (
        r"^WARNING: there is a new pyright version available \(v[\w.]+ -> v[\w.]+\)\.$",
        r"^Please install the new version or set PYRIGHT_PYTHON_FORCE_VERSION to `latest`$",
    ),
    # blob ids of a diff: `index 0daeb4a..3e0219d 100644`
    "diff-index": (r"^index [0-9a-f]+(?:,[0-9a-f]+)*\.\.[0-9a-f]+(?: \d{6})?$",),
    # downloads and transfer progress
    "download-progress": (
        r"^\s*(?:Downloading|Downloaded|Fetching|Fetched|Progress:)\b.*(?:\d+(?:\.\d+)?\s*[kKMG]i?B|\d+%)",
        r"^\s*[|/\\-]?\s*\[?[#=>.\s-]{10,}\]?\s*\d+%",
    ),
}
COMPILER_NOTE = lazy(r"^\S+?:\d+(?::\d+)?: note: ")
_DIAGNOSTIC = lazy(r"^\S+?:\d+(?::\d+)?: (?:warning|error|fatal error): ")


def patterns(kinds: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(pattern for kind in kinds for pattern in PATTERNS.get(kind, ()))


def structural(kinds: tuple[str, ...], view: Lines) -> set[int]:
    """Indexes of the lines (`view.lines`) the kinds' structural tests find to be noise."""
    dropped: set[int] = set()
    for kind in kinds:
        test = STRUCTURAL.get(kind)
        if test is not None:
            dropped |= test(view)
    return dropped


_EXCERPT = lazy(r"^\s*\d* \| ")


def repeated_notes(view: Lines) -> set[int]:
    """gcc/clang `note:` lines after the first note of the diagnostic above them,
    with the source excerpt (`  5 | long f(int x);`, `    |      ^~~`) under each."""
    lines = view.lines
    dropped: set[int] = set()
    notes_seen = -1  # -1: no diagnostic yet
    in_dropped_note = False
    for index, line in enumerate(lines):
        if in_dropped_note and _EXCERPT.match(line):
            dropped.add(index)
            continue
        in_dropped_note = False
        if _DIAGNOSTIC.match(line):
            notes_seen = 0
        elif COMPILER_NOTE.match(line) and notes_seen >= 0:
            notes_seen += 1
            if notes_seen > 1:
                dropped.add(index)
                in_dropped_note = True
    return dropped


def repeated_names(view: Lines) -> set[int]:
    """A diff's `--- a/P` and `+++ b/P` lines where they only repeat the file its
    `diff --git a/P b/P` line names (or `/dev/null` beside `new file mode` /
    `deleted file mode`): the file is said once, nothing is lost. `diff -u` without
    a git header keeps them: there they are the only place the files are named."""
    lines = view.lines
    dropped: set[int] = set()
    names = ""  # what follows `diff --git ` in the current file's header, "" outside one
    created = deleted = False
    for index, line in enumerate(lines):
        if line.startswith("diff --git "):
            names, created, deleted = line[11:], False, False
        elif not names:
            continue
        elif line.startswith("@@"):
            names = ""  # the header ends at the first hunk
        elif line.startswith("new file mode "):
            created = True
        elif line.startswith("deleted file mode "):
            deleted = True
        elif line.startswith("--- "):
            old = line[4:]
            if (old == "/dev/null" and created) or names.startswith(old + " "):
                dropped.add(index)
        elif line.startswith("+++ "):
            new = line[4:]
            if (new == "/dev/null" and deleted) or names.endswith(" " + new):
                dropped.add(index)
    return dropped


#: pytest's long traceback: where a frame section starts, and the location line that
#: ends it (`/usr/lib/python3.11/json/decoder.py:355: JSONDecodeError`, `…: in loads`).
_PYTEST_SECTION = lazy(r"^(?:_+ .* _+|(?:_ )+_)$")  # `_ test_x _` when its name fills the width
#: (a frozen module's name has a space: `<frozen importlib._bootstrap>:1204: in _gcd_import`)
_PYTEST_LOCATION = lazy(r"^(?P<path><frozen [^>]+>|\S+?):\d+: (?:in \S+|\w[\w.]*)$")
_LIBRARY_PATH = lazy(r"site-packages/|dist-packages/|/lib/python\d[\d.]*/|<frozen ")
#: Substrings one of which any `_LIBRARY_PATH` match contains: a text without them
#: has no library frame, found with a substring search rather than a regex over it.
_LIBRARY_PLACES = ("site-packages/", "dist-packages/", "/lib/python", "<frozen ")


def _holds_a_library_place(view: Lines) -> bool:
    """Whether the output the lines come from holds one of _LIBRARY_PLACES: both
    `…-packages/` looked for in one search where neither is there (each search reads
    all of a big output)."""
    packages = view.holds("-packages/") and (view.holds("site-packages/") or view.holds("dist-packages/"))
    return packages or view.holds("/lib/python") or view.holds("<frozen ")


def library_source(view: Lines) -> set[int]:
    """The source lines and locals pytest prints for a frame in library code (an
    installed package, the standard library): its docstring and body are not what
    failed. The frame's location, its `>` line and its `E` lines stay."""
    dropped: set[int] = set()
    if view.within is not None and not _holds_a_library_place(view):
        return dropped  # not even in the output the lines come from
    lines, text = view.lines, view.text(False) or ""
    if not any(place in text for place in _LIBRARY_PLACES):  # no frame in library code
        return dropped
    start = None
    for index, line in _pytest_marks(text, lines):
        if not line.startswith("_") or _PYTEST_LOCATION.match(line):
            found = _PYTEST_LOCATION.match(line)
            if found is None:
                continue
            library = _LIBRARY_PATH.search(found.group("path")) is not None
            if library and line.rstrip().rpartition(": ")[2].startswith("in "):
                # the short form: the location, then the line it ran
                after = index + 1
                while after < len(lines) and lines[after][:1] == " ":
                    dropped.add(after)
                    after += 1
            elif library and start is not None:  # the long form: locals and source, then the location
                dropped |= {k for k in range(start + 1, index) if lines[k][:1] not in (">", "E")}
            start = index  # a location line also ends the section before the next frame
        elif _PYTEST_SECTION.match(line):
            start = index
    return dropped


#: Where a line of pytest's traceback starts a section or gives a frame's location.
_PYTEST_MARK = lazy(r"^(?:_|[^\s>E][^\n]*?:\d+: )", re.MULTILINE)


def _pytest_marks(text: str, lines: list[str]) -> list[tuple[int, str]]:
    """(index, line) of the `lines` (joined, `text`) that may start a section or give
    a location, found with one search over the text rather than a test per line."""
    marks = []
    line_of = offset = 0
    for found in _PYTEST_MARK.finditer(text):
        line_of += text.count("\n", offset, found.start())
        offset = found.start()
        marks.append((line_of, lines[line_of]))
    return marks


#: A compiler run on one source file, as make echoes it (`cc -Wall -c src/a.c -o a.o`).
_COMPILE = lazy(r"^\s*(?:\S*/)?(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+)(?:-\d+)?\s(?:.*\s)?-c\s")
#: Any compiler run make echoes (a compile, a link).
_COMPILER = lazy(r"^\s*(?:\S*/)?(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+|ld|ar)(?:-\d+)?\s")


#: The source file a compile command builds: its last word with a source's extension.
_SOURCE = lazy(r"(?:^|\s)(?P<file>\S+\.(?:c|cc|cpp|cxx|c\+\+|C|m|mm|s|S))(?=\s|$)")
#: A diagnostic naming its file: `trees.c:411:17: warning: …`, `gzlib.c: In function ‘gzbuffer’:`,
#: `In file included from src/a.c:3:`.
_DIAGNOSED = lazy(
    r"^(?:In file included from |\s+from )?(?P<file>[^\s:]+):(?:\d+:(?:\d+:)?\s(?:fatal error|error|warning|note):"
    r"|\s+In (?:function|member function|constructor|destructor|static function|instantiation|lambda)\b"
    r"|\s+At top level:|\d+[,:])"
)


def clean_compiles(view: Lines) -> set[int]:
    """The compile commands make echoes for files that compiled without a word. A
    command whose file a diagnostic names stays (it says which flags built the file
    that warned), wherever the diagnostic is: `make -j4` prints the compiler's words
    after other jobs' commands, so a command followed by a diagnostic of another file
    goes. The first and the last command stay: the flags every file is built with,
    where the build got to."""
    lines = view.lines
    diagnosed = set()
    for line in lines:
        found = _DIAGNOSED.match(line)
        if found:
            diagnosed.add(found.group("file").rpartition("/")[2])
    compiles = [index for index, line in enumerate(lines) if _COMPILE.match(line)]
    dropped: set[int] = set()
    for index in compiles:
        source = _SOURCE.findall(lines[index])
        if source and source[-1].rpartition("/")[2] in diagnosed:
            continue
        following = lines[index + 1] if index + 1 < len(lines) else ""
        said = following.strip() and not _COMPILER.match(following) and not following.startswith(("make", "gmake"))
        if not said or _DIAGNOSED.match(following):  # nothing of its own, or another file's words
            dropped.add(index)
    return dropped - set(compiles[:1] + compiles[-1:])


_BUILDING = lazy(r"^\s+(?:Compiling|Checking) (?P<crate>\S+) v\S")
_NOT_BUILT = lazy(r"could not compile `(?P<crate>[^`]+)`")


def built_crates(view: Lines) -> set[int]:
    """cargo's `Compiling x v0.1.0` / `Checking x v0.1.0` lines of the crates that
    built (the failing crate's line says where the errors are being reported)."""
    lines = view.lines
    failed = {found.group("crate") for line in lines if (found := _NOT_BUILT.search(line))}
    building = ((k, _BUILDING.match(line)) for k, line in enumerate(lines))
    return {k for k, found in building if found and found.group("crate") not in failed}


def blank_lines(view: Lines) -> set[int]:
    """Blank lines, but for a unified diff's blank context lines (a lone space, often
    stripped): those are lines of the file, and a hunk without them neither applies
    nor says how far apart what it changes is (`git show`, `black --diff`)."""
    lines = view.lines
    blank = set(compress(count(), map(not_, map(str.strip, lines))))
    if blank and view.holds("@@ -"):
        blank -= hunk_bodies(lines)
    return blank


def passed_examples(view: Lines) -> set[int]:
    """doctest -v's examples that passed: `Trying:`, the example's source indented
    under it, `Expecting:` (or `Expecting nothing`) and the value indented under it,
    then `ok`. The block of an example that failed ends otherwise (its report, a line
    of stars) and stays; the closing counts say how many passed."""
    lines = view.lines
    dropped: set[int] = set()
    start = -1  # where the open `Trying:` block starts, -1 outside one
    for index, line in enumerate(lines):
        if line == "Trying:":
            start = index
        elif line == "ok" and start >= 0:
            dropped.update(range(start, index + 1))
            start = -1
        elif start >= 0 and not line.startswith("    ") and line not in ("Expecting:", "Expecting nothing"):
            start = -1
    return dropped


#: kind -> a test over all the lines, for noise no single-line pattern can tell.
STRUCTURAL: dict[str, Callable[[Lines], set[int]]] = {
    "blank-lines": blank_lines,
    "doctest-passed": passed_examples,
    "compiler-notes": repeated_notes,
    "diff-names": repeated_names,
    "cargo-built": built_crates,
    "clean-compiles": clean_compiles,
    "pytest-library-source": library_source,
}
