"""Gemini CLI: a `BeforeTool` hook for `run_shell_command` in
`~/.gemini/settings.json` (`$GEMINI_CLI_HOME/.gemini/settings.json`;
`<git root>/.gemini/settings.json` with --project).

Gemini (0.61.0, docs/hosts-research.md) sends `{"hook_event_name": "BeforeTool",
"tool_name": "run_shell_command", "tool_input": {"command", "description",
["dir_path", "is_background", …]}, "cwd", …}` and replaces the call's arguments
with `hookSpecificOutput.tool_input` — all of them: an answer holding only
`command` loses `dir_path` and runs in the project root (measured), so the answer
carries the whole original `tool_input` with the command replaced. Background
calls (`is_background: true`) are left alone: the wrapper would hold their output.

Gemini blocks the call when a hook prints plain text and exits 2 or more, and a
missing hook program does exactly that (bash prints "command not found", exit
127): the hook command is made to fail open (`manage.fail_open`), so a tokenjuice
that is gone leaves commands running as typed.

Gemini checks its policy on the rewritten call, and outside YOLO mode it would ask
the user about the wrapper (whose "allow always" allows every later wrapped
command): `gemini_policy` rewrites only in YOLO mode, in a trusted folder, for
commands no rule of the user's denies or asks about.

After a run (the default, `post`), the `AfterTool` hook also takes the search tools and
every MCP tool but file reads (`--tools all`, the default; `--tools shell` hooks the shell
alone). No answer replaces a result as such: a `read_file` tail call of a file tokenjuice
wrote does, shown to the model under the original call's name and id (measured with
0.61.0 for MCP tools and every search tool, in and outside YOLO mode).
"""

from __future__ import annotations

import os

from . import ALLOW, ASK, DENY, OK, WARN
from .base import FILE_READ_TOOLS, Call, JsonHooksHost, command_at, existing_dir, shell_tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .manage import Report

EVENT = "BeforeTool"
POST_EVENT = "AfterTool"
LIST_PATH = ("hooks", EVENT)
POST_LIST = ("hooks", POST_EVENT)
#: The sections Gemini (0.61.0) closes a shell result with after `Output: …` (and an
#: `Error: …` of its own): one line each, each at most once, in this order, `Exit Code`
#: only for a code other than 0 (`ShellToolInvocation.execute` in its bundle,
#: docs/hosts-research.md).
TRAILING_SECTIONS = ("Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: ")
#: Sections worth keeping for the model (the process group id is not).
KEPT_SECTIONS = ("Signal: ", "Background PIDs: ")
TOOL = "run_shell_command"
#: Milliseconds (Gemini's unit).
TIMEOUT_MS = 10_000
#: The hook's name in Gemini's logs and in `/hooks disable <name>`.
HOOK_NAME = "tokenjuice"
#: Gemini's own tools whose results are compacted after they ran: its search, listing and
#: web tools (0.61.0, docs/hosts-research.md). Never `read_file`, `read_many_files`, `replace`,
#: `write_file`: the agent edits from what those show.
SEARCH_TOOLS = ("grep_search", "glob", "list_directory", "web_fetch", "google_web_search")
#: Gemini names an MCP tool `mcp_<server>_<tool>` and says which in the payload's `mcp_context`.
MCP_PREFIX = "mcp_"
#: The AfterTool matcher of `--tools all` (the default): the shell, the search tools and every
#: MCP tool but a file read. Gemini searches a matcher as a regular expression in the tool's
#: name (`RegExp.test`), so it is anchored; the file reads are left out by the end of the name
#: (kept by Gemini when it shortens a long one), so their calls start no hook at all.
TOOLS_MATCHER = f"^({TOOL}|{'|'.join(SEARCH_TOOLS)}|{MCP_PREFIX}(?!.*_({'|'.join(sorted(FILE_READ_TOOLS))})$).+)$"
MATCHERS = {"all": TOOLS_MATCHER, "shell": TOOL}
#: What each tool set compacts (doctor's tools line).
TOOLS_EFFECTS = {
    "all": f"{TOOL}; {', '.join(SEARCH_TOOLS)}; every MCP tool's text but file reads ("
    + ", ".join(sorted(FILE_READ_TOOLS))
    + "); never read_file, read_many_files, images or a tool's error",
    "shell": f"{TOOL} only (tokenjuice install gemini --tools all adds the search and MCP tools)",
}
YOLO_NOTE = (
    "with --mode pre, tokenjuice rewrites Gemini's shell commands only in YOLO mode (gemini --approval-mode=yolo) "
    "in a trusted folder; in other modes Gemini would ask you about the rewritten command, so it leaves them alone"
)


