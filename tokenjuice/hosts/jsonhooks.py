"""Our entry in a list inside a host's JSON settings file: add it, update it, remove
exactly it, find it. Shared by every host whose hooks live in such a list
(Cursor's `hooks.preToolUse`, Claude Code's and Codex's `hooks.PreToolUse`,
Gemini's `hooks.BeforeTool`); each adapter says where the list is, what our entry
looks like and how to recognise it.

Lists come in two shapes. Flat: each element is one hook (Cursor). Grouped
(`nested="hooks"`): each element is a group `{"matcher": …, "hooks": [hook, …]}`
(Claude Code, Codex, Gemini). Ownership is exact either way: `ours` judges one
hook; a group is ours when every hook in it is ours, and when a user put our hook
into a group of their own, only our hook leaves it (the group and its other hooks
stay). One install may place entries in several lists of one file (and take ours
out of others) under one lock, one backup and one write.
"""

from __future__ import annotations

from ..files.editfile import EditError
from ..files.jsonfile import LockedJsonFile, parse_object
from .manage import Result, forget_install, remember_install, restore_if_untouched, text_before_install

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from .base import Host
    from .manage import Report

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


def install_many(
    path: str,
    placements: list[tuple[tuple[str, ...], dict[str, Any] | None]],
    ours: Ours,
    *,
    skeleton: dict[str, Any] | None = None,
    required: dict[str, Any] | None = None,
    dry_run: bool = False,
    command: str | None = None,
    warnings: list[str] | None = None,
    nested: str | None = None,
    notes: list[str] | None = None,
) -> Result:
    """For each (list path, entry): make `entry` our only element of that list (at its
    end when it is not there yet); an entry of None takes ours out of that list. A list
    already holding exactly our entry once, and nothing else of ours, is left as it is.
    `skeleton` is the new file's content when there is none, `required` top-level
    members the host needs (added only when missing), `notes` what the user must
    still do."""
    with LockedJsonFile(path, create=not dry_run) as file:
        data = file.load(dict(skeleton or {}))
        edits: list[tuple[Any, ...]] = []
        had_ours = False
        for list_path, entry in placements:
            current = entries(data, list_path, path)
            present = [hook for element in current for hook in _ours_in(element, ours, nested)]
            had_ours |= bool(present)
            if entry is None:
                if present:
                    kept = strip(current, ours, nested)
                    if kept:
                        _set(data, list_path, kept, edits)
                    else:
                        _delete(data, list_path, edits)
                continue
            wanted = _ours_in(entry, ours, nested)
            if sum(1 for element in current if element == entry) == 1 and present == wanted:
                continue
            _set(data, list_path, strip(current, ours, nested) + [entry], edits)
        if not edits:
            return Result(path, "unchanged", None, command, warnings, notes)
        for key, value in (required or {}).items():
            if key not in data:
                data[key] = value
                edits.append(("set", (key,), value))
        before = file.text
        change = file.save_json(data, edits, dry_run=dry_run)
        if not dry_run and change.changed:
            remember_install(path, before, change.after, change.backup, file.created_dirs)
    if dry_run:
        action = "would update" if had_ours else "would install"
    else:
        action = "updated" if had_ours else "installed"
    return Result(path, action, change, command, warnings, notes)


def uninstall_many(
    path: str, list_paths: list[tuple[str, ...]], ours: Ours, *, dry_run: bool = False, nested: str | None = None
) -> Result:
    """Remove our entries from every list in `list_paths` of one file, in one write,
    and nothing else. When the file is still exactly what our last install wrote,
    put back the bytes from before it (or remove the file we created), so a round
    trip leaves no trace."""
    with LockedJsonFile(path, create=False) as file:
        if file.text is None:
            if not dry_run:
                forget_install(path)
            return Result(path, "absent")
        data = file.load({})
        edits: list[tuple[Any, ...]] = []
        for list_path in list_paths:
            current = entries(data, list_path, path)
            kept = strip(current, ours, nested)
            if kept == current:
                continue
            if kept:
                _set(data, list_path, kept, edits)
            else:
                _delete(data, list_path, edits)
        if not edits:
            return Result(path, "absent")
        untouched, before = restore_if_untouched(path, file.text)
        if untouched:
            # the file is exactly what our last install left: its bytes from before
            # install come back (or the file install created goes), and with them
            # the backups install made, which hold nothing the user lacks
            if before is None:
                change = file.remove(dry_run=dry_run)
                action = "would remove the file install created" if dry_run else "removed the file install created"
            else:
                parse_object(before, path)  # never restore something we could not have read
                change = file.save(before, dry_run=dry_run, keep_backup=False)
                action = "would restore" if dry_run else "restored"
            if not dry_run:
                forget_install(path, drop_backups=True)
            return Result(path, action, change)
        _drop_emptied_parents(data, list_paths, text_before_install(path), edits)
        change = file.save_json(data, edits, dry_run=dry_run)
        if not dry_run:
            forget_install(path, backup=change.backup)
    return Result(path, "would remove" if dry_run else "removed", change)


def _drop_emptied_parents(
    data: dict[str, Any],
    list_paths: list[tuple[str, ...]],
    recorded: tuple[bool, str | None],
    edits: list[tuple[Any, ...]],
) -> None:
    """After our lists left, also remove the objects on their way that are now empty
    and that install created (`"hooks": {}` in a file that had no `hooks`): judged
    by the file's text from before install (without a record of it, nothing goes),
    so an empty object the user had stays."""
    known, before = recorded
    if not known:
        return
    try:
        had = parse_object(before, "") if before is not None else {}
    except EditError:
        return
    for list_path in list_paths:
        for depth in range(len(list_path) - 1, 0, -1):
            parent = list_path[:depth]
            node: Any = data
            was: Any = had
            for key in parent:
                node = node.get(key) if isinstance(node, dict) else None
                was = was.get(key) if isinstance(was, dict) else None
            if node != {} or was is not None:
                break
            _delete(data, parent, edits)


