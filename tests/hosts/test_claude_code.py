"""Claude Code: the PostToolUse compaction (2.1.121+), the PreToolUse rewrite (older
versions, --mode pre) where the permission rules allow it (the rules themselves:
permissions/test_claude.py), install/uninstall/doctor, and checks against the real
client when it is installed (TOKENJUICE_TEST_CLAUDE)."""

import json
import os
import shutil
import subprocess
import sys

import hostclis
import pytest
from conftest import REPO, git, tokenjuice
from helpers import HOOK_SCRIPT, stored_id

from tokenjuice.hosts import ALLOW, ASK, claude_code, manage, postrun
from tokenjuice.hosts.permissions import claude as claude_permissions

LAUNCHER = f"{sys.executable} -m tokenjuice"
HOOK_COMMAND = f"{HOOK_SCRIPT} claude-code --wrap-launcher '{LAUNCHER}'"
LOCATION_WARNINGS = manage.launcher_warnings(HOOK_SCRIPT)
HEALTHY = "warn" if LOCATION_WARNINGS else "ok"
FIXTURES = REPO / "tests" / "fixtures" / "hosts" / "claude-code"
PAYLOADS = FIXTURES / "payloads"
TOOLS = REPO / "tests" / "fixtures" / "hosts" / "tools"


def hook(payload, env=None, raw=False, cwd=None):
    data = payload if raw else json.dumps(payload)
    done = tokenjuice("hook", "claude-code", "--wrap-launcher", LAUNCHER, input=data, env=env, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith(b"\n") and done.stdout.count(b"\n") == 1
    assert b"Traceback" not in done.stderr
    return json.loads(done.stdout)


def fixture(name):
    return json.loads((PAYLOADS / name).read_text())


def post_payload(command, stdout, cwd, **response):
    payload = fixture("posttooluse.bash.input.json")
    payload["cwd"] = str(cwd)
    payload["tool_input"]["command"] = command
    payload["tool_response"]["stdout"] = stdout
    payload["tool_response"].update(response)
    return payload


def pre_payload(command, cwd, mode="default", **tool_input):
    payload = fixture("pretooluse.bash.input.json")
    payload["cwd"] = str(cwd)
    payload["permission_mode"] = mode
    payload["tool_input"] = {"command": command, "description": "run it", **tool_input}
    return payload


def numbers(count=3000):
    return "\n".join(str(i) for i in range(1, count + 1))


def updated_output(answer):
    output = answer["hookSpecificOutput"]
    assert output["hookEventName"] == "PostToolUse"
    updated = output["updatedToolOutput"]
    # The whole Bash output object, or Claude silently keeps the original.
    assert isinstance(updated["stdout"], str) and updated["stderr"] == ""
    assert isinstance(updated["interrupted"], bool)
    return updated


def spooled(home):
    """The runs in the ledger's spool (not the read-backs `tokenjuice cat` adds there)."""
    path = home / ".local" / "share" / "tokenjuice" / "ledger-spool.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    return [record for record in records if record.get("kind") != "readback"]


@pytest.fixture
def claude_home(isolated_home):
    """~/.claude of the test's HOME (Claude reads its settings and rules there)."""
    folder = isolated_home / ".claude"
    folder.mkdir()
    return folder


def write_settings(folder, **data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps(data))


# -- every payload Claude Code sent gets an answer it accepts ----------------------------------


def answer_problem(payload, answer):
    """Why Claude Code would not accept `answer` to `payload` (None when it would)."""
    if answer == {}:
        return None
    output = answer.get("hookSpecificOutput")
    if not isinstance(output, dict) or output.get("hookEventName") != payload["hook_event_name"]:
        return "hookEventName differs from the event"
    if payload["hook_event_name"] == "PreToolUse":
        updated = output.get("updatedInput")
        if not isinstance(updated, dict) or not isinstance(updated.get("command"), str):
            return "updatedInput without a command"
        if set(payload["tool_input"]) - set(updated):
            return "updatedInput dropped a field of tool_input"
        if output.get("permissionDecision") not in (None, "allow"):
            return "a decision other than allow"
        return None
    if payload["hook_event_name"] == "PostToolUse" and payload["tool_name"] != "Bash":
        updated, response = output.get("updatedToolOutput"), payload["tool_response"]
        if payload["tool_name"].startswith("mcp__"):  # the shape it came in: a string or content blocks
            return None if type(updated) is type(response) else "an MCP result in another shape"
        if payload["tool_name"] == "Grep" and isinstance(updated, dict) and set(updated) == set(response):
            return None  # Grep's own output object, or Claude silently keeps the original
        return f"{payload['tool_name']}'s output replaced"
    if payload["hook_event_name"] == "PostToolUse":
        problem = claude_code.post_answer_problem(answer, payload["tool_response"]["stdout"] + "x" * 10**6)
        return None if problem is None or "not shorter" in problem else problem
    return "an answer to an event whose output cannot be replaced"


@pytest.mark.parametrize("name", sorted(p.name for p in PAYLOADS.glob("*.input.json")))
@pytest.mark.parametrize("mode", ["default", "bypassPermissions"])
def test_every_recorded_payload_gets_an_answer_claude_accepts(workdir, name, mode):
    payload = fixture(name)
    payload["cwd"] = str(workdir)
    payload["permission_mode"] = mode
    answer = hook(payload)
    assert answer_problem(payload, answer) is None, answer
    if name.startswith(("posttoolusefailure", "pretooluse.bash-background", "posttooluse.bash-background")):
        assert answer == {}  # failures cannot be replaced; background output is read later
    if name == "posttooluse.bash-large-output.input.json":
        assert answer == {}  # its persistedOutputPath is gone: the whole output cannot be seen
    if name == "pretooluse.bash.input.json":
        # No rule allows it: Claude would prompt in default mode, and a rewrite would only move the prompt.
        assert (answer == {}) is (mode == "default")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"[]",
        b'"PostToolUse"',
        b"\xff\xfe",
        b'{"hook_event_name": "PostToolUse"}',
        b'{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}',
        b'{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},'
        b' "tool_response": {"stdout": "x"}}',
        b'{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"},'
        b' "tool_response": "a string"}',
        b'{"hook_event_name": "PostToolUse", "tool_name": "Read", "tool_input": {"command": "ls"},'
        b' "tool_response": {"stdout": "x", "stderr": "", "interrupted": false}}',
        b'{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": 7}}',
        b'{"hook_event_name": "Stop"}',
    ],
)
def test_malformed_or_foreign_payloads_answer_empty_json(workdir, raw):
    assert hook(raw, raw=True) == {}


