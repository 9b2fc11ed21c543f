"""Log records as units (`unit = "record"`, and exact reads of a log too big to show).

A record is a line and the lines that continue it: a traceback and its exception,
the indented lines under it, PostgreSQL's DETAIL/STATEMENT/HINT lines after an
ERROR. Lines are compared by what follows their prefix (`Dec 12 16:07:34 host
kernel: `, `backend-1  | `, a timestamp), so a kernel's dump or a container's
traceback stays one record.

What a cut keeps, most important first (`priority`): failures in the words of the
kernel, systemd and the runtimes (`invoked oom-killer`, `Killed process`,
`killed by the OOM killer`, `code=killed, status=9/KILL`, `segfault at`, `panic:`,
`FATAL`, soft lockups, tracebacks, a kernel line that says `failed` or `error`), then
errors, then warnings, then the rest, and last the chatter: a
template (the line with its numbers, ids and times masked) repeated all through the
log, a health check that passed or a step that said `... ok`, a record said again
to the letter right after itself (its marker counts it, whatever the rule pins), and
the middle of a run of one template (its first and last stay). The first records and the last ones
count as warnings, the very first and the last one as failures (how it started,
where it ended), and so does the record right before a failure (what it was doing),
unless it is chatter and the failure is not among the last records (a connection line
said before every statement says nothing; the last batch before a crash does).
A failure like one seen before counts one step less (one line of each kind of
failure before the repeats of one kind); within one importance the first record of
each template is kept longest, and the others thin out evenly over the log rather
than from its end.

Failures said again and again but for one word (a soft lockup at other times, one
exit status of several units) or but for their time and process (one program's
error from each run) are one record, shown where the first of them was: each set on
one line, what differs in a brace list that `reencode.decoded` reads back, up to 16
a line and four lines a record (a crash loop's later sets are records of their own).
Cut short, a failure keeps the first line of each set that says something else (a
soft lockup of CPU 8 beside one of CPU 1: which CPU, which process), not the later
sets of one; an error said again keeps its first line.
"""

from __future__ import annotations

from itertools import islice

from ..fast.lazyre import lazy
from ..text import clip_line
from .lines import Item
from .reencode import brace_lines
from .traces import LIBRARY_NOTE, go_frame, own_frames
from .unit import Parsed, Unit

_LINE_LIMIT = 400
#: A word of a line that may be all that differs between records said again and again:
#: a time, a number, an id, a unit's name (`14:55:04`, `jackett:333`, `gsd-color.service`).
_WORD = lazy(r"[\w-]+(?:[.:/][\w-]+)*")
#: At most this many records said again are shown on one line, and at most this many
#: such lines of one template make one record (a crash loop's hundredth set is cut on
#: its own, as a failure seen before).
_AGAIN_MAX = 16
_AGAIN_TOGETHER = 4
#: Failures said again are looked for among the first this many failures of one line,
#: each by its first this many words.
_AGAIN_RECORDS = 2000
_AGAIN_WORDS = 24

