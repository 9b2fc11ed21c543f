"""The information budget: how much content an output keeps whole.

Noise (what a rule's skip patterns and noise kinds drop) is always removed; what is
left is content, and content is shown whole up to the budget. Only past it is
anything cut, and then in a fixed order (reduce/units.py): lossless re-encodings,
shorter units, every unit's naming line, whole groups summarised with counts.

The budget is a number of characters of the shown text (header and trailer
included), chosen per outcome: a failure keeps more than a success. Output the
agent bounded itself (`| head -50`, `git log -n 20`, `sed -n 10,80p`) is shown whole
up to `BOUNDED_MAX_CHARS`: the agent chose its size. The figures and why they were
chosen: docs/state.md ("How much is kept").
"""

from __future__ import annotations

from ..fast.record import record

#: The defaults of settings output.max_chars and output.failure_max_chars.
SUCCESS_CHARS = 6000
FAILURE_CHARS = 10000
#: What the agent bounded itself is shown whole up to this size (the size up to which
#: an exact file read is shown byte for byte, reduce/engine.py's EXACT_LIMIT).
BOUNDED_MAX_CHARS = 32 * 1024


@record
class Budgets:
    """The budgets in force: the defaults, or what settings say."""

    success: int = SUCCESS_CHARS
    failure: int = FAILURE_CHARS
    families: tuple[tuple[str, int, int], ...] = ()  # (family, success, failure) from settings

    def of(self, family: str, failed: bool, scale: float = 1, content: bool = False) -> int:
        """The budget for an output of `family`: settings' entry for the family, else
        the general one times `scale` — a failure's for a run that failed or whose
        every line is `content` the agent asked for (what the rule declares: a
        search's matches; a diff, nearly all content, is scaled)."""
        for name, success, failure in self.families:
            if name == family:
                return failure if failed else success
        general = self.failure if failed or content else self.success
        return round(general * (scale if scale > 0 else 1))


def parse_family_entries(
    entries: list[str], minimum: int, cap: int
) -> tuple[tuple[tuple[str, int, int], ...], list[str]]:
    """`["search=8000", "test-results=6000/16000"]` as (family, success, failure)
    triples, and a warning per entry that is not one."""
    parsed: list[tuple[str, int, int]] = []
    problems: list[str] = []
    for entry in entries:
        name, _, figures = entry.partition("=")
        success_text, _, failure_text = figures.partition("/")
        name = name.strip()
        try:
            success = int(success_text)
            failure = int(failure_text) if failure_text.strip() else success
        except ValueError:
            success = failure = -1
        if not name or not minimum <= success <= cap or not minimum <= failure <= cap:
            problems.append(
                f"output.family_max_chars: {entry!r} is not FAMILY=SUCCESS or FAMILY=SUCCESS/FAILURE "
                f"with numbers from {minimum} to {cap}; ignored"
            )
            continue
        parsed.append((name, success, failure))
    return tuple(parsed), problems


def from_settings(values: dict[str, object]) -> tuple[Budgets, list[str]]:
    """The budgets settings give (0 means the default), and warnings for entries ignored."""
    from ..settings import BY_KEY

    setting = BY_KEY["output.max_chars"]
    minimum, cap = setting.minimum or 0, setting.cap or 0
    success = values.get("output.max_chars")
    failure = values.get("output.failure_max_chars")
    entries = values.get("output.family_max_chars")
    families, problems = parse_family_entries(
        [e for e in entries if isinstance(e, str)] if isinstance(entries, list) else [], minimum, cap
    )
    return (
        Budgets(
            success if isinstance(success, int) and success > 0 else SUCCESS_CHARS,
            failure if isinstance(failure, int) and failure > 0 else FAILURE_CHARS,
            families,
        ),
        problems,
    )
