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
