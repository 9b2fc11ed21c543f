"""Every TypeScript-compatible `reduce-json` output is pinned (tests/golden): a
change to any byte of any of them must be made on purpose, by regenerating the pins.
One test per rule (and one for the original's fixtures), so pytest-xdist spreads
the ~3,700 reductions over every core."""

import json

import pytest
from golden.cases import ANCHOR, ANCHOR_ID, PINS, builtin_rules, cases, pin

PINNED = json.loads(PINS.read_text(encoding="utf-8"))
GROUPS = [r.rule.id for r in builtin_rules()] + ([ANCHOR_ID] if ANCHOR.is_file() else [])


@pytest.mark.parametrize("group", GROUPS)
def test_every_reduce_json_output_matches_its_pin(group):
    changed = []
    for name, execution, options in cases(group):
        expected = PINNED.get(name)
        if expected is None:
            continue  # a new example: pinned by the next regeneration
        actual = pin(execution, options)
        if expected[0] == actual[0] and expected[1] != actual[1]:  # same input, another output
            changed.append(name)
    assert not changed, (
        f"{len(changed)} outputs changed (first: {changed[:5]}); if on purpose, run "
        "python tests/golden/regenerate.py and commit the pins with the change"
    )


def test_most_cases_are_pinned():
    """A new or edited example is pinned by the next regeneration; most must be."""
    from golden.cases import digest

    unpinned = [
        name
        for name, execution, options in cases()
        if PINNED.get(name, [None])[0] != digest(json.dumps([execution, options], sort_keys=True))
    ]
    assert len(unpinned) < len(PINNED) // 2, "most cases are unpinned: regenerate the pins"