# -- post: compact what a command printed ---------------------------------------------------------


def test_a_long_output_is_compacted_and_kept_whole(workdir, isolated_home):
    answer = hook(post_payload("seq 1 3000", numbers(), workdir))
    stdout = updated_output(answer)["stdout"]
    assert stdout.startswith("1\n2\n") and "\n3000\n" in stdout and len(stdout) < len(numbers()) / 2
    trailer = stdout.splitlines()[-1]
    assert trailer.startswith("(tokenjuice: ") and "tokenjuice cat " in trailer
    artifact = stored_id(stdout.encode())
    assert tokenjuice("cat", artifact).stdout.decode() == numbers()
    [record] = spooled(isolated_home)
    assert record["source"] == "claude-code" and record["argv0"] == "seq"
    assert record["exit_code"] is None  # PostToolUse carries none: unknown, not 0
    assert record["artifact_id"] == artifact


def test_a_megabyte_command_is_answered_at_once_and_its_output_left_alone(workdir, isolated_home):
    """Security issue 29: a PostToolUse whose command is 1 MB (a script of 500,000 steps)
    took 8 s of CPU and 536 MB to classify before Claude's timeout. The hook now reads
    no command longer than one argument can be (hook.WORK_TOKENS bounds the rest): it
    answers valid JSON, leaves Claude's output as it is, records and stores nothing (the
    engine never ran), and its process stays small. The same output of a short command
    is compacted (the control)."""
    import resource

    assert updated_output(hook(post_payload("./run-steps.sh", numbers(), workdir)))["stdout"]
    assert len(spooled(isolated_home)) == 1
    payload = json.dumps(post_payload(":;" * 500_000, numbers(), workdir))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    assert hook(payload, raw=True) == {}
    assert len(spooled(isolated_home)) == 1  # no second run: the command was not classified
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the largest child so far, in KiB
    if sys.platform == "linux" and peak > before:
        assert peak < 100 * 1024, f"the hook's process peaked at {peak // 1024} MiB"


def test_an_unknown_exit_code_is_never_invented(workdir):
    failing = "\n".join(f"check {i}: FAILED" for i in range(3000))
    stdout = updated_output(hook(post_payload("./run-checks.sh", failing, workdir)))["stdout"]
    assert stdout.startswith("check 0: FAILED\n") and "exit 0" not in stdout and "exit 1" not in stdout


def test_a_short_output_is_left_as_it_is(workdir, isolated_home):
    assert hook(post_payload("echo hi", "hi", workdir)) == {}
    assert hook(post_payload("ls", "a\nb\nc", workdir)) == {}
    assert spooled(isolated_home) == []  # shown whole without running the engine
    from tokenjuice.reduce import engine

    assert postrun.TINY_OUTPUT == engine.TINY_CHARS
    from tokenjuice import capture

    assert postrun.SAVED_LIMIT == capture.DEFAULT_MAX_CAPTURE_BYTES  # a host's saved file: what wrap would keep


def test_a_short_output_with_escapes_is_shown_as_tokenjuice_shows_it(workdir):
    stdout = updated_output(hook(post_payload("make", "\x1b[31mred\x1b[0m and \x07bell", workdir)))["stdout"]
    assert stdout == "red and \\x07bell"


def test_interrupted_and_return_code_interpretation_are_kept(workdir):
    payload = post_payload("diff a b", numbers(), workdir, interrupted=True, returnCodeInterpretation="Files differ")
    updated = updated_output(hook(payload))
    assert updated["interrupted"] is True and updated["returnCodeInterpretation"] == "Files differ"


def test_stderr_arrives_with_stdout_as_claude_shows_it(workdir):
    payload = post_payload("make", numbers(2000), workdir, stderr="make: *** [all] Error 2")
    stdout = updated_output(hook(payload))["stdout"]
    assert "make: *** [all] Error 2" in stdout


