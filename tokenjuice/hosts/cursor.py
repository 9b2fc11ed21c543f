"""Cursor: a `preToolUse` hook for the Shell tool in `~/.cursor/hooks.json` (or
`<git root>/.cursor/hooks.json` with --project).

Cursor sends `{"hook_event_name": "preToolUse", "tool_name": "Shell",
"tool_input": {"command", "cwd", …}, "workspace_roots": […], …}` and runs
whatever `updated_input.command` comes back. Its own approval runs *after* the
hook, on the rewritten command (docs/cursor-permissions.md), so a command the
user's Cursor rules deny or ask about is never rewritten, and an allowed one
only when the rewrite is allowed too.
"""

from __future__ import annotations

import os

from .base import ALLOW, ASK, NONE, Call, Host, HostError, Report, Result, is_our_command, launcher_warnings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

EVENT = "preToolUse"
LIST_PATH = ("hooks", EVENT)
#: Cursor's delete protection asks before these run; it must still see them.
DELETING = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put"})


class Cursor(Host):
    name = "cursor"
    title = "Cursor"

    # -- the hook ----------------------------------------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        event = payload.get("hook_event_name")
        if event is not None and event != EVENT:
            return None
        if payload.get("tool_name") != "Shell" or os.name == "nt":
            return None
        tool_input = payload.get("tool_input")
        if not isinstance(tool_input, dict):
            return None
        command = tool_input.get("command")
        if not isinstance(command, str):
            return None
        cwd = tool_input.get("cwd")
        cwd = cwd if isinstance(cwd, str) and os.path.isabs(cwd) and os.path.isdir(cwd) else None
        roots = payload.get("workspace_roots")
        root = roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else None
        root = root if root and os.path.isabs(root) and os.path.isdir(root) else None
        shell = tool_input.get("shell")
        return Call(command, cwd, shell if isinstance(shell, str) else None, cwd or root)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        from .cursor_permissions import decision

        verdict = decision(call.command, call.project_dir, env)
        if verdict == NONE and _deletes(call.command):
            return ASK  # delete protection would ask; it must see the command as typed
        return verdict

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        if permission == ALLOW:
            from .cursor_permissions import decision

            if decision(rewritten, call.project_dir, env) != ALLOW:
                return {}  # the wrapper is not on the allowlist: rewriting would bring a prompt
        tool_input = payload["tool_input"]
        return {"permission": "allow", "updated_input": {**tool_input, "command": rewritten}}

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        return {
            "hook_event_name": EVENT,
            "tool_name": "Shell",
            "conversation_id": "doctor",
            "generation_id": "doctor",
            "tool_input": {"command": command, "cwd": cwd},
            "workspace_roots": [cwd],
        }

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        updated = answer.get("updated_input")
        command = updated.get("command") if isinstance(updated, dict) else None
        return command if isinstance(command, str) else None

    # -- the config --------------------------------------------------------------------

    def config_path(self, project: bool, cwd: str | None = None) -> str:
        if project:
            from ..paths import git_root

            root = git_root(cwd or os.getcwd())
            if root is None:
                raise HostError("--project needs a git repository; run it inside your project or drop --project")
            return os.path.join(root, ".cursor", "hooks.json")
        home = os.environ.get("CURSOR_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cursor")
        return os.path.join(os.path.abspath(os.path.expanduser(home)), "hooks.json")

    def detected(self) -> str | None:
        import shutil

        folder = os.path.dirname(self.config_path(False))
        if os.path.isdir(folder):
            return f"{folder} exists"
        for program in ("cursor", "cursor-agent"):
            found = shutil.which(program)
            if found:
                return f"{found} is installed"
        return None

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        from .base import refuse_windows

        refuse_windows()
        entry = {"type": "command", "matcher": "Shell", "command": command}
        from . import jsonhooks

        return jsonhooks.install(
            path,
            LIST_PATH,
            entry,
            self._ours,
            skeleton={"version": 1, "hooks": {}},
            required={"version": 1},
            dry_run=dry_run,
            command=command,
            warnings=launcher_warnings(command),
        )

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        from . import jsonhooks

        return jsonhooks.uninstall(path, LIST_PATH, self._ours, dry_run=dry_run)

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from . import jsonhooks

        return jsonhooks.doctor(
            self,
            path,
            LIST_PATH,
            self._ours,
            expected,
            install_hint,
            deep=deep,
            command_of=_command_of,
            shape_problems=_shape_problems,
            others_conflict=_handles_shell,
        )

    def _ours(self, entry: object) -> bool:
        return isinstance(entry, dict) and is_our_command(entry.get("command"), self.name)


def _command_of(entry: Any) -> str | None:
    command = entry.get("command") if isinstance(entry, dict) else None
    return command if isinstance(command, str) else None


def _shape_problems(entry: Any) -> list[str]:
    if entry.get("type") != "command" or entry.get("matcher") != "Shell":
        return ['the entry should have "type": "command" and "matcher": "Shell"']
    return []


def _handles_shell(entry: Any) -> bool:
    return isinstance(entry, dict) and entry.get("matcher") in (None, "Shell", "*")


def _deletes(command: str) -> bool:
    from ..command import basename, strip_wrappers
    from ..shellsyntax import parse

    pipelines, _ = parse(command)
    for pipeline in pipelines:
        for simple in pipeline.commands:
            argv = strip_wrappers(simple.argv)
            if argv and basename(argv[0]) in DELETING:
                return True
            if argv[:2] == ["git", "clean"] or (argv[:1] == ["find"] and "-delete" in argv):
                return True
    return False
