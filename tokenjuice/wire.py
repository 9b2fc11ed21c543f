"""The TypeScript-compatible wire format, at the edge: `reduce-json` payloads in,
camelCase results out."""

from __future__ import annotations

import math
import os

from .errors import UsageError

_OPTIONAL_STRINGS = ("toolCallId", "runId", "command", "cwd", "stdout", "stderr", "combinedText")
_OPTIONAL_NUMBERS = ("exitCode", "startedAt", "finishedAt", "durationMs")


def reduce_payload(payload: object, *, builtin_only: bool = False, classifier: str | None = None,
                   raw: bool = False, trace: bool = False, max_inline_chars: int | None = None) -> dict:
    """Reduce a ToolExecutionInput payload (or an {input, options} envelope); flags
    given here win over the envelope's options."""
    from .reduce.engine import Options, reduce_execution
    from .rules import index

    if not isinstance(payload, dict):
        raise UsageError("the payload must be a JSON object")
    envelope = isinstance(payload.get("input"), dict)
    execution = payload["input"] if envelope else payload
    options = payload.get("options", {}) if envelope else {}
    _validate_execution(execution, "input." if envelope else "")
    _validate_options(options)
    cwd = options.get("cwd") or execution.get("cwd") or os.getcwd()
    catalogue = index.load(cwd, builtin_only=builtin_only)
    return reduce_execution(execution, catalogue, Options(
        classifier=classifier or options.get("classifier"),
        max_inline_chars=max_inline_chars or options.get("maxInlineChars"),
        raw=raw or bool(options.get("raw")), no_omit=bool(options.get("noOmit")),
        trace=trace or bool(options.get("trace"))))


def _validate_execution(execution: dict, prefix: str) -> None:
    tool = execution.get("toolName")
    if not isinstance(tool, str) or not tool.strip():
        raise UsageError(f"{prefix}toolName must be a non-empty string")
    for key in _OPTIONAL_STRINGS:
        value = execution.get(key)
        if value is not None and (not isinstance(value, str) or "\0" in value):
            raise UsageError(f"{prefix}{key} must be a string without NUL bytes")
    argv = execution.get("argv")
    if argv is not None and (not isinstance(argv, list) or not all(isinstance(a, str) and "\0" not in a
                                                                    for a in argv)):
        raise UsageError(f"{prefix}argv must be a list of strings")
    for key in _OPTIONAL_NUMBERS:
        value = execution.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                  or not math.isfinite(value)):
            raise UsageError(f"{prefix}{key} must be a finite number")


def _validate_options(options: object) -> None:
    if not isinstance(options, dict):
        raise UsageError("options must be an object")
    if options.get("classifier") is not None and not isinstance(options["classifier"], str):
        raise UsageError("options.classifier must be a string")
    limit = options.get("maxInlineChars")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit <= 0):
        raise UsageError("options.maxInlineChars must be a positive integer")
    for key in ("raw", "noOmit", "trace"):
        if key in options and not isinstance(options[key], bool):
            raise UsageError(f"options.{key} must be true or false")
    if options.get("cwd") is not None and not isinstance(options["cwd"], str):
        raise UsageError("options.cwd must be a string")
