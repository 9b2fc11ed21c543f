"""Gemini CLI's AfterTool for tools that run no shell command (issue 32): MCP tools' text
parts and the search tools' text compacted and read back through a `read_file` tail call
(Gemini shows the model its result under the original call's name, as an output, not an
error), file reads, images and errors left alone, `install --tools`, doctor's tools line —
on the payloads Gemini CLI 0.61.0 sent (tests/fixtures/hosts/gemini-cli/payloads) and, when
it is installed, through the real Gemini CLI offline with the reference filesystem server."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import hostclis
import pytest
from conftest import REPO, tokenjuice
from helpers import HEAVY_MODULES, hook_modules

from tests.hosts.test_gemini import FIXTURES, after_hook
from tokenjuice.hosts import gemini
from tokenjuice.reduce.reencode import BRACE_WIDTH, decoded

CORPUS = REPO / "tests" / "tools-corpus"
sys.path.insert(0, str(REPO / "tests" / "fixtures" / "hosts" / "tools"))
import mcp_tree  # noqa: E402 - the project the real runs list, with its must-keep names


def fixture(name):
    return json.loads((FIXTURES / "payloads" / name).read_text())


def corpus_text(name):
    """The text of a tools-corpus result's (only) text block."""
    [block] = json.loads((CORPUS / f"{name}.json").read_text())["content"]
    return block["text"]


@pytest.fixture
def chats(tmp_path):
    """Gemini's temporary folder for a project, where the session's transcript lives."""
    folder = tmp_path / "gh" / ".gemini" / "tmp" / "proj" / "chats"
    folder.mkdir(parents=True)
    return folder


def payload(name, chats, workdir, **response):
    data = fixture(name)
    data.update(cwd=str(workdir), transcript_path=str(chats / "session-1.jsonl"))
    data["tool_response"].update(response)
    return data


def home_of(chats):
    return chats.parents[3]


def read_back(answer, chats):
    """The text a tail call's read_file hands the model."""
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "AfterTool" and set(output) == {"hookEventName", "tailToolCallRequest"}
    request = output["tailToolCallRequest"]
    assert request["name"] == "read_file" and list(request["args"]) == ["file_path"]
    path = Path(request["args"]["file_path"])
    assert path.parent == chats.parent and path.stat().st_mode & 0o777 == 0o600
    return path.read_text()


def whole(text, env=None):
    """The full copy named in a compaction's trailer."""
    artifact = re.findall(r"tokenjuice cat ([0-9a-f]+)", text)[-1]
    done = tokenjuice("cat", artifact, env=env)
    assert done.returncode == 0
    return done.stdout.decode()


def test_a_large_mcp_text_comes_back_compacted_in_geminis_mark(chats, workdir):
    original = corpus_text("mcp-git-log-50")
    data = payload(
        "aftertool.mcp_ev_echo.input.json", chats, workdir, llmContent=[{"text": gemini.untrusted(original)}]
    )
    data["mcp_context"].update(server_name="git", tool_name="git_log")
    text = read_back(after_hook(data, home_of(chats)), chats)
    assert text.startswith("<untrusted_context>\n") and text.endswith("\n</untrusted_context>")
    assert len(text) < len(original) * 0.6  # its budget, 20,000 characters
    assert "Commit: 4b1c95a6296ef7b717484f1204cf56d9801232ec" in text
    assert whole(text) == original


def test_several_text_parts_come_back_joined_as_gemini_joins_them(chats, workdir):
    log, short = corpus_text("mcp-git-log-50"), "the second block"
    parts = [{"text": gemini.untrusted(log)}, {"text": gemini.untrusted(short)}]
    data = payload("aftertool.mcp_fs_search_files.input.json", chats, workdir, llmContent=parts)
    text = read_back(after_hook(data, home_of(chats)), chats)
    first, second = text.split("\n</untrusted_context>\n<untrusted_context>\n")
    assert first.startswith("<untrusted_context>\n") and len(first) < len(log) * 0.6
    assert second == short + "\n</untrusted_context>"


def test_a_search_tools_text_comes_back_compacted(chats, workdir):
    data = payload("aftertool.grep_search-100-matches.input.json", chats, workdir)
    original = data["tool_response"]["llmContent"]
    data["tool_response"]["llmContent"] = original + "".join(
        f"---\nFile: src/extra_{i}.py\nL{i}: def extra_{i}():\n" for i in range(400)
    )
    text = read_back(after_hook(data, home_of(chats)), chats)
    assert text.startswith('Found 100 matches for pattern "def " in path') and "tokenjuice cat" in text
    assert len(text) < len(data["tool_response"]["llmContent"]) / 2


