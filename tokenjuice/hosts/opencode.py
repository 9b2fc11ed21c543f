"""OpenCode: a plugin file of our own, `~/.config/opencode/plugins/tokenjuice.js`
(`$XDG_CONFIG_HOME` respected; with --project `<git root>/.opencode/plugins/tokenjuice.js`).

OpenCode has no command hooks, only JavaScript plugins: ours
(`opencode_plugin.js`, with the hook command embedded at install time) handles
`tool.execute.before` for the `bash` tool, runs `tokenjuice hook opencode`
through the plugin context's Bun shell with `{"tool", "args", "directory",
"worktree"}` on stdin, and sets `output.args.command` in place when the answer is
`{"command": …}` (reassigning `output.args` does nothing; a throw would fail the
call, so it catches everything and gives up after a few seconds). OpenCode
checks its `permission.bash` rules on the rewritten command, so commands those
rules deny or ask about are never rewritten (`opencode_permissions`).

After a run (`post`, the default) the plugin's `tool.execute.after` also hands over, with
`--tools all` (the default), the search tools' `output.output` and the text blocks of an
MCP tool's result (`output.content`, from which OpenCode builds the model's text after
the hook), but an MCP file read's; `read` and `edit` never. A tool it does not compact
never starts the hook (measured with 1.18.33, docs/hosts-research.md).
"""

from __future__ import annotations

import os

from . import ALLOW, ASK, BROKEN, NONE, OK, WARN
from .base import FILE_READ_TOOLS, Call, Host, command_at, existing_dir, reads_a_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .manage import Report, Result

FILE_NAME = "tokenjuice.js"
#: How long the plugin waits for the hook before running the command unchanged.
TIMEOUT_MS = 5000
_TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "opencode_plugin.js")
#: Shells OpenCode refuses for its bash tool (it runs bash, or sh, instead).
_REFUSED_SHELLS = ("fish", "nu")
#: OpenCode's own tools whose `output.output` is compacted after they ran (1.18.33): its search
#: and web tools. Never `read`, `edit`, `write`: the agent edits from what those show.
SEARCH_TOOLS = ("grep", "glob", "webfetch", "websearch")
#: What each tool set compacts (doctor's tools line).
TOOLS_EFFECTS = {
    "all": "bash; "
    + ", ".join(SEARCH_TOOLS)
    + "; every MCP tool's text but file reads ("
    + ", ".join(sorted(FILE_READ_TOOLS))
    + "); never read, edit, write, images or an MCP tool's error",
    "shell": "bash only (tokenjuice install opencode --tools all adds the search and MCP tools)",
}


