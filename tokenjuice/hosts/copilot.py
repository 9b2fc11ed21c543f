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

In post mode (the default) a `postToolUse` hook replaces what the model reads of a
result that was a success (`modifiedResult`): bash's, and with `--tools all` (the
default) that of Copilot's search tools (`grep`, `rg`) in content mode and of every
MCP tool (`<server>-<tool>`) but file reads. File lists (`glob`, grep's default
`files_with_matches`) stay whole: the names are what the agent asked for. The entry's
`matcher` (a regular expression on the tool's name in Copilot 1.0.102) names those
tools, so Copilot starts no hook for `view`, `edit`, `glob` and the rest.
"""

from __future__ import annotations

import os

from . import ALLOW
from .base import Call, JsonHooksHost, command_at, existing_dir, reads_a_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from .manage import Report

EVENT = "preToolUse"
POST_EVENT = "postToolUse"
LIST_PATH = ("hooks", EVENT)
POST_LIST = ("hooks", POST_EVENT)
FILE_NAME = "tokenjuice.json"
TIMEOUT_SECONDS = 10
#: Copilot's own tools whose results may be compacted: its search tools (1.0.102), in
#: content mode. Never `view` (a file's text), `str_replace_editor`, `edit`, `create`, nor
#: a list of files (`glob`, grep's `files_with_matches`): the names are what was asked for.
SEARCH_TOOLS = frozenset({"grep", "rg"})
#: The postToolUse matcher of `--tools all` (the default): bash, the search tools and every
#: MCP tool (Copilot names them `<server>-<tool>`; none of its own tools has a `-`).
TOOLS_MATCHER = "^(bash|grep|rg|.+-.+)$"
SHELL_MATCHER = "^bash$"
MATCHERS = {"all": TOOLS_MATCHER, "shell": SHELL_MATCHER}
#: What each tool set compacts (doctor's tools line).
TOOLS_EFFECTS = {
    "all": "bash; grep and rg in content mode; every MCP tool's text but file reads (read_file, read_text_file, "
    "…); never view, edit, create, str_replace_editor, glob or file lists",
    "shell": "bash only (tokenjuice install copilot --tools all adds its search tools and MCP tools)",
}
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
    tool_sets = ("all", "shell")

    def __init__(self) -> None:
        self._probe = False

    # -- post: compact the output of a command that ran -----------------------------------

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        if "toolResult" not in payload:
            return None
        return self.compacted_output(payload, env)

    def compacted_output(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The postToolUse answer: `modifiedResult` with the compacted text, Copilot's own
        `<shellId: … exit code N>` line kept, or {} to leave the result as it is. Decided
        from the tool's name first: a tool that is never compacted costs no import."""
        tool = payload.get("toolName")
        if os.name == "nt" or not isinstance(tool, str):
            return {}
        if tool != "bash":
            return self.compacted_tool(tool, payload, env)
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

    def compacted_tool(self, tool: str, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """A search tool's or an MCP tool's postToolUse answer: `modifiedResult` with its
        text compacted (the whole text read from the file Copilot saved it to when the model
        would read only Copilot's preview); {} for every other tool, a file read through
        MCP, a failure, and a result the compaction would not shorten."""
        if tool in SEARCH_TOOLS:
            args = _tool_args(payload.get("toolArgs"))
            if args is None or args.get("output_mode") != "content":
                return {}  # file names or counts (grep's default): what the agent asked for
        elif "-" not in tool or reads_a_file(tool, "-"):
            return {}
        result = payload.get("toolResult")
        if not isinstance(result, dict) or result.get("resultType") != "success":
            return {}
        shown = result.get("textResultForLlm")
        if not isinstance(shown, str):
            return {}
        cwd = existing_dir(payload.get("cwd"))
        saved = saved_output(shown)
        if saved is not None:
            from .postrun import SAVED_LIMIT, read_saved, settings_at

            limit = settings_at(cwd, env)["capture.max_bytes"] or SAVED_LIMIT  # as for a command's saved output
            data = read_saved(saved.path, limit, saved.check(env, payload.get("timestamp")))
            if data is None:
                return {}  # the whole result cannot be seen: Copilot's own preview and file stay
            shown = data.decode("utf-8", errors="replace")
        from .postrun import compact_tool

        parts = [shown] if tool in SEARCH_TOOLS else mcp_parts(shown)
        # `<server>-<tool>`: the server's name ends at its first dash (a tool's own name may hold more)
        server, _, own = tool.partition("-")
        mcp = None if tool in SEARCH_TOOLS else (server, own)
        done = [compact_tool(self.name, tool, part, cwd, env, mcp=mcp) for part in parts]
        if not any(isinstance(text, str) for text in done):
            return {}
        text = MCP_JOIN.join(new if isinstance(new, str) else old for new, old in zip(done, parts, strict=True))
        return {"modifiedResult": {"resultType": "success", "textResultForLlm": text}}

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
        """Our hook; after the run, with the matcher of the tool set asked for."""
        if (self.mode or self.modes[0]) != "post":
            return {"type": "command", "bash": command, "timeoutSec": TIMEOUT_SECONDS}
        matcher = MATCHERS[self.tools or self.tool_sets[0]]
        return {"type": "command", "matcher": matcher, "bash": command, "timeoutSec": TIMEOUT_SECONDS}

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
        if "matcher" in entry and entry.get("matcher") not in (*MATCHERS.values(), "bash"):
            problems.append(f'the entry should have "matcher": "{TOOLS_MATCHER}" (or "{SHELL_MATCHER}", or none)')
        return problems

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from ..files.editfile import EditError
        from . import OK, jsonhooks

        report = super().doctor(path, expected, install_hint, deep=deep)
        if report.detected is None:
            return report
        try:
            data = jsonhooks.read(path) or {}
        except EditError:
            return report  # the file check says why
        post = jsonhooks.our_element(data, POST_LIST, self._ours)
        if post is not None:
            # an entry without a matcher (an older install) fires for every tool: the hook chooses
            sets: dict[object, str] = {None: "all"} | {m: t for t, m in MATCHERS.items()}
            jsonhooks.check_tools(report, post, sets, TOOLS_EFFECTS)
        elif jsonhooks.our_element(data, LIST_PATH, self._ours) is not None:
            report.check("tools", OK, "compacted: bash only (rewritten before it runs)")
        return report

    def handles_shell(self, entry: Any) -> bool:
        return isinstance(entry, dict) and entry.get("matcher") in (None, "bash", ".*", "*")


#: What Copilot (1.0.102) puts between an MCP result's text blocks and the JSON of its
#: `structuredContent` (which mostly says the same again).
MCP_JOIN = "\n\n"


def mcp_parts(text: str) -> list[str]:
    """Copilot's text of an MCP result in the parts it joined, each compacted on its own
    (a listing and a JSON document read as one text would be neither): the text blocks
    and the one-line JSON of `structuredContent` after them, or the text alone."""
    head, found, tail = text.rpartition(MCP_JOIN)
    if found and head and tail.startswith("{") and tail.endswith("}") and "\n" not in tail:
        return [head, tail]
    return [text]


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
