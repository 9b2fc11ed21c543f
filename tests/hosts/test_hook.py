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
#: Modules the hook loads only for the command lines that need them, each ~2-9 KB of byte code
#: (~0.02 M instructions a KB to unmarshal) that an ordinary command would load for nothing:
#: a user's `hook.skip` patterns, the catalogue's named tests and predicates, a sourced
#: activate script, a name not on PATH, a compound command.
COLD = {
    "tokenjuice.shell.neverwrap.user",
    "tokenjuice.shell.neverwrap.predicates",
    "tokenjuice.shell.activate",
    "tokenjuice.shell.homes",
    "tokenjuice.shell.grammar",
}
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


def run_hook(host, tmp_path, env=None, command=None):
    """The hook's answer and the modules it loaded, for this host's ordinary payload
    (or the same payload carrying `command`)."""
    payload = dict(PAYLOADS[host])
    if command is not None:
        payload["tool_input"] = payload["tool_input"] | {"command": command}
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
    ours |= {"tokenjuice.fast.lazyre"}  # ~0.5 M instructions a call, for patterns only outputs need
    ours |= COLD  # what only rarer command lines need (docs/performance.md)
    assert not loaded & ours, f"{host}'s hook imported {sorted(loaded & ours)}"


@pytest.mark.parametrize(
    ("command", "cold", "wrapped"),
    [
        ("for f in a b; do echo $f; done", "tokenjuice.shell.grammar", True),
        ("source .venv/bin/activate && ls", "tokenjuice.shell.activate", False),  # no such script: left alone
        ("deploy_site --prod", "tokenjuice.shell.homes", False),  # a function or alias of the agent's shell?
        ("git commit", "tokenjuice.shell.neverwrap.predicates", False),  # opens an editor unless scripted
        ("make deploy", "tokenjuice.shell.neverwrap.user", False),  # the user's hook.skip pattern
    ],
)
def test_a_cold_module_loads_for_the_line_that_needs_it(command, cold, wrapped, tmp_path):
    """The other side of COLD: each is loaded, and decides, when a line needs it (and
    only the one: a split that loaded them all again would fail above)."""
    assert cold in COLD
    env = {**os.environ, "TOKENJUICE_HOOK_SKIP": "make deploy*"} if cold.endswith(".user") else None
    answer, loaded = run_hook("cursor", tmp_path, env, command=command)
    assert ("updated_input" in answer) is wrapped, answer
    assert loaded & COLD == {cold}


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


# -- bounded work: a hook answers in its time whatever the command (security issue 29) -------

#: Commands a model can send that cost seconds to read: a megabyte of `:;` (over the
#: length a hook reads), and under it lines whose grammar hides many commands from the
#: rewrite's own token bound (inside `[[ … ]]`, or a script handed to `bash -c`).
HOSTILE = {
    "1 MB of `:;`": ":;" * 500_000,
    "`[[ … ]]` of 59,000 steps": "[[ " + ":;" * 59_000 + " ]]",
    "`bash -c` of 59,000 steps": "bash -c '" + ":;" * 59_000 + "'",
}
OUTPUT = "".join(f"PASSED tests/test_x.py::test_{i} ok\n" for i in range(600))


def hostile_payloads(command, cwd):
    """(host, event, payload) for every host's pre-run and post-run hook."""
    yield "cursor", "pre", {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command}}
    for host, event in (("claude-code", "PreToolUse"), ("codex", "PreToolUse")):
        yield host, "pre", {"hook_event_name": event, "tool_name": "Bash", "tool_input": {"command": command}}
    yield (
        "gemini",
        "pre",
        {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": command}},
    )
    yield "copilot", "pre", {"toolName": "bash", "toolArgs": {"command": command}}
    yield "opencode", "pre", {"event": "before", "tool": "bash", "args": {"command": command}, "worktree": cwd}
    response = {"stdout": OUTPUT, "stderr": "", "interrupted": False}
    yield (
        "claude-code",
        "post",
        {
            "hook_event_name": "PostToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_response": response,
        },
    )
    llm = f"Output: {OUTPUT.rstrip()}\nExit Code: 1\nProcess Group PGID: 7"
    yield (
        "gemini",
        "post",
        {
            "hook_event_name": "AfterTool",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command},
            "tool_response": {"llmContent": llm},
        },
    )
    result = {"resultType": "success", "textResultForLlm": OUTPUT + "<shellId: 0 completed with exit code 1>"}
    yield "copilot", "post", {"toolName": "bash", "toolArgs": {"command": command}, "toolResult": result}
    yield (
        "opencode",
        "post",
        {"event": "after", "tool": "bash", "args": {"command": command}, "output": OUTPUT, "exit": 1},
    )


