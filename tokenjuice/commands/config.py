"""`tokenjuice config list|get|set|unset`."""

from __future__ import annotations

import json
import os

from .. import config
from ..errors import UsageError
from ..paths import git_root
from ..output import json_text


def _key(key: str) -> None:
    if key not in config.SCHEMA:
        raise UsageError(f"unknown setting {key}; see tokenjuice config list")


def listing(*, output_format: str) -> str:
    settings = config.load(os.getcwd())
    rows = [{"key": key, "value": settings[key], "source": settings.sources[key], "description": spec[2]}
            for key, spec in config.SCHEMA.items()]
    if output_format == "json":
        return json_text({"settings": rows, "warnings": settings.warnings})
    width = max(len(r["key"]) for r in rows)
    lines = [f"{r['key']:<{width}}  {json.dumps(r['value'])}"
             + ("" if r["source"] == "default" else f"  ({r['source']})") for r in rows]
    lines += [f"warning: {w}" for w in settings.warnings]
    lines.append(f"user config: {config.user_config_path()}")
    return "\n".join(lines) + "\n"


def get(key: str) -> str:
    _key(key)
    return json.dumps(config.load(os.getcwd())[key]) + "\n"


def set_value(key: str, value: str, *, project: bool) -> str:
    _key(key)
    parsed = _parse(key, value)
    path = _path(project)
    data = _read(path)
    node = data
    parts = key.split(".")
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            raise UsageError(f"{path}: {'.'.join(parts[:-1])} is not a table; fix the file and try again")
    node[parts[-1]] = parsed
    _write(path, data)
    return f"{key} = {json.dumps(parsed)} in {path}\n"


def unset(key: str, *, project: bool) -> str:
    _key(key)
    path = _path(project)
    data = _read(path)
    parts = key.split(".")
    node = data
    for part in parts[:-1]:
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, dict) or parts[-1] not in node:
        return f"{key} is not set in {path}\n"
    del node[parts[-1]]
    if not node and len(parts) > 1:
        del data[parts[0]]
    _write(path, data)
    return f"removed {key} from {path}; the default applies\n"


def _parse(key: str, text: str):
    kind = config.SCHEMA[key][0]
    value: object = text
    if kind is bool:
        lowered = text.strip().lower()
        if lowered not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
            raise UsageError(f"{key} takes true or false, not {text!r}")
        value = lowered in ("true", "yes", "on", "1")
    elif kind is int:
        try:
            value = int(text)
        except ValueError:
            raise UsageError(f"{key} takes a whole number, not {text!r}") from None
    elif kind is list:
        stripped = text.strip()
        if stripped.startswith("["):
            try:
                value = json.loads(stripped)
            except ValueError:
                raise UsageError(f"{key} takes a JSON list or comma-separated values, not {text!r}") from None
        else:
            value = [part.strip() for part in stripped.split(",") if part.strip()]
    problem = config.check(key, value)
    if problem:
        raise UsageError(f"{key} {problem}")
    return value


def _path(project: bool) -> str:
    if not project:
        return config.user_config_path()
    existing = config.project_config_path(os.getcwd())
    if existing:
        return existing
    root = git_root(os.getcwd()) or os.getcwd()
    return os.path.join(root, ".tokenjuice", "config.toml")


def _read(path: str) -> dict:
    import tomllib

    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        raise UsageError(f"{path} is not readable TOML ({error}); fix or remove it, then try again") from None


def _write(path: str, data: dict) -> None:
    import tomli_w

    from ..atomic import write_atomically

    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomically(path, tomli_w.dumps(data).encode())
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror}") from None
