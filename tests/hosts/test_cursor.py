import json
import os
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import git, tokenjuice
from helpers import HOOK_LAUNCHER, HOOK_SCRIPT

from tokenjuice.hosts import cursor, launch, manage
from tokenjuice.hosts import hook as host_hook
from tokenjuice.shell.neverwrap.user import glob_match

LAUNCHER = f"{sys.executable} -m tokenjuice"
#: A checkout under /tmp (as CI may clone it) is rightly flagged as a volatile launcher.
LOCATION_WARNINGS = manage.launcher_warnings(HOOK_SCRIPT)
HEALTHY = "warn" if LOCATION_WARNINGS else "ok"


def hook(payload, env=None, raw=False):
    data = payload if raw else json.dumps(payload)
    done = tokenjuice("cursor-pre-tool-use", "--wrap-launcher", LAUNCHER, input=data, env=env)
    assert done.returncode == 0
    assert done.stdout.endswith(b"\n") and done.stdout.count(b"\n") == 1
    assert b"Traceback" not in done.stderr
    return json.loads(done.stdout)


def shell_payload(command, **tool_input):
    return {
        "hook_event_name": "preToolUse",
        "tool_name": "Shell",
        "conversation_id": "c-1",
        "generation_id": "g-1",
        "tool_input": {"command": command, **tool_input},
    }


# -- the hook protocol ---------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"   ",
        b"{",
        b"null",
        b"[]",
        b'"Shell"',
        b"42",
        b"\xff\xfe\x00",
        b'{"tool_name": "Shell"}',
        b'{"tool_name": "Shell", "tool_input": []}',
        b'{"tool_name": "Shell", "tool_input": {"command": 42}}',
        b'{"tool_name": "Shell", "tool_input": {"command": "   "}}',
        b'{"tool_name": "Read", "tool_input": {"command": "ls"}}',
    ],
)
def test_malformed_or_foreign_payloads_answer_empty_json(workdir, raw):
    assert hook(raw, raw=True) == {}


def test_a_one_megabyte_command_is_left_alone(workdir):
    assert hook(shell_payload("echo " + "x" * 1_000_000)) == {}


def test_rewrite_keeps_every_tool_input_field_in_order(workdir):
    answer = hook(shell_payload("git status", cwd=str(workdir), shell="bash", timeout=30, extra={"a": 1}))
    assert answer["permission"] == "allow"
    updated = answer["updated_input"]
    assert list(updated) == ["command", "cwd", "shell", "timeout", "extra"]
    assert updated["extra"] == {"a": 1} and updated["timeout"] == 30
    bash = subprocess.run(["sh", "-c", "command -v bash"], capture_output=True, text=True).stdout.strip()
    assert updated["command"] == f"{LAUNCHER} wrap --source cursor --keep-path -- {bash} -lc 'git status'"


@pytest.mark.parametrize(
    "command",
    [
        "tokenjuice wrap -- ls",
        "/opt/bin/tokenjuice wrap --raw -- ls",
        "cd repo && tokenjuice wrap -- ls",
        "FOO=1 tokenjuice wrap -- make",
        "python3 -m tokenjuice wrap -- ls",
        "tokenjuice stats",
        f"{LAUNCHER} wrap --source cursor -- /bin/bash -lc 'ls'",
    ],
)
def test_tokenjuice_itself_and_already_wrapped_commands_are_left_alone(workdir, command):
    assert hook(shell_payload(command)) == {}


@pytest.mark.parametrize(
    "command",
    [
        "npm run dev",
        "cd web && pnpm dev --port 3000",
        "tail -f app.log",
        "vim README.md",
        "less log.txt",
        "python3",
        "jest --watch",
        "vite",
        "docker compose up",
        "sleep 100 &",
        "python -m http.server 8000",
        "kubectl logs -f pod/x",
        "git rebase -i HEAD~3",
    ],
)
def test_default_skip_list(workdir, command):
    assert hook(shell_payload(command)) == {}


@pytest.mark.parametrize(
    "command",
    ["npm run build", "vite build", "vitest run", "pytest -q", "tail -n 50 log", "docker compose up -d", "git status"],
)
def test_ordinary_commands_are_wrapped(workdir, command):
    assert hook(shell_payload(command))["permission"] == "allow"


