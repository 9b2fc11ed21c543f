"""What a host adapter is, and what every adapter shares.

An adapter is only four things: where the host's config lives, how to add and
remove exactly our entry in it, how to read the host's hook payload into a
`Call`, and how to write the host's answer. What to wrap, what to leave alone
and how to quote it is decided once for every host by `rewrite.plan`; the hook
process (`hook.py`) glues the two together and never breaks a command.

Config files are edited through `LockedJsonFile` (lock, backup, atomic write,
symlinks kept, refusal of files we do not understand). An install also records,
privately, the file's bytes before and after; `uninstall` restores the bytes
from before when the file is still exactly as install left it, so a round trip
leaves it byte-identical, and otherwise removes only our entry.
"""

from __future__ import annotations

import os
import sys

from ..errors import UsageError
from ..record import record
from ..shellsyntax import quote, split_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any, ClassVar

    from ..editfile import Change

#: The user's own rules about a command, as far as tokenjuice can read them.
DENY, ASK, ALLOW, NONE = "deny", "ask", "allow", "none"
#: Health of one integration.
OK, WARN, BROKEN, DISABLED = "ok", "warn", "broken", "disabled"
_SEVERITY = {BROKEN: 3, WARN: 2, OK: 1, DISABLED: 0}
#: Paths that tend to disappear or change with upgrades: a hook pointing there breaks later.
VOLATILE_MARKERS = (
    "/Cellar/",
    "/.pyenv/versions/",
    "/nix/store/",
    "/tmp/",  # noqa: S108 - a marker of volatile paths, not a file we write
    "/var/folders/",
    "/.cache/",
    "/_npx/",
    "/pip-build-env",
    "/.venv-tmp",
)


class HostError(UsageError):
    """A problem the user must fix; one sentence saying what to do."""


@record
class Call:
    """One shell command a host is about to run, as its hook payload tells it."""

    command: str
    cwd: str | None = None  # where the host runs it
    shell: str | None = None  # the shell the host runs it with, if the payload names one
    project_dir: str | None = None  # the workspace, for project settings and permission files
    mode: str | None = None  # the host's permission mode for this call, if the payload names one


def worst(statuses: Iterable[str]) -> str:
    """The most severe status; `disabled` when there is none."""
    return max(statuses, key=lambda s: _SEVERITY[s], default=DISABLED)


class Result:
    """What install/uninstall did to one file."""

    __slots__ = ("action", "backup", "command", "diff", "notes", "path", "warnings")

    def __init__(
        self,
        path: str,
        action: str,
        change: Change | None = None,
        command: str | None = None,
        warnings: list[str] | None = None,
        notes: list[str] | None = None,
    ) -> None:
        self.path = path
        self.action = action  # installed, updated, unchanged, removed, restored, absent (+ "would …")
        self.backup = change.backup if change else None
        self.diff = change.diff() if change and change.changed else ""
        self.command = command
        self.warnings = warnings or []
        self.notes = notes or []  # what the user must still do (e.g. approve the hook in the host)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "action": self.action,
            "backupPath": self.backup,
            "command": self.command,
        }
        if self.warnings:
            data["warnings"] = self.warnings
        if self.notes:
            data["notes"] = self.notes
        return data


