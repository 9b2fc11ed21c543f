"""Copilot CLI's postToolUse for tools that run no shell command (issue 32): its search
tools' and MCP tools' text compacted as `modifiedResult` (the whole text read from the
file Copilot saved it to when it shows only a preview), file reads, edits and failures
left alone, `install --tools`, doctor's tools line; and, when Copilot 1.0.102 and the
reference MCP filesystem server are installed, Copilot itself showing the model the
compacted results and the file reads byte for byte."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time

import hostclis
import pytest
from conftest import REPO, tokenjuice

from tests.fixtures.hosts.tools import mcp_tree
from tests.hosts.test_copilot import FIXTURES, copilots_file, too_large
from tokenjuice.hosts import copilot

CORPUS = REPO / "tests" / "tools-corpus"


@pytest.fixture
def copilot_home(isolated_home, monkeypatch):
    home = isolated_home / ".copilot"
    monkeypatch.setenv("COPILOT_HOME", str(home))
    return home


def captured(name, cwd, **result):
    data = json.loads((FIXTURES / "payloads" / f"posttooluse.{name}.input.json").read_text())
    data |= {"cwd": str(cwd), "timestamp": int(time.time() * 1000)}  # Copilot calls the hook just after the tool
    data["toolResult"] |= result
    return data


def post_hook(data, env=None):
    done = tokenjuice("hook", "copilot", input=json.dumps(data), env=env)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    return json.loads(done.stdout)


def modified(answer):
    assert list(answer) == ["modifiedResult"], answer
    assert answer["modifiedResult"]["resultType"] == "success"
    return answer["modifiedResult"]["textResultForLlm"]


def whole(text):
    artifact = text.rsplit("tokenjuice cat ", 1)[1].split(")")[0].split()[0]
    done = tokenjuice("cat", artifact)
    assert done.returncode == 0
    return done.stdout.decode()


def mcp_text(result):
    """An MCP result as Copilot 1.0.102 hands it to the hook (payloads/posttooluse.mcp.input.json):
    the text blocks, then a blank line and the JSON of `structuredContent`."""
    text = "\n".join(block["text"] for block in result["content"] if block["type"] == "text")
    structured = result.get("structuredContent")
    return text + ("\n\n" + json.dumps(structured, separators=(",", ":")) if structured else "")


def grep_text(files):
    """Copilot's grep content output (payloads/posttooluse.grep.input.json) over `files` files."""
    groups = [
        f"src/mod{i:03d}.py (6 match(es)):\n"
        + "".join(f"  {3 * j + 2}:     return event  # TODO {j}\n" for j in range(6))
        for i in range(files)
    ]
    return f"[grep content: {6 * files} matches across {files} file(s) under /srv/app]\n" + "\n".join(groups)


def test_an_mcp_result_comes_back_with_its_text_and_its_json_each_compacted(copilot_home, workdir):
    from tokenjuice.reduce.reencode import decoded

    result = json.loads((CORPUS / "mcp-fs-search-files-py.json").read_text())
    text = mcp_text(result)
    answer = modified(post_hook(captured("mcp", workdir, textResultForLlm=text)))
    assert len(answer) < len(text) / 2
    listing, blank, structured = answer.rpartition("\n\n")  # the same two parts, as Copilot joined them
    paths = sorted(result["structuredContent"]["content"].splitlines())
    assert blank and sorted(decoded(listing).split("\n")) == paths  # one folder's names in one brace list
    assert sorted(decoded(json.loads(structured)["content"]).split("\n")) == paths
    assert copilot.mcp_parts("one\n\ntwo") == ["one\n\ntwo"] and copilot.mcp_parts('{"a":1}') == ['{"a":1}']


def test_grep_content_comes_back_compacted_and_file_lists_whole(copilot_home, workdir):
    text = grep_text(200)
    answer = modified(post_hook(captured("grep", workdir, textResultForLlm=text)))
    assert answer.startswith("[grep content: 1200 matches across 200 file(s) under /srv/app]\n")
    assert len(answer) < len(text) / 2 and whole(answer) == text
    files = captured("grep", workdir, textResultForLlm=text)
    files["toolArgs"]["output_mode"] = "files_with_matches"  # as Copilot's own default
    assert post_hook(files) == {}
    del files["toolArgs"]["output_mode"]
    assert post_hook(files) == {}
    paths = "\n".join(f"/srv/app/src/pkg{i // 50}/mod{i:03d}.py" for i in range(600))
    assert post_hook(captured("glob", workdir, textResultForLlm=paths)) == {}


