"""The core types every part of tokenjuice shares: what ran, and what became of its output.

Data flows one way: a host payload or `wrap`'s argv becomes an `Execution` (the
command, the captured output, how it ended); `reduce.engine.reduce` turns it into
a `Reduction` (what survives: header, body lines, omission markers, facts, why it
was left whole); `reduce.render` turns that into text. Wire formats (the
TypeScript-compatible camelCase JSON, each host's hook JSON) are made from these
types in adapters at the edge (`commands/wire.py`, `hosts/`), nowhere else.
"""

from __future__ import annotations

from .fast.record import record
from .reduce.lines import Item
from .rules.classify import Classification
from .rules.model import Rule
from .shell.command import CommandInfo

#: Passthrough reasons where the text is the exact raw output, left whole by policy
#: whatever the rule: such runs say nothing about how well a rule compacts.
EXACT_PASSTHROUGH = ("raw", "file-content", "unsafe-inventory", "mixed-inventory")
#: Outputs shown whole by policy (exact, tiny, fitting the budget, or shown as they
#: are because no reduction was shorter): they say nothing about how well a rule
#: compacts, so coverage, stats and discover skip them.
WHOLE_BY_POLICY = ("tiny", "fits", "not-longer", *EXACT_PASSTHROUGH)


@record
class CaptureFacts:
    """What `wrap` could and could not keep of a command's output."""

    kept_bytes: int = 0  # bytes in the captured text
    dropped_bytes: int = 0  # bytes drained but not kept (the middle of a flood)
    dropped_lines: int = 0  # newlines among the dropped bytes, counted while streaming
    limit_bytes: int = 0  # the capture limit in force
    signal: int | None = None  # the signal that killed the command, if one did
    background: bool = False  # a background job still held the output pipes when the command returned

    @property
    def truncated(self) -> bool:
        return self.dropped_bytes > 0


@record
class Execution:
    """One command run (or a saved output with the command that produced it)."""

    tool_name: str = "exec"
    command: str | None = None
    argv: tuple[str, ...] | None = None
    cwd: str | None = None
    exit_code: float | None = None  # an int in practice; the wire format allows any number
    stdout: str = ""
    stderr: str = ""
    combined: str = ""  # stdout and stderr as interleaved, when known
    capture: CaptureFacts | None = None
    duration_ms: float | None = None
    source: str = "cli"  # who ran it: cli, cursor, claude-code, …

    @property
    def output(self) -> str:
        """The text to reduce: the interleaved output when known, else stdout then stderr."""
        if self.combined:
            return self.combined
        if self.stdout and self.stderr:
            return self.stdout + ("" if self.stdout.endswith("\n") else "\n") + self.stderr
        return self.stdout or self.stderr

    @property
    def failed(self) -> bool:
        return self.exit_code is not None and self.exit_code != 0


@record
class Reduction:
    """What survives of an output, before it is rendered as text.

    `body` holds input lines (some clipped, some `Pinned`) and `Omission` markers;
    `header` the lines tokenjuice adds on top (`exit N`, a counts line). When the
    output is shown exactly as it was (`--raw`, file reads), `exact` holds it and
    the rest is empty. The counts of what was cut are facts of the reduction; how
    they are phrased is the renderer's business."""

    classification: Classification
    command: CommandInfo
    rule: Rule | None  # the rule whose body was applied, if any
    raw_chars: int  # characters of the ANSI-stripped output
    header: tuple[str, ...] = ()
    body: tuple[Item, ...] = ()
    omitted_lines: int = 0  # input lines not shown
    total_lines: int = 0  # input lines the body stands for
    clipped_lines: int = 0  # shown lines shortened in their middle
    facts: dict[str, int] | None = None
    kinds: tuple[str, ...] = ()  # how it was compacted: filter, head-tail, size-clamp, …
    passthrough: str | None = None  # why it was left whole: tiny, raw, file-content, not-smaller, …
    note: str | None = None  # what the trailer must say beyond counts
    exact: str | None = None  # the output itself, when it must be shown exactly
    hint: str | None = None  # where the full output is (`full output: tokenjuice cat 7f3a2c1d`), or why it is not
    redact: bool = True  # secrets in the shown text are replaced (redaction.enabled)
    capture_note: str | None = None  # what the capture itself could not keep, exactly
    # The preservation guard (reduce/guard.py): anchors found, anchors the shown text
    # carries, and how many times the budget was widened to carry them.
    guard: tuple[int, int, int] | None = None
    budget: int = 0  # the size budget the reduction was made for (characters)
    # Regions recognised by their content in the output of a compound or unknown
    # command (reduce/units.py `regions`): (kind, lines).
    regions: tuple[tuple[str, int], ...] = ()

    @property
    def cut(self) -> bool:
        """Was anything of the output left out or shortened?"""
        return self.omitted_lines > 0 or self.clipped_lines > 0 or bool(self.kinds) or bool(self.capture_note)
