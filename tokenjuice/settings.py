"""Settings: one resolver for every value tokenjuice can be told.

Layers, lowest first: the defaults declared here < the user's `config.toml` <
the project's `.tokenjuice/config.toml` < the environment (`TOKENJUICE_*`, each
setting names its variable) < command-line flags. `resolve` returns the values
and, for each, where it came from (`tokenjuice config list --show-origin`).

The Cursor hook and `wrap` resolve settings on every command, and tomllib costs
~18 ms to import, so the file layers are cached as JSON keyed by the files'
paths, mtimes and sizes; with no config file at all nothing is read. A broken
config file or variable never breaks a command: its problems become warnings and
the layers below stand in for the broken values.
"""

from __future__ import annotations

import os

from . import paths
from .fast.record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

BOOL, INT, TEXT, WORDS = "bool", "int", "text", "words"
ARTIFACT_MODES = ("cut", "always", "never")
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


#: What a (trusted) project's config may do with a setting: anything, only lower a
#: limit, only add to a list (its entries join yours), only set one value (switch a
#: protection on, or a feature off), or nothing.
ANY, LOWER, ADD, NEVER = "any", "lower", "add", "never"
#: A config file larger than this is ignored (a hard cap, docs/security.md).
MAX_CONFIG_BYTES = 256 * 1024


@record
class Setting:
    """One setting: its type, default, meaning, the variable that overrides it, what
    a project may do with it, and the hard cap no layer can pass."""

    key: str
    kind: str | tuple[str, ...]  # BOOL, INT, TEXT, WORDS, or the choices
    default: Any
    doc: str
    env: str | None = None
    project: Any = ANY  # ANY, LOWER, ADD, NEVER, or the only value a project may set
    cap: int | None = None  # INT settings: the most any layer may set (0 means the default)
    zero_is_unlimited: bool = False  # INT settings where 0 means "no limit"
    minimum: int | None = None  # INT settings: the least any layer may set, but 0 (the default)
    project_floor: int | None = None  # LOWER settings: the least a project may lower them to


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "hook.enabled",
        BOOL,
        True,
        "host hooks rewrite shell commands through tokenjuice wrap",
        "TOKENJUICE_HOOK",
        project=False,
    ),
    Setting(
        "hook.skip",
        WORDS,
        [],
        "extra commands every host hook leaves alone (glob patterns, * matches anything, or [[tool]] tables)",
        "TOKENJUICE_HOOK_SKIP",
        project=ADD,  # a project may leave more alone, never wrap what the user's list leaves alone
    ),
    Setting(
        "hook.skip_defaults",
        BOOL,
        True,
        "also leave alone what tokenjuice knows never ends or needs a terminal (docs/never-wrapped.md)",
        project=True,
    ),
    Setting(
        "hook.rewrite_unruled",
        BOOL,
        True,
        "rewrite commands the host's own permission rules say nothing about "
        "(false: only commands they allow; docs/cursor.md)",
        "TOKENJUICE_HOOK_REWRITE_UNRULED",
        project=False,
    ),
    Setting(
        "hook.shell",
        TEXT,
        "",
        "the shell rewritten commands run in when the host names none "
        "(default: $SHELL, then your login shell from the password database, then the detected shell, then sh)",
        "TOKENJUICE_HOOK_SHELL",
        project=NEVER,
    ),
    Setting(
        "tools.enabled",
        BOOL,
        True,
        "host hooks also compact what tools other than the shell return (MCP tools, search tools; "
        "never file reads or images); false: shell output only",
        "TOKENJUICE_TOOLS",
        project=False,
    ),
    Setting(
        "tools.exclude",
        WORDS,
        [],
        "tools whose results every host hook leaves alone: globs (* any run of characters, ? one, any case) "
        "matched against the host's tool name and an MCP tool's mcp__SERVER__TOOL name "
        "(mcp__github__*, *search*, Grep)",
        "TOKENJUICE_TOOLS_EXCLUDE",
        project=ADD,
    ),
    Setting(
        "output.no_omit",
        BOOL,
        False,
        "never cut lines (ANSI is still stripped, counts shown)",
        "TOKENJUICE_NO_OMISSION",
    ),
    Setting(
        "output.max_chars",
        INT,
        6000,
        "characters of content (what is left once noise is removed) shown whole when the command "
        "succeeded; past it units are shortened, then summarised (0: the default)",
        "TOKENJUICE_MAX_CHARS",
        project=LOWER,
        cap=200_000,
        minimum=1000,
    ),
    Setting(
        "output.failure_max_chars",
        INT,
        10000,
        "the same when the command failed: failures keep more (0: the default)",
        "TOKENJUICE_FAILURE_MAX_CHARS",
        project=LOWER,
        cap=200_000,
        minimum=1000,
    ),
    Setting(
        "output.family_max_chars",
        WORDS,
        [],
        "per rule family, FAMILY=SUCCESS or FAMILY=SUCCESS/FAILURE (search=8000, test-results=6000/16000); "
        "docs/reducers.md names each rule's family",
        project=NEVER,
    ),
    Setting(
        "capture.max_bytes",
        INT,
        4 * 1024 * 1024,
        "bytes of output wrap keeps in memory (0: the default)",
        "TOKENJUICE_MAX_CAPTURE_BYTES",
        project=LOWER,
        cap=256 * 1024 * 1024,
        project_floor=1024 * 1024,
    ),
    Setting(
        "stats.enabled", BOOL, True, "record each wrap in the local savings ledger", "TOKENJUICE_STATS", project=False
    ),
    Setting(
        "artifacts.mode",
        ARTIFACT_MODES,
        "cut",
        "keep the full output (tokenjuice cat ID) when the shown output was cut (cut), always, or never",
    ),
    Setting(
        "artifacts.retention_days",
        INT,
        14,
        "delete stored outputs older than this many days (0: never)",
        project=LOWER,
        zero_is_unlimited=True,
        project_floor=1,
    ),
    Setting(
        "artifacts.max_total_mb",
        INT,
        200,
        "keep stored outputs under this many MiB (0: no limit)",
        project=LOWER,
        zero_is_unlimited=True,
        project_floor=20,
    ),
    Setting(
        "artifacts.dir",
        TEXT,
        "",
        "where full outputs are stored (default: artifacts/ in the data folder)",
        "TOKENJUICE_ARTIFACT_DIR",
        project=NEVER,
    ),
    Setting("redaction.enabled", BOOL, True, "redact secrets in everything shown and stored", project=True),
    Setting(
        "debug.enabled",
        BOOL,
        False,
        "log internal errors of the hook and storage to stderr and debug.log",
        "TOKENJUICE_DEBUG",
        project=False,
    ),
)
BY_KEY = {setting.key: setting for setting in SETTINGS}
#: Names settings had before hooks served more than Cursor: still read, in files and
#: in the environment, as the new ones.
RENAMED = {
    "cursor.enabled": "hook.enabled",
    "cursor.skip": "hook.skip",
    "cursor.skip_defaults": "hook.skip_defaults",
    "cursor.shell": "hook.shell",
}
RENAMED_ENV = {
    "TOKENJUICE_HOOK": "TOKENJUICE_CURSOR",
    "TOKENJUICE_HOOK_SKIP": "TOKENJUICE_CURSOR_SKIP",
    "TOKENJUICE_HOOK_SHELL": "TOKENJUICE_CURSOR_SHELL",
}
DEFAULT = "default"


