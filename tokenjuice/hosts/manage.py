"""Install, uninstall and doctor for every host: what they report, which launcher
the hook runs, how our own entry is recognised, and the private records that let
uninstall give a config file its bytes back.

None of this runs before a shell command: the hook's path (`hook.py`, `base.py`,
the adapters' hook methods) never imports this module, which a test checks.
"""

from __future__ import annotations

import os
import sys

from ..errors import UsageError
from ..shell.syntax import quote, split_words
from . import BROKEN, DISABLED, OK, WARN
from .launch import HOOK_SCRIPT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from ..files.editfile import Change

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


def worst(statuses: Iterable[str]) -> str:
    """The most severe status; `disabled` when there is none."""
    return max(statuses, key=lambda s: _SEVERITY[s], default=DISABLED)


class Result:
    """What install/uninstall did to one file."""

    __slots__ = ("action", "backup", "command", "diff", "notes", "path", "undone", "warnings")

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
        self.undone: str | None = None  # what was asked and did not happen (its warning says what to do)

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
        if self.undone:
            data["undone"] = self.undone
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


def project_config(cwd: str | None, *parts: str) -> str:
    """`parts` joined below the git root of `cwd` (default: here): where --project
    installs; HostError outside a git repository."""
    from ..paths import git_root

    root = git_root(cwd or os.getcwd())
    if root is None:
        raise HostError("--project needs a git repository; run it inside your project or drop --project")
    return os.path.join(root, *parts)


def in_use(folder: str, *programs: str) -> str | None:
    """Why a host seems used on this machine: its `folder` holds something of its own
    (not only what tokenjuice's install put there: `only_ours`), or one of its
    `programs` is on PATH; None when neither."""
    import shutil

    if os.path.isdir(folder) and not only_ours(folder):
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
    """A note when `tokenjuice` on PATH is another installation than the hook's. The
    hook's installation is its `--wrap-launcher` program (what rewritten commands
    run), else its first word; two programs are one installation when they resolve
    into the same folder (pipx's and uv's ~/.local/bin links lead into the tool's
    venv, where the hook's interpreter and launcher live too)."""
    import shutil

    found = shutil.which("tokenjuice")
    words = split_words(expected or "")
    if not found or not words:
        return None
    hook_program = words[0]
    if "--wrap-launcher" in words[:-1]:
        wrap = split_words(words[words.index("--wrap-launcher") + 1])
        hook_program = wrap[0] if wrap else hook_program
    if not hook_program.startswith("/"):
        return None  # found on PATH, like the note's own program: the same by construction
    if os.path.dirname(os.path.realpath(found)) == os.path.dirname(os.path.realpath(hook_program)):
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
    if len(words) >= 2 and os.path.basename(words[0]) == HOOK_SCRIPT and words[1] == host:
        return _only_our_options(words[2:])  # the launcher install writes: tokenjuice-hook <host>
    for index in range(len(words)):
        tail = words[index:]
        if tail[:2] == ["hook", host] or (host == "cursor" and tail[:1] == ["cursor-pre-tool-use"]):
            options = tail[2:] if tail[0] == "hook" else tail[1:]
            return _is_tokenjuice_launch(words[:index]) and _only_our_options(options)
    return False


def is_this_installation(command: object, host: str) -> bool:
    """Is `command` a hook command for `host` that runs this very installation, as
    install writes it: the PATH-relative `tokenjuice hook <host>` (what --project
    writes), or a command whose every program (the `tokenjuice-hook` launcher, the
    interpreter of the direct start, the `--wrap-launcher`) is this installation's
    by absolute path, a direct start's code being tokenjuice's own entry. Whatever
    a repository could point at passes for tokenjuice only in `is_our_command`: a
    relative path, a program elsewhere, `python -m tokenjuice` as the hook (it imports
    a `./tokenjuice/` package from the folder the hook runs in)."""
    if not is_our_command(command, host):
        return False
    assert isinstance(command, str)
    words = split_words(command.removesuffix(FAIL_OPEN))
    if words == ["tokenjuice", "hook", host]:
        return True
    head = words
    if len(words) >= 2 and words[-2] == "--wrap-launcher":
        head = words[:-2]
        if not _own_launch(split_words(words[-1]), as_hook=False):
            return False
    if len(head) == 2 and os.path.basename(head[0]) == HOOK_SCRIPT and head[1] == host:
        return _own_program(head[0])
    return head[-2:] == ["hook", host] and _own_launch(head[:-2], as_hook=True)


