"""A search's matches as units (`unit = "match-file"`): a file's matches, its path said
once over them as their lossless form, the count of the rest as its short form."""

from __future__ import annotations

from ..fast.lazyre import lazy
from ..text import clip_line, pluralize
from .lines import Encoded, Item, Omission
from .unit import LINE_LIMIT, Parsed, Unit
from .vendored import vendored

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass


_MATCH_PATH = (lazy(r"^(\S+?):\d+(?::\d+)?:"), lazy(r"^(\S+?)-\d+-"), lazy(r"^([^\s:]*[/.][^\s:]*):"))


def parse(lines: list[str]) -> Parsed:
    """grep -rn / rg / git grep: the matches of each file are one unit; even its
    minimal form names the file and counts its matches."""
    parsed: Parsed = []
    current: list[str] = []
    path: str | None = None

    def close(end: int) -> None:
        """The unit of `current`, the lines before line `end`."""
        if current and path is not None:
            matches = sum(1 for line in current if line != "--")
            first = clip_line(current[0], LINE_LIMIT)
            short: tuple[Item, ...] = (first,) + (
                (Omission(len(current) - 1, f"{pluralize(matches - 1, 'more match')} in {path}"),)
                if len(current) > 1
                else ()
            )
            minimal = (Omission(len(current), f"{path}: {pluralize(matches, 'match')}"),)
            full = tuple(clip_line(c, LINE_LIMIT) for c in current)
            factored = _factored(path, full)
            parsed.append(
                Unit(
                    "file with matches",
                    "",
                    full,
                    short,
                    minimal,
                    lossless=factored,
                    body=factored[1:] if factored else full,
                    lead=factored[:1],
                    more="{n} more line{s}",
                    priority=0 if vendored(path) else 1,
                    folder=path.rpartition("/")[0] + "/" if "/" in path else "",
                    tally=f"{path.rpartition('/')[2]} {matches}",
                    sample=True,
                    at=tuple(range(end - len(current), end)),
                    alone=full if factored else (),
                )
            )
        current.clear()

    for position, line in enumerate(lines):
        found = path if line == "--" else _match_path(line)
        if found != path:
            close(position)
            path = found
        if found is None:
            parsed.append(line)
        else:
            current.append(line)
    close(len(lines))
    return parsed


def _factored(path: str, lines: tuple[str, ...]) -> tuple[Item, ...]:
    """A file's matches with its path said once: `path:` then `  12:text` (and
    `  13-text` for context lines), every other character as grep printed it."""
    if len(lines) < 2:
        return ()
    body: list[Item] = [Encoded(f"{path}:", 0)]
    for line in lines:
        if line == "--":
            body.append(line)
        elif line.startswith(path) and line[len(path) : len(path) + 1] in (":", "-"):
            body.append(Encoded("  " + line[len(path) + 1 :], 1))
        else:
            return ()
    return tuple(body)


def _match_path(line: str) -> str | None:
    for pattern in _MATCH_PATH:
        found = pattern.match(line)
        if found:
            return found.group(1)
    return None
