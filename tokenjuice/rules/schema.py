"""The rule schema: validate a parsed rule file and turn it into the canonical form.

Two spellings are accepted. Our TOML files use snake_case and nested tables
(`[match]`, `[filters]`, …) and carry `[[examples]]`. JSON files written for the
TypeScript tokenjuice use camelCase; they keep working unchanged, with that
tool's defaults (no ANSI stripping, no dedupe, 6/6 head/tail, failures
summarised like successes) so an existing override behaves as it did.

The canonical form is a flat JSON-able dict; it is what the index cache stores and
what the reducer reads. Every problem is reported as `field: problem` so the
loader can print one line naming the file and the field.
"""

from __future__ import annotations

import math

FORMATTERS = ("git-diff", "search", "gh")
COUNTER_SOURCES = ("post_keep", "pre_keep", "pre_skip")
PATTERN_FLAGS = "imsx"

_MATCH_STRING_LISTS = ("argv0", "git_subcommands", "subcommands", "command_includes",
                       "command_includes_any", "tool_names")
_MATCH_GROUP_LISTS = ("argv_includes", "argv_includes_any")
MATCH_KEYS = _MATCH_STRING_LISTS + _MATCH_GROUP_LISTS + ("any_of",)

_TRANSFORMS = ("strip_ansi", "pretty_print_json", "dedupe_adjacent", "trim_empty_edges")
_TOP_LEVEL = ("id", "family", "description", "priority", "match", "filters", "transforms",
              "summarize", "failure", "counters", "counter_source", "on_empty", "match_output",
              "formatter", "examples")
_EXAMPLE_KEYS = ("name", "command", "argv", "tool_name", "exit_code", "output", "keep", "drop",
                 "expect_facts", "source")

#: Defaults for our TOML rules: what almost every rule wants.
TOML_DEFAULTS = {
    "strip_ansi": True, "pretty_print_json": False, "dedupe_adjacent": True,
    "trim_empty_edges": True, "head": 8, "tail": 8, "preserve_on_failure": True,
    "failure_head": 12, "failure_tail": 16, "max_chars": 1200, "failure_max_chars": 2400,
}
#: Defaults of the TypeScript tokenjuice, applied to its JSON rule files.
JSON_DEFAULTS = {
    "strip_ansi": False, "pretty_print_json": False, "dedupe_adjacent": False,
    "trim_empty_edges": False, "head": 6, "tail": 6, "preserve_on_failure": False,
    "failure_head": 6, "failure_tail": 12, "max_chars": 1200, "failure_max_chars": 1200,
}
#: The original selected some formatters by rule id; JSON overrides of those ids keep them.
_FORMATTER_BY_ID = {"git/diff": "git-diff", "search/rg": "search", "cloud/gh": "gh"}

_CAMEL = {
    "toolNames": "tool_names", "gitSubcommands": "git_subcommands",
    "argvIncludes": "argv_includes", "argvIncludesAny": "argv_includes_any",
    "commandIncludes": "command_includes", "commandIncludesAny": "command_includes_any",
    "skipPatterns": "skip_patterns", "keepPatterns": "keep_patterns",
    "stripAnsi": "strip_ansi", "prettyPrintJson": "pretty_print_json",
    "dedupeAdjacent": "dedupe_adjacent", "trimEmptyEdges": "trim_empty_edges",
    "preserveOnFailure": "preserve_on_failure", "counterSource": "counter_source",
    "onEmpty": "on_empty", "matchOutput": "match_output",
}


class RuleError(ValueError):
    """A rule file that cannot be used; the message is `field: problem`."""


