"""Stack traces: which of their frames a cut keeps, and a Python traceback as a unit.

A trace's frames in code the project did not write (an installed package, the
language's own library, the runtime) are worth least, but not all alike: the call
path stays readable when each trace keeps its first frame (where it was entered) and
its last (where it was raised), the last frame of each run of one package's frames
(where requests called urllib3 and urllib3 called http.client), a frame whose line
raises (a library re-raising what it caught), and every frame of the project's own
code. The exception lines and the lines that chain
one trace to the next (`During handling of the above exception…`) are no frames and
always stay.

`unit = "traceback"` (a program's output: `python script.py`) makes each Python
traceback, chained ones and all, one unit among the program's other lines: cut first
to those frames, then to each trace's first and last frame and its exception, then
to its last exception line, and dropped last.
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from ..text import clip_line, pluralize
from .lines import Item, Omission, Pinned
from .unit import Parsed, Unit

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Sequence

#: A stack frame in code the project did not write (an installed package, the
#: language's own library, the runtime), whose source line under it goes with it.
LIBRARY_FRAME = lazy(
    r'File "[^"]*(?:site-packages|dist-packages|/lib/python\d[\d.]*/|<frozen )'
    r"|\bat (?:node:|[^()]*\((?:node:|[^()]*node_modules/))|\bat (?:java|javax|jdk|sun|kotlin|org\.junit)\."
    r"|^\s*(?:/usr/local/go/src/|runtime/|/usr/lib/go)"
)
#: A stack frame: Python's `File "…", line N`, JavaScript's and Java's `at …`, Go's
#: file lines under a function.
FRAME = lazy(r'^\s*File "[^"]*", line \d+|^\s+at \S|^\s+/\S+\.go:\d+')
#: The package a library frame is in: what follows `site-packages/` or the standard
#: library's folder (`urllib3`, `http`; `<frozen importlib._bootstrap>` is `importlib`),
#: a node module, node's own code, a Java package's first two names, Go's runtime.
_PACKAGE = lazy(
    r"(?:site-packages|dist-packages|/lib/python\d[\d.]*)/(?P<python>[^/\"]+)|<frozen (?P<frozen>[^.>]+)"
    r"|node_modules/(?P<node>(?:@[^/]+/)?[^/]+)|\((?P<core>node):|\bat (?P<java>\w+\.\w+)\."
    r"|(?P<go>/usr/local/go/src/\w+|/usr/lib/go\S*/src/\w+|runtime/)"
)
LIBRARY_NOTE = "(frames in installed and standard library code)"
#: The line under a frame that points at the failing part of the one above it.
_CARETS = lazy(r"^\s*[\^~]+\s*$")
#: A frame's source line that raises: where a library raised or re-raised.
_RAISES = lazy(r"^\s+raise\b")
_LINE_LIMIT = 400


def go_frame(body: str) -> bool:
    """A function line of a Go stack (`main.process(0x4abcfd?, 0x1)`, `main.(*T).run()`):
    a dotted name with no space, then its arguments."""
    if not body.endswith(")"):
        return False
    name = body.partition("(")[0]
    if name.endswith("."):  # a method on a pointer receiver: `main.(*T).run(…)`
        name = body[: body.find(")") + 1]
    return bool(name) and "." in name and " " not in name and len(name) <= 300


def _plain(line: str) -> str:
    return line


def _package(body: str) -> str | None:
    """The package a library frame is in ("" when its form names none); None for a
    frame of the project's own code."""
    if not LIBRARY_FRAME.search(body):
        return None
    found = _PACKAGE.search(body)
    if found is None:
        return ""
    return next(group for group in found.groups() if group is not None)


def _traces(lines: Sequence[str], body: Callable[[str], str]) -> list[list[int]]:
    """The frames (their indexes) of each trace in `lines`: frames with nothing between
    them but the indented lines under a frame (its source line, Python's carets) and
    Go's function lines."""
    traces: list[list[int]] = []
    open_trace = False
    for k, line in enumerate(lines):
        text = body(line)
        if FRAME.search(text):
            if open_trace:
                traces[-1].append(k)
            else:
                traces.append([k])
                open_trace = True
        elif open_trace and not (text[:1].isspace() and text.strip()) and not go_frame(text):
            open_trace = False
    return traces


def kept_frames(
    lines: Sequence[str], body: Callable[[str], str] = _plain, crossings: bool = True
) -> tuple[list[int], set[int]]:
    """Every frame of `lines`, and those a cut keeps: each trace's first and last, the
    project's own, and with `crossings` the last of each run of one package's frames
    (where it called into another) and those whose source line raises (a library
    re-raising what it caught)."""
    return _kept_of(lines, _traces(lines, body), body, crossings)