@pytest.fixture
def counted_tokens(monkeypatch, tmp_path):
    """The shell tokens lexed, one entry per line lexed (a hook may run here: tokenjuice on
    PATH, no stats)."""
    from tokenjuice.shell import syntax

    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    monkeypatch.setenv("TOKENJUICE_STATS", "off")
    lexed: list[int] = []
    run = syntax._Lexer.run

    def counted(self):
        done = run(self)
        lexed.append(len(done.tokens))
        return done

    monkeypatch.setattr(syntax._Lexer, "run", counted)
    return lexed


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_every_hook_bounds_its_work_whatever_the_command(name, tmp_path, counted_tokens):
    """Every host's pre-run and post-run hook reads a command only under MAX_COMMAND_CHARS
    and at most WORK_TOKENS shell tokens in all, however often its adapter, the rewrite
    engine and the host's permission rules read the command and the scripts in it (work
    counted, never timed). Past the bound a pre-run hook answers neutrally; a post-run
    hook leaves a command over MAX_COMMAND_CHARS alone and may compact the output of a
    shorter one it cannot read whole, without reading it (as any unreadable script).
    Before the bound, these cost up to 8 s of CPU and 536 MB (the 1 MB command after
    the run) and 2.4 s and 65 MB (the `bash -c` script before it)."""
    from tokenjuice.hosts import postrun
    from tokenjuice.shell import syntax

    command = HOSTILE[name]
    for host_name, event, payload in hostile_payloads(command, str(tmp_path)):
        payload["cwd"] = str(tmp_path)
        host = hook_module.load(host_name)
        counted_tokens.clear()
        answer = hook_module.respond(host, payload, "tokenjuice", os.environ)
        where = f"{host_name} {event}"
        assert sum(counted_tokens) <= 4 * syntax.MAX_TOKENS, f"{where}: {sum(counted_tokens)} tokens"
        assert json.loads(json.dumps(answer)) == answer, where
        if event == "pre" or len(command) >= syntax.MAX_ARG_STRLEN:
            assert answer == host.neutral, where
        if len(command) >= syntax.MAX_ARG_STRLEN:
            assert sum(counted_tokens) <= 1, where  # not read at all (the launcher's one word aside)
        assert syntax._work_left is None  # the bound ends with the call
    assert hook_module.WORK_TOKENS == 4 * syntax.MAX_TOKENS
    assert postrun.MAX_COMMAND_CHARS == syntax.MAX_ARG_STRLEN


def test_a_megabyte_command_after_the_run_takes_a_few_megabytes(tmp_path, counted_tokens):
    """Claude Code's PostToolUse with a 1 MB command (security issue 29): the memory the
    call allocates at its peak, measured in this process, stays within a few megabytes
    beside the payload (536 MB before the bound); the command is not lexed at all."""
    import tracemalloc

    host = hook_module.load("claude-code")
    payload = next(p for h, e, p in hostile_payloads(HOSTILE["1 MB of `:;`"], str(tmp_path)) if e == "post")
    payload["cwd"] = str(tmp_path)
    tracemalloc.start()
    try:
        answer = hook_module.respond(host, payload, "tokenjuice", os.environ)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert answer == {} and counted_tokens == []
    assert peak < 8 * 1024 * 1024, f"{peak / 1e6:.1f} MB"