class Gemini(JsonHooksHost):
    name = "gemini"
    title = "Gemini CLI"
    modes = ("post", "pre")
    list_path = LIST_PATH
    more_lists = (POST_LIST,)
    mode_lists = (("post", POST_LIST), ("pre", LIST_PATH))
    mode_effects = (
        (
            "post",
            "every shell command's output is compacted after it ran, successful or failing, in every approval mode",
        ),
        ("pre", "commands are rewritten only in YOLO mode in a trusted folder; in other modes they run as typed"),
    )
    nested = "hooks"
    project_file = (".gemini", "settings.json")
    programs = ("gemini",)
    tool_sets = ("all", "shell")

    def __init__(self) -> None:
        # The hook process handles one call: what `call` and `permission` read is
        # kept for `permission` and `answer`.
        self._tool_input: dict[str, Any] = {}
        self._policy: Any = None

    # -- post: compact the output of a command that ran -----------------------------------

    def leaves_alone(self, payload: dict[str, Any]) -> bool:
        event = payload.get("hook_event_name")
        if event == EVENT:
            return payload.get("tool_name") != TOOL
        return event == POST_EVENT and not compactable(payload)

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        if payload.get("hook_event_name") != POST_EVENT:
            return None
        if payload.get("tool_name") != TOOL:
            return self.compacted_tool(payload, env)
        return self.compacted_output(payload, env)

    def compacted_output(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The AfterTool answer that makes the model read the compacted text, or {} to
        leave the output as it is.

        Measured with Gemini 0.61.0: `{"decision": "block", "reason": TEXT}` hands the
        model `{"error": TEXT}` in place of `{"output": …}` (an error, for a command that
        may well have succeeded). A `tailToolCallRequest` for `read_file` replaces the
        result with the file's text under the shell call's own name and id, as
        `{"output": TEXT}`: so the text is written to a file in Gemini's own temporary
        folder for the project (which read_file may read without asking) and read back
        through it; `block` is the fallback when that folder cannot be used."""
        found = shell_tool_input(payload, POST_EVENT, TOOL)
        response = payload.get("tool_response")
        if found is None or not isinstance(response, dict) or found[0].get("is_background") not in (None, False):
            return {}
        tool_input, command = found
        parsed = parse_result(response.get("llmContent"), response.get("returnDisplay"))
        if parsed is None:
            return {}
        output, exit_code, kept = parsed
        project = existing_dir(payload.get("cwd"))
        dir_path = tool_input.get("dir_path")
        cwd = project
        if project and isinstance(dir_path, str) and dir_path:
            candidate = os.path.normpath(os.path.join(project, dir_path))
            cwd = candidate if os.path.isdir(candidate) else project
        from .postrun import compact_output

        text = compact_output(self.name, command, output, cwd=cwd, env=env, exit_code=exit_code)
        if text is None:
            return {}
        text = "Output: " + text + "".join("\n" + line for line in kept)
        if response["llmContent"].startswith(UNTRUSTED[0]):
            text = untrusted(text)  # Gemini's mark on what a command printed
        return read_back(payload, text, env) or {"decision": "block", "reason": text}

    def compacted_tool(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The AfterTool answer for a tool that runs no shell command: a search tool's
        text, or an MCP tool's text parts (each in Gemini's `<untrusted_context>` mark),
        compacted and read back through read_file as `compacted_output` does; {} for
        every other tool (a file read, built-in or MCP), a result holding anything but
        text (an image), a tool's error, and when the text cannot be read back whole
        (`block` would show the model an error). Decided from the tool's name and the
        payload's own fields first: a tool that is never compacted costs no import."""
        tool, response = payload.get("tool_name"), payload.get("tool_response")
        if os.name == "nt" or not isinstance(tool, str) or not isinstance(response, dict) or not compactable(payload):
            return {}
        if response.get("error") is not None:
            return {}  # a failure reads as one
        content = response.get("llmContent")
        result: object
        named = mcp_names(payload.get("mcp_context")) if tool.startswith(MCP_PREFIX) else None
        if named is None:
            if not isinstance(content, str):
                return {}
            result = content
        else:
            texts = mcp_texts(content)
            if texts is None:
                return {}
            result = [{"type": "text", "text": text} for text in texts]
        from .postrun import compact_tool

        replaced = compact_tool(self.name, tool, result, existing_dir(payload.get("cwd")), env, mcp=named)
        if isinstance(replaced, list):
            replaced = "\n".join(untrusted(block["text"]) for block in replaced)  # as Gemini joins text parts
        if not isinstance(replaced, str):
            return {}
        return read_back(payload, replaced, env) or {}

    # -- pre: rewrite the command before it runs -----------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        found = shell_tool_input(payload, EVENT, TOOL)
        if found is None or found[0].get("is_background") not in (None, False):
            return None
        tool_input, command = found
        project = existing_dir(payload.get("cwd"))
        cwd = project
        dir_path = tool_input.get("dir_path")
        if project and isinstance(dir_path, str) and dir_path:
            candidate = os.path.normpath(os.path.join(project, dir_path))
            cwd = candidate if os.path.isdir(candidate) else project
        self._tool_input = tool_input
        # Gemini runs shell commands with `bash -c` on Linux and macOS.
        return Call(command, cwd, "bash", project)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        from .permissions.gemini import decision

        verdict, self._policy = decision(call.command, self._tool_input, call.project_dir, env)
        return verdict

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        if permission != ALLOW or self._policy is None:
            return {}
        from .permissions import gemini as gemini_policy

        tool_input = payload["tool_input"]
        updated = {**tool_input, "command": rewritten}
        if gemini_policy.strongest(self._policy, rewritten, updated) in (DENY, ASK):
            return {}  # a rule of the user's would stop or question the wrapper itself
        return {"hookSpecificOutput": {"hookEventName": EVENT, "tool_input": updated}}

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        return {
            "session_id": "doctor",
            "transcript_path": "",
            "cwd": cwd,
            "hook_event_name": EVENT,
            "timestamp": "1970-01-01T00:00:00.000Z",
            "tool_name": TOOL,
            "tool_input": {"command": command, "description": "tokenjuice doctor probe"},
        }

    def probe_argv(self, hook_command: str) -> list[str]:
        """The hook started as Gemini starts it in YOLO mode in a trusted folder: a
        parent process whose command line reads `gemini.js --approval-mode=yolo`
        (what `gemini_policy` looks for) runs it with `bash -c` and Gemini's
        `--skip-trust` environment. The user's policy rules still apply."""
        import sys

        spawn = (
            "import os,subprocess,sys;"
            "os.environ['GEMINI_CLI_TRUST_WORKSPACE']='true';"
            "sys.exit(subprocess.call(['/bin/sh','-c',sys.argv[3]]))"
        )
        return [sys.executable, "-c", spawn, "gemini.js", "--approval-mode=yolo", hook_command]

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        return command_at(answer, "hookSpecificOutput", "tool_input")

    # -- the config --------------------------------------------------------------------

    def user_config_path(self) -> str:
        from .permissions.gemini import gemini_home

        return os.path.join(gemini_home(os.environ), ".gemini", "settings.json")

    def hook_command(self, launch: str) -> str:
        """The hook, made to fail open: Gemini blocks the call when it fails."""
        from .manage import fail_open

        return fail_open(super().hook_command(launch))

    def entry(self, command: str) -> dict[str, Any]:
        post = (self.mode or self.modes[0]) == "post"
        return {
            "matcher": MATCHERS[self.tools or self.tool_sets[0]] if post else TOOL,
            "hooks": [{"type": "command", "name": HOOK_NAME, "command": command, "timeout": TIMEOUT_MS}],
        }

    def install_notes(self, path: str) -> list[str]:
        notes = [YOLO_NOTE] if (self.mode or self.modes[0]) == "pre" else []
        if path != self.config_path(False):
            notes.append(
                "Gemini reads a project's .gemini/settings.json only in a folder you trust, and warns once about "
                "a new project hook"
            )
        return notes

    def shape_problems(self, group: Any) -> list[str]:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        hook = hooks[0] if isinstance(hooks, list) and len(hooks) == 1 and isinstance(hooks[0], dict) else {}
        timeout = hook.get("timeout")
        problems = []
        if group.get("matcher") not in MATCHERS.values() or hook.get("type") != "command":
            problems.append(f'the entry should be {{"matcher": "{TOOL}", "hooks": [{{"type": "command", …}}]}}')
        if not isinstance(timeout, int) or isinstance(timeout, bool) or timeout < 1000:
            problems.append("the hook's timeout should be 10000 (milliseconds): a shorter one cuts the hook off")
        return problems

    def handles_shell(self, group: Any) -> bool:
        from .manage import matcher_hooks

        return matcher_hooks(group, TOOL)

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from . import jsonhooks
        from .manage import fail_open

        report = super().doctor(path, expected, install_hint, deep=deep)
        if report.detected is None:
            return report
        settings = jsonhooks.read(path) or {}
        post = jsonhooks.our_element(settings, POST_LIST, self._ours, self.nested)
        if post is not None:
            jsonhooks.check_tools(report, post, {m: t for t, m in MATCHERS.items()}, TOOLS_EFFECTS)
        elif jsonhooks.our_element(settings, LIST_PATH, self._ours, self.nested) is not None:
            report.check("tools", OK, f"compacted: {TOOL} only (rewritten before it runs)")
        hooks_config = settings.get("hooksConfig")
        if isinstance(hooks_config, dict):
            if hooks_config.get("enabled") is False:
                report.check("settings", WARN, f"hooksConfig.enabled is false in {path}, so Gemini runs no hook")
            disabled = hooks_config.get("disabled")
            if isinstance(disabled, list) and (HOOK_NAME in disabled or report.detected in disabled):
                report.check("settings", WARN, f"hooksConfig.disabled in {path} turns the hook off; remove it there")
        if not report.detected.endswith(fail_open("")):
            report.check(
                "entry", WARN, "the hook command does not fail open: Gemini blocks every shell call if it goes missing"
            )
            report.fix = install_hint
        _allow_all_rules(report)
        return report


#: Seconds a compacted text written for read_file is kept (it is read at once).
READ_FILE_KEEP_SECONDS = 3600
READ_FILE_PREFIX = "tokenjuice-output-"


#: Gemini's mark around what a command printed or an MCP server answered (`wrapUntrusted`).
UNTRUSTED = ("<untrusted_context>\n", "\n</untrusted_context>")
#: read_file (0.61.0) shows at most this many lines, each at most this many characters
#: (UTF-16 units), and says it cut the rest: `DEFAULT_MAX_LINES_TEXT_FILE`, `MAX_LINE_LENGTH_TEXT_FILE`.
READ_FILE_MAX_LINES = 2000
READ_FILE_MAX_LINE = 2000


def compactable(payload: dict[str, Any]) -> bool:
    """Does the AfterTool hook compact this call's result: the shell's, a search tool's,
    an MCP tool's that reads no file? Told from the tool's name and an MCP call's
    `mcp_context` alone."""
    tool = payload.get("tool_name")
    if tool == TOOL or tool in SEARCH_TOOLS:
        return True
    named = mcp_names(payload.get("mcp_context"))
    return (
        isinstance(tool, str) and tool.startswith(MCP_PREFIX) and named is not None and named[1] not in FILE_READ_TOOLS
    )


def untrusted(text: str) -> str:
    """`text` in Gemini's `<untrusted_context>` mark, its closing tag escaped inside as Gemini does."""
    escaped = text.replace("</untrusted_context>", "&lt;/untrusted_context&gt;")
    return UNTRUSTED[0] + escaped + UNTRUSTED[1]


def mcp_names(context: object) -> tuple[str, str] | None:
    """(server, tool) of an MCP call's `mcp_context` (`server_name`, `tool_name`: the
    server's own spelling, which Gemini's `mcp_<server>_<tool>` may have changed), or None."""
    if not isinstance(context, dict):
        return None
    server, tool = context.get("server_name"), context.get("tool_name")
    return (server, tool) if isinstance(server, str) and isinstance(tool, str) and server and tool else None


def mcp_texts(content: object) -> list[str] | None:
    """The texts of an MCP result's `llmContent` when it is text parts alone, each in
    Gemini's `<untrusted_context>` mark (a server's text blocks), without the mark; None
    for anything else (an image's or a resource's parts)."""
    if not isinstance(content, list) or not content:
        return None
    texts = []
    for part in content:
        text = part.get("text") if isinstance(part, dict) and len(part) == 1 else None
        if not isinstance(text, str) or not (text.startswith(UNTRUSTED[0]) and text.endswith(UNTRUSTED[1])):
            return None
        texts.append(text[len(UNTRUSTED[0]) : -len(UNTRUSTED[1])])
    return texts


def read_back(payload: dict[str, Any], text: str, env: Mapping[str, str]) -> dict[str, Any] | None:
    """The AfterTool answer whose tail call reads `text` back through read_file, which
    Gemini shows the model under the original call's name and id (`{"output": TEXT}`);
    None when `text` cannot be written where read_file reads it without a prompt, or
    would not come back whole."""
    written = write_for_read_file(payload.get("transcript_path"), text, env)
    if written is None:
        return None
    request = {"name": "read_file", "args": {"file_path": written}}
    return {"hookSpecificOutput": {"hookEventName": POST_EVENT, "tailToolCallRequest": request}}


def read_whole(text: str) -> bool:
    """Does read_file show `text` whole (no line past its limits)?"""
    lines = text.split("\n")
    if len(lines) > READ_FILE_MAX_LINES:
        return False
    return all(
        len(line) <= READ_FILE_MAX_LINE // 2 or len(line.encode("utf-16-le")) // 2 <= READ_FILE_MAX_LINE
        for line in lines
    )


def write_for_read_file(transcript: object, text: str, env: Mapping[str, str]) -> str | None:
    """Write `text` to a new private file in Gemini's temporary folder for the project
    (the folder holding the session's `chats/`, below `<gemini home>/.gemini/tmp/`,
    which read_file reads without a prompt) and return its path; None when the folder
    is not exactly that, not the user's own, or cannot be written, or when read_file
    would not show `text` whole. Older files of ours there are removed."""
    import stat
    import time

    from .permissions.gemini import gemini_home

    if not isinstance(transcript, str) or not os.path.isabs(transcript) or not read_whole(text):
        return None
    chats = os.path.dirname(transcript)
    folder = os.path.dirname(chats)
    root = os.path.join(gemini_home(env), ".gemini", "tmp")
    if os.path.basename(chats) != "chats" or os.path.dirname(folder) != root:
        return None
    try:
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            return None
        now = time.time()
        for name in os.listdir(folder):
            if name.startswith(READ_FILE_PREFIX) and name.endswith(".txt"):
                old = os.path.join(folder, name)
                try:
                    if now - os.lstat(old).st_mtime > READ_FILE_KEEP_SECONDS:
                        os.unlink(old)
                except OSError:
                    pass
        path = os.path.join(folder, f"{READ_FILE_PREFIX}{os.urandom(6).hex()}.txt")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        fd = os.open(path, flags, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogateescape") as handle:
            handle.write(text)
    except OSError:
        return None
    return path


def parse_result(content: object, display: object = None) -> tuple[str, int, list[str]] | None:
    """(the output, the exit code, the closing lines worth keeping) of a shell result's
    `llmContent` (`<untrusted_context>\nOutput: …\n[Exit Code: N]\n…</untrusted_context>`),
    or None for anything else (a cancelled or background command, a spawn error, text
    after Gemini's envelope).

    Gemini's status is read only where Gemini writes it, never from the command's own
    text: after the output Gemini hands the hook as `returnDisplay` (`display`) when that
    is the exact output; otherwise in the last lines, each of its sections at most once
    and in its order (`Exit Code: 0` never being Gemini's), so a command that prints
    `Exit Code: 0` as its last line still shows its real failure."""
    if not isinstance(content, str):
        return None
    body = content
    if body.startswith("<untrusted_context>\n"):
        if not body.endswith("\n</untrusted_context>"):
            return None  # Gemini escapes the closing tag inside: what follows it is not the command's
        body = body[len("<untrusted_context>\n") : -len("\n</untrusted_context>")]
    if not body.startswith("Output: "):
        return None
    text = body[len("Output: ") :]
    if isinstance(display, str) and display.strip() and (text == display or text.startswith(display + "\n")):
        output, sections = display, text[len(display) + 1 :].split("\n") if text != display else []
        if _section_ranks(sections) is None:
            return None  # not Gemini's sections after the output (its own `Error: …`): left alone
    else:
        lines = text.split("\n")
        cut, rank = len(lines), len(TRAILING_SECTIONS)
        while cut > 1:
            ranks = _section_ranks(lines[cut - 1 : cut])
            if ranks is None or ranks[0] >= rank:
                break  # not a section of Gemini's, or one it writes earlier: the command's own text
            rank, cut = ranks[0], cut - 1
        if lines[cut - 1].startswith("Error: "):
            return None  # Gemini's own error message: not the command's output
        output, sections = "\n".join(lines[:cut]), lines[cut:]
    exit_code, kept = 0, list[str]()
    for line in sections:
        if line.startswith("Exit Code: "):
            exit_code = int(line[len("Exit Code: ") :])
        elif line.startswith(KEPT_SECTIONS):
            kept.append(line)
    return ("" if output == "(empty)" else output), exit_code, kept


def _section_ranks(lines: list[str]) -> list[int] | None:
    """The place in TRAILING_SECTIONS of each line, strictly increasing as Gemini writes
    them, or None when a line is not one of Gemini's sections (an `Exit Code` other than
    a non-zero number included)."""
    ranks: list[int] = []
    for line in lines:
        rank = next((i for i, section in enumerate(TRAILING_SECTIONS) if line.startswith(section)), None)
        if rank is None or (ranks and rank <= ranks[-1]):
            return None
        if rank == 0:
            digits = line[len("Exit Code: ") :].removeprefix("-")
            if not (digits.isascii() and digits.isdigit()) or int(digits) == 0:
                return None
        ranks.append(rank)
    return ranks


def _allow_all_rules(report: Report) -> None:
    """A policy rule of the user's that allows every `tokenjuice …` command (what
    "allow always" on a rewritten command saves) lets the model run anything
    through tokenjuice without a question."""
    from .permissions import gemini as gemini_policy

    policy = gemini_policy.load(os.getcwd(), os.environ)
    probe = "tokenjuice wrap -- bash -lc 'rm -rf ~/x'"
    for rule in policy.rules:
        if (
            rule.decision == ALLOW
            and rule.patterns is not None
            and rule.matches(gemini_policy.stable_stringify({"command": probe}))
        ):
            report.check(
                "policy",
                WARN,
                f"a Gemini policy rule in {rule.source} allows every tokenjuice command without asking; remove it",
            )
            return
    report.check("policy", OK, "no Gemini policy rule allows tokenjuice commands wholesale")