class OpenCode(Host):
    name = "opencode"
    title = "OpenCode"
    modes = ("post", "pre")
    mode_effects = (
        ("post", "every bash output is compacted after it ran, successful or failing"),
        ("pre", "commands your permission.bash rules neither deny nor ask about are rewritten"),
    )
    project_file = (".opencode", "plugins", FILE_NAME)
    programs = ("opencode",)
    tool_sets = ("all", "shell")

    # -- post: compact the output of a command that ran -----------------------------------

    def leaves_alone(self, payload: dict[str, Any]) -> bool:
        if payload.get("event") != "after":
            return payload.get("tool") != "bash"  # before a run: bash alone is rewritten
        return not compactable(payload)

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        if payload.get("event") != "after":
            return None
        if payload.get("tool") != "bash":
            return self.compacted_tool(payload, env)
        return self.compacted_output(payload, env)

    def compacted_tool(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The plugin's answer for a tool that runs no shell command: `{"texts": […]}`, an
        MCP tool's text blocks (`texts`, one for each) compacted; `{"output": TEXT}`, a
        search tool's output compacted; {} for every other tool (an MCP file read, `read`,
        `edit`), an MCP tool's error, a search output OpenCode cut and saved (its preview
        is not the result), and when nothing is shorter. Decided from the tool's name
        first: a tool that is never compacted costs no import."""
        tool, cwd = payload.get("tool"), existing_dir(payload.get("directory"))
        if os.name == "nt" or not isinstance(tool, str) or not compactable(payload):
            return {}
        texts = payload.get("texts")
        if isinstance(texts, list):
            if not texts or not all(isinstance(text, str) for text in texts):
                return {}
            from .postrun import compact_tool

            blocks = [{"type": "text", "text": text} for text in texts]
            replaced = compact_tool(self.name, tool, blocks, cwd, env)
            if not isinstance(replaced, list) or len(replaced) != len(texts):
                return {}
            return {"texts": [block["text"] for block in replaced]}
        shown = payload.get("output")
        if not isinstance(shown, str) or payload.get("outputPath") is not None:
            return {}
        from .postrun import compact_tool

        replaced = compact_tool(self.name, tool, shown, cwd, env)
        return {"output": replaced} if isinstance(replaced, str) else {}

    def compacted_output(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The plugin's `tool.execute.after` answer `{"output": TEXT}`, or {} to leave the
        output as it is. OpenCode keeps the last 2,000 lines / 50 KB of a long output
        and the whole of it in a file it names (`metadata.outputPath`): that file is
        compacted instead, when it is one of OpenCode's and the user's own."""
        if payload.get("tool") != "bash" or os.name == "nt":
            return {}
        args, shown, code = payload.get("args"), payload.get("output"), payload.get("exit")
        if not isinstance(args, dict) or not isinstance(shown, str):
            return {}
        command = args.get("command")
        if not isinstance(command, str):
            return {}
        exit_code = code if isinstance(code, int) and not isinstance(code, bool) else None
        saved = payload.get("outputPath")
        if not (
            payload.get("truncated") is True
            and isinstance(saved, str)
            and f"{os.sep}tool-output{os.sep}" in saved
            and f"Full output saved to: {saved}" in shown[:4096]
        ):
            saved = None
        directory = existing_dir(payload.get("directory"))
        workdir = args.get("workdir")
        cwd = existing_dir(workdir) if isinstance(workdir, str) and os.path.isabs(workdir) else directory
        from .postrun import compact_output

        text = compact_output(
            self.name, command, shown, cwd=cwd or directory, env=env, exit_code=exit_code, saved=saved
        )
        return {} if text is None else {"output": text}

    # -- pre: rewrite the command before it runs -----------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        if payload.get("tool") != "bash" or os.name == "nt":
            return None
        args = payload.get("args")
        if not isinstance(args, dict):
            return None
        command = args.get("command")
        if not isinstance(command, str):
            return None
        directory = existing_dir(payload.get("directory"))
        worktree = existing_dir(payload.get("worktree"))
        workdir = args.get("workdir")
        cwd = workdir if isinstance(workdir, str) and os.path.isabs(workdir) else directory
        cwd = existing_dir(cwd) or directory
        root = worktree if worktree and worktree != "/" else directory
        return Call(command, cwd, _shell(os.environ), root)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        from .permissions.opencode import decision

        return decision(call.command, None, call.cwd, call.project_dir, env)

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        if permission in (ALLOW, NONE):
            from .permissions.opencode import decision

            if decision(call.command, rewritten, call.cwd, call.project_dir, env) == ASK:
                return {}  # the rewritten command would be asked about or denied
        return {"command": rewritten}

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        return {"tool": "bash", "args": {"command": command, "description": "doctor"}, "directory": cwd}

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        return command_at(answer)

    # -- the config --------------------------------------------------------------------

    def user_config_path(self) -> str:
        from .permissions.opencode import global_dir

        return os.path.join(global_dir(os.environ), "plugins", FILE_NAME)

    def detected(self) -> str | None:
        from .manage import in_use
        from .permissions.opencode import global_dir

        return in_use(global_dir(os.environ), *self.programs)

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        from . import ownfile
        from .manage import launcher_warnings, refuse_windows

        refuse_windows()
        notes = ["restart OpenCode so it loads the plugin"]
        return ownfile.install(
            path,
            plugin_source(command, self.mode or self.modes[0], self.tools or self.tool_sets[0]),
            self._ours,
            dry_run=dry_run,
            command=command,
            warnings=launcher_warnings(command),
            notes=notes,
        )

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        from . import ownfile

        return ownfile.uninstall(path, self._ours, dry_run=dry_run)

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from ..shell.syntax import split_words
        from . import ownfile
        from .manage import Report

        report = Report(self.name, path, expected)
        text = ownfile.read(path)
        if text is None:
            return report.disabled("file", f"{path} does not exist", install_hint)
        if not ownfile.has_marker(text):
            return report.disabled(
                "file", f"{path} was not written by tokenjuice", f"move {path} away, then run {install_hint}"
            )
        report.detected = hook_command_of(text)
        if report.detected is None or not self._ours(text):
            report.check("file", BROKEN, f"{path} was changed since tokenjuice wrote it")
            report.fix = f"delete {path}, then run {install_hint}"
            return report
        report.check("file", OK, f"{path} is the plugin tokenjuice wrote")
        mode = plugin_mode(text)
        effects = dict(self.mode_effects)
        if mode in effects:
            report.check("mode", OK, f"{mode}: {effects[mode]}")
        tools = plugin_constant(text, "TOOLS")
        if mode == "pre":
            report.check("tools", OK, "compacted: bash only (rewritten before it runs)")
        elif tools in TOOLS_EFFECTS:
            report.check("tools", OK, f"compacted: {TOOLS_EFFECTS[tools]}")
        report.check_launcher("the hook's programs exist")
        if expected is not None and split_words(report.detected) != split_words(expected):
            report.check("entry", WARN, f"the plugin runs another command than install writes now ({install_hint})")
        report.check_launcher_place()
        if any(c["name"] in ("launcher", "entry") and c["status"] in (WARN, BROKEN) for c in report.checks):
            report.fix = install_hint  # what install changes (never the launcher's place: its warning says what)
        report.note_other_installation()
        if deep and report.status != BROKEN:
            from .probe import probe

            syntax = check_syntax(path)
            if syntax is not None:
                report.check("syntax", BROKEN if syntax else OK, syntax or "node --check accepts the plugin")
            report.check_probe(probe(self, report.detected), "the hook rewrote and ran a probe")
        return report

    def _ours(self, text: str) -> bool:
        """Exactly the plugin install writes, for the hook command embedded in it."""
        from .manage import is_our_command

        command = hook_command_of(text)
        return (
            command is not None
            and is_our_command(command, self.name)
            and any(text == plugin_source(command, mode, tools) for mode in self.modes for tools in self.tool_sets)
        )


