"""`tokenjuice reduce` and `tokenjuice reduce-json`: reduce output that already exists."""

from __future__ import annotations

import json
import math
import os
import sys

from ..errors import UsageError
from ..output import json_text
from ..reduce.engine import Options, reduce_execution
from ..rules import index

MAX_INPUT_BYTES = 16 * 1024 * 1024


def read_input(path: str | None, what: str) -> bytes:
    """The bytes of `path`, or of stdin when no path is given."""
    if path is None:
        if sys.stdin.isatty():
            raise UsageError(f"give a FILE or pipe {what} in, e.g. pytest 2>&1 | tokenjuice reduce --command pytest")
        data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        where = "stdin"
    else:
        try:
            with open(path, "rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
        except OSError as error:
            raise UsageError(f"cannot read {path}: {error.strerror}") from None
        where = path
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(f"{where} is larger than {MAX_INPUT_BYTES} bytes; reduce a smaller piece")
    return data


def reduce_text(path: str | None, *, command: str | None, exit_code: int, output_format: str,
                raw: bool, classifier: str | None, max_inline_chars: int | None, trace: bool) -> str:
    data = read_input(path, "the output")
    text = data.decode("utf-8", errors="replace")
    execution = {"toolName": "exec", "command": command, "combinedText": text, "exitCode": exit_code}
    hint = f"tokenjuice reduce --raw {path}" if path else "the input piped to tokenjuice reduce"
    catalogue = index.load(os.getcwd())
    result = reduce_execution(execution, catalogue, Options(
        classifier=classifier, max_inline_chars=max_inline_chars, raw=raw, trace=trace, raw_hint=hint))
    if output_format == "json":
        return json_text(result)
    if raw:
        return text
    return result["inlineText"] + "\n" if result["inlineText"] else ""


# -- reduce-json ------------------------------------------------------------------------

_OPTIONAL_STRINGS = ("toolCallId", "runId", "command", "cwd", "stdout", "stderr", "combinedText")
_OPTIONAL_NUMBERS = ("exitCode", "startedAt", "finishedAt", "durationMs")


def reduce_json(path: str | None, *, classifier: str | None, raw: bool, trace: bool,
                max_inline_chars: int | None) -> dict:
    """Reduce a ToolExecutionInput payload (or an {input, options} envelope)."""
    data = read_input(path, "a JSON payload")
    if not data.strip():
        raise UsageError("reduce-json needs a JSON payload on stdin or in a file")
    try:
        payload = json.loads(data)
    except ValueError as error:
        raise UsageError(f"the payload is not valid JSON ({error})") from None
    if not isinstance(payload, dict):
        raise UsageError("the payload must be a JSON object")
    envelope = isinstance(payload.get("input"), dict)
    execution = payload["input"] if envelope else payload
    options = payload.get("options", {}) if envelope else {}
    _validate_execution(execution, "input." if envelope else "")
    _validate_options(options)
    cwd = options.get("cwd") or execution.get("cwd") or os.getcwd()
    catalogue = index.load(cwd)
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
