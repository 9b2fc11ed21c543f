"""What a host adapter is, and what its hook needs.

An adapter is only four things: where the host's config lives, how to add and
remove exactly our entry in it, how to read the host's hook payload into a
`Call`, and how to write the host's answer. What to wrap, what to leave alone
and how to quote it is decided once for every host by `rewrite.plan`; the hook
process (`hook.py`) glues the two together and never breaks a command.

This module is on the hook's path, before every shell command an agent runs, so
it holds only what the hook uses; install, uninstall and doctor (results and
reports, launchers, recognising our own entry, install records) live in
`manage.py` and are imported where those run.
"""

from __future__ import annotations

import os

from ..fast.record import record
from . import NONE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, ClassVar

    from .manage import Report, Result


@record
class Call:
    """One shell command a host is about to run, as its hook payload tells it."""

    command: str
    cwd: str | None = None  # where the host runs it
    shell: str | None = None  # the shell the host runs it with, if the payload names one
    project_dir: str | None = None  # the workspace, for project settings and permission files
    mode: str | None = None  # the host's permission mode for this call, if the payload names one


#: MCP tools that read a file: their text is what the agent edits from or quotes back, so
#: it reaches the model byte for byte (the tool's own name, after the host's server prefix:
#: the reference filesystem server's, Gemini's and other common servers' spellings).
FILE_READ_TOOLS = frozenset(
    {
        "read_file",
        "read_text_file",
        "read_multiple_files",
        "read_media_file",
        "read_many_files",
        "read_notebook",
        "get_file_contents",
        "view_file",
        "open_file",
    }
)


#: A host's own tools whose text the agent edits from or quotes back (file reads and
#: views, edits, writes, notebooks), by their names on each host (docs/hosts-research.md),
#: compared in lower case: never compacted, whatever a hook's matcher or a rule says.
EDIT_SOURCE_TOOLS = frozenset(
    {
        "read",  # Claude Code, OpenCode
        "notebookread",
        "edit",  # Claude Code, Copilot, OpenCode
        "multiedit",
        "write",
        "notebookedit",
        "view",  # Copilot
        "str_replace_editor",
        "create",
        "read_file",  # Gemini
        "read_many_files",
        "replace",
        "write_file",
    }
)


def mcp_tool_part(tool_name: str, prefix: str = "mcp__") -> str | None:
    """The tool's own name in a host's MCP tool name (`mcp__fs__read_file` -> `read_file`),
    or None when `tool_name` is no MCP tool's."""
    if not tool_name.startswith(prefix):
        return None
    server_and_tool = tool_name[len(prefix) :]
    cut = server_and_tool.find("__")
    return server_and_tool[cut + 2 :] if cut > 0 else None


def reads_a_file(tool_name: str, separator: str) -> bool:
    """Does a host's MCP tool name (the server's name, `separator`, the tool's) name one
    of FILE_READ_TOOLS, however the server is spelled (`github-mcp-server-get_file_contents`
    with Copilot's `-`, `mcp__my__fs__read_file` with Codex's `__`)?"""
    return any(tool_name.endswith(separator + tool) for tool in FILE_READ_TOOLS)


