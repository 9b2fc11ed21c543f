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

import bisect
import itertools
import re
import time

from ..fast.lazyre import compiled
from ..text import holds

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeGuard

    Search = Callable[[str], object]
    #: `_sieve_facts`: (required literal, anchored, turned away at the first character,
    #: line-bound, the class of its first character)
    Facts = tuple[str, bool, bool, bool, str]

USER_PATTERN_BUDGET_SECONDS = 1.0

_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
_LEADING_GLOBAL_FLAGS = re.compile(r"^\(\?([aiLmsux]+)\)")
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=|\\g<")
#: A named group's opening, `(?P<name>`, not escaped (an even run of backslashes before it).
_NAMED_GROUP = re.compile(r"(?<!\\)((?:\\\\)*)\(\?P<(\w+)>")


class PatternTimeout(Exception):
    """A user or project pattern used up the reduction's time budget."""


class Budget:
    """The time left for untrusted patterns during one reduction."""

    __slots__ = ("_seen", "deadline")

    def __init__(self, seconds: float = USER_PATTERN_BUDGET_SECONDS) -> None:
        self.deadline = time.monotonic() + seconds
        self._seen: tuple[str, dict[str, bool]] | None = None

    def findings(self, text: str) -> tuple[dict[str, bool], bool]:
        """Whether each literal looked for is in `text` (`Lines.holds`), and whether
        the looking starts here: the matchers of one reduction share its budget, and
        look in the same output, often for the same literals."""
        seen = self._seen
        if seen is not None and seen[0] is text:
            return seen[1], False
        found: dict[str, bool] = {}
        self._seen = (text, found)
        return found, True

    def forget(self, text: str) -> None:
        """Let go of `text` and what was found in it (the view that looked in it first
        is gone): an output is not kept for as long as the reduction."""
        if self._seen is not None and self._seen[0] is text:
            self._seen = None

    def remaining(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise PatternTimeout()
        return left


def compile_checked(pattern: str, flags: str = "", ascii: bool = False) -> Any:
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


def scoped(pattern: str, flags: str = "") -> str:
    """`(?i)abc` -> `(?i:abc)` (and `flags` likewise), so patterns with different
    flags can be joined into one alternation."""
    found = _LEADING_GLOBAL_FLAGS.match(pattern)
    if found:
        flags += found.group(1)
        pattern = pattern[found.end() :]
    return f"(?{flags}:{pattern})" if flags else pattern


def group_names(pattern: str) -> set[str]:
    """The names of the pattern's named groups (`(?P<count>…)` makes a counter add up
    the numbers it captures)."""
    return {found.group(2) for found in _NAMED_GROUP.finditer(pattern)}


def required_literal(pattern: str, flags: str = "") -> str:
    """The longest text that every match of `pattern` (with `flags`) contains (""
    when none is sure, or the pattern ignores case), so that a text without it need
    not be searched at all. Worked out once, when the catalogue index is built, for
    the patterns that classify an output; on first use, for a big output's filters."""
    return _sieve_facts(pattern, flags)[0]


def _sieve_facts(pattern: str, flags: str) -> Facts:
    """`required_literal`; whether the pattern is anchored at the start (`^`: an
    alternation of such patterns is tried at a line's start only, not at each of its
    characters); whether it then turns a line away at its first character, one
    that must be there (`^ERROR:`, `^=+ `); whether it is `joined.line_bound`; and for an
    anchored pattern that starts with neither a character nor a class (`^(?:FAILED|ERROR)`,
    `^_{3,}`), which the engine would turn a line away at once, the class of the
    characters its first character is among (`joined.opening_class`), or none."""
    from re import _constants as op  # type: ignore[attr-defined]  # the stdlib parser, not public API
    from re import _parser  # type: ignore[attr-defined]

    try:
        parsed = _parser.parse(pattern, _bits(flags, False))
    except Exception:  # noqa: BLE001 - `regex`-only syntax: no shortcut
        return "", False, False, False, ""
    from .joined import line_bound, opening_class

    bound = line_bound(parsed, bool(parsed.state.flags & re.DOTALL))
    if parsed.state.flags & re.IGNORECASE:
        return "", False, False, bound, ""

    def longest(items: Any) -> str:
        best, run = "", ""
        for code, value in items:
            if code is op.LITERAL:
                run += chr(value)
                continue
            best, run = max(best, run, key=len), ""
            if code is op.SUBPATTERN and not value[1] & re.IGNORECASE:
                inner = longest(value[3])
            elif code in (op.MAX_REPEAT, op.MIN_REPEAT, op.POSSESSIVE_REPEAT) and value[0] >= 1:
                inner = longest(value[2])
            else:
                continue
            best = max(best, inner, key=len)
        return max(best, run, key=len)

    def a_character_first(items: Any) -> bool:
        if not items:
            return False
        code, value = items[0]
        if code is op.LITERAL:
            return True
        if code in (op.MAX_REPEAT, op.MIN_REPEAT, op.POSSESSIVE_REPEAT):
            return value[0] >= 1 and len(value[2]) == 1 and value[2][0][0] is op.LITERAL
        return code is op.SUBPATTERN and not value[1] and not value[2] and a_character_first(value[3])

    anchored = (
        not parsed.state.flags & re.MULTILINE
        and not _LEADING_GLOBAL_FLAGS.match(pattern)  # `scoped` would put the anchor in a group of its own
        and len(parsed.data) > 1
        and parsed.data[0] == (op.AT, op.AT_BEGINNING)
    )
    opening = opening_class(parsed.data[1:]) if anchored and parsed.data[1][0] not in (op.LITERAL, op.IN) else ""
    return longest(parsed), anchored, anchored and a_character_first(parsed.data[1:]), bound, opening


class Lines:
    """A list of lines with lazily built whole-text views, shared by the matchers
    that scan the same lines. `within`, when given, is a text that holds every one
    of the lines (the output they were split from): what none of them can hold is
    looked for in it rather than in their join, which need not be made."""

    __slots__ = ("_first", "_held", "_lower", "_starts", "_text", "lines", "within")

    def __init__(self, lines: list[str], within: str | None = None) -> None:
        self.lines = lines
        self.within = within
        self._text: str | None = None
        self._lower: str | None = None
        self._starts: list[int] | None = None
        self._held: dict[str, bool] | None = None
        self._first: Budget | None = None  # the budget this view started the findings of

    def holds(self, literal: str, budget: Budget | None = None) -> bool:
        """Whether `literal` is in the text the lines come from (`within`, else their
        join), each literal looked for once (for all the views of one output sharing
        a budget)."""
        text = self.within if self.within is not None else self.text(False) or ""
        if self._held is None:
            self._held, first = budget.findings(text) if budget is not None else ({}, False)
            self._first = budget if first else None
        return holds(text, literal, self._held)

    def __del__(self) -> None:
        if self._first is not None:
            self._first.forget(self.within if self.within is not None else self._text or "")

    def text(self, folded: bool) -> str | None:
        """All lines joined by newlines (lower-cased when `folded`), or None when
        lower-casing would shift offsets (a few non-ASCII letters change length)."""
        if self._text is None:
            self._text = "\n".join(self.lines)
        if not folded:
            return self._text
        if self._lower is None:
            lower = self._text.lower()
            self._lower = lower if len(lower) == len(self._text) else ""
        return self._lower or None

    def line_at(self, offset: int) -> int:
        if self._starts is None:
            self._starts = list(itertools.accumulate((len(line) + 1 for line in self.lines), initial=0))
        return bisect.bisect_right(self._starts, offset) - 1


#: A built-in matcher first leaves out the patterns whose required text
#: (`required_literal`) is nowhere in the lines: one substring search of the text
#: each, against compiling every pattern and trying it at every line (most of a
#: rule's patterns name what its tool prints in other situations). The literals are
#: worked out (the stdlib parser, ~0.1 ms a pattern) once a version and kept in the
#: cache folder (`_facts`). From this many lines on, the lines' text is
#: made for the sieve even where no view has it at hand (`pipeline.count`).
SIEVE_LINES = 5_000
#: A literal shorter than this is searched for with CPython's simple loop (a longer
#: one, in a long text, with the two-way algorithm, which skips ahead).
SHORT_LITERAL = 6
#: From this many lines, a pattern anchored at the start that starts with a character
#: of its own (`^collecting \.\.\.`) is kept without a search for its literal, however
#: long: the search reads all of a big output (memory, more than instructions: a 4 MiB
#: output's ~7 MB of text, ~2-3 ms a literal), the pattern costs each line one comparison.
UNSEARCHED_LINES = 20_000
#: The sieve facts (`_sieve_facts`) of each set of patterns sieved in this run (key: flags, patterns).
_FACTS: dict[tuple[str, tuple[str, ...]], list[Facts]] = {}


class Matcher:
    """Tests lines against a set of patterns: `search(line)` is true if any
    matches, `matching(lines)` gives the indices of the matching lines."""

    __slots__ = ("_ascii", "_budget", "_flags", "_keywords", "_make", "_others", "_search", "_sievable", "scans_text")

    def __init__(
        self, patterns: list[str], flags: str = "", *, trusted: bool, ascii: bool = False, budget: Budget | None = None
    ) -> None:
        parsed = [(p, _Keywords.parse(p, flags, ascii)) for p in patterns]
        self._keywords = [keywords for _, keywords in parsed if keywords]
        rest = [p for p, keywords in parsed if not keywords]
        #: Every pattern is a keyword list, matched on the whole text at once.
        self.scans_text = bool(self._keywords) and not rest
        self._others = None
        self._flags, self._ascii, self._budget = flags, ascii, budget
        self._sievable: list[str] = []  # the patterns a sieve may leave out (built-in, one alternation)
        self._search: Search | None = _never if not patterns else None
        self._make: Callable[[], Search] = _never_made
        if not patterns:
            return
        combinable = len(patterns) == 1 or not any(_BACKREFERENCE.search(p) for p in patterns)
        source = _alternation(patterns) if combinable else None
        if trusted:
            # Compiled on first use: a big output's sieve compiles only the patterns it
            # holds, and a matcher given no line compiles nothing.
            self._make = lambda: _compile_trusted(source, patterns, flags, ascii)
            self._sievable = patterns if source is not None and not self._keywords else []
        else:
            self._search = _compile_bounded(source, patterns, flags, ascii, budget or Budget())
        if self._keywords and rest:
            self._others = Matcher(rest, flags, trusted=trusted, ascii=ascii, budget=budget).search

    @property
    def search(self) -> Search:
        """Whether any of the patterns matches a line (the first match, or None)."""
        search = self._search
        if search is None:
            search = self._search = self._make()
        return search

    def matching(self, lines: Lines) -> set[int]:
        """Indices of the lines any pattern matches. Keyword lists are found by
        scanning the whole text once per keyword, not line by line."""
        if not self._keywords:
            if not lines.lines:
                return set()
            kept = self._sieved(lines)
            if kept is None:
                return _indexes(self.search, lines.lines)
            if not kept:
                return set()
            if kept[1] is not None:  # one search of the lines' text for the starts of lines that match
                from .joined import starting_lines

                scan = _compile_trusted(_after_newline(kept[0], kept[1]), kept[0], self._flags, self._ascii, True)
                starting = starting_lines(scan, lines.text(False) or "", lines.lines[0], len(lines.lines))
                if starting is not None:
                    return starting
            search = (
                self.search
                if kept[0] is self._sievable
                else _compile_trusted(_alternation(kept[0]), kept[0], self._flags, self._ascii)
            )
            return _indexes(search, lines.lines)
        found: set[int] = set()
        for keywords in self._keywords:
            hits = keywords.matching(lines)
            if hits is None:  # the text cannot be scanned as a whole: line by line
                return _indexes(self.search, lines.lines)
            found |= hits
        if self._others is not None:
            others = self._others
            found |= {i for i, line in enumerate(lines.lines) if i not in found and others(line)}
        return found

    def _sieved(self, lines: Lines) -> tuple[list[str], list[str] | None] | tuple[()] | None:
        """The patterns whose required text the lines hold (the others cannot match
        any of them), and when their lines are best found in the lines' text at once
        (`joined.starting_lines`), the class of each one's first character (`_sieve_facts`);
        () when none is left, None when the patterns are not sieved (`search` tries
        them all, line by line)."""
        patterns = self._sievable
        if not patterns:
            return None
        facts = _facts(patterns, self._flags)
        # In an alternation of patterns anchored at the start, one that turns a line away
        # at its first character costs a line a comparison (~30 instructions): less than a
        # search for a short literal in the whole text (under SHORT_LITERAL characters the
        # search tries nearly every position, ~6 instructions a character, ~400 a line;
        # a longer one skips ahead and costs about what the comparison does). Its literal
        # is looked for only when no other pattern is left, to save the pass. Under
        # SIEVE_LINES lines every literal is looked for: the search is short, and a
        # pattern the text cannot match is not compiled. From UNSEARCHED_LINES lines a
        # long literal is not looked for either when the pattern starts with the
        # character itself (`^collecting`, not `^=+`): the engine turns a line away from
        # it at once (~10 instructions), and the search would read the whole output.
        many = len(lines.lines) >= SIEVE_LINES
        anchored = many and all(fact[1] for fact in facts)
        literals = [fact[0] for fact in facts]
        long_ok = len(lines.lines) >= UNSEARCHED_LINES
        quick = [anchored and fact[2] and (len(fact[0]) < SHORT_LITERAL or (long_ok and not fact[4])) for fact in facts]
        budget = self._budget

        def holds(literal: str) -> bool:  # each looked for once for this reduction
            return lines.holds(literal, budget)

        held = [not cheap and holds(literal) for literal, cheap in zip(literals, quick, strict=True)]
        if any(held):
            held = [kept or cheap for kept, cheap in zip(held, quick, strict=True)]
        elif any(map(holds, itertools.compress(literals, quick))):
            held = quick
        if not any(held):
            return ()
        # Many lines whose text is made (not only held by the output they came from), and
        # patterns anchored at the start that see no newline: one search of the text (the
        # ~1,000 instructions a search costs before it tries a pattern, paid once).
        kept = list(itertools.compress(facts, held))
        joined = many and lines.within is None and all(fact[1] and fact[3] for fact in kept)
        openings = [fact[4] for fact in kept] if joined else None
        return (patterns if all(held) else list(itertools.compress(patterns, held))), openings


def _after_newline(patterns: list[str], openings: list[str]) -> str:
    """What `_compile_trusted` joined compiles for patterns anchored at the start: a
    newline, then one of them. Those whose first character the engine cannot turn a
    line away at (`openings`, a class each) are tried behind one lookahead for any of
    their first characters, when there are two or more (a line costs one jump, not one
    a pattern): `^(?:a|(?=[…])(?:b|c))`, not `^a|^b|^c`."""
    unnamed = patterns if len(patterns) == 1 else [_NAMED_GROUP.sub(r"\1(?:", p) for p in patterns]
    if sum(map(bool, openings)) < 2 or not all(p.startswith("^") for p in unnamed):
        return f"\n(?:{_alternation(patterns)})"
    at_once = [f"(?:{p[1:]})" for p, opening in zip(unnamed, openings, strict=True) if not opening]
    behind = "|".join(f"(?:{p[1:]})" for p, opening in zip(unnamed, openings, strict=True) if opening)
    return "\n^(?:" + "|".join([*at_once, f"(?=[{''.join(openings)}])(?:{behind})"]) + ")"


def _alternation(patterns: list[str]) -> str:
    """One alternation telling whether any of `patterns` matches. Its groups are never
    read, and two patterns naming the same group (counters' `count`) would not compile
    together: names go, but for a single pattern (a counter reads its own)."""
    unnamed = patterns if len(patterns) == 1 else [_NAMED_GROUP.sub(r"\1(?:", p) for p in patterns]
    return "|".join(f"(?:{scoped(p)})" for p in unnamed)


def _facts(patterns: list[str], flags: str) -> list[Facts]:
    """`_sieve_facts` of each pattern, worked out once a version: kept in the cache
    folder, one file a set of patterns (a run reads the files of the matchers it
    sieves, not every pattern ever sieved), used only if it names these patterns."""
    key = (flags, tuple(patterns))
    facts = _FACTS.get(key)
    if facts is None:
        from ..files import cachefile

        path = cachefile.stem("sieve", [flags, patterns]) + ".json"
        stored = cachefile.read(path)
        stored = stored if isinstance(stored, dict) else {}
        kept = stored.get("facts")
        if stored.get("flags") == flags and stored.get("patterns") == patterns and _well_formed(kept, len(patterns)):
            facts = [(literal, anchored, first, bound, opening) for literal, anchored, first, bound, opening in kept]
        else:
            facts = [_sieve_facts(pattern, flags) for pattern in patterns]
            cachefile.write(path, {"flags": flags, "patterns": patterns, "facts": facts})
        _FACTS[key] = facts
    return facts


def _well_formed(facts: object, count: int) -> TypeGuard[list[Facts]]:
    """Are `facts` what `_facts` stores for `count` patterns: [literal, anchored, first, bound, opening] each?"""
    return (
        isinstance(facts, list)
        and len(facts) == count
        and all(
            isinstance(fact, list)
            and len(fact) == 5
            and type(fact[0]) is str
            and type(fact[1]) is bool
            and type(fact[2]) is bool
            and type(fact[3]) is bool
            and type(fact[4]) is str
            for fact in facts
        )
    )


def _indexes(search: Search, lines: list[str]) -> set[int]:
    """The indexes of the lines `search` finds something in, iterated in C."""
    return set(itertools.compress(itertools.count(), map(search, lines)))


class _Keywords:
    """A pattern that is only a list of words — `(?i)\\b(?:error|fatal|not found)\\b` —
    matched by substring search: the regex engine tries every alternative at every
    position, which is the slowest thing a reduction does on large outputs."""

    __slots__ = ("ascii", "folded", "left", "right", "words")
    _WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _-]*\Z")

    def __init__(self, words: list[str], folded: bool, left: bool, right: bool, ascii: bool) -> None:
        self.words = words
        self.folded = folded
        self.left = left
        self.right = right
        self.ascii = ascii

    @classmethod
    def parse(cls, pattern: str, flags: str, ascii: bool) -> _Keywords | None:
        if flags.replace("i", ""):
            return None
        folded = "i" in flags
        if pattern.startswith("(?i)"):
            folded, pattern = True, pattern[4:]
        left = pattern.startswith("\\b")
        right = pattern.endswith("\\b") and not pattern.endswith("\\\\b")
        pattern = pattern[2 if left else 0 : len(pattern) - (2 if right else 0)]
        if pattern.startswith("(?:") and pattern.endswith(")"):
            pattern = pattern[3:-1]
        words = pattern.split("|")
        if not all(cls._WORD.match(w) and w[-1].isalnum() for w in words):
            return None
        return cls([w.lower() if folded else w for w in words], folded, left, right, ascii)

    def _is_word(self, char: str) -> bool:
        if self.ascii:
            return char.isascii() and (char.isalnum() or char == "_")
        return char.isalnum() or char == "_"

    def matching(self, lines: Lines) -> set[int] | None:
        text = lines.text(self.folded)
        if text is None:
            return None
        found: set[int] = set()
        size = len(text)
        for word in self.words:
            position = text.find(word)
            while position >= 0:
                end = position + len(word)
                if (not self.left or position == 0 or not self._is_word(text[position - 1])) and (
                    not self.right or end == size or not self._is_word(text[end])
                ):
                    found.add(lines.line_at(position))
                position = text.find(word, position + 1)
        return found


