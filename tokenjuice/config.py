"""Configuration: user `config.toml` with the project's `.tokenjuice/config.toml` on top.

The Cursor hook and `wrap` read settings on every command, and tomllib costs
~18 ms to import, so parsed settings are cached as JSON keyed by the files'
paths, mtimes and sizes; with no config file at all nothing is read. A broken
config file never breaks a command: its problems are reported as warnings and
the defaults stand in for the broken values.
"""

from __future__ import annotations

import os

from . import paths

ARTIFACT_MODES = ("failures", "always", "never")

#: key -> (type, default, description). Types: bool, int, str, list (of str), or a tuple of choices.
SCHEMA: dict[str, tuple] = {
    "cursor.enabled": (bool, True, "rewrite Cursor shell commands through tokenjuice wrap"),
    "cursor.skip": (list, [], "extra commands the Cursor hook leaves alone (glob patterns)"),
    "cursor.skip_defaults": (bool, True, "also skip dev servers, watch modes, editors, pagers and REPLs"),
    "stats.enabled": (bool, True, "record each wrap in the local savings ledger"),
    "artifacts.mode": (ARTIFACT_MODES, "failures", "store raw output: failures, always or never"),
    "artifacts.retention_days": (int, 14, "delete stored raw output older than this many days (0: never)"),
    "artifacts.max_total_mb": (int, 200, "keep stored raw output under this many MiB (0: no limit)"),
    "capture.max_bytes": (int, 4 * 1024 * 1024, "bytes of output wrap keeps in memory"),
    "redaction.enabled": (bool, True, "redact secrets before storing raw output"),
}


def user_config_path() -> str:
    override = os.environ.get("TOKENJUICE_CONFIG", "").strip()
    return os.path.abspath(os.path.expanduser(override)) if override else os.path.join(paths.config_dir(),
                                                                                       "config.toml")


def project_config_path(cwd: str | None) -> str | None:
    root = paths.project_root_with(".tokenjuice", cwd or os.getcwd())
    if root is None:
        return None
    path = os.path.join(root, ".tokenjuice", "config.toml")
    return path if os.path.isfile(path) else None


class Settings:
    """Effective settings plus the problems found while reading them."""

    __slots__ = ("values", "warnings", "sources")

    def __init__(self, values: dict, warnings: list[str], sources: dict[str, str]) -> None:
        self.values = values
        self.warnings = warnings
        self.sources = sources  # key -> "default" or the file that set it

    def __getitem__(self, key: str):
        return self.values[key]


def load(cwd: str | None = None) -> Settings:
    files = [p for p in (user_config_path(), project_config_path(cwd)) if p and os.path.isfile(p)]
    defaults = {key: spec[1] for key, spec in SCHEMA.items()}
    if not files:
        return Settings(defaults, [], dict.fromkeys(defaults, "default"))
    from . import cachefile

    signature = []
    for path in files:
        try:
            stat = os.stat(path)
            signature.append([path, stat.st_mtime_ns, stat.st_size])
        except OSError:
            signature.append([path, 0, 0])
    cache = cachefile.stem("config", files) + ".json"
    cached = cachefile.read_current(cache, signature)
    if cached is not None:
        try:  # over the defaults, in case the schema grew without a version change
            return Settings(defaults | cached["values"], cached["warnings"],
                            dict.fromkeys(defaults, "default") | cached["sources"])
        except (KeyError, TypeError):
            pass
    values, warnings, sources = dict(defaults), [], dict.fromkeys(defaults, "default")
    for path in files:
        data, problems = parse_file(path)
        warnings += problems
        for key, value in data.items():
            values[key] = value
            sources[key] = path
    cachefile.write_current(cache, signature, {"values": values, "warnings": warnings, "sources": sources})
    return Settings(values, warnings, sources)


def parse_file(path: str) -> tuple[dict, list[str]]:
    """The valid settings in one file (flattened keys) and a warning per problem."""
    import tomllib

    try:
        with open(path, "rb") as handle:
            data = tomllib.load(handle)
    except (OSError, ValueError) as error:
        return {}, [f"{path}: ignored, it is not readable TOML ({error}); defaults are used"]
    values: dict = {}
    warnings: list[str] = []
    for key, value in flatten(data).items():
        if key not in SCHEMA:
            warnings.append(f"{path}: unknown setting {key} (see tokenjuice config list)")
            continue
        problem = check(key, value)
        if problem:
            warnings.append(f"{path}: {key} {problem}; the default is used")
            continue
        values[key] = value
    return values, warnings


def flatten(data: dict, prefix: str = "") -> dict:
    flat = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, name + "."))
        else:
            flat[name] = value
    return flat


def check(key: str, value) -> str | None:
    """Why `value` is not acceptable for `key`, or None."""
    kind = SCHEMA[key][0]
    if isinstance(kind, tuple):
        return None if value in kind else f"must be one of {', '.join(kind)}"
    if kind is bool:
        return None if isinstance(value, bool) else "must be true or false"
    if kind is int:
        return None if isinstance(value, int) and not isinstance(value, bool) and value >= 0 \
            else "must be a non-negative integer"
    if kind is list:
        return None if isinstance(value, list) and all(isinstance(v, str) for v in value) \
            else "must be a list of strings"
    return None if isinstance(value, str) else "must be a string"