class Host:
    """One agent host. Subclasses set the class attributes and override what differs."""

    name: ClassVar[str]  # the CLI name: tokenjuice install <name>
    title: ClassVar[str]  # how people write it
    #: The hook answer that changes nothing.
    neutral: ClassVar[dict[str, Any]] = {}
    #: A host that cannot rewrite commands gets advisory instructions instead of a hook.
    advisory: ClassVar[bool] = False
    #: Ways this host can be hooked (`tokenjuice install HOST --mode M`); the first is the default.
    modes: ClassVar[tuple[str, ...]] = ()
    #: The mode asked for on the command line (None: the host decides).
    mode: str | None = None
    #: Record the host's own approval of the hook at install (`install codex --approve`).
    approve: bool = False
    #: Which tools' outputs the hook may compact (`install HOST --tools T`); the first is
    #: the default; empty: the shell only, no choice.
    tool_sets: ClassVar[tuple[str, ...]] = ()
    #: The tool set asked for on the command line (None: the default).
    tools: str | None = None

    # -- the hook ----------------------------------------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        """The shell call in `payload`, or None when the payload is not one this
        hook should touch (another event, another tool, a malformed field)."""
        raise NotImplementedError

    def leaves_alone(self, payload: dict[str, Any]) -> bool:
        """Is `payload` one this hook never changes, told from its event and tool name
        alone (a file read after it ran)? Then the neutral answer goes out before the
        shell engine, settings or rules load."""
        return False

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        """The answer to a payload that asks for something other than a rewrite (Claude
        Code's PostToolUse replaces a command's output after it ran), or None when the
        payload takes the rewrite path. It must never raise for a payload it does not
        understand: None, or the neutral answer."""
        return None

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        """What the user's own rules in this host say about the command (DENY, ASK,
        ALLOW or NONE when they say nothing or cannot be read by tokenjuice)."""
        return NONE

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        """The host's answer that makes it run `rewritten` instead."""
        raise NotImplementedError

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        """A payload as the host would send it for `command` (doctor --deep)."""
        raise NotImplementedError

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        """The command an answer of ours makes the host run, or None if it rewrites nothing."""
        raise NotImplementedError

    def probe_argv(self, hook_command: str) -> list[str]:
        """How doctor --deep starts the hook: as the host does (through a shell), or
        inside whatever the adapter needs to see the host it would run under."""
        return ["/bin/sh", "-c", hook_command]

    # -- the config --------------------------------------------------------------------

    #: Where --project installs, below the project's git root.
    project_file: ClassVar[tuple[str, ...]] = ()
    #: The host's programs: one on PATH says the host is used here.
    programs: ClassVar[tuple[str, ...]] = ()

    def config_path(self, project: bool, cwd: str | None = None) -> str:
        """The file install edits: the project's (--project) or the user's."""
        from .manage import project_config

        return project_config(cwd, *self.project_file) if project else self.user_config_path()

    def user_config_path(self) -> str:
        """The user's own config file, where install goes without --project."""
        raise NotImplementedError

    def detected(self) -> str | None:
        """Why this host seems to be used on this machine (the folder of its user
        config, or one of its `programs`), or None."""
        from .manage import in_use

        return in_use(os.path.dirname(self.user_config_path()), *self.programs)

    def hook_command(self, launch: str) -> str:
        """The command the host runs as our hook (launch.hook_entry)."""
        from .launch import hook_entry

        return hook_entry(launch, self.name)

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        raise NotImplementedError

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        raise NotImplementedError

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        raise NotImplementedError


def config_home(env: Mapping[str, str], variable: str, folder: str) -> str:
    """A host's own folder: `$variable` when the user moved it there (Codex's
    CODEX_HOME, Claude Code's CLAUDE_CONFIG_DIR), else `folder` in the home folder,
    both read from `env` as the host reads them."""
    moved = (env.get(variable) or "").strip()
    if moved:
        return os.path.abspath(os.path.expanduser(moved))
    home = (env.get("HOME") or "").strip() or os.path.expanduser("~")
    return os.path.join(home, folder)


