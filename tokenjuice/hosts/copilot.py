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
    from collections.abc import Callable, Mapping
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
        saved = saved_output(shown)
        from .postrun import compact_output

        cwd = existing_dir(payload.get("cwd"))
        compacted = compact_output(
            self.name,
            command,
            shown,
            cwd=cwd,
            env=env,
            exit_code=exit_code,
            saved=saved.path if saved else None,
            preview=saved.preview if saved else True,
            saved_check=saved.check(env, payload.get("timestamp")) if saved else None,
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


#: How Copilot (1.0.102) says, in its own words (its runtime's strings), that it saved a
#: bash output to a file in its temporary folder: a large one is only previewed, the
#: whole text being Copilot's message; one it compacted itself keeps its original beside it.
TOO_LARGE = "Output too large to read at once ("
SAVED_TO = "). Saved to: "
CONSIDER = "Consider using tools like "
PREVIEW = "Preview (first "
COMPACTED = "Shell output was automatically compacted. Compacted output below. Original at "
COMPACTED_END = "; only use if exact omitted lines are needed."
#: Seconds before Copilot called the hook (its `timestamp`) within which the file it
#: names must have been written last: Copilot writes it once the command has ended.
SAVED_WITHIN_SECONDS = 120
#: Copilot's size units ("575.1 KB": bytes / 1024, one decimal).
_UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}


class SavedOutput:
    """The file Copilot's own message names for this output, and what the message says
    of it: whether `shown` is a mere preview, the size (bytes, from..to) and the
    preview's text when it gives them."""

    __slots__ = ("head", "path", "preview", "size")

    def __init__(self, path: str, preview: bool, size: tuple[float, float] | None, head: str | None) -> None:
        self.path, self.preview, self.size, self.head = path, preview, size, head

    def check(self, env: Mapping[str, str], timestamp: object) -> Callable[[os.stat_result, bytes], bool]:
        """The test the opened file must pass to be the one Copilot wrote for this call:
        in Copilot's temporary folder ($TMPDIR, else /tmp), under one of its names, last
        written in the SAVED_WITHIN_SECONDS before Copilot called the hook, of the size
        its message gives and beginning with the preview it shows."""
        import time

        when = timestamp / 1000 if isinstance(timestamp, int | float) and not isinstance(timestamp, bool) else None
        anchor = when if when is not None and when > 0 else time.time()
        folder = env.get("TMPDIR") or "/tmp"  # noqa: S108 - Copilot's own folder (Rust's temp_dir, Node's tmpdir)
        in_folder = os.path.realpath(os.path.dirname(self.path)) == os.path.realpath(folder)

        def made_by_copilot(info: os.stat_result, data: bytes) -> bool:
            if not in_folder or not anchor - SAVED_WITHIN_SECONDS <= info.st_mtime <= anchor + 2:
                return False
            if self.size is not None and not self.size[0] <= len(data) <= self.size[1]:
                return False
            return self.head is None or data.decode("utf-8", errors="replace").startswith(self.head)

        return made_by_copilot


def saved_output(shown: str) -> SavedOutput | None:
    """The file Copilot saved the whole output to, when `shown` is Copilot's own message
    saying so, whole (its first line alone is what a command can print too), and the
    file has one of Copilot's names; None otherwise."""
    first, _, rest = shown.partition("\n")
    if first.startswith(TOO_LARGE):
        size_text, found, path = first[len(TOO_LARGE) :].partition(SAVED_TO)
        consider, _, rest = rest.partition("\n")
        blank, _, rest = rest.partition("\n")
        heading, _, head = rest.partition("\n")
        count = heading.removeprefix(PREVIEW).removesuffix(" chars):")
        size = _size_range(size_text)
        if not (found and size and consider.startswith(CONSIDER) and not blank and heading.startswith(PREVIEW)):
            return None
        if not (count.isascii() and count.isdigit() and len(head) <= int(count)):
            return None
        return SavedOutput(path, True, size, head) if _copilots_name(path, large=True) else None
    if first.startswith(COMPACTED) and first.endswith(COMPACTED_END) and rest.startswith("\n"):
        path = first[len(COMPACTED) : -len(COMPACTED_END)]
        return SavedOutput(path, False, None, None) if _copilots_name(path, large=False) else None
    return None


def _copilots_name(path: str, *, large: bool) -> bool:
    """Is `path` an absolute, normal path to a file named as Copilot names them:
    `<ms>-copilot-tool-output-<pid>-<uuid>.txt` for a large output,
    `original-output-<ms>-<hex>.txt` for the original of one it compacted?"""
    if not os.path.isabs(path) or os.path.normpath(path) != path or not path.endswith(".txt"):
        return False
    name = os.path.basename(path)[: -len(".txt")]
    if large:
        stamp, found, tail = name.partition("-copilot-tool-output-")
    else:
        rest = name.removeprefix("original-output-")
        found = "original-output-" if rest != name else ""
        stamp, _, tail = rest.partition("-")
    hexdigits = frozenset("0123456789abcdef-")
    return bool(found and stamp.isascii() and stamp.isdigit() and tail and set(tail) <= hexdigits)


def _size_range(text: str) -> tuple[float, float] | None:
    """The bytes a size as Copilot writes it ("575.1 KB") may stand for, or None."""
    number, _, unit = text.partition(" ")
    digits = number.replace(".", "", 1)
    if unit not in _UNITS or not (digits.isascii() and digits.isdigit()):
        return None
    value, scale = float(number), _UNITS[unit]
    return (value - 0.05) * scale, (value + 0.05) * scale


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
