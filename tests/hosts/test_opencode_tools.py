"""OpenCode's `tool.execute.after` for tools that run no shell command (issue 32): the
text blocks of an MCP tool's result and the search tools' output compacted in place by
the plugin, file reads (`read`, an MCP read_*), images and errors left alone, a tool that
is not compacted never starting the hook, `install --tools`, doctor's tools line — on
the hook arguments OpenCode 1.18.33 passed (tests/fixtures/hosts/opencode/tool.execute.after.*)
and, when it is installed, through the real `opencode run` offline with the reference
filesystem MCP server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import hostclis
import pytest
from conftest import REPO, tokenjuice
from helpers import HEAVY_MODULES, hook_modules

from tests.hosts.test_opencode import FIXTURES, LAUNCHER, config, needs_node, run_plugin
from tokenjuice.hosts import hook as host_hook
from tokenjuice.hosts import opencode

CORPUS = REPO / "tests" / "tools-corpus"
sys.path.insert(0, str(REPO / "tests" / "fixtures" / "hosts" / "tools"))
import mcp_tree  # noqa: E402 - the project the real runs list, with its must-keep names

GIT_LOG = json.loads((CORPUS / "mcp-git-log-50.json").read_text())["content"][0]["text"]


def recorded(name):
    """The two arguments OpenCode passed to tool.execute.after: (input, output)."""
    data = json.loads((FIXTURES / f"tool.execute.after.{name}.args.json").read_text())
    return data["input"], data["output"]


def hook_payload(name, directory, **changes):
    """What the plugin sends the hook for a recorded call."""
    given, result = recorded(name)
    payload = {"event": "after", "tool": given["tool"], "args": given["args"], "directory": str(directory)}
    if "content" in result:
        payload["texts"] = [block["text"] for block in result["content"] if block["type"] == "text"]
    else:
        meta = result.get("metadata", {})
        payload |= {
            "output": result["output"],
            "truncated": meta.get("truncated"),
            "outputPath": meta.get("outputPath"),
        }
    return payload | changes


def respond(payload):
    return host_hook.respond(opencode.OpenCode(), payload, LAUNCHER, os.environ)


def whole(text, env=None):
    """The full copy named in a compaction's trailer."""
    artifact = re.findall(r"tokenjuice cat ([0-9a-f]+)", text)[-1]
    done = tokenjuice("cat", artifact, env=env)
    assert done.returncode == 0
    return done.stdout.decode()


def saved_elsewhere(text):
    """A tool's text without the path of the file where OpenCode saved a long one whole
    (`Full output saved to: PATH`, new for every call)."""
    return re.sub(r"(Full output saved to: )\S+", r"\1PATH", text)


def test_an_mcp_tools_text_blocks_come_back_compacted_one_for_each(workdir):
    answer = respond(hook_payload("mcp_ev_echo", workdir, tool="git_git_log", texts=[GIT_LOG, "short"]))
    first, second = answer["texts"]
    assert len(first) < len(GIT_LOG) * 0.6 and "Commit: 4b1c95a6296ef7b717484f1204cf56d9801232ec" in first
    assert second == "short" and whole(first) == GIT_LOG


def test_a_search_tools_output_comes_back_compacted(workdir):
    payload = hook_payload("grep-100-matches", workdir)
    payload["output"] += "".join(f"\n/p/extra_{i}.py:\n  Line {i}: def extra_{i}():\n" for i in range(400))
    text = respond(payload)["output"]
    assert text.startswith("Found 100 matches") and "tokenjuice cat" in text
    assert len(text) < len(payload["output"]) / 2


@pytest.mark.parametrize(
    "changes",
    [
        {"tool": "fs_read_text_file", "texts": [GIT_LOG]},  # an MCP file read
        {"tool": "github_get_file_contents", "texts": [GIT_LOG]},
        {"tool": "read", "output": GIT_LOG},  # OpenCode's own
        {"tool": "edit", "output": GIT_LOG},
        {"tool": "todowrite", "output": GIT_LOG},
        {"tool": "grep", "texts": [GIT_LOG]},  # a built-in never hands blocks
        {"tool": "webfetch", "output": GIT_LOG, "truncated": True, "outputPath": "/tmp/tool-output/tool_1"},
        {"tool": "fs_directory_tree", "texts": [GIT_LOG, 7]},
    ],
    ids=lambda c: c["tool"] + ("-saved" if "outputPath" in c else ""),
)
def test_file_reads_other_tools_and_cut_outputs_are_left_alone(workdir, changes):
    payload = hook_payload("mcp_ev_echo", workdir) | changes
    if "output" in changes:
        payload.pop("texts")
    assert respond(payload) == {}