class JsonHooksHost(Host):
    """A host whose hooks live in a list inside a JSON settings file (Cursor, Codex,
    Gemini, Copilot, Claude Code): the adapter says where the list is, what our entry
    looks like and what a sound one is; install, uninstall and doctor are the same
    flows for all of them (`jsonhooks` does the editing)."""

    #: Where our entry goes in the file.
    list_path: ClassVar[tuple[str, ...]]
    #: Other lists of the file that may hold an entry of ours (uninstall and doctor look there too).
    more_lists: ClassVar[tuple[tuple[str, ...], ...]] = ()
    #: "hooks" when the list holds matcher groups `{"matcher": …, "hooks": [hook, …]}`;
    #: None when it holds the hooks themselves.
    nested: ClassVar[str | None] = None
    #: The member of a hook that holds its command.
    command_key: ClassVar[str] = "command"
    #: Top-level members the host needs, added when missing.
    required: ClassVar[dict[str, Any] | None] = None
    #: The list our entry goes in for each mode (`modes`): install puts it in the
    #: chosen mode's list and takes it out of the others. Empty: `list_path` only.
    mode_lists: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    #: What each mode does in this host, in the mode people run it (doctor's mode line).
    mode_effects: ClassVar[tuple[tuple[str, str], ...]] = ()

    def entry(self, command: str) -> dict[str, Any]:
        """Our element of the list (a group when `nested`), exactly as the host wants it."""
        raise NotImplementedError

    def skeleton(self) -> dict[str, Any]:
        """A new file's content (a fresh object each time: the install fills it in)."""
        return {}

    def install_notes(self, path: str) -> list[str]:
        """What the user must still do after installing into `path`."""
        return []

    def shape_problems(self, element: Any) -> list[str]:
        """What is wrong with the element holding our hook (doctor)."""
        return []

    def handles_shell(self, element: Any) -> bool:
        """Does another element of the list hook shell commands too? (doctor warns)"""
        return False

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        from . import jsonhooks
        from .manage import launcher_warnings, refuse_windows

        refuse_windows()
        return jsonhooks.install_many(
            path,
            self.placements(command),
            self._ours,
            skeleton=self.skeleton(),
            required=self.required,
            dry_run=dry_run,
            command=command,
            warnings=launcher_warnings(command),
            nested=self.nested,
            notes=self.install_notes(path),
        )

    def placements(self, command: str) -> list[tuple[tuple[str, ...], dict[str, Any] | None]]:
        """(list, our element or None to take ours out of it) for install."""
        if not self.mode_lists:
            return [(self.list_path, self.entry(command))]
        mode = self.mode or self.modes[0]
        return [(where, self.entry(command) if named == mode else None) for named, where in self.mode_lists]

    def installed_modes(self, path: str) -> list[str]:
        """The modes whose lists hold our hook in `path`."""
        from ..files.editfile import EditError
        from . import jsonhooks

        try:
            data = jsonhooks.read(path) or {}
        except EditError:
            return []
        found = []
        for named, where in self.mode_lists:
            try:
                elements = jsonhooks.entries(data, where, path)
            except EditError:
                continue
            if jsonhooks.ours_found(elements, self._ours, self.nested):
                found.append(named)
        return found

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        from . import jsonhooks

        lists = [self.list_path, *self.more_lists]
        return jsonhooks.uninstall_many(path, lists, self._ours, dry_run=dry_run, nested=self.nested)

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from . import jsonhooks

        report = jsonhooks.doctor(
            self,
            path,
            self.list_path,
            self._ours,
            expected,
            install_hint,
            deep=deep,
            command_of=self.command_of,
            shape_problems=self.shape_problems,
            others_conflict=self.handles_shell,
            more_lists=self.more_lists,
            nested=self.nested,
        )
        if report.detected is not None and self.mode_lists:
            self.check_mode(report, self.installed_modes(path))
        return report

    def check_mode(self, report: Report, modes: list[str]) -> None:
        """One line naming the mode in force and what the host then lets tokenjuice do."""
        from . import OK

        effects = dict(self.mode_effects)
        for mode in modes:
            report.check("mode", OK, f"{mode}: {effects.get(mode, 'installed')}")

    def _ours(self, hook: object) -> bool:
        """Is this hook exactly ours? (never a foreign hook that mentions tokenjuice)"""
        from .manage import is_our_command

        return isinstance(hook, dict) and is_our_command(hook.get(self.command_key), self.name)

    def command_of(self, element: Any) -> str | None:
        """The command doctor shows for an element of the list: a hook's own, a
        group's (see `jsonhooks.command_in`)."""
        if self.nested is not None:
            from . import jsonhooks

            return jsonhooks.command_in(element, self._ours)
        return self.command_in_hook(element)

    def command_in_hook(self, hook: Any) -> str | None:
        """A hook's own command (never looking into a group)."""
        command = hook.get(self.command_key) if isinstance(hook, dict) else None
        return command if isinstance(command, str) else None


def command_at(answer: object, *keys: str) -> str | None:
    """The `command` string an answer of ours holds below `keys` (each step an
    object), or None: how doctor reads back what a rewrite would run."""
    node = answer
    for key in (*keys, "command"):
        node = node.get(key) if isinstance(node, dict) else None
    return node if isinstance(node, str) else None


def shell_tool_input(payload: dict[str, Any], event: str, tool: str) -> tuple[dict[str, Any], str] | None:
    """(`tool_input`, its command) of a payload `{"hook_event_name", "tool_name",
    "tool_input": {"command", …}}` (Cursor's, Codex's and Gemini's shape) when it is
    the `event` for `tool` (a payload naming no event counts as `event`); None for
    any other payload, and on Windows."""
    named = payload.get("hook_event_name")
    if named is not None and named != event:
        return None
    if payload.get("tool_name") != tool or os.name == "nt":
        return None
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    command = tool_input.get("command")
    if not isinstance(command, str):
        return None
    return tool_input, command


def existing_dir(value: object) -> str | None:
    """`value` when it is an absolute path to an existing folder (a payload's `cwd`
    or workspace), else None."""
    return value if isinstance(value, str) and os.path.isabs(value) and os.path.isdir(value) else None


__all__ = ["Call", "Host", "JsonHooksHost"]