def test_a_persisted_output_is_read_whole_from_its_file(workdir, tmp_path):
    payload = fixture("posttooluse.bash-large-output.input.json")
    full = numbers(100000) + "\n"
    saved = tmp_path / "tool-results" / "b1.txt"
    saved.parent.mkdir()
    saved.write_text(full)
    payload["cwd"] = str(workdir)
    payload["tool_response"]["persistedOutputPath"] = str(saved)
    stdout = updated_output(hook(payload))["stdout"]
    assert (
        "\n100000\n" in stdout
        and "of 100,000 lines omitted" in stdout
        and len(stdout) <= claude_code.CLAUDE_PREVIEW_CHARS
    )
    artifact = stored_id(stdout.encode())
    assert tokenjuice("cat", artifact).stdout.decode() == full


def test_a_persisted_output_is_left_to_claude_when_its_preview_is_shorter(workdir, tmp_path):
    payload = fixture("posttooluse.bash-large-output.input.json")
    saved = tmp_path / "b2.txt"
    saved.write_text("".join(f"line {i}: some text of a log file\n" for i in range(2000)))
    payload["cwd"] = str(workdir)
    payload["tool_input"]["command"] = "cat app.log"  # an exact read: tokenjuice would show 16 KB of it
    payload["tool_response"]["persistedOutputPath"] = str(saved)
    assert hook(payload) == {}


@pytest.mark.parametrize("kind", ["fifo", "symlink", "too-big", "missing", "directory"])
def test_a_persisted_output_that_cannot_be_read_whole_is_left_to_claude(workdir, tmp_path, kind):
    payload = fixture("posttooluse.bash-large-output.input.json")
    payload["cwd"] = str(workdir)
    target = tmp_path / "saved.txt"
    real = tmp_path / "real.txt"
    real.write_text(numbers(100000))
    env = None
    if kind == "fifo":
        os.mkfifo(target)  # opening it for reading must not block the hook
    elif kind == "symlink":
        target.symlink_to(real)
    elif kind == "too-big":
        target.write_text(numbers(100000))
        env = os.environ | {"TOKENJUICE_MAX_CAPTURE_BYTES": "65536"}
    elif kind == "directory":
        target.mkdir()
    payload["tool_response"]["persistedOutputPath"] = str(target)
    assert hook(payload, env=env) == {}  # a FIFO that blocked would time the hook out


def test_background_and_image_outputs_are_left_alone(workdir):
    assert hook(post_payload("npm run dev", numbers(), workdir, backgroundTaskId="b1")) == {}
    payload = post_payload("npm run dev", numbers(), workdir)
    payload["tool_input"]["run_in_background"] = True
    assert hook(payload) == {}
    assert hook(post_payload("screenshot", numbers(), workdir, isImage=True)) == {}


def test_the_kill_switch_and_skip_patterns_apply_after_the_run_too(workdir, isolated_home):
    payload = post_payload("seq 1 3000", numbers(), workdir)
    assert hook(payload, env=os.environ | {"TOKENJUICE_HOOK": "0"}) == {}
    assert hook(payload, env=os.environ | {"TOKENJUICE_HOOK_SKIP": "seq *"}) == {}
    assert (
        hook(
            post_payload("cd sub && seq 1 3000", numbers(), workdir), env=os.environ | {"TOKENJUICE_HOOK_SKIP": "seq *"}
        )
        == {}
    )
    assert "hookSpecificOutput" in hook(payload)


def test_secrets_in_a_short_output_are_redacted(workdir):
    secret = "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    stdout = updated_output(hook(post_payload("cat .env", secret, workdir)))["stdout"]
    assert "wJalrXUtnFEMI" not in stdout and "REDACTED" in stdout


# -- the same command is never compacted twice, whichever hooks run --------------------------------


def cursor_rewrite(command, cwd):
    done = tokenjuice(
        "hook",
        "cursor",
        "--wrap-launcher",
        LAUNCHER,
        input=json.dumps(
            {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command, "cwd": str(cwd)}}
        ),
    )
    return json.loads(done.stdout)


def claude_rewrite(command, cwd):
    answer = hook(pre_payload(command, cwd, mode="bypassPermissions"))
    return answer["hookSpecificOutput"]["updatedInput"]["command"]


def run(command, cwd):
    return subprocess.run(["/bin/sh", "-c", command], cwd=cwd, capture_output=True, text=True, check=False).stdout


def test_a_command_cursor_wrapped_is_not_rewritten_or_compacted_by_claude_hooks(workdir):
    wrapped = cursor_rewrite("seq 1 3000", workdir)["updated_input"]["command"]
    assert " wrap --source cursor " in wrapped
    assert hook(pre_payload(wrapped, workdir, mode="bypassPermissions")) == {}
    output = run(wrapped, workdir)
    assert "lines omitted" in output
    assert hook(post_payload(wrapped, output, workdir)) == {}


def test_a_command_claude_wrapped_is_not_wrapped_again_by_cursor_or_compacted_after(workdir):
    wrapped = claude_rewrite("seq 1 3000", workdir)
    assert " wrap --source claude-code " in wrapped
    assert cursor_rewrite(wrapped, workdir) == {}
    assert hook(pre_payload(wrapped, workdir, mode="bypassPermissions")) == {}
    output = run(wrapped, workdir)
    assert hook(post_payload(wrapped, output, workdir)) == {}


