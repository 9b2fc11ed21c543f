"""Find and load rule files in every layer: built-in < user < project.

This is the slow path (TOML parsing, pattern validation with `regex`). `wrap`
normally reads the compiled index instead (see `index.py`), which is rebuilt
from here only when a rule file changes.
"""

from __future__ import annotations

import os

from .. import paths
from ..fast.record import record, replace
from . import RULE_SUFFIXES
from .model import Example, Rule

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

BUILTIN, USER, PROJECT = "builtin", "user", "project"
FALLBACK_ID = "generic/fallback"
#: Hard caps, whatever a layer holds (docs/security.md): one hostile file must
#: neither exhaust memory nor stall every wrap.
MAX_RULE_FILE_BYTES = 1024 * 1024
MAX_RULES_PER_LAYER = 1000
_IGNORED_SUFFIXES = (".schema.json", ".fixture.json")


@record
class LoadedRule:
    """A validated rule (which knows its layer and path) and its examples."""

    rule: Rule
    examples: tuple[Example, ...]

    @property
    def layer(self) -> str:
        return self.rule.layer

    @property
    def path(self) -> str:
        return self.rule.path


@record
class Problem:
    """A rule file that could not be used (or a notice about one that could)."""

    layer: str
    path: str
    message: str
    severity: str = "error"
    line: int | None = None  # where in the file, when it can be told

    @property
    def where(self) -> str:
        """`path:line` (as compilers and editors write it), or the path alone."""
        return f"{self.path}:{self.line}" if self.line else self.path

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"

    def to_dict(self) -> dict[str, object]:
        return {
            "layer": self.layer,
            "path": self.path,
            "line": self.line,
            "message": self.message,
            "severity": self.severity,
        }


def builtin_root() -> str:
    """`tokenjuice/reducers` inside an installed wheel, `<checkout>/reducers` otherwise."""
    installed = installed_builtin_root()
    if os.path.isdir(installed):
        return installed
    return os.path.join(os.path.dirname(os.path.dirname(installed)), "reducers")


def installed_builtin_root() -> str:
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "reducers")


def project_rule_dir(cwd: str | None, *, untrusted: bool = False) -> str | None:
    """The rules folder of the project layer for `cwd`: only once the user trusts it
    (trust.py), unless `untrusted` (verify looks at a layer before it is trusted)."""
    project = paths.find_project_layer(cwd)
    if project is None:
        return None
    from .. import trust

    layer = trust.layer_for(cwd, project=project)
    if layer is None:
        return None
    if not (layer.trusted or untrusted):
        trust.notice_untrusted(layer)
        return None
    rules = os.path.join(layer.directory, "rules")
    if os.path.islink(layer.directory) or os.path.islink(rules):
        return None  # a link could lead anywhere, also after the layer was trusted
    return rules if os.path.isdir(rules) else None


def layer_roots(
    cwd: str | None = None, *, builtin_only: bool = False, untrusted: bool = False
) -> list[tuple[str, str]]:
    """(layer, directory) pairs in precedence order, lowest first."""
    roots = [(BUILTIN, builtin_root())]
    if builtin_only:
        return roots
    # Only where no other user could have put rules (XDG_CONFIG_HOME in a shared /tmp).
    roots += [(USER, d) for d in paths.user_rule_dirs() if paths.safe_place(d)]
    project = project_rule_dir(cwd, untrusted=untrusted)
    if project:
        roots.append((PROJECT, project))
    return roots


def rule_files(root: str) -> list[tuple[str, str, int, int]]:
    """(rule id, path, mtime_ns, size) for each rule file under `root`, sorted.

    Symlinks are skipped so a layer cannot reach outside its directory.
    """
    found: list[tuple[str, str, int, int]] = []

    def walk(directory: str, prefix: str) -> None:
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.is_symlink() or entry.name.startswith("."):
                continue
            if not entry.is_dir(follow_symlinks=False) and not entry.is_file(follow_symlinks=False):
                continue  # a FIFO, socket or device is no rule file
            if entry.is_dir():
                walk(entry.path, prefix + entry.name + "/")
            elif entry.name.endswith(RULE_SUFFIXES) and not entry.name.endswith(_IGNORED_SUFFIXES):
                stat = entry.stat()
                rule_id = prefix + entry.name.rsplit(".", 1)[0]
                found.append((rule_id, entry.path, stat.st_mtime_ns, stat.st_size))

    walk(root, "")
    return found


def _regular_no_follow(path: str, flags: int) -> int:
    return paths.regular_only(path, flags | getattr(os, "O_NOFOLLOW", 0))


