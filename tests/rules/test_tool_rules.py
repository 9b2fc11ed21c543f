"""Rules for host tools that run no shell command (issue 32): `[match] tool` globs,
classification by the tool's name, and a tool result compacted in its own shape."""

from __future__ import annotations

import json

import pytest
from conftest import REPO, rule_of

from tokenjuice.rules.classify import classify, classify_tool
from tokenjuice.rules.index import Catalogue, entry_of
from tokenjuice.rules.schema import RuleError
from tokenjuice.shell.command import analyze


def _entries(*rules):
    return [entry_of(rule) for rule in rules]


def test_a_tool_glob_with_a_character_outside_tool_names_is_refused():
    with pytest.raises(RuleError, match=r"match\.tool\[0\]: '/' cannot be in a tool-name glob"):
        rule_of("tools/x", family="x", match={"tool": ["mcp/*"]})


def test_the_most_literal_glob_wins_and_output_patterns_must_match():
    rules = _entries(
        rule_of("tools/any", family="generic", match={"tool": ["*"]}),
        rule_of("tools/json", family="tool-result", match={"tool": ["*"], "output": [r"^\s*[\[{]"]}),
        rule_of("tools/git", family="git", match={"tool": ["mcp__git__*"]}),
        rule_of("tools/diff", family="git", match={"tool": ["mcp__git__git_diff*"]}),
    )
    assert classify_tool("mcp__git__git_diff_unstaged", rules, "diff --git a/x b/x").rule.id == "tools/diff"
    assert classify_tool("mcp__git__git_log", rules, "Commit: 1").rule.id == "tools/git"
    assert classify_tool("mcp__memory__read_graph", rules, '{\n  "entities": []\n}').rule.id == "tools/json"
    assert classify_tool("mcp__fetch__fetch", rules, "Contents of http://x:").rule.id == "tools/any"


def test_a_tool_rule_never_matches_a_shell_command():
    rules = _entries(rule_of("tools/any", family="generic", match={"tool": ["*"]}))
    assert classify(analyze("git status"), rules).rule.id == "generic/fallback"
    assert classify(analyze(""), rules, "exec").rule.id == "generic/fallback"


def test_a_commands_json_output_is_never_sniffed_as_a_tool_result():
    """`mise run build` says nothing of its output's shape, so its output is sniffed; the
    tools/json fallback recognises any JSON document, but only a tool's result."""
    from tokenjuice.model import Execution
    from tokenjuice.reduce.engine import reduce
    from tokenjuice.rules import index

    catalogue = index.load(".", builtin_only=True)
    output = '{"tasks": [' + ", ".join(f'{{"name": "t{i}"}}' for i in range(400)) + "]}\n"
    reduction = reduce(Execution(command="make report", stdout=output, exit_code=0), catalogue)
    assert not reduction.classification.rule.id.startswith("tools/")


@pytest.fixture
def settings(workdir):
    from tokenjuice.settings import resolve

    return resolve(str(workdir))


def _listing(count: int) -> str:
    return "\n".join(f"/srv/project/src/module_{i:04d}/file_{i:04d}.py" for i in range(count))


def test_content_blocks_keep_their_shape_and_images_stay(settings, workdir):
    from tokenjuice.compact import compact_tool_result

    image = {"type": "image", "data": "iVBORw0KGgo" * 50, "mimeType": "image/png"}
    blocks = [{"type": "text", "text": _listing(2000)}, image]
    done = compact_tool_result("mcp__fs__search_files", blocks, cwd=str(workdir), source="test", settings=settings)
    assert done is not None and done.cut and len(done.artifact_ids) == 1
    text, kept = done.result
    assert kept == image
    assert text["type"] == "text" and len(text["text"]) < len(blocks[0]["text"]) // 5
    assert f"tokenjuice cat {done.artifact_ids[0]}" in text["text"]
    assert "/srv/project/src/module_0000/file_0000.py" in text["text"]


def test_a_structured_content_string_keeps_being_json_with_its_long_strings_compacted(settings, workdir):
    from tokenjuice.compact import compact_tool_result

    given = json.dumps({"content": _listing(2000)}, separators=(",", ":"))
    done = compact_tool_result("mcp__fs__search_files", given, cwd=str(workdir), source="test", settings=settings)
    assert done is not None and isinstance(done.result, str)
    value = json.loads(done.result)
    assert list(value) == ["content"] and len(done.result) < len(given) // 5


def test_a_text_without_structure_fills_the_tools_budget_with_its_start_and_end(settings, workdir):
    """A page or a dump with nothing to cut between: as many lines from its start and
    its end as the tool budget holds, not the 8 and 8 a command's unknown output keeps."""
    from tokenjuice.compact import compact_tool_result

    words = ("alpha", "beta", "gamma", "delta", "omega")
    text = "\n".join(f"entry {i}: " + " ".join(words[(i * k) % 5] for k in range(1, 9)) for i in range(700))
    done = compact_tool_result("mcp__notes__dump", text, cwd=str(workdir), source="test", settings=settings)
    assert done is not None and isinstance(done.result, str) and done.cut
    shown = done.result
    assert 6000 < len(shown) <= 10000
    assert "entry 0: " in shown and "entry 99: " in shown and "entry 699: " in shown
    assert "entry 400: " not in shown and " lines omitted" in shown