@pytest.mark.parametrize(
    "name",
    [
        "aftertool.read_file.input.json",
        "aftertool.mcp_fs_read_text_file.input.json",
        "aftertool.mcp_ev_get-tiny-image.input.json",
        "aftertool.web_fetch-error.input.json",
        "aftertool.mcp_fs_directory_tree-error.input.json",
    ],
)
def test_file_reads_images_and_errors_are_left_alone_however_large(chats, workdir, name):
    data = payload(name, chats, workdir)
    big = corpus_text("mcp-git-log-50")
    content = data["tool_response"]["llmContent"]
    if isinstance(content, list):  # an MCP result's parts: each text part made large
        data["tool_response"]["llmContent"] = [
            {"text": gemini.untrusted(big)} if "text" in part and part["text"].startswith("<untrusted") else part
            for part in content
        ]
    else:
        data["tool_response"]["llmContent"] = big
    assert after_hook(data, home_of(chats)) == {}
    assert not list(chats.parent.glob("tokenjuice-output-*"))


@pytest.mark.parametrize(
    ("name", "tool"),
    [
        ("aftertool.read_file.input.json", None),
        ("aftertool.mcp_fs_read_text_file.input.json", None),
        ("aftertool.read_file.input.json", "replace"),
        ("beforetool.run_shell_command.input.json", "grep_search"),  # a tool no BeforeTool hook changes
    ],
)
def test_a_tool_never_compacted_loads_no_settings_rules_or_engine(chats, workdir, name, tool):
    """Only a matcher the user wrote sends such a call (install's leaves them out): the
    answer comes from the tool's name alone."""
    data = fixture(name) | {"cwd": str(workdir)}
    if tool is not None:
        data["tool_name"] = tool
    answer, loaded = hook_modules("gemini", data, workdir)
    assert answer == {} and not loaded & HEAVY_MODULES
    assert "tokenjuice.hosts.gemini" in loaded  # the probe did reach the hook


def test_every_recorded_payload_short_enough_is_left_alone(chats, workdir):
    for path in sorted((FIXTURES / "payloads").glob("aftertool.*.input.json")):
        data = payload(path.name, chats, workdir)
        if data["tool_name"] == "glob" and len(data["tool_response"]["llmContent"]) > 20_000:
            continue  # a listing large enough to compact (the next test)
        assert after_hook(data, home_of(chats)) == {}, path.name


def test_a_large_glob_comes_back_compacted_in_lines_read_file_shows_whole(chats, workdir):
    """A folder's names in one brace list go on lines of at most BRACE_WIDTH characters
    (read_file cuts a line at 2,000): a glob of 601 files reaches the model compacted,
    every line whole, every path read back from its brace list."""
    data = payload("aftertool.glob-601-files.input.json", chats, workdir)
    original = data["tool_response"]["llmContent"]
    text = read_back(after_hook(data, home_of(chats)), chats)
    assert gemini.read_whole(text) and max(map(len, text.split("\n"))) <= BRACE_WIDTH
    assert text.startswith('Found 601 file(s) matching "**/*.py"') and len(text) < len(original) / 2
    shown = decoded(text).split("\n")
    assert sorted(shown) == sorted(original.split("\n"))  # folder by folder, nothing lost


def test_read_whole_counts_lines_and_utf16_units_as_read_file_does():
    """read_file shows at most 2,000 lines of at most 2,000 characters: a compaction it
    would cut (and tell the model to read on) is not used."""
    assert not gemini.read_whole("x" * 2001) and gemini.read_whole("x" * 2000 + "\n" + "é" * 2000)
    assert not gemini.read_whole("\U0001f600" * 1001)  # UTF-16 units, as read_file counts
    assert not gemini.read_whole("\n" * 2000) and gemini.read_whole("\n" * 1999)


def test_outside_geminis_temporary_folder_nothing_is_blocked(tmp_path, workdir):
    """The shell's fallback (`decision: block`) reads as an error: a tool's result is left alone."""
    elsewhere = tmp_path / "elsewhere" / "chats"
    elsewhere.mkdir(parents=True)
    data = payload("aftertool.mcp_ev_echo.input.json", elsewhere, workdir)
    data["tool_response"]["llmContent"] = [{"text": gemini.untrusted(corpus_text("mcp-git-log-50"))}]
    assert after_hook(data, tmp_path / "gh") == {}