@pytest.mark.parametrize(
    "tool",
    [
        "view",
        "edit",
        "create",
        "str_replace_editor",
        "web_fetch",
        "fs-read_text_file",
        "fs-read_multiple_files",
        "github-mcp-server-get_file_contents",
    ],
)
def test_file_reads_edits_and_other_tools_are_left_alone(copilot_home, workdir, tool):
    data = captured("view", workdir, textResultForLlm=grep_text(200)) | {"toolName": tool}
    assert post_hook(data) == {}


def test_failures_short_results_and_the_kill_switch_leave_it_alone(copilot_home, workdir):
    text = grep_text(200)
    assert post_hook(captured("grep", workdir, textResultForLlm=text, resultType="failure")) == {}
    for name in ("mcp", "mcp-plain-content", "grep", "glob", "view"):
        assert post_hook(captured(name, workdir)) == {}, name  # as captured: short enough to show whole
    off = os.environ | {"TOKENJUICE_HOOK": "0"}
    assert post_hook(captured("grep", workdir, textResultForLlm=text), env=off) == {}


def test_an_mcp_tool_is_excluded_by_its_host_neutral_name(copilot_home, workdir):
    """`fs-search_files` is the fs server's search_files: `mcp__fs__*` excludes it."""
    text = mcp_text(json.loads((CORPUS / "mcp-fs-search-files-py.json").read_text()))
    data = captured("mcp", workdir, textResultForLlm=text)
    assert data["toolName"] == "fs-search_files"
    assert modified(post_hook(data))
    for patterns in ("mcp__fs__*", "mcp__*__search_files", "fs-*"):
        assert post_hook(data, env=os.environ | {"TOKENJUICE_TOOLS_EXCLUDE": patterns}) == {}, patterns
    assert modified(post_hook(data, env=os.environ | {"TOKENJUICE_TOOLS_EXCLUDE": "mcp__git__*"}))


def test_a_result_copilot_saved_to_a_file_is_read_from_it(copilot_home, workdir):
    text = mcp_text(json.loads((CORPUS / "mcp-fs-search-files-py.json").read_text()))
    saved = copilots_file("1796552207682-copilot-tool-output-ac5171ec39884421a84630b51ec666b1.txt", text)
    answer = modified(post_hook(captured("mcp", workdir, textResultForLlm=too_large(saved, text))))
    assert answer == modified(post_hook(captured("mcp", workdir, textResultForLlm=text)))  # the whole text's
    elsewhere = workdir / saved.name  # not in Copilot's temporary folder: not Copilot's file
    elsewhere.write_text(text)
    assert post_hook(captured("mcp", workdir, textResultForLlm=too_large(elsewhere, text))) == {}


@pytest.mark.parametrize(
    ("args", "event", "matcher", "tools"),
    [
        ((), "postToolUse", copilot.TOOLS_MATCHER, copilot.TOOLS_EFFECTS["all"]),
        (("--tools", "shell"), "postToolUse", "^bash$", copilot.TOOLS_EFFECTS["shell"]),
        (("--mode", "pre"), "preToolUse", None, "bash only (rewritten before it runs)"),
    ],
)
def test_install_hooks_the_tools_doctor_names_them_and_uninstall_leaves_nothing(
    copilot_home, workdir, args, event, matcher, tools
):
    done = tokenjuice("install", "copilot", "--local", *args)
    assert done.returncode == 0, done.stderr
    path = copilot_home / "hooks" / "tokenjuice.json"
    hooks = json.loads(path.read_text())["hooks"]
    assert list(hooks) == [event] and [h.get("matcher") for h in hooks[event]] == [matcher]
    report = json.loads(tokenjuice("doctor", "copilot", "--local", "--format", "json").stdout)
    checks = [(c["name"], c["status"], c["message"]) for c in report["checks"]]
    text = " ".join(tokenjuice("doctor", "copilot", "--local").stdout.decode().split())
    assert f"tools: compacted: {tools}" in text
    assert ("tools", "ok", f"compacted: {tools}") in checks and not [c for c in checks if c[0] == "entry"]
    assert tokenjuice("uninstall", "copilot").returncode == 0
    assert not path.exists()


