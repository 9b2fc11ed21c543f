"""Everything derived from the rule declarations in `model.py`.

- `parse_rule`: validate a parsed rule file (our TOML snake_case, or the original's
  JSON camelCase with its defaults) into a `Rule` and its examples; every problem
  is a `RuleError` whose message starts with the field (`filters.skip_patterns[2]:
  invalid pattern …`), so the loader can print one line naming file, line and field.
- `json_schema`: the JSON Schema of a TOML rule file (`tokenjuice schema rule`,
  docs/rule.schema.json).
- `fields_markdown`: the field reference in docs/rules.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..fast import record
from ..fast.record import MISSING, Field
from . import model
from .model import Example, Rule, table_type

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

CompilePattern = Callable[[str, str], object]

#: The original selected some formatters by rule id; JSON overrides of those ids keep them.
_FORMATTER_BY_ID = {"git/diff": "git-diff", "search/rg": "search", "cloud/gh": "gh"}
_JAVASCRIPT_FLAGS = "guy"
#: Hard caps (docs/security.md): a pattern's length, and how deep `any_of` tables nest.
MAX_PATTERN_CHARS = 4096
MAX_ANY_OF_DEPTH = 4


class RuleError(ValueError):
    """A rule file that cannot be used; the message is `field: problem`, and `line`
    where the field is in the file (filled in by the loader)."""

    line: int | None = None


def _fields(cls: type) -> tuple[Field, ...]:
    return tuple(f for f in record.fields(cls) if f.metadata)


# -- validation -------------------------------------------------------------------------


def parse_rule(
    data: object, rule_id: str, *, json_style: bool, compile_pattern: CompilePattern | None = None
) -> tuple[Rule, tuple[Example, ...]]:
    """Validate `data` (a parsed rule file) and return the rule and its examples.

    `compile_pattern(pattern, flags)` raises on a bad pattern; the loader passes the
    regex engine in, so this module stays import-light."""
    if not isinstance(data, dict):
        raise RuleError("rule: expected a table of fields")
    data = dict(data)
    if json_style:
        data.pop("$schema", None)
        if "examples" in data:
            raise RuleError("examples: only TOML rules carry examples")
    declared = data.pop("id", rule_id)
    if declared != rule_id:
        raise RuleError(f"id: {declared!r} does not match the file's path, which gives {rule_id!r}")
    raw_examples = data.pop("examples", [])
    checker = _Checker(json_style, compile_pattern)
    values = checker.table(Rule, data, "")
    if json_style and "formatter" not in data:
        values["formatter"] = _FORMATTER_BY_ID.get(rule_id)
    rule = Rule(**values, id=rule_id, ascii=json_style)
    names = [counter.name for counter in rule.counters]
    if len(set(names)) != len(names):
        raise RuleError("counters: two counters share a name")
    if not isinstance(raw_examples, list) or not all(isinstance(e, dict) for e in raw_examples):
        raise RuleError("examples: expected an array of tables")
    examples = []
    for index, entry in enumerate(raw_examples):
        example = Example(**checker.table(Example, entry, f"examples[{index}]."))
        if not example.name:
            example = record.replace(example, name=example.command)
        examples.append(example)
    return rule, tuple(examples)


class _Checker:
    """Checks one file's tables against their declarations."""

    def __init__(self, json_style: bool, compile_pattern: CompilePattern | None) -> None:
        self.json_style = json_style
        self.compile_pattern = compile_pattern

    def table(self, cls: type, data: object, prefix: str) -> dict[str, Any]:
        """Field name -> checked value for one table; missing fields get the
        declared default (the original's, for its JSON rules)."""
        where = prefix[:-1] if prefix else "rule"
        if not isinstance(data, dict):
            raise RuleError(f"{where}: expected a table")
        fields = _fields(cls)
        by_key = {(f.metadata["camel"] or f.name) if self.json_style else f.name: f for f in fields}
        if self.json_style:  # the original also accepted snake_case spellings here and there
            by_key.update({f.name: f for f in fields if f.name not in by_key})
        unknown = [key for key in data if key not in by_key]
        if unknown:
            noun = "match key" if cls is model.Match else "field"
            known = ", ".join(f.name for f in fields)
            raise RuleError(f"{prefix}{unknown[0]}: unknown {noun} (known: {known})")
        values: dict[str, Any] = {}
        for key, value in data.items():
            field = by_key[key]
            values[field.name] = self.value(field, value, prefix + field.name)
        for field in fields:
            if field.name in values:
                continue
            if field.metadata["required"]:
                hint = " (use an empty table to match everything)" if field.name == "match" else ""
                suffix = " string" if cls is Example else ""
                raise RuleError(f"{prefix}{field.name}: required{suffix}{hint}")
            if not self.json_style:
                continue  # the declared default applies
            if field.metadata["kind"] == model.TABLE:  # an absent table still gets the original's defaults
                table = table_type(field)
                values[field.name] = table(**self.table(table, {}, f"{prefix}{field.name}."))
            elif field.metadata["json_default"] is not MISSING:
                values[field.name] = field.metadata["json_default"]
        return values

    def value(self, field: Field, value: object, where: str) -> Any:
        meta = field.metadata
        kind = meta["kind"]
        if kind == model.TEXT:
            if not isinstance(value, str) or "\0" in value or (not meta["allow_empty"] and not value.strip()):
                raise RuleError(
                    f"{where}: expected a string" if meta["allow_empty"] else f"{where}: expected a non-empty string"
                )
            return value
        if kind == model.FLAG:
            if not isinstance(value, bool):
                raise RuleError(f"{where}: expected true or false")
            return value
        if kind == model.COUNT:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise RuleError(f"{where}: expected a non-negative integer")
            if meta["minimum"] is not None and 0 < value < meta["minimum"]:
                raise RuleError(
                    f"{where}: budgets under {meta['minimum']} chars cannot hold a result "
                    "(0 uses the information budget)"
                )
            return value
        if kind == model.NUMBER:
            integer = field.type == "int"
            if (
                isinstance(value, bool)
                or not isinstance(value, int if integer else (int, float))
                or not math.isfinite(value)
            ):
                raise RuleError(f"{where}: expected an integer" if integer else f"{where}: expected a number")
            return value
        if kind in (model.WORDS, model.PATTERNS, model.GLOBS):
            if not isinstance(value, list) or not all(isinstance(s, str) and s for s in value):
                raise RuleError(f"{where}: expected a list of non-empty strings")
            if meta["non_empty"] and not value:
                raise RuleError(f"{where}: expected at least one string")
            unknown = [word for word in value if meta["choices"] and word not in meta["choices"]]
            if unknown:
                raise RuleError(f"{where}: {unknown[0]!r} is not one of {', '.join(meta['choices'])}")
            if kind == model.PATTERNS:
                for index, pattern in enumerate(value):
                    self.pattern(pattern, "", f"{where}[{index}]")
            if kind == model.GLOBS:
                for index, glob in enumerate(value):
                    odd = sorted(set(glob) - model.GLOB_CHARS)
                    if odd:
                        raise RuleError(
                            f"{where}[{index}]: {odd[0]!r} cannot be in a tool-name glob "
                            "(use letters, digits, _ - . : and the wildcards * and ?)"
                        )
            return tuple(value)
        if kind == model.PATTERN:
            if not isinstance(value, str) or not value or "\0" in value:
                raise RuleError(f"{where}: expected a non-empty string")
            return value
        if kind == model.FLAGS:
            if not isinstance(value, str):
                raise RuleError(f"{where}: expected a string of letters from {model.PATTERN_FLAGS!r}")
            if self.json_style:
                value = "".join(f for f in value if f not in _JAVASCRIPT_FLAGS)
            if any(f not in model.PATTERN_FLAGS for f in value):
                raise RuleError(f"{where}: expected letters from {model.PATTERN_FLAGS!r}, got {value!r}")
            return value
        if kind == model.WORD_GROUPS:
            if (
                not isinstance(value, list)
                or not value
                or not all(isinstance(g, list) and g and all(isinstance(s, str) and s for s in g) for g in value)
            ):
                raise RuleError(f"{where}: expected a non-empty list of non-empty lists of strings")
            return tuple(tuple(group) for group in value)
        if kind == model.CHOICE:
            if self.json_style:
                value = meta["camel_choices"].get(value, value)
            if value not in meta["choices"]:
                raise RuleError(f"{where}: expected one of {', '.join(meta['choices'])}")
            return value
        if kind == model.COUNTS:
            if not isinstance(value, dict) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value.values()
            ):
                raise RuleError(f"{where}: expected a table of counter names to counts")
            return dict(value)
        if kind == model.TABLE:
            cls = table_type(field)
            return cls(**self.table(cls, value, where + "."))
        if kind == model.TABLES:
            cls = table_type(field)
            if cls is model.Match and where.count("any_of") > MAX_ANY_OF_DEPTH:
                raise RuleError(f"{where}: any_of nested more than {MAX_ANY_OF_DEPTH} deep")
            if (
                not isinstance(value, list)
                or not all(isinstance(v, dict) for v in value)
                or (meta["non_empty"] and not value)
            ):
                raise RuleError(
                    f"{where}: expected a non-empty list of match tables"
                    if cls is model.Match
                    else f"{where}: expected an array of tables"
                )
            items = [cls(**self.table(cls, v, f"{where}[{i}].")) for i, v in enumerate(value)]
            for index, item in enumerate(items):
                if isinstance(item, (model.Counter, model.OutputMatch)):
                    self.pattern(item.pattern, item.flags, f"{where}[{index}].pattern")
            return tuple(items)
        raise AssertionError(f"undeclared kind {kind}")  # pragma: no cover - a bug in model.py

    def pattern(self, pattern: str, flags: str, where: str) -> None:
        if len(pattern) > MAX_PATTERN_CHARS:
            raise RuleError(f"{where}: a pattern of {len(pattern)} characters; at most {MAX_PATTERN_CHARS}")
        if self.compile_pattern is None:
            return
        try:
            self.compile_pattern(pattern, flags)
        except Exception as error:  # noqa: BLE001 - the regex engine's own message is the useful part
            raise RuleError(f"{where}: invalid pattern {pattern!r}: {error}") from None


