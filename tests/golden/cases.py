"""The golden set: the TypeScript-compatible `reduce-json` result for every built-in
rule example and every fixture of the original (when ../shared is beside the
checkout), under four option sets. Each case is pinned by a hash of its input and
of its JSON output (`reduce_json.sha256.json`), so a change to any output byte is a
deliberate act: `python tests/golden/regenerate.py` rewrites the pins, and the diff
of that file names every case whose output changed."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

from tokenjuice.commands.output import json_text
from tokenjuice.commands.wire import reduce_payload
from tokenjuice.rules import loader

HERE = Path(__file__).resolve().parent
PINS = HERE / "reduce_json.sha256.json"
ANCHOR = HERE.parent.parent.parent / "shared" / "eval" / "anchor_corpus.jsonl"
VARIANTS: dict[str, dict[str, object]] = {
    "default": {},
    "trace": {"trace": True},
    "budget400": {"maxInlineChars": 400},
    "noOmit": {"noOmit": True},
}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@functools.cache
def builtin_rules() -> tuple[loader.LoadedRule, ...]:
    return tuple(loader.load_layer(loader.BUILTIN, loader.builtin_root())[0])


ANCHOR_ID = "anchor"


def cases(only: str | None = None) -> Iterator[tuple[str, dict[str, object], dict[str, object]]]:
    """(name, ToolExecutionInput, options) for every golden case, or for those of one
    rule id (or of the original's fixtures, `ANCHOR_ID`)."""
    for rule in builtin_rules():
        if only is not None and rule.rule.id != only:
            continue
        for example in rule.examples:
            execution: dict[str, object] = {
                "toolName": example.tool_name,
                "command": example.command,
                "combinedText": example.output,
                "exitCode": example.exit_code,
            }
            if example.argv:
                execution["argv"] = list(example.argv)
            for variant, options in VARIANTS.items():
                yield f"{rule.rule.id}::{example.name}::{variant}", execution, options
    if ANCHOR.is_file() and only in (None, ANCHOR_ID):
        for line in ANCHOR.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            for variant, options in [*VARIANTS.items(), ("anchor", case["options"])]:
                yield f"anchor::{case['id']}::{variant}", case["input"], options


def result_text(execution: dict[str, object], options: dict[str, object]) -> str:
    """The JSON `tokenjuice reduce-json` prints for this envelope, with the
    built-in catalogue alone."""
    return json_text(reduce_payload({"input": execution, "options": options}, builtin_only=True))


def pin(execution: dict[str, object], options: dict[str, object]) -> list[str]:
    return [digest(json.dumps([execution, options], sort_keys=True)), digest(result_text(execution, options))]
