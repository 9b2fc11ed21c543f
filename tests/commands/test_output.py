"""How commands print JSON (tokenjuice.commands.output)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.commands.output import json_text, pretty

pretty_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(st.characters(codec=None, exclude_categories=()))
    | st.sampled_from(["\ud800", 'é\n\t"\\', "\x1b[31m"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(
            st.text(max_size=6) | st.integers() | st.floats() | st.booleans() | st.none(), inner, max_size=4
        )
    ),
    max_leaves=25,
)


@settings(max_examples=500, deadline=None)
@given(pretty_values)
def test_pretty_writes_what_json_writes_with_an_indent_of_two(value):
    assert pretty(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_pretty_writes_special_numbers_and_keys_as_json_does():
    inf, nan = float("inf"), float("nan")
    value = {
        1: [inf, -inf, nan, 0.1, -0.0, 10**30],
        None: (True, False, None),
        inf: {},
        -inf: [],
        nan: "\ud800",
        2.5: "",
    }
    assert pretty(value) == json.dumps(value, indent=2, ensure_ascii=False)
    assert pretty([]) == "[]" and pretty("é") == '"é"'


def test_pretty_refuses_what_json_refuses():
    for value in ({"a": {1, 2}}, {(1, 2): 3}):
        with pytest.raises(TypeError) as theirs:
            json.dumps(value, indent=2, ensure_ascii=False)
        with pytest.raises(TypeError) as ours:
            pretty(value)
        assert str(ours.value) == str(theirs.value)


def test_json_text_is_the_json_packages_pretty_print_with_surrogates_escaped():
    value = {"a": ["é", "\ud800", 1.5, None], "b": {}}
    assert json_text(value) == json.dumps(value, indent=2, ensure_ascii=False).replace("\ud800", "\\ud800") + "\n"