# -- JSON Schema and docs ---------------------------------------------------------------

_JSON_TYPES: dict[str, dict[str, Any]] = {
    model.TEXT: {"type": "string"},
    model.FLAG: {"type": "boolean"},
    model.COUNT: {"type": "integer", "minimum": 0},
    model.NUMBER: {"type": "number"},
    model.PATTERN: {"type": "string", "minLength": 1, "format": "regex"},
    model.FLAGS: {"type": "string", "pattern": f"^[{model.PATTERN_FLAGS}]*$"},
}


def json_schema() -> dict[str, Any]:
    """JSON Schema (draft 2020-12) of a TOML rule file, for editors and CI."""
    definitions = {name: _object_schema(cls) for name, cls in model.TABLE_TYPES.items() if cls is not Rule}
    root = _object_schema(Rule)
    root["properties"]["examples"] = {
        "type": "array",
        "items": {"$ref": "#/$defs/Example"},
        "description": "Real runs that prove the rule.",
    }
    root["properties"]["id"] = {
        "type": "string",
        "description": "Optional; must equal the file's path under its layer, without the extension.",
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/tokenjuice/tokenjuice/docs/rule.schema.json",
        "title": "tokenjuice reducer rule",
        **root,
        "$defs": definitions,
    }


def _object_schema(cls: type) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required = []
    for field in _fields(cls):
        properties[field.name] = _field_schema(field)
        if field.metadata["required"]:
            required.append(field.name)
    schema: dict[str, Any] = {
        "type": "object",
        "description": " ".join((cls.__doc__ or "").split("\n\n")[0].split()),  # the first paragraph, whole
        "properties": properties,
        "additionalProperties": False,
    }
    if required:
        schema["required"] = required
    return schema