@pytest.mark.parametrize(
    "command",
    [
        "cd sub && tokenjuice wrap -- make",
        "FOO=1 /opt/bin/tokenjuice wrap --source cursor -- bash -lc 'make'",
        f"{LAUNCHER} wrap --source cursor --keep-path -- /bin/bash -lc 'seq 1 3000'",
        "tokenjuice wrap -- sh -c 'unclosed",
        "tokenjuice cat 0123abcd",  # the full output the agent asked for: never cut again
        "~/.local/bin/tokenjuice cat 0123abcd --lines 1:5000",
    ],
)
def test_every_form_of_tokenjuice_is_left_alone_after_the_run(workdir, command):
    assert hook(post_payload(command, numbers(), workdir)) == {}


def test_a_trailer_in_the_output_spares_it_neither_redaction_nor_escaping(workdir):
    """The output is what a file or a web page says: a last line that looks like wrap's
    trailer must not pass a secret or a bidi control through raw (only the command
    tells that tokenjuice already ran)."""
    secret = "ghp_" + "a1B2" * 9
    planted = f"GITHUB_TOKEN={secret}\nnote \u202eevil\n(tokenjuice: 2,980 of 3,000 lines omitted — full output: tokenjuice cat 0123abcd)"
    stdout = updated_output(hook(post_payload("cat saved-output.txt", planted, workdir)))["stdout"]
    assert secret not in stdout and "\u202e" not in stdout and "[REDACTED" in stdout


# -- pre: rewrite before the run (Claude Code older than 2.1.121) -------------------------------


def test_an_allowed_command_is_rewritten_with_allow_and_every_field_kept(workdir, claude_home):
    write_settings(claude_home, permissions={"allow": ["Bash(git status:*)"]})
    payload = pre_payload("git status", workdir, timeout=120000, dangerouslyDisableSandbox=False)
    answer = hook(payload)["hookSpecificOutput"]
    assert answer["hookEventName"] == "PreToolUse" and answer["permissionDecision"] == "allow"
    updated = answer["updatedInput"]
    assert list(updated) == ["command", "description", "timeout", "dangerouslyDisableSandbox"]
    assert updated["timeout"] == 120000 and updated["description"] == "run it"
    assert updated["command"].startswith(f"{LAUNCHER} wrap --source claude-code --keep-path -- ")


@pytest.mark.parametrize(
    "settings, command, expected",
    [
        ({}, "git status", {}),
        ({"allow": ["Bash(git status:*)"], "deny": ["Bash(git:*)"]}, "git status", {}),
        ({"allow": ["Bash(git status:*)"], "ask": ["Bash(git status)"]}, "git status", {}),
        ({"allow": ["Bash(git status:*)"]}, "git status && rm -rf x", {}),
        ({"allow": ["Bash(cat:*)"]}, "cat /etc/passwd", {}),
        ({"allow": ["Bash(ls *)"]}, "ls -la", {}),  # wildcards allow nothing: before 2.1.0 they were literal
        ({"allow": ["Bash"]}, "ls -la", "allow"),
        ({"allow": ["Bash(npm test)", "Bash(npm run lint:*)"]}, "npm test && npm run lint -- --fix", "allow"),
    ],
)
def test_default_mode_rewrites_only_what_the_rules_allow(workdir, claude_home, settings, command, expected):
    write_settings(claude_home, permissions=settings)
    answer = hook(pre_payload(command, workdir))
    if expected == {}:
        assert answer == {}
    else:
        assert answer["hookSpecificOutput"]["permissionDecision"] == expected


def test_bypass_mode_rewrites_unruled_commands_without_a_decision(workdir, claude_home):
    answer = hook(pre_payload("ls -la /usr", workdir, mode="bypassPermissions"))["hookSpecificOutput"]
    assert "permissionDecision" not in answer and " wrap --source claude-code " in answer["updatedInput"]["command"]
    env = os.environ | {"TOKENJUICE_HOOK_REWRITE_UNRULED": "0"}
    assert hook(pre_payload("ls -la /usr", workdir, mode="bypassPermissions"), env=env) == {}


@pytest.mark.parametrize("mode", ["plan", "auto", "somethingNew", None])
def test_modes_decided_by_more_than_rules_are_left_alone(workdir, claude_home, mode):
    write_settings(claude_home, permissions={"allow": ["Bash"]})
    payload = pre_payload("ls -la", workdir, mode=mode)
    assert hook(payload) == {}


@pytest.mark.parametrize(
    "command",
    [
        "rm -rf build",
        "sudo rm -rf build",
        "/bin/rm -rf build",
        "FOO=1 rm -rf build",
        "timeout 5 rm -rf build",
        "echo ok && rm -rf build",
        "bash -c 'rm -rf build'",
        "echo $(rm -rf build)",
        "RM -RF build",
    ],
)
def test_a_denied_command_is_never_rewritten_in_any_mode(workdir, claude_home, command):
    write_settings(claude_home, permissions={"deny": ["Bash(rm:*)"], "allow": ["Bash"]})
    for mode in ("default", "bypassPermissions", "acceptEdits", "dontAsk"):
        assert hook(pre_payload(command, workdir, mode=mode)) == {}


