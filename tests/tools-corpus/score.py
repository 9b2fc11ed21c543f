"""Score tokenjuice on the tools corpus: must-keep kept, size ratio (issue 32).

Each case's result goes through `tokenjuice.compact.compact_tool_result` under its
tool's name, in the shape a hook sees it when the server sent no `structuredContent`
(Claude Code, Gemini and OpenCode read the content blocks): an `mcp-*` case as its
list of content blocks, a `claude-*` case as the text its tool's output object holds
(Grep's `content`, Glob's `filenames` one a line), which the Claude Code hook compacts.
A must-keep string counts as kept when one string value of the result holds it (a
text block's text, an image's data, a link's URI: decoded from JSON, as the corpus
README says), directly or in a
lossless re-encoding (`tokenjuice.reduce.reencode`). Sizes are the characters the
model reads: each text block's text (or the tool's text), and the JSON of every other
block (an image's data is never compacted). Prints one line; `--details` lists each
case with every string lost. tests/e2e/test_tools_corpus.py holds the floor.

Runs in a private TOKENJUICE_HOME and cache (the full outputs kept and the ledger
go there), unless `--here`.

    .venv/bin/python tests/tools-corpus/score.py [--details]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


@dataclass
class Result:
    name: str
    tool: str
    raw_chars: int
    shown_chars: int
    lost: list[str]
    must: int


def cases() -> list[tuple[str, dict[str, Any], Any]]:
    found = []
    for path in sorted(HERE.glob("*.toml")):
        meta = tomllib.loads(path.read_text(encoding="utf-8"))
        raw = (HERE / str(meta["output_file"])).read_bytes()
        if str(meta["output_file"]).endswith(".gz"):
            raw = gzip.decompress(raw)
        found.append((path.stem, meta, json.loads(raw)))
    return found


def hook_input(name: str, result: Any) -> Any:
    """What the compactor is handed: the content blocks of an MCP result, the text of
    Claude Code's own Grep (`content`) or Glob (`filenames`, one a line)."""
    if name.startswith("claude-"):
        if isinstance(result.get("content"), str):
            return result["content"]
        return "\n".join(result.get("filenames", []))
    return result["content"]


def strings(value: Any) -> list[str]:
    """Every string value of the result, decoded: a text block's text, an image's data,
    a resource link's URI."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in strings(item)]
    return []


def size(value: Any) -> int:
    if isinstance(value, str):
        return len(value)
    return sum(
        len(block["text"]) if block.get("type") == "text" else len(json.dumps(block, ensure_ascii=False))
        for block in value
    )


def score_one(name: str, meta: dict[str, Any], result: Any, settings: Any) -> Result:
    from tokenjuice.compact import compact_tool_result
    from tokenjuice.reduce.reencode import decoded, shows

    given = hook_input(name, result)
    done = compact_tool_result(str(meta["tool"]), given, cwd=str(HERE), source="score", settings=settings)
    shown = given if done is None else done.result
    readable = [decoded(text) for text in strings(shown)]
    must = [str(s) for s in meta.get("must_keep", [])]
    lost = [s for s in must if not any(shows(text, s) for text in readable)]
    return Result(name, str(meta["tool"]), size(given), size(shown), lost, len(must))


def score() -> list[Result]:
    from tokenjuice.settings import resolve

    settings = resolve(str(HERE), env=dict(os.environ))
    return [score_one(name, meta, result, settings) for name, meta, result in cases()]


def summary(results: list[Result]) -> str:
    must = sum(r.must for r in results)
    kept = must - sum(len(r.lost) for r in results)
    raw = sum(r.raw_chars for r in results)
    shown = sum(r.shown_chars for r in results)
    return (
        f"cases={len(results)} must-keep={kept}/{must} ({kept / max(must, 1):.1%}) "
        f"size-ratio={shown / max(raw, 1):.3f} (raw {raw:,} -> shown {shown:,} chars)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--details", action="store_true", help="list every case, with every must-keep lost")
    parser.add_argument("--here", action="store_true", help="use this user's tokenjuice home and cache")
    args = parser.parse_args(argv)
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="tj-tools-corpus-") as home:
        if not args.here:
            os.environ["TOKENJUICE_HOME"] = os.path.join(home, "data")
            os.environ["XDG_CACHE_HOME"] = os.path.join(home, "cache")
            os.environ["XDG_CONFIG_HOME"] = os.path.join(home, "config")
        try:
            results = score()
        finally:
            os.environ.clear()
            os.environ.update(saved)
    if args.details:
        for r in results:
            print(
                f"{r.name} [{r.tool}] ({r.raw_chars:,} -> {r.shown_chars:,} chars): kept {r.must - len(r.lost)}/{r.must}"
            )
            print("".join(f"    lost {s!r}\n" for s in r.lost), end="")
    print(summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