def _field_schema(field: Field) -> dict[str, Any]:
    meta = field.metadata
    kind = meta["kind"]
    schema: dict[str, Any]
    if kind in _JSON_TYPES:
        schema = dict(_JSON_TYPES[kind])
        if kind == model.TEXT and not meta["allow_empty"]:
            schema["minLength"] = 1
        if kind == model.COUNT and meta["minimum"] is not None:
            schema = {"anyOf": [{"const": 0}, {"type": "integer", "minimum": meta["minimum"]}]}
    elif kind in (model.WORDS, model.PATTERNS, model.GLOBS):
        item = {"type": "string", "minLength": 1} | ({"format": "regex"} if kind == model.PATTERNS else {})
        if kind == model.GLOBS:
            item["pattern"] = "^[A-Za-z0-9_.:*?-]+$"
        schema = {"type": "array", "items": item} | ({"minItems": 1} if meta["non_empty"] else {})
    elif kind == model.WORD_GROUPS:
        schema = {
            "type": "array",
            "minItems": 1,
            "items": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1}},
        }
    elif kind == model.CHOICE:
        schema = {"enum": list(meta["choices"])}
    elif kind == model.COUNTS:
        schema = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
    elif kind == model.TABLE:
        schema = {"$ref": f"#/$defs/{meta['table_type']}"}
    else:  # TABLES
        schema = {"type": "array", "items": {"$ref": f"#/$defs/{meta['table_type']}"}}
        if meta["non_empty"]:
            schema["minItems"] = 1
    schema["description"] = meta["doc"]
    if field.default is not MISSING and kind not in (model.TABLE, model.TABLES) and field.default not in (None, ()):
        schema["default"] = field.default
    return schema


def fields_markdown() -> str:
    """The field reference of docs/rules.md: every table and field, its type, its
    TOML default, the original's JSON default when different, and what it does."""
    lines = ["| field | type | default | JSON rules (camelCase) | meaning |", "|---|---|---|---|---|"]

    def walk(cls: type, prefix: str, seen: tuple[type, ...]) -> None:
        for field in _fields(cls):
            meta = field.metadata
            name = prefix + field.name
            kind = meta["kind"]
            if kind == model.TABLE:
                walk(table_type(field), name + ".", seen + (cls,))
                continue
            table = table_type(field) if kind == model.TABLES else None
            type_name = {model.TABLES: f"array of `{meta['table_type']}`"}.get(kind, kind)
            default = field.default
            shown = (
                "required"
                if meta["required"]
                else ("—" if default in (None, (), MISSING, "") else f"`{_toml(default)}`")
            )
            json_default = meta["json_default"]
            camel = meta["camel"] or field.name
            json_shown = camel + (f" (default `{_toml(json_default)}`)" if json_default is not MISSING else "")
            lines.append(
                f"| `{name}` | {type_name} | {shown} | `{json_shown.split(' ')[0]}`"
                f"{json_shown[len(camel) :]} | {meta['doc']} |"
            )
            if table is not None and table not in seen and table is not cls:
                walk(table, f"{name}[].", seen + (cls,))

    walk(Rule, "", ())
    lines.append("| `examples` | array of `Example` | — | (TOML rules only) | Real runs that prove the rule. |")
    walk(model.Example, "examples[].", (Rule,))
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)
