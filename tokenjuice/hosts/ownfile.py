"""Files tokenjuice owns outright (Copilot's hooks file, OpenCode's plugin, an
advisory rule file), and a marked block of ours inside a file the user owns
(Windsurf's single global rules file).

A file of our own is written whole: its first line carries `MARKER`, and it is
ours only while its content is exactly what install would write (`is_ours`).
Uninstall removes it only then; a file the user has edited since is left alone
with one sentence saying so, because we cannot know what of it they want to
keep. Writing is locked, atomic and symlink-safe (`editfile.LockedFile`); a file
we generated needs no backup, since install can write it again.

A block of ours sits between `BEGIN` and `END` lines; uninstall puts the file
back to its bytes from before install when nothing else changed, and otherwise
removes exactly the lines from `BEGIN` to `END`.
"""

from __future__ import annotations

from ..files.atomic import write_atomically
from ..files.editfile import Change, EditError, LockedFile
from .manage import Result, forget_install, remember_install, restore_if_untouched

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: Within the first lines (after any front matter) of every file tokenjuice writes whole.
MARKER = "tokenjuice:generated"
#: A marked block inside a file the user owns.
BEGIN = "<!-- tokenjuice:begin (tokenjuice uninstall {host} removes this block) -->"
END = "<!-- tokenjuice:end -->"


def has_marker(text: str) -> bool:
    """Does `text` claim to be ours? (Ownership also needs `is_ours`: exact content.)"""
    return MARKER in "\n".join(text.splitlines()[:6])


def install(
    path: str,
    content: str,
    is_ours: Callable[[str], bool],
    *,
    dry_run: bool = False,
    command: str | None = None,
    warnings: list[str] | None = None,
    notes: list[str] | None = None,
) -> Result:
    """Write `content` to `path`, replacing only a file of ours (an older version
    of it); a foreign file in the way is refused."""
    with LockedFile(path, create=not dry_run) as file:
        current = file.text
        if current == content:
            return Result(path, "unchanged", None, command, warnings, notes)
        if current is not None and not (has_marker(current) and is_ours(current)):
            if has_marker(current):
                raise EditError(
                    f"{path} was changed since tokenjuice wrote it; move it away (or delete it) and install again"
                )
            raise EditError(f"{path} exists and was not written by tokenjuice; move it away and install again")
        change = Change(path, current, content)
        if dry_run:
            file._check_writable()  # refuse what the real run would refuse
        else:
            _write(file, content)
            remember_install(path, current, content, None, file.created_dirs)
    if dry_run:
        action = "would update" if current is not None else "would install"
    else:
        action = "updated" if current is not None else "installed"
    return Result(path, action, change, command, warnings, notes)


def uninstall(path: str, is_ours: Callable[[str], bool], *, dry_run: bool = False) -> Result:
    """Remove the file if it is exactly ours; leave anything else with one sentence."""
    with LockedFile(path, create=False) as file:
        current = file.text
        if current is None or not has_marker(current):
            return Result(path, "absent")
        if not is_ours(current):
            raise EditError(
                f"{path} was changed since tokenjuice wrote it, so it is left alone; delete it yourself "
                "if you no longer want it"
            )
        change = file.remove(dry_run=dry_run)
        if not dry_run:
            forget_install(path, drop_backups=True)  # and the folders install created for it
    return Result(path, "would remove" if dry_run else "removed the file install created", change)


def read(path: str) -> str | None:
    """The file's text (doctor), None when it does not exist."""
    with LockedFile(path, create=False) as file:
        return file.text


def _write(file: LockedFile, content: str) -> None:
    file._check_writable()
    try:
        write_atomically(file.target, content.encode("utf-8"))
    except OSError as error:
        raise EditError(f"cannot write {file.path}: {error.strerror}") from None
    file.text = content


# -- a marked block inside the user's file ---------------------------------------------------


def find_block(text: str, host: str) -> tuple[int, int] | None:
    """(start, end) offsets of our block, its last line's newline included; None
    when absent. EditError when the markers are broken (one without the other,
    or twice), since editing then could cut the user's text."""
    begin = BEGIN.format(host=host)
    starts = _line_offsets(text, begin)
    ends = _line_offsets(text, END)
    if not starts and not ends:
        return None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise EditError(
            f"the tokenjuice block in the file is broken (a marker line is missing or repeated); "
            f"fix the lines around {begin!r} by hand and try again"
        )
    end = ends[0] + len(END)
    if text.startswith("\r\n", end):
        end += 2
    elif text.startswith("\n", end):
        end += 1
    return starts[0], end


def _line_offsets(text: str, line: str) -> list[int]:
    found: list[int] = []
    position = 0
    while True:
        index = text.find(line, position)
        if index < 0:
            return found
        at_start = index == 0 or text[index - 1] == "\n"
        after = text[index + len(line) : index + len(line) + 2]
        at_end = after in ("", "\n", "\r\n") or after.startswith("\n")
        if at_start and at_end:
            found.append(index)
        position = index + len(line)


def block(host: str, body: str) -> str:
    return BEGIN.format(host=host) + "\n" + body.rstrip("\n") + "\n" + END + "\n"


def install_block(
    path: str,
    host: str,
    body: str,
    *,
    dry_run: bool = False,
    warnings: list[str] | None = None,
    notes: list[str] | None = None,
) -> Result:
    """Put our block at the end of the file (or replace it where it is)."""
    ours = block(host, body)
    with LockedFile(path, create=not dry_run) as file:
        current = file.text
        found = find_block(current, host) if current is not None else None
        if found is not None and current is not None:
            if current[found[0] : found[1]] == ours:
                return Result(path, "unchanged", None, None, warnings, notes)
            after = current[: found[0]] + ours + current[found[1] :]
        elif current:
            after = current + ("" if current.endswith("\n") else "\n") + "\n" + ours
        else:
            after = ours
        change = file.save(after, dry_run=dry_run)
        if not dry_run and change.changed:
            remember_install(path, current, after, change.backup, file.created_dirs)
    if dry_run:
        action = "would update" if found else "would install"
    else:
        action = "updated" if found else "installed"
    return Result(path, action, change, None, warnings, notes)


def uninstall_block(path: str, host: str, *, dry_run: bool = False) -> Result:
    """Remove our block: the bytes from before install when nothing else changed,
    else exactly our lines (and the blank line install put before them)."""
    with LockedFile(path, create=False) as file:
        current = file.text
        found = find_block(current, host) if current is not None else None
        if current is None or found is None:
            if current is None and not dry_run:
                forget_install(path)
            return Result(path, "absent")
        untouched, before = restore_if_untouched(path, current)
        if untouched:  # as jsonhooks.uninstall_many: the bytes from before, our backups gone
            if before is None:
                change = file.remove(dry_run=dry_run)
                action = "would remove the file install created" if dry_run else "removed the file install created"
            else:
                change = file.save(before, dry_run=dry_run, keep_backup=False)
                action = "would restore" if dry_run else "restored"
            if not dry_run:
                forget_install(path, drop_backups=True)
            return Result(path, action, change)
        start, end = found
        head = current[:start]
        if head.endswith("\n\n") and end == len(current):
            head = head[:-1]  # the blank line install put before the block
        after = head + current[end:]
        change = file.save(after, dry_run=dry_run)
        if not dry_run:
            forget_install(path, backup=change.backup)
    return Result(path, "would remove" if dry_run else "removed", change)