def compactable(payload: dict[str, Any]) -> bool:
    """Does the hook compact the result the plugin sent after a run: bash's, a search
    tool's output, an MCP tool's text blocks (`texts`) when the tool reads no file? Told
    from the tool's name and the payload's shape alone."""
    tool = payload.get("tool")
    if not isinstance(tool, str):
        return False
    if "texts" in payload:
        return tool != "bash" and tool not in SEARCH_TOOLS and "_" in tool and not reads_a_file(tool, "_")
    return tool == "bash" or tool in SEARCH_TOOLS


def plugin_mode(text: str) -> str | None:
    """The mode a plugin file of ours runs in ("post" or "pre")."""
    return plugin_constant(text, "MODE")


def plugin_constant(text: str, name: str) -> str | None:
    """The string a plugin file of ours sets the constant `name` to (`const MODE = "post"`)."""
    start = f"const {name} = "
    for line in text.splitlines():
        if line.startswith(start):
            return line[len(start) :].strip('"')
    return None


def plugin_source(command: str, mode: str = "post", tools: str = "all") -> str:
    """The plugin file for the hook `command` (its words embedded as a JSON array,
    so Bun's shell passes each as one argument with no shell in between)."""
    from ..fast import fastjson
    from ..shell.syntax import split_words

    with open(_TEMPLATE, encoding="utf-8") as handle:
        template = handle.read()
    words = fastjson.dumps(split_words(command), strict=True)
    constants = {
        "__HOOK__": words,
        "__TIMEOUT_MS__": str(TIMEOUT_MS),
        "__MODE__": fastjson.dumps(mode, strict=True),
        "__TOOLS__": fastjson.dumps(tools, strict=True),
        "__SEARCH_TOOLS__": fastjson.dumps(list(SEARCH_TOOLS), strict=True),
        "__FILE_READS__": fastjson.dumps(sorted(FILE_READ_TOOLS), strict=True),
    }
    for placeholder, value in constants.items():
        template = template.replace(placeholder, value)
    return template


def hook_command_of(text: str) -> str | None:
    """The hook command embedded in a plugin file of ours, or None."""
    from ..fast import fastjson
    from ..shell.syntax import join

    for line in text.splitlines():
        if line.startswith("const HOOK = "):
            try:
                words = fastjson.loads(line[len("const HOOK = ") :])
            except ValueError:
                return None
            if isinstance(words, list) and words and all(isinstance(w, str) for w in words):
                return join(words)
            return None
    return None


def check_syntax(path: str) -> str | None:
    """ "" when `node --check` accepts the plugin, its complaint when not, None
    when node is not installed (the check is skipped)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    if node is None:
        return None
    try:
        done = subprocess.run(
            [node, "--check", "--input-type=module"],
            input=open(path, "rb").read(),  # noqa: SIM115 - read once, closed at exit
            capture_output=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode == 0:
        return ""
    return "node --check rejects the plugin: " + done.stderr.decode(errors="replace").strip().splitlines()[-1][:200]


def _shell(env: Mapping[str, str]) -> str:
    """The shell OpenCode's bash tool runs: $SHELL, but bash for fish or nu."""
    shell = env.get("SHELL", "").strip()
    if not shell or os.path.basename(shell).lower() in _REFUSED_SHELLS:
        return "bash"
    return shell
