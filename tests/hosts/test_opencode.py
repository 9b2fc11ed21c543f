"""OpenCode: the hook protocol, its reading of OpenCode's permission rules, the
generated plugin (syntax, and its logic under node with a stand-in Bun shell),
install/uninstall/doctor, and (when the real client is installed) OpenCode
loading the plugin in an offline `opencode run`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import hostclis
import pytest
from conftest import REPO, git, tokenjuice
from shell.test_rewrite import LEFT_ALONE, WRAPPED

from tokenjuice.hosts import hook as host_hook
from tokenjuice.hosts import opencode
from tokenjuice.hosts.permissions import opencode as perms

LAUNCHER = f"{sys.executable} -m tokenjuice"
FIXTURES = REPO / "tests" / "fixtures" / "hosts" / "opencode"
TOOLS = REPO / "tests" / "fixtures" / "hosts" / "tools"
HARNESS = REPO / "tests" / "opencode_plugin_harness.mjs"
NODE = shutil.which("node")


def payload(command, directory, **args):
    return {"tool": "bash", "args": {"command": command, **args}, "directory": str(directory), "worktree": "/"}


def respond(data):
    return host_hook.respond(opencode.OpenCode(), data, LAUNCHER, os.environ)


def config(isolated_home, data):
    path = isolated_home / ".config" / "opencode" / "opencode.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))
    return path


# -- the hook protocol ---------------------------------------------------------------


def test_the_research_payload_gets_a_valid_answer(workdir):
    before = json.loads((FIXTURES / "tool.execute.before.bash.args.json").read_text())
    data = {"tool": before["input"]["tool"], "args": before["output"]["args"], "directory": str(workdir)}
    answer = respond(data)
    assert answer["command"].startswith(f"{LAUNCHER} wrap --source opencode --keep-path -- ")


@pytest.mark.parametrize("command", WRAPPED)
def test_the_hostile_table_wraps_the_same(workdir, command):
    assert " wrap --source opencode --keep-path -- " in respond(payload(command, workdir))["command"]


@pytest.mark.parametrize("command", list(LEFT_ALONE))
def test_the_hostile_table_leaves_the_same_alone(workdir, command):
    assert respond(payload(command, workdir)) == {}


def test_foreign_or_malformed_payloads_are_neutral(workdir):
    for data in (
        {"tool": "read", "args": {"command": "ls"}},
        {"tool": "bash"},
        {"tool": "bash", "args": {"command": 1}},
        {"tool": "bash", "args": []},
    ):
        assert respond(data) == {}


def test_workdir_is_where_the_command_runs(workdir, tmp_path, isolated_home):
    inside = workdir / "sub"
    inside.mkdir()
    config(isolated_home, {"permission": {"bash": {"*": "allow"}}})
    assert "command" in respond(payload("cat notes.txt", workdir, workdir=str(inside)))
    assert respond(payload("cat /etc/hostname", workdir)) == {}  # external_directory would ask


# -- OpenCode's rules ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, pattern, matched",
    [
        ("git status", "git *", True),
        ("git", "git *", True),  # a trailing " *" also matches nothing
        ("gitk", "git *", False),
        ("rm -rf x", "rm *", True),
        ("rm", "r?", True),
        ("a\nb", "a*", True),
        ("C:\\x", "C:/*", True),
        ("echo", "*", True),
        ("echo a", "echo", False),
    ],
)
def test_opencode_wildcard(text, pattern, matched):
    assert perms.wildcard(text, pattern) is matched


def decide(command, project=None, rewritten=None, cwd=None):
    return perms.decision(command, rewritten, cwd or project, project, os.environ)


def test_deny_ask_allow_none(isolated_home, workdir):
    assert decide("git status", str(workdir)) == "none"
    config(isolated_home, {"permission": {"bash": {"*": "allow", "rm *": "deny", "git push*": "ask"}}})
    assert decide("git status", str(workdir)) == "allow"
    for command in ("rm -rf x", "sudo rm x", "/bin/rm x", "make && rm x", "sh -c 'rm x'", "echo $(rm x)"):
        assert decide(command, str(workdir)) == "deny", command
    assert decide("git push origin main", str(workdir)) == "ask"
    config(isolated_home, {"permission": {"bash": "ask"}})
    assert decide("ls", str(workdir)) == "ask"
    config(isolated_home, {"permission": "deny"})
    assert decide("ls", str(workdir)) == "deny"


def test_a_rewrite_that_would_be_asked_about_is_not_made(isolated_home, workdir):
    config(isolated_home, {"permission": {"bash": {"*": "ask", "git *": "allow"}}})
    assert decide("git status", str(workdir)) == "ask"  # "*" ask matches too: erring towards leaving it
    assert respond(payload("git status", workdir)) == {}
    config(isolated_home, {"permission": {"bash": {"git *": "allow", "*tokenjuice wrap*": "deny"}}})
    assert decide("git status", str(workdir), rewritten=f"{LAUNCHER} wrap -- bash -lc 'git status'") == "ask"


def test_every_config_layer_and_agent_counts(isolated_home, tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    (repo / "pkg" / ".opencode").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    (repo / "opencode.jsonc").write_text('// team\n{"permission": {"bash": {"make *": "deny",},},}\n')
    (repo / "pkg" / ".opencode" / "opencode.json").write_text(
        '{"agent": {"build": {"permission": {"bash": {"curl *": "ask"}}}}}'
    )
    assert decide("make deploy", str(repo / "pkg")) == "deny"
    assert decide("curl x", str(repo / "pkg")) == "ask"
    monkeypatch.setenv("OPENCODE_PERMISSION", json.dumps({"bash": {"npm publish*": "deny"}}))
    assert decide("npm publish", str(repo)) == "deny"
    monkeypatch.setenv("OPENCODE_CONFIG_CONTENT", '{"permission": {"bash": {"terraform *": "ask"}}}')
    assert decide("terraform apply", str(repo)) == "ask"
    monkeypatch.setenv("OPENCODE_DISABLE_PROJECT_CONFIG", "1")
    assert decide("make deploy", str(repo / "pkg")) == "none"


@pytest.mark.parametrize(
    "content",
    ['{"permission": {"bash": {"x": "maybe"}}}', "{oops", '{"permission": {"bash": "{file:./rules.txt}"}}', "[]"],
)
def test_a_layer_that_cannot_be_read_exactly_means_ask(isolated_home, workdir, content):
    path = isolated_home / ".config" / "opencode" / "opencode.json"
    path.parent.mkdir(parents=True)
    path.write_text(content)
    assert decide("ls", str(workdir)) == "ask"


def test_agent_markdown_with_permissions_means_ask(isolated_home, workdir):
    agents = isolated_home / ".config" / "opencode" / "agent"
    agents.mkdir(parents=True)
    (agents / "review.md").write_text("---\ndescription: x\n---\nbody\n")
    assert decide("ls", str(workdir)) == "none"
    (agents / "review.md").write_text("---\npermission:\n  bash:\n    'rm *': deny\n---\nbody\n")
    assert decide("ls", str(workdir)) == "ask"


def test_external_directory(workdir):
    project = str(workdir)
    assert decide("cat notes.txt", project) == "none"
    assert decide("cat ../elsewhere.txt", project) == "ask"
    assert decide("rm -rf ~/x", project) == "ask"
    assert decide("ls /etc", project) == "none"  # OpenCode checks only cd/rm/cp/mv/mkdir/touch/chmod/chown/cat


# -- the plugin file ------------------------------------------------------------------------


def plugin_file(tmp_path, command=None, mode="pre", tools="all"):
    command = command or opencode.OpenCode().hook_command(LAUNCHER)
    path = tmp_path / "tokenjuice.mjs"
    path.write_text(opencode.plugin_source(command, mode, tools))
    return path


def test_the_plugin_embeds_the_hook_command_word_by_word(tmp_path):
    command = opencode.OpenCode().hook_command(LAUNCHER)
    source = opencode.plugin_source(command)
    assert source.splitlines()[0].startswith("// tokenjuice:generated")
    assert opencode.hook_command_of(source) is not None
    assert opencode.OpenCode()._ours(source)
    assert not opencode.OpenCode()._ours(source + "\n")


needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed: the plugin's JavaScript is not checked")


@needs_node
def test_node_accepts_the_plugin_syntax(tmp_path):
    done = subprocess.run([NODE, "--check", str(plugin_file(tmp_path))], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def run_plugin(tmp_path, call, mode="real", command=None, plugin_mode="pre", tools="all"):
    env = os.environ | {"PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [NODE, str(HARNESS), str(plugin_file(tmp_path, command, plugin_mode, tools)), json.dumps(call), mode],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_node
def test_the_plugin_rewrites_in_place_through_the_shell(tmp_path, workdir):
    result = run_plugin(tmp_path, payload("git status", workdir, description="d", timeout=5000))
    assert not result["threw"] and result["shellCalls"] == 1
    assert result["args"]["command"].startswith(f"{LAUNCHER} wrap --source opencode")
    assert result["args"]["description"] == "d" and result["args"]["timeout"] == 5000
    result = run_plugin(tmp_path, payload("vim x", workdir))
    assert result["args"]["command"] == "vim x"
    result = run_plugin(tmp_path, {"tool": "read", "args": {"command": "ls"}, "directory": str(workdir)})
    assert result["args"]["command"] == "ls" and result["shellCalls"] == 0


@needs_node
@pytest.mark.parametrize("mode", ["throw", "garbage", "nodollar", "hang"])
def test_the_plugin_never_fails_a_call(tmp_path, workdir, mode):
    result = run_plugin(tmp_path, payload("git status", workdir), mode)  # "hang" ends within the plugin's own timeout
    assert result == {"args": {"command": "git status"}, "threw": False, "shellCalls": result["shellCalls"]}


@needs_node
def test_the_plugin_with_a_missing_interpreter_leaves_the_command(tmp_path, workdir):
    gone = opencode.OpenCode().hook_command(f"{tmp_path}/gone/python -m tokenjuice")
    result = run_plugin(tmp_path, payload("git status", workdir), command=gone)
    assert result["args"]["command"] == "git status" and not result["threw"]


SEQ = "".join(f"{i}\n" for i in range(1, 3001))


def after_call(command, output, directory, **metadata):
    return {
        "event": "after",
        "tool": "bash",
        "args": {"command": command, "description": "d"},
        "directory": str(directory),
        "output": output,
        "metadata": {"output": output, "exit": 0, "truncated": False, **metadata},
    }


@needs_node
def test_the_post_plugin_replaces_the_output_after_the_run(tmp_path, workdir):
    result = run_plugin(tmp_path, after_call("seq 1 3000; exit 3", SEQ, workdir, exit=3), plugin_mode="post")
    assert not result["threw"] and result["shellCalls"] == 1
    assert result["output"].startswith("exit 3\n") and "lines omitted" in result["output"]
    assert "tokenjuice cat" in result["output"]
    assert run_plugin(tmp_path, after_call("echo hi", "hi\n", workdir), plugin_mode="post")["output"] == "hi\n"
    before = run_plugin(tmp_path, payload("git status", workdir), plugin_mode="post")
    assert before["args"]["command"] == "git status" and before["shellCalls"] == 0  # post mode never rewrites
    after = run_plugin(tmp_path, after_call("seq 1 3000", SEQ, workdir), plugin_mode="pre")
    assert after["output"] == SEQ and after["shellCalls"] == 0  # pre mode never replaces output


@needs_node
@pytest.mark.parametrize("mode", ["throw", "garbage", "nodollar", "hang"])
def test_the_post_plugin_never_fails_a_call(tmp_path, workdir, mode):
    result = run_plugin(tmp_path, after_call("seq 1 3000", SEQ, workdir), mode, plugin_mode="post")
    assert result["output"] == SEQ and not result["threw"]


def test_post_reads_the_file_opencode_saved_only_when_it_is_opencodes_and_the_users(tmp_path, workdir):
    saved = tmp_path / "share" / "opencode" / "tool-output" / "tool_1"
    saved.parent.mkdir(parents=True)
    saved.write_text(SEQ)
    shown = f"...output truncated...\n\nFull output saved to: {saved}\n\n" + SEQ[-2000:]

    def answer(text, path):
        call = after_call("seq 1 3000", text, workdir)  # as the plugin sends it: metadata's fields on top
        call |= {"exit": 0, "truncated": True, "outputPath": str(path)}
        return host_hook.respond(opencode.OpenCode(), call, LAUNCHER, os.environ).get("output", "")

    assert "of 3,000 lines omitted" in answer(shown, saved)
    other = tmp_path / "notes"
    other.write_text(SEQ)
    assert "of 3,000 lines omitted" not in answer(shown.replace(str(saved), str(other)), other)  # not OpenCode's


def test_post_reads_a_saved_file_no_bigger_than_what_wrap_would_keep(tmp_path, workdir, monkeypatch):
    """Every post-run host reads a saved output up to `capture.max_bytes`, as wrap keeps
    (Claude Code's rule, docs/hosts.md); a bigger one is left to the host's own preview."""
    saved = tmp_path / "share" / "opencode" / "tool-output" / "tool_big"
    saved.parent.mkdir(parents=True)
    saved.write_text(SEQ)  # 13,893 bytes
    shown = f"...output truncated...\n\nFull output saved to: {saved}\n\n" + SEQ[-2000:]
    call = after_call("seq 1 3000", shown, workdir) | {"exit": 0, "truncated": True, "outputPath": str(saved)}
    assert "of 3,000 lines omitted" in host_hook.respond(opencode.OpenCode(), call, LAUNCHER, os.environ)["output"]
    monkeypatch.setenv("TOKENJUICE_MAX_CAPTURE_BYTES", "8192")
    assert host_hook.respond(opencode.OpenCode(), call, LAUNCHER, os.environ) == {}


# -- install / uninstall / doctor ----------------------------------------------------------------


def test_install_round_trip_and_refusals(workdir, isolated_home):
    path = isolated_home / ".config" / "opencode" / "plugins" / "tokenjuice.js"
    done = tokenjuice("install", "opencode", "--local")
    assert done.returncode == 0 and b"restart OpenCode" in done.stdout
    assert opencode.OpenCode()._ours(path.read_text()) and opencode.plugin_mode(path.read_text()) == "post"
    assert tokenjuice("install", "opencode", "--local", "--mode", "pre").returncode == 0
    assert opencode.plugin_mode(path.read_text()) == "pre"
    assert tokenjuice("install", "opencode", "--local").returncode == 0
    assert b"already up to date" in tokenjuice("install", "opencode", "--local").stdout
    assert tokenjuice("uninstall", "opencode").returncode == 0
    assert not path.exists() and (not path.parent.exists() or sorted(os.listdir(path.parent)) == [])
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("export const Mine = async () => ({})\n")
    done = tokenjuice("install", "opencode", "--local")
    assert done.returncode == 2 and b"not written by tokenjuice" in done.stderr
    assert b"nothing to remove" in tokenjuice("uninstall", "opencode").stdout
    path.unlink()
    tokenjuice("install", "opencode", "--local")
    path.write_text(path.read_text() + "// my tweak\n")
    done = tokenjuice("uninstall", "opencode")
    assert done.returncode == 2 and b"changed since tokenjuice wrote it" in done.stderr and path.exists()
    assert json.loads(tokenjuice("doctor", "opencode", "--local", "--format", "json").stdout)["status"] == "broken"


def test_xdg_config_home_and_project_install(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert tokenjuice("install", "opencode", "--local").returncode == 0
    assert (tmp_path / "xdg" / "opencode" / "plugins" / "tokenjuice.js").exists()
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    assert tokenjuice("install", "opencode", "--project", "--local", cwd=repo).returncode == 0
    assert (repo / ".opencode" / "plugins" / "tokenjuice.js").exists()
    assert tokenjuice("uninstall", "opencode", "--project", cwd=repo).returncode == 0
    assert not (repo / ".opencode" / "plugins" / "tokenjuice.js").exists()


def test_doctor_deep(workdir):
    tokenjuice("install", "opencode", "--local")
    result = json.loads(tokenjuice("doctor", "opencode", "--local", "--deep", "--format", "json").stdout)
    assert result["deep"]["ok"] and result["deep"]["commandExitCode"] == 7, result
    names = {c["name"]: c["status"] for c in result["checks"]}
    assert names.get("syntax", "ok") == "ok" and names["probe"] == "ok"


# -- the real client -----------------------------------------------------------------------------


@pytest.fixture
def model_server(tmp_path):
    """mock_openai.py; the bash tool here needs a description."""
    with hostclis.MockModel(tmp_path / "requests.jsonl", MOCK_BASH_DESCRIPTION="1") as server:
        yield server.port, server.log


def opencode_run(isolated_home, tmp_path, port, log, prompt, permission=None):
    settings = json.loads((FIXTURES / "plugin" / "opencode.json").read_text())
    settings["provider"]["mock"]["options"]["baseURL"] = f"http://127.0.0.1:{port}/v1"
    if permission:
        settings["permission"] = permission
    config(isolated_home, settings)
    project = tmp_path / "proj"
    project.mkdir(exist_ok=True)
    log.write_text("")
    env = os.environ | {"PYTHONPATH": str(REPO), "XDG_STATE_HOME": str(isolated_home / ".local" / "state")}
    subprocess.run(
        [hostclis.need("opencode"), "run", prompt],
        cwd=project,
        env=env,
        capture_output=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )
    return hostclis.chat_tool_messages(log), project


def test_real_opencode_compacts_after_the_run_by_default(isolated_home, tmp_path, model_server, workdir):
    port, log = model_server
    assert tokenjuice("install", "opencode", "--local").returncode == 0
    script = tmp_path / "pytest"
    script.write_text(f"#!/bin/sh\ncat {REPO}/tests/fixtures/hosts/pytest-failing.out.txt\nexit 1\n")
    script.chmod(0o755)
    messages, _ = opencode_run(isolated_home, tmp_path, port, log, "RUN:seq 1 3000")
    assert len(messages) == 1 and "of 3,000 lines omitted" in messages[0] and "tokenjuice cat" in messages[0]
    messages, _ = opencode_run(isolated_home, tmp_path, port, log, "RUN:seq 1 100000")
    # Compacted from the file OpenCode saved the whole output to, not from its preview of the
    # last 2,000 lines. On a loaded machine OpenCode's own capture can end early (CI saw its
    # preview and its file both stop at line 32,571): what it saved is all there is to compact.
    saved = max((isolated_home / ".local" / "share" / "opencode" / "tool-output").iterdir(), key=os.path.getmtime)
    lines = saved.read_text().splitlines()
    total = len(lines)
    assert total > 3000 and f" of {total:,} lines omitted" in messages[0], (total, messages[0][-300:])
    assert f"\n{lines[-2]}\n{lines[-1]}\n(tokenjuice: " in messages[0]
    messages, _ = opencode_run(isolated_home, tmp_path, port, log, f"RUN:{script} -v")
    [text] = messages
    assert text.startswith("exit 1\n") and "tokenjuice cat" in text and len(text) < 10_970 // 4, text
    assert "FAILED test_many.py::test_fails_two - ValueError: broken thing at step 7" in text
    messages, _ = opencode_run(isolated_home, tmp_path, port, log, "RUN:echo hi")
    assert messages == ["hi\n"]  # nothing to save: nothing added


def test_real_opencode_loads_the_plugin_and_honours_deny_rules(isolated_home, tmp_path, model_server, workdir):
    port, log = model_server
    assert tokenjuice("install", "opencode", "--local", "--mode", "pre").returncode == 0
    messages, _ = opencode_run(isolated_home, tmp_path, port, log, "RUN:seq 1 3000")
    assert len(messages) == 1 and "lines omitted" in messages[0] and "tokenjuice cat" in messages[0], messages
    (tmp_path / "proj" / "victim").write_text("x")
    rules = {"bash": {"*": "allow", "rm *": "deny"}}
    messages, project = opencode_run(isolated_home, tmp_path, port, log, "RUN:rm -f victim", rules)
    assert "prevents you" in messages[0] and (project / "victim").exists()


def test_doctor_prints_no_fix_that_does_not_fix(tmp_path, workdir):
    """Issue 31: a launcher in a temporary place is a warning reinstalling does not change,
    so neither `doctor opencode` nor `doctor hooks` names `tokenjuice install` as its fix."""
    venv = Path(sys.prefix)
    moved = tmp_path / ".cache" / "venv"  # a versioned or temporary place (manage.VOLATILE_MARKERS)
    (moved / "bin").mkdir(parents=True)
    shutil.copy(venv / "pyvenv.cfg", moved / "pyvenv.cfg")
    (moved / "lib").symlink_to(venv / "lib")
    (moved / "bin" / "python").symlink_to(sys.executable)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(moved / "bin" / "python"), "-m", "tokenjuice", *args], capture_output=True, text=True, timeout=120
        )

    assert run("install", "opencode", "--local").returncode == 0
    for args in (("doctor", "opencode", "--local"), ("doctor", "hooks", "--local")):
        done = run(*args)
        assert "lives in a versioned or temporary location" in done.stdout, done.stdout + done.stderr
        assert "fix: tokenjuice install" not in done.stdout, done.stdout