class Report:
    """doctor's findings for one integration; every check is named in `checks`."""

    def __init__(self, host: str, path: str, expected: str | None) -> None:
        self.host = host
        self.path = path
        self.status = OK
        self.checks: list[dict[str, str]] = []
        self.expected = expected
        self.detected: str | None = None
        self.fix: str | None = None
        self.deep: dict[str, Any] | None = None
        self.advisory = False

    @property
    def issues(self) -> list[str]:
        return [check["message"] for check in self.checks if check["status"] in (WARN, BROKEN)]

    def check(self, name: str, status: str, message: str = "") -> None:
        """Record one named check; the report's status is the worst of them."""
        self.checks.append({"name": name, "status": status, "message": message})
        if _SEVERITY[status] > _SEVERITY[self.status]:
            self.status = status

    def flag(self, status: str, issue: str, name: str = "entry") -> None:
        self.check(name, status, issue)

    def disabled(self, name: str, message: str, fix: str) -> Report:
        """Nothing of ours is there: the check saying why, `fix` to install."""
        self.check(name, DISABLED, message)
        self.status, self.fix = DISABLED, fix
        return self

    def check_launcher(self, fine: str) -> None:
        """Do the programs the found hook command (`detected`) needs exist?"""
        problems = launcher_problems(self.detected or "")
        self.check("launcher", BROKEN if problems else OK, "; ".join(problems) or fine)

    def check_launcher_place(self) -> None:
        """Warn when the hook's launcher lives where upgrades move or delete it. A check
        of its own: reinstalling from the same place would not change it, so it never
        makes `tokenjuice install` the advice (the advice must not loop)."""
        for warning in launcher_warnings(self.detected or ""):
            self.check("launcher place", WARN, warning)

    def note_other_installation(self) -> None:
        """Note (information only: reinstalling would not change it) a tokenjuice on
        PATH that is another installation than the hook's."""
        differs = path_launcher_differs(self.detected)
        if differs:
            self.check("path", OK, differs)

    def check_probe(self, deep: dict[str, Any], passed: str) -> None:
        """Record doctor --deep's probe: `passed` when it went through, its problem when not."""
        self.deep = deep
        self.check("probe", OK if deep["ok"] else BROKEN, deep.get("problem", passed))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "host": self.host,
            "path": self.path,
            "status": self.status,
            "checks": self.checks,
            "issues": self.issues,
            "expectedCommand": self.expected,
            "detectedCommand": self.detected,
            "fixCommand": self.fix,
        }
        if self.advisory:
            data["advisory"] = True
        if self.deep is not None:
            data["deep"] = self.deep
        return data


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

    # -- the hook ----------------------------------------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        """The shell call in `payload`, or None when the payload is not one this
        hook should touch (another event, another tool, a malformed field)."""
        raise NotImplementedError

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
        return project_config(cwd, *self.project_file) if project else self.user_config_path()

    def user_config_path(self) -> str:
        """The user's own config file, where install goes without --project."""
        raise NotImplementedError

    def detected(self) -> str | None:
        """Why this host seems to be used on this machine (the folder of its user
        config, or one of its `programs`), or None."""
        return in_use(os.path.dirname(self.user_config_path()), *self.programs)

    def hook_command(self, launch: str) -> str:
        """The command the host runs as our hook."""
        from .launch import direct  # install and doctor only: not on the hook's path

        return f"{direct(launch) or launch} hook {self.name} --wrap-launcher {quote(launch)}"

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

        refuse_windows()
        return jsonhooks.install_many(
            path,
            [(self.list_path, self.entry(command))],
            self._ours,
            skeleton=self.skeleton(),
            required=self.required,
            dry_run=dry_run,
            command=command,
            warnings=launcher_warnings(command),
            nested=self.nested,
            notes=self.install_notes(path),
        )

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        from . import jsonhooks

        lists = [self.list_path, *self.more_lists]
        return jsonhooks.uninstall_many(path, lists, self._ours, dry_run=dry_run, nested=self.nested)

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from . import jsonhooks

        return jsonhooks.doctor(
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

    def _ours(self, hook: object) -> bool:
        """Is this hook exactly ours? (never a foreign hook that mentions tokenjuice)"""
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


def matcher_hooks(group: Any, tool: str) -> bool:
    """Does a matcher group `{"matcher": regex, "hooks": […]}` hook `tool`? The matcher is
    a regex searched in the tool's name (Codex, Gemini); none, "", "*" or ".*" is every
    tool, and one that is not a string or not a valid regex hooks nothing."""
    if not isinstance(group, dict):
        return False
    matcher = group.get("matcher")
    if matcher in (None, "", "*", ".*"):
        return True
    if not isinstance(matcher, str):
        return False
    import re

    try:
        return re.search(matcher, tool) is not None
    except re.error:
        return False


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


def project_config(cwd: str | None, *parts: str) -> str:
    """`parts` joined below the git root of `cwd` (default: here): where --project
    installs; HostError outside a git repository."""
    from ..paths import git_root

    root = git_root(cwd or os.getcwd())
    if root is None:
        raise HostError("--project needs a git repository; run it inside your project or drop --project")
    return os.path.join(root, *parts)


def in_use(folder: str, *programs: str) -> str | None:
    """Why a host seems used on this machine: its `folder` exists, or one of its
    `programs` is on PATH; None when neither."""
    import shutil

    if os.path.isdir(folder):
        return f"{folder} exists"
    for program in programs:
        found = shutil.which(program)
        if found:
            return f"{found} is installed"
    return None


# -- launchers ---------------------------------------------------------------------------


def launcher(local: bool) -> str:
    """How to run tokenjuice, shell-quoted: the installation running this very
    command (its console script beside this interpreter), or with --local this
    interpreter running this checkout. Never whatever `tokenjuice` PATH finds first."""
    import shutil

    if local:
        return f"{quote(os.path.abspath(sys.executable))} -m tokenjuice"
    own = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "tokenjuice")
    invoked = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if _runnable_script(own):
        # the link it was run through (pipx's and install.sh's ~/.local/bin) reads better and moves with it
        same = _runnable_script(invoked) and os.path.realpath(invoked) == os.path.realpath(own)
        return quote(invoked if same else own)
    if _runnable_script(invoked):
        return quote(invoked)
    found = shutil.which("tokenjuice")
    if found:
        return quote(os.path.abspath(found))
    raise HostError(
        "tokenjuice is not on your PATH; install it with pipx, uv tool or install/install.sh, "
        "or use --local to run this checkout"
    )


def _runnable_script(path: str) -> bool:
    return os.path.basename(path) == "tokenjuice" and os.path.isfile(path) and os.access(path, os.X_OK)