def test_the_kill_switch_leaves_tools_alone(chats, workdir):
    data = payload("aftertool.mcp_ev_echo.input.json", chats, workdir)
    data["tool_response"]["llmContent"] = [{"text": gemini.untrusted(corpus_text("mcp-git-log-50"))}]
    done = tokenjuice(
        "hook",
        "gemini",
        input=json.dumps(data),
        env=os.environ | {"GEMINI_CLI_HOME": str(home_of(chats)), "TOKENJUICE_HOOK": "0"},
    )
    assert json.loads(done.stdout) == {}


def test_the_matcher_takes_the_shell_search_and_mcp_tools_but_no_file_read():
    matcher = re.compile(gemini.TOOLS_MATCHER)
    hooked = ["run_shell_command", *gemini.SEARCH_TOOLS, "mcp_fs_search_files", "mcp_ev_get-tiny-image"]
    hooked.append("mcp_fs_read_file_info")  # not a file read: only the name's end counts
    left = ["read_file", "read_many_files", "replace", "write_file", "list_mcp_resources", "read_mcp_resource"]
    left += ["mcp_fs_read_text_file", "mcp_github_get_file_contents", "mcp_fs_read_multiple_files", "grep_search2"]
    assert [name for name in hooked if not matcher.search(name)] == []
    assert [name for name in left if matcher.search(name)] == []


@pytest.mark.parametrize(
    ("args", "event", "matcher", "tools"),
    [
        ([], "AfterTool", gemini.TOOLS_MATCHER, gemini.TOOLS_EFFECTS["all"]),
        (["--tools", "shell"], "AfterTool", "run_shell_command", gemini.TOOLS_EFFECTS["shell"]),
        (["--mode", "pre"], "BeforeTool", "run_shell_command", "run_shell_command only (rewritten before it runs)"),
    ],
)
def test_install_hooks_the_tools_doctor_names_them_and_uninstall_leaves_nothing(
    gemini_home, workdir, args, event, matcher, tools
):
    settings = gemini_home / ".gemini" / "settings.json"
    before = '{\n  "security": {"auth": {"selectedType": "gemini-api-key"}}\n}\n'
    settings.write_text(before)
    assert tokenjuice("install", "gemini", "--local", *args).returncode == 0
    hooks = json.loads(settings.read_text())["hooks"]
    assert list(hooks) == [event] and [group["matcher"] for group in hooks[event]] == [matcher]
    report = json.loads(tokenjuice("doctor", "gemini", "--local", "--format", "json").stdout)
    assert {"name": "tools", "status": "ok", "message": "compacted: " + tools} in [
        {k: c[k] for k in ("name", "status", "message")} for c in report["checks"]
    ]
    assert not [c for c in report["checks"] if c["name"] == "entry" and c["status"] != "ok"], report
    if args == ["--tools", "shell"]:  # back to every tool: the same entry, its matcher changed
        assert tokenjuice("install", "gemini", "--local").returncode == 0
        assert json.loads(settings.read_text())["hooks"]["AfterTool"][0]["matcher"] == gemini.TOOLS_MATCHER
    assert tokenjuice("uninstall", "gemini").returncode == 0
    assert settings.read_text() == before


# -- Gemini CLI itself (0.61.0), offline, with the reference filesystem MCP server --------------------


def gemini_env(home, port=None):
    env = os.environ | {"HOME": str(home), "GEMINI_CLI_HOME": str(home), "GEMINI_API_KEY": "x"}
    return env | ({"GOOGLE_GEMINI_BASE_URL": f"http://127.0.0.1:{port}"} if port else {})


def gemini_run(script, home, project, port, prompt):
    """One `gemini -p` against the stand-in model: (the session's tool calls as Gemini
    recorded them, the CLI's exit code)."""
    done = subprocess.run(
        ["node", script, "-p", prompt, "--skip-trust", "-o", "json"],
        cwd=project,
        env=gemini_env(home, port),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=180,
    )
    chats = sorted((home / ".gemini" / "tmp").glob("*/chats/session-*.jsonl"), key=os.path.getmtime)
    calls = [
        {k: call.get(k) for k in ("name", "status")}
        for line in (chats[-1].read_text().splitlines() if chats else [])
        for call in json.loads(line).get("toolCalls") or []
    ]
    return calls, done.returncode


def model_read(log):
    """The one function response the model was sent back, as Gemini built it."""
    responses = []
    for line in log.read_text().splitlines():
        for content in (json.loads(line).get("body") or {}).get("contents") or []:
            for part in content.get("parts") or []:
                if "functionResponse" in part and part["functionResponse"] not in responses:
                    responses.append(part["functionResponse"])
    [response] = responses
    return response


def saved_elsewhere(output):
    """A function response's output without the path of the file where Gemini saved a long
    one whole (`Output too large. … For full output see: PATH`, new for every session)."""
    return re.sub(r"(For full output see: )\S+", r"\1PATH", output)


