"""Our entry in a list inside a host's JSON settings file: add it, update it, remove
exactly it, find it. Shared by every host whose hooks live in such a list
(Cursor's `hooks.preToolUse`, Claude Code's and Codex's `hooks.PreToolUse`,
Gemini's `hooks.BeforeTool`); each adapter says where the list is, what our entry
looks like and how to recognise it.

Two shapes of list:
- flat (Cursor): each element is one hook; `install`/`uninstall` with `ours(hook)`.
- grouped (Claude Code, Codex, Gemini CLI): each element is a group
  `{"matcher": …, "hooks": [hook, …]}`; `install_in_group`/`uninstall_from_groups`
  with `ours(hook)`. A group whose every hook is ours is ours and is replaced or
  removed whole; a hook of ours inside someone else's group is taken out of it (the
  group and its other hooks stay), so we always end with one group of our own.
"""

from __future__ import annotations

import os

from ..editfile import EditError
from ..jsonfile import LockedJsonFile, parse_object
from .base import Result, forget_install, remember_install, restore_if_untouched

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .base import Host, Report

    #: Is this list element ours?
    Ours = Callable[[object], bool]


def entries(data: dict[str, Any], list_path: tuple[str, ...], path: str) -> list[Any]:
    """The list at `list_path` ([] when absent); EditError when something on the way
    is not what a host would accept."""
    node: Any = data
    for depth, key in enumerate(list_path):
        if not isinstance(node, dict):
            where = ".".join(list_path[:depth])
            raise EditError(f'{path}: "{where}" is not an object; fix or move the file and try again')
        node = node.get(key, [] if depth == len(list_path) - 1 else {})
    if not isinstance(node, list):
        raise EditError(f'{path}: "{".".join(list_path)}" is not a list; fix or move the file and try again')
    return node


def install(
    path: str,
    list_path: tuple[str, ...],
    entry: dict[str, Any],
    ours: Ours,
    *,
    skeleton: dict[str, Any] | None = None,
    required: dict[str, Any] | None = None,
    dry_run: bool = False,
    command: str | None = None,
    warnings: list[str] | None = None,
    notes: list[str] | None = None,
) -> Result:
    """Put `entry` (and no other of ours) at the end of the list; `skeleton` is the
    new file's content when there is none, `required` top-level members the host
    needs (added only when missing)."""
    about = {"command": command, "warnings": warnings, "notes": notes}
    return _install(path, list_path, entry, _flat(ours), skeleton, required, dry_run, about)


def install_in_group(
    path: str,
    list_path: tuple[str, ...],
    group: dict[str, Any],
    ours: Ours,
    *,
    skeleton: dict[str, Any] | None = None,
    required: dict[str, Any] | None = None,
    dry_run: bool = False,
    command: str | None = None,
    warnings: list[str] | None = None,
    notes: list[str] | None = None,
) -> Result:
    """`install` for a list of matcher groups: `group` (`{"matcher": …, "hooks":
    [our hook]}`) ends up the only group of ours, at the end; `ours` recognises our
    hook. A hook of ours found inside another group is moved out of it."""
    about = {"command": command, "warnings": warnings, "notes": notes}
    return _install(path, list_path, group, _grouped(ours), skeleton, required, dry_run, about)


def uninstall(path: str, list_path: tuple[str, ...], ours: Ours, *, dry_run: bool = False) -> Result:
    """Remove our entries and nothing else. When the file is still exactly what our
    last install wrote, put back the bytes from before it (or remove the file we
    created), so a round trip leaves no trace."""
    return _uninstall(path, list_path, _flat(ours), dry_run)


def uninstall_from_groups(path: str, list_path: tuple[str, ...], ours: Ours, *, dry_run: bool = False) -> Result:
    """`uninstall` for a list of matcher groups: our groups go, and a hook of ours
    inside another group leaves it (the group stays with its other hooks)."""
    return _uninstall(path, list_path, _grouped(ours), dry_run)


def our_group(ours: Ours) -> Ours:
    """Is this matcher group ours: a `hooks` list of one or more hooks, all ours?"""

    def is_ours(group: object) -> bool:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        return isinstance(hooks, list) and bool(hooks) and all(ours(hook) for hook in hooks)

    return is_ours


