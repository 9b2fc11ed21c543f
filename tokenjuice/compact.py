"""Compact one command's output: classify, reduce, keep the full output, record the run.

`tokenjuice wrap` runs a command and compacts what it printed; a host hook that
sees a command's output after the host ran it natively (Claude Code's PostToolUse)
compacts the same way. Both call `compact`, so the two paths cannot drift apart:
the same rules, the same budget, the same store (`tokenjuice cat ID`), the same
ledger record (with the caller's `source`).

An exit code that is not known (a host that reports none) is passed as None and
stays None: the reduction then claims neither success nor failure (no `exit N`
header, the success budget), and the ledger records it as unknown.

Imports are deferred to the call: `wrap` is the hot path, and the heavy parts
(regex, gzip) load only when output must be redacted or kept.
"""

from __future__ import annotations

import os
import sys
import time

from .fast.record import record, replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .model import CaptureFacts, Execution, Reduction
    from .rules.loader import Problem
    from .settings import Settings

    #: Called once the full output is (or is not) kept: (stored, hint) -> the trailer's hint.
    AfterStore = Callable[[tuple[str, str] | None, str | None], str | None]

#: An output id's length (state/artifacts.py draws them), without importing the store
#: for the many outputs that are never kept.
ID_STAND_IN = "0" * 8
_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ALNUM = _LOWER + _LOWER.upper() + "0123456789"
#: What the ledger may hold as a command or subcommand name (checked without `re`,
#: whose pattern compiles would be paid on every wrap).
_NAME_CHARS = frozenset(_ALNUM + "._+-")
_SUBCOMMAND_CHARS = frozenset(_LOWER + "0123456789-")
#: What the ledger may hold as a host tool's name (`mcp__github__list_issues`, `Grep`).
_TOOL_CHARS = frozenset(_ALNUM + "_-.:")


@record
class Compacted:
    """What became of one output."""

    text: str  # what the reader is shown (escaped, redacted)
    artifact_id: str | None  # the full output's id (`tokenjuice cat ID`), when it was kept
    cut: bool  # was anything of the output left out or shortened?
    reduction: Reduction
    execution: Execution
    stored_path: str | None = None


def compact(
    command: str,
    output: bytes,
    *,
    exit_code: int | None,
    cwd: str | None,
    source: str,
    settings: Settings,
    argv: Sequence[str] | None = None,
    capture: CaptureFacts | None = None,
    duration_ms: float | None = None,
    classifier: str | None = None,
    max_inline_chars: int | None = None,
    raw: bool = False,
    facts: bool = False,
    announce_store_errors: bool = False,
    warn: bool = True,
    after_store: AfterStore | None = None,
    tool_name: str = "exec",
) -> Compacted:
    """Reduce `output` (stdout and stderr as interleaved) of `command`, keep the whole
    of it when the shown text was cut (or always, by setting), record the run in the
    ledger, and return the text to show. `warn` reports broken rule files and refused
    settings on stderr (wrap does; a hook whose stderr nobody reads does not).
    `tool_name`: the host tool whose result `output` is, when it ran no shell command
    (an MCP tool; `command` is then empty): its rule is told by that name."""
    from .model import Execution
    from .reduce.budget import from_settings
    from .reduce.engine import Options, reduce
    from .reduce.render import shown_chars, text_of, trailer_of
    from .rules import index
    from .settings import project_shaping

    execution = Execution(
        tool_name=tool_name,
        command=command,
        argv=tuple(argv) if argv is not None else None,
        cwd=cwd,
        exit_code=exit_code,
        combined=output.decode("utf-8", errors="replace"),  # as capture.decode
        capture=capture,
        duration_ms=duration_ms,
        source=source,
    )
    catalogue = index.load(cwd)
    budgets, budget_problems = from_settings(settings.values)
    if warn:
        warn_problems(catalogue.errors, settings.warnings + tuple(budget_problems))
    # The hint's length is part of the choice (a result is never longer than its
    # input as printed), so the reduction is made with a stand-in id of the final
    # length; the real one is drawn only when the output is kept.
    reduction = reduce(
        execution,
        catalogue,
        Options(
            classifier=classifier,
            max_inline_chars=max_inline_chars,
            raw=raw,
            no_omit=settings["output.no_omit"],
            facts=facts,
            redact=settings["redaction.enabled"],
            hint=f"full output: tokenjuice cat {ID_STAND_IN}",
            budgets=budgets,
        ),
    )
    stored, hint = keep_full_output(output, execution, reduction.cut, settings, announce_store_errors)
    if after_store is not None:
        hint = after_store(stored, hint)
    reduction = replace(reduction, hint=hint)
    shaping = project_shaping(settings)
    if shaping and trailer_of(reduction) is not None:  # a project's limits are named where they cut
        note = f"{reduction.capture_note}; {shaping}" if reduction.capture_note else shaping
        reduction = replace(reduction, capture_note=note)
    text = text_of(reduction)
    if stored is not None:  # what the agent was shown, beside the full output (`tokenjuice cat ID --shown`)
        from .state.artifacts import keep_shown

        printed = text if reduction.exact is not None or not text else text + "\n"  # as wrap prints it
        keep_shown(stored[1], printed, redact=settings["redaction.enabled"] and reduction.passthrough == "raw")
    record_run(reduction, execution, settings, shown_chars(reduction, text), stored)
    return Compacted(
        text, stored[0] if stored else None, reduction.cut, reduction, execution, stored[1] if stored else None
    )


