"""The compiled catalogue: every effective rule in one JSON file, rebuilt on change.

`wrap` runs on every shell command, so it must not parse 150 TOML files (tomllib
alone costs ~18 ms here). Instead it stats the rule files of every layer, and if
nothing changed since the last build (same tokenjuice version, same files, same
mtimes and sizes) it reads one JSON file. Any change rebuilds the index through
the loader. A cache directory that cannot be written only costs speed.
"""

from __future__ import annotations

import json
import os
import zlib

from .. import __version__, cachefile, paths
from . import loader

_FORMAT = 1


class Catalogue:
    """The rules in force for one directory, in classification order."""

    __slots__ = ("rules", "problems", "_by_id")

    def __init__(self, rules: list[dict], problems: list[dict]) -> None:
        self.rules = rules
        self.problems = problems
        self._by_id = {rule["id"]: rule for rule in rules}

    def get(self, rule_id: str) -> dict | None:
        return self._by_id.get(rule_id)

    @property
    def errors(self) -> list[dict]:
        return [p for p in self.problems if p["severity"] == "error"]


def load(cwd: str | None = None, *, builtin_only: bool = False) -> Catalogue:
    """The catalogue for `cwd`, from the index when it is current."""
    roots = loader.layer_roots(cwd, builtin_only=builtin_only)
    signature = [[layer, root, [list(f[1:]) for f in loader.rule_files(root)]] for layer, root in roots]
    key = json.dumps([__version__, roots], separators=(",", ":"))
    cache_path = os.path.join(paths.cache_dir(), "index", f"rules-{zlib.crc32(key.encode()):08x}.json")
    cached = _read(cache_path, signature)
    if cached is not None:
        return cached
    rules, problems = loader.load_catalogue(roots)
    catalogue = Catalogue([r.rule | {"layer": r.layer, "path": r.path} for r in rules],
                          [p.to_dict() for p in problems])
    cachefile.write(cache_path, {"format": _FORMAT, "version": __version__, "signature": signature,
                                 "rules": catalogue.rules, "problems": catalogue.problems})
    return catalogue


def _read(path: str, signature: list) -> Catalogue | None:
    data = cachefile.read(path)
    if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("version") != __version__:
        return None
    if data.get("signature") != signature:
        return None
    return Catalogue(data["rules"], data["problems"])