def test_rules_in_every_settings_file_count(workdir, claude_home, tmp_path):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    git("init", "-q", cwd=project)
    payload = pre_payload("make test", project / "sub", mode="bypassPermissions")
    assert "hookSpecificOutput" in hook(payload)
    for where in (project / "sub" / ".claude", project / ".claude"):
        for name in ("settings.json", "settings.local.json"):
            (where).mkdir(parents=True, exist_ok=True)
            (where / name).write_text(json.dumps({"permissions": {"ask": ["Bash(make:*)"]}}))
            env = os.environ | {"CLAUDE_PROJECT_DIR": str(project / "sub")}
            assert hook(payload, env=env) == {}, (where, name)
            (where / name).unlink()
    config = tmp_path / "config"
    write_settings(config, permissions={"deny": ["Bash(make test)"]})
    assert hook(payload, env=os.environ | {"CLAUDE_CONFIG_DIR": str(config)}) == {}
    assert "hookSpecificOutput" in hook(payload)


@pytest.mark.parametrize(
    "content", ["{not json", '{"permissions": []}', '{"permissions": {"deny": "Bash"}}', "\ufeff{}"]
)
def test_a_settings_file_that_cannot_be_read_exactly_means_ask(workdir, claude_home, content):
    (claude_home / "settings.local.json").write_text(content)
    assert hook(pre_payload("make test", workdir, mode="bypassPermissions")) == {}


def test_a_rule_matching_the_rewritten_command_leaves_it_alone(workdir, claude_home):
    write_settings(claude_home, permissions={"ask": ["Bash(*-lc*)"], "allow": ["Bash(make:*)"]})
    assert hook(pre_payload("make test", workdir)) == {}


def test_a_background_call_is_left_alone(workdir, claude_home):
    write_settings(claude_home, permissions={"allow": ["Bash"]})
    assert hook(pre_payload("make test", workdir, run_in_background=True)) == {}


# -- install / uninstall ----------------------------------------------------------------------------


@pytest.fixture
def fake_claude(tmp_path, monkeypatch):
    """A `claude` on PATH answering --version like the real one."""
    folder = tmp_path / "fake-bin"
    folder.mkdir()
    program = folder / "claude"

    def version(text):
        program.write_text(f"#!/bin/sh\necho '{text}'\n")
        program.chmod(0o755)

    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")
    version("2.1.331 (Claude Code)")
    return version


def tj(*args, **kwargs):
    return tokenjuice(*args, **kwargs)


def our_groups(path, event):
    data = json.loads(path.read_text())
    return [
        g
        for g in data.get("hooks", {}).get(event, [])
        if any(manage.is_our_command(h["command"], "claude-code") for h in g["hooks"])
    ]


ORIGINAL = """{
    "permissions": {"allow": ["Bash(npm test)"],   "deny": ["Bash(rm:*)"]},
  "env": {"FOO": "1", "RATIO": 2.50},
  "hooks": {
    "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  },
  "model": "opus"
}
"""


def test_install_writes_a_post_tool_use_group_claude_accepts(workdir, claude_home, fake_claude):
    done = tj("install", "claude-code", "--local", "--mode", "post")
    assert done.returncode == 0, done.stderr
    data = json.loads((claude_home / "settings.json").read_text())
    assert data == {
        "hooks": {
            "PostToolUse": [
                {
                    "matcher": claude_code.TOOLS_MATCHER,
                    "hooks": [{"type": "command", "command": HOOK_COMMAND, "timeout": 30}],
                }
            ]
        }
    }
    assert claude_code.settings_problems(data) == []
    assert b"start a new Claude Code session" in done.stdout


def test_the_installed_version_picks_the_mode(workdir, claude_home, fake_claude):
    path = claude_home / "settings.json"
    fake_claude("2.1.120 (Claude Code)")
    done = tj("install", "claude-code", "--local", "--format", "json")
    assert json.loads(done.stdout)["notes"][0].startswith("Claude Code 2.1.120 cannot replace a command's output")
    assert our_groups(path, "PreToolUse") and not our_groups(path, "PostToolUse")
    assert our_groups(path, "PreToolUse")[0]["hooks"][0]["timeout"] == 10
    fake_claude("2.1.121 (Claude Code)")
    assert json.loads(tj("install", "claude-code", "--local", "--format", "json").stdout)["action"] == "updated"
    assert our_groups(path, "PostToolUse") and our_groups(path, "PreToolUse")  # auto: both
    assert doctor()["status"] == HEALTHY and any(c["message"].startswith("auto: ") for c in doctor()["checks"])
    assert tj("install", "claude-code", "--local", "--mode", "post").returncode == 0
    assert our_groups(path, "PostToolUse") and not our_groups(path, "PreToolUse")
    assert "PreToolUse" not in json.loads(path.read_text())["hooks"]
    assert tj("install", "claude-code", "--local", "--mode", "pre").returncode == 0
    assert our_groups(path, "PreToolUse") and not our_groups(path, "PostToolUse")
    fake_claude("not a version")
    done = json.loads(tj("install", "claude-code", "--local", "--format", "json").stdout)
    assert our_groups(path, "PostToolUse") and "did not answer" in done["notes"][0]


def test_mode_is_for_hosts_that_have_modes(workdir, claude_home):
    done = tj("install", "cursor", "--local", "--mode", "pre")
    assert done.returncode == 2 and b"cursor has no mode" in done.stderr