def test_skip_list_from_config_env_and_kill_switch(workdir, isolated_home, tmp_path):
    config = isolated_home / ".config" / "tokenjuice" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[cursor]\nskip = ["make deploy*"]\n')
    assert hook(shell_payload("make deploy prod")) == {}
    assert hook(shell_payload("make test"))["permission"] == "allow"
    env = os.environ | {"TOKENJUICE_CURSOR_SKIP": "make test*, cargo *"}
    assert hook(shell_payload("make test"), env=env) == {}
    assert hook(shell_payload("git status"), env=os.environ | {"TOKENJUICE_CURSOR": "0"}) == {}
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / ".tokenjuice").mkdir()
    (project / ".tokenjuice" / "config.toml").write_text("[cursor]\nenabled = false\n")
    assert hook(shell_payload("git status", cwd=str(project)))["permission"] == "allow"  # not trusted yet
    assert tokenjuice("trust", str(project)).returncode == 0
    assert hook(shell_payload("git status", cwd=str(project))) == {}
    assert hook(shell_payload("git status"))["permission"] == "allow"


def test_project_skip_list_is_found_from_the_first_workspace_root(workdir, tmp_path, trust_all):
    configured = tmp_path / "configured"
    (configured / ".tokenjuice").mkdir(parents=True)
    git("init", "-q", cwd=configured)
    (configured / ".tokenjuice" / "config.toml").write_text('[cursor]\nskip = ["mytool*"]\n')
    plain = tmp_path / "plain"
    plain.mkdir()
    git("init", "-q", cwd=plain)
    payload = shell_payload("mytool run")
    assert "cwd" not in payload["tool_input"]
    assert hook(payload | {"workspace_roots": [str(configured), str(plain)]}) == {}
    assert hook(payload | {"workspace_roots": [str(plain), str(configured)]})["permission"] == "allow"
    assert hook(payload)["permission"] == "allow"  # the process cwd holds no config either
    # tool_input.cwd wins over the workspace roots
    answer = hook(shell_payload("mytool run", cwd=str(plain)) | {"workspace_roots": [str(configured)]})
    assert answer["permission"] == "allow"


@pytest.mark.parametrize("command", ["git status", "cd /tmp && ls", "make deploy", "ls -la", "npm run build"])
def test_cursor_enabled_false_leaves_every_command_alone(workdir, isolated_home, command):
    assert hook(shell_payload(command))["permission"] == "allow"
    config = isolated_home / ".config" / "tokenjuice" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[cursor]\nenabled = false\n")
    assert hook(shell_payload(command)) == {}
    assert hook(shell_payload(command, cwd=str(workdir))) == {}