@record
class Settings:
    """Resolved values, where each came from, and the problems met on the way."""

    values: dict[str, Any]
    origins: dict[str, str]  # key -> "default", "user:<file>", "project:<file>", "env:<VAR>", "flag:<--flag>"
    warnings: tuple[str, ...] = ()

    def __getitem__(self, key: str) -> Any:
        return self.values[key]


def defaults() -> Settings:
    """Every setting at its default."""
    return Settings({s.key: s.default for s in SETTINGS}, {s.key: DEFAULT for s in SETTINGS})


def user_config_path() -> str:
    override = os.environ.get("TOKENJUICE_CONFIG", "").strip()
    if override:
        return os.path.abspath(os.path.expanduser(override))
    return os.path.join(paths.config_dir(), "config.toml")


def project_config_path(cwd: str | None) -> str | None:
    """The project layer's config.toml; never through a symlink (the layer or the
    file), which could lead anywhere, also after the layer was trusted."""
    root = paths.project_root_with(".tokenjuice", cwd or os.getcwd())
    if root is None:
        return None
    layer = os.path.join(root, ".tokenjuice")
    path = os.path.join(layer, "config.toml")
    if os.path.islink(layer) or os.path.islink(path):
        return None
    return path if os.path.isfile(path) else None


def others_may_write(path: str) -> bool:
    """Could another user (root aside) have written the file at `path`: it or a
    folder above it belongs to someone else, or others can write it (`paths.safe_place`)?"""
    return not paths.safe_place(path)