def test_install_and_uninstall_leave_every_other_byte_alone(workdir, claude_home, fake_claude):
    path = claude_home / "settings.json"
    path.write_text(ORIGINAL)
    assert tj("install", "claude-code", "--local", "--mode", "post").returncode == 0
    text = path.read_text()
    assert '"permissions": {"allow": ["Bash(npm test)"],   "deny": ["Bash(rm:*)"]},' in text
    assert '"env": {"FOO": "1", "RATIO": 2.50},' in text
    data = json.loads(text)
    assert data["hooks"]["PreToolUse"] == json.loads(ORIGINAL)["hooks"]["PreToolUse"]
    assert tj("install", "claude-code", "--local", "--mode", "post").stdout.startswith(b"the Claude Code hook in")
    assert tj("uninstall", "claude-code").returncode == 0
    assert path.read_bytes() == ORIGINAL.encode()


def test_uninstall_after_edits_removes_only_our_hook(workdir, claude_home, fake_claude):
    path = claude_home / "settings.json"
    path.write_text(ORIGINAL)
    tj("install", "claude-code", "--local")
    data = json.loads(path.read_text())
    data["model"] = "sonnet"
    ours = data["hooks"]["PostToolUse"][0]["hooks"][0]
    # The user moved our hook into a group of their own, beside their hook.
    data["hooks"]["PostToolUse"] = [
        {"matcher": "Bash|Read", "hooks": [{"type": "command", "command": "./log.sh"}, ours]}
    ]
    path.write_text(json.dumps(data, indent=2))
    assert json.loads(tj("uninstall", "claude-code", "--format", "json").stdout)["action"] == "removed"
    after = json.loads(path.read_text())
    assert after["hooks"]["PostToolUse"] == [
        {"matcher": "Bash|Read", "hooks": [{"type": "command", "command": "./log.sh"}]}
    ]
    assert after["model"] == "sonnet" and after["permissions"] == json.loads(ORIGINAL)["permissions"]


def test_reinstall_takes_our_hook_out_of_a_users_group(workdir, claude_home, fake_claude):
    path = claude_home / "settings.json"
    mixed = {
        "matcher": "Bash",
        "hooks": [
            {"type": "command", "command": "./log.sh"},
            {"type": "command", "command": "/old/tokenjuice hook claude-code"},
        ],
    }
    path.write_text(json.dumps({"hooks": {"PostToolUse": [mixed]}}))
    assert tj("install", "claude-code", "--local").returncode == 0
    groups = json.loads(path.read_text())["hooks"]["PostToolUse"]
    assert groups[0] == {"matcher": "Bash", "hooks": [{"type": "command", "command": "./log.sh"}]}
    assert groups[1]["hooks"][0]["command"] == HOOK_COMMAND and len(groups) == 2


def test_a_foreign_hook_that_mentions_tokenjuice_is_never_ours(workdir, claude_home, fake_claude):
    foreign = [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./tokenjuice-audit.sh hook claude-code"}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "tokenjuice hook claude-code && ./log.sh"}]},
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "tokenjuice hook cursor"}]},
    ]
    path = claude_home / "settings.json"
    path.write_text(json.dumps({"hooks": {"PostToolUse": foreign, "PreToolUse": foreign}}))
    assert tj("install", "claude-code", "--local").returncode == 0
    assert tj("uninstall", "claude-code").returncode == 0
    assert json.loads(path.read_text())["hooks"] == {"PostToolUse": foreign, "PreToolUse": foreign}
    assert b"nothing to remove" in tj("uninstall", "claude-code").stdout


def test_claude_config_dir_and_project_settings(tmp_path, claude_home, fake_claude):
    config = tmp_path / "elsewhere"
    env = os.environ | {"CLAUDE_CONFIG_DIR": str(config)}
    assert tj("install", "claude-code", "--local", env=env).returncode == 0
    assert our_groups(config / "settings.json", "PostToolUse") and not (claude_home / "settings.json").exists()
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    assert tj("install", "claude-code", "--project", "--local", cwd=repo / "src").returncode == 0
    assert our_groups(repo / ".claude" / "settings.json", "PostToolUse")
    assert tj("uninstall", "claude-code", "--project", cwd=repo / "src").returncode == 0
    assert not (repo / ".claude" / "settings.json").exists()


@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "is not valid JSON"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"PostToolUse": {}}}', '"hooks.PostToolUse" is not a list'),
        ('{"hooks": {"PreToolUse": "x"}}', '"hooks.PreToolUse" is not a list'),
        ('{"a": 1, "a": 2}', 'repeats the key "a"'),
    ],
)
def test_files_it_cannot_understand_are_never_rewritten(workdir, claude_home, fake_claude, content, problem):
    path = claude_home / "settings.json"
    path.write_text(content)
    for command in (("install", "claude-code", "--local"), ("uninstall", "claude-code")):
        done = tj(*command)
        assert done.returncode == 2 and problem in done.stderr.decode()
        assert path.read_text() == content


def test_dry_run_writes_nothing(workdir, claude_home, fake_claude):
    path = claude_home / "settings.json"
    path.write_text(ORIGINAL)
    out = tj("install", "claude-code", "--local", "--dry-run").stdout.decode()
    assert out.startswith(f"--- {path}\n") and '"PostToolUse"' in out
    assert path.read_text() == ORIGINAL and not list(claude_home.glob("*.bak*"))


# -- doctor -------------------------------------------------------------------------------------


def doctor(*args, env=None):
    done = tj("doctor", "claude-code", "--local", "--format", "json", *args, env=env)
    return json.loads(done.stdout)


