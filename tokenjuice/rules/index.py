"""The compiled catalogue: every effective rule in one JSON file, rebuilt on change.

`wrap` runs on every shell command, so it must not parse 150 TOML files (tomllib
alone costs ~18 ms here). Instead it stats the rule files of every layer (for the
rules inside an installed wheel, only their directories), and if nothing changed
since the last build (same tokenjuice version, same files, same mtimes and sizes)
it reads a small JSON index holding only what classification needs; the full body
of a rule is read from a second file only when an output is big enough to be
reduced, and only that rule's: the file starts with a line saying where each rule's
JSON is in it (parsing every body to read one cost ~14 M instructions a reduction).
Any change rebuilds both through the loader. A cache directory that
cannot be written only costs speed.

Building the built-in layer from its TOML files (parsing them and checking ~2,400
patterns) costs ~3 s of CPU, paid by the first command in a fresh HOME. So the
package ships it built: `builtin.json` beside this module holds the layer's
validated rules and the SHA-256 of its files, and a build reads that instead of the
files whenever the digest matches (an edited or added rule file is loaded from
source as before). `python -m tokenjuice.rules.index` regenerates it; a test fails
when it is out of date.
"""

from __future__ import annotations

import os

from ..fast import fastjson
from ..files import cachefile
from . import loader
from .model import MatchEntry, Rule, compact, from_canonical, to_canonical

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_FORMAT = 4
#: The built-in layer, built (`python -m tokenjuice.rules.index`), shipped in the package.
SHIPPED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "builtin.json")


class Catalogue:
    """The rules in force for one directory, in classification order: `entries`
    are what classification reads, `body(id)` the full rule."""

    __slots__ = ("_bodies", "_bodies_path", "_built", "_packed", "_roots", "entries", "layers", "problems")

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
        self._packed: tuple[dict[str, Any], bytes] | None = None  # the bodies file, read on first use
        self._roots = roots
        self.layers = roots  # (layer, directory) pairs it was loaded from, lowest first
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
        found = self._bodies.get(rule_id) if self._bodies is not None else self._stored(rule_id)
        if not isinstance(found, dict) and self._roots:
            self._bodies = _bodies(loader.load_catalogue(self._roots, load_layer=_load_layer)[0])
            self._roots = None  # once per run is enough
            if self._bodies_path:
                cachefile.write_bytes(self._bodies_path, _pack(self._bodies))
            found = self._bodies.get(rule_id)
        if not isinstance(found, dict):
            return None
        rule: Rule = from_canonical(Rule, found)
        self._built[rule_id] = rule
        return rule

    def _stored(self, rule_id: str) -> Any:
        """The canonical rule as the bodies file holds it (None if it does not, or
        the file is missing or broken): only that rule's JSON is parsed."""
        if self._packed is None:
            data = cachefile.read_bytes(self._bodies_path) if self._bodies_path else None
            self._packed = _unpack_header(data or b"")
        spans, data = self._packed
        span = spans.get(rule_id)
        if not (isinstance(span, list) and len(span) == 2 and all(type(at) is int for at in span)):
            return None
        try:
            return fastjson.loads(data[span[0] : span[1]])
        except ValueError:
            return None

    def without_project(self) -> Catalogue:
        """The rules of the user's and the built-in layers alone (what a project's rule
        overrides comes back): the rules a project's rule may only narrow."""
        if self.layers is not None:
            kept = [(layer, root) for layer, root in self.layers if layer != loader.PROJECT]
            return self if len(kept) == len(self.layers) else load_roots(kept)
        rules = [self.body(entry.id) for entry in self.entries]
        return Catalogue.of([rule for rule in rules if rule is not None and rule.layer != loader.PROJECT])

    @property
    def errors(self) -> list[loader.Problem]:
        return [p for p in self.problems if p.severity == "error"]


def entry_of(rule: Rule) -> MatchEntry:
    from .patterns import required_literal

    literals = tuple(required_literal(pattern) for pattern in rule.match.output)
    return MatchEntry(rule.id, rule.family, rule.priority, rule.match, rule.trusted, literals)


def load(cwd: str | None = None, *, builtin_only: bool = False) -> Catalogue:
    """The catalogue for `cwd`, from the index when it is current."""
    return load_roots(loader.layer_roots(cwd, builtin_only=builtin_only))


def load_roots(roots: list[tuple[str, str]]) -> Catalogue:
    """The catalogue of these (layer, directory) pairs, from the index when it is current."""
    signature = [_signature(layer, root) for layer, root in roots]
    stem = cachefile.stem("index", [_FORMAT, roots])
    cached = cachefile.read_current(stem + ".json", signature)
    if cached is not None and isinstance(cached.get("rules"), list) and isinstance(cached.get("problems"), list):
        entries = [_entry(row) for row in cached["rules"]]
        problems = [loader.Problem(**p) for p in cached["problems"]]
        return Catalogue(entries, problems, bodies_path=stem + ".bodies", roots=roots)
    alone = roots[0][0] == loader.BUILTIN and not any(loader.rule_files(root) for _, root in roots[1:])
    shipped = _read_shipped(roots[0][1]) if alone else None
    if shipped is not None:
        # the built-in layer alone (no user or project rule), as shipped: no rule is
        # parsed, built or validated
        rows, bodies, problems = shipped
        catalogue = Catalogue([_entry(row) for row in rows], problems, bodies, roots=roots)
    else:
        loaded, problems = loader.load_catalogue(roots, load_layer=_load_layer)
        bodies = _bodies(loaded)
        catalogue = Catalogue([entry_of(r.rule) for r in loaded], problems, bodies, roots=roots)
        catalogue._built = {r.rule.id: r.rule for r in loaded}
        rows = _rows(catalogue.entries, bodies)
    cachefile.write_bytes(stem + ".bodies", _pack(bodies))
    cachefile.write_current(stem + ".json", signature, {"rules": rows, "problems": [p.to_dict() for p in problems]})
    return catalogue