def secret_shown(text: str, settings: Settings) -> bool:
    """Would `text` shown as it is (the host's own output, a tool's text) show a secret
    that tokenjuice's redaction replaces? Asked only where the raw text would be
    shown instead of a compaction that is no shorter."""
    if not settings["redaction.enabled"]:
        return False
    from .state.redact import holds_secret

    return holds_secret(text)


def keep_full_output(
    combined: bytes, execution: Execution, cut: bool, settings: Settings, announce: bool
) -> tuple[tuple[str, str] | None, str | None]:
    """Store the whole output when the shown one was cut (or always, by setting):
    ((id, path) or None, the trailer's words on where the full output is)."""
    mode = settings["artifacts.mode"]
    background = execution.capture is not None and execution.capture.background
    if mode == "never" or not (cut or background or mode == "always"):
        reason = "artifacts.mode is never; tokenjuice config set artifacts.mode cut keeps it next time"
        return None, f"full output not kept ({reason})" if cut else None
    meta = {
        "command": execution.command or execution.tool_name,
        "cwd": execution.cwd,
        "exit_code": execution.exit_code,
        "created_at": time.time(),
        "source": execution.source,
        "bytes": len(combined),
        "dropped_bytes": execution.capture.dropped_bytes if execution.capture else 0,
    }
    from .state import artifacts

    artifact_id = artifacts.new_id()
    try:
        path = artifacts.Store.from_settings(settings).store(artifact_id, combined, meta)
    except artifacts.ArtifactError as error:
        if announce or settings["debug.enabled"]:
            from .text import one_line

            sys.stderr.write(f"tokenjuice: the full output was not kept: {one_line(str(error))}\n")
        return None, f"full output not kept: {error}"
    return (artifact_id, path), f"full output: tokenjuice cat {artifact_id}"


def record_run(
    reduction: Reduction, execution: Execution, settings: Settings, shown: int, stored: tuple[str, str] | None
) -> None:
    """One ledger record: command names only, never arguments or output."""
    from . import state

    if not settings["stats.enabled"]:
        return
    from .shell.argv import SUBCOMMAND_TOOLS, basename, subcommand

    info = reduction.command
    combined = execution.combined
    argv = info.normalized_argv or info.first_argv
    argv0 = basename(argv[0]) if argv else None
    # a host tool that ran no shell command (an MCP tool, a search tool) is counted by its name
    tool = execution.tool_name if not argv and execution.tool_name != "exec" else None
    action = subcommand(list(argv)) if argv and basename(argv[0]) in SUBCOMMAND_TOOLS else None
    capture = execution.capture
    state.record(
        {
            "record_id": os.urandom(8).hex(),
            "created_at": time.time(),
            "source": name_or_none(execution.source.lower()) or "cli",
            "argv0": name_or_none(argv0),
            "tool": name_or_none(tool, _ALNUM, _TOOL_CHARS, 128),
            "subcommand": name_or_none(action, _LOWER, _SUBCOMMAND_CHARS, 31),
            "rule_id": reduction.classification.rule.id,
            "family": reduction.classification.rule.family,
            "exit_code": execution.exit_code,
            "raw_chars": reduction.raw_chars,
            "reduced_chars": shown,
            "duration_ms": round(execution.duration_ms or 0, 1),
            "capture_truncated": int(bool(capture and capture.truncated)),
            "passthrough": reduction.passthrough,
            "artifact_id": stored[0] if stored else None,
            "cut": int(reduction.cut),
            "bounded": int(info.bounded),
            "guard_widened": reduction.guard[2] if reduction.guard else 0,
            "raw_lines": combined.count("\n") + (bool(combined) and not combined.endswith("\n")),
        },
        debug=settings["debug.enabled"],
    )


def name_or_none(
    name: str | None, first: str = _ALNUM, chars: frozenset[str] = _NAME_CHARS, limit: int = 64
) -> str | None:
    """Command names only: no paths, arguments, URLs or anything that may be private."""
    return name if name and len(name) <= limit and name[0] in first and set(name) <= chars else None


