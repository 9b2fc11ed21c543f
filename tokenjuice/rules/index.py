"""The compiled catalogue: every effective rule in one JSON file, rebuilt on change.

`wrap` runs on every shell command, so it must not parse 150 TOML files (tomllib
alone costs ~18 ms here). Instead it stats the rule files of every layer (for the
rules inside an installed wheel, only their directories), and if nothing changed
since the last build (same tokenjuice version, same files, same mtimes and sizes)
it reads a small JSON index holding only what classification needs; the full body
of a rule is read from a second file only when an output is big enough to be
reduced. Any change rebuilds both through the loader. A cache directory that
cannot be written only costs speed.
"""

from __future__ import annotations

import os

from .. import cachefile
from . import loader

_FORMAT = 2
#: What classification reads (and `family` for the result); the rest is the body.
MATCH_FIELDS = ("id", "family", "priority", "match")


class Catalogue:
    """The rules in force for one directory, in classification order: `rules` are
    the match entries (MATCH_FIELDS), `body(id)` the full rule."""

    __slots__ = ("rules", "problems", "_bodies", "_bodies_path", "_roots")

    def __init__(self, rules: list[dict], problems: list[dict], bodies: dict | None = None,
                 bodies_path: str | None = None, roots: list | None = None) -> None:
        self.rules = rules
        self.problems = problems
        self._bodies = bodies
        self._bodies_path = bodies_path
        self._roots = roots

    @classmethod
    def of(cls, rules: list[dict]) -> "Catalogue":
        """A catalogue of full rules already in memory."""
        return cls(rules, [], {rule["id"]: rule for rule in rules})

    def body(self, rule_id: str) -> dict | None:
        """The full rule, read on first use; rebuilt from the rule files if the
        bodies file went missing or lost the rule since the index was read."""
        if self._bodies is None and self._bodies_path:
            self._bodies = cachefile.read(self._bodies_path)
        found = self._bodies.get(rule_id) if isinstance(self._bodies, dict) else None
        if not isinstance(found, dict) and self._roots:
            self._bodies = _bodies(loader.load_catalogue(self._roots)[0])
            self._roots = None  # once per run is enough
            if self._bodies_path:
                cachefile.write(self._bodies_path, self._bodies)
            found = self._bodies.get(rule_id)
        return found

    @property
    def errors(self) -> list[dict]:
        return [p for p in self.problems if p["severity"] == "error"]


def load(cwd: str | None = None, *, builtin_only: bool = False) -> Catalogue:
    """The catalogue for `cwd`, from the index when it is current."""
    roots = loader.layer_roots(cwd, builtin_only=builtin_only)
    signature = [_signature(layer, root) for layer, root in roots]
    stem = cachefile.stem("index", [_FORMAT, roots])
    cached = cachefile.read_current(stem + ".json", signature)
    if cached is not None and isinstance(cached.get("rules"), list) and isinstance(cached.get("problems"), list):
        return Catalogue(cached["rules"], cached["problems"], bodies_path=stem + ".bodies.json", roots=roots)
    loaded, problems = loader.load_catalogue(roots)
    bodies = _bodies(loaded)
    entries = [{field: body[field] for field in MATCH_FIELDS} for body in bodies.values()]
    catalogue = Catalogue(entries, [p.to_dict() for p in problems], bodies, roots=roots)
    cachefile.write(stem + ".bodies.json", bodies)
    cachefile.write_current(stem + ".json", signature, {"rules": entries, "problems": catalogue.problems})
    return catalogue


def _signature(layer: str, root: str) -> list:
    """What must change for the index to be rebuilt: every file's mtime and size,
    except in an installed wheel, whose files change only with the version (part
    of the cache key) or a reinstall (which renews the directories)."""
    if layer == loader.BUILTIN and root == loader.installed_builtin_root():
        try:
            with os.scandir(root) as entries:
                return [layer, root, sorted([e.name, e.stat().st_mtime_ns] for e in entries)]
        except OSError:
            pass
    return [layer, root, [list(f[1:]) for f in loader.rule_files(root)]]


def _bodies(loaded: list[loader.LoadedRule]) -> dict[str, dict]:
    return {r.rule["id"]: r.rule | {"layer": r.layer, "path": r.path} for r in loaded}
