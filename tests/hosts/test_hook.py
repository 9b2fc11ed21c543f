"""Every host's hook runs before every shell command an agent issues: its path
imports no install-time machinery. A hook that pulled in `tempfile`, `subprocess`
or the `json` package (each a few milliseconds of imports, `tempfile` alone ~20 ms
with what it brings) would tax every command; this checks the modules actually
loaded, through a real process, for one ordinary payload per host."""

import json
import subprocess
import sys

import pytest

from tokenjuice.hosts.hook import HOSTS

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
#: What only install, uninstall and doctor need.
INSTALL_TIME = {"tempfile", "shutil", "subprocess", "json", "difflib", "tomllib", "ast", "hashlib", "threading", "re"}
_RUN = """
import sys, io
sys.argv = ["tokenjuice", "hook", sys.argv[1], "--wrap-launcher", "tokenjuice"]
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


@pytest.mark.parametrize("host", sorted(PAYLOADS))
def test_the_hook_path_loads_no_install_time_module(host, tmp_path):
    payload = dict(PAYLOADS[host])
    if "tool_input" in payload or "args" in payload:
        payload["cwd"] = payload["directory"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-P", "-c", _RUN, host],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    answer, _, modules = done.stdout.rpartition("\n")
    json.loads(answer)  # the hook answered
    loaded = set(modules.split())
    assert not loaded & INSTALL_TIME, f"{host}'s hook imported {sorted(loaded & INSTALL_TIME)}"
