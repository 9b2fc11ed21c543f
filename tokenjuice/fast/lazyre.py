"""Regular expressions compiled on first use.

The reducer's modules hold dozens of module-level patterns for the cases they
handle (git status sections, diff headers, test blocks, …); compiling them all
at import costs milliseconds on every `wrap`, while one run uses a few. A
`lazy(...)` pattern compiles the first time a method is asked for, then keeps
the compiled pattern's methods as its own attributes, so later calls cost what a
compiled pattern's do.

Compiling is itself costly: `re` parses a pattern and builds its program in Python,
~0.2-6 M instructions a pattern (a rule's alternation of a dozen patterns, the
secret patterns, a class of Unicode ranges), ~45 M for the patterns of a big
reduction. `compiled` keeps each program in the cache folder, and a later run hands
it to `_sre` as `re` would, for ~0.1 M.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any


class LazyPattern:
    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self._source = (pattern, flags)

    def __getattr__(self, name: str) -> Any:  # only for names not yet set: the first use
        compiled: Any = _compiled(*self._source)
        for method in ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split"):
            self.__dict__[method] = getattr(compiled, method)
        self.__dict__.update(pattern=compiled.pattern, flags=compiled.flags, groupindex=compiled.groupindex)
        self.__dict__["compiled"] = compiled
        return getattr(compiled, name)


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern that compiles on first use (typed as the compiled pattern it acts as)."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]


def lazy_bytes(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    """`lazy` for a pattern over bytes."""
    return LazyPattern(pattern, flags)  # type: ignore[return-value]


#: How a program's code units are read back from their bytes, by `_sre.CODESIZE`.
_WORDS = {2: "H", 4: "I"}
#: The patterns `compiled` made in this run, by (pattern, flags).
_COMPILED: dict[tuple[str | bytes, int], Any] = {}


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, its program read from the cache folder when a run
    before compiled it (the same interpreter, the same pattern and flags)."""
    return _compiled(pattern, flags)  # type: ignore[no-any-return]


def compiled_bytes(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    """`compiled` for a pattern over bytes."""
    return _compiled(pattern, flags)  # type: ignore[no-any-return]


def _compiled(pattern: str | bytes, flags: int) -> Any:
    key = (pattern, int(flags))
    found = _COMPILED.get(key)
    if found is None:
        found = _COMPILED[key] = _program(pattern, int(flags))
    return found


def _program(pattern: str | bytes, flags: int) -> Any:
    """The compiled pattern, from the program a run before stored (`_sre` checks a
    program it is given), else compiled as `re.compile` compiles it, and stored."""
    import re  # not before: a command that prints nothing needs no pattern at all

    try:
        import _sre  # type: ignore[import-not-found]  # the engine `re` compiles for
        import sys
        from re import _compiler, _parser  # type: ignore[attr-defined]  # the stdlib compiler, not public API
    except ImportError:  # pragma: no cover - not CPython
        return re.compile(pattern, flags)
    if flags & (re.DEBUG | getattr(re, "TEMPLATE", 0)):  # TEMPLATE: deprecated, gone in 3.13
        return re.compile(pattern, flags)
    from ..files import cachefile

    # what the program depends on: the interpreter (its `re`, its Unicode tables), the
    # pattern (`ascii`: a lone surrogate in a class is no UTF-8) and the flags
    key = [sys.version, sys.byteorder, _sre.MAGIC, _sre.CODESIZE, isinstance(pattern, bytes), ascii(pattern), flags]
    path = cachefile.stem("re", key) + ".json"
    stored = cachefile.read(path)
    if isinstance(stored, dict) and stored.get("key") == key:
        try:
            final, words, groups, names, by_index = stored["program"]
            code = memoryview(bytes.fromhex(words)).cast(_WORDS[_sre.CODESIZE]).tolist()  # type: ignore[call-overload]
            return _sre.compile(pattern, final, code, groups, names, tuple(by_index))
        except Exception:  # noqa: BLE001, S110 - not a program this `_sre` takes: compiled again
            pass
    try:
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for name, index in groupindex.items():
            indexgroup[index] = name
        groups = parsed.state.groups - 1
        made = _sre.compile(pattern, flags | parsed.state.flags, code, groups, groupindex, tuple(indexgroup))
        # the code units as hex (a JSON list of numbers is read ~5x slower), in the machine's order
        words = b"".join(word.to_bytes(_sre.CODESIZE, sys.byteorder) for word in code).hex()
        program = [made.flags, words, made.groups, groupindex, indexgroup]
    except Exception:  # noqa: BLE001 - an invalid pattern, or a `re` made otherwise: as `re` says
        return re.compile(pattern, flags)
    cachefile.write(path, {"key": key, "program": program})
    return made