def _own_launch(words: list[str], *, as_hook: bool) -> bool:
    """Do `words` start this installation: its `tokenjuice`, its interpreter's direct
    start, or (only as the `--wrap-launcher`, which `--local` writes) `python -m tokenjuice`?"""
    from .launch import ENTRY, entry_without_site

    if len(words) == 1:
        return os.path.basename(words[0]) == "tokenjuice" and _own_program(words[0])
    if len(words) == 3 and words[1:] == ["-m", "tokenjuice"]:
        return not as_hook and _own_program(words[0])
    if len(words) >= 4 and words[-3:-1] == ["-P", "-c"] and all(f in ("-E", "-s", "-I", "-S") for f in words[1:-3]):
        import tokenjuice

        folder = os.path.dirname(os.path.dirname(os.path.abspath(tokenjuice.__file__)))
        return _own_program(words[0]) and words[-1] in (ENTRY, entry_without_site(folder))
    return False


def _own_program(path: str) -> bool:
    """Is `path`, absolute, in this installation's folder of programs (beside its
    interpreter, or beside the launcher install writes), or a link into it?"""
    if not os.path.isabs(path):
        return False
    own = _own_folders()
    return os.path.realpath(os.path.dirname(path)) in own or os.path.dirname(os.path.realpath(path)) in own


_OWN_FOLDERS: list[frozenset[str]] = []


def _own_folders() -> frozenset[str]:
    if not _OWN_FOLDERS:
        folders = {os.path.realpath(os.path.dirname(os.path.abspath(sys.executable)))}
        try:
            words = split_words(launcher(False))
        except HostError:
            words = []
        if words and os.path.isabs(words[0]):
            folders |= {os.path.realpath(os.path.dirname(words[0])), os.path.dirname(os.path.realpath(words[0]))}
        _OWN_FOLDERS.append(frozenset(folders))
    return _OWN_FOLDERS[0]


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


