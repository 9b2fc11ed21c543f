"""GitHub Copilot CLI: a `preToolUse` hook for the `bash` tool, in a hooks file of
our own: `$COPILOT_HOME/hooks/tokenjuice.json` (default `~/.copilot`), or with
--project `<git root>/.github/hooks/tokenjuice.json` (loaded only in folders the
user trusts).

Copilot sends `{"sessionId", "timestamp", "cwd", "toolName": "bash",
"toolArgs": {"command", …}}` (`toolArgs` may also come as a JSON string) and
runs `modifiedArgs` when the answer has it; no permission decision is sent, and
never `allow`, which would skip Copilot's own approval. Any non-zero exit of the
hook denies the call, so the installed command fails open by construction
(`manage.fail_open`). Copilot checks its rules on the rewritten command, so a
command is rewritten only when its flags approve every shell command and path
and no deny rule may match the original (`copilot_permissions`).
"""

from __future__ import annotations

import os

from . import ALLOW
from .base import Call, JsonHooksHost, command_at, existing_dir

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

EVENT = "preToolUse"
POST_EVENT = "postToolUse"
LIST_PATH = ("hooks", EVENT)
POST_LIST = ("hooks", POST_EVENT)
FILE_NAME = "tokenjuice.json"
TIMEOUT_SECONDS = 10
#: A top-level payload field only `doctor --deep` sends (the model cannot set
#: top-level fields): its probe command alone is treated as approved.
PROBE_FIELD = "tokenjuiceDoctorProbe"


