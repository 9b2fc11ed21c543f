"""Linters' and type checkers' findings as units (`unit = "finding"`).

One finding is a diagnostic line and what the tool prints under it: ruff's and
rustc's `-->` location, a source excerpt, `help:` and `note:` lines, pylint's
duplicate-code excerpt, a type checker's notes. The shapes recognised:

- location first: `src/a.py:12:5: F821 undefined name 'x'` (flake8, ruff concise,
  pylint), `shop/a.py:12: error: … [arg-type]` (mypy), `main.c:3:5: warning: …`
  (gcc, clang), `src/a.ts(17,9): error TS2322: …` (tsc), `  /abs/a.py:3:1 - error: …`
  (pyright), `x.go:25:10: Error return value … (errcheck)` (golangci-lint);
- a heading whose next line points at the place: `F401 [*] \\`os\\` imported but unused`
  or `error[E0308]: mismatched types`, then `  --> src/a.py:1:8` (ruff, rustc, clippy);
- eslint's stylish table: a file's path on its own line, then `  12:5  error  …  rule`;
- esbuild's: `▲ [WARNING] … [equals-nan]` or `✘ [ERROR] …`, its place on an indented
  line under it (`    src/a.js:3:17:`), then the quoted line, its squiggle and notes.
- pydocstyle's: its place and what is there, ``src/a.py:12 in public function `f`:``, then
  the code and message indented on the line under it (`        D103: Missing docstring …`);
- bandit's blocks: `>> Issue: [B602:subprocess_popen_with_shell_equals_true] …`, then
  indented `Severity: High   Confidence: High`, its CWE, a link and `Location: src/a.py:53:11`,
  then the quoted lines (`53\treturn subprocess.call(…)`); ranked by its severity;
- shellcheck's default (tty) blocks: `In deploy.sh line 12:`, the script's line, a caret
  line per finding under it (`  ^-- SC2086 (info): Double quote …`) and `Did you mean:`
  with the line fixed; a block is one finding, ranked and counted by its worst code.

What matters most is kept longest (`priority`): errors before warnings before
conventions and hints, each in the project's own files before vendored and
generated code; a code's first finding (what the code means) is kept as long as
a warning, and of those, a code found once outlasts the first of a code found often
(cut, it would cost a marker of its own); a file's first convention outlasts the
other conventions, so every file linted is named. A finding's short form is its diagnostic and location without the
excerpt; findings that do not fit are counted per code in one line that names where
the first ones are (`gathered`, `place`), so no code goes unmentioned. Before any of
that, findings that say the same thing and matter alike are one unit
(`_said_together`), their places in brace lists: a cut weighs eighty missing
docstrings of one file as the one line they take.
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from ..fast.record import replace
from ..text import clip_line
from .lines import Encoded, Item, Pinned
from .reencode import brace_lines, shared_folder
from .unit import LINE_LIMIT, Parsed, Unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from collections.abc import Callable

    Vendored = Callable[[str], bool]

#: A diagnostic's own line is clipped only past this: tsc's types make messages of 300
#: to 400 characters whose end says what to do ("Consider adding 'undefined' to …").
_MESSAGE_LIMIT = 1000

#: `path:line[:col]:` or `path(line,col):` then the diagnostic (optionally indented, ` - `),
#: or eslint's compact format: `path: line 12, col 5, Error - …`.
_LOCATED = lazy(
    r"^\s*(?P<path>[^\s:()'\"][^:()'\"]*?)"
    r"(?::(?P<rline>\d+):\d+ -|:(?P<line>\d+)(?::\d+)?:(?=\s)|\((?P<pline>\d+),\d+\):|: line (?P<cline>\d+), col \d+,)"
    r"\s*(?P<rest>\S.*)$"
)
#: The line under a heading that says where: `  --> src/a.py:1:8`.
_ARROW = lazy(r"^(?P<indent>\s*)--> (?P<path>\S+?):(?P<place>(?P<line>\d+)(?::\d+)?)\s*$")
#: esbuild's message (`▲ [WARNING] …`, `✘ [ERROR] …`; `!`/`X` where it prints no
#: symbols) and the line under it that says where: `    src/a.js:3:17:`.
_ESBUILD = lazy(r"^(?:✘|▲|X|!) \[(?:ERROR|WARNING)\] \S")
_ESBUILD_PLACE = lazy(r"^\s+(?P<path>[^\s:]+):(?P<line>\d+):\d+:$")
#: esbuild's quoted source line: `      3 │ if (x === NaN) {`.
_QUOTED = lazy(r"^\s+\d+ │ ")
#: eslint's stylish table: `  12:5  error  'x' is not defined  no-undef`.
_STYLISH = lazy(r"^\s+(?P<line>\d+):\d+\s+(?P<severity>error|warning)\s+\S")
_STYLISH_FILE = lazy(r"^(?P<path>/?[\w.@+~-]+(?:/[\w.@+~-]+)*\.\w+)$")
#: A diagnostic says what it is within its first words.
_SEVERITY = lazy(
    r"(?i)\b(?P<word>fatal error|fatal|error|warning|warn|note|info(?:rmation)?|hint|convention|refactor|style)\b"
)
_CODE = lazy(
    r"\b(?P<code>[A-Z]{1,5}\d{2,5})\b|\[(?P<bracket>-?[a-zA-Z][\w-]*)\]\s*$|\((?P<symbol>[a-z][\w-]*)\)\s*$"
    r"|\s{2}(?P<rule>@?[\w-]+(?:/[\w-]+)*)\s*$"
)
#: eslint's unix formatter says a finding's severity and rule last: `path:12:5: 'x' is
#: defined but never used. [Error/no-unused-vars]`, `… [Warning]` (no rule: an unused
#: eslint-disable directive).
_UNIX_TAIL = lazy(r"\[(?P<word>Error|Warning)(?:/(?P<rule>[^\]\s]+))?\]$")
#: Lines that belong to the finding above them.
_CONTINUES = lazy(r"^(?:\s|\||==|-->|= |\d+\s*[|+-]|(?:help|note|hint|info)(?:\[\w+\])?:|-{20,}$|\.\.\.)")
_LEADING_CODE = lazy(r"\[?[A-Z]{1,5}\d{2,5}\b")
#: Notes a tool prints as diagnostics of their own but which explain the one above.
_NOTE = lazy(r"^\s*note\b|^\s*\S+:\d+(?::\d+)?: note: ")

#: What a tool advises under a finding: `help: …`, `= note: …`, and a suggestion
#: under the carets (`   |     ^^^^ help: try: `x.first()``).
_ADVICE = lazy(r"^\s*(?:=\s*)?(?:help|note|hint):|^\s*\|\s*[\^-]+\s+help: ")
#: What explains a finding in words, under it: a note at its place (mypy's `a.py:12:
#: note: Possible overload variants:`) and an indented sentence (tsc's elaboration,
#: `  Type 'X' is not assignable to type 'Y'.`; pyright's rule under its message). Not
#: a source excerpt: a gutter (`  12 | x`, `   |`), a caret or tilde line, a `-->`; nor
#: what introduces another place (esbuild's `  The original key "a" is here:`).
_EXPLAINS = lazy(r"^\S+:\d+(?::\d+)?: note: |^\s+['\"A-Za-z].*[^:]$")

#: gcc's note naming where a macro holding the diagnostic was used (`lapi.c:906:3: note: in
#: expansion of macro ‘invalidateTMcache’`): for a diagnostic placed in a header's macro, its
#: last such note is the line of the code that used it, which the finding's short form keeps.
_EXPANDED = lazy(r"^\S+:\d+:\d+: note: in expansion of macro ")
#: The function a compiler's diagnostics below are in (`main.c: In function ‘main’:`):
#: said with the error after it, the first line of its unit (`_finding`).
_IN_FUNCTION = lazy(r"^[^\s:][^:]*: In (?:(?:static |member )*function|constructor|destructor) \S.*:$")
#: shellcheck's block heading, the caret line of each finding under it, and what ends
#: the last block (its wiki links).
_SHELLCHECK_HEAD = lazy(r"^In (?P<path>.+) line (?P<line>\d+):$")
_SHELLCHECK_CARET = lazy(r"^\s*\^-*\^? (?P<finding>SC\d{4} \((?P<level>error|warning|info|style)\): .*)$")
_SHELLCHECK_END = "For more information:"
#: pydocstyle's place (``src/a.py:12 in public method `run`:``, `src/a.py:1 at module
#: level:`) and the diagnostic on the line under it (`        D102: Missing docstring …`).
_DOCSTYLE_PLACE = lazy(r"^(?P<path>[^\s:][^:]*):(?P<line>\d+) (?:in \w+(?: \w+)* `[^`]+`|at module level):$")
_DOCSTYLE_CODE = lazy(r"^\s+D\d{3}: \S")
_SHELLCHECK_LEVELS = {"error": 3, "warning": 2, "info": 1, "style": 0}
#: bandit's issue, the lines under it (indented, or a quoted line: `53\treturn x`, `54`
#: where the line is blank), its severity and its place.
_BANDIT_ISSUE = ">> Issue: ["
_BANDIT_UNDER = lazy(r"^(?:\s|\d+(?:\t|$))")
_BANDIT_SEVERITY = lazy(r"^\s+Severity: (?P<level>High|Medium|Low|Undefined)\b")
_BANDIT_PLACE = lazy(r"^\s+Location: (?P<path>.+?):(?P<line>\d+):\d+$")

ERROR, WARNING, CONVENTION = 3, 2, 1
#: Codes whose letter says how bad they are (pylint; ruff's and flake8's pyflakes and
#: pycodestyle families): `E0602` error, `W0611` warning, `C0114` convention.
_PYLINT = lazy(r"^(?P<letter>[CRWEFI])\d{4}$")
_SERIOUS = lazy(r"^(?:E9\d\d|F63\d|F7\d\d|F82\d|PLE\d+|E\d{4}|TS\d+)$")
_WARNINGS = lazy(r"^(?:[EFWBS]\d+|PLW\d+|ASYNC\d+|DTZ\d+)$")
_WORDS = {"fatal error": ERROR, "fatal": ERROR, "error": ERROR, "warning": WARNING, "warn": WARNING}


def parse(lines: list[str], vendored: Vendored) -> Parsed:
    """`lines` split into findings and loose lines (banners, summaries, a file's
    heading in eslint's table, kept by the rule's head, tail and pins).
    `vendored(path)` says whether a path is code the project did not write."""
    parsed: Parsed = []
    current: list[str] = []
    start: dict[str, str] = {}
    stylish_file = ""
    context = ""  # the function the next diagnostic is in (`_IN_FUNCTION`)
    codes: set[tuple[str, bool]] = set()  # (code, own) of the findings so far
    files: set[str] = set()  # the paths of the findings so far

    def close() -> None:
        if current:
            heading = _SHELLCHECK_HEAD.match(current[0])
            if heading:
                parsed.append(_shellcheck_finding(list(current), heading, vendored, codes, files))
            elif current[0].startswith(_BANDIT_ISSUE):
                parsed.append(_bandit_finding(list(current), vendored, codes, files))
            else:
                parsed.append(_finding(list(current), start, vendored, codes, files))
            current.clear()

    count = len(lines)
    block = False  # inside a shellcheck block: every line is the finding's until the next
    bandit = False  # under a bandit issue: its indented and quoted lines are the issue's
    for index, line in enumerate(lines):
        if line.startswith("In ") and _SHELLCHECK_HEAD.match(line):
            close()
            block = True
            current.append(line)
            continue
        if block:
            if line == _SHELLCHECK_END:
                block = False
            else:
                current.append(line)
                continue
        if line.startswith(_BANDIT_ISSUE):
            close()
            current.append(line)
            bandit = True
            continue
        if bandit:
            if _BANDIT_UNDER.match(line):
                current.append(line)
                continue
            bandit = False
        if line.endswith(":") and _IN_FUNCTION.match(line):
            close()
            context = line  # said with the error after it, if one comes next
            continue
        following = lines[index + 1] if index + 1 < count else ""
        arrow = _ARROW.match(following) if line and not line[0].isspace() else None
        if arrow is None and _ESBUILD.match(line):
            close()
            place = _ESBUILD_PLACE.match(following)
            start = {"path": place.group("path"), "line": place.group("line"), "text": line} if place else {}
            current.append(line)
            continue
        docstyle = _DOCSTYLE_PLACE.match(line) if line.endswith(":") else None
        if docstyle and _DOCSTYLE_CODE.match(following):  # the diagnostic is the line under its place
            close()
            start = {"path": docstyle["path"], "line": docstyle["line"], "text": following.strip(), "under": "1"}
            current.append(line)
            continue
        located = None if arrow else _LOCATED.match(line)
        stylish = _STYLISH.match(line) if stylish_file and not located else None
        if located and current and _NOTE.match(line):
            current.append(line)  # mypy's and gcc's notes explain the diagnostic above
            continue
        if arrow or (located and _diagnostic(located.group("rest"))) or stylish:
            close()
            if arrow:
                start = {"path": arrow.group("path"), "line": arrow.group("line"), "text": line}
            elif located:
                number = next(filter(None, located.group("line", "pline", "rline", "cline")))
                start = {"path": located.group("path").strip(), "line": number, "text": located.group("rest")}
                if context:
                    start["context"] = context
            elif stylish:
                start = {"path": stylish_file, "line": stylish.group("line"), "text": line.strip()}
            context = ""
            current.append(line)
            continue
        if current and line and _CONTINUES.match(line):
            current.append(line)
            continue
        close()
        heading = _STYLISH_FILE.match(line)
        if heading and _STYLISH.match(following):
            stylish_file = heading.group("path")
            parsed.append(Pinned(line))  # the findings under it name only their line
            continue
        if not line.strip():
            stylish_file = stylish_file if _STYLISH.match(following) else ""
        context = ""
        parsed.append(line)
    close()
    return _said_together(parsed)


#: A finding on one line whose place can go in a brace list with others': `path:12:5: …`,
#: what it says holding no brace (reencode.placed_together and decoded read it back).
_ONE_LINE = lazy(r"^(?P<path>[^\s{}:,'\"][^{}:,'\"]*):(?P<place>\d+(?::\d+)?)(?P<said>: [^{}]+)$")
#: What a path said in a brace list of places may not hold (`decoded` could not read it back).
_UNBRACEABLE = frozenset("{}:,'\"")


def _said_together(parsed: Parsed) -> Parsed:
    """`parsed` with the findings that say the same thing said together, losslessly, in
    one unit at the first of them: one-line findings of one file as one line with their
    places in a brace list (`src/a.py:{12:5,40:1}: C0116 …`), and findings under the same
    heading (ruff's and rustc's `CODE message` then `--> path:12:5`) as the heading once,
    then a `-->` line per file with its places in a brace list (`  --> src/a.py:{12:5,40:1}`),
    their source excerpts kept in the unit's full form. A cut then spends its room on what
    differs: 80 missing docstrings in one file cost a line, not 80."""
    keyed: dict[tuple[str, ...], list[int]] = {}
    for index, part in enumerate(parsed):
        key = _together_key(part) if isinstance(part, Unit) and part.kind == "finding" else None
        if key is not None:
            keyed.setdefault(key, []).append(index)
    merged: dict[int, Unit] = {}
    gone: set[int] = set()
    for key, indexes in keyed.items():
        if len(indexes) < 2:
            continue
        members = [parsed[k] for k in indexes]
        merged[indexes[0]] = _together(key, [m for m in members if isinstance(m, Unit)])
        gone.update(indexes[1:])
    if not merged:
        return parsed
    return [merged.get(k, part) for k, part in enumerate(parsed) if k not in gone]


def _together_key(unit: Unit) -> tuple[str, ...] | None:
    """What a finding must share with others to be said together with them: ("one",
    path, what it says) for a one-line finding (of one file: the file's findings stay
    under its heading), ("headed", heading) for a heading with its place under it, and
    its priority (a code's first finding, ranked up to say what the code means, stays
    alone); None for a finding that cannot be (a pinned line, braces)."""
    if any(isinstance(line, Pinned) or not isinstance(line, str) for line in unit.lines):
        return None
    first = str(unit.lines[0])
    if len(unit.lines) == 1:
        found = _ONE_LINE.match(first)
        if found and unit.place.startswith(found["path"] + ":"):
            return ("one", found["path"], found["said"], str(unit.priority))
        return None
    heading, place = (str(line) for line in unit.short[:2]) if len(unit.short) == 2 else ("", "")
    arrow = _ARROW.match(place) if place and heading[:1] not in ("", " ", "\t") else None
    if arrow and not _UNBRACEABLE.intersection(arrow["path"]):
        return ("headed", heading, "", str(unit.priority))
    return None


def _places_said(start: str, places: dict[str, list[str]], after: str) -> list[Item]:
    """A line per file with its places in a brace list (`start` + `path:{12:5,40:1}` +
    `after`), and the files found at one place each said together on one line under
    the folder they share, at the first of them (`src/{a.py:3:1,b.py:9:5}` + `after`,
    or `src/{a.py,b.py}:1:1` where the place is the same): each reads back alone."""
    singles = [path for path, at in places.items() if len(at) == 1]
    said: list[Item] = []
    for path, at in places.items():
        if len(singles) < 2 or len(at) > 1:
            said.extend(brace_lines(f"{start}{path}:", at, after))
        elif path == singles[0]:
            folder = shared_folder(singles)
            alike = len({places[single][0] for single in singles}) == 1
            names = [single[len(folder) :] + ("" if alike else f":{places[single][0]}") for single in singles]
            said.extend(brace_lines(f"{start}{folder}", names, (f":{at[0]}" if alike else "") + after))
    return said


def _together(key: tuple[str, ...], members: list[Unit]) -> Unit:
    """One unit standing for `members`, findings that say the same thing (`_together_key`)."""
    first = members[0]
    places: dict[str, list[str]] = {}  # path: places, in order
    start = ""  # what the lines start with: a heading's `-->` as the first finding has it
    for member in members:
        found = (_ONE_LINE if key[0] == "one" else _ARROW).match(
            str(member.lines[0] if key[0] == "one" else member.short[1])
        )
        assert found is not None
        if not places and key[0] == "headed":
            start = found["indent"] + "--> "
        places.setdefault(found["path"], []).append(found["place"])
    said = _places_said(start, places, key[2] if key[0] == "one" else "")
    # One-line findings said together lose nothing: that is their full form. Under a
    # heading, each keeps its excerpt in the full form, and is said together when short.
    short = tuple(said) if key[0] == "one" else (Encoded(key[1], len(members)), *said)
    # Findings with nothing under their place (no excerpt, no `help: …`) are said together
    # whole; trimmed of their excerpts, those with no advice under them are too.
    excerpts = any(len(member.lines) > len(member.short) for member in members)
    full = tuple(line for member in members for line in member.lines) if excerpts else short
    advised = any(len(member.trimmed or member.lines) > len(member.short) for member in members)
    trimmed = tuple(line for member in members for line in (member.trimmed or member.lines)) if advised else short
    return replace(
        first,
        lines=full,
        short=short,
        trimmed=trimmed if len(trimmed) < len(full) else (),
        priority=max(member.priority for member in members),
        count=sum(member.count for member in members),
        also=tuple(place for member in members[1:] for place in (member.place, *member.also) if place),
        heading=first.heading if len(places) == 1 else "",
    )


def _diagnostic(rest: str) -> bool:
    """Does what follows a location read as a diagnostic (a severity or a code)?"""
    return bool(_SEVERITY.match(rest) or _LEADING_CODE.match(rest) or _UNIX_TAIL.search(rest))


def _finding(
    lines: list[str], start: dict[str, str], vendored: Vendored, codes: set[tuple[str, bool]], files: set[str]
) -> Unit:
    text = start.get("text", lines[0])
    code = _code(text)
    severity = int(start["level"]) if "level" in start else _severity(text, code)
    path = start.get("path", "")
    own = not vendored(path)
    # A code's first finding says what the code means, which its marker (a count and
    # places) cannot: a convention's first is kept as long as a warning's, and the
    # second of any code goes before it.
    rank: float = max(severity, WARNING) if code and (code, own) not in codes else severity
    # A file's first finding names the file: of conventions, it outlasts the others.
    if path and rank == CONVENTION and path not in files:
        rank = CONVENTION + 0.5
    codes.add((code, own))
    files.add(path)
    head = [clip_line(lines[0], _MESSAGE_LIMIT)]
    if len(lines) > 1 and (_ARROW.match(lines[1]) or _ESBUILD_PLACE.match(lines[1]) or start.get("under")):
        head.append(lines[1])
    full = (head[0], *(clip_line(line, LINE_LIMIT) for line in lines[1:]))
    # the advice under it, and esbuild's quoted line of its own place (not of its notes')
    quoted = 2 if len(full) > 2 and _ESBUILD_PLACE.match(full[1]) and _QUOTED.match(full[2]) else None
    advice = tuple(
        line
        for k, line in enumerate(full)
        if k >= len(head) and (_ADVICE.match(line) or k == quoted or _EXPLAINS.match(line))
    )
    trimmed = tuple(head) + advice
    used = next((line for line in reversed(advice) if _EXPANDED.match(line)), None)
    short: tuple[Item, ...] = (*head, used) if used else tuple(head)
    context = start.get("context", "") if severity == ERROR else ""
    if context:  # the function it is in, said first as the compiler did (no file's heading over it)
        full, trimmed, short = (context, *full), (context, *trimmed), (context, *short)
    return Unit(
        "finding",
        code or _label(severity),
        full,
        short,
        priority=rank + (3 if own else 0),
        short_note="beyond their diagnostic and location",
        trimmed=trimmed if len(trimmed) < len(full) else (),
        trimmed_note="(source excerpts)",
        family=code,
        folder=path.rpartition("/")[0] + "/" if "/" in path else "",
        gathered=code or _label(severity),
        place=f"{path}:{start.get('line', '')}" if path else "",
        heading="" if context else _heading(lines[0], path, start.get("line", "")),
    )


def _heading(line: str, path: str, number: str) -> str:
    """What a finding's line starts with that a run of its file's findings says once:
    `path:` (`path:12:5: …`), or `path` where tsc prints `path(12,5): …`; else nothing."""
    if not path:
        return ""
    if line.startswith(f"{path}:{number}:"):
        return f"{path}:"
    return path if line.startswith(f"{path}({number},") else ""


def _shellcheck_finding(
    lines: list[str], heading: re.Match[str], vendored: Vendored, codes: set[tuple[str, bool]], files: set[str]
) -> Unit:
    """A shellcheck block as one finding: its heading names the place, its worst caret
    line says what it is; the short form is the heading and the caret lines (the
    script's line and the suggested fix go), the trimmed form drops the fix alone."""
    carets = [(k, found) for k, line in enumerate(lines) if (found := _SHELLCHECK_CARET.match(line))]
    if not carets:
        return _finding(lines, {"path": heading.group("path"), "line": heading.group("line")}, vendored, codes, files)
    worst = max(carets, key=lambda pair: _SHELLCHECK_LEVELS[pair[1].group("level")])[1]
    text = worst.group("finding")
    path = heading.group("path")
    fix = next((k for k, line in enumerate(lines) if line.startswith("Did you mean:")), len(lines))
    full = tuple(clip_line(line, LINE_LIMIT) for line in lines)
    short = (full[0],) + tuple(full[k] for k, _ in carets)
    start = {"path": path, "line": heading.group("line"), "text": text}
    unit = _finding([text], start, vendored, codes, files)
    return replace(
        unit,
        lines=full,
        short=short,
        trimmed=full[:fix] if fix < len(full) else (),
        trimmed_note="(suggested fixes)",
        heading="",
    )


def _bandit_finding(lines: list[str], vendored: Vendored, codes: set[tuple[str, bool]], files: set[str]) -> Unit:
    """A bandit issue as one finding, ranked by the severity bandit gives it (High an
    error, Medium a warning, Low a convention): the short form is the issue, its
    severity and its place; the trimmed form drops the quoted lines."""
    severity = next((found for line in lines[1:] if (found := _BANDIT_SEVERITY.match(line))), None)
    place = next((found for line in lines[1:] if (found := _BANDIT_PLACE.match(line))), None)
    level = {"High": ERROR, "Medium": WARNING}.get(severity["level"] if severity else "", CONVENTION)
    start = {"path": place["path"], "line": place["line"]} if place else {}
    unit = _finding([lines[0]], start | {"text": lines[0], "level": str(level)}, vendored, codes, files)
    full = tuple(clip_line(line, LINE_LIMIT) for line in lines)
    said = tuple(line for line in full if line[:1].isspace())  # what bandit says of it, not the quoted lines
    short = (full[0], *(line for line in said if _BANDIT_SEVERITY.match(line) or _BANDIT_PLACE.match(line)))
    return replace(
        unit,
        lines=full,
        short=short,
        trimmed=(full[0], *said) if len(said) + 1 < len(full) else (),
        short_note="beyond their issue, severity and location",
        heading="",
    )


def _code(text: str) -> str:
    """The finding's code or rule name (`F821`, `no-undef`, `arg-type`,
    `unused-argument`), '' when it shows none."""
    unix = _UNIX_TAIL.search(text)
    if unix:  # eslint -f unix: the rule in the brackets that end it
        return unix.group("rule") or ""
    found = None
    for found in _CODE.finditer(text):
        if found.group("code"):
            return found.group("code")
    if found is not None:
        return found.group("bracket") or found.group("symbol") or found.group("rule") or ""
    return ""


def _severity(text: str, code: str) -> int:
    """ERROR, WARNING or CONVENTION: the word the tool says, else what its code's family says."""
    unix = _UNIX_TAIL.search(text)
    word = unix or _SEVERITY.search(text[:60])
    if word and word.group("word").lower() in _WORDS:
        return _WORDS[word.group("word").lower()]
    letter = _PYLINT.match(code)
    if letter:
        return ERROR if letter.group("letter") in "EF" else WARNING if letter.group("letter") == "W" else CONVENTION
    if _SERIOUS.match(code):
        return ERROR
    if _WARNINGS.match(code):
        return WARNING
    return CONVENTION if word or code else WARNING


def _label(severity: int) -> str:
    return {ERROR: "errors", WARNING: "warnings"}.get(severity, "notes")
