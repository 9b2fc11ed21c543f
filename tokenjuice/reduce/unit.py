"""A unit of an output (reduce/units.py cuts between them): its full lines and the
shorter forms it can be shown in, and how much room a list of body items takes."""

from __future__ import annotations

from itertools import repeat

from ..fast.record import record
from .lines import Encoded, Item, Omission, size, weight
from .reencode import brace_lines, brace_size

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence


@record
class Unit:
    """One unit of an output: its full lines, its short and minimal forms."""

    kind: str  # what one unit is, singular: "path", "commit", "file", "failing test"…
    group: str  # what the drop marker counts it as: "modified", "untracked", "Running"…
    lines: tuple[Item, ...]  # the full form
    short: tuple[Item, ...]  # a compressed form (the same lines when it has none)
    minimal: tuple[Item, ...] = ()  # one line naming the unit, if it must survive every cut
    priority: float = 1  # higher is kept longer: failing tests 3, passing 0; a half step between kinds
    short_note: str = "beyond their first line"  # what a run of short forms keeps, for its marker
    minimal_note: str = "beyond their first line"  # what a run of minimal forms keeps, when they have no marker
    trimmed_note: str = "(the lines worth least)"  # what a run of trimmed forms left out
    # Units of one family fail alike (a parametrized test's cases): the first of each
    # family keeps its form longest, the others are cut first.
    family: str = ""
    # The same lines re-encoded without losing a fact (grep's path once per file, a
    # directory's entries on one line): taken before any unit is shortened.
    lossless: tuple[Item, ...] = ()
    # The unit without the lines worth least, each run of them counted by a marker
    # (a diff file without its context lines): taken before the short form.
    trimmed: tuple[Item, ...] = ()
    # Neighbours in their lossless form with the same `joins` (a line's start: git
    # status's `\tmodified:   src/api/`) share one line: `\tmodified:   src/api/{a.py,b.py}`.
    joins: str = ""
    joins_after: str = ""  # what follows the shared brace list (` PASSED`), the same for all
    factor: bool = False  # joined with its neighbours one stem at a time (a test's cases: `test_p[{1,2,3}]`)
    # A unit that can be shown in part (a file's matches, a diff file's changed lines, a
    # directory's entries): `lead` always, then the first lines of `body`, then one
    # marker counting the rest as `more` says (`{n} more line{s}`: the count and the
    # plural endings {s} and {ies}). Once every unit is cut as far as it must be, the
    # room left is shared evenly among these, the most important first (`_refill`).
    body: tuple[Item, ...] = ()
    lead: tuple[Item, ...] = ()
    more: str = ""
    breaks: tuple[int, ...] | None = None  # where `body` may be cut (counts of its lines); None: anywhere
    # The order the body's lines are shown in when the unit is shown in part (indices
    # into `body`; () in order): a diff's first removed line and the added line that
    # replaces it before the rest of their change. Lines left out between two shown
    # ones are counted by a marker where they were.
    order: tuple[int, ...] = ()
    # Body lines that head the lines after them (a diff's hunk headers): when the unit
    # is shown in part the other lines are shared out first, these get the room left
    # (reduce/units.py `_heads_shown`), and `more` counts only the other lines.
    heads: frozenset[int] = frozenset()
    folder: str | None = None  # where a path is (`src/core/`; "" at the top), for drop markers
    # Minimal forms of neighbours share one marker, the folders they share said once:
    # `src/: api/{a.py 3, b.py 1}, cli.py 2`.
    tally: str = ""
    # A unit dropped with others of the same `gathered` label (a linter's findings of one
    # code) is counted in one marker for the label, with the first `place`s (`path:line`)
    # of those dropped, after the last unit of its kind: `... 212 more F401 (src/a.py:3, …)`.
    gathered: str = ""
    place: str = ""
    # Findings that say the same thing said together as one unit (reduce/findings.py):
    # how many it stands for, and the places of the others (for the marker's places).
    count: int = 1
    also: tuple[str, ...] = ()
    # What the unit's first line starts with (a finding's `path:`): neighbours shown with
    # the same heading say it once, each first line after it as `  12:5: E0602 …`.
    heading: str = ""
    # The part of the output the unit is in (git status's `Changes to be committed:`):
    # cuts thin each group out within each section, not across them.
    section: str = ""
    # Dropped whenever anything must be cut at all: a line repeated all through a log
    # (a health check), which the count in its marker says enough about.
    expendable: bool = False
    # A flood of these units is sampled rather than shared out (a search's files, a
    # listing's folders): the room goes to the first lines of the output, its last ones
    # and lines spread evenly between, and every unit left without a line is counted in
    # its run's marker (`tally`). `at` orders the body's lines in the output (a folder's
    # entries are not next to each other in `find`'s output); `alone` is each body line
    # as shown on its own, without the `lead` (grep's `path:12:text`); `braces`, when
    # set, is what every body line starts with: several shown together are one brace
    # list of what follows it (`dir/{a.py,b.py}`).
    sample: bool = False
    at: tuple[int, ...] = ()
    alone: tuple[Item, ...] = ()
    braces: str = ""
    # Whether the minimal form names what a reader must see (a file that matched),
    # kept past the room up to units.NAMES_FACTOR times it; False: it is only the
    # shortest form (a traceback's exceptions), dropped like any unit.
    names: bool = True

    def revealed(self, count: int) -> list[int]:
        """The body lines (their indices, in order) that showing `count` of them shows:
        the first `count` of `order`."""
        return sorted(self.order[:count]) if self.order else list(range(min(count, len(self.body))))

    def revealed_heads(self, count: int) -> list[int]:
        """The heads among the body lines that showing `count` of them shows, in the
        order they come in (`order`), not in the order they are shown."""
        at = self.order[:count] if self.order else range(min(count, len(self.body)))
        return [k for k in at if k in self.heads]

    def partial(self, count: int, heads: int | None = None) -> tuple[Item, ...]:
        """`lead`, `count` lines of `body` (`revealed`; of its `heads` only the first
        `heads` to come in `order`, all when None), a marker for each run of body
        lines left out before one shown, and one for the rest of the body (the last
        marker's count of input lines takes in the lines no marker names: the heads
        left out, the lines a body leaves out, such as a diff's context lines)."""
        at = self.revealed(count)
        within = self.revealed_heads(count)
        wanted = frozenset(within if heads is None else within[:heads])
        shown: list[Item] = []
        previous = -1
        for k in at:
            if k in self.heads and k not in wanted:
                continue
            skipped = sum(1 for j in range(previous + 1, k) if j not in self.heads)
            if skipped:  # lines of a change left out before one shown
                shown.append(Omission(k - previous - 1, self.more_lines(skipped)))
            shown.append(self.body[k])
            previous = k
        if any(k not in self.heads for k in range(previous + 1, len(self.body))):
            shown.append(Omission(0, self.rest(count)))
        markers = [k for k, item in enumerate(shown) if isinstance(item, Omission)]
        if markers:
            last = shown[markers[-1]]
            assert isinstance(last, Omission)
            hidden = input_lines(self.lines) - input_lines(self.lead) - input_lines(shown) + last.count
            shown[markers[-1]] = Omission(hidden, last.detail)
        return self.lead + tuple(shown)

    def picked(self, chosen: Sequence[int]) -> tuple[Item, ...]:
        """The body lines at `chosen` (in order), under `lead` (a line shown alone
        needs none), then one marker counting the rest."""
        if len(chosen) == 1 and self.alone:
            shown: tuple[Item, ...] = (self.alone[chosen[0]],)
        elif len(chosen) > 1 and self.braces:
            names = [str(self.body[k])[len(self.braces) :] for k in chosen]
            shown = tuple(brace_lines(self.braces, names, ""))
        else:
            shown = self.lead + tuple(self.body[k] for k in chosen)
        rest = len(self.body) - len(chosen)
        hidden = input_lines(self.lines) - input_lines(shown)
        left = rest - sum(1 for k in self.heads if k not in chosen)
        return shown + ((Omission(hidden, self.more_lines(left)),) if rest > 0 else ())

    def picked_size(self, chosen: Sequence[int], names: Sequence[str] = ()) -> int:
        """What `picked(chosen)` takes shown (`size`), reckoned without making it (a
        flood's units are sampled a line at a time: each sample is measured); `names`
        are the body's lines without `braces` (made once by the caller)."""
        if len(chosen) == 1 and self.alone:
            shown = len(self.alone[chosen[0]]) + 1
        elif len(chosen) > 1 and self.braces:
            listed = [names[k] for k in chosen] if names else [str(self.body[k])[len(self.braces) :] for k in chosen]
            shown = brace_size(self.braces, listed, "")
        else:
            shown = size(self.lead) + sum(len(self.body[k]) + 1 for k in chosen)
        rest = len(self.body) - len(chosen)
        left = rest - sum(1 for k in self.heads if k not in chosen)
        return shown + (len(Omission(0, self.more_lines(left))) + 1 if rest > 0 else 0)

    def rest(self, count: int) -> str:
        """What a partial form's last marker says of the body lines after those
        `count` shows: `more` with the count of those that are not heads."""
        at = self.revealed(count)
        last = at[-1] if at else -1
        return self.more_lines(sum(1 for k in range(last + 1, len(self.body)) if k not in self.heads))

    def more_lines(self, left: int) -> str:
        """`more` saying `left` lines."""
        one = left == 1
        return self.more.format(n=f"{left:,}", s="" if one else "s", ies="y" if one else "ies")

    @property
    def size(self) -> int:
        return size(self.lines)


Parsed = list["Item | Unit"]


def input_lines(items: Sequence[Item]) -> int:
    """How many input lines `items` stand for (as many as there are items where none is
    a marker or a re-encoding, told in C: a big folder's entries are counted often)."""
    if not any(map(isinstance, items, repeat((Omission, Encoded)))):
        return len(items)
    return sum(map(weight, items))


#: A unit's line is clipped past this many characters (a diff's changed line has its own).
LINE_LIMIT = 300


def bisection(count: int) -> Iterator[int]:
    """0 to count - 1 in the order that keeps those taken spread evenly: the first, the
    last, the middle, then the middles of each half, and so on."""
    if count <= 0:
        return
    yield 0
    if count == 1:
        return
    yield count - 1
    spans = [(0, count - 1)]
    while spans:
        following: list[tuple[int, int]] = []
        for low, high in spans:
            if high - low < 2:
                continue
            middle = (low + high) // 2
            yield middle
            following += [(low, middle), (middle, high)]
        spans = following
