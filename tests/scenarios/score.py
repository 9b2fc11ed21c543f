"""Score tokenjuice on the scenario corpus: must-keep kept, noise dropped, size ratio.

Each scenario's output goes through a real `tokenjuice reduce` process with its
command and exit code, as `wrap` would reduce it. A must-keep string counts as kept
when the shown text holds it, directly or in a lossless re-encoding (read back by
`tokenjuice.verify.decoded`); the strings were chosen from the raw output before any
tokenjuice output was seen (README.md). Prints one line; `--details` lists every
string lost, per scenario.

    .venv/bin/python tests/scenarios/score.py [--details] [--tokenjuice PATH]
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


def scenarios() -> list[tuple[str, dict[str, object], bytes]]:
    found = []
    for path in sorted(HERE.glob("*.toml")):
        meta = tomllib.loads(path.read_text(encoding="utf-8"))
        raw = (HERE / str(meta["output_file"])).read_bytes()
        if str(meta["output_file"]).endswith(".gz"):
            raw = gzip.decompress(raw)
        found.append((path.stem, meta, raw))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--details", action="store_true", help="list every must-keep lost, per scenario")
    parser.add_argument("--tokenjuice", default=str(Path(sys.executable).parent / "tokenjuice"))
    args = parser.parse_args(argv)
    from tokenjuice.verify import decoded, shows

    kept = total = dropped = noise = raw_chars = shown_chars = 0
    whole_kept = whole_total = 0
    lines = []
    for name, meta, raw in scenarios():
        done = subprocess.run(
            [args.tokenjuice, "reduce", "--command", str(meta["command"]), "--exit-code", str(meta["exit_code"])],
            input=raw,
            capture_output=True,
            check=False,
        )
        text = done.stdout.decode("utf-8", "replace")
        readable = decoded(text)
        source = ANSI.sub("", raw.decode("utf-8", "replace"))
        must = [str(s) for s in meta.get("must_keep", [])]  # type: ignore[attr-defined]
        lost = [s for s in must if not shows(readable, s)]
        noisy = [str(s) for s in meta.get("noise", [])]  # type: ignore[attr-defined]
        kept += len(must) - len(lost)
        total += len(must)
        dropped += sum(1 for s in noisy if not shows(readable, s))
        noise += len(noisy)
        raw_chars += len(source)
        shown_chars += len(text)
        if len(source) <= 10_000:  # modest: what the information budget must keep whole
            whole_kept += len(must) - len(lost)
            whole_total += len(must)
        if lost and args.details:
            lines.append(f"{name} ({len(source):,} -> {len(text):,} chars): lost {len(lost)}/{len(must)}")
            lines += [f"    {s!r}" for s in lost]
    if args.details:
        print("\n".join(lines))
    print(
        f"scenarios={len(scenarios())} must-keep={kept}/{total} ({kept / max(total, 1):.1%}) "
        f"modest-must-keep={whole_kept}/{whole_total} ({whole_kept / max(whole_total, 1):.1%}) "
        f"noise-dropped={dropped}/{noise} ({dropped / max(noise, 1):.1%}) "
        f"size-ratio={shown_chars / max(raw_chars, 1):.3f} (raw {raw_chars:,} -> shown {shown_chars:,} chars)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