def test_a_result_barely_shortened_is_left_as_the_tool_said_it(settings, workdir):
    """OpenCode's grep of 100 matches (recorded): only blank lines would go, 22 of 8,421
    characters, for a trailer and a stored copy: left alone."""
    from tokenjuice.compact import compact_tool_result

    recorded = REPO / "tests" / "fixtures" / "hosts" / "opencode" / "tool.execute.after.grep-100-matches.args.json"
    text = json.loads(recorded.read_text())["output"]["output"]
    assert len(text) > 8000
    assert compact_tool_result("grep", text, cwd=str(workdir), source="test", settings=settings) is None


def test_a_call_tool_result_object_and_small_results(settings, workdir):
    from tokenjuice.compact import compact_tool_result

    big = {"content": [{"type": "text", "text": _listing(2000)}], "structuredContent": {"content": _listing(2000)}}
    done = compact_tool_result("mcp__fs__search_files", big, cwd=str(workdir), source="test", settings=settings)
    assert done is not None and set(done.result) == {"content", "structuredContent"}
    assert len(done.artifact_ids) == 2
    small = [{"type": "text", "text": "Echo: hello"}]
    assert compact_tool_result("mcp__ev__echo", small, cwd=str(workdir), source="test", settings=settings) is None
    assert compact_tool_result("mcp__ev__echo", 42, cwd=str(workdir), source="test", settings=settings) is None


def test_the_builtin_catalogue_has_the_two_fallbacks():
    from tokenjuice.rules import index

    catalogue: Catalogue = index.load(builtin_only=True)
    assert classify_tool("mcp__x__y", catalogue.entries, "plain text").rule.id == "tools/text"
    assert classify_tool("mcp__x__y", catalogue.entries, '{"a": 1}').rule.id == "tools/json"
    for document in ('[{"a": 1}]', "[\n  1,\n  2\n]", "[]", '  ["x"]', "[-1.5]", "[true]", "[null, 1]"):
        assert classify_tool("mcp__x__y", catalogue.entries, document).rule.id == "tools/json", document
    for label in ("[grep content: 73 matches across 13 file(s) under /w]", "[glob: 3 files]", "[Resource link: x]"):
        assert classify_tool("grep", catalogue.entries, label + "\n/w/a.py").rule.id == "tools/text", label


def test_a_directory_tree_keeps_something_of_every_folder(settings, workdir, tmp_path):
    """The filesystem server's directory_tree of the hosts' 601-file project: no folder's
    files are all left out (an exact cut that empties a folder gives way to a spread that
    keeps each folder's first and last entries), so the names chosen beforehand stay."""
    import os
    import sys

    from tokenjuice.compact import compact_tool_result

    sys.path.insert(0, str(REPO / "tests" / "fixtures" / "hosts" / "tools"))
    import mcp_tree

    mcp_tree.make_tree(tmp_path / "project")

    def tree(path):
        return [
            {"name": e.name, "type": "directory", "children": tree(e.path)}
            if e.is_dir()
            else {"name": e.name, "type": "file"}
            for e in sorted(os.scandir(path), key=lambda e: e.name)
        ]

    text = json.dumps(tree(tmp_path / "project"), indent=2)
    done = compact_tool_result(
        "mcp__fs__directory_tree", [{"type": "text", "text": text}], cwd=str(workdir), source="test", settings=settings
    )
    assert done is not None
    shown = done.result[0]["text"]
    assert len(shown) < len(text) / 4
    assert all(name in shown for name in mcp_tree.MUST_KEEP), [n for n in mcp_tree.MUST_KEEP if n not in shown]
    assert " 1–40 of 40 " not in shown and " 1–41 of 41 " not in shown


def test_a_directory_tree_of_folders_of_many_files_names_something_in_every_folder(settings, workdir):
    """6 apps x 4 folders x 16 modules: whole file lists for the first folders would name
    more elements, but leave most folders empty, the one file named apart among them."""
    from tokenjuice.compact import compact_tool_result

    def folder(app, sub):
        files = [f"{app}_{sub}_{i:02d}.py" for i in range(16)]
        if (app, sub) == ("shipping", "api"):
            files.append("carrier_webhooks.py")
        return {"name": sub, "type": "directory", "children": [{"name": f, "type": "file"} for f in sorted(files)]}

    apps = ("billing", "catalog", "checkout", "inventory", "shipping", "users")
    subs = ("api", "models", "services", "tests")
    tree = [{"name": app, "type": "directory", "children": [folder(app, sub) for sub in subs]} for app in apps]
    text = json.dumps(tree, indent=2)
    done = compact_tool_result(
        "mcp__fs__directory_tree", [{"type": "text", "text": text}], cwd=str(workdir), source="test", settings=settings
    )
    assert done is not None
    shown = done.result[0]["text"]
    assert len(shown) < len(text) / 2
    assert '"name": "carrier_webhooks.py"' in shown
    for app in apps:
        for sub in subs:
            assert f'"name": "{app}_{sub}_00.py"' in shown or f'"name": "{app}_{sub}_15.py"' in shown, (app, sub)
