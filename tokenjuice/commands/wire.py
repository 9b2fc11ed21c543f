"""The TypeScript-compatible wire format, at the edge.

`reduce-json` reads a ToolExecutionInput (or an `{input, options}` envelope) and
prints a CompactResult; `wrap --format json` prints the same result inside its own
object. Both are camelCase with a fixed key order, for byte parity with the
original. This module is the only one that knows those spellings: the rest of
tokenjuice works on `model.Execution` and `model.Reduction`.
"""

from __future__ import annotations

import math
import os

from ..errors import UsageError
from ..model import Execution, Reduction
from ..reduce.engine import Options
from ..reduce.render import shown_chars, text_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_OPTIONAL_STRINGS = ("toolCallId", "runId", "command", "cwd")
#: Output fields take any text: NUL bytes and lone surrogates are output too.
_OUTPUT_STRINGS = ("stdout", "stderr", "combinedText")
_OPTIONAL_NUMBERS = ("exitCode", "startedAt", "finishedAt", "durationMs")
_OPTION_FLAGS = ("raw", "noOmit", "trace")


def reduce_payload(
    payload: object,
    *,
    builtin_only: bool = False,
    classifier: str | None = None,
    raw: bool = False,
    trace: bool = False,
    max_inline_chars: int | None = None,
) -> dict[str, Any]:
    """Reduce a ToolExecutionInput payload (or an {input, options} envelope) and
    return the CompactResult; flags given here win over the envelope's options."""
    from ..reduce.engine import reduce
    from ..rules import index

    if not isinstance(payload, dict):
        raise UsageError("the payload must be a JSON object")
    envelope = isinstance(payload.get("input"), dict)
    data = payload["input"] if envelope else payload
    options = payload.get("options", {}) if envelope else {}
    execution = execution_from_wire(data, "input." if envelope else "")
    _validate_options(options)
    cwd = options.get("cwd") or execution.cwd or os.getcwd()
    catalogue = index.load(cwd, builtin_only=builtin_only)
    reduction = reduce(
        execution,
        catalogue,
        Options(
            classifier=classifier or options.get("classifier"),
            max_inline_chars=max_inline_chars or options.get("maxInlineChars"),
            raw=raw or bool(options.get("raw")),
            no_omit=bool(options.get("noOmit")),
        ),
    )
    return result_to_wire(reduction, trace=trace or bool(options.get("trace")))


def execution_from_wire(data: dict[str, Any], prefix: str = "") -> Execution:
    """A ToolExecutionInput as an `Execution`; a UsageError names the bad field."""
    tool = data.get("toolName")
    if not isinstance(tool, str) or not tool.strip():
        raise UsageError(f"{prefix}toolName must be a non-empty string")
    for key in _OPTIONAL_STRINGS:
        value = data.get(key)
        if value is not None and (not isinstance(value, str) or "\0" in value):
            raise UsageError(f"{prefix}{key} must be a string without NUL bytes")
    for key in _OUTPUT_STRINGS:
        if data.get(key) is not None and not isinstance(data[key], str):
            raise UsageError(f"{prefix}{key} must be a string")
    argv = data.get("argv")
    if argv is not None and (not isinstance(argv, list) or not all(isinstance(a, str) and "\0" not in a for a in argv)):
        raise UsageError(f"{prefix}argv must be a list of strings")
    for key in _OPTIONAL_NUMBERS:
        value = data.get(key)
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
        ):
            raise UsageError(f"{prefix}{key} must be a finite number")
    return Execution(
        tool_name=tool,
        command=data.get("command"),
        argv=tuple(argv) if argv is not None else None,
        cwd=data.get("cwd"),
        exit_code=data.get("exitCode"),
        stdout=data.get("stdout") or "",
        stderr=data.get("stderr") or "",
        combined=data.get("combinedText") or "",
        duration_ms=data.get("durationMs"),
    )


def _validate_options(options: object) -> None:
    if not isinstance(options, dict):
        raise UsageError("options must be an object")
    if options.get("classifier") is not None and not isinstance(options["classifier"], str):
        raise UsageError("options.classifier must be a string")
    limit = options.get("maxInlineChars")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0):
        raise UsageError("options.maxInlineChars must be a positive integer")
    for key in _OPTION_FLAGS:
        if key in options and not isinstance(options[key], bool):
            raise UsageError(f"options.{key} must be true or false")
    if options.get("cwd") is not None and not isinstance(options["cwd"], str):
        raise UsageError("options.cwd must be a string")


def result_to_wire(
    reduction: Reduction, *, trace: bool = False, raw_ref: dict[str, str] | None = None
) -> dict[str, Any]:
    """The CompactResult, keys in the original's order."""
    text = text_of(reduction)
    raw_chars = reduction.raw_chars
    reduced = shown_chars(reduction, text)
    result: dict[str, Any] = {"inlineText": text}
    if reduction.facts is not None:
        result["facts"] = dict(reduction.facts)
    result["compaction"] = {"authoritative": bool(reduction.kinds), "kinds": list(reduction.kinds)}
    if reduction.passthrough:
        result["passthrough"] = reduction.passthrough
    if trace:
        result["trace"] = trace_to_wire(reduction)
    if raw_ref is not None:
        result["rawRef"] = raw_ref
    result["stats"] = {"rawChars": raw_chars, "reducedChars": reduced, "ratio": _ratio(reduced, raw_chars)}
    result["classification"] = classification_to_wire(reduction)
    return result


def classification_to_wire(reduction: Reduction) -> dict[str, Any]:
    classification = reduction.classification
    data: dict[str, Any] = {
        "family": classification.rule.family,
        "confidence": classification.confidence,
        "matchedReducer": classification.rule.id,
    }
    candidate = classification.candidate
    if candidate is not None:
        data["matchedVia"] = candidate.source
        data["matchedCommand"] = candidate.command or " ".join(candidate.argv)
    return data


def trace_to_wire(reduction: Reduction) -> dict[str, Any]:
    info, classification = reduction.command, reduction.classification
    trace: dict[str, Any] = {}
    if info.normalized_command:
        trace["normalizedCommand"] = info.normalized_command
    if info.normalized_argv:
        trace["normalizedArgv"] = list(info.normalized_argv)
    candidate = classification.candidate
    if candidate is not None:
        if candidate.command and candidate.command != info.normalized_command:
            trace["reducerCommand"] = candidate.command
        if candidate.argv:
            trace["reducerArgv"] = list(candidate.argv)
    trace["matchedReducer"] = classification.rule.id
    trace["family"] = classification.rule.family
    rule = reduction.rule
    if rule is not None and rule.layer != "builtin":
        trace["ruleSource"] = f"{rule.layer} {rule.path}"
    if reduction.budget:
        trace["budgetChars"] = reduction.budget
    if reduction.command.bounded:
        trace["bounded"] = True
    if reduction.guard is not None:
        found, kept, widened = reduction.guard
        trace["guard"] = {"anchors": found, "kept": kept, "widened": widened}
    if reduction.regions:
        trace["regions"] = [{"kind": kind, "lines": count} for kind, count in reduction.regions]
    return trace


def _ratio(reduced: int, raw: int) -> float:
    if raw == 0:
        return 1
    ratio = reduced / raw
    return int(ratio) if ratio.is_integer() else ratio