def normalize(data: object, rule_id: str, *, json_style: bool,
              compile_pattern=None) -> tuple[dict, list[dict]]:
    """Validate `data` and return (canonical rule, examples).

    `compile_pattern(pattern, flags)` raises on a bad pattern; the loader passes the
    regex engine in, so this module stays import-light.
    """
    if not isinstance(data, dict):
        raise RuleError("rule: expected a table of fields")
    if json_style:
        data = _from_camel(data)
    unknown = [k for k in data if k not in _TOP_LEVEL]
    if unknown:
        raise RuleError(f"{unknown[0]}: unknown field (known: {', '.join(_TOP_LEVEL[1:-1])})")
    if "id" in data and data["id"] != rule_id:
        raise RuleError(f"id: {data['id']!r} does not match the file's path, which gives {rule_id!r}")
    if json_style and "examples" in data:
        raise RuleError("examples: only TOML rules carry examples")

    defaults = JSON_DEFAULTS if json_style else TOML_DEFAULTS
    rule: dict = {"id": rule_id}
    rule["family"] = _string(data, "family", required=True)
    rule["description"] = _string(data, "description", default="", allow_empty=True)
    priority = data.get("priority", 0)
    if isinstance(priority, bool) or not isinstance(priority, (int, float)) or not math.isfinite(priority):
        raise RuleError("priority: expected a number")
    rule["priority"] = priority
    if "match" not in data:
        raise RuleError("match: required (use an empty table to match everything)")
    rule["match"] = _match(data["match"], "match")

    filters = _table(data, "filters", ("skip_patterns", "keep_patterns", "pin_patterns"))
    transforms = _table(data, "transforms", _TRANSFORMS)
    summarize = _table(data, "summarize", ("head", "tail", "max_chars"))
    failure = _table(data, "failure", ("preserve_on_failure", "head", "tail", "max_chars"))
    for key in ("skip_patterns", "keep_patterns", "pin_patterns"):
        rule[key] = _string_list(filters, key, f"filters.{key}")
        for i, pattern in enumerate(rule[key]):
            _check_pattern(compile_pattern, pattern, "", f"filters.{key}[{i}]")
    for key in _TRANSFORMS:
        rule[key] = _bool(transforms, key, f"transforms.{key}", defaults[key])
    rule["head"] = _count(summarize, "head", "summarize.head", defaults["head"])
    rule["tail"] = _count(summarize, "tail", "summarize.tail", defaults["tail"])
    rule["preserve_on_failure"] = _bool(failure, "preserve_on_failure", "failure.preserve_on_failure",
                                        defaults["preserve_on_failure"])
    rule["failure_head"] = _count(failure, "head", "failure.head", defaults["failure_head"])
    rule["failure_tail"] = _count(failure, "tail", "failure.tail", defaults["failure_tail"])
    rule["max_chars"] = _count(summarize, "max_chars", "summarize.max_chars", defaults["max_chars"])
    rule["failure_max_chars"] = _count(failure, "max_chars", "failure.max_chars", defaults["failure_max_chars"])
    if rule["max_chars"] < 200 or rule["failure_max_chars"] < 200:
        raise RuleError("summarize.max_chars / failure.max_chars: budgets under 200 chars cannot hold a result")

    rule["counters"] = [
        _pattern_entry(entry, f"counters[{i}]", ("name", "pattern", "flags"), compile_pattern, json_style)
        for i, entry in enumerate(_array(data, "counters"))
    ]
    names = [c["name"] for c in rule["counters"]]
    if len(set(names)) != len(names):
        raise RuleError("counters: two counters share a name")
    source = data.get("counter_source", "post_keep")
    source = {"postKeep": "post_keep", "preKeep": "pre_keep"}.get(source, source) if json_style else source
    if source not in COUNTER_SOURCES:
        raise RuleError(f"counter_source: expected one of {', '.join(COUNTER_SOURCES)}")
    rule["counter_source"] = source
    rule["on_empty"] = _string(data, "on_empty", default=None)
    rule["match_output"] = [
        _pattern_entry(entry, f"match_output[{i}]", ("pattern", "message", "flags"), compile_pattern,
                       json_style)
        for i, entry in enumerate(_array(data, "match_output"))
    ]
    formatter = data.get("formatter", _FORMATTER_BY_ID.get(rule_id) if json_style else None)
    if formatter is not None and formatter not in FORMATTERS:
        raise RuleError(f"formatter: expected one of {', '.join(FORMATTERS)}")
    rule["formatter"] = formatter
    rule["ascii"] = json_style  # JavaScript's \d, \w and \b are ASCII-only
    examples = [_example(entry, f"examples[{i}]") for i, entry in enumerate(_array(data, "examples"))]
    return rule, examples


# -- pieces ---------------------------------------------------------------------------


def _from_camel(data: dict) -> dict:
    data = {k: v for k, v in data.items() if k != "$schema"}
    converted = {}
    for key, value in data.items():
        key = _CAMEL.get(key, key)
        if isinstance(value, dict) and key != "expect_facts":
            value = _from_camel(value)
        elif isinstance(value, list):
            value = [_from_camel(v) if isinstance(v, dict) else v for v in value]
        converted[key] = value
    return converted


def _match(value: object, field: str) -> dict:
    if not isinstance(value, dict):
        raise RuleError(f"{field}: expected a table")
    unknown = [k for k in value if k not in MATCH_KEYS]
    if unknown:
        raise RuleError(f"{field}.{unknown[0]}: unknown match key (known: {', '.join(MATCH_KEYS)})")
    match: dict = {}
    for key in _MATCH_STRING_LISTS:
        if key in value:
            match[key] = _string_list(value, key, f"{field}.{key}", non_empty=True)
    for key in _MATCH_GROUP_LISTS:
        if key in value:
            groups = value[key]
            if not isinstance(groups, list) or not groups or not all(
                isinstance(g, list) and g and all(isinstance(s, str) and s for s in g) for g in groups
            ):
                raise RuleError(f"{field}.{key}: expected a non-empty list of non-empty lists of strings")
            match[key] = groups
    if "any_of" in value:
        alternatives = value["any_of"]
        if not isinstance(alternatives, list) or not alternatives:
            raise RuleError(f"{field}.any_of: expected a non-empty list of match tables")
        match["any_of"] = [_match(alt, f"{field}.any_of[{i}]") for i, alt in enumerate(alternatives)]
    return match


