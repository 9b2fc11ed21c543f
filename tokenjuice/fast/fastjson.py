"""JSON for the hot paths, without importing the `json` package.

`import json` costs ~15 ms here (it pulls in `re`), paid by the Cursor hook and by
`wrap` on every shell command, while they only need to read a payload or a cache
file and write a small object. CPython's C accelerator `_json` does the real work
for the `json` package; this module calls it directly. On interpreters without it,
the `json` package is used. Errors are `ValueError`, as with `json.loads`.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, ClassVar

_WHITESPACE = " \t\n\r"
_INFINITY = float("inf")


class _Context:
    """What the C scanner reads from a JSONDecoder."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__
    memo: ClassVar[dict[str, str]] = {}


_scan: Callable[[str, int], tuple[Any, int]] | None
try:
    from _json import encode_basestring as _quote
    from _json import make_scanner

    _scan = make_scanner(_Context())  # type: ignore[arg-type]  # it reads a decoder's attributes
except ImportError:  # pragma: no cover - not CPython
    _scan = None
_make_encoder: Any
try:
    from _json import make_encoder as _make_encoder
except ImportError:  # pragma: no cover - not CPython
    _make_encoder = None
_encoders: dict[bool, Any] = {}


def loads(text: str | bytes) -> Any:
    if _scan is None:  # pragma: no cover - not CPython
        import json

        return json.loads(text)
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"not UTF-8: {error}") from None
    start = len(text) - len(text.lstrip(_WHITESPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration:
        raise ValueError(f"not JSON at position {start}") from None
    except SystemError:  # the scanner's error class is json.decoder's: not imported, it fails without one
        raise ValueError("not JSON") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    if text[end:].strip(_WHITESPACE):
        raise ValueError(f"extra data at position {end}")
    return value


def dumps(value: object, *, strict: bool = False) -> str:
    """Compact JSON (`separators=(",", ":")`, non-ASCII kept), like the `json` package.
    `strict` refuses (ValueError) what another program's parser may not accept:
    NaN and infinities, and strings with lone surrogates (not encodable as UTF-8)."""
    if _scan is None:  # pragma: no cover - not CPython
        import json

        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=not strict)
    elif _make_encoder is not None:
        # the C encoder `json` itself uses: the rule index's 300 KiB, ~10× faster than `_pieces`
        text = "".join(_c_encoder(strict)(value, 0))
    else:  # pragma: no cover - a CPython without _json.make_encoder
        text = "".join(_pieces(value, strict))
    if strict:
        text.encode("utf-8")  # UnicodeEncodeError is a ValueError
    return text


def _c_encoder(strict: bool) -> Any:
    """CPython's C encoder (what `json.dumps` uses), with the same output as `_pieces`."""
    encoder = _encoders.get(strict)
    if encoder is None:
        assert _make_encoder is not None
        # markers (no cycle check), default, string encoder, indent, key and item
        # separators, sort_keys, skipkeys, allow_nan
        encoder = _encoders[strict] = _make_encoder(None, _unknown, _quote, None, ":", ",", False, False, not strict)
    return encoder


def _unknown(value: object) -> object:
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _pieces(value: object, strict: bool = False) -> Iterator[str]:
    if isinstance(value, str):
        yield _quote(value)
    elif value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, int):
        yield int.__repr__(value)
    elif isinstance(value, float):
        if not -_INFINITY < value < _INFINITY:  # NaN or ±inf (without importing `math`)
            if strict:
                raise ValueError("NaN and infinities are not JSON")
            yield {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}[repr(value)]
        else:
            yield float.__repr__(value)
    elif isinstance(value, dict):
        yield "{"
        for index, (key, item) in enumerate(value.items()):
            if index:
                yield ","
            yield _quote(key if isinstance(key, str) else dumps(key).strip('"'))
            yield ":"
            yield from _pieces(item, strict)
        yield "}"
    elif isinstance(value, (list, tuple)):
        yield "["
        for index, item in enumerate(value):
            if index:
                yield ","
            yield from _pieces(item, strict)
        yield "]"
    else:
        raise TypeError(f"{type(value).__name__} is not JSON serialisable")