#: What a line starts with that is not its message: a syslog/journal prefix, a compose
#: service, a timestamp and level, a bracketed time.
_PREFIX = lazy(
    r"^(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ [^\s:]+(?:\[\d+\])?: "
    r"|[\w.-]+\s+\| ?"
    r"|\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d| ?[A-Z]{3,4})?\]?\s+(?:\[\d+\]\s+)?"
    r"(?:[^\s@]+@\S+\s+)?"
    r"|\[\d\d?/\w{3}/\d{4} \d\d:\d\d:\d\d\]\s+"
    r"|(?:[\w.-]+ )?\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:\.\d+)? "
    r"|\S+ - \S+ \[\d\d?/\w{3}/\d{4}[ :]\d\d:\d\d:\d\d(?: [+-]\d{4})?\] )"
)
#: A line that continues the record above it (judged on what follows its prefix).
_CONTINUES = lazy(
    r"^(?:\s|Traceback \(most recent call last\)|The above exception|During handling of the above"
    r"|(?:DETAIL|STATEMENT|HINT|CONTEXT|QUERY|LOCATION):\s|goroutine \d+ \[|\.\.\. \d+ more|Caused by: "
    r"|[\w.]*(?:Error|Exception|Exit|Interrupt)(?::|$))"
)
#: A load balancer's or an orchestrator's probe that got its 200: noise at any place.
_HEALTH_CHECK = lazy(
    r'"(?:GET|HEAD) /(?:health|healthz|healthcheck|health-check|ready|readyz|readiness|live|livez|liveness|ping)'
    r'(?:[/?][^" ]*)? HTTP/[\d.]+" (?:200|204)\b|\bkube-probe/'
)
#: A step that went as it should (`creating subdirectories ... ok`, `Detecting C ABI - done`).
_STEP_DONE = lazy(r"(?:\.\.\.|\s-)\s*(?:ok|done|OK|DONE)\s*$")
#: What continues a record even after a blank line.
_ACROSS_BLANK = lazy(r"^(?:goroutine \d+ \[|The above exception|During handling of the above)")
#: The kernel's, systemd's and the runtimes' words for a failure.
_CRITICAL = lazy(
    r"(?i)\b(?:fatal|panic|panicked|critical|crit|emerg(?:ency)?|alert)\b|invoked oom-killer|out of memory"
    r"|killed process|\boom-kill\b|oom_reaper|segfault at|general protection fault|soft lockup|hard lockup"
    r"|\bBUG:|kernel bug|status=9/KILL|code=killed|code=dumped|core dumped|traceback \(most recent call last\)"
    r"|exception in thread|unhandled exception|stack overflow|out of memory"
    # systemd's own words for a unit that failed, and the kernel's warning splats
    r"|Main process exited, code=(?:exited, status=[1-9]|killed|dumped)|Failed with result '|Failed to start "
    r"|NETDEV WATCHDOG|WARNING: CPU: \d+ PID"
    # systemd's and systemd-oomd's words for what the OOM killer or oomd killed
    r"|killed by the OOM killer|systemd-oomd killed \d+ process|\bKilled \S+ due to (?:memory|swap) "
)
#: The kernel saying a driver or a device failed (`e1000e …: Failed to disable ULP`,
#: `xHC error in resume`): rare in a boot's log, and what it is read for. Not `Errors`
#: (`Correctable Errors collector initialized`, `errors=remount-ro`).
_KERNEL_FAILURE = lazy(r"\b(?:[Ff]ailed|[Ee]rror|[Tt]imed out)\b")
#: systemd reporting its own progress: whatever words the unit's name holds, no failure.
_PROGRESS = lazy(
    r"\bsystemd(?:\[\d+\])?: (?:Started|Starting|Stopped|Stopping|Reached|Listening|Finished|Mounted|Created"
    r"|Reloading|Reloaded|Activating|Deactivated) "
)
_ERROR = lazy(
    r"(?i)\b(?:error|err|errors|failed|failure|fail|exception|denied|refused|timed out|unreachable|invalid)\b"
    r"|\w(?:Error|Exception)\b|status=\d+/FAILURE|code=exited, status=[1-9]"
)
_WARNING = lazy(r"(?i)\bwarn(?:ing)?s?\b|\bdeprecat")
#: Numbers, hex ids and quoted values: what differs between records of one template.
_VARIES = lazy(r"0x[0-9a-fA-F]+|\b[0-9a-f]{6,}\b|\d+(?:[.:,]\d+)*")

CHATTER, PLAIN, WARNING, ERROR, CRITICAL = 0, 1, 2, 3, 4
_LABELS = {CRITICAL: "critical", ERROR: "error", WARNING: "warning"}
#: A template seen this many times, and in this share of the records, is chatter.
_CHATTER_COUNT = 20
_CHATTER_SHARE = 0.02
#: A run of this many records of one template keeps its first and last: the rest go
#: first when the log is cut, counted by their marker.
_RUN = 5
#: The first and the last records stand for how it began and how it ended.
_HEAD, _TAIL = 3, 5