def resolve(
    cwd: str | None = None,
    *,
    flags: Mapping[str, tuple[str, Any]] | None = None,
    env: Mapping[str, str] | None = None,
    project_layer: bool = True,
) -> Settings:
    """The settings in force for `cwd`. `flags` maps keys to (flag name, value). A
    project's config counts only once the user trusts it (trust.py), and even then
    may only tighten: each setting says what a project may do with it."""
    env = os.environ if env is None else env
    values = {setting.key: setting.default for setting in SETTINGS}
    origins = dict.fromkeys(values, DEFAULT)
    warnings: list[str] = []
    user = user_config_path()
    if os.path.exists(user) and not os.path.isfile(user):
        warnings.append(f"{user}: ignored, it is not a file; remove it (tokenjuice config set writes a new one)")
    elif os.path.isfile(user) and others_may_write(user):
        warnings.append(f"{user}: ignored, other users may write it or a folder above it (chmod go-w them)")
    elif os.path.isfile(user):
        found, problems = _file_layer(user)
        warnings += problems
        for key, value in found.items():
            values[key], origins[key] = value, f"user:{user}"
    project = project_config_path(cwd) if project_layer else None
    if project and os.path.isfile(project) and _trusted(cwd, env):
        found, problems = _file_layer(project)
        warnings += problems
        for key, value in found.items():
            refusal = project_refusal(BY_KEY[key], value, values[key])
            if refusal:
                warnings.append(f"{project}: {key} {refusal}; ignored")
            else:
                values[key], origins[key] = project_value(BY_KEY[key], value, values[key]), f"project:{project}"
    for setting in SETTINGS:
        name = setting.env
        raw = env.get(name, "") if name else ""
        if name and not raw.strip() and name in RENAMED_ENV:
            name = RENAMED_ENV[name]
            raw = env.get(name, "")
        if not raw.strip():
            continue
        value, problem = parse(setting, raw)
        if problem:
            warnings.append(f"{name}={raw!r}: {problem}; ignored")
        else:
            values[setting.key], origins[setting.key] = value, f"env:{name}"
    for key, (flag, value) in (flags or {}).items():
        if value is not None:
            problem = check(BY_KEY[key], value)
            if problem:
                warnings.append(f"{flag} {value}: {problem}; ignored")
            else:
                values[key], origins[key] = value, f"flag:{flag}"
    return Settings(values, origins, tuple(warnings))


def project_value(setting: Setting, value: Any, current: Any) -> Any:
    """What a project's (accepted) `value` makes of the setting: an ADD list's entries
    join the user's (`current`), any other value replaces it."""
    if setting.project == ADD:
        return [*current, *(entry for entry in value if entry not in current)]
    return value


def project_shaping(settings: Settings) -> str | None:
    """The words the trailer adds when a (trusted) project's settings shaped what
    is shown: which file and which keys; None when no project setting did."""
    keys = [
        key
        for key, origin in settings.origins.items()
        if origin.startswith("project:") and key.startswith(("output.", "capture."))
    ]
    if not keys:
        return None
    where = settings.origins[keys[0]].removeprefix("project:")
    return f"shaped by the project's settings {', '.join(sorted(keys))} ({where})"


def _trusted(cwd: str | None, env: Mapping[str, str]) -> bool:
    from . import trust

    layer = trust.layer_for(cwd, env)
    if layer is None:
        return False
    trust.notice_untrusted(layer)
    return layer.trusted


def project_refusal(setting: Setting, value: Any, current: Any) -> str | None:
    """Why a project may not set `setting` to `value` (`current` is what the user's
    layers give), or None: projects may only make tokenjuice safer, never weaker."""
    policy = setting.project
    if policy in (ANY, ADD):
        return None
    if policy == NEVER:
        return "cannot be set by a project (it decides what runs or where data goes)"
    if policy == LOWER:
        if setting.zero_is_unlimited:
            higher = (value == 0 and current != 0) or (current != 0 and value > current)
        else:
            higher = value > (current or setting.default)
        if higher:
            return f"= {value} would raise your limit ({current}); a project may only lower it"
        floor = setting.project_floor
        if floor is not None and value != 0 and value < floor and value < (current or setting.default):
            return f"= {value} is below what a project may lower it to ({floor})"
        return None
    if value != policy:
        return f"= {str(value).lower()} would weaken what you set; a project may only set it to {str(policy).lower()}"
    return None