def _kept_of(
    lines: Sequence[str], traces: list[list[int]], body: Callable[[str], str], crossings: bool
) -> tuple[list[int], set[int]]:
    """`kept_frames` of `lines` whose `traces` are known."""
    frames: list[int] = []
    keep: set[int] = set()
    for trace in traces:
        frames.extend(trace)
        packages = [_package(body(lines[k])) for k in trace]
        last = len(trace) - 1
        for position, (k, package) in enumerate(zip(trace, packages, strict=True)):
            if (
                package is None
                or position in (0, last)
                or (crossings and package != packages[position + 1])
                or (crossings and k + 1 < len(lines) and _RAISES.match(body(lines[k + 1])))
            ):
                keep.add(k)
    return frames, keep


def own_frames(lines: Sequence[str], body: Callable[[str], str] = _plain, crossings: bool = True) -> tuple[Item, ...]:
    """`lines` without the frames of their stack traces that are in library code, and
    the lines under each (its source line, carets), but for those `kept_frames` keeps
    (and the carets under a kept library frame right before a frame that goes, counted
    with it); () when nothing goes. Each run of frames that went is marked where it
    was, not after the lines: two frames shown one under the other must not read as
    one calling the other. A log's record leaves out `crossings` (kept_frames): its
    traces compete for the room with the log's other records."""
    return _without_library_frames(lines, kept_frames(lines, body, crossings), body)


def _without_library_frames(
    lines: Sequence[str], kept: tuple[list[int], set[int]], body: Callable[[str], str]
) -> tuple[Item, ...]:
    """`own_frames` of `lines` whose frames, and those kept, are known."""
    frames, keep = kept
    dropped: set[int] = set()
    for position, frame in enumerate(frames):
        under = range(frame + 1, frames[position + 1] if position + 1 < len(frames) else len(lines))
        under = under[: next((j for j, k in enumerate(under) if not body(lines[k])[:1].isspace()), len(under))]
        if frame not in keep:
            dropped.add(frame)
            dropped.update(under)  # its source line, the carets under it
        elif (
            position + 1 < len(frames)
            and frames[position + 1] == under.stop
            and frames[position + 1] not in keep
            and _package(body(lines[frame])) is not None
        ):
            dropped.update(k for k in under if _CARETS.match(body(lines[k])))
    if not dropped:
        return ()
    return _marked(lines, dropped, LIBRARY_NOTE)


def _marked(lines: Sequence[str], dropped: set[int], note: str = "", frames: Collection[int] = ()) -> tuple[Item, ...]:
    """`lines` but those at `dropped`, each run of them counted by a marker where it was
    that says `note`, or how many of `frames` it held."""
    kept: list[Item] = []
    gone: list[int] = []
    for k, line in enumerate((*lines, None)):  # None: the end, which closes the last run
        if k in dropped:
            gone.append(k)
            continue
        if gone:
            held = sum(1 for j in gone if j in frames)
            said = note or (f"({pluralize(held, 'frame')})" if held else "")
            marker = Omission(len(gone), f"{pluralize(len(gone), 'line')} {said}".rstrip())
            # a marker no shorter than what it stands for: the lines themselves
            kept.extend(
                [lines[j] for j in gone] if sum(map(len, (lines[j] for j in gone))) <= len(marker) else [marker]
            )
            gone = []
        if line is not None:
            kept.append(line)
    return tuple(kept)


# -- a Python traceback as a unit -----------------------------------------------------

#: What starts a traceback (at the end of a line: Django's `Applying app.0002…` is
#: printed before it on the same line).
_START = lazy(r"Traceback \(most recent call last\):\s*$")
#: What chains one traceback to the one before it.
_CHAINED = lazy(r"^(?:During handling of the above exception|The above exception was the direct cause)")
_SHORT_NOTE = "beyond each trace's first and last frame and its exception"


def parse(lines: list[str]) -> Parsed:
    """`lines` with each Python traceback (with those chained to it) one unit; the
    program's other lines stay loose."""
    spans: list[tuple[int, int]] = []  # where each traceback starts and ends
    count = len(lines)
    k = 0
    while k < count:
        line = lines[k]
        if "Traceback (most recent call last):" not in line or not _START.search(line):
            k += 1
            continue
        end = _end(lines, k)
        spans.append((k, end))
        k = end
    if not spans:
        return list(lines)
    parsed: Parsed = []
    position = 0
    for number, (start, end) in enumerate(spans, 1):
        parsed.extend(lines[position:start])
        # the last one is where the program ended: kept longest
        parsed.append(_unit(lines[start:end], 3 if number == len(spans) else 2))
        position = end
    parsed.extend(lines[position:])
    return parsed


