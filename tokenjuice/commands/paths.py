"""`tokenjuice paths`: every folder and file tokenjuice reads or writes, and
`uninstall --all --purge`, which removes what tokenjuice wrote for this user."""

from __future__ import annotations

import os

from .. import paths
from ..settings import project_config_path, resolve, user_config_path
from ..state import artifacts, ledger, spool
from .output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def temp_store() -> str:
    """`$TMPDIR/tokenjuice-<uid>` (paths.private_temp_dir, without creating it): the
    private fallback store for full outputs when the data folder cannot be written."""
    root = os.environ.get("TMPDIR", "").strip() or "/tmp"  # noqa: S108 - the same folder private_temp_dir checks
    return os.path.join(root, f"{paths.APP}-{os.getuid()}")


def rows() -> list[tuple[str, str, str]]:
    """(name, path, what) for every location; "" when there is none."""
    from .. import trust
    from ..hosts import manage

    cwd = os.getcwd()
    settings = resolve(cwd)
    data = paths.data_dir()
    found = [
        ("config", paths.config_dir(), "settings and your own rules"),
        ("user-config", user_config_path(), "your settings (TOKENJUICE_CONFIG moves it)"),
        ("project-config", project_config_path(cwd) or "", "this project's settings, if any"),
        *[
            (f"user-rules{'' if i == 0 else '-' + str(i + 1)}", d, "your own rules")
            for i, d in enumerate(paths.user_rule_dirs())
        ],
        ("cache", paths.cache_dir(), "rebuildable caches: the rule index, parsed settings (safe to delete)"),
        ("data", data, "everything tokenjuice records (TOKENJUICE_HOME moves it)"),
        ("ledger", ledger.db_path(), "the savings ledger (tokenjuice stats)"),
        ("spool", spool.spool_path(), "runs not yet folded into the ledger"),
        ("artifacts", artifacts.Store.from_settings(settings).directory, "stored full outputs (tokenjuice cat)"),
        ("temp-store", temp_store(), "full outputs kept when the data folder cannot be written"),
        ("trust", os.path.join(data, trust.TRUST_FILE), "the projects you trusted (tokenjuice trust)"),
        ("notices", os.path.join(data, "notices"), "stamps of notices already shown once"),
        ("installs", os.path.join(data, "installs"), "what each host config held before install (for uninstall)"),
        ("debug-log", os.path.join(data, "debug.log"), "internal errors, with TOKENJUICE_DEBUG=1"),
    ]
    found.append(("hook-launcher", hook_launcher(), "the hook's launcher, written by install beside the interpreter"))
    found += [("backup", b, "a host config before an install changed it") for b in manage.recorded_backups()]
    return found


def hook_launcher() -> str:
    """This installation's `tokenjuice-hook` (hosts/launch.py)."""
    import sys

    from ..hosts.launch import HOOK_SCRIPT

    return os.path.join(os.path.dirname(os.path.abspath(sys.executable)), HOOK_SCRIPT)


def run() -> Output:
    found = rows()
    width = max(len(name) for name, _, _ in found)
    text = "".join(
        f"{name:<{width}}  {path or '-'}{'' if not path or os.path.exists(path) else '  (not created)'}\n"
        for name, path, _ in found
    )
    data: dict[str, Any] = {}
    for name, path, what in found:
        entry = {"path": path or None, "exists": bool(path) and os.path.exists(path), "what": what}
        if name == "backup":
            data.setdefault("backups", []).append(entry)
        else:
            data[name] = entry
    return Output(text=text, data=data)


def purge_targets() -> list[str]:
    """What `uninstall --all --purge` removes: the config, cache and data folders,
    the fallback store, and a stored-output folder set elsewhere. A folder a
    variable or setting moved (TOKENJUICE_HOME, artifacts.dir) goes whole only
    when it is tokenjuice's own by name; otherwise only tokenjuice's files in it."""
    from .. import trust

    data = paths.data_dir()
    store = artifacts.Store.from_settings(resolve(os.getcwd())).directory
    targets = [paths.config_dir(), *paths.user_rule_dirs(), paths.cache_dir()]
    if _ours_by_name(data):
        targets.append(data)
    else:
        names = (ledger.DB_NAME, ledger.DB_NAME + "-wal", ledger.DB_NAME + "-shm", spool.SPOOL_NAME)
        targets += [os.path.join(data, n) for n in (*names, trust.TRUST_FILE, "artifacts", "installs", "notices")]
        targets.append(os.path.join(data, "debug.log"))
    if _ours_by_name(store) or store == os.path.join(data, "artifacts"):
        targets.append(store)
    # not the hook launcher: it belongs to the installation (other users' hooks may run it),
    # and goes with it (pipx and uv uninstall remove the venv)
    home = os.path.realpath(os.path.expanduser("~"))
    kept = []
    for target in dict.fromkeys(targets):
        real = os.path.realpath(target)
        if real in ("/", home) or home.startswith(real + os.sep):
            continue  # never a folder holding the home folder, whatever a variable says
        if any(target.startswith(other + os.sep) for other in targets if other != target and _ours_by_name(other)):
            continue  # inside a folder that goes whole
        if os.path.lexists(target):
            kept.append(target)
    return kept + temp_outputs()[0] + gemini_copies() + host_backups()