def stray_in_groups(ours: Ours) -> Ours:
    """Is this a group of someone else's that holds a hook of ours (doctor)?"""
    whole = our_group(ours)

    def is_stray(group: object) -> bool:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        return isinstance(hooks, list) and not whole(group) and any(ours(hook) for hook in hooks)

    return is_stray


def _flat(ours: Ours) -> Callable[[list[Any]], tuple[list[Any], list[Any]]]:
    return lambda current: ([e for e in current if not ours(e)], [e for e in current if ours(e)])


def _grouped(ours: Ours) -> Callable[[list[Any]], tuple[list[Any], list[Any]]]:
    whole = our_group(ours)

    def split(current: list[Any]) -> tuple[list[Any], list[Any]]:
        kept: list[Any] = []
        mine: list[Any] = []
        for group in current:
            hooks = group.get("hooks") if isinstance(group, dict) else None
            if whole(group):
                mine.append(group)
            elif isinstance(hooks, list) and any(ours(hook) for hook in hooks):
                assert isinstance(group, dict)
                kept.append({**group, "hooks": [hook for hook in hooks if not ours(hook)]})
                mine += [{"stray": hook} for hook in hooks if ours(hook)]
            else:
                kept.append(group)
        return kept, mine

    return split


def _install(
    path: str,
    list_path: tuple[str, ...],
    entry: dict[str, Any],
    split: Callable[[list[Any]], tuple[list[Any], list[Any]]],
    skeleton: dict[str, Any] | None,
    required: dict[str, Any] | None,
    dry_run: bool,
    about: dict[str, Any],
) -> Result:
    with LockedJsonFile(path, create=not dry_run) as file:
        data = file.load(dict(skeleton or {}))
        current = entries(data, list_path, path)
        kept, mine = split(current)
        if mine == [entry]:
            return Result(path, "unchanged", None, **about)
        edits: list[tuple[Any, ...]] = []
        _set(data, list_path, kept + [entry], edits)
        for key, value in (required or {}).items():
            if key not in data:
                data[key] = value
                edits.append(("set", (key,), value))
        before = file.text
        change = file.save_json(data, edits, dry_run=dry_run)
        if not dry_run and change.changed:
            remember_install(path, before, change.after)
    if dry_run:
        action = "would update" if mine else "would install"
    else:
        action = "updated" if mine else "installed"
    return Result(path, action, change, **about)


def _uninstall(
    path: str, list_path: tuple[str, ...], split: Callable[[list[Any]], tuple[list[Any], list[Any]]], dry_run: bool
) -> Result:
    with LockedJsonFile(path, create=False) as file:
        if file.text is None:
            forget_install(path)
            return Result(path, "absent")
        data = file.load({})
        current = entries(data, list_path, path)
        kept, mine = split(current)
        if not mine:
            return Result(path, "absent")
        untouched, before = restore_if_untouched(path, file.text)
        if untouched and not dry_run:
            if before is None:
                from ..editfile import Change

                change = Change(path, file.text, "", file.backup())
                os.unlink(file.target)
                forget_install(path)
                return Result(path, "removed the file install created", change)
            parse_object(before, path)  # never restore something we could not have read
            change = file.save(before)
            forget_install(path)
            return Result(path, "restored", change)
        edits: list[tuple[Any, ...]] = []
        if kept:
            _set(data, list_path, kept, edits)
        else:
            _delete(data, list_path, edits)
        change = file.save_json(data, edits, dry_run=dry_run)
        if not dry_run:
            forget_install(path)
    return Result(path, "would remove" if dry_run else "removed", change)


def read(path: str) -> dict[str, Any] | None:
    """The file's object without locking (doctor), None when it does not exist."""
    with LockedJsonFile(path, create=False) as file:
        return file.load({}) if file.text is not None else None