def test_a_broken_config_file_never_breaks_the_hook(workdir, isolated_home):
    config = isolated_home / ".config" / "tokenjuice" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[cursor\nskip = oops")
    assert hook(shell_payload("git status"))["permission"] == "allow"


def test_shell_resolution_order(workdir, tmp_path):
    fake_zsh = tmp_path / "bin" / "zsh"
    fake_zsh.parent.mkdir()
    fake_zsh.write_text('#!/bin/sh\nexec /bin/sh "$@"\n')
    fake_zsh.chmod(0o755)
    env = os.environ | {"PATH": f"{fake_zsh.parent}:{os.environ['PATH']}", "SHELL": "/bin/bash"}
    command = lambda answer: answer["updated_input"]["command"]  # noqa: E731
    assert f"-- {fake_zsh} -lc" in command(hook(shell_payload("ls", shell="zsh"), env=env))
    # a shell tokenjuice cannot drive, or one that is not there: the command runs unchanged
    assert hook(shell_payload("ls", shell="powershell"), env=env) == {}
    assert hook(shell_payload("ls", shell="/nope/zsh"), env=env) == {}
    env["TOKENJUICE_CURSOR_SHELL"] = str(fake_zsh)
    assert f"-- {fake_zsh} -lc" in command(hook(shell_payload("ls"), env=env))
    env = os.environ | {"SHELL": "", "TOKENJUICE_CURSOR_SHELL": ""}
    assert " -lc " in command(hook(shell_payload("ls"), env=env))


def test_native_windows_runs_commands_unchanged(monkeypatch):
    monkeypatch.setattr(cursor.os, "name", "nt")
    assert host_hook.respond(cursor.Cursor(), shell_payload("dir"), "tokenjuice", {}) == {}


def test_internal_errors_answer_empty_json_and_log_only_ids(workdir, monkeypatch, capsys, isolated_home):
    monkeypatch.setenv("TOKENJUICE_DEBUG", "1")
    monkeypatch.setattr(cursor.Cursor, "call", lambda self, payload: 1 / 0)

    class Stdin:
        buffer = __import__("io").BytesIO(json.dumps(shell_payload("echo SECRET-COMMAND")).encode())

        @staticmethod
        def isatty():
            return False

    monkeypatch.setattr(host_hook.sys, "stdin", Stdin)
    assert host_hook.main(["cursor"]) == 0
    assert capsys.readouterr().out == "{}\n"
    log = (isolated_home / ".local" / "share" / "tokenjuice" / "debug.log").read_text()
    assert "ZeroDivisionError" in log and "conversation_id=c-1" in log and "SECRET" not in log


# -- the rewritten command runs exactly like the original ------------------------------

CORPUS = [
    "echo 'single' \"double\" mixed'\"'quotes",
    "echo \"$HOME\" '$HOME' \\$HOME",
    "echo $(echo nested $(echo deeper)) `echo backticks`",
    "printf '%s\\n' a b c | sort -r | head -2",
    "true && echo and-ok || echo or-fail; false || echo after-false",
    "echo to-stderr >&2; echo to-stdout",
    "cat <<'EOF'\nhere-doc $HOME `not run`\n  indented\nEOF",
    "cat <<EOF\nexpanded $((1 + 2))\nEOF",
    "for i in 1 2 3; do\n  echo line $i\ndone",
    "echo unicode: héllo wörld 日本語 🎉",
    "printf 'tab\\tseparated\\n'",
    "echo a \\\n  continued",
    "ls /definitely/missing/path",
    "sh -c 'exit 3'",
    "sh -c 'kill -TERM $$'",
    "sh -c 'x=\"a b\"; set -- $x; echo $#'",
    "echo *.definitely-no-such-glob",
    "echo 'it'\"'\"'s'",
    "echo trailing backslash \\\\",
    "command definitely-not-a-command-xyz",  # a bare unknown name is left alone (a function?): shell/test_rewrite.py
]


@pytest.mark.parametrize("command", CORPUS)
def test_rewritten_command_behaves_like_the_original(workdir, command, tmp_path):
    env = os.environ | {"HOME": str(tmp_path), "SHELL": "/bin/bash", "TOKENJUICE_CURSOR_SHELL": ""}
    rewritten = hook(shell_payload(command), env=env)["updated_input"]["command"]
    raw = rewritten.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    direct = subprocess.run(["/bin/bash", "-c", command], capture_output=True, env=env, cwd=workdir, timeout=30)
    wrapped = subprocess.run(["/bin/bash", "-c", raw], capture_output=True, env=env, cwd=workdir, timeout=30)
    # A signal death reaches the caller as exit 128+N (what a shell's $? shows anyway).
    status = direct.returncode if direct.returncode >= 0 else 128 - direct.returncode
    assert (wrapped.stdout, wrapped.stderr, wrapped.returncode) == (direct.stdout, direct.stderr, status)


def test_path_of_the_caller_survives_a_login_profile_that_resets_it(workdir, tmp_path):
    probe_dir = tmp_path / "probe-bin"
    probe_dir.mkdir()
    probe = probe_dir / "tj-path-probe"
    probe.write_text("#!/bin/sh\necho probe-found\n")
    probe.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bash_profile").write_text("PATH=/usr/bin:/bin\nexport PATH\n")
    env = os.environ | {"HOME": str(home), "PATH": f"{probe_dir}:{os.environ['PATH']}", "SHELL": "/bin/bash"}
    assert subprocess.run(["/bin/bash", "-lc", "tj-path-probe"], env=env, capture_output=True).returncode == 127
    rewritten = hook(shell_payload("tj-path-probe && sh -c 'command -v tj-path-probe'"), env=env)
    done = subprocess.run(
        ["/bin/bash", "-c", rewritten["updated_input"]["command"]], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["probe-found", str(probe)]


# -- install / uninstall -----------------------------------------------------------------


@pytest.fixture
def cursor_home(tmp_path, monkeypatch):
    home = tmp_path / "cursor"
    home.mkdir()
    monkeypatch.setenv("CURSOR_HOME", str(home))
    return home


def tj(*args, **kwargs):
    return tokenjuice(*args, **kwargs)


def entries(path):
    return [
        e
        for e in json.loads(path.read_text())["hooks"].get("preToolUse", [])
        if manage.is_our_command(e.get("command"), "cursor")
    ]


ORIGINAL = """{
    "$schema": "https://cursor.com/hooks.schema.json",
    "hooks": {
        "afterFileEdit": [{"command": "./format.sh", "x-custom": true}],
        "preToolUse": [{"type": "command", "matcher": "Read", "command": "./audit.sh"}]
    },
    "unknownKey": {"keep": [1, 2.50, "é", null]}
}
"""


def test_install_into_a_fresh_home(workdir, cursor_home):
    done = tj("install", "cursor", "--local")
    assert done.returncode == 0, done.stderr
    data = json.loads((cursor_home / "hooks.json").read_text())
    assert data["version"] == 1
    assert data["hooks"]["preToolUse"] == [
        {
            "type": "command",
            "matcher": "Shell",
            "command": f"{HOOK_SCRIPT} cursor --wrap-launcher '{LAUNCHER}'",
        }
    ]
    assert not list(cursor_home.glob("*.bak*"))


def test_install_keeps_every_other_byte_and_uninstall_restores_it(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text(ORIGINAL)
    assert tj("install", "cursor", "--local").returncode == 0
    text = path.read_text()
    assert '"afterFileEdit": [{"command": "./format.sh", "x-custom": true}],' in text
    assert '"unknownKey": {"keep": [1, 2.50, "é", null]}' in text
    assert list(json.loads(text)) == ["$schema", "hooks", "unknownKey", "version"]
    assert json.loads(text)["hooks"]["preToolUse"][0] == {"type": "command", "matcher": "Read", "command": "./audit.sh"}
    assert (cursor_home / "hooks.json.bak").read_text() == ORIGINAL
    assert tj("uninstall", "cursor").returncode == 0
    assert path.read_bytes() == ORIGINAL.encode()  # untouched since install: byte-identical again
    # the bytes are back, so the backups install made go with it
    assert sorted(p.name for p in cursor_home.iterdir()) == ["hooks.json"]


def test_uninstall_after_the_user_edited_the_file_removes_only_our_entry(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text(ORIGINAL)
    assert tj("install", "cursor", "--local").returncode == 0
    edited = path.read_text().replace('"./format.sh"', '"./format-v2.sh"')
    path.write_text(edited)
    done = tj("uninstall", "cursor", "--format", "json")
    assert json.loads(done.stdout)["action"] == "removed"
    text = path.read_text()
    assert "./format-v2.sh" in text and "tokenjuice-hook cursor" not in text
    assert json.loads(text)["hooks"]["preToolUse"] == [{"type": "command", "matcher": "Read", "command": "./audit.sh"}]


def test_a_foreign_hook_that_mentions_tokenjuice_is_never_ours(workdir, cursor_home):
    foreign = [
        {"type": "command", "matcher": "Shell", "command": "./my-tokenjuice-audit.sh cursor-pre-tool-use"},
        {"type": "command", "matcher": "Shell", "command": "tokenjuice hook cursor --wrap-launcher x && ./log.sh"},
        {"type": "command", "matcher": "Shell", "command": "echo tokenjuice hook cursor"},
    ]
    path = cursor_home / "hooks.json"
    path.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": foreign}}))
    assert tj("install", "cursor", "--local").returncode == 0
    assert tj("uninstall", "cursor").returncode == 0
    assert json.loads(path.read_text())["hooks"]["preToolUse"] == foreign
    path.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": foreign}}))
    assert b"nothing to remove" in tj("uninstall", "cursor").stdout


def test_reinstall_replaces_a_stale_entry_and_is_idempotent(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "hooks": {
                    "preToolUse": [
                        {"type": "command", "matcher": "Shell", "command": "/old/tokenjuice cursor-pre-tool-use"},
                        {"type": "command", "matcher": "Shell", "command": "/older/tokenjuice cursor-pre-tool-use"},
                    ]
                },
            }
        )
    )
    assert tj("install", "cursor", "--local").returncode == 0
    assert len(entries(path)) == 1 and entries(path)[0]["command"].startswith(HOOK_SCRIPT)
    before = path.read_text()
    done = tj("install", "cursor", "--local")
    assert b"already up to date" in done.stdout and path.read_text() == before
    assert sorted(p.name for p in cursor_home.iterdir()) == ["hooks.json", "hooks.json.bak"]


def test_uninstall_when_nothing_is_installed(workdir, cursor_home):
    done = tj("uninstall", "cursor")
    assert done.returncode == 0 and b"nothing to remove" in done.stdout
    (cursor_home / "hooks.json").write_text('{"hooks": {"preToolUse": [{"command": "other"}]}}')
    done = tj("uninstall", "cursor")
    assert done.returncode == 0 and b"nothing to remove" in done.stdout


@pytest.mark.parametrize(
    "content, problem",
    [
        ("{not json", "is not valid JSON"),
        ("[]", "does not hold a JSON object"),
        ('{"hooks": []}', '"hooks" is not an object'),
        ('{"hooks": {"preToolUse": {}}}', '"hooks.preToolUse" is not a list'),
        ('{"hooks": {}, "hooks": {}}', 'repeats the key "hooks"'),
        ("", "is empty"),
    ],
)
def test_files_it_cannot_understand_are_never_rewritten(workdir, cursor_home, content, problem):
    path = cursor_home / "hooks.json"
    path.write_text(content)
    for command in (("install", "cursor", "--local"), ("uninstall", "cursor")):
        done = tj(*command)
        assert done.returncode == 2
        assert problem in done.stderr.decode()
        assert len(done.stderr.decode().strip().splitlines()) == 1
        assert path.read_text() == content
    assert sorted(p.name for p in cursor_home.iterdir()) == ["hooks.json"]


def test_read_only_file_and_folder_are_refused(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text("{}")
    path.chmod(0o444)
    done = tj("install", "cursor", "--local")
    assert done.returncode == 2 and b"is read-only; make it writable" in done.stderr
    path.chmod(0o644)
    cursor_home.chmod(0o555)
    try:
        done = tj("install", "cursor", "--local")
        assert done.returncode == 2 and b"read-only" in done.stderr
        assert path.read_text() == "{}"
    finally:
        cursor_home.chmod(0o755)


def test_dry_run_prints_a_diff_and_writes_nothing(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text(ORIGINAL)
    done = tj("install", "cursor", "--local", "--dry-run")
    out = done.stdout.decode()
    assert out.startswith(f"--- {path}\n+++ {path}\n") and '+    "version": 1' in out  # full paths
    assert path.read_text() == ORIGINAL and not list(cursor_home.glob("*.bak*"))
    fresh = cursor_home / "sub"
    done = tj("install", "cursor", "--local", "--dry-run", env=os.environ | {"CURSOR_HOME": str(fresh)})
    assert b"--- /dev/null" in done.stdout and not fresh.exists()


def test_json_output(workdir, cursor_home):
    (cursor_home / "hooks.json").write_text("{}")
    result = json.loads(tj("install", "cursor", "--local", "--format", "json").stdout)
    assert result == {
        "host": "cursor",
        "path": str(cursor_home / "hooks.json"),
        "action": "installed",
        "backupPath": str(cursor_home / "hooks.json.bak"),
        "command": result["command"],
        **({"warnings": LOCATION_WARNINGS} if LOCATION_WARNINGS else {}),
    }
    result = json.loads(tj("uninstall", "cursor", "--format", "json").stdout)
    # untouched since install: the bytes from before it come back
    assert result["action"] == "restored" and result["backupPath"] is None
    assert (cursor_home / "hooks.json").read_text() == "{}"
    assert not list(cursor_home.glob("*.bak*"))  # install's backups went with the restore


def test_eight_concurrent_installs_and_uninstalls_leave_valid_json(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text(ORIGINAL)
    commands = (
        [("install", "cursor", "--local")] * 8 + [("uninstall", "cursor")] * 4 + [("install", "cursor", "--local")] * 4
    )
    with ThreadPoolExecutor(max_workers=16) as pool:
        results = list(pool.map(lambda c: tj(*c), commands))
    assert all(r.returncode == 0 for r in results), [r.stderr for r in results]
    assert tj("install", "cursor", "--local").returncode == 0
    data = json.loads(path.read_text())
    assert len(entries(path)) == 1
    assert data["unknownKey"] == {"keep": [1, 2.5, "é", None]}
    assert data["hooks"]["preToolUse"][0]["command"] == "./audit.sh"


def test_project_install_goes_to_the_git_root(tmp_path, cursor_home):
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    done = tj("install", "cursor", "--project", "--local", cwd=repo / "src")
    assert done.returncode == 0, done.stderr
    assert entries(repo / ".cursor" / "hooks.json")
    assert not (cursor_home / "hooks.json").exists()
    outside = tmp_path / "outside"
    outside.mkdir()
    done = tj("install", "cursor", "--project", cwd=outside)
    assert done.returncode == 2 and b"--project needs a git repository" in done.stderr


# -- doctor ----------------------------------------------------------------------------


def test_doctor_states(workdir, cursor_home):
    result = json.loads(tj("doctor", "cursor", "--local", "--format", "json").stdout)
    assert result["status"] == "disabled" and result["fixCommand"] == "tokenjuice install cursor --local"
    tj("install", "cursor", "--local")
    result = json.loads(tj("doctor", "cursor", "--local", "--format", "json").stdout)
    assert result["status"] == HEALTHY and result["detectedCommand"] == result["expectedCommand"]
    path = cursor_home / "hooks.json"
    data = json.loads(path.read_text())
    data["hooks"]["preToolUse"].append({"type": "command", "matcher": "Shell", "command": "rtk-rewrite"})
    path.write_text(json.dumps(data))
    result = json.loads(tj("doctor", "cursor", "--local", "--format", "json").stdout)
    assert result["status"] == "warn" and any("also handles shell commands" in i for i in result["issues"])
    data["hooks"]["preToolUse"] = [
        {
            "type": "command",
            "matcher": "Shell",
            "command": "/gone/bin/tokenjuice cursor-pre-tool-use --wrap-launcher /gone/bin/tokenjuice",
        }
    ]
    path.write_text(json.dumps(data))
    done = tj("doctor", "cursor", "--local")
    assert done.returncode == 1
    assert b"health: broken" in done.stdout and b"/gone/bin/tokenjuice does not exist" in done.stdout
    assert b"fix: tokenjuice install cursor --local" in done.stdout
    path.write_text("{oops")
    done = tj("doctor", "cursor", "--local")
    assert done.returncode == 1 and b"is not valid JSON" in b" ".join(done.stdout.split())  # wrapped at 100 columns


def test_doctor_deep_runs_the_hook_and_a_probe_for_real(workdir, cursor_home):
    tj("install", "cursor", "--local")
    result = json.loads(tj("doctor", "cursor", "--local", "--deep", "--format", "json").stdout)
    assert result["status"] == HEALTHY, result
    assert result["deep"]["ok"] and result["deep"]["commandExitCode"] == 7
    assert result["deep"]["hookLatencyMs"] > 0


def test_doctor_hooks_summary(workdir, cursor_home):
    done = tj("doctor", "hooks", "--local")
    assert done.returncode == 0 and b"no tokenjuice hooks installed" in done.stdout
    tj("install", "cursor", "--local")
    result = json.loads(tj("doctor", "hooks", "--local", "--format", "json").stdout)
    assert result["status"] == HEALTHY and result["integrations"]["cursor"]["status"] == HEALTHY


def test_volatile_launcher_locations_are_flagged(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    fake = cursor_home / "tmp" / "tokenjuice"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\n")
    fake.chmod(stat.S_IRWXU)
    path.write_text(
        json.dumps(
            {
                "hooks": {
                    "preToolUse": [
                        {"type": "command", "matcher": "Shell", "command": f"/tmp{fake} cursor-pre-tool-use"}
                    ]
                }
            }
        )
    )
    result = json.loads(tj("doctor", "cursor", "--local", "--format", "json").stdout)
    assert result["status"] == "broken"


@pytest.mark.parametrize(
    "text, pattern, matched",
    [
        ("npm run dev", "npm run dev*", True),
        ("npm run dev -- --port 3", "npm run dev*", True),
        ("npm run build", "npm run dev*", False),
        ("vite", "vite", True),
        ("vite build", "vite", False),
        ("jest --watch", "* --watch", True),
        ("jest --watchAll", "*--watchAll*", True),
        ("a", "*a*a*", False),
        ("tail -f x.log", "tail -f *", True),
        ("tail -fx", "tail -f *", False),
        ("", "*", True),
    ],
)
def test_skip_globs(text, pattern, matched):
    import fnmatch

    assert glob_match(text, pattern) is matched
    assert fnmatch.fnmatchcase(text, pattern) is matched  # same answers as fnmatch for these


PIP_TEMPLATE = (
    "# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom tokenjuice.entry import main\n"
    "if __name__ == '__main__':\n    sys.exit(main())\n"
)


def fake_venv(root, shebang=None):
    bin_dir = root / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    os.symlink(sys.executable, bin_dir / "python")
    script = bin_dir / "tokenjuice"
    script.write_text(f"#!{shebang or bin_dir / 'python'}\n" + PIP_TEMPLATE)
    script.chmod(0o755)
    return bin_dir, script


def test_the_hook_is_started_by_the_venv_interpreter(tmp_path):
    bin_dir, script = fake_venv(tmp_path)
    linked = tmp_path / "local-bin" / "tokenjuice"  # pipx links the script into ~/.local/bin
    linked.parent.mkdir()
    os.symlink(script, linked)
    for launcher in (str(script), str(linked)):
        assert launch.direct(launcher) == f"{bin_dir / 'python'} -P -c '{launch.ENTRY}'"
    assert launch.direct(LAUNCHER) == HOOK_LAUNCHER
    assert launch.direct("tokenjuice") is None  # relative: leave it alone


def test_pipx_shebang_with_minus_e_gets_the_fast_path_too(tmp_path):
    bin_dir, script = fake_venv(tmp_path, f"{tmp_path / 'venv' / 'bin'}/python -E")
    assert launch.direct(str(script)) == f"{bin_dir / 'python'} -E -P -c '{launch.ENTRY}'"
    assert manage.is_our_command(f"{launch.direct(str(script))} hook cursor --wrap-launcher {script}", "cursor")


@pytest.mark.parametrize(
    "shebang", ["/usr/bin/env python3", "/bin/sh", "{other}/python", "{bin}/python -X dev", "{bin}/python -E -c x"]
)
def test_scripts_without_a_plain_venv_shebang_keep_their_launcher(tmp_path, shebang):
    other = tmp_path / "other"
    other.mkdir()
    bin_dir = tmp_path / "venv" / "bin"
    _, script = fake_venv(tmp_path, shebang.format(other=other, bin=bin_dir))
    assert launch.direct(str(script)) is None


def test_the_direct_hook_answers_like_the_script(workdir, cursor_home):
    tj("install", "cursor", "--local")
    command = entries(cursor_home / "hooks.json")[0]["command"]
    assert command.startswith(HOOK_SCRIPT)
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        input=json.dumps(shell_payload("git status")).encode(),
        capture_output=True,
        cwd=workdir,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["updated_input"]["command"].startswith(f"{LAUNCHER} wrap --source cursor")


def test_install_uses_its_own_installation_not_the_first_tokenjuice_on_path(workdir, cursor_home, tmp_path):
    impostor = tmp_path / "bin" / "tokenjuice"
    impostor.parent.mkdir()
    impostor.write_text("#!/bin/sh\necho impostor\n")
    impostor.chmod(0o755)
    env = os.environ | {"PATH": f"{impostor.parent}:{os.environ['PATH']}"}
    done = tj("install", "cursor", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    command = json.loads(done.stdout)["command"]
    own = os.path.join(os.path.dirname(sys.executable), "tokenjuice")
    assert str(impostor) not in command and f"--wrap-launcher {own}" in command
    report = json.loads(tj("doctor", "cursor", "--format", "json", env=env).stdout)
    notes = [c["message"] for c in report["checks"] if c["name"] == "path"]
    assert notes and str(impostor) in notes[0] and report["fixCommand"] is None  # a note; reinstalling fixes nothing


def test_after_pip_uninstall_the_hook_fails_open(workdir, cursor_home, tmp_path):
    """The installed entry names an interpreter that is gone: the shell says 127 with
    no JSON on stdout, which Cursor treats as 'run the command as it is'. A hook
    whose rewrite launcher is gone answers {}."""
    gone = tmp_path / "venv" / "bin"
    command = f"{gone}/python -P -c '{launch.ENTRY}' hook cursor --wrap-launcher {gone}/tokenjuice"
    done = subprocess.run(
        ["/bin/sh", "-c", command], input=json.dumps(shell_payload("ls")).encode(), capture_output=True
    )
    assert done.returncode == 127 and done.stdout == b""
    answer = tokenjuice(
        "hook", "cursor", "--wrap-launcher", f"{gone}/tokenjuice", input=json.dumps(shell_payload("ls"))
    )
    assert json.loads(answer.stdout) == {}


@pytest.mark.parametrize(
    "payload",
    [
        b'{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls \\udc80"}}',
        b'{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls", "x": NaN}}',
        b'{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls", "x": Infinity}}',
        b'\xef\xbb\xbf{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls"}}',
        b'{"hook_event_name": "postToolUse", "tool_name": "Shell", "tool_input": {"command": "ls"}}',
        b'{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls", "shell": "nu"}}',
        b'{"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "ls", "shell": "pwsh"}}',
        b'{"tool_name": "Shell", "tool_input": {"command": "' + b"x" * (10 * 1024 * 1024) + b'"}}',
    ],
    ids=["lone-surrogate", "nan", "infinity", "bom", "other-event", "nu", "pwsh", "10MB"],
)
def test_hostile_payloads_get_valid_json_and_exit_0(workdir, payload):
    done = tokenjuice("hook", "cursor", "--wrap-launcher", LAUNCHER, input=payload)
    assert done.returncode == 0 and b"Traceback" not in done.stderr
    answer = json.loads(done.stdout.decode("utf-8"))  # strict UTF-8 and strict JSON
    assert "NaN" not in done.stdout.decode() and "Infinity" not in done.stdout.decode()
    if b"bom" in payload or payload.startswith(b"\xef\xbb\xbf"):
        assert answer["permission"] == "allow"  # a BOM before the JSON is read past
    else:
        assert answer == {}


def test_a_symlinked_hooks_file_is_edited_through_the_link(workdir, cursor_home, tmp_path):
    dotfiles = tmp_path / "dotfiles" / "cursor-hooks.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text(ORIGINAL)
    link = cursor_home / "hooks.json"
    link.symlink_to(dotfiles)
    assert tj("install", "cursor", "--local").returncode == 0
    assert link.is_symlink() and os.readlink(link) == str(dotfiles)
    assert "tokenjuice-hook cursor " in dotfiles.read_text()
    assert tj("uninstall", "cursor").returncode == 0
    assert link.is_symlink() and dotfiles.read_bytes() == ORIGINAL.encode()


def test_backups_are_bounded_and_the_first_one_is_kept(workdir, cursor_home):
    path = cursor_home / "hooks.json"
    path.write_text(ORIGINAL)
    for round_trip in range(8):
        assert tj("install", "cursor", "--local").returncode == 0
        path.write_text(path.read_text().replace("./format", f"./format{round_trip}"))  # the user edits it
        assert tj("uninstall", "cursor").returncode == 0
    backups = sorted(p.name for p in cursor_home.glob("hooks.json.bak*"))
    assert len(backups) == 5 and "hooks.json.bak" in backups  # the original, and the newest four edits
    assert (cursor_home / "hooks.json.bak").read_text() == ORIGINAL


def test_install_and_doctor_name_the_allowlist_entry_the_rewrite_needs(workdir, cursor_home, isolated_home):
    """An allowlist in force that does not allow the wrapper makes every rewrite fall back
    to leaving the command alone: install and doctor say so and name the entry to add."""
    config = isolated_home / ".cursor" / "cli-config.json"
    config.parent.mkdir(exist_ok=True)
    config.write_text('{"permissions": {"allow": ["Shell(git)"]}}')
    done = tj("install", "cursor", "--format", "json")
    assert done.returncode == 0, done.stderr
    [warning] = [w for w in json.loads(done.stdout)["warnings"] if "allowlist" in w]
    entry = warning.split('add "')[1].split('"')[0]
    assert entry.startswith("Shell(") and "tokenjuice" in entry and str(config) in warning
    report = json.loads(tj("doctor", "cursor", "--format", "json").stdout)
    assert any(c["name"] == "allowlist" and c["status"] == "warn" for c in report["checks"])
    config.write_text(json.dumps({"permissions": {"allow": ["Shell(git)", entry]}}))
    report = json.loads(tj("doctor", "cursor", "--format", "json").stdout)
    assert not any(c["name"] == "allowlist" for c in report["checks"])
    assert any(c["name"] == "mode" and c["message"].startswith("pre: ") for c in report["checks"])
    done = tj("install", "cursor", "--local", "--format", "json")
    assert not any('add "Shell(' in w and "python" in w for w in json.loads(done.stdout)["warnings"])