def path_launcher_differs(expected: str | None) -> str | None:
    """A warning when `tokenjuice` on PATH is another installation than the hook's."""
    import shutil

    found = shutil.which("tokenjuice")
    words = split_words(expected or "")
    if not found or not words or not words[0].startswith("/"):
        return None
    hook_program = words[0]
    if os.path.realpath(found) == os.path.realpath(hook_program):
        return None
    return (
        f"tokenjuice on your PATH ({found}) is not the installation the hook runs ({hook_program}); "
        "upgrading one leaves the other behind"
    )


def launcher_warnings(command: str) -> list[str]:
    words = split_words(command)
    first = words[0] if words else ""
    if any(marker in first for marker in VOLATILE_MARKERS):
        return [
            f"the launcher {first} lives in a versioned or temporary location; the hook breaks when it "
            "moves (install tokenjuice with pipx or uv tool for a stable path)"
        ]
    return []


def launcher_problems(command: str) -> list[str]:
    """Programs the hook command needs that are missing."""
    import shutil

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


def is_our_command(command: object, host: str) -> bool:
    """Exactly our own hook command for `host`: a tokenjuice launcher (console script,
    `python -m tokenjuice`, or the direct `python -P -c …tokenjuice.entry…` form)
    followed by `hook <host>` (or Cursor's old `cursor-pre-tool-use`) and nothing
    but our own options. A foreign hook that merely mentions tokenjuice is not ours."""
    if not isinstance(command, str):
        return False
    words = split_words(command.removesuffix(FAIL_OPEN))
    for index in range(len(words)):
        tail = words[index:]
        if tail[:2] == ["hook", host] or (host == "cursor" and tail[:1] == ["cursor-pre-tool-use"]):
            options = tail[2:] if tail[0] == "hook" else tail[1:]
            return _is_tokenjuice_launch(words[:index]) and _only_our_options(options)
    return False


#: Appended to the hook command of hosts that block or deny a call when the hook
#: fails (Gemini CLI, Copilot CLI): a missing interpreter (tokenjuice uninstalled
#: without `tokenjuice uninstall`) then exits 0 with no output, and the host runs
#: the command unchanged. The hook itself always exits 0 with one JSON line.
FAIL_OPEN = " 2>/dev/null || true"


def fail_open(command: str) -> str:
    """`command`, made to fail open by construction (see FAIL_OPEN)."""
    return command + FAIL_OPEN


def _is_tokenjuice_launch(words: list[str]) -> bool:
    if len(words) == 1:
        return os.path.basename(words[0]) == "tokenjuice"
    if len(words) == 3 and words[1:] == ["-m", "tokenjuice"]:
        return os.path.basename(words[0]).startswith("python")
    if len(words) >= 4 and words[-3:-1] == ["-P", "-c"]:  # the direct form, maybe with -S and a shebang's -E
        flags_ok = all(flag in ("-E", "-s", "-I", "-S") for flag in words[1:-3])
        return flags_ok and os.path.basename(words[0]).startswith("python") and "tokenjuice.entry" in words[-1]
    return False


def _only_our_options(options: list[str]) -> bool:
    return options == [] or (len(options) == 2 and options[0] == "--wrap-launcher")


# -- install records: byte-identical round trips ------------------------------------------


def _record_path(path: str) -> str:
    import hashlib

    from .. import paths

    key = hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return os.path.join(paths.private_dir(os.path.join(paths.data_dir(), "installs")), key)


def remember_install(path: str, before: str | None, after: str) -> None:
    """Keep (privately) the file's bytes from before our first install, and a hash
    of what install left, so uninstall can put the file back exactly."""
    from .. import fastjson
    from ..atomic import write_atomically

    record_path = _record_path(path)
    existing = _read_record(record_path)
    original = existing["before"] if existing and "before" in existing else before
    data = {"path": os.path.realpath(path), "before": original, "after_sha256": _sha(after)}
    write_atomically(record_path + ".json", fastjson.dumps(data).encode("utf-8"), mode=0o600)


def restore_if_untouched(path: str, current: str | None) -> tuple[bool, str | None]:
    """(True, text before install) when the file still holds exactly what our last
    install wrote; the record is consumed either way once uninstall runs."""
    record_path = _record_path(path)
    data = _read_record(record_path)
    if not data or current is None or data.get("after_sha256") != _sha(current):
        return False, None
    before = data.get("before")
    return True, before if isinstance(before, str) else None


def forget_install(path: str) -> None:
    from ..paths import remove_quietly

    remove_quietly(_record_path(path) + ".json")


def _read_record(record_path: str) -> dict[str, Any] | None:
    from .. import fastjson

    try:
        with open(record_path + ".json", "rb") as handle:
            data = fastjson.loads(handle.read())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def refuse_windows() -> None:
    if os.name == "nt":
        raise HostError("tokenjuice does not support native Windows shells yet; run your agent in WSL instead")


__all__ = [
    "ALLOW",
    "ASK",
    "BROKEN",
    "DENY",
    "DISABLED",
    "NONE",
    "OK",
    "WARN",
    "Call",
    "Host",
    "HostError",
    "Report",
    "Result",
    "worst",
]
