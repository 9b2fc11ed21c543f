import json
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.fast import fastjson

values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=500, deadline=None)
@given(values)
def test_round_trips_like_the_json_package(value):
    text = fastjson.dumps(value)
    assert text == json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert fastjson.loads(text) == json.loads(text)
    assert fastjson.loads(json.dumps(value, indent=2).encode()) == value


@pytest.mark.parametrize("text", ["", "   ", "{", "[1,]", '{"a":1} x', "nul", '"\\ud800"x', b"\xff\xfe", "[" * 100_000])
def test_bad_input_is_a_value_error(text):
    with pytest.raises(ValueError):
        fastjson.loads(text)


def test_non_string_keys_and_special_floats_match_json():
    value = {1: [float("inf"), float("nan")], None: True}
    assert fastjson.dumps(value) == json.dumps(value, separators=(",", ":"))


@pytest.mark.parametrize("text", ['{"a" 1}', "[1 2]", '{"a":}', b'{"a": tru}'])
def test_bad_input_is_a_value_error_where_json_was_never_imported(monkeypatch, text):
    # the C scanner takes its error class from json.decoder, which the hook and wrap never import
    monkeypatch.delitem(sys.modules, "json.decoder")
    with pytest.raises(ValueError):
        fastjson.loads(text)


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
    assert fastjson.pretty(value) == json.dumps(value, indent=2, ensure_ascii=False)


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
    assert fastjson.pretty(value) == json.dumps(value, indent=2, ensure_ascii=False)
    assert fastjson.pretty([]) == "[]" and fastjson.pretty("é") == '"é"'


def test_pretty_refuses_what_json_refuses():
    for value in ({"a": {1, 2}}, {(1, 2): 3}):
        with pytest.raises(TypeError) as theirs:
            json.dumps(value, indent=2, ensure_ascii=False)
        with pytest.raises(TypeError) as ours:
            fastjson.pretty(value)
        assert str(ours.value) == str(theirs.value)
