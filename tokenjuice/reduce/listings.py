"""Listings as units (`unit = "dir"`): find's, fd's, du's and git ls-files' paths by
folder, and ls -R's sections, each folder's entries one unit."""

from __future__ import annotations

from ..text import pluralize
from .lines import Item, Omission
from .reencode import (
    brace_lines,
    brace_safe,
)
from .unit import Parsed, Unit
from .vendored import vendored

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass


def parse(lines: list[str]) -> Parsed:
    """find / fd / ls -R / du: the entries of each directory are one unit; the
    directory itself is always named (its minimal form counts its entries)."""
    parsed: Parsed = []
    if any(line.endswith(":") and not line.startswith(" ") for line in lines[:3]):
        return _ls_sections(lines)
    entries = [line for line in lines if line.strip()]
    paths = sum(1 for line in entries if "/" in line and " " not in line.split("\t")[-1].strip())
    if paths < 0.8 * len(entries):
        return list(lines)  # not a list of paths (ls -l, one folder's names): nothing to group
    groups: dict[str, list[str]] = {}
    places: dict[str, list[int]] = {}
    order: list[str] = []
    for position, line in enumerate(lines):
        if not line.strip() or line.startswith(("find:", "fd:", "du:")):
            parsed.append(line)
            continue
        path = line.split("\t")[-1].rstrip("/")
        parent = path.rsplit("/", 1)[0] if "/" in path else "."
        if parent not in groups:
            groups[parent] = []
            places[parent] = []
            order.append(parent)
            parsed.append(parent)  # a placeholder, replaced below
        groups[parent].append(line)
        places[parent].append(position)
    result: Parsed = []
    for part in parsed:
        if isinstance(part, str) and part in groups:
            entries = groups.pop(part)
            result.append(_dir_unit(part, entries, tuple(places[part])))
        elif isinstance(part, str) and part not in order:
            result.append(part)
    return result


def _dir_unit(directory: str, entries: list[str], at: tuple[int, ...] = ()) -> Unit:
    first = entries[0]
    name = directory.rpartition("/")[2]
    short: tuple[Item, ...] = (first,) + (
        (Omission(len(entries) - 1, f"{pluralize(len(entries) - 1, 'more entry')} in {directory}/"),)
        if len(entries) > 1
        else ()
    )
    minimal = (Omission(len(entries), f"{directory}/: {pluralize(len(entries), 'entry')}"),)
    names = [entry[len(directory) + 1 :] for entry in entries if entry.startswith(directory + "/")]
    lossless: tuple[Item, ...] = ()
    braced = len(names) == len(entries) and all(map(brace_safe, names))
    if len(entries) > 1 and braced:
        lossless = tuple(brace_lines(f"{directory}/", names, ""))
    return Unit(
        "directory",
        "",
        tuple(entries),
        short,
        minimal,
        lossless=lossless,
        body=tuple(entries),
        more=f"{{n}} more entr{{ies}} in {directory}/",
        folder=directory.rpartition("/")[0] + "/" if "/" in directory else "",
        tally=f"{name}/ {len(entries)}",
        sample=bool(at),
        at=at,
        braces=f"{directory}/" if braced else "",
    )


def _ls_sections(lines: list[str]) -> Parsed:
    """ls -R: each `dir:` section is a unit; a flood of them is sampled like find's
    folders (its heading, then entries), every section left without one counted; the
    sections of folders the project did not write (`.git/`, `node_modules/`: `vendored`)
    are cut first. The blank line that parts a section from the one before leads it:
    shown with it."""
    parsed: Parsed = []
    current: list[str] = []
    start = 0

    def close() -> None:
        if current:
            named = next(k for k, line in enumerate(current) if line.strip())  # its `dir:` line
            head, rest = current[named], current[named + 1 :]
            entries = [line for line in rest if line.strip()]
            at = tuple(start + k for k, line in enumerate(current) if k > named and line.strip())
            lead = tuple(current[: named + 1])
            short: tuple[Item, ...] = lead + (
                (Omission(len(rest), f"{pluralize(len(entries), 'entry')} in {head[:-1]}"),) if rest else ()
            )
            directory = head[:-1].rstrip("/")
            name = directory.rpartition("/")[2]
            parsed.append(
                Unit(
                    "directory",
                    "",
                    tuple(current),
                    short,
                    short,
                    body=tuple(entries),
                    lead=lead,
                    more="{n} more entr{ies}",
                    folder=directory.rpartition("/")[0] + "/" if "/" in directory else "",
                    tally=f"{name}/ {len(entries)}",
                    sample=bool(entries),
                    at=at,
                    priority=0
                    if vendored(f"{directory}/")
                    else 1,  # .git/, node_modules/: the room goes elsewhere first
                )
            )
            current.clear()

    for position, line in enumerate(lines):
        if line.endswith(":") and not line.startswith(" "):
            gap = 0  # the blank lines before it: this section's
            while gap < len(current) and not current[-1 - gap].strip():
                gap += 1
            separator = current[len(current) - gap :]
            del current[len(current) - gap :]
            close()
            start = position - gap
            current.extend(separator)
        if current or line.endswith(":"):
            current.append(line)
        else:
            parsed.append(line)
    close()
    return parsed