def _table(data: dict, key: str, known: tuple[str, ...]) -> dict:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise RuleError(f"{key}: expected a table")
    unknown = [k for k in value if k not in known]
    if unknown:
        raise RuleError(f"{key}.{unknown[0]}: unknown field (known: {', '.join(known)})")
    return value


def _array(data: dict, key: str) -> list:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise RuleError(f"{key}: expected an array of tables")
    return value


def _string(data: dict, key: str, *, required: bool = False, default=None, allow_empty: bool = False):
    if key not in data:
        if required:
            raise RuleError(f"{key}: required")
        return default
    value = data[key]
    if not isinstance(value, str) or (not allow_empty and not value.strip()) or "\0" in value:
        raise RuleError(f"{key}: expected a non-empty string" if not allow_empty else f"{key}: expected a string")
    return value


def _string_list(data: dict, key: str, field: str, non_empty: bool = False) -> list[str]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(s, str) and s for s in value):
        raise RuleError(f"{field}: expected a list of non-empty strings")
    if non_empty and not value:
        raise RuleError(f"{field}: expected at least one string")
    return value


def _bool(data: dict, key: str, field: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise RuleError(f"{field}: expected true or false")
    return value


def _count(data: dict, key: str, field: str, default: int) -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RuleError(f"{field}: expected a non-negative integer")
    return value


def _pattern_entry(entry: dict, field: str, known: tuple[str, ...], compile_pattern,
                   json_style: bool) -> dict:
    unknown = [k for k in entry if k not in known]
    if unknown:
        raise RuleError(f"{field}.{unknown[0]}: unknown field (known: {', '.join(known)})")
    result = {}
    for key in known:
        if key == "flags":
            flags = entry.get("flags", "")
            if not isinstance(flags, str):
                raise RuleError(f"{field}.flags: expected a string of letters from {PATTERN_FLAGS!r}")
            if json_style:
                flags = "".join(f for f in flags if f not in "guy")  # JavaScript-only flags
            if any(f not in PATTERN_FLAGS for f in flags):
                raise RuleError(f"{field}.flags: expected letters from {PATTERN_FLAGS!r}, got {flags!r}")
            result["flags"] = flags
        elif key not in entry or not isinstance(entry[key], str) or not entry[key] or "\0" in entry[key]:
            raise RuleError(f"{field}.{key}: expected a non-empty string")
        else:
            result[key] = entry[key]
    _check_pattern(compile_pattern, result["pattern"], result["flags"], f"{field}.pattern")
    return result


def _check_pattern(compile_pattern, pattern: str, flags: str, field: str) -> None:
    if compile_pattern is None:
        return
    try:
        compile_pattern(pattern, flags)
    except Exception as error:  # the regex engine's own message is the useful part
        raise RuleError(f"{field}: invalid pattern {pattern!r}: {error}") from None


def _example(entry: dict, field: str) -> dict:
    unknown = [k for k in entry if k not in _EXAMPLE_KEYS]
    if unknown:
        raise RuleError(f"{field}.{unknown[0]}: unknown field (known: {', '.join(_EXAMPLE_KEYS)})")
    for key in ("command", "output", "source"):
        if not isinstance(entry.get(key), str) or (key != "output" and not entry[key].strip()):
            raise RuleError(f"{field}.{key}: required string")
    example = {
        "name": entry.get("name", entry["command"]),
        "command": entry["command"],
        "argv": entry.get("argv"),
        "tool_name": entry.get("tool_name", "exec"),
        "exit_code": entry.get("exit_code", 0),
        "output": entry["output"],
        "keep": entry.get("keep", []),
        "drop": entry.get("drop", []),
        "expect_facts": entry.get("expect_facts", {}),
        "source": entry["source"],
    }
    if not isinstance(example["name"], str):
        raise RuleError(f"{field}.name: expected a string")
    if example["argv"] is not None and not (
        isinstance(example["argv"], list) and example["argv"] and all(isinstance(a, str) for a in example["argv"])
    ):
        raise RuleError(f"{field}.argv: expected a non-empty list of strings")
    if isinstance(example["exit_code"], bool) or not isinstance(example["exit_code"], int):
        raise RuleError(f"{field}.exit_code: expected an integer")
    for key in ("keep", "drop"):
        if not isinstance(example[key], list) or not all(isinstance(s, str) and s for s in example[key]):
            raise RuleError(f"{field}.{key}: expected a list of non-empty strings")
    facts = example["expect_facts"]
    if not isinstance(facts, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in facts.values()
    ):
        raise RuleError(f"{field}.expect_facts: expected a table of counter names to counts")
    return example
