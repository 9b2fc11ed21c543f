"""Claude Code's PostToolUse for tools that run no shell command (issue 32): MCP tools'
results and Grep's content compacted in the shape Claude Code takes back, file reads
and every other tool left alone, `install --tools`, and doctor's tools line. Through a
real `tokenjuice hook claude-code` process, on the payloads Claude Code 2.1.331 sent."""

from __future__ import annotations

import json
import os

import pytest
from conftest import REPO, tokenjuice

from tests.hosts.test_claude_code import fixture, hook
from tokenjuice.hosts import claude_code

CORPUS = REPO / "tests" / "tools-corpus"


@pytest.fixture
def claude_home(isolated_home):
    folder = isolated_home / ".claude"
    folder.mkdir()
    return folder


def _corpus_result(name):
    return json.loads((CORPUS / f"{name}.json").read_text())


def _mcp_payload(workdir, tool, response):
    payload = fixture("posttooluse.mcp.input.json")
    payload.update(cwd=str(workdir), tool_name=tool, tool_response=response)
    return payload


def _updated(answer):
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "PostToolUse"
    return output["updatedToolOutput"]


def test_an_mcp_result_with_structured_content_comes_back_a_string_of_the_same_json(workdir):
    result = _corpus_result("mcp-fs-search-files-py")
    given = json.dumps(result["structuredContent"], separators=(",", ":"))  # as Claude Code hands it
    updated = _updated(hook(_mcp_payload(workdir, "mcp__filesystem__search_files", given)))
    assert isinstance(updated, str) and len(updated) < len(given) / 2  # its paths one folder at a time
    text = json.loads(updated)["content"]
    from tokenjuice.reduce.reencode import decoded

    original = result["structuredContent"]["content"]
    if "tokenjuice cat " in text:  # cut: the full result is kept
        artifact = text.rsplit("tokenjuice cat ", 1)[1].split(")")[0].split()[0]
        whole = tokenjuice("cat", artifact)
        assert whole.returncode == 0 and whole.stdout.decode() == original
    else:  # re-encoded without a loss (one folder's names in one brace list): every path is there
        assert all(path in decoded(text).split("\n") for path in original.splitlines())


def test_mcp_content_blocks_come_back_as_blocks_and_images_untouched(workdir):
    blocks = _corpus_result("mcp-git-log-50")["content"]
    image = fixture("posttooluse.mcp-image.input.json")["tool_response"]
    given = blocks + [block for block in image if block.get("type") == "image"]
    updated = _updated(hook(_mcp_payload(workdir, "mcp__git__git_log", given)))
    assert isinstance(updated, list) and len(updated) == len(given)
    assert updated[0]["type"] == "text" and len(updated[0]["text"]) < len(blocks[0]["text"]) / 2
    assert "Commit: 4b1c95a6296ef7b717484f1204cf56d9801232ec" in updated[0]["text"]
    assert updated[1:] == given[1:]


@pytest.mark.parametrize("tool", ["mcp__filesystem__read_text_file", "mcp__fs__read_file", "Read", "Glob", "Edit"])
def test_file_reads_and_other_tools_are_left_alone(workdir, tool):
    blocks = _corpus_result("mcp-git-log-50")["content"]
    assert hook(_mcp_payload(workdir, tool, blocks)) == {}
    read = fixture("posttooluse.read.input.json")
    read["cwd"] = str(workdir)
    assert hook(read) == {}


def test_grep_content_comes_back_in_grep_own_output_object(workdir):
    payload = fixture("posttooluse.grep-content.input.json")
    payload["cwd"] = str(workdir)
    payload["tool_response"]["content"] = (CORPUS / "claude-grep-raise-valueerror.json").read_text()
    payload["tool_response"]["content"] = json.loads(payload["tool_response"]["content"])["content"]
    updated = _updated(hook(payload))
    assert set(updated) == set(payload["tool_response"])
    assert {k: v for k, v in updated.items() if k != "content"} == {
        k: v for k, v in payload["tool_response"].items() if k != "content"
    }
    assert len(updated["content"]) < len(payload["tool_response"]["content"])
    files = fixture("posttooluse.grep-files.input.json")
    files["cwd"] = str(workdir)
    assert hook(files) == {}  # file names are what the agent asked for


def test_the_kill_switch_leaves_mcp_results_alone(workdir):
    blocks = _corpus_result("mcp-git-log-50")["content"]
    done = tokenjuice(
        "hook",
        "claude-code",
        input=json.dumps(_mcp_payload(workdir, "mcp__git__git_log", blocks)),
        env={**os.environ, "TOKENJUICE_HOOK": "0"},
    )
    assert json.loads(done.stdout) == {}


@pytest.mark.parametrize(("tools", "matcher"), [(None, claude_code.TOOLS_MATCHER), ("shell", "Bash")])
def test_install_hooks_the_tools_and_doctor_names_them(claude_home, tools, matcher):
    settings = claude_home / "settings.json"
    args = ["install", "claude-code", "--mode", "post"] + (["--tools", tools] if tools else [])
    done = tokenjuice(*args)
    assert done.returncode == 0, done.stderr
    groups = json.loads(settings.read_text())["hooks"]["PostToolUse"]
    assert [g["matcher"] for g in groups] == [matcher]
    checks = json.loads(tokenjuice("doctor", "claude-code", "--format", "json").stdout)["checks"]
    assert {"name": "tools", "status": "ok", "message": "compacted: " + claude_code.TOOLS_EFFECTS[tools or "all"]} in [
        {k: c[k] for k in ("name", "status", "message")} for c in checks
    ]


def test_tools_is_refused_for_a_host_without_a_choice():
    done = tokenjuice("install", "cursor", "--tools", "all")
    assert done.returncode == 2 and b"--tools is for claude-code, codex, copilot" in done.stderr
