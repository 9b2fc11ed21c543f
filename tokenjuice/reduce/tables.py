"""Tables as units (`unit = "row"`): a row each, rows that need attention (a failed
status) kept longer than healthy ones; query results and delimited rows spread."""

from __future__ import annotations

import re

from ..fast.lazyre import lazy
from ..text import pluralize
from .lines import Omission
from .unit import Parsed, Unit, bisection

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass


_STATUS_COLUMNS = ("STATUS", "STATE", "PHASE")
#: A row that needs attention: kept longer than healthy rows.
_TROUBLE = lazy(
    r"(?i)unhealthy|restarting|crashloop|\berror|\bfail|oomkilled|\bpending|evicted|backoff|\bunknown|\bdead\b"
    r"|exited \((?!0\))|notready|terminating|degraded"
)
#: Ids, counts and times: rows that differ only in these are alike (24 runs of one
#: crashing job), and the first of them stands for the others.
_NUMBERS = lazy(r"\b[0-9a-f]{7,64}\b|\d+")
_TABLE_HEADER = lazy(r"^\S+(?: \S+)*(?: {2,}\S+(?: \S+)*)+\s*$")


def parse(lines: list[str]) -> Parsed:
    """Tables with a header line (docker ps, kubectl get, pip list): every row is a
    unit, grouped by its status column when there is one; rows in trouble (exited
    with an error, restarting, unhealthy, pending) are kept longest, and of rows alike
    but for their numbers the first is kept longest. A query's result (a header over a
    dashes line and no status column, or `|`-separated values under a header of names)
    is one unit shown from its two ends and spread between (`_query_rows`). Output that
    is not a table (JSON, YAML, a message) has nothing to cut between."""
    if not lines:
        return []
    header = lines[0]
    dashes = len(lines) > 1 and lines[1].strip() and set(lines[1].replace(" ", "")) <= {"-"}
    if header[:1] not in "{[" and _delimited(lines):
        columns = header.count("|")
        return _query_rows(lines, 1, max(k for k, line in enumerate(lines) if line.count("|") == columns))
    if header[:1] in "{[" or not (_TABLE_HEADER.match(header) or dashes):
        return list(lines)
    column = next((header.find(name) for name in _STATUS_COLUMNS if re.search(rf"\b{name}\b", header)), -1)
    if dashes and column < 0:  # a query's result (sqlite3 -column, psql): rows alike, none in trouble
        return _query_rows(lines, 2, max(k for k, line in enumerate(lines) if line.strip()))
    parsed: Parsed = [header]
    for line in lines[1:]:
        if not line.strip() or line.startswith(("---", "===")):
            parsed.append(line)
            continue
        cell = line[column:].split("  ")[0].split() if 0 <= column < len(line) else []
        group = cell[0] if cell else ""
        priority = 2 if _TROUBLE.search(line) else 1
        parsed.append(Unit("row", group, (line,), (line,), priority=priority, family=_NUMBERS.sub("#", line)))
    return parsed


#: A header of `|`-separated column names (sqlite3's list mode, `psql -A`).
_DELIMITED_HEADER = lazy(r"^[\w .()*-]+(?:\|[\w .()*-]+)+$")


def _delimited(lines: list[str]) -> bool:
    """Rows of `|`-separated values under a header of names: each of the first rows
    has as many separators as the header."""
    if not _DELIMITED_HEADER.match(lines[0]):
        return False
    columns = lines[0].count("|")
    rows = [line for line in lines[1:50] if line.strip()]
    return len(rows) >= 2 and all(line.count("|") == columns for line in rows)


def _query_rows(lines: list[str], lead: int, last: int) -> Parsed:
    """A query's rows (after the `lead` lines of its header, through line `last`) as one
    unit, shown in part in equal measure from three ends: its first rows, its last rows
    and rows spread between, every run left out counted where it was (a value that runs
    over lines is cut between its lines like a row)."""
    body = tuple(lines[lead : last + 1])
    if len(body) < 2:
        return list(lines)
    short = (body[0], Omission(len(body) - 1, pluralize(len(body) - 1, "more row")))
    unit = Unit("row", "", body, short, body=body, more="{n} more row{s}", order=_ends_and_spread(len(body)))
    return [*lines[:lead], unit, *lines[last + 1 :]]


def _ends_and_spread(count: int) -> tuple[int, ...]:
    """0 to count - 1 taken in turn from the start, from the end and spread evenly."""
    sources = [iter(range(count)), iter(range(count - 1, -1, -1)), bisection(count)]
    order: list[int] = []
    taken: set[int] = set()
    while len(order) < count:
        for source in sources:
            for k in source:
                if k not in taken:
                    taken.add(k)
                    order.append(k)
                    break
    return tuple(order)