def strip(elements: list[Any], ours: Ours, nested: str | None = None) -> list[Any]:
    """`elements` without our hooks: a flat element that is ours goes; a group loses
    our hooks, and goes only when nothing but ours was in it."""
    kept: list[Any] = []
    for element in elements:
        inner = _group_hooks(element, nested)
        if inner is None:
            if not ours(element):
                kept.append(element)
            continue
        others = [hook for hook in inner if not ours(hook)]
        if len(others) == len(inner):
            kept.append(element)
        elif others:
            kept.append({key: (others if key == nested else value) for key, value in element.items()})
    return kept


def ours_found(elements: list[Any], ours: Ours, nested: str | None = None) -> list[tuple[Any, Any]]:
    """(element, hook) for each of our hooks in `elements` (element is hook when flat)."""
    return [(element, hook) for element in elements for hook in _ours_in(element, ours, nested)]


def _group_hooks(element: object, nested: str | None) -> list[Any] | None:
    if nested is None or not isinstance(element, dict):
        return None
    inner = element.get(nested)
    return inner if isinstance(inner, list) else None


def _ours_in(element: object, ours: Ours, nested: str | None) -> list[Any]:
    inner = _group_hooks(element, nested)
    if inner is None:
        return [element] if ours(element) else []
    return [hook for hook in inner if ours(hook)]


def our_element(data: dict[str, Any], list_path: tuple[str, ...], ours: Ours, nested: str | None = None) -> Any:
    """The element of the list that holds our hook (its group when `nested`), or None."""
    try:
        elements = entries(data, list_path, "")
    except EditError:
        return None
    return next((element for element, _ in ours_found(elements, ours, nested)), None)


def check_tools(report: Report, element: Any, tool_sets: dict[object, str], effects: dict[str, str]) -> None:
    """doctor's tools line: what the tool set (`install HOST --tools`) named by the
    `matcher` of our post-run element (`tool_sets`: matcher -> set) compacts; nothing for
    a matcher install never writes (the entry check names it)."""
    from . import OK

    matcher = element.get("matcher") if isinstance(element, dict) else None
    tools = tool_sets.get(matcher)
    if tools is not None:
        report.check("tools", OK, f"compacted: {effects[tools]}")


def command_in(element: object, ours: Ours) -> str | None:
    """A hook's `command`; for a matcher group, our hook's (or, in someone else's
    group, its first hook's): what doctor shows for an element."""
    if isinstance(element, dict) and isinstance(element.get("hooks"), list):
        hooks = [hook for hook in element["hooks"] if isinstance(hook, dict)]
        element = next((hook for hook in hooks if ours(hook)), hooks[0] if hooks else {})
    command = element.get("command") if isinstance(element, dict) else None
    return command if isinstance(command, str) else None


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
    more_lists: tuple[tuple[str, ...], ...] = (),
    nested: str | None = None,
    conflict_message: str = (
        "another hook also handles shell commands ({shown}); tokenjuice never wraps a command twice, "
        "but if it rewrites commands too, only one rewrite wins"
    ),
) -> Report:
    """The health of our entry in a JSON hooks file (in `list_path` and `more_lists`).
    Each finding is a named check; following `fix` makes the report green (the advice
    never loops). `shape_problems` judges the element holding our hook (the group when
    `nested`), `command_of` a hook."""
    from . import BROKEN, OK, WARN
    from .manage import Report

    report = Report(host.name, path, expected)
    try:
        data = read(path)
        current = [e for lp in (list_path, *more_lists) for e in entries(data, lp, path)] if data is not None else []
    except EditError as error:
        report.check("file", BROKEN, str(error))
        report.fix = f"fix or move {path}, then run {install_hint}"
        return report
    if data is None:
        return report.disabled("file", f"{path} does not exist", install_hint)
    report.check("file", OK, f"{path} is valid JSON")
    mine = ours_found(current, ours, nested)
    if not mine:
        return report.disabled("entry", "no tokenjuice entry", install_hint)
    element, entry = mine[0]
    report.detected = command_of(entry)
    report.check_launcher("the hook's programs exist")
    for problem in (shape_problems or (lambda _: []))(element):
        report.check("entry", WARN, problem)
    inner = _group_hooks(element, nested)
    if inner is not None and not all(ours(hook) for hook in inner):
        report.check(
            "entry",
            WARN,
            "tokenjuice's hook sits in a group with other hooks; install moves it into a group of its own",
        )
    if len(mine) > 1:
        report.check("entry", WARN, f"{len(mine)} tokenjuice entries; one is enough")
    if expected is not None and report.detected != expected:
        report.check(
            "entry", WARN, f"the configured command differs from what install would write now ({install_hint})"
        )
    report.check_launcher_place()
    for other in strip(current, ours, nested):
        if others_conflict is not None and others_conflict(other):
            shown = str(command_of(other) or other)[:120]
            report.check("other hooks", WARN, conflict_message.format(shown=shown))
    if report.status in (WARN, BROKEN) and any(
        c["name"] in ("launcher", "entry") and c["status"] in (WARN, BROKEN) for c in report.checks
    ):
        report.fix = install_hint
    report.note_other_installation()
    if deep and report.status != BROKEN:
        from .probe import probe

        found = probe(host, report.detected or "")
        report.check_probe(found, found.get("summary", "the hook rewrote and ran a probe"))
    return report
