"""Claude Code's PostToolUse for tools that run no shell command (issue 32): MCP tools'
results and Grep's content compacted in the shape Claude Code takes back, file reads
and every other tool left alone, `install --tools`, and doctor's tools line. Through a
real `tokenjuice hook claude-code` process, on the payloads Claude Code 2.1.331 sent."""

from __future__ import annotations

import json
import os
import subprocess

import hostclis
import pytest
from conftest import REPO, tokenjuice

from tests.fixtures.hosts.tools import mcp_tree
from tests.hosts.test_claude_code import fixture, hook, link_claude
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
    assert updated[0]["type"] == "text" and len(updated[0]["text"]) < len(blocks[0]["text"]) * 0.6
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
    assert done.returncode == 2 and b"--tools is for claude-code, codex, gemini, copilot, opencode (" in done.stderr


# -- the real Claude Code, offline, with the reference filesystem MCP server ------------------------

#: What the model must still read of the directory tree once compacted, chosen from the
#: server's output format before tokenjuice ran on it: every top-level folder, the files at
#: the root, and two files deep in the tree whose names no other file shares.
TREE_MUST_KEEP = [
    '"name": "billing"',
    '"name": "catalog"',
    '"name": "checkout"',
    '"name": "inventory"',
    '"name": "shipping"',
    '"name": "users"',
    '"name": "README.md"',
    '"name": "pyproject.toml"',
    '"name": "refund_policy.py"',
    '"name": "carrier_webhooks.py"',
]
TOP = ("billing", "catalog", "checkout", "inventory", "shipping", "users")
SUB = ("api", "models", "services", "tests")


def _shop(root):
    """A project of 388 files: 6 apps x 4 folders x 16 modules, two modules named apart, two files at the root."""
    for app in TOP:
        for sub in SUB:
            folder = root / app / sub
            folder.mkdir(parents=True)
            for i in range(16):
                (folder / f"{app}_{sub}_{i:02d}.py").write_text(
                    f'"""{app}.{sub} module {i}."""\n\n\ndef handle_{i}(event):\n'
                    f"    # TODO({app}): validate event {i} before {sub} sees it\n    return event\n"
                )
    (root / "billing" / "services" / "refund_policy.py").write_text("# TODO: refunds past 30 days need a review\n")
    (root / "shipping" / "api" / "carrier_webhooks.py").write_text("# TODO: retry carrier webhooks\n")
    (root / "README.md").write_text("# shop\n")
    (root / "pyproject.toml").write_text('[project]\nname = "shop"\n')
    # a file the agent reads (and would edit from): big enough that any compaction would cut it
    (root / "catalog" / "pricing.py").write_text(
        "".join(f"def price_{i}(item):\n    return item.base * {1 + i / 100:.2f}  # tier {i}\n\n" for i in range(600))
    )


def _claude_call(claude, home, cwd, port, prompt, mcp_config):
    from tests.hosts.test_claude_code import claude_env

    done = subprocess.run(
        [claude, "-p", prompt, "--model", "claude-sonnet-4-5", "--output-format", "stream-json", "--verbose"]
        + ["--mcp-config", str(mcp_config), "--strict-mcp-config", "--allowedTools", "mcp__fs", "Grep", "Read"],
        env=claude_env(
            home,
            ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}",
            ANTHROPIC_API_KEY="sk-ant-dummy",
            ENABLE_TOOL_SEARCH="false",  # MCP tools offered up front, not behind ToolSearch
        ),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    events = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    [result] = [event for event in events if event.get("type") == "result"]
    return result


def _read_by_model(log):
    """The content of the one tool_result the model was sent back, as a string."""
    from tests.hosts.test_claude_code import tool_results

    [result] = tool_results(log)
    content = json.loads(result)
    if isinstance(content, list):  # text blocks
        return "\n".join(block["text"] for block in content if block.get("type") == "text")
    return content


def _document(text):
    """The JSON document the model read first (Claude Code may add a `<system-reminder>` after it)."""
    return json.JSONDecoder().raw_decode(text)[0]