@pytest.mark.parametrize(
    "changes",
    [{"tool": "fs_read_text_file", "texts": [GIT_LOG]}, {"tool": "read", "output": "x"}, {"tool": "todowrite"}],
    ids=lambda c: c["tool"],
)
def test_a_tool_never_compacted_loads_no_settings_rules_or_engine(workdir, changes):
    """The plugin never sends these; a hook that gets one answers from the tool's name alone."""
    payload = {k: v for k, v in hook_payload("mcp_ev_echo", workdir).items() if k != "texts"} | changes
    answer, loaded = hook_modules("opencode", payload, workdir)
    assert answer == {} and not loaded & HEAVY_MODULES
    assert "tokenjuice.hosts.opencode" in loaded  # the probe did reach the hook


def test_no_recorded_call_loses_a_line(workdir):
    """What OpenCode's tools returned here is small: left alone, or shorter with every
    line but blank ones still there (grep's blank lines between files go)."""
    for path in sorted(FIXTURES.glob("tool.execute.after.*.args.json")):
        name = path.name[len("tool.execute.after.") : -len(".args.json")]
        if name.startswith("bash") or name == "glob-100-files":  # the shell's; a listing (the next test)
            continue
        payload = hook_payload(name, workdir)
        answer = respond(payload)
        if name.startswith(("mcp_", "read")):
            assert answer == {}, name
            continue
        shown = answer.get("output", payload["output"])
        assert len(shown) <= len(payload["output"])
        assert [line for line in payload["output"].splitlines() if line.strip() and line not in shown] == [], name


def test_a_listing_is_re_encoded_without_a_loss(workdir):
    from tokenjuice.reduce.reencode import decoded

    payload = hook_payload("glob-100-files", workdir)
    text = respond(payload)["output"]
    assert len(text) < len(payload["output"]) / 2 and "tokenjuice cat" not in text
    paths = [line for line in payload["output"].splitlines() if line.startswith("/")]
    assert len(paths) == 100 and set(paths) <= set(decoded(text).splitlines())


def test_the_kill_switch_leaves_tools_alone(workdir):
    payload = hook_payload("mcp_ev_echo", workdir, texts=[GIT_LOG])
    done = tokenjuice("hook", "opencode", input=json.dumps(payload), env=os.environ | {"TOKENJUICE_HOOK": "0"})
    assert json.loads(done.stdout) == {}


# -- the plugin, under node ------------------------------------------------------------------------


def after_call(name, directory, **changes):
    """A harness call replaying a recorded tool.execute.after."""
    given, result = recorded(name)
    call = {"event": "after", "tool": given["tool"], "args": given["args"], "directory": str(directory)}
    if "content" in result:
        call["content"] = result["content"]
    else:
        call |= {"output": result["output"], "metadata": result.get("metadata", {})}
    return call | changes


@needs_node
def test_the_plugin_compacts_an_mcp_results_text_blocks_in_place_and_keeps_the_image(tmp_path, workdir):
    _, image = recorded("mcp_ev_get-tiny-image")
    content = [{"type": "text", "text": GIT_LOG}, *[b for b in image["content"] if b["type"] == "image"]]
    result = run_plugin(tmp_path, after_call("mcp_ev_echo", workdir, content=content), plugin_mode="post")
    assert result["shellCalls"] == 1 and not result["threw"]
    assert result["content"][0]["type"] == "text" and len(result["content"][0]["text"]) < len(GIT_LOG) * 0.6
    assert result["content"][1:] == content[1:]


@needs_node
@pytest.mark.parametrize(
    ("changes", "tools"),
    [
        ({"tool": "fs_read_text_file"}, "all"),  # an MCP file read
        ({"isError": True}, "all"),  # an MCP tool's error
        ({}, "shell"),  # --tools shell
    ],
    ids=["file-read", "error", "shell-only"],
)
def test_the_plugin_never_starts_the_hook_for_an_mcp_result_it_leaves(tmp_path, workdir, changes, tools):
    content = [{"type": "text", "text": GIT_LOG}]
    call = after_call("mcp_ev_echo", workdir, content=content, **changes)
    result = run_plugin(tmp_path, call, plugin_mode="post", tools=tools)
    assert result["shellCalls"] == 0 and result["content"] == content


@needs_node
def test_the_plugin_compacts_a_search_tools_output_and_never_starts_the_hook_for_read(tmp_path, workdir):
    big = recorded("grep-100-matches")[1]["output"] + "".join(
        f"\n/p/x_{i}.py:\n  Line 1: def x_{i}():\n" for i in range(400)
    )
    result = run_plugin(tmp_path, after_call("grep-100-matches", workdir, output=big), plugin_mode="post")
    assert result["shellCalls"] == 1 and "tokenjuice cat" in result["output"] and len(result["output"]) < len(big) / 2
    result = run_plugin(
        tmp_path, after_call("grep-100-matches", workdir, output=big), plugin_mode="post", tools="shell"
    )
    assert result["shellCalls"] == 0 and result["output"] == big
    read = after_call("read", workdir)
    result = run_plugin(tmp_path, read, plugin_mode="post")
    assert result["shellCalls"] == 0 and result["output"] == read["output"]