def _record_path(path: str, *, create: bool = True) -> str:
    import hashlib

    from .. import paths

    key = hashlib.sha256(os.path.realpath(path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    folder = os.path.join(paths.data_dir(), "installs")
    return os.path.join(paths.private_dir(folder) if create else folder, key)


def remember_install(
    path: str, before: str | None, after: str, backup: str | None = None, created_dirs: list[str] | None = None
) -> None:
    """Keep (privately) the file's bytes from before our first install, a hash of
    what install left, the backups install made of it and the folders it created
    for it, so uninstall can put the file back exactly and take those away."""
    from ..fast import fastjson
    from ..files.atomic import write_atomically

    record_path = _record_path(path)
    existing = _read_record(record_path) or {}
    original = existing.get("before", before)
    backups = [b for b in existing.get("backups", []) if isinstance(b, str)] + ([backup] if backup else [])
    data = {
        "path": os.path.realpath(path),
        "before": original,
        "after_sha256": _sha(after),
        "backups": list(dict.fromkeys(backups)),
        "dirs": [d for d in existing.get("dirs", []) if isinstance(d, str)] + (created_dirs or []),
    }
    if isinstance(existing.get("approvals"), list):
        data["approvals"] = existing["approvals"]
    write_atomically(record_path + ".json", fastjson.dumps(data).encode("utf-8"), mode=0o600)


def restore_if_untouched(path: str, current: str | None) -> tuple[bool, str | None]:
    """(True, text before install) when the file still holds exactly what our last
    install wrote; the record is consumed either way once uninstall runs."""
    data = _read_record(_record_path(path, create=False))
    if not data or current is None or data.get("after_sha256") != _sha(current):
        return False, None
    before = data.get("before")
    return True, before if isinstance(before, str) else None


def text_before_install(path: str) -> tuple[bool, str | None]:
    """(True, the file's text before our first install, None when it did not exist)
    when an install record says so; (False, None) without a record."""
    data = _read_record(_record_path(path, create=False))
    if not data or "before" not in data:
        return False, None
    before = data["before"]
    return True, before if isinstance(before, str) else None


def forget_install(path: str, *, drop_backups: bool = False, backup: str | None = None) -> None:
    """Drop the install record of `path`; with `drop_backups` also the backups install
    made of it (uninstall gave the file its bytes from before install back, or
    removed the file install created: they hold nothing the user lacks), and the
    folders install created for it that are empty now. Only `<file>.bak` and
    `<file>.bak.N` beside the file are ever removed. Without it, the backups stay
    (uninstall changed a file the user edited since: they are the way back) and the
    record keeps naming them, with `backup` (the one uninstall itself made), so that
    `tokenjuice paths` lists them and `uninstall --all --purge` removes them."""
    from ..fast import fastjson
    from ..files.atomic import write_atomically
    from ..paths import remove_quietly

    record_path = _record_path(path, create=False)
    data = _read_record(record_path) or {}
    target = os.path.realpath(path)
    backups = [b for b in data.get("backups", []) if isinstance(b, str) and is_backup_of(b, target)]
    if drop_backups:
        for old in backups:
            remove_quietly(old)
        for folder in data.get("dirs", []):
            if isinstance(folder, str) and target.startswith(folder + os.sep):
                try:
                    os.rmdir(folder)  # deepest first; only an empty folder goes
                except OSError:
                    pass
        backups = []
    if backup is not None and is_backup_of(backup, target):
        backups.append(backup)
    backups = [b for b in dict.fromkeys(backups) if os.path.lexists(b)]
    if backups:
        kept = {"path": target, "backups": backups}
        record_path = _record_path(path)  # the folder too: uninstall may back up a file install never recorded
        write_atomically(record_path + ".json", fastjson.dumps(kept).encode("utf-8"), mode=0o600)
    else:
        remove_quietly(record_path + ".json")


def remember_approval(path: str, config: str, key: str, trusted_hash: str) -> None:
    """Note in the install record of `path` that install recorded the user's approval
    of its entry as `key` in the host's `config` (Codex's `hooks.state`), so that
    uninstall takes exactly that approval away again."""
    from ..fast import fastjson
    from ..files.atomic import write_atomically

    record_path = _record_path(path)
    data = _read_record(record_path) or {"path": os.path.realpath(path)}
    approvals = [a for a in data.get("approvals", []) if isinstance(a, dict) and a.get("key") != key]
    data["approvals"] = [*approvals, {"config": config, "key": key, "hash": trusted_hash}]
    write_atomically(record_path + ".json", fastjson.dumps(data).encode("utf-8"), mode=0o600)


def recorded_approvals(path: str) -> list[dict[str, str]]:
    """The approvals install recorded for its entry in `path` (`remember_approval`)."""
    data = _read_record(_record_path(path, create=False)) or {}
    return [
        {name: str(approval[name]) for name in ("config", "key", "hash")}
        for approval in data.get("approvals", [])
        if isinstance(approval, dict) and all(isinstance(approval.get(n), str) for n in ("config", "key", "hash"))
    ]


def is_backup_of(candidate: str, target: str) -> bool:
    """Is `candidate` one of editfile's backups of `target` (`<target>.bak[.N]`)?"""
    if os.path.dirname(candidate) != os.path.dirname(target):
        return False
    suffix = os.path.basename(candidate).removeprefix(os.path.basename(target))
    return suffix == ".bak" or (suffix.startswith(".bak.") and suffix[5:].isdigit())


def recorded_backups() -> list[str]:
    """Every backup an install record names that still exists (`tokenjuice paths`)."""
    from .. import paths

    folder = os.path.join(paths.data_dir(), "installs")
    found: list[str] = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return found
    for name in names:
        if name.endswith(".json"):
            data = _read_record(os.path.join(folder, name.removesuffix(".json"))) or {}
            target = data.get("path")
            found += [
                b
                for b in data.get("backups", [])
                if isinstance(b, str) and isinstance(target, str) and is_backup_of(b, target) and os.path.exists(b)
            ]
    return found


def only_ours(folder: str) -> bool:
    """Did tokenjuice's install create `folder`, and does it hold nothing but what
    install wrote there (a file install created, its backups, folders install
    created holding only those)? Such a folder is no sign of the host being used."""
    from .. import paths

    made: set[str] = set()
    files: set[str] = set()
    records = os.path.join(paths.data_dir(), "installs")
    try:
        names = os.listdir(records)
    except OSError:
        return False
    for name in names:
        if not name.endswith(".json"):
            continue
        data = _read_record(os.path.join(records, name.removesuffix(".json"))) or {}
        target = data.get("path")
        if not isinstance(target, str):
            continue
        if data.get("before") is None:
            files.add(target)
        files.update(b for b in data.get("backups", []) if isinstance(b, str))
        made.update(d for d in data.get("dirs", []) if isinstance(d, str))

    def ours(path: str) -> bool:
        real = os.path.realpath(path)
        if real in files or any(is_backup_of(real, target) for target in files):
            return True
        if real not in made or os.path.islink(path) or not os.path.isdir(path):
            return False
        try:
            return all(ours(os.path.join(path, entry)) for entry in os.listdir(path))
        except OSError:
            return False

    return ours(folder)


def _read_record(record_path: str) -> dict[str, Any] | None:
    from ..fast import fastjson

    try:
        with open(record_path + ".json", "rb") as handle:
            data = fastjson.loads(handle.read())
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()


def compile_bytecode() -> None:
    """Byte-compile tokenjuice's own modules where their byte code is missing or
    stale. uv installs without it unless asked (`--compile-bytecode`), and where
    PYTHONDONTWRITEBYTECODE is set (many container images) the interpreter never
    writes it: every hook would then compile its modules from source, ~50 ms on
    every shell command. Best effort: a read-only installation keeps what it has."""
    import compileall

    import tokenjuice

    folder = os.path.dirname(os.path.abspath(tokenjuice.__file__))
    try:
        compileall.compile_dir(folder, quiet=2)
    except OSError:
        pass


def refuse_windows() -> None:
    if os.name == "nt":
        raise HostError("tokenjuice does not support native Windows shells yet; run your agent in WSL instead")