def _never(line: str) -> object:
    return False


def _never_made() -> Search:
    return _never


def _compile_trusted(source: str | None, patterns: list[str], flags: str, ascii: bool, joined: bool = False) -> Search:
    """`search` of the patterns (`source`, their alternation, when they combine); when
    `joined`, the `finditer` of `source` (`_after_newline`) multi-line, for
    `joined.starting_lines` (every pattern line-bound and anchored)."""
    bits = _bits(flags, ascii)
    if joined:
        scan: Search = compiled(source or "", bits | re.MULTILINE).finditer
        return scan
    if source is not None:
        try:
            return compiled(source, bits).search
        except re.error:
            pass
    try:
        searches = [compiled(p, bits).search for p in patterns]
    except re.error:  # a built-in pattern using regex-only syntax
        searches = [compile_checked(p, flags, ascii).search for p in patterns]
    if len(searches) == 1:
        return searches[0]
    return lambda line: any(search(line) for search in searches)


def _compile_bounded(source: str | None, patterns: list[str], flags: str, ascii: bool, budget: Budget) -> Search:
    # Compiling spends the same budget as matching: a rule of 20,000 counters must not stall every wrap.
    budget.remaining()
    compiled = None
    if source is not None:
        try:
            compiled = [compile_checked(source, flags, ascii)]
        except Exception:  # noqa: BLE001 - a combination regex refuses: compile one by one
            compiled = None
    if compiled is None:
        compiled = []
        for pattern in patterns:
            budget.remaining()
            compiled.append(compile_checked(pattern, flags, ascii))

    def search(line: str) -> object:
        """The first pattern's match on `line` (a counter reads its groups), or None."""
        try:
            for pattern in compiled:
                found = pattern.search(line, timeout=budget.remaining())
                if found:
                    return found
            return None
        except TimeoutError:
            raise PatternTimeout() from None

    return search
