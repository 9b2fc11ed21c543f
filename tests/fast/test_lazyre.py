"""`lazyre.compiled`: a pattern's program kept in the cache folder, read back by a
later run instead of parsed and compiled again, and the same pattern either way."""

import _sre
import re
import sys

import pytest

from tokenjuice.fast import lazyre

SAMPLES = [
    (r"^(?P<file>[^\s:]+\.py)::(?P<test>\S+) (?:PASSED|FAILED)\b", 0),
    (r"(?i)\b(?:error|warning)s?\b", 0),
    (r"^=+ (?P<count>\d+) passed", re.MULTILINE),
    (r"\x1b(?:\][^\x07\x1b\n]*+(?:\x07|\x1b\\)|\[[0-?]*+[ -/]*+(?:[@-~]|\Z)|[ -/]*+[0-~]|)", 0),
    ("[\ud800-\udfff]", 0),  # lone surrogates in the pattern: stored escaped
    (r"(a)(b)?(?P<c>c)|d", re.IGNORECASE | re.ASCII),
    (r"K", re.IGNORECASE),  # the Kelvin sign matches: the interpreter's case tables
]
TEXTS = [
    "tests/a.py::test_b PASSED",
    "ERRORS here\n=== 3 passed in 1s",
    "\x1b[31mred\x1b[0m \x1b]0;title\x07",
    "lone \ud800 surrogate",
    "ABC abd d \u212a",
    "",
]


def a_new_run(monkeypatch):
    monkeypatch.setattr(lazyre, "_COMPILED", {})


def same(made, wanted):
    assert (made.pattern, made.flags, made.groups, made.groupindex) == (
        wanted.pattern,
        wanted.flags,
        wanted.groups,
        wanted.groupindex,
    )
    for text in TEXTS:
        assert [m.span() for m in made.finditer(text)] == [m.span() for m in wanted.finditer(text)]
        assert [m.groups() for m in made.finditer(text)] == [m.groups() for m in wanted.finditer(text)]


@pytest.mark.parametrize(("pattern", "flags"), SAMPLES)
def test_a_program_read_back_is_the_pattern_re_compiles(monkeypatch, pattern, flags):
    a_new_run(monkeypatch)
    same(lazyre.compiled(pattern, flags), re.compile(pattern, flags))
    a_new_run(monkeypatch)
    from re import _parser

    monkeypatch.setattr(_parser, "parse", lambda *a: pytest.fail("parsed again"))
    same(lazyre.compiled(pattern, flags), re.compile(pattern, flags))


def test_a_bytes_pattern_and_a_str_pattern_are_kept_apart(monkeypatch):
    a_new_run(monkeypatch)
    assert lazyre.compiled_bytes(rb"\d+").findall(b"a 12 b 3") == [b"12", b"3"]
    a_new_run(monkeypatch)
    assert lazyre.compiled(r"\d+").findall("a 12 b 3") == ["12", "3"]
    assert lazyre.compiled_bytes(rb"\d+").findall(b"7") == [b"7"]


def test_a_program_the_engine_refuses_is_compiled_again(monkeypatch):
    from pathlib import Path

    from tokenjuice import paths
    from tokenjuice.files import cachefile

    a_new_run(monkeypatch)
    lazyre.compiled(r"ab+c")
    stored = list(Path(paths.cache_dir(), "re").glob("*.json"))
    assert len(stored) == 1
    entry = cachefile.read(str(stored[0]))
    wrong = b"".join(word.to_bytes(_sre.CODESIZE, sys.byteorder) for word in (999, 1, 2)).hex()  # no opcode
    entry["program"][1] = wrong
    cachefile.write(str(stored[0]), entry)
    a_new_run(monkeypatch)
    assert lazyre.compiled(r"ab+c").search("xabbbc").span() == (1, 6)
    assert cachefile.read(str(stored[0]))["program"][1] != wrong  # stored again, right


def test_an_invalid_pattern_fails_as_re_compile_does(monkeypatch):
    a_new_run(monkeypatch)
    with pytest.raises(re.error, match="missing \\)"):
        lazyre.compiled(r"(ab")


def test_a_run_compiles_a_pattern_once(monkeypatch):
    a_new_run(monkeypatch)
    assert lazyre.compiled(r"x+") is lazyre.compiled(r"x+")
    assert lazyre.lazy(r"x+").search("axx").span() == (1, 3)