def tree_names(node):
    """Every name in a directory_tree answer."""
    if isinstance(node, list):
        return [name for child in node for name in tree_names(child)]
    return [node["name"], *tree_names(node.get("children", []))]


def test_the_real_gemini_reads_a_large_mcp_result_compacted_and_file_reads_byte_for_byte(tmp_path):
    """Gemini CLI 0.61.0 offline, the reference filesystem MCP server (trusted, so nothing
    asks) over a project of ~600 files, without tokenjuice and then with `tokenjuice install
    gemini`: directory_tree reaches the model compacted, as an output under its own name,
    with the names chosen before (mcp_tree.MUST_KEEP) and the whole tree behind
    `tokenjuice cat ID`; the MCP read_text_file and Gemini's read_file reach it byte for
    byte; Gemini's own glob of every file comes back compacted without a line read_file
    cuts; every call succeeds in both runs."""
    script = hostclis.need_gemini()
    server = hostclis.need("mcp-filesystem")
    home, project = tmp_path / "home", tmp_path / "project"
    mcp_tree.make_tree(project)
    (home / ".gemini").mkdir(parents=True)
    settings = {
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "mcpServers": {"fs": {"command": server, "args": [str(project)], "trust": True}},
    }
    (home / ".gemini" / "settings.json").write_text(json.dumps(settings))
    changelog = project / mcp_tree.READ_FILE
    prompts = {
        "mcp_fs_directory_tree": f'CALL:mcp_fs_directory_tree {{"path": "{project}"}}',
        "mcp_fs_read_text_file": f'CALL:mcp_fs_read_text_file {{"path": "{changelog}"}}',
        "read_file": f'CALL:read_file {{"file_path": "{changelog}"}}',
        "glob": 'CALL:glob {"pattern": "**/*"}',
    }
    read: dict[str, dict[str, dict]] = {"without": {}, "with": {}}
    outcomes: dict[str, dict[str, object]] = {"without": {}, "with": {}}
    with hostclis.MockModel(tmp_path / "model.jsonl", "mock_gemini.py") as model:
        for run in ("without", "with"):
            if run == "with":
                installed = tokenjuice("install", "gemini", "--local", env=gemini_env(home))
                assert installed.returncode == 0, installed.stderr
            for tool, prompt in prompts.items():
                model.log.write_text("")
                outcomes[run][tool] = gemini_run(script, home, project, model.port, prompt)
                read[run][tool] = model_read(model.log)
    for tool in prompts:  # nothing newly denied, asked or failed
        assert outcomes["with"][tool] == outcomes["without"][tool] == ([{"name": tool, "status": "success"}], 0)
    tree = read["with"]["mcp_fs_directory_tree"]
    assert tree["name"] == "mcp_fs_directory_tree" and list(tree["response"]) == ["output"]
    before, after = read["without"]["mcp_fs_directory_tree"]["response"]["output"], tree["response"]["output"]
    assert after.startswith("<untrusted_context>\n[") and after.endswith("\n</untrusted_context>")
    assert len(after) < len(before) / 3, (len(before), len(after))
    assert [name for name in mcp_tree.MUST_KEEP if name not in after] == []
    files = {path.name for path in project.rglob("*")}
    assert set(tree_names(json.loads(whole(after, gemini_env(home))))) == files  # the whole tree, kept
    for tool in ("mcp_fs_read_text_file", "read_file"):  # byte for byte, but the file Gemini saves each session's to
        outputs = [saved_elsewhere(read[run][tool]["response"]["output"]) for run in ("without", "with")]
        assert outputs[0] == outputs[1] and "tokenjuice" not in outputs[1]
    assert read["with"]["read_file"]["response"]["output"] == changelog.read_text()
    # a glob of every file: its folders' brace lists on lines read_file shows whole
    listed = [read[run]["glob"]["response"]["output"] for run in ("without", "with")]
    assert len(listed[1]) < len(listed[0]) / 2 and max(map(len, listed[1].split("\n"))) <= BRACE_WIDTH
    # its 604 paths fit a listing's budget in their lossless form: every one is there (grouped by folder), none stored
    assert sorted(decoded(listed[1]).split("\n")) == sorted(listed[0].split("\n")) and "tokenjuice" not in listed[1]
    assert read["with"]["mcp_fs_read_text_file"]["response"]["output"] == gemini.untrusted(changelog.read_text())
    names = [sum(name in text for name in mcp_tree.MUST_KEEP) for text in (before, after)]
    print(
        f"gemini directory_tree: the model read {len(before):,} characters without tokenjuice, {len(after):,} with;",
        names,
    )