def _file_layer(path: str) -> tuple[dict[str, Any], list[str]]:
    """The valid settings of one file, from the cache when the file is unchanged."""
    from .files import cachefile

    try:
        stat = os.stat(path)
        signature = [path, stat.st_mtime_ns, stat.st_size]
    except OSError:
        signature = [path, 0, 0]
    cache = cachefile.stem("settings", path) + ".json"
    cached = cachefile.read_current(cache, signature)
    if cached is not None and isinstance(cached.get("values"), dict) and isinstance(cached.get("warnings"), list):
        known = {key: value for key, value in cached["values"].items() if key in BY_KEY}
        return known, cached["warnings"]
    values, warnings = parse_file(path)
    cachefile.write_current(cache, signature, {"values": values, "warnings": warnings})
    return values, warnings


def parse_file(path: str) -> tuple[dict[str, Any], list[str]]:
    """The valid settings in one file (flattened keys) and a warning per problem."""
    import errno
    import tomllib

    try:
        # A regular file only (a FIFO would hang every command), read up to the cap.
        raw = paths.read_regular(path, MAX_CONFIG_BYTES)
    except OSError as error:
        if error.errno == errno.EFBIG:
            return {}, [f"{path}: ignored, it is larger than {MAX_CONFIG_BYTES // 1024} KiB; defaults are used"]
        return {}, [f"{path}: ignored, it cannot be read ({error.strerror}); defaults are used"]
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError) as error:
        return {}, [f"{path}: ignored, it is not readable TOML ({error}); defaults are used"]
    values: dict[str, Any] = {}
    warnings: list[str] = []
    for written, value in flatten(data).items():
        key = RENAMED.get(written, written)
        if key not in BY_KEY:
            warnings.append(f"{path}: unknown setting {key} (see tokenjuice config list)")
            continue
        problem = check(BY_KEY[key], value)
        if problem:
            warnings.append(f"{path}: {key} {problem}; the default is used")
            continue
        values[key] = value
    return values, warnings


def flatten(data: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def check(setting: Setting, value: Any) -> str | None:
    """Why `value` is not acceptable for `setting`, or None."""
    kind = setting.kind
    if kind == INT and setting.cap is not None and isinstance(value, int) and value > setting.cap:
        return f"must be at most {setting.cap} (a hard limit)"
    if kind == INT and setting.minimum is not None and isinstance(value, int) and 0 < value < setting.minimum:
        return f"must be at least {setting.minimum}, or 0 for the default"
    if isinstance(kind, tuple):
        return None if value in kind else f"must be one of {', '.join(kind)}"
    if kind == BOOL:
        return None if isinstance(value, bool) else "must be true or false"
    if kind == INT:
        return (
            None
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0
            else "must be a non-negative integer"
        )
    if kind == WORDS and setting.key == "hook.skip" and isinstance(value, list):
        # a pattern may be a [[tool]] table in the never-wrap catalogue's format (docs/never-wrapped.md)
        if not all(isinstance(v, (str, dict)) for v in value):
            return "must be a list of glob patterns and [[tool]] tables"
        from .shell.neverwrap.schema import user_entry_problem  # loaded only when a table is there

        return next((p for v in value if isinstance(v, dict) and (p := user_entry_problem(v))), None)
    if kind == WORDS:
        return (
            None if isinstance(value, list) and all(isinstance(v, str) for v in value) else "must be a list of strings"
        )
    return None if isinstance(value, str) else "must be a string"


def parse(setting: Setting, text: str) -> tuple[Any, str | None]:
    """A value typed at a prompt or in a variable: (value, problem)."""
    kind = setting.kind
    stripped = text.strip()
    value: Any = stripped
    if kind == BOOL:
        lowered = stripped.lower()
        if lowered not in _TRUE + _FALSE:
            return None, "takes true or false"
        value = lowered in _TRUE
    elif kind == INT:
        try:
            value = int(stripped)
        except ValueError:
            return None, "takes a whole number"
    elif kind == WORDS:
        if stripped.startswith("["):
            import json

            try:
                value = json.loads(stripped)
            except ValueError:
                return None, "takes a JSON list or comma-separated values"
        else:
            value = [part.strip() for part in stripped.split(",") if part.strip()]
    return value, check(setting, value)