def load_file(layer: str, rule_id: str, path: str) -> LoadedRule:
    """Parse and validate one rule file; raises RuleError (`field: problem`, with the
    line of the field when it can be found)."""
    from .patterns import USER_PATTERN_BUDGET_SECONDS, Budget, PatternTimeout, compile_checked
    from .schema import RuleError, parse_rule

    try:
        # never a link, never a FIFO or device (they would hang every wrap), checked on the descriptor
        with open(path, "rb", opener=_regular_no_follow) as handle:
            raw = handle.read(MAX_RULE_FILE_BYTES + 1)
    except OSError as error:
        raise RuleError(f"file: cannot read ({error.strerror})") from None
    if len(raw) > MAX_RULE_FILE_BYTES:
        raise RuleError(f"file: larger than {MAX_RULE_FILE_BYTES // 1024} KiB, the most a rule file may be")
    json_style = path.endswith(".json")
    try:
        if json_style:
            import json

            data = json.loads(raw)
        else:
            import tomllib

            data = tomllib.loads(raw.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        kind = "JSON" if json_style else "TOML"
        raise RuleError(f"file: not valid {kind} ({error})") from None
    except RecursionError:
        raise RuleError("file: nested too deeply to be a rule") from None
    # A user's or project's patterns compile within the time budget of a reduction:
    # a file of 20,000 of them is refused rather than stalling every index rebuild.
    budget = None if layer == BUILTIN else Budget()

    def compile_pattern(pattern: str, flags: str) -> object:
        if budget is not None:
            try:
                budget.remaining()
            except PatternTimeout:
                raise RuleError(
                    f"file: its patterns take more than {USER_PATTERN_BUDGET_SECONDS:g} s to compile; use fewer"
                ) from None
        return compile_checked(pattern, flags, json_style)

    try:
        rule, examples = parse_rule(data, rule_id, json_style=json_style, compile_pattern=compile_pattern)
    except RuleError as error:
        if not json_style:
            error.line = field_line(raw.decode("utf-8"), str(error).split(":", 1)[0])
        raise
    return LoadedRule(replace(rule, layer=layer, path=path), examples)


def field_line(text: str, field: str) -> int | None:
    """The line of a TOML rule file where `field` (`match.argv0`,
    `filters.skip_patterns[2]`, `counters[1].pattern`) is set, as far as the text
    tells: its key under its table, else its table's header; a field inside an
    inline table is found through its nearest enclosing key."""
    parts = field.split(".")
    while parts:
        found = _line_of([_step(part) for part in parts], text)
        if found:
            return found
        parts = parts[:-1]
    return None


def _step(part: str) -> tuple[str, int | None]:
    name, _, index = part.partition("[")
    return name, int(index.rstrip("]")) if index.rstrip("]").isdigit() else None


def _line_of(path: list[tuple[str, int | None]], text: str) -> int | None:
    def same(current: list[tuple[str, int | None]], wanted: list[tuple[str, int | None]]) -> bool:
        return len(current) == len(wanted) and all(
            a[0] == b[0] and (b[1] is None or a[1] == b[1]) for a, b in zip(current, wanted, strict=True)
        )

    owner, key = path[:-1], path[-1][0]
    current: list[tuple[str, int | None]] = []
    arrays: dict[str, int] = {}
    header = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            array = stripped.startswith("[[")
            name = stripped.strip("[").split("]", 1)[0].strip()
            current = [(part, None) for part in name.split(".")]
            if array:
                arrays[name] = arrays.get(name, -1) + 1
                current[-1] = (current[-1][0], arrays[name])
            if same(current, path):
                return number
            if same(current, owner):
                header = number
        elif "=" in stripped and same(current, owner) and stripped.split("=", 1)[0].strip().strip("\"'") == key:
            return number
    return header


def load_layer(layer: str, root: str) -> tuple[list[LoadedRule], list[Problem]]:
    """Every valid rule of one layer, and a problem for each file that is not."""
    from .schema import RuleError  # validation loads only when rule files are read

    loaded: list[LoadedRule] = []
    problems: list[Problem] = []
    files = rule_files(root)
    if len(files) > MAX_RULES_PER_LAYER:
        problems.append(
            Problem(layer, root, f"file: {len(files)} rule files; only the first {MAX_RULES_PER_LAYER} are loaded")
        )
        files = files[:MAX_RULES_PER_LAYER]
    for rule_id, path, _, _ in files:
        if "/" not in rule_id:
            problems.append(
                Problem(
                    layer,
                    path,
                    f"file: rules live in <category>/<name> files, e.g. {os.path.join(root, 'git', 'status.toml')}",
                )
            )
            continue
        try:
            loaded.append(load_file(layer, rule_id, path))
        except RuleError as error:
            problems.append(Problem(layer, path, str(error), line=error.line))
        except Exception as error:  # noqa: BLE001 - one hostile file must not stop the others loading
            problems.append(Problem(layer, path, f"file: cannot be loaded ({type(error).__name__}: {error})"[:300]))
    ids = [r.rule.id for r in loaded]
    duplicated = {i for i in ids if ids.count(i) > 1}
    for rule in loaded:
        if rule.rule.id in duplicated:
            problems.append(
                Problem(
                    layer,
                    rule.path,
                    f"id: duplicate rule id in the {layer} layer: {rule.rule.id} (both files are skipped)",
                )
            )
    return [r for r in loaded if r.rule.id not in duplicated], problems


def load_catalogue(
    roots: list[tuple[str, str]],
    load_layer: Callable[[str, str], tuple[list[LoadedRule], list[Problem]]] = load_layer,
) -> tuple[list[LoadedRule], list[Problem]]:
    """The effective rules (later layers override earlier ones by id) and all problems.

    Rules are ordered by id with `generic/fallback` last. `load_layer` reads one
    layer (the index passes one that takes the built-in layer as shipped).
    """
    effective: dict[str, LoadedRule] = {}
    problems: list[Problem] = []
    for layer, root in roots:
        loaded, layer_problems = load_layer(layer, root)
        problems += layer_problems
        for rule in loaded:
            shadowed = effective.get(rule.rule.id)
            if shadowed is not None and shadowed.layer != rule.layer:
                problems.append(
                    Problem(layer, rule.path, f"overrides {shadowed.layer} rule {rule.rule.id}", severity="notice")
                )
            effective[rule.rule.id] = rule
    ordered = sorted(effective.values(), key=lambda r: (r.rule.id == FALLBACK_ID, r.rule.id))
    return ordered, problems
