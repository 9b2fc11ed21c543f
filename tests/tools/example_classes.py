"""Which rule each example of the catalogue is classified to, and how small it gets,
under one version of tokenjuice; and what changed between two versions.

    python tests/tools/example_classes.py --tree /tmp/base > before.json     # an older checkout (git archive)
    python tests/tools/example_classes.py --tree . > after.json
    python tests/tools/example_classes.py --compare before.json after.json

The examples always come from `--examples` (default: this checkout's reducers/), so
both versions reduce the same real outputs; the code and the rules come from
`--tree`. Examples are read with tomllib only, so an older loader never sees fields
it does not know.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]


def examples(root: Path) -> list[tuple[str, dict]]:
    found = []
    for path in sorted(root.rglob("*.toml")):
        rule_id = path.relative_to(root).with_suffix("").as_posix()
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        for index, example in enumerate(data.get("examples", [])):
            found.append((f"{rule_id}#{index} {example.get('name') or example['command']}", example))
    return found


def classes(tree: Path, root: Path) -> dict[str, dict]:
    sys.path.insert(0, str(tree))
    import tokenjuice
    from tokenjuice.model import Execution
    from tokenjuice.reduce.engine import Options, reduce
    from tokenjuice.reduce.render import text_of
    from tokenjuice.rules import loader
    from tokenjuice.rules.index import Catalogue

    assert Path(tokenjuice.__file__).resolve().is_relative_to(tree.resolve()), tokenjuice.__file__
    rules, _ = loader.load_catalogue([(loader.BUILTIN, str(tree / "reducers"))])
    catalogue = Catalogue.of(sorted((r.rule for r in rules), key=lambda r: (r.id == loader.FALLBACK_ID, r.id)))
    result = {}
    for key, example in examples(root):
        execution = Execution(
            tool_name=example.get("tool_name", "exec"),
            command=example["command"],
            argv=example.get("argv") or None,
            exit_code=example.get("exit_code", 0),
            combined=example["output"],
        )
        reduction = reduce(execution, catalogue, Options(hint="full output: tokenjuice cat 00000000"))
        text = text_of(reduction)
        via = reduction.classification.candidate.source if reduction.classification.candidate else None
        raw = len(example["output"])
        result[key] = {
            "rule": reduction.classification.rule.id,
            "via": via,
            "chars": len(text),
            "ratio": round(len(text) / raw, 4) if raw else None,
        }
    return result


def compare(before: dict[str, dict], after: dict[str, dict]) -> int:
    changed = [k for k in after if k in before and before[k]["rule"] != after[k]["rule"]]
    worse = []
    for key in changed:
        b, a = before[key], after[key]
        flag = ""
        if a["ratio"] is not None and b["ratio"] is not None and a["ratio"] > b["ratio"]:
            flag = "  WORSE"
            worse.append(key)
        print(f"{key}\n    {b['rule']} ({b['ratio']}) -> {a['rule']} via {a['via']} ({a['ratio']}){flag}")
    print(f"{len(changed)} of {len(after)} examples changed class; {len(worse)} got a worse ratio")
    return 1 if worse else 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path)
    parser.add_argument("--examples", type=Path, default=HERE / "reducers")
    parser.add_argument("--compare", nargs=2, type=Path)
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        return compare(before, after)
    json.dump(classes(args.tree, args.examples), sys.stdout, indent=1, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
