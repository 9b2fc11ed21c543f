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

from . import ALLOW, ASK, NONE, project_config_paths, user_config_paths
from .base import Call, JsonHooksHost, command_at, existing_dir, shell_tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, ClassVar

    from .manage import Report, Result

EVENT = "preToolUse"
LIST_PATH = ("hooks", EVENT)
#: Cursor's delete protection asks before these run; it must still see them.
DELETING = frozenset({"rm", "rmdir", "unlink", "shred", "srm", "trash", "trash-put"})


class Cursor(JsonHooksHost):
    name = "cursor"
    title = "Cursor"
    list_path = LIST_PATH
    project_file = (".cursor", "hooks.json")
    programs = ("cursor", "cursor-agent")
    required: ClassVar[dict[str, Any] | None] = {"version": 1}

    # -- the hook ----------------------------------------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        found = shell_tool_input(payload, EVENT, "Shell")
        if found is None:
            return None
        tool_input, command = found
        cwd = existing_dir(tool_input.get("cwd"))
        roots = payload.get("workspace_roots")
        root = existing_dir(roots[0]) if isinstance(roots, list) and roots else None
        shell = tool_input.get("shell")
        return Call(command, cwd, shell if isinstance(shell, str) else None, cwd or root)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        files = [*user_config_paths(env), *project_config_paths(call.project_dir)]
        if any(os.path.lexists(path) for path in files):
            from .permissions.cursor import decision

            verdict = decision(call.command, call.project_dir, env)
        else:
            verdict = NONE  # no permission file: no rule allows, asks or denies (and no rules to load)
        if verdict == NONE and _deletes(call.command):
            return ASK  # delete protection would ask; it must see the command as typed
        return verdict

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        if permission == ALLOW:
            from .permissions.cursor import decision

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
        return command_at(answer, "updated_input")

    # -- the config --------------------------------------------------------------------

    def user_config_path(self) -> str:
        home = os.environ.get("CURSOR_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".cursor")
        return os.path.join(os.path.abspath(os.path.expanduser(home)), "hooks.json")

    def entry(self, command: str) -> dict[str, Any]:
        return {"type": "command", "matcher": "Shell", "command": command}

    def skeleton(self) -> dict[str, Any]:
        return {"version": 1, "hooks": {}}

    def shape_problems(self, entry: Any) -> list[str]:
        if entry.get("type") != "command" or entry.get("matcher") != "Shell":
            return ['the entry should have "type": "command" and "matcher": "Shell"']
        return []

    def handles_shell(self, entry: Any) -> bool:
        return isinstance(entry, dict) and entry.get("matcher") in (None, "Shell", "*")

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        result = super().install(path, command, dry_run=dry_run)
        from .permissions.cursor import allowlist_gap

        gap = allowlist_gap(command, os.environ, os.getcwd())
        if gap is not None:
            result.warnings.append(gap)
        return result

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from . import OK, WARN

        report = super().doctor(path, expected, install_hint, deep=deep)
        if report.detected is None:
            return report
        from .permissions.cursor import allowlist_gap

        gap = allowlist_gap(report.detected, os.environ, os.getcwd())
        if gap is not None:
            report.check("allowlist", WARN, gap)
        else:
            report.check("mode", OK, "pre: Shell commands your Cursor rules do not deny or ask about are rewritten")
        return report


def _deletes(command: str) -> bool:
    from ..shell.argv import basename, strip_wrappers
    from ..shell.syntax import parse

    pipelines, _ = parse(command)
    for pipeline in pipelines:
        for simple in pipeline.commands:
            argv = strip_wrappers(simple.argv)
            if argv and basename(argv[0]) in DELETING:
                return True
            if argv[:2] == ["git", "clean"] or (argv[:1] == ["find"] and "-delete" in argv):
                return True
    return False
