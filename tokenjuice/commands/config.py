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
    lines.append(f"user config: {user_config_path()}")
    data = {
        "settings": rows,
        "warnings": list(settings.warnings),
        "userConfig": user_config_path(),
        "projectConfig": project_config_path(os.getcwd()),
    }
    return Output(text="\n".join(lines) + "\n", data=data)


def warnings() -> str:
    """What is wrong with the settings, for stderr: every config command repeats it
    first (as git and uv do), whatever it was asked, even when it then fails."""
    return "".join(f"warning: {w}\n" for w in resolve(os.getcwd()).warnings)


def get(key: str) -> Output:
    """The bare value: text as is, true/false, a number, a list as comma-separated words."""
    setting = _setting(key)
    settings = resolve(os.getcwd())
    value = settings[key]
    if setting.kind == WORDS:
        text = ", ".join(value)
    elif isinstance(value, bool):
        text = "true" if value else "false"
    else:
        text = str(value)
    extra = []  # the settings' own warnings came first (`warnings`)
    user = user_config_path()
    if not settings.origins[key].startswith("user:") and _ignored(user, settings.warnings) and _sets(user, key):
        shown = "the default" if settings.origins[key] == "default" else f"from {settings.origins[key]}"
        extra.append(f"{user} sets {key}, but the file is ignored (see above): the value shown is {shown}")
    return Output(text=text + "\n", data=value, warnings="".join(f"warning: {w}\n" for w in extra))


def _ignored(path: str, found: tuple[str, ...]) -> bool:
    return any(w.startswith(f"{path}: ignored") for w in found)


def _sets(path: str, key: str) -> bool:
    """Does the text of a file too broken to read as TOML set `key` (`[table]` then
    `name =`, or a dotted `table.name =`)? A best guess, for a warning only."""
    import re

    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(1 << 20)
    except OSError:
        return False
    table = ""
    for line in text.splitlines():
        header = re.match(r"\s*\[\s*([A-Za-z0-9_.\- ]+?)\s*\]", line)
        if header:
            table = header.group(1).replace(" ", "")
            continue
        name = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*=", line)
        if name and ".".join(filter(None, (table, name.group(1)))) == key:
            return True
    return False


def set_value(key: str, text: str, *, project: bool) -> Output:
    setting = _setting(key)
    value, problem = parse(setting, text)
    if problem:
        raise UsageError(f"{key} {problem}, not {text!r}")
    path = _path(project)
    _edit(path, key.split("."), value)
    return Output(
        text=f"{key} = {json.dumps(value)} in {path}\n",
        data={"key": key, "value": value, "path": path},
    )


def unset(key: str, *, project: bool) -> Output:
    _setting(key)
    path = _path(project)
    removed = _edit(path, key.split("."), None)
    if not removed:
        return Output(
            text=f"{key} is not set in {path}\n",
            data={"key": key, "removed": False, "path": path},
        )
    return Output(
        text=f"removed {key} from {path}; the default applies\n",
        data={"key": key, "removed": True, "path": path},
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
