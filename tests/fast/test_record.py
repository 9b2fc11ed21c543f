"""record.py: the generic `__init__` used for a class's first instantiations and
the compiled one that replaces it bind arguments identically."""

import pytest

from tokenjuice.fast import record as record_mod
from tokenjuice.fast.record import field, record, replace


def make_class():
    @record
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = field(default=(), metadata={"doc": "labels"})

    return Point


CALLS = [
    ((1,), {}, (1, 0, ())),
    ((1, 2), {}, (1, 2, ())),
    ((), {"x": 3, "tags": ("a",)}, (3, 0, ("a",))),
    ((4,), {"y": 5}, (4, 5, ())),
]
ERRORS = [
    ((), {}),  # x is required
    ((1, 2, (), 4), {}),  # too many
    ((1,), {"x": 2}),  # twice
    ((1,), {"z": 2}),  # no such field
]


@pytest.mark.parametrize("compiled", [False, True])
def test_both_inits_bind_the_same_way(monkeypatch, compiled):
    monkeypatch.setattr(record_mod, "_COMPILE_AFTER", 0 if compiled else 10**9)
    point = make_class()
    for args, kwargs, expected in CALLS:
        made = point(*args, **kwargs)
        assert (made.x, made.y, made.tags) == expected
    for args, kwargs in ERRORS:
        with pytest.raises(TypeError):
            point(*args, **kwargs)
    assert ("_set" in point.__init__.__globals__) is compiled  # the generated one is in place


def test_the_compiled_init_takes_over_after_the_first_calls():
    point = make_class()
    generic = point.__init__
    made = [point(i, y=i) for i in range(record_mod._COMPILE_AFTER + 2)]
    assert point.__init__ is not generic and "_set" in point.__init__.__globals__
    assert [m.y for m in made] == list(range(record_mod._COMPILE_AFTER + 2))
    assert replace(made[0], y=9) == point(0, 9) and hash(point(1)) == hash(point(1, 0))
    with pytest.raises(AttributeError):
        made[0].x = 5
