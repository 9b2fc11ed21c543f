"""Compile rule patterns for matching, fast for built-ins and bounded for the rest.

The pattern dialect is the `regex` module's (VERSION0, which is `re`-compatible).
Built-in patterns are ours, reviewed and fuzzed, so they take the fast path:
stdlib `re` (already imported by every Python CLI) when it accepts them, which
keeps the 25 ms `regex` import off `wrap`. User and project patterns always run
under `regex` with a time budget shared by the whole reduction, so a catastrophic
pattern cannot hang a command's output: the reducer gets `PatternTimeout` and
falls back to the raw text.
"""

from __future__ import annotations

import re
import time

USER_PATTERN_BUDGET_SECONDS = 1.0

_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
_LEADING_GLOBAL_FLAGS = re.compile(r"^\(\?([aiLmsux]+)\)")
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=|\\g<")


class PatternTimeout(Exception):
    """A user or project pattern used up the reduction's time budget."""


class Budget:
    """The time left for untrusted patterns during one reduction."""

    __slots__ = ("deadline",)

    def __init__(self, seconds: float = USER_PATTERN_BUDGET_SECONDS) -> None:
        self.deadline = time.monotonic() + seconds

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise PatternTimeout()
        return left


def compile_checked(pattern: str, flags: str = "", ascii: bool = False):
    """Compile with the `regex` module; used to validate rules when they load."""
    import regex

    names = {"i": regex.IGNORECASE, "m": regex.MULTILINE, "s": regex.DOTALL, "x": regex.VERBOSE}
    bits = regex.VERSION0 | (regex.ASCII if ascii else 0)
    for flag in flags:
        bits |= names[flag]
    return regex.compile(pattern, bits)


def _bits(flags: str, ascii: bool) -> int:
    bits = 0
    for flag in flags:
        bits |= _FLAG_BITS[flag]
    return bits | (re.ASCII if ascii else 0)


def _scoped(pattern: str) -> str:
    """`(?i)abc` -> `(?i:abc)`, so patterns can be joined into one alternation."""
    found = _LEADING_GLOBAL_FLAGS.match(pattern)
    if not found:
        return pattern
    return f"(?{found.group(1)}:{pattern[found.end():]})"


class Matcher:
    """Tests lines against a set of patterns; `search(line)` is true if any matches."""

    __slots__ = ("search",)

    def __init__(self, patterns: list[str], flags: str = "", *, trusted: bool, ascii: bool = False,
                 budget: Budget | None = None) -> None:
        if not patterns:
            self.search = _never
            return
        combinable = len(patterns) == 1 or not any(_BACKREFERENCE.search(p) for p in patterns)
        source = "|".join(f"(?:{_scoped(p)})" for p in patterns) if combinable else None
        if trusted:
            compiled = _compile_trusted(source, patterns, flags, ascii)
            self.search = compiled
            return
        self.search = _compile_bounded(source, patterns, flags, ascii, budget or Budget())


def _never(line: str) -> bool:
    return False


def _compile_trusted(source: str | None, patterns: list[str], flags: str, ascii: bool):
    bits = _bits(flags, ascii)
    if source is not None:
        try:
            return re.compile(source, bits).search
        except re.error:
            pass
    try:
        compiled = [re.compile(p, bits).search for p in patterns]
    except re.error:  # a built-in pattern using regex-only syntax
        compiled = [compile_checked(p, flags, ascii).search for p in patterns]
    if len(compiled) == 1:
        return compiled[0]
    return lambda line: any(search(line) for search in compiled)


def _compile_bounded(source: str | None, patterns: list[str], flags: str, ascii: bool, budget: Budget):
    compiled = None
    if source is not None:
        try:
            compiled = [compile_checked(source, flags, ascii)]
        except Exception:
            compiled = None
    if compiled is None:
        compiled = [compile_checked(p, flags, ascii) for p in patterns]

    def search(line: str) -> bool:
        try:
            return any(c.search(line, timeout=budget.remaining()) for c in compiled)
        except TimeoutError:
            raise PatternTimeout() from None

    return search