def test_doctor_states(workdir, claude_home, fake_claude):
    assert doctor()["status"] == "disabled"
    tj("install", "claude-code", "--local", "--mode", "post")
    assert doctor()["status"] == HEALTHY
    path = claude_home / "settings.json"
    data = json.loads(path.read_text())
    data["hooks"]["Stop"] = [{"hooks": [{"type": "command", "command": "x", "timeout": "ten"}]}]
    path.write_text(json.dumps(data))
    report = doctor()
    assert report["status"] == "warn" and any("Claude Code ignores the whole file" in i for i in report["issues"])
    del data["hooks"]["Stop"]
    data["hooks"]["PostToolUse"] *= 2
    path.write_text(json.dumps(data))
    assert any("2 tokenjuice entries" in i for i in doctor()["issues"])
    del data["hooks"]["PostToolUse"][1]
    path.write_text(json.dumps(data))
    fake_claude("2.1.120 (Claude Code)")
    report = doctor()
    assert report["status"] == "warn" and report["fixCommand"] == "tokenjuice install claude-code --local --mode pre"
    assert tj("install", "claude-code", "--local", "--mode", "pre").returncode == 0
    assert doctor()["status"] == HEALTHY


def test_doctor_says_when_settings_switch_hooks_off(workdir, claude_home, fake_claude):
    tj("install", "claude-code", "--local")
    local = claude_home / "settings.local.json"
    local.write_text('{"disableAllHooks": true}')
    report = doctor()
    assert report["status"] == "warn" and any("disableAllHooks" in i for i in report["issues"])


def test_a_policy_allowing_only_its_own_rules_makes_user_allow_rules_count_for_nothing(
    claude_home, monkeypatch, tmp_path
):
    write_settings(claude_home, permissions={"allow": ["Bash(make:*)"]})
    assert claude_permissions.decide("make", claude_permissions.load_rules(None, os.environ), "default") == ALLOW
    policy = tmp_path / "policy"
    write_settings(policy, allowManagedPermissionRulesOnly=True)
    (policy / "settings.json").rename(policy / "managed-settings.json")
    monkeypatch.setattr(claude_permissions, "managed_dir", lambda: str(policy))
    assert claude_permissions.decide("make", claude_permissions.load_rules(None, os.environ), "default") == ASK


@pytest.mark.parametrize("mode", ["post", "pre"])
def test_doctor_deep_runs_the_installed_hook_as_claude_would(workdir, claude_home, fake_claude, isolated_home, mode):
    tj("install", "claude-code", "--local", "--mode", mode)
    report = doctor("--deep")
    assert report["status"] == HEALTHY, report
    event = {"post": "PostToolUse", "pre": "PreToolUse"}[mode]
    assert report["deep"]["ok"] and list(report["deep"]["events"]) == [event]
    if mode == "pre":
        assert report["deep"]["events"][event]["commandExitCode"] == 7
    else:
        assert report["deep"]["events"][event]["compactedChars"] < 6000
    assert spooled(isolated_home) == []  # probes are not counted
    assert not list((isolated_home / ".local" / "share" / "tokenjuice").glob("artifacts/*"))


# -- the real client ----------------------------------------------------------------------------


@pytest.fixture
def claude():
    return hostclis.need("claude")


@pytest.fixture
def old_claude():
    return hostclis.need("claude-old")