def looks_like_a_log(lines: list[str]) -> bool:
    """Do most of the first lines start like log records (a time, a host, a source)?"""
    sample = [line for line in lines[:200] if line.strip()]
    return bool(sample) and sum(1 for line in sample if _PREFIX.match(line)) >= 0.5 * len(sample)


def parse(lines: list[str]) -> Parsed:
    """`lines` as log records, each a unit ranked by how bad it says things are."""
    groups: list[list[str]] = []
    prefix_of_current = None
    for index, line in enumerate(lines):
        if not line.strip() and groups and index + 1 < len(lines) and _ACROSS_BLANK.match(lines[index + 1]):
            groups[-1].append(line)  # a chained exception, a panic's goroutines: the same record
            continue
        found = _PREFIX.match(line)
        prefix, body = (found.group(), line[found.end() :]) if found else ("", line)
        shared = prefix_of_current is not None and _same_source(prefix, prefix_of_current)
        if groups and body and (_CONTINUES.match(body) or go_frame(body)) and (shared or not prefix):
            groups[-1].append(line)
            continue
        groups.append([line])
        prefix_of_current = prefix
    templates = [_template(group[0]) for group in groups]
    counts: dict[str, int] = {}
    for template in templates:
        counts[template] = counts.get(template, 0) + 1
    chatter = max(_CHATTER_COUNT, int(len(groups) * _CHATTER_SHARE))
    severities = [max(_severity(line) for line in group) for group in groups]
    middles = _runs_middles(templates)
    again = _said_again(groups, severities, templates)
    absorbed = {k for sets in again.values() for members, _, _ in sets for k in members} - set(again)
    seen: set[str] = set()
    parsed: Parsed = []
    for index, (group, template) in enumerate(zip(groups, templates, strict=True)):
        if index in absorbed:
            continue  # said on the line of the first of its kind
        if not any(line.strip() for line in group):
            parsed.extend(group)  # a blank line between records: loose, cut with its neighbours
            continue
        if index and index not in again and group == groups[index - 1]:
            parsed.append(_record(group, CHATTER, template))  # the record before it again, to the letter
            continue
        sets = again.get(index, [])
        members = [k for said, _, _ in sets for k in said]
        severity = max(severities[k] for k in members) if members else severities[index]
        if severity == PLAIN and (_HEALTH_CHECK.search(group[0]) or _STEP_DONE.search(group[0])):
            parsed.append(_record(group, CHATTER, template))  # says nothing, wherever it is
            continue
        if severity == PLAIN and (counts[template] >= chatter or index in middles):
            severity = CHATTER
        elif severity >= ERROR and template in seen:
            severity -= 1  # a failure seen before says less than one of another kind
        seen.add(template)
        seen.update(templates[k] for k in members)
        # what it was doing when it failed: a line said all along says it only of a crash that ended the log
        crash = index + 1 >= len(groups) - _TAIL
        if index + 1 < len(groups) and severities[index + 1] == CRITICAL and (severity != CHATTER or crash):
            severity = max(severity, WARNING)
        if index == 0 or index == len(groups) - 1:
            severity = CRITICAL  # the first and the last record: when it began and where it ended
        elif severity != CHATTER and (index < _HEAD or index >= len(groups) - _TAIL):
            severity = max(severity, WARNING)
        if sets:
            parsed.append(_said_again_record(groups, sets, severity, template))
        else:
            parsed.append(_record(group, severity, template))
    return parsed


#: Records said again: (the records of one set in the log's order, what they share
#: before the word they differ in, what after).
_Said = tuple[list[int], str, str]