def host_backups() -> list[str]:
    """The backups tokenjuice made of a host's settings file (`<file>.bak[.N]`, named
    in its install records) that are still there: install's, and uninstall's own of a
    file the user had edited since. Purge takes them: every hook is gone by then."""
    from ..hosts import manage

    return list(dict.fromkeys(manage.recorded_backups()))


def temp_outputs() -> tuple[list[str], int]:
    """The files of the outputs in the fallback store (`temp_store`) that this home's
    tokenjuice wrote — each names the data folder's store it stood in for — and how
    many outputs there are of another home's (every HOME of this user shares the
    store) or of a version that did not name it, which stay."""
    folder = paths.owned_temp_dir()
    if folder is None or not paths.private_entry(os.path.join(folder, "artifacts"), folder=True):
        return [], 0
    folder = os.path.join(folder, "artifacts")
    own = os.path.realpath(os.path.join(paths.data_dir(), "artifacts"))
    suffixes = (artifacts.OUTPUT_SUFFIX, artifacts.META_SUFFIX, artifacts.LATE_SUFFIX, artifacts.SHOWN_SUFFIX)
    files: dict[str, list[str]] = {}
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return [], 0
    for name in names:
        stem, dot, suffix = name.partition(".")
        if artifacts.is_id(stem) and dot + suffix in suffixes:
            files.setdefault(stem, []).append(os.path.join(folder, name))
    mine: list[str] = []
    others = 0
    for artifact_id, paths_of_it in files.items():
        written_for = artifacts.read_meta(os.path.join(folder, artifact_id + artifacts.OUTPUT_SUFFIX))
        store = written_for.get(artifacts.STORE_KEY)
        if isinstance(store, str) and os.path.realpath(store) == own:
            mine += paths_of_it
        else:
            others += 1
    return mine, others


def gemini_copies() -> list[str]:
    """The compacted outputs the Gemini CLI hook wrote for its `read_file`
    (`~/.gemini/tmp/<project>/tokenjuice-output-<hex>.txt`, hosts/gemini.py): regular
    files of this user's, by their exact name, in a folder of this user's."""
    import stat

    from ..hosts.gemini import READ_FILE_PREFIX
    from ..hosts.permissions.gemini import gemini_home

    root = os.path.join(gemini_home(os.environ), ".gemini", "tmp")
    found: list[str] = []
    try:
        projects = sorted(os.listdir(root))
    except OSError:
        return found
    for project in projects:
        folder = os.path.join(root, project)
        try:
            info = os.lstat(folder)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != paths.euid():
                continue
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            hex_part = name[len(READ_FILE_PREFIX) : -len(".txt")]
            if not (name.startswith(READ_FILE_PREFIX) and name.endswith(".txt") and len(hex_part) == 12):
                continue
            if not all(c in "0123456789abcdef" for c in hex_part):
                continue
            path = os.path.join(folder, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and info.st_uid == paths.euid():
                found.append(path)
    return found


def _ours_by_name(folder: str) -> bool:
    return paths.APP in os.path.basename(os.path.normpath(folder))


def purge(*, dry_run: bool) -> tuple[list[str], list[str]]:
    """(removed or, in a dry run, to remove; failed with why)."""
    import shutil

    targets = purge_targets()
    failed: list[str] = []
    if dry_run:
        return targets, failed
    done: list[str] = []
    elsewhere = set(temp_outputs()[0]) | set(gemini_copies()) | set(host_backups())  # not in tokenjuice's folders
    for target in targets:
        try:
            if os.path.isdir(target) and not os.path.islink(target):
                shutil.rmtree(target)
            else:
                os.unlink(target)
            done.append(target)
        except OSError as error:
            failed.append(f"{target}: {error.strerror}")
            continue
        if target not in elsewhere:
            _remove_empty_parents(target)
    store = temp_store()
    for folder in (os.path.join(store, "artifacts"), store):  # gone once no home's output is left in it
        try:
            os.rmdir(folder)
        except OSError:
            break
    return done, failed


def _remove_empty_parents(target: str) -> None:
    """The folders above `target` that are empty now (~/.cache, ~/.local/share made
    for tokenjuice's folders), up to the home folder and never it."""
    home = os.path.realpath(os.path.expanduser("~"))
    folder = os.path.dirname(os.path.realpath(target))
    while folder.startswith(home + os.sep):
        try:
            os.rmdir(folder)  # only an empty folder goes
        except OSError:
            return
        folder = os.path.dirname(folder)
