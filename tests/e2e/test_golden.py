"""Every TypeScript-compatible `reduce-json` output is pinned (tests/golden): a
change to any byte of any of them must be made on purpose, by regenerating the pins."""

import json

from golden.cases import PINS, cases, pin


def test_every_reduce_json_output_matches_its_pin():
    pins = json.loads(PINS.read_text(encoding="utf-8"))
    changed, unpinned = [], []
    for name, execution, options in cases():
        expected = pins.get(name)
        actual = pin(execution, options)
        if expected is None or expected[0] != actual[0]:
            unpinned.append(name)  # a new or edited example: pinned by the next regeneration
        elif expected[1] != actual[1]:
            changed.append(name)
    assert not changed, (
        f"{len(changed)} outputs changed (first: {changed[:5]}); if on purpose, run "
        "python tests/golden/regenerate.py and commit the pins with the change"
    )
    assert len(unpinned) < len(pins) // 2, "most cases are unpinned: regenerate the pins"
