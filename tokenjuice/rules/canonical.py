"""The canonical form of a rule: plain JSON-able data, as the catalogue index stores it.

`to_canonical` turns a validated `Rule` into lists and dicts; `from_canonical` turns
them back into records without validating again (they were validated when the
index was written). It is apart from schema.py, which validates rule files and
derives the JSON Schema and the docs, so that `wrap` — which reads the index on
every command — never loads the validator.
"""

from __future__ import annotations

from ..fast import record
from . import model

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from ..fast.record import Field
    from .model import Rule


def table_type(field: Field) -> type:
    """The record type of a `TABLE` or `TABLES` field."""
    return model.TABLE_TYPES[field.metadata["table_type"]]


def to_canonical(rule: Rule) -> dict[str, Any]:
    """The rule as plain JSON-able data (tuples become lists)."""
    result: dict[str, Any] = record.as_dict(rule)
    return result


def from_canonical(cls: type[Any], data: dict[str, Any]) -> Any:
    """Rebuild a record from `to_canonical` data (or the same without its empty
    fields), trusting it: it was validated when the cache was written, and the
    hot path pays no validation."""
    converters = _CONVERTERS.get(cls) or _converters(cls)
    return cls(**{key: converters[key](value) for key, value in data.items() if key in converters})


_CONVERTERS: dict[type, dict[str, Callable[[Any], Any]]] = {}


def _converters(cls: type) -> dict[str, Callable[[Any], Any]]:
    """How each field of `cls` is rebuilt from JSON data."""
    converters: dict[str, Callable[[Any], Any]] = {}
    for field in record.fields(cls):
        kind = field.metadata.get("kind")
        if kind == model.TABLE:
            converters[field.name] = _table_converter(table_type(field))
        elif kind == model.TABLES:
            converters[field.name] = _tables_converter(table_type(field))
        elif kind == model.WORD_GROUPS:
            converters[field.name] = lambda value: tuple(map(tuple, value))
        elif kind in (model.WORDS, model.PATTERNS):
            converters[field.name] = tuple
        else:
            converters[field.name] = _same
    _CONVERTERS[cls] = converters
    return converters


def _table_converter(table: type) -> Callable[[Any], Any]:
    return lambda value: from_canonical(table, value)


def _tables_converter(table: type) -> Callable[[Any], Any]:
    return lambda value: tuple(from_canonical(table, item) for item in value)


def _same(value: Any) -> Any:
    return value


def compact(data: Any) -> Any:
    """Canonical data without its empty lists (they are the defaults)."""
    if isinstance(data, dict):
        return {key: compact(value) for key, value in data.items() if value != []}
    if isinstance(data, list):
        return [compact(item) for item in data]
    return data
