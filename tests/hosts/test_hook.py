"""Every host's hook runs before every shell command an agent issues: its path
imports no install-time machinery. A hook that pulled in `tempfile`, `subprocess`
or the `json` package (each a few milliseconds of imports, `tempfile` alone ~20 ms
with what it brings) would tax every command; this checks the modules actually
loaded, through a real process, for one ordinary payload per host."""

import json
import os
import pwd
import subprocess
import sys

import pytest

from tokenjuice.hosts import hook as hook_module
from tokenjuice.hosts.hook import HOSTS, resolve_shell

COMMAND = "git status --short"
PAYLOADS = {
    "cursor": {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": COMMAND}},
    "claude-code": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": COMMAND}},
    "codex": {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": COMMAND}},
    "gemini": {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": COMMAND}},
    "copilot": {"toolName": "bash", "toolArgs": {"command": COMMAND}, "sessionId": "s"},
    "opencode": {"tool": "bash", "args": {"command": COMMAND}},
    "windsurf": {},
    "cline": {},
}
#: What only install, uninstall and doctor need (and, below, their own modules).
INSTALL_TIME = {"tempfile", "shutil", "subprocess", "json", "difflib", "tomllib", "ast", "hashlib", "threading", "re"}
_RUN = """
import sys, io
sys.argv = ["tokenjuice", "hook", sys.argv[1], "--wrap-launcher", sys.argv[2]]
real, sys.stdout = sys.stdout, io.StringIO()
from tokenjuice.entry import main
try:
    main()
except SystemExit:
    pass
real.write(sys.stdout.getvalue() + "\\n" + " ".join(sorted(sys.modules)))
"""


def test_every_host_is_covered():
    assert set(PAYLOADS) == set(HOSTS)


def run_hook(host, tmp_path, env=None):
    """The hook's answer and the modules it loaded, for this host's ordinary payload."""
    payload = dict(PAYLOADS[host])
    if "tool_input" in payload or "args" in payload:
        payload["cwd"] = payload["directory"] = str(tmp_path)
    if "tool_input" in payload:
        payload["tool_input"] = payload["tool_input"] | {"cwd": str(tmp_path)}  # where Cursor says it runs
    done = subprocess.run(
        [sys.executable, "-P", "-c", _RUN, host, f"{sys.executable} -m tokenjuice"],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
    )
    answer, _, modules = done.stdout.rpartition("\n")
    return json.loads(answer), set(modules.split())


def _passwd_shell():
    try:
        return pwd.getpwuid(os.getuid()).pw_shell
    except KeyError:
        return ""


@pytest.mark.parametrize("shell_env", ["SHELL set", "SHELL unset"])
@pytest.mark.parametrize("host", sorted(PAYLOADS))
def test_the_hook_path_loads_no_install_time_module(host, shell_env, tmp_path):
    """Also where the host runs without $SHELL (a service, a CI runner): the login
    shell comes from the password database, not from a process-tree walk."""
    env = {k: v for k, v in os.environ.items() if k != "SHELL"}
    if shell_env == "SHELL set":
        env["SHELL"] = "/bin/sh"
    elif os.path.basename(_passwd_shell()) not in {"bash", "sh", "dash", "zsh", "fish", "ksh"}:
        pytest.skip(f"this user's passwd shell ({_passwd_shell()!r}) is not one tokenjuice drives")
    _, loaded = run_hook(host, tmp_path, env)
    assert not loaded & INSTALL_TIME, f"{host}'s hook imported {sorted(loaded & INSTALL_TIME)}"
    ours = {"tokenjuice.hosts.manage", "tokenjuice.hosts.jsonhooks", "tokenjuice.hosts.launch", "tokenjuice.errors"}
    ours |= {"tokenjuice.shell.command"}  # output analysis: the hook needs only shell/argv.py
    assert not loaded & ours, f"{host}'s hook imported {sorted(loaded & ours)}"


def test_without_shell_the_login_shell_of_the_password_database_is_used(tmp_path, monkeypatch):
    zsh = tmp_path / "zsh"
    zsh.write_text("#!/bin/sh\n")
    zsh.chmod(0o755)
    monkeypatch.setattr(hook_module, "_login_shell", lambda: str(zsh))
    monkeypatch.setattr(hook_module, "_detected_shell", lambda env: pytest.fail("shellingham asked"))
    assert resolve_shell(None, "", {"PATH": "/usr/bin:/bin"}) == str(zsh)
    assert resolve_shell(None, "", {"PATH": "/usr/bin:/bin", "SHELL": "/bin/sh"}) == "/bin/sh"  # $SHELL first


def test_a_nologin_passwd_shell_falls_back_to_detection_then_sh(monkeypatch):
    monkeypatch.setattr(hook_module, "_login_shell", lambda: "/usr/sbin/nologin")
    monkeypatch.setattr(hook_module, "_detected_shell", lambda env: None)
    assert resolve_shell(None, "", {"PATH": "/usr/bin:/bin"}) in {"/usr/bin/sh", "/bin/sh"}
    monkeypatch.setattr(hook_module, "_login_shell", lambda: None)  # a uid with no passwd entry
    monkeypatch.setattr(hook_module, "_detected_shell", lambda env: "/bin/bash")
    assert resolve_shell(None, "", {"PATH": "/usr/bin:/bin"}) == "/bin/bash"


def test_cursor_reads_permission_rules_only_where_a_permission_file_exists(tmp_path, monkeypatch):
    answer, loaded = run_hook("cursor", tmp_path)
    assert "updated_input" in answer and "tokenjuice.hosts.permissions.cursor" not in loaded
    assert "tokenjuice.hosts.permissions" not in loaded  # the files' places live in hosts/__init__.py
    (tmp_path / ".cursor").mkdir()
    (tmp_path / ".cursor" / "cli.json").write_text('{"permissions": {"deny": ["Shell(git)"]}}')
    answer, loaded = run_hook("cursor", tmp_path)  # the project's file denies git: left alone, rules read
    assert answer == {} and "tokenjuice.hosts.permissions.cursor" in loaded
