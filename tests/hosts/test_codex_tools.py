"""Codex's PostToolUse for MCP tools (issue 32): the text the model would have read of a
result (the JSON of its `structuredContent`, else its text blocks) compacted and handed
back as a `decision: block` reason, file reads, errors and images left alone,
`install --tools`, doctor's tools line; and, when Codex 0.169.0 and the reference MCP
filesystem server are installed, Codex itself showing the model the compacted listing
and a file read byte for byte, with the hook approved through `install --approve`."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import hostclis
import jsonschema
import pytest
from conftest import REPO, tokenjuice

from tests.fixtures.hosts.tools import mcp_tree
from tests.hosts.test_codex import FIXTURES, function_call_outputs, schema
from tokenjuice.hosts import codex

CORPUS = REPO / "tests" / "tools-corpus"


def corpus(name):
    return json.loads((CORPUS / f"{name}.json").read_text())


def mcp_payload(cwd, tool, response):
    """A PostToolUse payload as Codex 0.169.0 sent it for an MCP call (payloads/posttooluse.mcp.input.json)."""
    data = json.loads((FIXTURES / "payloads" / "posttooluse.mcp.input.json").read_text())
    return data | {"cwd": str(cwd), "tool_name": tool, "tool_response": response}


def post_hook(data, env=None):
    done = tokenjuice("hook", "codex", input=json.dumps(data), env=env)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answer = json.loads(done.stdout)
    jsonschema.validate(answer, schema("post-tool-use.command.output.schema.json"))
    return answer


def reason(answer):
    assert set(answer) == {"decision", "reason"} and answer["decision"] == "block", answer
    return answer["reason"]


def whole(text):
    """The full text a compaction's trailer names (`tokenjuice cat ID`)."""
    artifact = text.rsplit("tokenjuice cat ", 1)[1].split(")")[0].split()[0]
    done = tokenjuice("cat", artifact)
    assert done.returncode == 0
    return done.stdout.decode()


def test_a_result_with_structured_content_comes_back_as_the_json_the_model_reads(codex_home, workdir):
    result = corpus("mcp-fs-search-files-py")
    shown = codex.model_text(result)
    assert shown == json.dumps(result["structuredContent"], separators=(",", ":"), ensure_ascii=False)
    text = reason(post_hook(mcp_payload(workdir, "mcp__filesystem__search_files", result)))
    assert len(text) < len(shown) / 2
    compacted = json.loads(text)["content"]  # the same JSON object, its listing compacted
    original = result["structuredContent"]["content"]
    if "tokenjuice cat " in compacted:
        assert whole(compacted) == original
    else:
        from tokenjuice.reduce.reencode import decoded

        assert sorted(decoded(compacted).split("\n")) == sorted(original.splitlines())  # grouped by folder


def test_text_blocks_come_back_as_their_text_compacted(codex_home, workdir):
    result = corpus("mcp-git-log-50")
    assert "structuredContent" not in result and result["isError"] is False
    text = reason(post_hook(mcp_payload(workdir, "mcp__git__git_log", result)))
    assert len(text) < len(result["content"][0]["text"]) * 0.6  # its budget, 20,000 characters
    assert "Commit: 4b1c95a6296ef7b717484f1204cf56d9801232ec" in text and "tokenjuice cat" in text
    assert whole(text) == result["content"][0]["text"]
    two = {"content": [result["content"][0], {"type": "text", "text": "second block"}]}
    assert codex.model_text(two) == result["content"][0]["text"] + "\nsecond block"


@pytest.mark.parametrize(
    "tool", ["mcp__fs__read_text_file", "mcp__fs__read_file", "mcp__my__fs__read_multiple_files", "Read", "web_search"]
)
def test_file_reads_and_other_tools_are_left_alone(codex_home, workdir, tool):
    assert post_hook(mcp_payload(workdir, tool, corpus("mcp-git-log-50"))) == {}