@needs_node
@pytest.mark.parametrize("mode", ["throw", "garbage", "nodollar", "hang"])
def test_the_plugin_never_fails_an_mcp_call(tmp_path, workdir, mode):
    content = [{"type": "text", "text": GIT_LOG}]
    result = run_plugin(tmp_path, after_call("mcp_ev_echo", workdir, content=content), mode, plugin_mode="post")
    assert result["content"] == content and not result["threw"]


# -- install / doctor ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "tools"),
    [
        ([], opencode.TOOLS_EFFECTS["all"]),
        (["--tools", "shell"], opencode.TOOLS_EFFECTS["shell"]),
        (["--mode", "pre"], "bash only (rewritten before it runs)"),
    ],
)
def test_install_writes_the_tool_set_doctor_names_it_and_uninstall_leaves_nothing(isolated_home, workdir, args, tools):
    path = isolated_home / ".config" / "opencode" / "plugins" / "tokenjuice.js"
    assert tokenjuice("install", "opencode", "--local", *args).returncode == 0
    expected = "shell" if "shell" in args else "all"
    assert opencode.plugin_constant(path.read_text(), "TOOLS") == expected
    assert opencode.OpenCode()._ours(path.read_text())
    report = json.loads(tokenjuice("doctor", "opencode", "--local", "--format", "json").stdout)
    assert {"name": "tools", "status": "ok", "message": "compacted: " + tools} in [
        {k: c[k] for k in ("name", "status", "message")} for c in report["checks"]
    ]
    assert report["status"] == "ok", report
    assert tokenjuice("uninstall", "opencode").returncode == 0
    assert not path.exists()


# -- the real client ---------------------------------------------------------------------------------


def test_the_real_opencode_reads_a_large_mcp_result_compacted_and_file_reads_byte_for_byte(isolated_home, tmp_path):
    """OpenCode 1.18.33 offline (`opencode run` against the stand-in model), the reference
    filesystem MCP server over a project of ~600 files, without tokenjuice and then with
    `tokenjuice install opencode`: directory_tree reaches the model compacted with the
    names chosen before (mcp_tree.MUST_KEEP) and the whole tree behind `tokenjuice cat ID`;
    the MCP read_text_file and OpenCode's own read reach it byte for byte; nothing is
    refused in either run."""
    program = hostclis.need("opencode")
    server = hostclis.need("mcp-filesystem")
    project = tmp_path / "project"
    mcp_tree.make_tree(project)
    settings = json.loads((FIXTURES / "plugin" / "opencode.json").read_text())
    settings["mcp"] = {"fs": {"type": "local", "command": [server, str(project)], "enabled": True}}
    changelog = project / mcp_tree.READ_FILE
    prompts = {
        "fs_directory_tree": f'CALL:fs_directory_tree {{"path": "{project}"}}',
        "fs_read_text_file": f'CALL:fs_read_text_file {{"path": "{changelog}"}}',
        "read": f'CALL:read {{"filePath": "{changelog}"}}',
    }
    read: dict[str, dict[str, list[str]]] = {"without": {}, "with": {}}
    env = os.environ | {"XDG_STATE_HOME": str(isolated_home / ".local" / "state"), "PWD": str(project)}
    with hostclis.MockModel(tmp_path / "requests.jsonl", MOCK_BASH_DESCRIPTION="1") as model:
        settings["provider"]["mock"]["options"]["baseURL"] = f"http://127.0.0.1:{model.port}/v1"
        config(isolated_home, settings)
        for run in ("without", "with"):
            if run == "with":
                assert tokenjuice("install", "opencode", "--local").returncode == 0
            for tool, prompt in prompts.items():
                model.log.write_text("")
                done = subprocess.run(
                    [program, "run", prompt],
                    cwd=project,
                    env=env,
                    capture_output=True,
                    timeout=240,
                    stdin=subprocess.DEVNULL,
                )
                assert done.returncode == 0, done.stderr[-2000:]
                read[run][tool] = hostclis.chat_tool_messages(model.log)
    for tool in ("fs_read_text_file", "read"):  # byte for byte, but the file OpenCode saves each run's to
        outputs = [[saved_elsewhere(text) for text in read[run][tool]] for run in ("without", "with")]
        assert outputs[0] == outputs[1] and len(outputs[1]) == 1 and "tokenjuice" not in outputs[1][0]
    assert read["with"]["fs_read_text_file"] == [changelog.read_text()]
    [before], [after] = read["without"]["fs_directory_tree"], read["with"]["fs_directory_tree"]
    assert len(after) < len(before) / 3, (len(before), len(after))
    assert [name for name in mcp_tree.MUST_KEEP if name not in after] == []
    assert "tokenjuice cat" in after and "Full output saved to" not in after
    files = {path.name for path in project.rglob("*")}
    assert {name for name in re.findall(r'"name": "([^"]+)"', whole(after))} == files  # the whole tree, kept
    names = [sum(name in text for name in mcp_tree.MUST_KEEP) for text in (before, after)]
    print(
        f"opencode fs_directory_tree: the model read {len(before):,} characters without tokenjuice, {len(after):,} with;",
        names,
    )