def _said_again(groups: list[list[str]], severities: list[int], templates: list[str]) -> dict[int, list[_Said]]:
    """Failures said again and again but for one word (a soft lockup at other times,
    one exit status of several units), then those of one source said again but for
    their prefix (the same error at other times from other processes of a program),
    in sets of at most _AGAIN_MAX records (a longer one is several sets; a record is
    in one set at most, the biggest sets first). The sets whose first records say one
    thing (the same template: a soft lockup of CPU 1 and one of CPU 8) go together:
    {the first record of them: their sets}. The last records are in none: they say
    where the log ended."""
    candidates = [
        index
        for index, group in enumerate(groups[: max(0, len(groups) - _TAIL)])  # the last ones stay where the log ended
        if len(group) == 1
        and severities[index] >= ERROR
        and len(group[0]) <= _LINE_LIMIT
        and "{" not in group[0]
        and "}" not in group[0]
    ][:_AGAIN_RECORDS]
    # by the hash of what is around each word (the text itself is compared once a set is made)
    alike: dict[int, list[tuple[int, int, int]]] = {}
    for index in candidates:
        line = groups[index][0]
        for word in islice(_WORD.finditer(line), _AGAIN_WORDS):
            start, end = word.span()
            alike.setdefault(hash((line[:start], line[end:])), []).append((index, start, end))
    sets = [words for words in alike.values() if len(words) > 1]
    sets.sort(key=lambda words: (-len(words), words[0][0]))
    taken: set[int] = set()
    together: dict[str, list[_Said]] = {}

    def add(members: list[int], before: str, after: str) -> None:
        together.setdefault(templates[members[0]], []).append((members, before, after))
        taken.update(members)

    for words in sets:
        index, start, end = words[0]
        before, after = groups[index][0][:start], groups[index][0][end:]
        alike_here = [k for k, start, end in words if groups[k][0][:start] == before and groups[k][0][end:] == after]
        for chunk in _chunks([k for k in alike_here if k not in taken]):
            if len({groups[k][0] for k in chunk}) > 1:  # the same line again is not said again in other words
                add(chunk, before, after)
    by_source: dict[tuple[str, str], list[int]] = {}
    for index in candidates:
        prefix = _PREFIX.match(groups[index][0]) if index not in taken else None
        if prefix:
            key = (_VARIES.sub("#", prefix.group()), groups[index][0][prefix.end() :])
            by_source.setdefault(key, []).append(index)
    for members in by_source.values():
        for chunk in _chunks(members):
            span = _differing(list({groups[k][0]: None for k in chunk}))
            if span is not None:
                add(chunk, *span)
    records: dict[int, list[_Said]] = {}
    for alike_sets in together.values():  # the first sets of a template together; any more, each on its own
        alike_sets.sort(key=lambda said: said[0][0])
        for said in alike_sets[_AGAIN_TOGETHER:]:
            records[said[0][0]] = [said]
        records[alike_sets[0][0][0]] = alike_sets[:_AGAIN_TOGETHER]
    return records


def _chunks(members: list[int]) -> list[list[int]]:
    """`members` in runs of at most _AGAIN_MAX, those of two or more."""
    runs = [members[start : start + _AGAIN_MAX] for start in range(0, len(members), _AGAIN_MAX)]
    return [run for run in runs if len(run) > 1]


def _differing(lines: list[str]) -> tuple[str, str] | None:
    """What distinct `lines` share before and after the words they differ in (`Dec 12 `
    and `: Error: …` around `09:13:32 peter-x1c tlp[2354]`), or None for fewer than two
    lines or words that hold what a brace list cannot (a comma, a brace)."""
    if len(lines) < 2:
        return None
    shortest = min(map(len, lines))
    start = _shared_start(lines)
    end = min(_shared_start([line[::-1] for line in lines]), shortest - start)
    first = lines[0]
    start = first.rfind(" ", 0, start) + 1  # whole words
    found = first.find(" ", len(first) - end)
    end = len(first) - (found if found >= 0 else len(first))
    while (
        end < shortest - start
        and first[len(first) - end - 1] in ":;"
        and all(line[len(line) - end - 1] == first[len(first) - end - 1] for line in lines)
    ):
        end += 1  # a colon after the words is the line's, not theirs
    words = [line[start : len(line) - end] for line in lines]
    if any(not word or "," in word or "{" in word or "}" in word for word in words):
        return None
    return first[:start], first[len(first) - end :]