def test_errors_images_and_other_shapes_are_left_alone(codex_home, workdir):
    result = corpus("mcp-git-log-50")
    image = {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    for response in (
        result | {"isError": True},
        result | {"content": [*result["content"], image]},
        result | {"content": [*result["content"], {"type": "resource_link", "uri": "file:///x", "name": "x"}]},
        result["content"][0]["text"],  # a string: not what Codex 0.169.0 sends
        result | {"structuredContent": ["not", "an", "object"]},
        {"content": []},
    ):
        assert post_hook(mcp_payload(workdir, "mcp__git__git_log", response)) == {}


def test_the_captured_payloads_and_the_kill_switch(codex_home, workdir):
    for path in sorted((FIXTURES / "payloads").glob("posttooluse.mcp*.input.json")):
        data = json.loads(path.read_text()) | {"cwd": str(workdir)}
        assert post_hook(data) == {}, path  # a dozen paths, an echo: shown whole anyway
    data = mcp_payload(workdir, "mcp__git__git_log", corpus("mcp-git-log-50"))
    assert post_hook(data, env=os.environ | {"TOKENJUICE_HOOK": "0"}) == {}


@pytest.mark.parametrize(
    ("args", "event", "matcher", "tools"),
    [
        ((), "PostToolUse", codex.TOOLS_MATCHER, codex.TOOLS_EFFECTS["all"]),
        (("--tools", "shell"), "PostToolUse", "^Bash$", codex.TOOLS_EFFECTS["shell"]),
        (("--mode", "pre"), "PreToolUse", "^Bash$", "Bash only (rewritten before it runs)"),
    ],
)
def test_install_hooks_the_tools_doctor_names_them_and_uninstall_leaves_nothing(
    codex_home, workdir, args, event, matcher, tools
):
    done = tokenjuice("install", "codex", "--local", *args)
    assert done.returncode == 0, done.stderr
    hooks = json.loads((codex_home / "hooks.json").read_text())["hooks"]
    assert list(hooks) == [event] and [g["matcher"] for g in hooks[event]] == [matcher]
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    checks = [(c["name"], c["status"], c["message"]) for c in report["checks"]]
    text = " ".join(tokenjuice("doctor", "codex", "--local").stdout.decode().split())
    assert f"tools: compacted: {tools}" in text
    assert ("tools", "ok", f"compacted: {tools}") in checks
    assert not [c for c in checks if c[0] == "entry"], checks  # the shape doctor expects
    assert tokenjuice("uninstall", "codex").returncode == 0
    assert not (codex_home / "hooks.json").exists()


# -- the real Codex ---------------------------------------------------------------------------


def test_codex_shows_the_model_a_compacted_mcp_listing_and_a_file_read_unchanged(codex_home, tmp_path, codex_model):
    """As installed and approved (`install codex --approve`; no hook-trust bypass), in
    Codex's `never` approval mode: a `directory_tree` of ~600 files reaches the model
    compacted with the names chosen from the raw listing, where Codex alone shows a
    12,000-character window that drops the middle; `read_text_file` of a 60 KB file
    reaches it exactly as without tokenjuice; nothing is refused or reported failed."""
    program = hostclis.need_codex()
    server = hostclis.need("mcp-filesystem")
    project = tmp_path / "proj"
    mcp_tree.make_tree(project)
    config = hostclis.codex_config(codex_model.port)
    config += f'\n[mcp_servers.fs]\ncommand = "{server}"\nargs = ["{project}"]\nrequired = true\n'
    (codex_home / "config.toml").write_text(config)
    env = os.environ | {"PATH": f"{Path(program).parent}:{os.environ['PATH']}", "HOME": str(tmp_path / "home")}
    tree = f'CALL:directory_tree {{"path": "{project}"}}'
    read = f'CALL:read_text_file {{"path": "{project / mcp_tree.READ_FILE}"}}'

    def run(prompt):
        codex_model.log.write_text("")
        done = subprocess.run(
            [program, "exec", "--skip-git-repo-check", "--json", prompt],
            cwd=project,
            env=env | {"CODEX_HOME": str(codex_home), "MOCK_API_KEY": "x"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=180,
        )
        events = [json.loads(line) for line in done.stdout.decode().splitlines() if line.startswith("{")]
        calls = [
            e["item"] for e in events if e.get("type") == "item.completed" and e["item"]["type"] == "mcp_tool_call"
        ]
        assert done.returncode == 0 and [c["status"] for c in calls] == ["completed"], done.stderr[-2000:]
        [output] = function_call_outputs(codex_model.log)
        return output

    before_tree, before_read = run(tree), run(read)
    assert before_tree.startswith("Wall time: ") and "tokens truncated" in before_tree  # Codex's own window
    done = tokenjuice("install", "codex", "--local", "--approve", "--format", "json", env=env)
    assert done.returncode == 0 and json.loads(done.stdout)["notes"][0].startswith("Codex will run the hook")
    after_tree, after_read = run(tree), run(read)
    assert not after_tree.startswith("Wall time: ") and "tokenjuice cat" in after_tree
    assert [name for name in mcp_tree.MUST_KEEP if name not in after_tree] == []
    assert len(after_tree) < len(before_tree)
    assert after_read.startswith("Wall time: ")  # Codex's own output: no answer of the hook's
    assert after_read.split("\nOutput:\n", 1)[1] == before_read.split("\nOutput:\n", 1)[1]
    kept = [name for name in mcp_tree.MUST_KEEP if name in before_tree]
    print(f"codex directory_tree: {len(before_tree):,} -> {len(after_tree):,} chars, must-keep {kept} -> all")


def test_approve_follows_the_entry_when_the_tool_set_changes(codex_home, tmp_path):
    """Each tool set is its own entry (its matcher is part of Codex's trust hash):
    `install --approve` after switching records the approval of the new entry, which
    Codex itself then lists as trusted, and uninstall takes the approval back."""
    program = hostclis.need_codex()
    env = os.environ | {"PATH": f"{Path(program).parent}:{os.environ['PATH']}", "HOME": str(tmp_path / "home")}
    for args, matcher in (((), codex.TOOLS_MATCHER), (("--tools", "shell"), "^Bash$"), ((), codex.TOOLS_MATCHER)):
        done = tokenjuice("install", "codex", "--local", "--approve", *args, env=env)
        assert done.returncode == 0, done.stderr
        [group] = json.loads((codex_home / "hooks.json").read_text())["hooks"]["PostToolUse"]
        assert group["matcher"] == matcher
        listed = hostclis.hooks_list(program, codex_home, tmp_path, env)
        [ours] = [h for h in listed["hooks"] if " codex --wrap-launcher " in h["command"]]
        assert ours["trustStatus"] == "trusted" and ours["eventName"] == "postToolUse"
        assert ours["currentHash"] == codex.trust_hash("post_tool_use", matcher, group["hooks"][0])
    assert tokenjuice("uninstall", "codex", env=env).returncode == 0
    assert "trusted_hash" not in (codex_home / "config.toml").read_text()


def test_an_approval_follows_our_entry_when_install_changes_it(codex_home, tmp_path):
    """Approved once: a later install that changes our entry (here: another tool set,
    as an upgrade that changes the matcher would) records the approval again without
    --approve, so Codex keeps running the hook; an entry never approved stays so."""
    program = hostclis.need_codex()
    env = os.environ | {"PATH": f"{Path(program).parent}:{os.environ['PATH']}", "HOME": str(tmp_path / "home")}

    def trust() -> str:
        listed = hostclis.hooks_list(program, codex_home, tmp_path, env)
        [ours] = [h for h in listed["hooks"] if " codex --wrap-launcher " in h["command"]]
        return str(ours["trustStatus"])

    assert tokenjuice("install", "codex", "--local", "--tools", "shell", env=env).returncode == 0
    assert tokenjuice("install", "codex", "--local", env=env).returncode == 0
    assert trust() != "trusted"  # never approved: install does not approve on its own
    assert tokenjuice("install", "codex", "--local", "--approve", "--tools", "shell", env=env).returncode == 0
    assert trust() == "trusted"
    done = tokenjuice("install", "codex", "--local", env=env)
    assert done.returncode == 0, done.stderr
    [group] = json.loads((codex_home / "hooks.json").read_text())["hooks"]["PostToolUse"]
    assert group["matcher"] == codex.TOOLS_MATCHER
    assert trust() == "trusted"
    assert tokenjuice("uninstall", "codex", env=env).returncode == 0
    assert "trusted_hash" not in (codex_home / "config.toml").read_text()
