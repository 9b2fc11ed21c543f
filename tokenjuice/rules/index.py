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

from ..files import cachefile
from . import loader
from .model import MatchEntry, Rule, compact, from_canonical, to_canonical

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_FORMAT = 4


class Catalogue:
    """The rules in force for one directory, in classification order: `entries`
    are what classification reads, `body(id)` the full rule."""

    __slots__ = ("_bodies", "_bodies_path", "_built", "_roots", "entries", "problems")

    def __init__(
        self,
        entries: list[MatchEntry],
        problems: list[loader.Problem],
        bodies: dict[str, Any] | None = None,
        bodies_path: str | None = None,
        roots: list[tuple[str, str]] | None = None,
    ) -> None:
        self.entries = entries
        self.problems = problems
        self._bodies = bodies  # rule id -> canonical rule
        self._bodies_path = bodies_path
        self._roots = roots
        self._built: dict[str, Rule] = {}

    @classmethod
    def of(cls, rules: list[Rule]) -> Catalogue:
        """A catalogue of rules already in memory, in the order given."""
        catalogue = cls([entry_of(rule) for rule in rules], [])
        catalogue._built = {rule.id: rule for rule in rules}
        return catalogue

    def body(self, rule_id: str) -> Rule | None:
        """The full rule, read on first use; rebuilt from the rule files if the
        bodies file went missing or lost the rule since the index was read."""
        if rule_id in self._built:
            return self._built[rule_id]
        if self._bodies is None and self._bodies_path:
            self._bodies = cachefile.read(self._bodies_path)
        found = self._bodies.get(rule_id) if isinstance(self._bodies, dict) else None
        if not isinstance(found, dict) and self._roots:
            self._bodies = _bodies(loader.load_catalogue(self._roots)[0])
            self._roots = None  # once per run is enough
            if self._bodies_path:
                cachefile.write(self._bodies_path, self._bodies)
            found = self._bodies.get(rule_id)
        if not isinstance(found, dict):
            return None
        rule: Rule = from_canonical(Rule, found)
        self._built[rule_id] = rule
        return rule

    @property
    def errors(self) -> list[loader.Problem]:
        return [p for p in self.problems if p.severity == "error"]


def entry_of(rule: Rule) -> MatchEntry:
    from .patterns import required_literal

    literals = tuple(required_literal(pattern) for pattern in rule.match.output)
    return MatchEntry(rule.id, rule.family, rule.priority, rule.match, rule.trusted, literals)


def load(cwd: str | None = None, *, builtin_only: bool = False) -> Catalogue:
    """The catalogue for `cwd`, from the index when it is current."""
    roots = loader.layer_roots(cwd, builtin_only=builtin_only)
    signature = [_signature(layer, root) for layer, root in roots]
    stem = cachefile.stem("index", [_FORMAT, roots])
    cached = cachefile.read_current(stem + ".json", signature)
    if cached is not None and isinstance(cached.get("rules"), list) and isinstance(cached.get("problems"), list):
        entries = [
            MatchEntry(e["id"], e["family"], e["priority"], None, e["trusted"], tuple(e["literals"]), data=e["match"])
            for e in cached["rules"]
        ]
        problems = [loader.Problem(**p) for p in cached["problems"]]
        return Catalogue(entries, problems, bodies_path=stem + ".bodies.json", roots=roots)
    loaded, problems = loader.load_catalogue(roots)
    bodies = _bodies(loaded)
    catalogue = Catalogue([entry_of(r.rule) for r in loaded], problems, bodies, roots=roots)
    catalogue._built = {r.rule.id: r.rule for r in loaded}
    cachefile.write(stem + ".bodies.json", bodies)
    cachefile.write_current(
        stem + ".json",
        signature,
        {
            "rules": [
                {
                    "id": e.id,
                    "family": e.family,
                    "priority": e.priority,
                    "match": compact(bodies[e.id]["match"]),
                    "trusted": e.trusted,
                    "literals": list(e.output_literals),
                }
                for e in catalogue.entries
            ],
            "problems": [p.to_dict() for p in problems],
        },
    )
    return catalogue


def _signature(layer: str, root: str) -> list[Any]:
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


def _bodies(loaded: list[loader.LoadedRule]) -> dict[str, Any]:
    return {r.rule.id: to_canonical(r.rule) for r in loaded}
