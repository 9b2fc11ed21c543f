"""Log records as units (`unit = "record"`, and exact reads of a log too big to show).

A record is a line and the lines that continue it: a traceback and its exception,
the indented lines under it, PostgreSQL's DETAIL/STATEMENT/HINT lines after an
ERROR. Lines are compared by what follows their prefix (`Dec 12 16:07:34 host
kernel: `, `backend-1  | `, a timestamp), so a kernel's dump or a container's
traceback stays one record.

What a cut keeps, most important first (`priority`): failures in the words of the
kernel, systemd and the runtimes (`invoked oom-killer`, `Killed process`,
`code=killed, status=9/KILL`, `segfault at`, `panic:`, `FATAL`, soft lockups,
tracebacks), then errors, then warnings, then the rest, and last the chatter: a
template (the line with its numbers, ids and times masked) repeated all through the
log, a health check that passed or a step that said `... ok`, and the middle of a
run of one template (its first and last stay). The first records and the last ones
count as warnings, the very first and the last one as failures (how it started,
where it ended), and so does the record right before a failure (what it was doing),
unless it is chatter and the failure is not among the last records (a connection line
said before every statement says nothing; the last batch before a crash does).
A failure like one seen before counts one step less (one line of each kind of
failure before the repeats of one kind); within one importance the first record of
each template is kept longest, and the others thin out evenly over the log rather
than from its end.
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from ..text import clip_line
from .lines import Item
from .unit import Parsed, Unit

_LINE_LIMIT = 400

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
)
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


def _go_frame(body: str) -> bool:
    """A function line of a Go stack (`main.process(0x4abcfd?, 0x1)`, `main.(*T).run()`):
    a dotted name with no space, then its arguments."""
    if not body.endswith(")"):
        return False
    name = body.partition("(")[0]
    if name.endswith("."):  # a method on a pointer receiver: `main.(*T).run(…)`
        name = body[: body.find(")") + 1]
    return bool(name) and "." in name and " " not in name and len(name) <= 300


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
        if groups and body and (_CONTINUES.match(body) or _go_frame(body)) and (shared or not prefix):
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
    seen: set[str] = set()
    parsed: Parsed = []
    for index, (group, template) in enumerate(zip(groups, templates, strict=True)):
        if not any(line.strip() for line in group):
            parsed.extend(group)  # a blank line between records: loose, cut with its neighbours
            continue
        severity = severities[index]
        if severity == PLAIN and (_HEALTH_CHECK.search(group[0]) or _STEP_DONE.search(group[0])):
            parsed.append(_record(group, CHATTER, template))  # says nothing, wherever it is
            continue
        if severity == PLAIN and (counts[template] >= chatter or index in middles):
            severity = CHATTER
        elif severity >= ERROR and template in seen:
            severity -= 1  # a failure seen before says less than one of another kind
        seen.add(template)
        # what it was doing when it failed: a line said all along says it only of a crash that ended the log
        crash = index + 1 >= len(groups) - _TAIL
        if index + 1 < len(groups) and severities[index + 1] == CRITICAL and (severity != CHATTER or crash):
            severity = max(severity, WARNING)
        if index == 0 or index == len(groups) - 1:
            severity = CRITICAL  # the first and the last record: when it began and where it ended
        elif severity != CHATTER and (index < _HEAD or index >= len(groups) - _TAIL):
            severity = max(severity, WARNING)
        parsed.append(_record(group, severity, template))
    return parsed


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
        return ERROR
    if _WARNING.search(line):
        return WARNING
    return PLAIN


def _template(line: str) -> str:
    found = _PREFIX.match(line)
    body = line[found.end() :] if found else line
    return _VARIES.sub("#", body)[:120]


#: A stack frame in code the project did not write (an installed package, the
#: language's own library, the runtime), whose source line under it goes with it.
_LIBRARY_FRAME = lazy(
    r'File "[^"]*(?:site-packages|dist-packages|/lib/python\d[\d.]*/|<frozen )'
    r"|\bat (?:node:|[^()]*\((?:node:|[^()]*node_modules/))|\bat (?:java|javax|jdk|sun|kotlin|org\.junit)\."
    r"|^\s*(?:/usr/local/go/src/|runtime/|/usr/lib/go)"
)


#: A stack frame: Python's `File "…", line N`, JavaScript's and Java's `at …`, Go's
#: file lines under a function.
_FRAME = lazy(r'^\s*File "[^"]*", line \d+|^\s+at \S|^\s+/\S+\.go:\d+')


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
        trimmed=_own_frames(full),
        trimmed_note="(frames in installed and standard library code)",
        family=template,
        expendable=severity == CHATTER,
    )


def _body(line: str) -> str:
    found = _PREFIX.match(line)
    return line[found.end() :] if found else line


def _own_frames(lines: tuple[str, ...]) -> tuple[Item, ...]:
    """A record without the frames of its stack traces that are in library code (and
    the source line under each), but for each trace's first and last frame (where it
    entered and where it was raised); () when nothing goes."""
    frames = [k for k, line in enumerate(lines) if _FRAME.search(_body(line))]
    if not frames:
        return ()
    ends = set()  # the first and the last frame of each run of frames
    for k, frame in enumerate(frames):
        if k == 0 or frame - frames[k - 1] > 2:
            ends.add(frame)
        if k == len(frames) - 1 or frames[k + 1] - frame > 2:
            ends.add(frame)
    dropped: set[int] = set()
    for frame in frames:
        if frame in ends or not _LIBRARY_FRAME.search(_body(lines[frame])):
            continue
        dropped.add(frame)
        after = frame + 1
        if after < len(lines) and after not in frames and _body(lines[after])[:1].isspace():
            dropped.add(after)  # its source line
    return tuple(line for k, line in enumerate(lines) if k not in dropped) if dropped else ()
