"""`tokenjuice config list|get|set|unset`.

`set` and `unset` edit the TOML file with tomlkit, so the user's comments, order
and layout survive; the file is locked, backed up and replaced atomically
(`editfile.LockedFile`), and a file that is not valid TOML is refused.
"""

from __future__ import annotations

import json
import os

from ..errors import UsageError
from ..files.editfile import EditError, LockedFile
from ..paths import git_root
from ..settings import BY_KEY, RENAMED, SETTINGS, WORDS, Setting, parse, project_config_path, resolve, user_config_path
from .output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _setting(key: str) -> Setting:
    if key in RENAMED:
        raise UsageError(f"{key} is now called {RENAMED[key]}; use that name")
    if key not in BY_KEY:
        raise UsageError(f"unknown setting {key}; tokenjuice config list shows them all")
    return BY_KEY[key]


def listing(*, show_origin: bool) -> Output:
    settings = resolve(os.getcwd())
    rows = [
        {"key": s.key, "value": settings[s.key], "origin": settings.origins[s.key], "description": s.doc, "env": s.env}
        for s in SETTINGS
    ]
    width = max(len(r["key"]) for r in rows)
    origin_width = max(len(r["origin"]) for r in rows)
    lines = []
    for row in rows:
        line = f"{row['key']:<{width}}  {json.dumps(row['value'])}"
        if show_origin:
            line = f"{row['origin']:<{origin_width}}  {line}"
        elif row["origin"] != "default":
            line += f"  ({row['origin']})"
        lines.append(line)
    lines += [f"warning: {w}" for w in settings.warnings]
    lines.append(f"user config: {user_config_path()}")
    data = {
        "settings": rows,
        "warnings": list(settings.warnings),
        "userConfig": user_config_path(),
        "projectConfig": project_config_path(os.getcwd()),
    }
    return Output(text="\n".join(lines) + "\n", data=data)


def get(key: str) -> Output:
    """The bare value: text as is, true/false, a number, a list as comma-separated words."""
    setting = _setting(key)
    value = resolve(os.getcwd())[key]
    if setting.kind == WORDS:
        text = ", ".join(value)
    elif isinstance(value, bool):
        text = "true" if value else "false"
    else:
        text = str(value)
    return Output(text=text + "\n", data=value)


def set_value(key: str, text: str, *, project: bool) -> Output:
    setting = _setting(key)
    value, problem = parse(setting, text)
    if problem:
        raise UsageError(f"{key} {problem}, not {text!r}")
    path = _path(project)
    _edit(path, key.split("."), value)
    return Output(text=f"{key} = {json.dumps(value)} in {path}\n", data={"key": key, "value": value, "path": path})


def unset(key: str, *, project: bool) -> Output:
    _setting(key)
    path = _path(project)
    removed = _edit(path, key.split("."), None)
    if not removed:
        return Output(text=f"{key} is not set in {path}\n", data={"key": key, "removed": False, "path": path})
    return Output(
        text=f"removed {key} from {path}; the default applies\n", data={"key": key, "removed": True, "path": path}
    )


def _path(project: bool) -> str:
    if not project:
        return user_config_path()
    existing = project_config_path(os.getcwd())
    if existing:
        return existing
    root = git_root(os.getcwd()) or os.getcwd()
    return os.path.join(root, ".tokenjuice", "config.toml")


def _edit(path: str, parts: list[str], value: Any) -> bool:
    """Set (or, with None, remove) a key; True when the file changed."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    with LockedFile(path, create=value is not None) as file:
        if file.text is None and value is None:
            return False
        try:
            document = tomlkit.parse(file.text or "")
        except TOMLKitError as error:
            raise EditError(f"{path} is not readable TOML ({error}); fix or remove it, then try again") from None
        table: Any = document
        for part in parts[:-1]:
            if part not in table:
                if value is None:
                    return False
                table[part] = tomlkit.table()
            table = table[part]
            if not isinstance(table, dict):
                raise EditError(f"{path}: {'.'.join(parts[:-1])} is not a table; fix the file and try again")
        if value is None:
            if parts[-1] not in table:
                return False
            del table[parts[-1]]
            if not table and len(parts) > 1:
                del document[parts[0]]
        else:
            table[parts[-1]] = value
        return file.save(tomlkit.dumps(document)).changed
