"""Cursor: manage tokenjuice's entry in `hooks.json` and check that it works.

The file editing itself (lock, backup, atomic write, refusal of files we do not
understand) lives in `jsonfile.py`; the hook that runs per command lives in
`cursor_hook.py`. This module decides what the entry is and what healthy means.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

from ..editfile import Change, EditError
from ..errors import UsageError
from ..jsonfile import LockedJsonFile
from ..paths import git_root
from ..shellsyntax import quote, split_words
from .cursor_hook import WINDOWS_MESSAGE
from .launch import direct

HOOK_EVENT = "preToolUse"
HOOK_MARK = "cursor-pre-tool-use"
#: Paths that tend to disappear or change with upgrades: a hook pointing there breaks later.
VOLATILE_MARKERS = (
    "/Cellar/",
    "/.pyenv/versions/",
    "/nix/store/",
    "/tmp/",
    "/var/folders/",
    "/.cache/",
    "/_npx/",
    "/pip-build-env",
    "/.venv-tmp",
)


class HostError(UsageError):
    """A problem the user must fix; one sentence saying what to do."""


def hooks_path(project: bool, cwd: str | None = None) -> str:
    if project:
        root = git_root(cwd or os.getcwd())
        if root is None:
            raise HostError("--project needs a git repository; run it inside your project or drop --project")
        return os.path.join(root, ".cursor", "hooks.json")
    home = os.environ.get("CURSOR_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cursor")
    return os.path.join(os.path.abspath(os.path.expanduser(home)), "hooks.json")


def launcher(local: bool) -> str:
    """How to run tokenjuice, shell-quoted: the executable on PATH, or with --local
    this interpreter running this checkout."""
    if local:
        return f"{quote(os.path.abspath(sys.executable))} -m tokenjuice"
    found = shutil.which("tokenjuice")
    if found:
        return quote(os.path.abspath(found))
    invoked = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(invoked) == "tokenjuice" and os.access(invoked, os.X_OK):
        return quote(invoked)
    raise HostError(
        "tokenjuice is not on your PATH; install it with pipx, uv tool or install/install.sh, "
        "or use --local to run this checkout"
    )


def hook_command(launch: str) -> str:
    """The hook entry: started directly by the interpreter when possible (see
    `launch.py`); the commands it rewrites use `launch`."""
    return f"{direct(launch) or launch} {HOOK_MARK} --wrap-launcher {quote(launch)}"


def is_ours(entry: object) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("command"), str) and HOOK_MARK in entry["command"]


class Result:
    __slots__ = ("action", "backup", "command", "diff", "path", "warnings")

    def __init__(
        self, path: str, action: str, change: Change | None, command: str | None, warnings: list[str] | None = None
    ) -> None:
        self.path = path
        self.action = action
        self.backup = change.backup if change else None
        self.diff = change.diff() if change and change.changed else ""
        self.command = command
        self.warnings = warnings or []

    def to_dict(self) -> dict:
        data = {"path": self.path, "action": self.action, "backupPath": self.backup, "command": self.command}
        if self.warnings:
            data["warnings"] = self.warnings
        return data


def install(path: str, command: str, *, dry_run: bool = False) -> Result:
    if os.name == "nt":
        raise HostError(WINDOWS_MESSAGE)
    entry = {"type": "command", "matcher": "Shell", "command": command}
    with LockedJsonFile(path, create=not dry_run) as file:
        data = file.load({"version": 1, "hooks": {}})
        hooks, entries = _hook_entries(data, path)
        ours = [e for e in entries if is_ours(e)]
        if ours == [entry]:
            return Result(path, "unchanged", None, command, _launcher_warnings(command))
        kept = [e for e in entries if not is_ours(e)]
        edits: list[tuple] = [("set", ("hooks", HOOK_EVENT), kept + [entry])]
        hooks[HOOK_EVENT] = kept + [entry]
        if "hooks" not in data:
            data["hooks"] = hooks
        if "version" not in data:
            data["version"] = 1
            edits.append(("set", ("version",), 1))
        change = file.save_json(data, edits, dry_run=dry_run)
    action = ("would update" if dry_run else "updated") if ours else ("would install" if dry_run else "installed")
    return Result(path, action, change, command, _launcher_warnings(command))


def uninstall(path: str, *, dry_run: bool = False) -> Result:
    with LockedJsonFile(path, create=False) as file:
        if file.text is None:
            return Result(path, "absent", None, None)
        data = file.load({})
        hooks, entries = _hook_entries(data, path)
        kept = [e for e in entries if not is_ours(e)]
        if len(kept) == len(entries):
            return Result(path, "absent", None, None)
        if kept:
            hooks[HOOK_EVENT] = kept
            edits = [("set", ("hooks", HOOK_EVENT), kept)]
        else:
            del hooks[HOOK_EVENT]
            edits = [("delete", ("hooks", HOOK_EVENT))]
        change = file.save_json(data, edits, dry_run=dry_run)
    return Result(path, "would remove" if dry_run else "removed", change, None)


def _hook_entries(data: dict, path: str) -> tuple[dict, list]:
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise EditError(f'{path}: "hooks" is not an object; fix or move the file and try again')
    entries = hooks.get(HOOK_EVENT, [])
    if not isinstance(entries, list):
        raise EditError(f'{path}: "hooks.{HOOK_EVENT}" is not a list; fix or move the file and try again')
    return hooks, entries


def _launcher_warnings(command: str) -> list[str]:
    words = split_words(command)
    first = words[0] if words else ""
    if any(marker in first for marker in VOLATILE_MARKERS):
        return [
            f"the launcher {first} lives in a versioned or temporary location; the hook breaks when it "
            "moves (install tokenjuice with pipx or uv tool for a stable path)"
        ]
    return []


# -- doctor -----------------------------------------------------------------------------

OK, WARN, BROKEN, DISABLED = "ok", "warn", "broken", "disabled"
_SEVERITY = {BROKEN: 3, WARN: 2, OK: 1, DISABLED: 0}


def worst(statuses) -> str:
    """The most severe status; `disabled` when there is none."""
    return max(statuses, key=lambda s: _SEVERITY[s], default=DISABLED)


class Report:
    def __init__(self, path: str, expected: str | None) -> None:
        self.path = path
        self.status = OK
        self.issues: list[str] = []
        self.expected = expected
        self.detected: str | None = None
        self.fix: str | None = None
        self.deep: dict | None = None

    def flag(self, status: str, issue: str) -> None:
        self.issues.append(issue)
        if _SEVERITY[status] > _SEVERITY[self.status]:
            self.status = status

    def to_dict(self) -> dict:
        data = {
            "hooksPath": self.path,
            "status": self.status,
            "issues": self.issues,
            "expectedCommand": self.expected,
            "detectedCommand": self.detected,
            "fixCommand": self.fix,
        }
        if self.deep is not None:
            data["deep"] = self.deep
        return data


def doctor(path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
    report = Report(path, expected)
    if os.name == "nt":
        report.status, report.fix = DISABLED, None
        report.issues.append(WINDOWS_MESSAGE)
        return report
    try:
        with LockedJsonFile(path, create=False) as file:
            data = file.load({}) if file.text is not None else None
            if data is None:
                report.status, report.fix = DISABLED, install_hint
                return report
            _, entries = _hook_entries(data, path)
    except EditError as error:
        report.flag(BROKEN, str(error))
        report.fix = f"fix or move {path}, then run {install_hint}"
        return report
    ours = [e for e in entries if is_ours(e)]
    if not ours:
        report.status, report.fix = DISABLED, install_hint
        return report
    entry = ours[0]
    report.detected = entry["command"]
    for problem in _launcher_problems(entry["command"]):
        report.flag(BROKEN, problem)
    if entry.get("type") != "command" or entry.get("matcher") != "Shell":
        report.flag(WARN, 'the entry should have "type": "command" and "matcher": "Shell"')
    if len(ours) > 1:
        report.flag(WARN, f"{len(ours)} tokenjuice entries in {HOOK_EVENT}; one is enough")
    if expected is not None and entry["command"] != expected:
        report.flag(
            WARN, f"the configured command differs from what install would write now ({install_hint} updates it)"
        )
    for warning in _launcher_warnings(entry["command"]):
        report.flag(WARN, warning)
    for other in entries:
        if not is_ours(other) and isinstance(other, dict) and other.get("matcher") in (None, "Shell", "*"):
            shown = str(other.get("command", other))[:120]
            report.flag(
                WARN,
                f"another {HOOK_EVENT} hook also handles Shell commands ({shown}); if it rewrites "
                "commands too, they get wrapped twice",
            )
    if deep and report.status != BROKEN:
        report.deep = probe(entry["command"])
        if not report.deep["ok"]:
            report.flag(BROKEN, report.deep["problem"])
    if report.status != OK:
        report.fix = install_hint
    return report


def _launcher_problems(command: str) -> list[str]:
    words = split_words(command)
    problems = []
    launchers = [words[0]] if words else []
    if "--wrap-launcher" in words:
        index = words.index("--wrap-launcher")
        wrap_launcher = split_words(words[index + 1]) if index + 1 < len(words) else []
        if wrap_launcher:
            launchers.append(wrap_launcher[0])
    for executable in dict.fromkeys(launchers):
        if "/" not in executable:
            if shutil.which(executable) is None:
                problems.append(f"the launcher {executable} is not on PATH")
        elif not (os.path.isfile(executable) and os.access(executable, os.X_OK)):
            problems.append(f"the launcher {executable} does not exist or is not executable")
    return problems


PROBE_COMMAND = "echo tokenjuice-doctor-probe && exit 7"


def probe(command: str) -> dict:
    """Run the installed hook on a synthetic Shell payload, exactly as Cursor would,
    then run the rewritten command and check its output and exit code."""
    payload = {
        "hook_event_name": HOOK_EVENT,
        "tool_name": "Shell",
        "conversation_id": "doctor",
        "generation_id": "doctor",
        "tool_input": {"command": PROBE_COMMAND, "cwd": os.getcwd()},
    }
    started = time.monotonic()
    try:
        hook = subprocess.run(
            ["/bin/sh", "-c", command], input=json.dumps(payload).encode(), capture_output=True, timeout=20
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "problem": "the hook did not answer within 20 s"}
    latency_ms = round((time.monotonic() - started) * 1000, 1)
    result: dict = {"ok": False, "hookLatencyMs": latency_ms, "hookExitCode": hook.returncode}
    try:
        answer = json.loads(hook.stdout)
        rewritten = answer["updated_input"]["command"]
    except (ValueError, KeyError, TypeError):
        result["problem"] = (
            f"the hook answered {hook.stdout[:200]!r} (exit {hook.returncode}) instead of a "
            "rewrite; stderr: " + hook.stderr.decode(errors="replace")[:200]
        )
        return result
    result["rewrittenCommand"] = rewritten
    try:
        ran = subprocess.run(["/bin/sh", "-c", rewritten], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        result["problem"] = "the rewritten command did not finish within 60 s"
        return result
    result["commandExitCode"] = ran.returncode
    if ran.returncode != 7 or b"tokenjuice-doctor-probe" not in ran.stdout:
        result["problem"] = (
            f"the rewritten probe command exited {ran.returncode} with output "
            f"{ran.stdout[:200]!r}; expected exit 7 and tokenjuice-doctor-probe"
        )
        return result
    result["ok"] = True
    return result
