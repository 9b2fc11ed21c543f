"""Score tokenjuice on the scenario corpus: must-keep kept, noise dropped, size ratio.

Each scenario's output goes through a real `tokenjuice reduce` process with its
command and exit code, as `wrap` would reduce it. A must-keep string counts as kept
when the shown text holds it, directly or in a lossless re-encoding (read back by
`tokenjuice.reduce.reencode`); the strings were chosen from the raw output before any
tokenjuice output was seen (README.md). Prints one line; `--details` lists every
string lost, per scenario. tests/e2e/test_scenarios.py holds the floor.

    .venv/bin/python tests/scenarios/score.py [--details] [--tokenjuice PATH]
"""

from __future__ import annotations

import argparse
import gzip
import re
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")
#: Raw outputs up to this size are modest: an agent should get them whole but for noise.
MODEST_CHARS = 10_000


@dataclass
class Result:
    name: str
    meta: dict[str, object]
    raw_chars: int
    shown: str
    lost: list[str]
    must: int
    noise_kept: list[str]
    noise: int


def scenarios() -> list[tuple[str, dict[str, object], bytes]]:
    found = []
    for path in sorted(HERE.glob("*.toml")):
        meta = tomllib.loads(path.read_text(encoding="utf-8"))
        raw = (HERE / str(meta["output_file"])).read_bytes()
        if str(meta["output_file"]).endswith(".gz"):
            raw = gzip.decompress(raw)
        found.append((path.stem, meta, raw))
    return found


def score_one(tokenjuice: str, name: str, meta: dict[str, object], raw: bytes) -> Result:
    from tokenjuice.reduce.reencode import decoded, shows

    done = subprocess.run(
        [tokenjuice, "reduce", "--command", str(meta["command"]), "--exit-code", str(meta["exit_code"])],
        input=raw,
        capture_output=True,
        check=False,
    )
    text = done.stdout.decode("utf-8", "replace")
    readable = decoded(text)
    must = [str(s) for s in meta.get("must_keep", [])]  # type: ignore[attr-defined]
    noisy = [str(s) for s in meta.get("noise", [])]  # type: ignore[attr-defined]
    source = ANSI.sub("", raw.decode("utf-8", "replace"))
    return Result(
        name,
        meta,
        len(source),
        text,
        [s for s in must if not shows(readable, s)],
        len(must),
        [s for s in noisy if shows(readable, s)],
        len(noisy),
    )


def score(tokenjuice: str) -> list[Result]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(lambda s: score_one(tokenjuice, *s), scenarios()))


def totals(results: list[Result]) -> dict[str, int]:
    """The corpus's counts: must-keep kept of total (all, and outputs of modest size),
    noise dropped of total, raw and shown characters."""
    modest = [r for r in results if r.raw_chars <= MODEST_CHARS]
    must = sum(r.must for r in results)
    modest_must = sum(r.must for r in modest)
    noise = sum(r.noise for r in results)
    return {
        "must": must,
        "kept": must - sum(len(r.lost) for r in results),
        "modest_must": modest_must,
        "modest_kept": modest_must - sum(len(r.lost) for r in modest),
        "noise": noise,
        "dropped": noise - sum(len(r.noise_kept) for r in results),
        "raw": sum(r.raw_chars for r in results),
        "shown": sum(len(r.shown) for r in results),
        "longer": sum(1 for r in results if len(r.shown.rstrip("\n")) > r.raw_chars),
    }


def summary(results: list[Result]) -> str:
    t = totals(results)
    return (
        f"scenarios={len(results)} must-keep={t['kept']}/{t['must']} ({t['kept'] / max(t['must'], 1):.1%}) "
        f"modest-must-keep={t['modest_kept']}/{t['modest_must']} ({t['modest_kept'] / max(t['modest_must'], 1):.1%}) "
        f"noise-dropped={t['dropped']}/{t['noise']} ({t['dropped'] / max(t['noise'], 1):.1%}) "
        f"size-ratio={t['shown'] / max(t['raw'], 1):.3f} (raw {t['raw']:,} -> shown {t['shown']:,} chars) "
        f"longer-than-raw={t['longer']}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--details", action="store_true", help="list every must-keep lost, per scenario")
    parser.add_argument("--tokenjuice", default=str(Path(sys.executable).parent / "tokenjuice"))
    args = parser.parse_args(argv)
    results = score(args.tokenjuice)
    if args.details:
        for result in results:
            if result.lost or result.noise_kept:
                print(
                    f"{result.name} ({result.raw_chars:,} -> {len(result.shown):,} chars): lost {len(result.lost)}/{result.must}"
                )
                print("\n".join(f"    lost {s!r}" for s in result.lost))
                print("\n".join(f"    noise kept {s!r}" for s in result.noise_kept))
    print(summary(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