def test_an_older_entry_without_a_matcher_compacts_every_tool(copilot_home, workdir):
    assert tokenjuice("install", "copilot", "--local").returncode == 0
    path = copilot_home / "hooks" / "tokenjuice.json"
    data = json.loads(path.read_text())
    del data["hooks"]["postToolUse"][0]["matcher"]  # as install wrote it before --tools
    path.write_text(json.dumps(data))
    report = json.loads(tokenjuice("doctor", "copilot", "--local", "--format", "json").stdout)
    assert {"name": "tools", "status": "ok", "message": f"compacted: {copilot.TOOLS_EFFECTS['all']}"} in [
        {k: c[k] for k in ("name", "status", "message")} for c in report["checks"]
    ]


# -- the real Copilot ------------------------------------------------------------------------


@pytest.fixture
def model_server(tmp_path):
    with hostclis.MockModel(tmp_path / "requests.jsonl", MOCK_BASH_DESCRIPTION="1") as server:
        yield server


def test_copilot_shows_the_model_compacted_results_and_file_reads_unchanged(tmp_path, model_server):
    """As installed (`install copilot`), with the flags people run `-p` with: an MCP
    `directory_tree` of ~600 files (which Copilot alone saves to a file and shows as a
    500-character preview) reaches the model compacted with the names chosen from the
    raw listing; an MCP `read_text_file` and Copilot's own `view` of the same file, and
    a `glob` of the project (a file list), reach it as without tokenjuice; nothing is refused."""
    program = hostclis.need("copilot")
    server = hostclis.need("mcp-filesystem")
    project = tmp_path / "proj"
    mcp_tree.make_tree(project)
    config = tmp_path / "mcp.json"
    fs = {"type": "local", "command": server, "args": [str(project)], "tools": ["*"]}
    config.write_text(json.dumps({"mcpServers": {"fs": fs}}))
    home = tmp_path / "home"
    env = os.environ | {"HOME": str(home), "PYTHONPATH": str(REPO)}
    env.pop("COPILOT_HOME", None)
    read_path = project / mcp_tree.READ_FILE
    prompts = {
        "tree": f'CALL:directory_tree {{"path": "{project}"}}',
        "glob": f'CALL:glob {{"pattern": "**/*.py", "path": "{project}"}}',
        "read": f'CALL:read_text_file {{"path": "{read_path}"}}',
        "view": f'CALL:view {{"path": "{read_path}"}}',
    }

    def run(prompt):
        model_server.log.write_text("")
        done = subprocess.run(
            [program, "-p", prompt, "--allow-all-tools", "--additional-mcp-config", f"@{config}"],
            cwd=project,
            env=env
            | {
                "COPILOT_OFFLINE": "true",
                "COPILOT_PROVIDER_BASE_URL": f"http://127.0.0.1:{model_server.port}/v1",
                "COPILOT_PROVIDER_API_KEY": "x",
                "COPILOT_MODEL": "gpt-4.1",
                "COPILOT_AUTO_UPDATE": "false",
                "NO_COLOR": "1",
            },
            capture_output=True,
            timeout=240,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        [message] = hostclis.chat_tool_messages(model_server.log)
        assert not message.startswith(("Permission denied", "Error")), message[:300]
        return re.sub(r"/\S*copilot-tool-output-\S*\.txt", "SAVED", message)  # Copilot's own file, new each run

    before = {name: run(prompt) for name, prompt in prompts.items()}
    assert before["tree"].startswith("Output too large to read at once")
    assert tokenjuice("install", "copilot", "--local", env=env).returncode == 0
    after = {name: run(prompt) for name, prompt in prompts.items()}
    assert [name for name in mcp_tree.MUST_KEEP if name not in after["tree"]] == []
    assert "tokenjuice cat" in after["tree"] and len(after["tree"]) < 30000  # under Copilot own limit
    for name in ("read", "view", "glob"):
        assert after[name] == before[name], name
    print(
        "copilot: the model read",
        {name: f"{len(before[name]):,} -> {len(after[name]):,}" for name in prompts},
        "must-keep in the tree before:",
        [name for name in mcp_tree.MUST_KEEP if name in before["tree"]],
    )
