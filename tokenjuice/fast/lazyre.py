"""Regular expressions compiled on first use.

The reducer's modules hold dozens of module-level patterns for the cases they
handle (git status sections, diff headers, test blocks, …); compiling them all
at import costs milliseconds on every `wrap`, while one run uses a few. A
`lazy(...)` pattern compiles the first time a method is asked for, then keeps
the compiled pattern's methods as its own attributes, so later calls cost what a
compiled pattern's do.
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
        import re  # not before: a command that prints nothing needs no pattern at all

        compiled: Any = re.compile(*self._source)
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
