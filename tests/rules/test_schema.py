"""The rule schema (tokenjuice.rules.schema): validation, defaults, the camelCase JSON form,
and the published JSON Schema and field reference it generates."""

import json
import tomllib

import pytest
from conftest import REPO, tokenjuice

from tokenjuice.rules.model import Match
from tokenjuice.rules.schema import RuleError, parse_rule


def check(data, rule_id="cat/name", json_style=False):
    from tokenjuice.rules.patterns import compile_checked

    return parse_rule(data, rule_id, json_style=json_style, compile_pattern=lambda p, f: compile_checked(p, f))


@pytest.mark.parametrize(
    "data, message",
    [
        ({"match": {}}, "family: required"),
        ({"family": "x"}, "match: required"),
        ({"family": "x", "match": {}, "colour": 1}, "colour: unknown field"),
        ({"family": "x", "match": {"argv1": ["a"]}}, "match.argv1: unknown match key"),
        ({"family": "x", "match": {"argv0": "git"}}, "match.argv0: expected a list of non-empty strings"),
        ({"family": "x", "match": {"argv_includes": ["a"]}}, "match.argv_includes: expected a non-empty list"),
        ({"family": "x", "match": {}, "summarize": {"head": -1}}, "summarize.head: expected a non-negative integer"),
        ({"family": "x", "match": {}, "transforms": {"strip_ansi": "yes"}}, "transforms.strip_ansi: expected true"),
        (
            {"family": "x", "match": {}, "filters": {"skip_patterns": ["("]}},
            "filters.skip_patterns[0]: invalid pattern",
        ),
        ({"family": "x", "match": {}, "counters": [{"name": "a"}]}, "counters[0].pattern: required"),
        (
            {"family": "x", "match": {}, "counters": [{"name": "a", "pattern": ""}]},
            "counters[0].pattern: expected a non-empty string",
        ),
        (
            {"family": "x", "match": {}, "counters": [{"name": "a", "pattern": "a", "flags": "q"}]},
            "counters[0].flags: expected letters",
        ),
        ({"family": "x", "match": {}, "counter_source": "sideways"}, "counter_source: expected one of"),
        ({"family": "x", "match": {}, "formatter": "magic"}, "formatter: expected one of"),
        ({"family": "x", "match": {}, "id": "other/id"}, "id: 'other/id' does not match"),
        ({"family": "x", "match": {}, "priority": "high"}, "priority: expected a number"),
        ({"family": "x", "match": {}, "examples": [{"command": "x", "output": "y"}]}, "examples[0].source: required"),
    ],
)
def test_validation_errors_name_the_field(data, message):
    with pytest.raises(RuleError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        check(data)


def test_toml_defaults():
    rule, _ = check({"family": "x", "match": {}})
    assert (
        rule.transforms.strip_ansi,
        rule.transforms.dedupe_adjacent,
        rule.summarize.head,
        rule.failure.tail,
        rule.summarize.max_chars,
    ) == (True, True, 8, 16, 0)


def test_json_camel_case_rules_from_the_original_load_with_its_defaults():
    data = {
        "$schema": "x",
        "id": "tests/jest",
        "family": "test-results",
        "match": {"argvIncludes": [["jest"]], "toolNames": ["exec"]},
        "filters": {"skipPatterns": ["^PASS"]},
        "transforms": {"stripAnsi": True},
        "summarize": {"head": 4},
        "failure": {"preserveOnFailure": True, "tail": 9},
        "counters": [{"name": "failed", "pattern": "^FAIL", "flags": "gi"}],
        "counterSource": "preKeep",
        "onEmpty": "ok",
        "matchOutput": [{"pattern": "x", "message": "y"}],
    }
    rule, _ = check(data, "tests/jest", json_style=True)
    assert rule.match == Match(argv_includes=(("jest",),), tool_names=("exec",))
    assert rule.filters.skip_patterns == ("^PASS",) and rule.transforms.strip_ansi is True
    assert (rule.summarize.head, rule.summarize.tail, rule.failure.tail, rule.transforms.dedupe_adjacent) == (
        4,
        6,
        9,
        False,
    )
    assert rule.counters[0].flags == "i" and rule.counter_source == "pre_keep"
    assert rule.ascii is True


def test_json_override_of_git_diff_keeps_its_formatter():
    rule, _ = check({"id": "git/diff", "family": "git-diff", "match": {}}, "git/diff", json_style=True)
    assert rule.formatter == "git-diff"


def test_schema_rule_is_the_published_schema(workdir):
    from tokenjuice.rules.schema import json_schema

    done = tokenjuice("schema", "rule")
    assert json.loads(done.stdout) == json_schema()
    published = json.loads((REPO / "docs" / "rule.schema.json").read_text())
    assert published == json_schema(), "docs/rule.schema.json is stale: python -m tokenjuice.rules.docs"


def test_every_builtin_rule_file_validates_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from tokenjuice.rules.schema import json_schema

    validator = jsonschema.Draft202012Validator(json_schema())
    files = sorted((REPO / "reducers").rglob("*.toml"))
    assert files
    for path in files:
        errors = [e.message for e in validator.iter_errors(tomllib.loads(path.read_text()))]
        assert not errors, (path, errors[:3])
    bad = {"family": "x", "match": {"argv0": "git"}, "colour": 1}
    assert len(list(validator.iter_errors(bad))) == 2


def test_the_rules_doc_field_reference_is_generated():
    from tokenjuice.rules.schema import fields_markdown

    text = (REPO / "docs" / "rules.md").read_text()
    start, end = "<!-- fields:start -->\n", "<!-- fields:end -->"
    assert start in text and end in text
    assert text.split(start)[1].split(end)[0] == fields_markdown(), (
        "docs/rules.md's field reference is stale: python -m tokenjuice.rules.docs"
    )