def warn_problems(problems: list[Problem], config_warnings: tuple[str, ...]) -> None:
    """Broken rule files are skipped and a broken config falls back to defaults,
    never fatally; say so on stderr (escaped: file names and messages are the
    project's words)."""
    from .text import one_line

    for problem in problems[:3]:
        sys.stderr.write(f"tokenjuice: skipped rule {one_line(str(problem))} (check with: tokenjuice verify)\n")
    if len(problems) > 3:
        sys.stderr.write(f"tokenjuice: {len(problems) - 3} more rule files skipped (tokenjuice verify)\n")
    for warning in config_warnings[:8]:  # every refusal of a project setting is worth a line
        sys.stderr.write(f"tokenjuice: {one_line(warning)} (check with: tokenjuice config list)\n")


# -- a host tool's result that is no shell output (issue 32) -------------------------------
#: A text this short is shown whole by the engine (reduce.engine.TINY_CHARS): not run.
_TINY_TEXT = 240
#: A compaction that keeps more than this share of a tool's text is not worth replacing
#: what the tool said (blank lines squeezed out of a search tool's groups: a trailer and a
#: stored copy for a few characters).
_WORTH = 0.9


@record
class ToolCompacted:
    """What became of one tool result: the same shape, its texts compacted."""

    result: object  # the result in the shape it came in
    cut: bool  # was anything left out or shortened?
    artifact_ids: tuple[str, ...]  # the full texts kept (`tokenjuice cat ID`), one per text cut


def compact_tool_result(
    tool_name: str, result: object, *, cwd: str | None, source: str, settings: Settings
) -> ToolCompacted | None:
    """The result of `tool_name` (an MCP tool, a host's search tool) with the text of
    each of its parts compacted like a command's output, in the shape it came in; None
    when nothing would change. Shapes: a string (the text; a JSON document of the
    server's `structuredContent`, as Claude Code hands it to a hook, has each long string
    inside compacted, else is compacted as one JSON text), a list of MCP content blocks
    (each `text` block's text; images, audio and resources stay as they are), an MCP
    `CallToolResult` object (its `content` blocks, and the long strings of its
    `structuredContent`). Anything else is left alone."""
    done = _ToolTexts(tool_name, cwd, source, settings)
    if isinstance(result, str):
        value = _json_document(result)
        if value is not None:
            walked = done.strings(value)
            new: object = _stringify(walked) if done.ids or done.cut else done.text(result)
        else:
            new = done.text(result)
    elif isinstance(result, list):
        new = done.blocks(result)
    elif isinstance(result, dict) and isinstance(result.get("content"), list):
        new = dict(result, content=done.blocks(result["content"]))
        if isinstance(result.get("structuredContent"), dict | list):
            new["structuredContent"] = done.strings(result["structuredContent"])
    else:
        return None
    if new == result:
        return None
    return ToolCompacted(new, done.cut, tuple(done.ids))


class _ToolTexts:
    """Compacts the texts of one tool result, each through `compact` under the tool's name."""

    def __init__(self, tool_name: str, cwd: str | None, source: str, settings: Settings) -> None:
        self.tool_name, self.cwd, self.source, self.settings = tool_name, cwd, source, settings
        self.cut = False
        self.ids: list[str] = []

    def text(self, text: str) -> str:
        """`text` compacted, or itself when the compaction is not shorter."""
        if len(text) <= _TINY_TEXT and "\x1b" not in text:
            return text
        compacted = compact(
            "",
            text.encode("utf-8", errors="surrogatepass"),
            exit_code=None,
            cwd=self.cwd,
            source=self.source,
            settings=self.settings,
            warn=False,
            tool_name=self.tool_name,
        )
        shown = compacted.text
        if len(shown) >= _WORTH * len(text) and not secret_shown(text, self.settings):
            return text  # never longer, nor barely shorter, unless that would show a secret
        self.cut = self.cut or compacted.cut
        if compacted.artifact_id:
            self.ids.append(compacted.artifact_id)
        return shown

    def blocks(self, blocks: list[object]) -> list[object]:
        """MCP content blocks, each text block's text compacted; the others as they are."""
        return [
            dict(block, text=self.text(block["text"]))
            if isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)
            else block
            for block in blocks
        ]

    def strings(self, value: object) -> object:
        """A JSON value with each string of several lines compacted (a server's
        `structuredContent` holding the listing or the document its text block holds)."""
        if isinstance(value, str):
            return self.text(value) if "\n" in value else value
        if isinstance(value, list):
            return [self.strings(item) for item in value]
        if isinstance(value, dict):
            return {key: self.strings(item) for key, item in value.items()}
        return value


def _json_document(text: str) -> object | None:
    """The JSON object or array `text` is, or None."""
    if not text.startswith(("{", "[")):
        return None
    from .reduce.shape import document

    value: object = document(text)
    return value


def _stringify(value: object) -> str:
    """As JavaScript's JSON.stringify writes it (what Claude Code hands a hook)."""
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
