import json
import os
import shutil
import time

import pytest

from conftest import make_rule, tokenjuice, wrap_json
from tokenjuice.rules import index, loader
from tokenjuice.rules.model import Match
from tokenjuice.rules.schema import RuleError, parse_rule

MINIMAL = 'family = "demo"\n\n[match]\nargv0 = ["demo-tool"]\n'


def entry(catalogue, rule_id):
    """The match entry classification sees for `rule_id`, or None."""
    return next((rule for rule in catalogue.entries if rule.id == rule_id), None)


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
    ) == (True, True, 8, 16, 1200)


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


def test_project_layer_overrides_user_which_overrides_builtin(tmp_path, isolated_home, trust_all):
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    nested = project / "src" / "deep"
    nested.mkdir(parents=True)
    user_rules = isolated_home / ".config" / "tokenjuice" / "rules"
    make_rule(user_rules, "git/status", 'family = "user-status"\n\n[match]\nargv0 = ["git"]\n')
    make_rule(user_rules, "demo/tool", MINIMAL)
    catalogue = index.load(str(nested))
    assert entry(catalogue, "git/status").family == "user-status"
    assert catalogue.body("demo/tool").layer == "user"
    make_rule(
        project / ".tokenjuice" / "rules",
        "git/status",
        json.dumps({"id": "git/status", "family": "project-status", "match": {"argv0": ["git"]}}),
        ".json",
    )
    catalogue = index.load(str(nested))
    assert entry(catalogue, "git/status").family == "project-status"
    assert catalogue.body("git/status").layer == "project"
    assert catalogue.entries[-1].id == "generic/fallback"


def test_project_rules_are_not_taken_from_above_the_git_root(tmp_path, trust_all):
    make_rule(tmp_path / ".tokenjuice" / "rules", "demo/tool", MINIMAL)
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    assert entry(index.load(str(repo)), "demo/tool") is None
    assert entry(index.load(str(tmp_path)), "demo/tool") is not None


def test_layer_problems_are_collected_not_raised(tmp_path):
    root = tmp_path / "rules"
    make_rule(root, "ok/one", MINIMAL)
    make_rule(root, "bad/toml", "family = \n")
    make_rule(root, "bad/regex", MINIMAL + '\n[filters]\nskip_patterns = ["(unclosed"]\n')
    make_rule(root, "dup/x", MINIMAL)
    make_rule(root, "dup/x", json.dumps({"id": "dup/x", "family": "y", "match": {}}), ".json")
    make_rule(root, "toplevel", MINIMAL)
    make_rule(root, "ignored/x", "{}", ".fixture.json")
    rules, problems = loader.load_layer("user", str(root))
    assert [r.rule.id for r in rules] == ["ok/one"]
    messages = sorted(str(p).split("/rules/")[1] for p in problems)
    assert messages[0].startswith("bad/regex.toml:7: filters.skip_patterns[0]: invalid pattern '(unclosed'")
    assert messages[1].startswith("bad/toml.toml: file: not valid TOML")
    assert "duplicate rule id in the user layer: dup/x" in messages[2]
    assert "rules live in <category>/<name> files" in messages[-1]


def test_symlinked_rule_files_are_ignored(tmp_path):
    root = tmp_path / "rules"
    target = make_rule(tmp_path / "elsewhere", "demo/tool", MINIMAL)
    (root / "demo").mkdir(parents=True)
    os.symlink(target, root / "demo" / "tool.toml")
    assert loader.rule_files(str(root)) == []


def test_index_is_rebuilt_when_a_rule_file_changes(tmp_path, isolated_home):
    user_rules = isolated_home / ".config" / "tokenjuice" / "rules"
    path = make_rule(user_rules, "demo/tool", MINIMAL)
    assert entry(index.load(str(tmp_path)), "demo/tool").family == "demo"
    cache_files = sorted(p.name for p in (isolated_home / ".cache" / "tokenjuice" / "index").iterdir())
    assert len(cache_files) == 2 and cache_files[0].endswith(".bodies.json")  # bodies + match index
    time.sleep(0.01)
    path.write_text(MINIMAL.replace('"demo"', '"demo-two"'))
    assert entry(index.load(str(tmp_path)), "demo/tool").family == "demo-two"
    path.unlink()
    assert entry(index.load(str(tmp_path)), "demo/tool") is None