def _shared_start(lines: list[str]) -> int:
    """How many characters every one of `lines` starts with alike."""
    low, high = min(lines), max(lines)  # what these two share, all the others between them share
    length = 0
    while length < len(low) and low[length] == high[length]:
        length += 1
    return length


def _said_again_record(groups: list[list[str]], sets: list[_Said], severity: int, template: str) -> Unit:
    """Records that differ in one word, each set on one line with the words it differs
    in as a brace list (`Jan 30 {14:55:04,14:55:32} homeserver kernel: watchdog: …`),
    which `reencode.decoded` reads back into every line."""
    said: list[Item] = []
    # cut short, a failure keeps the first line of each set that says something else
    # (a soft lockup of CPU 8 beside one of CPU 1), not the later sets of one (a crash loop's)
    short: dict[tuple[str, str], Item] = {}
    for members, before, after in sets:
        words = [groups[k][0][len(before) : len(groups[k][0]) - len(after)] for k in members]
        braced = brace_lines(before, words, after)
        said.extend(braced)
        short.setdefault((before, after), braced[0])
    lines = tuple(groups[k][0] for k in sorted(k for members, _, _ in sets for k in members))
    return Unit(
        "line",
        _LABELS.get(severity, ""),
        lines,
        tuple(short.values()) if severity >= CRITICAL else tuple(said[:1]),
        priority=severity,
        short_note="beyond the first line of their kind",
        lossless=tuple(said),
        family=template,
        expendable=severity == CHATTER,
    )


def _runs_middles(templates: list[str]) -> set[int]:
    """The records inside a run of at least _RUN records of one template, but not its
    first or its last (which stay, with the count of those between)."""
    middles: set[int] = set()
    start = 0
    for index in range(1, len(templates) + 1):
        if index == len(templates) or templates[index] != templates[start]:
            if index - start >= _RUN:
                middles.update(range(start + 1, index - 1))
            start = index
    return middles


def _same_source(prefix: str, first: str) -> bool:
    """Do two prefixes name the same source (the journal's host and process, a compose
    service), whatever their times?"""
    if prefix == first:
        return True
    return _VARIES.sub("#", prefix) == _VARIES.sub("#", first)


def _severity(line: str) -> int:
    if _CRITICAL.search(line):
        return CRITICAL
    if _PROGRESS.search(line):
        return PLAIN
    if _ERROR.search(line):
        kernel = line.find(" kernel: ")
        return CRITICAL if kernel >= 0 and _KERNEL_FAILURE.search(line, kernel) else ERROR
    if _WARNING.search(line):
        return WARNING
    return PLAIN


def _template(line: str) -> str:
    found = _PREFIX.match(line)
    body = line[found.end() :] if found else line
    return _VARIES.sub("#", body)[:120]


def _record(group: list[str], severity: int, template: str) -> Unit:
    full = tuple(clip_line(line, _LINE_LIMIT) for line in group)
    short: tuple[Item, ...] = full
    if len(full) > 2:  # its first line and what says it failed (a traceback's exception)
        telling = [line for line in full[1:] if _severity(line) >= ERROR and not _body(line)[:1].isspace()]
        short = (full[0], *telling[-2:]) if telling else (full[0],)
    return Unit(
        "line",
        _LABELS.get(severity, ""),
        full,
        short,
        priority=severity,
        short_note="beyond their first line and what failed",
        trimmed=own_frames(full, _body, crossings=False),
        trimmed_note=LIBRARY_NOTE,
        family=template,
        expendable=severity == CHATTER,
    )


def _body(line: str) -> str:
    found = _PREFIX.match(line)
    return line[found.end() :] if found else line
