"""Write a real pytest suite with a chosen number of failing and passing tests.

Usage: python pytest_suite.py DEST FAILURES PASSES

The failures cycle through seven kinds: an assertion with a message, a plain
``assert a == b`` comparison, json.loads on bad input, int('x'),
Decimal('abc'), pathlib reading a missing file, and a KeyError raised inside a
helper module of the suite.  Tests are spread over several modules.
"""

from __future__ import annotations

import sys
from pathlib import Path

HELPER = '''\
"""Helpers the tests call into."""

PRICES = {"apple": 3, "pear": 5, "plum": 7}


def price_of(item: str) -> int:
    table = dict(PRICES)
    return table[item]


def total(items: list[str]) -> int:
    return sum(price_of(i) for i in items)
'''

KINDS = 7
MODULES = ["test_cart", "test_parse", "test_money", "test_files", "test_inventory"]


def failing(i: int) -> str:
    kind = i % KINDS
    if kind == 0:
        return (
            f"def test_widget_{i}_checked():\n"
            f"    widgets = build_widgets({i % 9 + 3})\n"
            f'    assert all(w.ok for w in widgets), "widget {i} broke"\n'
        )
    if kind == 1:
        return (
            f"def test_total_matches_{i}():\n"
            f"    expected = {i * 10 + 7}\n"
            f'    got = total(["apple", "pear"]) * {i + 1}\n'
            f"    assert got == expected\n"
        )
    if kind == 2:
        return (
            f"def test_parse_payload_{i}():\n"
            f'    payload = \'{{"id": {i}, "name": unquoted}}\'\n'
            f"    data = json.loads(payload)\n"
            f'    assert data["id"] == {i}\n'
        )
    if kind == 3:
        return (
            f"def test_quantity_field_{i}():\n"
            f'    row = ["sku-{i}", "x{i}"]\n'
            f"    qty = int(row[1])\n"
            f"    assert qty > 0\n"
        )
    if kind == 4:
        return f'def test_discount_rate_{i}():\n    rate = Decimal("abc{i}")\n    assert rate < 1\n'
    if kind == 5:
        return (
            f"def test_reads_config_{i}(tmp_path):\n"
            f'    cfg = tmp_path / "conf-{i}.ini"\n'
            f"    text = cfg.read_text()\n"
            f'    assert "[main]" in text\n'
        )
    return f'def test_price_lookup_{i}():\n    assert total(["apple", "mango{i}"]) == {i}\n'


def passing(i: int) -> str:
    return f'def test_ok_{i}():\n    assert total(["apple"] * {i % 5 + 1}) == {3 * (i % 5 + 1)}\n'


HEADER = """\
import json
from decimal import Decimal

from shop_helpers import total


class Widget:
    def __init__(self, n: int) -> None:
        self.ok = n % 3 != 2


def build_widgets(n: int) -> list[Widget]:
    return [Widget(k) for k in range(n)]


"""


def main() -> None:
    dest = Path(sys.argv[1])
    fails, passes = int(sys.argv[2]), int(sys.argv[3])
    tests = dest / "tests"
    tests.mkdir(parents=True, exist_ok=True)
    (tests / "shop_helpers.py").write_text(HELPER)
    (tests / "conftest.py").write_text("import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n")
    bodies: dict[str, list[str]] = {m: [] for m in MODULES}
    for i in range(fails):
        bodies[MODULES[i % len(MODULES)]].append(failing(i))
    for i in range(passes):
        bodies[MODULES[(i * 3) % len(MODULES)]].append(passing(i))
    for mod, funcs in bodies.items():
        # interleave: keep definition order stable but mixed
        funcs.sort(key=lambda s: s.split("(")[0].rsplit("_", 1)[-1].zfill(4))
        (tests / f"{mod}.py").write_text(HEADER + "\n\n".join(funcs))


if __name__ == "__main__":
    main()