def test_rule_bodies_are_read_on_demand_and_rebuilt_when_lost(tmp_path, isolated_home):
    index.load(str(tmp_path))
    catalogue = index.load(str(tmp_path))  # from the cache: match entries only
    assert not catalogue._built and entry(catalogue, "git/status").family == "git-status"
    bodies = next((isolated_home / ".cache" / "tokenjuice" / "index").glob("*.bodies.json"))
    bodies.unlink()
    assert catalogue.body("git/status").summarize.max_chars > 0
    assert bodies.exists()  # rewritten for the next run
    bodies.write_text('{"git/status": null}')
    assert index.load(str(tmp_path)).body("git/diff").family == "git-diff"
    bodies.write_text('{"git/status": null}')
    assert index.load(str(tmp_path)).body("git/status").family == "git-status"


def test_index_survives_a_corrupt_or_unwritable_cache(tmp_path, isolated_home):
    cache = isolated_home / ".cache" / "tokenjuice" / "index"
    index.load(str(tmp_path))
    for file in cache.iterdir():
        file.write_text("{not json")
    assert entry(index.load(str(tmp_path)), "git/status") is not None
    for file in cache.iterdir():
        file.unlink()
    cache.chmod(0o500)
    try:
        assert entry(index.load(str(tmp_path)), "git/status") is not None
    finally:
        cache.chmod(0o700)


def test_broken_project_rule_never_breaks_wrap(repo, trust_all):
    make_rule(repo / ".tokenjuice" / "rules", "git/status", 'family = "x"\n[match]\nargv0 = "git"\n')
    make_rule(repo / ".tokenjuice" / "rules", "demo/ok", MINIMAL)
    done = tokenjuice("wrap", "--", "git", "status", cwd=repo)
    assert done.returncode == 0
    assert "new file:   n1.txt" in done.stdout.decode()
    err = done.stderr.decode()
    assert "skipped rule" in err and "git/status.toml:3: match.argv0: expected a list" in err
    assert "tokenjuice verify" in err
    payload, _ = wrap_json("git", "status", cwd=repo)
    assert payload["result"]["classification"]["matchedReducer"] == "git/status"


def test_verify_reports_broken_layers_and_fails(repo):
    make_rule(repo / ".tokenjuice" / "rules", "demo/bad", 'family = "x"\n[match]\nargv0 = "git"\n')
    done = tokenjuice("verify", cwd=repo)
    assert done.returncode == 1
    assert "demo/bad.toml:3: match.argv0: expected a list of non-empty strings" in done.stderr.decode()


def test_project_examples_run_against_the_project_catalogue(repo):
    rule = MINIMAL + ('\n[[examples]]\ncommand = "demo-tool"\nsource = "test"\noutput = "hello"\nkeep = ["hello"]\n')
    make_rule(repo / ".tokenjuice" / "rules", "demo/tool", rule)
    done = tokenjuice("verify", "--fixtures", "--only", "demo/", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert b"1/1 examples passed" in done.stdout


def test_an_installed_catalogue_is_checked_by_directory(tmp_path, isolated_home, monkeypatch):
    checkout = loader.builtin_root()
    installed = tmp_path / "site" / "tokenjuice" / "reducers"
    shutil.copytree(checkout, installed)
    monkeypatch.setattr(loader, "installed_builtin_root", lambda: str(installed))
    assert loader.builtin_root() == str(installed)
    assert entry(index.load(str(tmp_path)), "git/status").family == "git-status"
    status = installed / "git" / "status.toml"
    edited = status.read_text().replace('family = "git-status"', 'family = "edited"')
    status.write_text(edited)
    # A wheel's files are not edited in place, so the cheap check does not look at them...
    assert entry(index.load(str(tmp_path)), "git/status").family == "git-status"
    # ...but a reinstall renews their directories.
    shutil.rmtree(installed / "git")
    (installed / "git").mkdir()  # (copytree would copy the old directory's mtime too)
    for name in os.listdir(os.path.join(checkout, "git")):
        shutil.copy(os.path.join(checkout, "git", name), installed / "git" / name)
    (installed / "git" / "status.toml").write_text(edited)
    assert entry(index.load(str(tmp_path)), "git/status").family == "edited"
