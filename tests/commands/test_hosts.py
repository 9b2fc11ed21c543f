"""`tokenjuice install|uninstall [--all] [--dry-run]` through real processes and real
files: every host, every starting state of its config. A dry run shows exactly what
the real run does (its diff applied to the starting state is the real result, its
exit code is the real one); a batch processes every host and fails only for the
host that failed; install then uninstall leaves the host's folder as it was."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from conftest import tokenjuice

from tokenjuice.hosts.hook import HOSTS, load

#: Hosts whose config is a JSON settings file the user owns (or shares with others).
JSON_HOSTS = ("cursor", "claude-code", "codex", "gemini", "copilot")
STATES = ("absent", "empty", "other-hooks", "unparsable", "symlinked", "read-only")


def config_path(host: str) -> Path:
    return Path(load(host).config_path(False))


def other_hooks(host: str) -> str:
    """The host's config holding someone else's hook (or, for the files tokenjuice
    writes whole, someone else's file in the way)."""
    if host == "claude-code":
        group = {"matcher": "Bash", "hooks": [{"type": "command", "command": "./other.sh"}]}
        return json.dumps({"model": "x", "hooks": {"PreToolUse": [group]}}, indent=2) + "\n"
    if host in JSON_HOSTS:
        adapter = load(host)
        data: dict = adapter.skeleton() | {"theme": "dark"}
        node = data
        for key in adapter.list_path[:-1]:
            node = node.setdefault(key, {})
        entry = adapter.entry("./other.sh")
        node[adapter.list_path[-1]] = [entry]
        return json.dumps(data, indent=2) + "\n"
    return "# my own rules\n\n- keep answers short\n"


def set_up(host: str, state: str, tmp_path: Path) -> Path:
    path = config_path(host)
    path.parent.mkdir(parents=True, exist_ok=True)
    if state == "empty":
        path.write_text("")
    elif state == "other-hooks":
        path.write_text(other_hooks(host))
    elif state == "unparsable":
        path.write_text('{\n  // a comment\n  "theme": "dark"\n}\n')
    elif state == "symlinked":
        real = tmp_path / "dotfiles" / path.name
        real.parent.mkdir(exist_ok=True)
        real.write_text(other_hooks(host))
        path.symlink_to(real)
    elif state == "read-only":
        path.write_text(other_hooks(host))
        path.chmod(0o444)
    return path


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry below `folder`: file bytes, or where a link points."""
    found: dict[str, bytes | str] = {}
    for entry in sorted(folder.rglob("*")):
        name = str(entry.relative_to(folder))
        if entry.is_symlink():
            found[name] = "-> " + os.readlink(entry)
        elif entry.is_file():
            found[name] = entry.read_bytes()
    return found


def applied(before: str | None, diff: str) -> str | None:
    """`diff` (a unified diff as install and uninstall print it) applied to `before`;
    None when it removes the file."""
    lines = diff.splitlines(keepends=True)
    assert lines[0].startswith("--- ") and lines[1].startswith("+++ "), diff
    if lines[1].rstrip("\n") == "+++ /dev/null":
        return None
    source = (before or "").splitlines(keepends=True)
    out: list[str] = []
    position = 0
    for line in lines[2:]:
        hunk = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", line)
        if hunk:
            start = int(hunk.group(1)) - (0 if hunk.group(2) == "0" else 1)
            out += source[position:start]
            position = start
        elif line.startswith(" "):
            assert source[position] == line[1:], (source[position], line)
            out.append(line[1:])
            position += 1
        elif line.startswith("-"):
            assert source[position] == line[1:]
            position += 1
        elif line.startswith("+"):
            out.append(line[1:])
        elif line.startswith("\\"):  # "\ No newline at end of file": the line before has none
            out[-1] = out[-1].rstrip("\n")
    return "".join(out + source[position:])


def dry_then_real(args: list[str], path: Path) -> tuple[object, object]:
    """(what the dry run promised, what the real run did): each as (exit code,
    resulting text of `path`)."""
    before = path.read_text() if path.exists() else None
    dry = tokenjuice(*args, "--dry-run", "--format", "json")
    assert b"Traceback" not in dry.stderr, dry.stderr
    assert (path.read_text() if path.exists() else None) == before  # a dry run writes nothing
    report = json.loads(dry.stdout) if dry.stdout else {}
    diffs = [r.get("diff") for r in (report if isinstance(report, list) else [report]) if r.get("path") == str(path)]
    diff = next((d for d in diffs if d), "")
    promised = applied(before, diff) if diff else before
    real = tokenjuice(*args)
    assert b"Traceback" not in real.stderr, real.stderr
    result = path.read_text() if path.exists() else None
    return (dry.returncode, promised), (real.returncode, result)


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("host", list(HOSTS))
def test_dry_run_is_the_real_run_and_uninstall_leaves_nothing(host, state, tmp_path, workdir):
    path = set_up(host, state, tmp_path)
    home = Path(os.environ["HOME"])
    start = snapshot(home)
    folder = path.parent
    try:
        promised, done = dry_then_real(["install", host, "--local"], path)
        assert promised == done
        installed = done[0] == 0
        if state in ("unparsable", "read-only") and host in JSON_HOSTS:
            assert not installed  # refused with one sentence, never forced
        if not installed:
            assert snapshot(home) == start  # a refused install leaves nothing behind
            return
        promised, done = dry_then_real(["uninstall", host], path)
        assert promised == done and done[0] == 0
        # the config, its folder and every backup are as before install; no record is left
        assert snapshot(folder) == {
            k.removeprefix(f"{folder.relative_to(home)}/"): v
            for k, v in start.items()
            if k.startswith(f"{folder.relative_to(home)}/")
        }
        assert not any(Path(os.environ["XDG_DATA_HOME"], "tokenjuice", "installs").glob("*.json"))
    finally:
        if path.exists() and not path.is_symlink():
            path.chmod(0o644)


def test_install_all_processes_every_host_and_fails_only_for_the_broken_one(workdir):
    for host in ("cursor", "claude-code", "codex", "gemini"):
        config_path(host).parent.mkdir(parents=True, exist_ok=True)
    claude = config_path("claude-code")
    claude.write_text("{\n  // a comment\n}\n")
    dry = tokenjuice("install", "--all", "--local", "--dry-run")
    assert dry.returncode == 1 and not config_path("cursor").exists()
    done = tokenjuice("install", "--all", "--local")
    out = done.stdout.decode()
    assert done.returncode == 1, out
    lines = {line.split()[0]: line for line in out.splitlines() if line and line.split()[0] in HOSTS}
    assert set(lines) == set(HOSTS)  # one line per host
    assert "installed" in lines["cursor"] and "installed" in lines["codex"] and "installed" in lines["gemini"]
    assert "failed" in lines["claude-code"] and "not valid JSON" in lines["claude-code"]
    assert "skipped" in lines["copilot"] and "tokenjuice install copilot" in lines["copilot"]
    folded = " ".join(out.split())  # long lines are folded at 100 columns
    assert "were changed all the same" in folded and "tokenjuice install --all again" in folded
    for host in ("cursor", "codex", "gemini"):
        assert config_path(host).exists()
    claude.write_text("{}\n")
    again = tokenjuice("install", "--all", "--local")
    assert again.returncode == 0 and "unchanged" in again.stdout.decode()
    doctor = tokenjuice("doctor", "--all")
    assert b"claude-code" in doctor.stdout and doctor.returncode in (0, 1)
    claude.write_text("{\n  // a comment\n}\n")
    removed = tokenjuice("uninstall", "--all")
    out = removed.stdout.decode()
    assert removed.returncode == 1 and "removed the file install created" in out and "failed" in out
    assert not config_path("cursor").exists() and not config_path("codex").exists()


def test_uninstall_all_with_nothing_installed_says_so_in_one_sentence(workdir):
    done = tokenjuice("uninstall", "--all")
    lines = done.stdout.decode().splitlines()
    assert done.returncode == 0 and len(lines) == len(HOSTS) + 1  # a line per host, then the sentence
    assert lines[-1] == "nothing to remove: no host has tokenjuice installed"
    assert not any(config_path(host).exists() for host in HOSTS)


def test_install_listing_says_whether_our_hook_is_there_and_healthy(workdir):
    config_path("cursor").parent.mkdir(parents=True)
    assert tokenjuice("install", "cursor", "--local").returncode == 0
    out = tokenjuice("install", "--local").stdout.decode()
    cursor = next(line for line in out.splitlines() if line.strip().startswith("cursor"))
    assert "our hook is installed" in cursor, out
    codex = next(line for line in out.splitlines() if line.strip().startswith("codex"))
    assert "install adds our hook to" in codex


def test_doctor_deep_fails_when_the_hook_is_not_installed(workdir):
    done = tokenjuice("doctor", "cursor", "--deep")
    assert done.returncode == 1 and b"disabled" in done.stdout
    assert tokenjuice("doctor", "cursor").returncode == 0  # without --deep: information only


def test_uninstall_after_an_edit_takes_away_the_objects_install_added(workdir):
    path = config_path("claude-code")
    path.parent.mkdir(parents=True)
    path.write_text('{\n  "model": "x"\n}\n')
    assert tokenjuice("install", "claude-code", "--local").returncode == 0
    path.write_text(path.read_text().replace('"model": "x"', '"model": "y"'))  # the user changed the file since
    assert tokenjuice("uninstall", "claude-code").returncode == 0
    assert json.loads(path.read_text()) == {"model": "y"}  # no "hooks": {} left behind
    path.write_text('{\n  "hooks": {}\n}\n')  # an empty object the user had stays
    assert tokenjuice("install", "claude-code", "--local").returncode == 0
    path.write_text(path.read_text().replace("{\n", '{\n  "model": "z",\n', 1))
    assert tokenjuice("uninstall", "claude-code").returncode == 0
    assert json.loads(path.read_text()) == {"model": "z", "hooks": {}}


def test_install_builds_the_rule_index_so_the_first_call_does_not(workdir):
    config_path("cursor").parent.mkdir(parents=True)
    assert tokenjuice("install", "cursor", "--local").returncode == 0
    cache = Path(os.environ["XDG_CACHE_HOME"], "tokenjuice")
    built = {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file() and "index" in str(p)}
    assert built, list(cache.rglob("*"))
    assert tokenjuice("wrap", "--", "seq", "1", "3000").returncode == 0
    after = {p: p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file() and "index" in str(p)}
    assert after == built  # the first wrap read the index install built


def test_install_exits_non_zero_when_what_was_asked_did_not_happen(workdir):
    """Issue 31: `install --all` with no host found, and `install codex --approve` with no
    codex to approve through, each exit with their own documented code and say what to do
    instead (never to run the command just run)."""
    env = os.environ | {"PATH": "/usr/bin:/bin"}  # no agent host's program
    none = tokenjuice("install", "--all", "--local", env=env)
    out = " ".join(none.stdout.decode().split())  # long lines are folded at 100 columns
    assert none.returncode == 3, out
    assert "nothing was installed" in out and "tokenjuice install <host>" in out
    assert not any(config_path(host).exists() for host in HOSTS)
    as_json = tokenjuice("install", "--all", "--local", "--json", env=env)
    assert as_json.returncode == 3 and {row["action"] for row in json.loads(as_json.stdout)} == {"skipped"}
    approve = tokenjuice("install", "codex", "--approve", "--local", env=env)
    out = " ".join(approve.stdout.decode().split())
    assert approve.returncode == 4, out
    assert config_path("codex").exists()  # the hook itself is installed
    assert "install codex --approve" not in out  # no advice to run what was just run
    assert "approve the tokenjuice hook in /hooks" in out
    data = json.loads(tokenjuice("install", "codex", "--approve", "--local", "--json", env=env).stdout)
    assert data["undone"] == "approval"
    help_text = tokenjuice("install", "--help").stdout.decode()
    assert "3 --all found no agent" in " ".join(help_text.split())


def test_a_folder_install_created_is_not_the_host_in_use(workdir):
    """Issue 31: `~/.cursor/` made by `install cursor` on a machine without Cursor is no
    sign of Cursor: a host is found by its program or by files of its own there."""
    env = os.environ | {"PATH": "/usr/bin:/bin"}  # no agent host's program

    def found(host: str) -> str:
        rows = json.loads(tokenjuice("install", "--json", env=env).stdout)
        return next(row["detected"] for row in rows if row["host"] == host)

    for host in ("cursor", "copilot", "opencode", "windsurf", "cline"):
        assert tokenjuice("install", host, "--local", env=env).returncode == 0
        assert found(host) == "", host  # only tokenjuice's hook (and folders) there
    assert tokenjuice("install", "cursor", "--local", env=env).returncode == 0  # a second install: backups
    assert found("cursor") == ""
    (config_path("cursor").parent / "argv.json").write_text("{}\n")  # a file of Cursor's own
    assert "exists" in found("cursor")
    config_path("claude-code").parent.mkdir(parents=True)  # a folder tokenjuice did not make
    assert "exists" in found("claude-code")
    # install --all renews the hooks already installed, and finds nothing else
    renewed = tokenjuice("install", "--all", "--local", "--json", env=env)
    actions = {row["host"]: row["action"] for row in json.loads(renewed.stdout)}
    assert renewed.returncode == 0 and actions["copilot"] == "unchanged" and actions["claude-code"] == "installed"
    assert actions["codex"] == actions["gemini"] == "skipped"
