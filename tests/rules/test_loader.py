"""Rule layers (tokenjuice.rules.loader): builtin, user and project, what each may hold, and
broken files that are reported, never raised."""

import json
import os
import shutil

from conftest import make_rule, tokenjuice, wrap_json
from helpers import MINIMAL, entry

from tokenjuice.rules import index, loader


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