def _set(data: dict[str, Any], list_path: tuple[str, ...], value: list[Any], edits: list[tuple[Any, ...]]) -> None:
    """Set the list, creating the objects on the way (each creation is its own edit
    so the text edit stays minimal)."""
    node = data
    for depth, key in enumerate(list_path[:-1]):
        if key not in node:
            node[key] = {}
            edits.append(("set", list_path[: depth + 1], {}))
        node = node[key]
    node[list_path[-1]] = value
    edits.append(("set", list_path, value))


def _delete(data: dict[str, Any], list_path: tuple[str, ...], edits: list[tuple[Any, ...]]) -> None:
    node = data
    for key in list_path[:-1]:
        node = node[key]
    del node[list_path[-1]]
    edits.append(("delete", list_path))


def doctor(
    host: Host,
    path: str,
    list_path: tuple[str, ...],
    ours: Ours,
    expected: str | None,
    install_hint: str,
    *,
    deep: bool = False,
    command_of: Callable[[Any], str | None],
    shape_problems: Callable[[Any], list[str]] | None = None,
    others_conflict: Callable[[Any], bool] | None = None,
    stray: Ours | None = None,
) -> Report:
    """The health of our entry in a JSON hooks file. Each finding is a named check;
    following `fix` makes the report green (the advice never loops). For grouped
    lists, `ours` is `our_group(…)` and `stray` is `stray_in_groups(…)`: a hook of
    ours inside someone else's group is flagged (install moves it out)."""
    from .base import BROKEN, DISABLED, OK, WARN, Report, launcher_problems, launcher_warnings, path_launcher_differs

    report = Report(host.name, path, expected)
    try:
        data = read(path)
        current = entries(data, list_path, path) if data is not None else []
    except EditError as error:
        report.check("file", BROKEN, str(error))
        report.fix = f"fix or move {path}, then run {install_hint}"
        return report
    if data is None:
        report.check("file", DISABLED, f"{path} does not exist")
        report.status, report.fix = DISABLED, install_hint
        return report
    report.check("file", OK, f"{path} is valid JSON")
    mine = [entry for entry in current if ours(entry)]
    strays = [entry for entry in current if stray is not None and stray(entry)]
    if not mine and strays:
        mine = strays  # judge the hook we found; the stray check below says where it sits
    if not mine:
        report.check("entry", DISABLED, "no tokenjuice entry")
        report.status, report.fix = DISABLED, install_hint
        return report
    entry = mine[0]
    report.detected = command_of(entry)
    problems = launcher_problems(report.detected or "")
    report.check("launcher", BROKEN if problems else OK, "; ".join(problems) or "the hook's programs exist")
    for problem in (shape_problems or (lambda _: []))(entry):
        report.check("entry", WARN, problem)
    if strays:
        report.check(
            "entry", WARN, "a tokenjuice hook sits in a group with other hooks; install moves it to a group of its own"
        )
    elif len(mine) > 1:
        report.check("entry", WARN, f"{len(mine)} tokenjuice entries; one is enough")
    if expected is not None and report.detected != expected:
        report.check(
            "entry", WARN, f"the configured command differs from what install would write now ({install_hint})"
        )
    for warning in launcher_warnings(report.detected or ""):
        report.check("launcher", WARN, warning)
    for other in current:
        if (
            not ours(other)
            and not (stray is not None and stray(other))
            and others_conflict is not None
            and others_conflict(other)
        ):
            shown = str(command_of(other) or other)[:120]
            report.check(
                "other hooks",
                WARN,
                f"another hook also handles shell commands ({shown}); tokenjuice never wraps a command twice, "
                "but if it rewrites commands too, only one rewrite wins",
            )
    if report.status in (WARN, BROKEN) and any(
        c["name"] in ("launcher", "entry") and c["status"] in (WARN, BROKEN) for c in report.checks
    ):
        report.fix = install_hint
    differs = path_launcher_differs(report.detected)
    if differs:
        report.check("path", OK, differs)  # informational: reinstalling would not change it
    if deep and report.status != BROKEN:
        from .probe import probe

        report.deep = probe(host, report.detected or "")
        report.check(
            "probe", OK if report.deep["ok"] else BROKEN, report.deep.get("problem", "the hook rewrote and ran a probe")
        )
    return report