def around(parsed: Parsed) -> Parsed:
    """A program's output cut by the rule's head and tail, its tracebacks units among
    its lines: each line a unit too that gives way to them, a pinned one last, so that
    a budget too small for both keeps the traceback (its lines go, counted, first)."""
    if not any(isinstance(part, Unit) for part in parsed):
        return parsed  # no traceback: the lines are cut as any program's
    return [
        Unit("line", "", (part,), (part,), priority=2 if isinstance(part, Pinned) else 1)
        if isinstance(part, str) and part.strip()
        else part
        for part in parsed
    ]


def _end(lines: list[str], start: int) -> int:
    """Where the traceback that starts at `start` ends: after its last exception line."""
    count = len(lines)
    k = start + 1
    raised = False
    while k < count:
        line = lines[k]
        if line[:1].isspace() and line.strip():  # a frame, the lines under it
            k += 1
        elif _CHAINED.match(line):
            raised = False
            k += 1
        elif _START.match(line):  # chained when a separator came since the last exception
            if raised:
                break
            k += 1
        elif not line.strip():  # a blank line goes with the chain around it
            if (k + 1 < count and _CHAINED.match(lines[k + 1])) or (
                _CHAINED.match(lines[k - 1]) and k + 1 < count and _START.match(lines[k + 1])
            ):
                k += 1
            else:
                break
        elif not raised:  # the exception line (`KeyError: 'x'`, `django.core.exceptions.ImproperlyConfigured: …`)
            raised = True
            k += 1
        else:
            break
    return k


def _unit(group: list[str], priority: int) -> Unit:
    full = tuple(clip_line(line, _LINE_LIMIT) for line in group)
    traces = _traces(full, _plain)
    kept = _kept_of(full, traces, _plain, True)
    frames = kept[0]
    said = [k for k, line in enumerate(full) if k and line.strip() and not line[:1].isspace()]
    exception = next((str(full[k]) for k in reversed(said) if not _CHAINED.match(full[k])), "")
    trimmed = _without_library_frames(full, kept, _plain) if len(frames) > len(kept[1]) else ()
    return Unit(
        "traceback",
        "",
        full,
        _short(full, traces, frames),
        _minimal(full, traces, frames) if exception else (),
        priority=priority,
        short_note=_SHORT_NOTE,
        minimal_note="beyond its exceptions",
        names=priority == 3,  # the last one's exceptions are kept past the room; the others' are not
        trimmed=trimmed,
        trimmed_note=LIBRARY_NOTE,
        family=exception.partition(":")[0],
    )


def _short(lines: tuple[str, ...], traces: list[list[int]], frames: list[int]) -> tuple[Item, ...]:
    """The traceback with each trace's first and last frame (and the lines under the
    last, where it was raised), its exception and what chains it: the rest counted by
    a marker where it was."""
    keep = {k for k, line in enumerate(lines) if not line[:1].isspace()}  # headers, exceptions, chains
    for trace in traces:
        keep.add(trace[0])
        keep.update(_under(lines, trace[-1], include=True))
    return _kept(lines, keep, frames)


def _minimal(lines: tuple[str, ...], traces: list[list[int]], frames: list[int]) -> tuple[Item, ...]:
    """The traceback's exception lines (chained ones too), where the last one was
    raised, and what the program said on the line it began on: the rest counted by a
    marker where it was."""
    keep = {k for k, line in enumerate(lines) if line.strip() and not line[:1].isspace() and not _CHAINED.match(line)}
    keep -= {k for k in keep if _START.match(lines[k])}  # but a line said before one (`Applying app.0002…`)
    if traces:
        keep.update(_under(lines, traces[-1][-1], include=True))
    return _kept(lines, keep, frames)


def _under(lines: Sequence[str], frame: int, include: bool = False) -> range:
    """The indented lines under `frame` (its source line, carets), with it when `include`."""
    end = frame + 1
    while end < len(lines) and lines[end][:1].isspace() and lines[end].strip() and not FRAME.search(lines[end]):
        end += 1
    return range(frame if include else frame + 1, end)


def _kept(lines: tuple[str, ...], keep: set[int], frames: list[int]) -> tuple[Item, ...]:
    dropped = set(range(len(lines))) - keep
    return _marked(lines, dropped, frames=set(frames)) if dropped else lines