def _entry(row: dict[str, Any]) -> MatchEntry:
    return MatchEntry(
        row["id"], row["family"], row["priority"], None, row["trusted"], tuple(row["literals"]), data=row["match"]
    )


def _rows(entries: list[MatchEntry], bodies: dict[str, Any]) -> list[dict[str, Any]]:
    """The match index as stored: what classification reads of each rule."""
    return [
        {
            "id": e.id,
            "family": e.family,
            "priority": e.priority,
            "match": compact(bodies[e.id]["match"]),
            "trusted": e.trusted,
            "literals": list(e.output_literals),
        }
        for e in entries
    ]


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


def _pack(bodies: dict[str, Any]) -> bytes:
    """The bodies file: a line of JSON giving each rule's [start, end] in the bytes
    after it, then each rule's JSON."""
    pieces, spans, at = [], {}, 0
    for rule_id, body in bodies.items():
        piece = fastjson.dumps(body).encode("utf-8")
        spans[rule_id] = [at, at + len(piece)]
        pieces.append(piece)
        at += len(piece)
    return fastjson.dumps(spans).encode("utf-8") + b"\n" + b"".join(pieces)


def _unpack_header(data: bytes) -> tuple[dict[str, Any], bytes]:
    """A bodies file's spans and the bytes they point into (no span when it is broken)."""
    line, newline, rest = data.partition(b"\n")
    try:
        spans = fastjson.loads(line) if newline else None
    except ValueError:
        spans = None
    return (spans if isinstance(spans, dict) else {}), rest


def digest(root: str) -> str:
    """SHA-256 of a layer's rule files: each one's id, size and bytes, in order."""
    import hashlib

    hashed = hashlib.sha256()
    for rule_id, path, _, _ in loader.rule_files(root):
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError:
            data = b"\0unreadable"
        hashed.update(f"{rule_id}\0{len(data)}\0".encode())
        hashed.update(data)
    return hashed.hexdigest()


def shipped(root: str) -> dict[str, Any]:
    """The built-in layer at `root` as `builtin.json` holds it: the digest of its
    files, its match index, its rules' bodies and its problems (paths relative to
    `root`)."""
    loaded, problems = loader.load_catalogue([(loader.BUILTIN, root)], load_layer=loader.load_layer)
    bodies = _bodies(loaded)

    def relative(path: str) -> str:
        return os.path.relpath(path, root).replace(os.sep, "/")

    return {
        "format": _FORMAT,
        "digest": digest(root),
        "rules": _rows([entry_of(r.rule) for r in loaded], bodies),
        "bodies": {rule_id: compact(body) | {"path": relative(body["path"])} for rule_id, body in bodies.items()},
        "problems": [p.to_dict() | {"path": relative(p.path)} for p in problems],
    }


def _load_layer(layer: str, root: str) -> tuple[list[loader.LoadedRule], list[loader.Problem]]:
    """A layer's rules: the built-in one as shipped when its digest is the files',
    any other (or a changed built-in layer) from its files."""
    if layer == loader.BUILTIN:
        shipped = _read_shipped(root)
        if shipped is not None:
            _, bodies, problems = shipped
            return [loader.LoadedRule(from_canonical(Rule, body), ()) for body in bodies.values()], problems
    return loader.load_layer(layer, root)


def _read_shipped(
    root: str,
) -> tuple[list[dict[str, Any]], dict[str, Any], list[loader.Problem]] | None:
    """`builtin.json`'s match index, bodies (with their paths under `root`) and
    problems, if it was built from the rule files now at `root`."""
    try:
        with open(SHIPPED, "rb") as handle:
            data = fastjson.loads(handle.read())
        if data.get("format") != _FORMAT or data.get("digest") != digest(root):
            return None
        bodies = {key: body | {"path": os.path.join(root, body["path"])} for key, body in data["bodies"].items()}
        problems = [loader.Problem(**(p | {"path": os.path.join(root, p["path"])})) for p in data["problems"]]
        rows = data["rules"]
        if not isinstance(rows, list):
            return None
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None
    return rows, bodies, problems


def write_shipped() -> str:
    """Regenerate `builtin.json` from the checkout's `reducers/`; its path."""
    import json

    data = shipped(loader.builtin_root())
    with open(SHIPPED, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    return SHIPPED


if __name__ == "__main__":
    print(f"wrote {write_shipped()}")