def test_the_real_claude_reads_a_large_mcp_result_compacted_and_file_reads_byte_for_byte(isolated_home, tmp_path):
    """Claude Code 2.1.331 offline, the reference filesystem MCP server over a project of 388
    files, without tokenjuice and then with `tokenjuice install claude-code`: directory_tree
    reaches the model compacted with its must-keep names and the whole tree behind
    `tokenjuice cat ID`; read_text_file (MCP) and Read reach it byte for byte; Grep's content
    is compacted; nothing is denied or prompted for that was not before."""
    claude = hostclis.need("claude")
    server = hostclis.need("mcp-filesystem")
    work = tmp_path / "work"  # Claude Code's folder, which it gives the server as its root
    shop, tree = work / "shop", work / "tree"
    _shop(shop)
    mcp_tree.make_tree(tree)  # the project every host's run lists (docs/hosts.md, Non-shell tools)
    mcp_config = tmp_path / "mcp.json"
    mcp_config.write_text(json.dumps({"mcpServers": {"fs": {"command": server, "args": [str(work)]}}}))
    calls = {
        "directory_tree": f'CALL:mcp__fs__directory_tree {{"path": "{shop}"}}',
        "directory_tree, the hosts' project": f'CALL:mcp__fs__directory_tree {{"path": "{tree}"}}',
        "read_text_file": f'CALL:mcp__fs__read_text_file {{"path": "{shop}/catalog/pricing.py"}}',
        "Read": f'CALL:Read {{"file_path": "{shop}/catalog/pricing.py"}}',
        "Grep": f'CALL:Grep {{"pattern": "TODO\\\\((billing|catalog|checkout)\\\\)", "path": "{shop}", '
        '"output_mode": "content", "-n": true}',
        # over Grep's 20,000 characters Claude Code alone saves the content and shows a 2 KB preview
        "Grep, saved": f'CALL:Grep {{"pattern": "TODO", "path": "{shop}", "output_mode": "content", "-n": true}}',
    }
    read: dict[str, dict[str, str]] = {"without": {}, "with": {}}
    outcomes: dict[str, dict[str, object]] = {"without": {}, "with": {}}
    env = os.environ | {"PATH": f"{link_claude(claude, tmp_path)}:{os.environ['PATH']}"}
    with hostclis.MockModel(tmp_path / "requests.jsonl", "mock_anthropic.py") as model:
        for run in ("without", "with"):
            if run == "with":
                assert tokenjuice("install", "claude-code", "--local", env=env).returncode == 0
            for name, prompt in calls.items():
                model.log.write_text("")
                result = _claude_call(claude, isolated_home, work, model.port, prompt, mcp_config)
                outcomes[run][name] = (result.get("is_error"), result.get("permission_denials"))
                read[run][name] = _read_by_model(model.log)
    assert outcomes["with"] == outcomes["without"]  # nothing newly denied, prompted or failed
    assert all(denials == [] for _, denials in outcomes["with"].values())
    # the directory tree: compacted, its must-keep names there, the whole of it kept
    without, with_ = read["without"]["directory_tree"], read["with"]["directory_tree"]
    listing = _document(without)["content"]
    assert all(name in listing for name in TREE_MUST_KEEP) and len(with_) < len(without) / 2
    shown = _document(with_)["content"]
    assert [name for name in TREE_MUST_KEEP if name not in shown] == []
    artifact = shown.rsplit("tokenjuice cat ", 1)[1].split(")")[0].split()[0]
    assert tokenjuice("cat", artifact).stdout.decode() == listing
    # the hosts' shared project: its names chosen before tokenjuice ran (tests/fixtures/hosts/tools/mcp_tree.py)
    names = {
        run: [n for n in mcp_tree.MUST_KEEP if n in read[run]["directory_tree, the hosts' project"]] for run in read
    }
    assert names["with"] == list(mcp_tree.MUST_KEEP)
    print(
        f"claude-code directory_tree of the hosts' project: names read {len(names['without'])} -> {len(names['with'])}"
    )
    # file reads: what the agent edits from, byte for byte
    for name in ("read_text_file", "Read"):
        assert read["with"][name] == read["without"][name] and "price_599" in read["with"][name]
    # Grep's content: under 20,000 characters (a search's budget, and what Claude Code shows itself) it is
    # read as Claude Code shows it; past what Claude Code saves to a file, the compacted result, not a pointer to it
    assert len(read["with"]["Grep"]) == len(read["without"]["Grep"]) and "tokenjuice" not in read["with"]["Grep"]
    assert "TODO(checkout)" in read["with"]["Grep"] and "TODO(users)" not in read["with"]["Grep"]
    saved, compacted = read["without"]["Grep, saved"], read["with"]["Grep, saved"]
    assert "<persisted-output>" in saved and "<persisted-output>" not in compacted and "tokenjuice cat " in compacted
    apps = {run: {app for app in TOP if f"TODO({app})" in read[run]["Grep, saved"]} for run in read}
    assert len(apps["with"]) > len(apps["without"])  # the preview is the first 2 KB: one app's matches
    print(f"claude-code Grep, saved: apps with matches read {len(apps['without'])} -> {len(apps['with'])}")
    for name in calls:
        print(f"claude-code {name}: the model read {len(read['without'][name])} -> {len(read['with'][name])} chars")
