"""The Codex CLI adapter: its answers against Codex's own JSON Schemas, the shared
rewrite tables driven through `tokenjuice hook codex`, the user's exec-policy
rules, install/uninstall byte for byte, doctor (trust read offline), and — when
Codex 0.169 is installed — Codex itself loading, trusting and running the hook."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import hostclis
import jsonschema
import pytest
from conftest import REPO, git, tokenjuice
from helpers import HOOK_SCRIPT
from shell.test_rewrite import LEFT_ALONE, OUTSIDE, WRAPPED

from tokenjuice.hosts import codex, manage
from tokenjuice.hosts.permissions import codex_rules
from tokenjuice.shell.syntax import quote

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "hosts" / "codex"
SCHEMAS = FIXTURES / "schemas"
LAUNCHER = f"{sys.executable} -m tokenjuice"
LOCATION_WARNINGS = manage.launcher_warnings(HOOK_SCRIPT)
BASH = shutil.which("bash") or "/bin/bash"


@pytest.fixture
def codex_home(tmp_path, monkeypatch):
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    monkeypatch.setenv("SHELL", BASH)
    return home


def schema(name):
    return json.loads((SCHEMAS / name).read_text())


def hook(payload, env=None, raw=False):
    data = payload if raw else json.dumps(payload)
    done = tokenjuice("hook", "codex", "--wrap-launcher", LAUNCHER, input=data, env=env)
    assert done.returncode == 0
    assert done.stdout.endswith(b"\n") and done.stdout.count(b"\n") == 1
    assert b"Traceback" not in done.stderr
    answer = json.loads(done.stdout)
    jsonschema.validate(answer, schema("pre-tool-use.command.output.schema.json"))
    return answer


def payload(command, cwd=None, **extra):
    data = json.loads((FIXTURES / "payloads" / "pretooluse.bash.input.json").read_text())
    data["tool_input"] = {"command": command}
    data["cwd"] = str(cwd) if cwd else os.getcwd()
    return data | extra


def rewritten(answer):
    return answer["hookSpecificOutput"]["updatedInput"]["command"]


# -- the hook protocol -------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted((FIXTURES / "payloads").glob("*.input.json")), ids=lambda p: p.name)
def test_every_captured_payload_gets_a_schema_valid_answer(codex_home, workdir, path):
    data = json.loads(path.read_text())
    data["cwd"] = str(workdir)
    event = data["hook_event_name"]
    jsonschema.validate(
        data, schema(f"{'pre' if event == 'PreToolUse' else 'post'}-tool-use.command.input.schema.json")
    )
    done = tokenjuice("hook", "codex", "--wrap-launcher", LAUNCHER, input=json.dumps(data))
    answer = json.loads(done.stdout)
    jsonschema.validate(
        answer, schema(f"{'pre' if event == 'PreToolUse' else 'post'}-tool-use.command.output.schema.json")
    )
    if data["tool_name"] != "Bash":  # an MCP tool's call (issue 32's captures): not a command to rewrite
        assert answer == {}
    elif event == "PreToolUse":
        assert answer["hookSpecificOutput"]["permissionDecision"] == "allow"
        assert rewritten(answer).startswith(f"{LAUNCHER} wrap --source codex --keep-path -- ")
    else:
        assert answer == {}  # the transcript that holds the exit code is gone: Codex's own output stays


def test_the_pinned_answers_are_what_the_schema_says():
    output = schema("pre-tool-use.command.output.schema.json")
    jsonschema.validate(
        json.loads((FIXTURES / "payloads" / "pretooluse.output.rewrite-allow.json").read_text()), output
    )
    jsonschema.validate({}, output)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"hookSpecificOutput": {"hookEventName": "PreToolUse"}, "extra": 1}, output)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"{",
        b"null",
        b"[]",
        b"\xff\xfe\x00",
        b'{"tool_name": "Bash"}',
        b'{"tool_name": "Bash", "tool_input": []}',
        b'{"tool_name": "Bash", "tool_input": {"command": 42}}',
        b'{"tool_name": "exec_command", "tool_input": {"command": "ls"}}',
        b'{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}',
    ],
)
def test_malformed_or_foreign_payloads_answer_empty_json(codex_home, workdir, raw):
    assert hook(raw, raw=True) == {}


def test_the_rewrite_keeps_every_tool_input_field(codex_home, workdir):
    answer = hook(payload("git status", workdir) | {"tool_input": {"command": "git status", "workdir": "/x"}})
    updated = answer["hookSpecificOutput"]["updatedInput"]
    assert updated == {
        "command": f"{LAUNCHER} wrap --source codex --keep-path -- {BASH} -lc 'git status'",
        "workdir": "/x",
    }


@pytest.mark.parametrize("command", WRAPPED)
def test_the_shared_table_of_wrapped_commands(codex_home, workdir, command):
    assert rewritten(hook(payload(command, workdir))) == (
        f"{LAUNCHER} wrap --source codex --keep-path -- {BASH} -lc {quote(command.strip())}"
    )


@pytest.mark.parametrize("command", list(LEFT_ALONE))
def test_the_shared_table_of_commands_left_alone(codex_home, workdir, command):
    assert hook(payload(command, workdir)) == {}


@pytest.mark.parametrize("command, outside, body", OUTSIDE)
def test_the_shared_table_of_state_changes_kept_outside(codex_home, workdir, command, outside, body):
    assert rewritten(hook(payload(command, workdir))) == (
        f"{outside} {LAUNCHER} wrap --source codex --keep-path -- {BASH} -lc {quote(body)}"
    )


def test_a_missing_installation_runs_commands_unchanged(codex_home, workdir):
    done = tokenjuice(
        "hook", "codex", "--wrap-launcher", "/gone/bin/tokenjuice", input=json.dumps(payload("ls", workdir))
    )
    assert json.loads(done.stdout) == {}


# -- the user's exec-policy rules ---------------------------------------------------------

RULES = """# rules of the user's
prefix_rule(pattern=["rm"], decision="forbidden", justification="use trash")
prefix_rule(pattern=["git", ["push", "reset"]], decision="prompt")
prefix_rule(pattern=["npm", "test"])
host_executable(name="git", paths=["/usr/bin/git"])
network_rule(host="example.com", protocol="https", decision="deny")
"""


@pytest.mark.parametrize(
    "command, verdict",
    [
        ("rm x", "deny"),
        ("/bin/rm -r x", "deny"),
        ("cd a && sudo rm x", "deny"),
        ("FOO=1 rm x", "deny"),
        ("echo $(rm x)", "deny"),
        ("sh -c 'rm x'", "deny"),
        ("git push origin main", "ask"),
        ("/usr/bin/git reset --hard", "ask"),
        ("git pull", "none"),
        ("npm test -- --watch=false", "allow"),
        ("npm install", "none"),
        ("ls -la", "none"),
        ("touch a; rm -f b", "deny"),
    ],
)
def test_rule_decisions(codex_home, command, verdict):
    (codex_home / "rules").mkdir()
    (codex_home / "rules" / "default.rules").write_text(RULES)
    assert codex_rules.decision(command, None, os.environ) == verdict


@pytest.mark.parametrize(
    "command", ["rm -f x", "rm -rf build", "rm x --force", "sudo rm -fr /tmp/x", "env X=1 rm -f y"]
)
def test_codex_asks_about_a_forced_rm_so_it_is_never_rewritten(codex_home, workdir, command):
    """Measured with codex 0.169.0 (on-request, workspace-write): `rm -rf /tmp/x`
    asks first, the same command behind a tokenjuice-shaped wrapper ran at once."""
    assert codex_rules.decision(command, None, os.environ) == "ask"
    assert hook(payload(command, workdir)) == {}
    assert codex_rules.decision("rm -r x", None, os.environ) == "none"


def test_denied_asked_and_allowed_commands_are_left_alone(codex_home, workdir):
    (codex_home / "rules").mkdir()
    (codex_home / "rules" / "default.rules").write_text(RULES)
    for command in ("rm x", "git push", "npm test", "cd sub && npm test"):
        assert hook(payload(command, workdir)) == {}, command
    assert rewritten(hook(payload("git pull", workdir)))


def test_an_allowed_command_is_rewritten_when_the_wrapper_is_allowed_too(codex_home, workdir):
    """Codex runs a command all of whose parts a rule allows outside the sandbox; the
    rewrite keeps that only if the wrapper is allowed as well."""
    (codex_home / "rules").mkdir()
    (codex_home / "rules" / "default.rules").write_text(
        f'prefix_rule(pattern=["npm", "test"])\nprefix_rule(pattern=[{json.dumps(sys.executable)}, "-m", "tokenjuice"])\n'
    )
    assert rewritten(hook(payload("npm test", workdir)))
    assert hook(payload("npm ci", workdir)) == {}  # the wrapper would run outside the sandbox, npm ci would not


@pytest.mark.parametrize(
    "text",
    [
        'x = ["rm"]\nprefix_rule(pattern=x, decision="forbidden")',
        'prefix_rule(pattern=["rm"], decision=f"{1}")',
        'load("other.rules", "r")',
        'prefix_rule(pattern=["rm"], decision="maybe")',
        'prefix_rule(pattern=[], decision="forbidden")',
        'prefix_rule(pattern=["rm"], reviewer="user")',
        "for x in []: pass",
        'prefix_rule(pattern=["rm"',
    ],
)
def test_rules_tokenjuice_cannot_read_exactly_leave_every_command_to_codex(codex_home, workdir, text):
    (codex_home / "rules").mkdir()
    (codex_home / "rules" / "a.rules").write_text(text)
    assert codex_rules.decision("ls", None, os.environ) in ("ask", "deny")
    assert hook(payload("ls", workdir)) == {}


def test_project_rules_up_to_the_git_root_count_too(codex_home, tmp_path):
    repo = tmp_path / "repo"
    (repo / "sub" / ".codex" / "rules").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    (repo / "sub" / ".codex" / "rules" / "p.rules").write_text('prefix_rule(pattern=["make"], decision="prompt")')
    assert codex_rules.decision("make", str(repo / "sub"), os.environ) == "ask"
    assert codex_rules.decision("make", str(repo), os.environ) == "none"


# -- install / uninstall ------------------------------------------------------------------

ORIGINAL = """{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 5}]}
    ],
    "PostToolUse": [{"matcher": "^Bash$", "hooks": [{"type": "command", "command": "./log.sh"}]}],
    "SessionStart": [{"hooks": [{"type": "command", "command": "echo hi", "statusMessage": "é"}]}]
  },
  "description": "the team's hooks, 2.50 é"
}
"""


def our_group(data):
    return [g for g in data["hooks"]["PreToolUse"] if "hook codex " in g["hooks"][0]["command"]]


def test_install_into_a_fresh_home(codex_home, workdir):
    done = tokenjuice("install", "codex", "--local", "--mode", "pre")
    assert done.returncode == 0, done.stderr
    assert b"tokenjuice install codex --approve" in done.stdout
    data = json.loads((codex_home / "hooks.json").read_text())
    assert data == {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "^Bash$",
                    "hooks": [
                        {
                            "type": "command",
                            "command": f"{HOOK_SCRIPT} codex --wrap-launcher '{LAUNCHER}'",
                            "timeout": 10,
                        }
                    ],
                }
            ]
        }
    }


def test_install_keeps_every_other_byte_and_uninstall_restores_it(codex_home, workdir):
    path = codex_home / "hooks.json"
    path.write_text(ORIGINAL)
    assert tokenjuice("install", "codex", "--local", "--mode", "pre").returncode == 0
    text = path.read_text()
    assert '"description": "the team\'s hooks, 2.50 é"' in text
    assert '{"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 5}]}' in text
    assert '"SessionStart": [{"hooks": [{"type": "command", "command": "echo hi", "statusMessage": "é"}]}]' in text
    assert len(our_group(json.loads(text))) == 1
    assert codex.schema_problems(json.loads(text)) == []
    result = json.loads(tokenjuice("uninstall", "codex", "--format", "json").stdout)
    assert result["action"] == "restored"
    assert path.read_bytes() == ORIGINAL.encode()


def test_our_hook_inside_a_foreign_group_is_moved_out_and_removed_alone(codex_home, workdir):
    path = codex_home / "hooks.json"
    mixed = {
        "hooks": {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [
                        {"type": "command", "command": "./audit.sh"},
                        {"type": "command", "command": f"{HOOK_SCRIPT} codex --wrap-launcher '{LAUNCHER}'"},
                    ],
                }
            ]
        }
    }
    path.write_text(json.dumps(mixed, indent=2))
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    assert any("sits in a group with other hooks" in i for i in report["issues"])
    assert tokenjuice("install", "codex", "--local", "--mode", "pre").returncode == 0
    groups = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert groups[0] == {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
    assert len(groups) == 2 and groups[1]["matcher"] == "^Bash$"
    path.write_text(json.dumps(mixed, indent=2))
    assert json.loads(tokenjuice("uninstall", "codex", "--format", "json").stdout)["action"] == "removed"
    assert json.loads(path.read_text())["hooks"]["PreToolUse"] == [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "./audit.sh"}]}
    ]


def test_a_foreign_hook_that_mentions_tokenjuice_is_never_ours(codex_home, workdir):
    foreign = {"matcher": "Bash", "hooks": [{"type": "command", "command": "tokenjuice hook codex && ./log.sh"}]}
    path = codex_home / "hooks.json"
    path.write_text(json.dumps({"hooks": {"PreToolUse": [foreign]}}))
    assert b"nothing to remove" in tokenjuice("uninstall", "codex").stdout
    assert tokenjuice("install", "codex", "--local", "--mode", "pre").returncode == 0
    assert json.loads(path.read_text())["hooks"]["PreToolUse"][0] == foreign


def test_project_install_goes_to_the_git_root(tmp_path, codex_home):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    done = tokenjuice("install", "codex", "--project", "--local", "--mode", "pre", cwd=repo / "src")
    assert done.returncode == 0, done.stderr
    assert b"trust the project" in done.stdout
    assert our_group(json.loads((repo / ".codex" / "hooks.json").read_text()))
    assert not (codex_home / "hooks.json").exists()


def test_files_it_cannot_understand_are_never_rewritten(codex_home, workdir):
    path = codex_home / "hooks.json"
    for content in ("{not json", '{"hooks": []}', '{"hooks": {"PreToolUse": {}}}'):
        path.write_text(content)
        assert tokenjuice("install", "codex", "--local", "--mode", "pre").returncode == 2
        assert path.read_text() == content


# -- doctor: the file, and whether Codex trusts the hook ---------------------------------


def test_doctor_flags_type_errors_that_make_codex_drop_every_hook(codex_home, workdir):
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    path = codex_home / "hooks.json"
    data = json.loads(path.read_text())
    data["hooks"]["PostToolUse"] = json.loads((FIXTURES / "hooks-list" / "hooks.type-error.json").read_text())["hooks"][
        "PostToolUse"
    ]
    path.write_text(json.dumps(data))
    done = tokenjuice("doctor", "codex", "--local")
    assert done.returncode == 1
    assert b"hooks.PostToolUse[0].hooks[0].timeout is not a whole number of seconds" in done.stdout
    data["x-team"] = 1
    path.write_text(json.dumps(data))
    assert b'the top-level key "x-team": Codex ignores every hook' in tokenjuice("doctor", "codex", "--local").stdout
    for name in ("valid", "warnings"):
        assert codex.schema_problems(json.loads((FIXTURES / "hooks-list" / f"hooks.{name}.json").read_text())) == []


def test_the_trust_hash_is_codexs():
    """The hashes codex 0.169.0 reported for the hooks of tests/fixtures/.../hooks-list."""
    listed = json.loads((FIXTURES / "hooks-list" / "hooks-list.valid.out.json").read_text())
    files = json.loads((FIXTURES / "hooks-list" / "hooks.valid.json").read_text())["hooks"]
    for entry in listed["hooks/list"]["result"]["data"][0]["hooks"]:
        event = {"preToolUse": "PreToolUse", "postToolUse": "PostToolUse"}[entry["eventName"]]
        group = files[event][0]
        label = {"PreToolUse": "pre_tool_use", "PostToolUse": "post_tool_use"}[event]
        assert codex.trust_hash(label, group["matcher"], group["hooks"][0]) == entry["currentHash"]
    warned = json.loads((FIXTURES / "hooks-list" / "hooks-list.warnings.out.json").read_text())
    entry = warned["hooks/list"]["result"]["data"][0]["hooks"][0]
    hook = {"type": "command", "command": "tokenjuice hook codex", "timeout": 10}
    assert codex.trust_hash("pre_tool_use", "Bash", hook) == entry["currentHash"]


def test_doctor_reads_the_approval_offline(codex_home, workdir):
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    trust = [c for c in report["checks"] if c["name"] == "trust"]
    assert trust[0]["status"] == "warn" and "approve" in trust[0]["message"]
    data = json.loads((codex_home / "hooks.json").read_text())
    ((key, current),) = codex.hook_keys(str(codex_home / "hooks.json"), data, codex.Codex()._ours)
    assert key == f"{codex_home / 'hooks.json'}:pre_tool_use:0:0"
    config = codex_home / "config.toml"
    config.write_text(f'model = "x"\n\n[hooks.state.{json.dumps(key)}]\ntrusted_hash = "{current}"\n')
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    assert report["status"] == ("warn" if LOCATION_WARNINGS else "ok"), report
    config.write_text(f'[hooks.state.{json.dumps(key)}]\ntrusted_hash = "sha256:00"\n')
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    assert any("changed since you approved it" in i for i in report["issues"])
    config.write_text(f"[hooks.state.{json.dumps(key)}]\nenabled = false\n")
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    assert any("turned off" in i for i in report["issues"])
    config.write_text("[features]\nhooks = false\n")
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json").stdout)
    assert any("features.hooks = false" in i for i in report["issues"])


def test_doctor_deep_runs_the_probe_and_says_when_codex_is_missing(codex_home, workdir, tmp_path):
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    env = os.environ | {"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"}
    if shutil.which("codex", path=env["PATH"]):
        pytest.skip("a codex on /usr/bin or /bin")
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--deep", "--format", "json", env=env).stdout)
    assert report["deep"]["ok"] and report["deep"]["commandExitCode"] == 7, report
    assert any("codex not found" in i for i in report["issues"])


# -- Codex itself (0.169.0) ----------------------------------------------------------------


def test_codex_loads_our_entry_without_a_warning(codex_home, workdir):
    program = hostclis.need_codex()
    path = codex_home / "hooks.json"
    path.write_text(ORIGINAL)
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    listed = hostclis.hooks_list(program, codex_home, workdir, dict(os.environ))
    assert listed["warnings"] == []
    ours = [h for h in listed["hooks"] if manage.is_our_command(h["command"], "codex")]
    assert len(ours) == 1
    entry = ours[0]
    assert (entry["eventName"], entry["matcher"], entry["timeoutSec"], entry["trustStatus"]) == (
        "preToolUse",
        "^Bash$",
        10,
        "untrusted",
    )
    data = json.loads(path.read_text())
    ((key, current),) = codex.hook_keys(str(path), data, codex.Codex()._ours)
    assert (entry["key"], entry["currentHash"]) == (key, current)
    assert {h["command"] for h in listed["hooks"]} >= {"./audit.sh", "./log.sh", "echo hi"}


def test_doctor_deep_asks_codex_and_sees_the_approval(codex_home, workdir, tmp_path):
    program = hostclis.need_codex()
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    env = os.environ | {"PATH": f"{Path(program).parent}:{os.environ['PATH']}"}
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--deep", "--format", "json", env=env).stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["codex"]["status"] == "warn" and "untrusted" in checks["codex"]["message"]
    path = codex_home / "hooks.json"
    ((key, current),) = codex.hook_keys(str(path), json.loads(path.read_text()), codex.Codex()._ours)
    edit = {"keyPath": f"hooks.state.{json.dumps(key)}.trusted_hash", "value": current, "mergeStrategy": "upsert"}
    answer = hostclis.codex_rpc(
        program, codex_home, workdir, [{"id": 1, "method": "config/batchWrite", "params": {"edits": [edit]}}], env
    )
    assert answer[1]["result"]["status"] == "ok"
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--deep", "--format", "json", env=env).stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["trust"]["status"] == "ok" and checks["codex"]["message"] == "Codex loads the hook (trusted)"
    assert report["status"] == ("warn" if LOCATION_WARNINGS else "ok"), report


def test_codex_runs_the_rewritten_command_and_leaves_a_forbidden_one_alone(codex_home, tmp_path, codex_model):
    program = hostclis.need_codex()
    (codex_home / "config.toml").write_text(hostclis.codex_config(codex_model.port))
    project = tmp_path / "proj"
    project.mkdir()
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    env = os.environ | {"HOME": str(tmp_path / "home")}
    (item,) = hostclis.codex_exec(program, codex_home, project, "RUN:printf 'one\\ntwo\\n'; sh -c 'exit 3'", env)
    assert f"{LAUNCHER} wrap --source codex --keep-path -- " in item["command"]
    assert "one\ntwo\n" in item["aggregated_output"] and item["exit_code"] == 3
    (codex_home / "rules").mkdir()
    (codex_home / "rules" / "default.rules").write_text('prefix_rule(pattern=["rm"], decision="forbidden")\n')
    items = hostclis.codex_exec(program, codex_home, project, f"RUN:rm -f {tmp_path}/nothing-here", env)
    assert all("tokenjuice" not in i.get("command", "") for i in items), items
    log = [json.loads(line) for line in (tmp_path / "model.jsonl").read_text().splitlines()]
    outputs = [
        i.get("output")
        for entry in log
        for i in (entry.get("body", {}).get("input") or [])
        if isinstance(i, dict) and i.get("type") == "function_call_output"
    ]
    assert any("policy forbids commands starting with `rm`" in str(o) for o in outputs), outputs


def test_the_hook_answers_within_codexs_timeout_while_codex_waits(codex_home, workdir):
    """The probe as Codex starts it (through a shell, with CODEX_HOME set) answers
    with a rewrite well within the 10 s the entry gives it."""
    tokenjuice("install", "codex", "--local", "--mode", "pre")
    command = our_group(json.loads((codex_home / "hooks.json").read_text()))[0]["hooks"][0]["command"]
    done = subprocess.run(
        ["/bin/sh", "-c", command], input=json.dumps(payload("ls", workdir)).encode(), capture_output=True, timeout=10
    )
    assert done.returncode == 0 and rewritten(json.loads(done.stdout))


def test_codex_loads_a_project_hook_only_in_a_trusted_project(codex_home, tmp_path):
    """The open question of docs/hosts-research.md: `<git root>/.codex/hooks.json` is
    read once `[projects."<root>"] trust_level = "trusted"`, and the hook itself still
    needs approving."""
    program = hostclis.need_codex()
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    assert tokenjuice("install", "codex", "--project", "--local", "--mode", "pre", cwd=repo / "sub").returncode == 0
    assert hostclis.hooks_list(program, codex_home, repo / "sub", dict(os.environ))["hooks"] == []
    (codex_home / "config.toml").write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    listed = hostclis.hooks_list(program, codex_home, repo / "sub", dict(os.environ))
    (entry,) = listed["hooks"]
    assert (entry["source"], entry["trustStatus"]) == ("project", "untrusted")
    assert entry["key"] == f"{repo / '.codex' / 'hooks.json'}:pre_tool_use:0:0"


def test_too_many_rule_files_leave_every_command_to_codex(codex_home, workdir):
    (codex_home / "rules").mkdir()
    for index in range(codex_rules.MAX_RULE_FILES + 1):
        (codex_home / "rules" / f"r{index}.rules").write_text("")
    assert codex_rules.decision("ls", None, os.environ) == "ask"
    assert hook(payload("ls", workdir)) == {}


def test_an_edited_rule_file_is_read_again(codex_home, workdir):
    """What a rule file holds is cached by its mtime and size (the hook skips `ast`)."""
    rules = codex_home / "rules" / "default.rules"
    rules.parent.mkdir()
    rules.write_text('prefix_rule(pattern=["make"], decision="allow")\n')
    assert codex_rules.decision("make", None, os.environ) == "allow"
    assert codex_rules.decision("make", None, os.environ) == "allow"  # from the cache
    rules.write_text('prefix_rule(pattern=["make"], decision="forbidden")\n')
    assert codex_rules.decision("make", None, os.environ) == "deny"
    assert hook(payload("make", workdir)) == {}


# -- post: compacting the output after the command ran -------------------------------------------

SEQ = "".join(f"{i}\n" for i in range(1, 3001))


def transcript(path, call_id, exit_code, output):
    """A session transcript as Codex 0.169.0 writes it by the time PostToolUse runs."""
    item = {"type": "CommandExecution", "id": call_id, "status": "failed" if exit_code else "completed"}
    item |= {"aggregated_output": output, "exit_code": exit_code}
    lines = [
        {"type": "session_meta", "payload": {"id": "s"}},
        {"type": "event_msg", "payload": {"type": "item_completed", "item": item}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def post_payload(command, response, cwd, transcript_path, call_id="call_7"):
    return {
        "session_id": "s",
        "turn_id": "t",
        "transcript_path": str(transcript_path),
        "cwd": str(cwd),
        "hook_event_name": "PostToolUse",
        "model": "mock-model",
        "permission_mode": "bypassPermissions",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_response": response,
        "tool_use_id": call_id,
    }


def post_hook(data):
    done = tokenjuice("hook", "codex", input=json.dumps(data))
    assert done.returncode == 0
    answer = json.loads(done.stdout)
    jsonschema.validate(answer, schema("post-tool-use.command.output.schema.json"))
    return answer


def test_post_compacts_with_the_exit_code_from_codexs_transcript(codex_home, workdir, tmp_path):
    path = transcript(tmp_path / "rollout.jsonl", "call_7", 3, SEQ)
    answer = post_hook(post_payload("seq 1 3000; exit 3", SEQ[:9000], workdir, path))
    assert answer["decision"] == "block"
    text = answer["reason"]
    assert text.startswith("exit 3\n") and "lines omitted" in text and "tokenjuice cat" in text
    assert "Codex had cut" not in text
    artifact = text.split("tokenjuice cat ")[1].split()[0].rstrip(");")
    assert tokenjuice("cat", artifact).stdout.decode() == SEQ  # the transcript's whole output, not the window


def test_post_says_when_codex_had_cut_the_middle(codex_home, workdir, tmp_path):
    window = SEQ[:30000] + "\n... command output truncated for persistence ...\n" + SEQ[-30000:]
    path = transcript(tmp_path / "rollout.jsonl", "call_7", 0, window)
    text = post_hook(post_payload("seq 1 3000", window[:9000], workdir, path))["reason"]
    assert "; Codex had cut the middle" in text.splitlines()[-1] and not text.startswith("exit")


def test_post_leaves_the_output_alone_without_the_exit_code_or_anything_to_save(codex_home, workdir, tmp_path):
    path = transcript(tmp_path / "rollout.jsonl", "call_7", 3, SEQ)
    assert post_hook(post_payload("seq 1 3000", SEQ, workdir, path, call_id="call_8")) == {}  # another call
    assert post_hook(post_payload("seq 1 3000", SEQ, workdir, tmp_path / "missing.jsonl")) == {}
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    assert post_hook(post_payload("seq 1 3000", SEQ, workdir, link)) == {}  # a link is not followed
    short = transcript(tmp_path / "short.jsonl", "call_7", 1, "no such file\n")
    assert post_hook(post_payload("cat x", "no such file\n", workdir, short)) == {}  # nothing to save


def test_install_defaults_to_post_and_moves_the_entry_between_modes(codex_home, workdir):
    assert tokenjuice("install", "codex", "--local").returncode == 0
    hooks = json.loads((codex_home / "hooks.json").read_text())["hooks"]
    assert list(hooks) == ["PostToolUse"] and hooks["PostToolUse"][0]["matcher"] == codex.TOOLS_MATCHER
    assert tokenjuice("install", "codex", "--local", "--mode", "pre").returncode == 0
    assert list(json.loads((codex_home / "hooks.json").read_text())["hooks"]) == ["PreToolUse"]
    assert tokenjuice("uninstall", "codex").returncode == 0


def test_codex_shows_the_model_the_compacted_output_after_the_run(codex_home, tmp_path, codex_model):
    """As installed, in the approval and sandbox modes people run: noisy success and a
    failing test run reach the model compacted, with the failure and the exit code."""
    program = hostclis.need_codex()
    project = tmp_path / "proj"
    project.mkdir()
    script = project / "pytest"
    script.write_text(f"#!/bin/sh\ncat {REPO}/tests/fixtures/hosts/pytest-failing.out.txt\nexit 1\n")
    script.chmod(0o755)
    assert tokenjuice("install", "codex", "--local").returncode == 0
    env = os.environ | {"HOME": str(tmp_path / "home")}
    for policy in ("", 'approval_policy = "on-request"\nsandbox_mode = "workspace-write"\n'):
        config = hostclis.codex_config(codex_model.port).replace(
            'approval_policy = "never"\nsandbox_mode = "danger-full-access"\n', policy
        )
        (codex_home / "config.toml").write_text(config)
        for prompt, expected in (
            ("RUN:seq 1 3000", "of 3,000 lines omitted"),
            ("RUN:./pytest -v", "FAILED test_many.py::test_fails_two - ValueError: broken thing at step 7"),
            ("RUN:seq 1 100000", "Codex had cut the middle"),
        ):
            codex_model.log.write_text("")
            (item,) = hostclis.codex_exec(program, codex_home, project, prompt, env)
            assert "tokenjuice" not in item["command"]  # the command ran as the model wrote it
            [output] = function_call_outputs(codex_model.log)
            assert expected in output and "tokenjuice cat" in output, output[:300]
            assert output.startswith("exit 1\n") == (item["exit_code"] == 1)
    codex_model.log.write_text("")
    hostclis.codex_exec(program, codex_home, project, "RUN:echo hi", env)
    [output] = function_call_outputs(codex_model.log)
    assert output.startswith("Chunk ID: ") and output.endswith("Output:\nhi\n")  # nothing to save: Codex's own


def function_call_outputs(log):
    seen = []
    for line in log.read_text().splitlines():
        for item in (json.loads(line).get("body") or {}).get("input") or []:
            if isinstance(item, dict) and item.get("type") == "function_call_output" and item["output"] not in seen:
                seen.append(item["output"])
    return seen


def test_install_approve_records_the_approval_through_codex_and_codex_runs_the_hook(codex_home, tmp_path, codex_model):
    """`install codex --approve` stores what /hooks would; without it nothing is trusted
    and Codex skips the hook without a word (no --dangerously-bypass-hook-trust here)."""
    program = hostclis.need_codex()
    (codex_home / "config.toml").write_text(hostclis.codex_config(codex_model.port))
    project = tmp_path / "proj"
    project.mkdir()
    env = os.environ | {"PATH": f"{Path(program).parent}:{os.environ['PATH']}", "HOME": str(tmp_path / "home")}
    done = tokenjuice("install", "codex", "--local", "--format", "json", env=env)
    assert "trusted_hash" not in (codex_home / "config.toml").read_text()  # never trust not asked for
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json", env=env).stdout)
    assert any(c["name"] == "trust" and c["status"] == "warn" for c in report["checks"])

    def exec_without_bypass(prompt):
        codex_model.log.write_text("")
        subprocess.run(
            [program, "exec", "--skip-git-repo-check", "--json", prompt],
            cwd=project,
            env=env | {"CODEX_HOME": str(codex_home), "MOCK_API_KEY": "x"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=120,
        )
        return function_call_outputs(codex_model.log)

    [output] = exec_without_bypass("RUN:seq 1 3000")
    assert "tokenjuice" not in output  # skipped: not approved
    done = tokenjuice("install", "codex", "--local", "--approve", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    # (a checkout under /tmp, as CI's may be, makes the launcher's place a warning of its own)
    warnings = [w for w in data.get("warnings", []) if "versioned or temporary location" not in w]
    assert data["notes"][0].startswith("Codex will run the hook") and not warnings, data
    assert "trusted_hash" in (codex_home / "config.toml").read_text()
    report = json.loads(tokenjuice("doctor", "codex", "--local", "--format", "json", env=env).stdout)
    assert any(c["name"] == "trust" and c["status"] == "ok" for c in report["checks"]), report
    text = tokenjuice("doctor", "codex", "--local", env=env).stdout.decode()
    assert "trust: Codex will run the hook: you approved it\n" in text and "mode: post: " in text
    [output] = exec_without_bypass("RUN:seq 1 3000")
    assert "of 3,000 lines omitted" in output and "tokenjuice cat" in output
    done = tokenjuice("install", "gemini", "--local", "--approve", env=env)
    assert done.returncode == 2 and b"--approve is for codex only" in done.stderr