class Copilot(JsonHooksHost):
    name = "copilot"
    title = "Copilot CLI"
    modes = ("post", "pre")
    list_path = LIST_PATH
    more_lists = (POST_LIST,)
    mode_lists = (("post", POST_LIST), ("pre", LIST_PATH))
    mode_effects = (
        ("post", "every bash output is compacted after it ran, successful or failing, whatever the approval flags"),
        (
            "pre",
            "commands are rewritten only under --allow-all (or --allow-all-tools --allow-all-paths); "
            "otherwise they run as typed",
        ),
    )
    command_key = "bash"
    project_file = (".github", "hooks", FILE_NAME)
    programs = ("copilot",)

    def __init__(self) -> None:
        self._probe = False

    # -- post: compact the output of a command that ran -----------------------------------

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        if "toolResult" not in payload:
            return None
        return self.compacted_output(payload, env)

    def compacted_output(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The postToolUse answer: `modifiedResult` with the compacted text, Copilot's own
        `<shellId: … exit code N>` line kept, or {} to leave the result as it is."""
        if payload.get("toolName") != "bash" or os.name == "nt":
            return {}
        args, result = _tool_args(payload.get("toolArgs")), payload.get("toolResult")
        if args is None or not isinstance(result, dict) or result.get("resultType") != "success":
            return {}
        command, text = args.get("command"), result.get("textResultForLlm")
        if not isinstance(command, str) or not isinstance(text, str) or args.get("mode") == "async":
            return {}
        shown, status, exit_code = split_status(text)
        saved, preview = saved_path(shown)
        from .postrun import compact_output

        cwd = existing_dir(payload.get("cwd"))
        compacted = compact_output(
            self.name, command, shown, cwd=cwd, env=env, exit_code=exit_code, saved=saved, preview=preview
        )
        if compacted is None:
            return {}
        return {"modifiedResult": {"resultType": "success", "textResultForLlm": compacted + status}}

    # -- pre: rewrite the command before it runs -----------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        if payload.get("toolName") != "bash" or os.name == "nt":
            return None
        args = _tool_args(payload.get("toolArgs"))
        if args is None:
            return None
        command = args.get("command")
        if not isinstance(command, str):
            return None
        cwd = existing_dir(payload.get("cwd"))
        from .probe import PROBE_COMMAND

        self._probe = payload.get(PROBE_FIELD) is True and command == PROBE_COMMAND
        return Call(command, cwd, "bash", cwd)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        if self._probe:
            return ALLOW
        from .permissions.copilot import decision

        return decision(call.command, call.project_dir, env)

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        args = _tool_args(payload.get("toolArgs")) or {}
        return {"modifiedArgs": {**args, "command": rewritten}}

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        return {
            "sessionId": "doctor",
            "timestamp": 0,
            "cwd": cwd,
            "toolName": "bash",
            "toolArgs": {"command": command},
            PROBE_FIELD: True,
        }

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        return command_at(_tool_args(answer.get("modifiedArgs")))

    # -- the config --------------------------------------------------------------------

    def user_config_path(self) -> str:
        return os.path.join(copilot_home(), "hooks", FILE_NAME)

    def detected(self) -> str | None:
        from .manage import in_use

        return in_use(copilot_home(), *self.programs)

    def hook_command(self, launch: str) -> str:
        from .manage import fail_open

        return fail_open(super().hook_command(launch))

    def entry(self, command: str) -> dict[str, Any]:
        return {"type": "command", "bash": command, "timeoutSec": TIMEOUT_SECONDS}

    def skeleton(self) -> dict[str, Any]:
        return {"version": 1, "hooks": {}}

    def install_notes(self, path: str) -> list[str]:
        notes = []
        if (self.mode or self.modes[0]) == "pre":
            notes.append(
                "with --mode pre, Copilot rewrites only when started with --allow-all (or --allow-all-tools "
                "--allow-all-paths); otherwise it would ask about every rewritten command, so tokenjuice leaves "
                "commands alone (the default mode compacts outputs after commands run, in every mode)"
            )
        if os.sep + os.path.join(".github", "hooks") + os.sep in path:
            notes.append("Copilot loads repository hooks only in a folder you trust; trust this one when Copilot asks")
        return notes

    def shape_problems(self, entry: Any) -> list[str]:
        problems = []
        if entry.get("type") != "command":
            problems.append('the entry should have "type": "command"')
        timeout = entry.get("timeoutSec", entry.get("timeout"))
        if timeout is not None and (not isinstance(timeout, int | float) or isinstance(timeout, bool)):
            problems.append("timeoutSec must be a number, or Copilot skips the hook")
        if "matcher" in entry and entry.get("matcher") != "bash":
            problems.append('the entry should have no matcher (or "matcher": "bash")')
        return problems

    def handles_shell(self, entry: Any) -> bool:
        return isinstance(entry, dict) and entry.get("matcher") in (None, "bash", ".*", "*")


def split_status(text: str) -> tuple[str, str, int | None]:
    """(the output, Copilot's closing `\n<shellId: 0 completed with exit code N>` line
    or "", N) of a bash result's text."""
    head, newline, last = text.rpartition("\n")
    words = last.split()
    if last.startswith("<shellId: ") and last.endswith(">") and "exit code" in last and words[-1][:-1].isdigit():
        return head, newline + last, int(words[-1][:-1])
    return text, "", None


#: How Copilot (1.0.102) names a bash output it saved to a file: a large one is only
#: previewed; one it compacted itself keeps its original beside it.
_SAVED = ("Output too large to read at once (", "Saved to: ", "-copilot-tool-output-", True)
_COMPACTED = ("Shell output was automatically compacted.", "Original at ", "original-output-", False)


def saved_path(shown: str) -> tuple[str | None, bool]:
    """(the file Copilot saved the whole output to, named in its own first line when
    the name is Copilot's, or None; whether `shown` is a mere preview of it)."""
    first = shown.partition("\n")[0]
    for opening, before, name, preview in (_SAVED, _COMPACTED):
        if first.startswith(opening):
            path = first.partition(before)[2].partition(".txt")[0] + ".txt"
            if name in os.path.basename(path) and "/" in path:
                return path, preview
    return None, True


def copilot_home() -> str:
    home = os.environ.get("COPILOT_HOME", "").strip() or os.path.join(os.path.expanduser("~"), ".copilot")
    return os.path.abspath(os.path.expanduser(home))


def _tool_args(value: object) -> dict[str, Any] | None:
    """`toolArgs` as an object: Copilot sends an object, older builds a JSON string."""
    if isinstance(value, str):
        from ..fast import fastjson

        try:
            value = fastjson.loads(value)
        except ValueError:
            return None
    return value if isinstance(value, dict) else None