def claude_env(home, **extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    return env | {
        "HOME": str(home),
        "DISABLE_AUTOUPDATER": "1",
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1",
        **extra,
    }


def claude_doctor(claude, home, cwd):
    done = subprocess.run(
        [claude, "doctor"],
        env=claude_env(home),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    return done.stdout + done.stderr


def link_claude(claude, tmp_path):
    folder = tmp_path / "claude-bin"
    folder.mkdir(exist_ok=True)
    (folder / "claude").unlink(missing_ok=True)
    (folder / "claude").symlink_to(claude)
    return folder


def test_the_real_claude_doctor_accepts_what_install_writes(claude, workdir, isolated_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    git("init", "-q", cwd=project)
    invalid = claude_doctor(claude, isolated_home, project)
    assert "Invalid settings" not in invalid  # nothing installed yet
    (isolated_home / ".claude").mkdir(exist_ok=True)
    shutil.copy(FIXTURES / "doctor" / "settings.invalid.json", isolated_home / ".claude" / "settings.json")
    assert "Invalid settings" in claude_doctor(claude, isolated_home, project)  # the check can fail
    (isolated_home / ".claude" / "settings.json").write_text(ORIGINAL)
    env = os.environ | {"PATH": f"{link_claude(claude, tmp_path)}:{os.environ['PATH']}"}
    for mode in ("post", "pre"):
        for scope in ((), ("--project",)):
            assert tj("install", "claude-code", "--local", "--mode", mode, *scope, env=env, cwd=project).returncode == 0
            screen = claude_doctor(claude, isolated_home, project)
            assert "Invalid settings" not in screen, (mode, scope, screen)
    for scope in ((), ("--project",)):
        assert tj("uninstall", "claude-code", *scope, cwd=project).returncode == 0
    assert (isolated_home / ".claude" / "settings.json").read_text() == ORIGINAL


@pytest.fixture
def model(tmp_path):
    """The stand-in model server (tests/fixtures/hosts/tools/mock_anthropic.py): it asks
    for one Bash call, then logs the tool_result Claude sends back."""
    with hostclis.MockModel(tmp_path / "requests.jsonl", "mock_anthropic.py") as server:
        yield server.port, server.log


def tool_results(log):
    found = []
    for line in log.read_text().splitlines():
        for message in json.loads(line).get("body", {}).get("messages") or []:
            if isinstance(message.get("content"), list):
                found += [b["content"] for b in message["content"] if b.get("type") == "tool_result"]
    return list(dict.fromkeys(json.dumps(r) for r in found))


def ask_claude(claude, home, cwd, port, command, *args):
    done = subprocess.run(
        [
            claude,
            "-p",
            f"RUN:{command}",
            "--model",
            "claude-sonnet-4-5",
            "--output-format",
            "stream-json",
            "--verbose",
            *args,
        ],
        env=claude_env(home, ANTHROPIC_BASE_URL=f"http://127.0.0.1:{port}", ANTHROPIC_API_KEY="sk-ant-dummy"),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def test_the_real_claude_shows_the_model_compacted_output(claude, model, isolated_home, tmp_path):
    port, log = model
    project = tmp_path / "proj"
    project.mkdir()
    env = os.environ | {"PATH": f"{link_claude(claude, tmp_path)}:{os.environ['PATH']}"}
    assert tj("install", "claude-code", "--local", env=env).returncode == 0
    for command, expected in (("seq 1 3000", "of 3,000 lines omitted"), ("seq 1 100000", "of 100,000 lines omitted")):
        log.write_text("")
        ask_claude(claude, isolated_home, project, port, command, "--allowedTools", "Bash")
        [result] = tool_results(log)
        assert expected in result and "tokenjuice cat " in result, result[:300]
    log.write_text("")
    ask_claude(claude, isolated_home, project, port, "seq 1 3000 && false", "--allowedTools", "Bash")
    [result] = tool_results(log)
    assert "Exit code 1" in result and "lines omitted" in result  # auto: the allowed command was rewritten
    assert [r["source"] for r in spooled(isolated_home)] == ["claude-code"] * 3
    assert tj("install", "claude-code", "--local", "--mode", "post", env=env).returncode == 0
    log.write_text("")
    ask_claude(claude, isolated_home, project, port, "seq 1 3000; exit 3", "--allowedTools", "Bash")
    [result] = tool_results(log)
    assert "Exit code 3" in result and "lines omitted" not in result  # PostToolUseFailure: not replaceable


def test_the_real_claude_in_auto_mode_compacts_a_failing_run_its_rules_allow(claude, model, isolated_home, tmp_path):
    """Claude -p with an allow rule for Bash (in settings, or --allowedTools): a failing
    pytest run reaches the model compacted with its failures and exit code, and the
    model's own tool call in the history still reads as it wrote it."""
    port, log = model
    project = tmp_path / "proj"
    project.mkdir()
    script = project / "pytest"
    script.write_text(f"#!/bin/sh\ncat {REPO}/tests/fixtures/hosts/pytest-failing.out.txt\nexit 1\n")
    script.chmod(0o755)
    env = os.environ | {"PATH": f"{link_claude(claude, tmp_path)}:{os.environ['PATH']}"}
    for allow, args in ((["Bash"], ()), ([], ("--allowedTools", "Bash"))):
        write_settings(isolated_home / ".claude", permissions={"allow": allow})
        assert tj("install", "claude-code", "--local", env=env).returncode == 0
        log.write_text("")
        ask_claude(claude, isolated_home, project, port, "./pytest -v", *args)
        [result] = tool_results(log)
        assert "Exit code 1" in result and "exit 1" in result and "tokenjuice cat" in result, result[:300]
        assert "FAILED test_many.py::test_fails_two - ValueError: broken thing at step 7" in result
        assert len(result) < 2000  # Claude Code's own: 11,357 characters
        uses = [
            block["input"]["command"]
            for line in log.read_text().splitlines()
            for message in json.loads(line).get("body", {}).get("messages") or []
            if isinstance(message.get("content"), list)
            for block in message["content"]
            if block.get("type") == "tool_use"
        ]
        assert set(uses) == {"./pytest -v"}  # the wrapper never shows in the model's history


def test_the_real_old_claude_runs_the_rewrite_only_where_its_rules_allow(old_claude, model, isolated_home, tmp_path):
    port, log = model
    project = tmp_path / "proj"
    project.mkdir()
    write_settings(isolated_home / ".claude", permissions={"allow": ["Bash(seq:*)"], "deny": ["Bash(rm:*)"]})
    env = os.environ | {"PATH": f"{link_claude(old_claude, tmp_path)}:{os.environ['PATH']}"}
    done = tj("install", "claude-code", "--local", "--format", "json", env=env)
    assert "2.1.120 cannot replace" in json.loads(done.stdout)["notes"][0]
    ask_claude(old_claude, isolated_home, project, port, "seq 1 3000")
    [result] = tool_results(log)
    assert "of 3,000 lines omitted" in result
    log.write_text("")
    ask_claude(old_claude, isolated_home, project, port, "rm -rf nothing-here")
    [result] = tool_results(log)
    assert "has been denied" in result
    log.write_text("")
    ask_claude(old_claude, isolated_home, project, port, "node -e 'console.log(111)'")
    [result] = tool_results(log)
    assert "requires approval" in result  # exactly as without tokenjuice
