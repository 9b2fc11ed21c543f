import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.rules.patterns import Lines, Matcher, _Keywords, scoped

KEYWORD_PATTERNS = [
    (r"(?i)\b(?:error|errors|not found|fail|failed|unable to)\b", ""),
    (r"\berror\b", "i"),
    (r"\bFAILED\b", ""),
    (r"(?:panic|fatal)", ""),
    (r"\b(?:warn|warning)", "i"),
]

fragments = st.sampled_from(
    list("aeirorfldnt uAEIRORFLDNT_-.:\tÉéß0")
    + ["error", "Error", "FAILED", "not found", "fail", "ÉRROR", "errors", "unable to"]
)
text = st.lists(fragments, max_size=20).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(text, max_size=30), st.sampled_from(KEYWORD_PATTERNS), st.booleans())
def test_keyword_scan_matches_exactly_what_the_regex_matches(lines, spec, ascii):
    pattern, flags = spec
    assert _Keywords.parse(pattern, flags, ascii) is not None
    matcher = Matcher([pattern], flags, trusted=True, ascii=ascii)
    regex = re.compile(scoped(pattern, flags), re.ASCII if ascii else 0)
    assert matcher.matching(Lines(lines)) == {i for i, line in enumerate(lines) if regex.search(line)}


@pytest.mark.parametrize(
    "pattern, flags",
    [("^FAILED", ""), (r"\berr.r\b", ""), ("error|", ""), (r"\bx\s\b", ""), (r"(?i)\b(?:a|b)\b", "m"), (r"a\\b", "")],
)
def test_anything_else_is_not_treated_as_keywords(pattern, flags):
    assert _Keywords.parse(pattern, flags, False) is None


def test_mixed_keyword_and_regex_patterns():
    matcher = Matcher([r"(?i)\berror\b", r"^\s+at "], trusted=True)
    lines = ["ok", "ERROR: x", "    at foo()", "terror", "at bar"]
    assert matcher.matching(Lines(lines)) == {1, 2}
    assert [bool(matcher.search(line)) for line in lines] == [False, True, True, False, False]


def test_text_whose_lowercase_changes_length_falls_back_to_lines():
    lines = ["İstanbul error", "fine"]  # 'İ'.lower() is two characters
    assert Matcher([r"(?i)\berror\b"], trusted=True).matching(Lines(lines)) == {0}
