"""Where tokenjuice keeps its configuration, cache and data.

The answers are platformdirs' (`user_config_dir("tokenjuice")` and friends); the
test suite checks that they agree. On Linux and macOS they are computed here
directly because importing platformdirs costs ~25 ms, which the Cursor hook and
`wrap` would pay on every shell command. Other platforms ask platformdirs.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

APP = "tokenjuice"


def _xdg(variable: str, fallback: str) -> str:
    value = os.environ.get(variable, "").strip()
    return os.path.join(value if value else os.path.expanduser(fallback), APP)


def config_dir() -> str:
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/" + APP)
    if os.name == "posix":
        return _xdg("XDG_CONFIG_HOME", "~/.config")
    import platformdirs

    return platformdirs.user_config_dir(APP, appauthor=False)


def cache_dir() -> str:
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Caches/" + APP)
    if os.name == "posix":
        return _xdg("XDG_CACHE_HOME", "~/.cache")
    import platformdirs

    return platformdirs.user_cache_dir(APP, appauthor=False)


def data_dir() -> str:
    """The data dir; `TOKENJUICE_HOME` moves it (and everything tokenjuice stores)."""
    override = os.environ.get("TOKENJUICE_HOME", "").strip()
    if override:
        return os.path.abspath(os.path.expanduser(override))
    if sys.platform == "darwin":
        return os.path.expanduser("~/Library/Application Support/" + APP)
    if os.name == "posix":
        return _xdg("XDG_DATA_HOME", "~/.local/share")
    import platformdirs

    return platformdirs.user_data_dir(APP, appauthor=False)


def read_only(path: str) -> bool:
    """Is this existing file or folder read-only by intent? Mode bits count, not just
    access(): root may write anywhere, but what was made read-only on purpose stays
    untouched."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(path, os.W_OK)


def private_dir(path: str) -> str:
    """Create `path` readable by the owner only (0700), and every folder between
    tokenjuice's own data or cache folder and it; a symlink among them is refused
    (a link planted in our folders must not redirect what we write)."""
    base = next((root for root in (data_dir(), cache_dir()) if path == root or path.startswith(root + os.sep)), path)
    parts = [] if path == base else os.path.relpath(path, base).split(os.sep)
    chain = [base] + [os.path.join(base, *parts[: depth + 1]) for depth in range(len(parts))]
    for directory in chain:
        if os.path.islink(directory):
            raise PermissionError(40, "a symlink where a folder of tokenjuice's should be", directory)
        if read_only(directory):
            raise PermissionError(13, "read-only folder", directory)
        os.makedirs(directory, mode=0o700, exist_ok=True)
        if os.stat(directory).st_mode & 0o077:
            os.chmod(directory, 0o700)
    return path


def private_temp_dir() -> str:
    """`$TMPDIR/tokenjuice-<uid>` (or /tmp), 0700: where full outputs go when the
    data folder cannot be written (an agent's sandbox typically allows only the
    workspace and /tmp). The temporary folder is shared, so the folder must be a
    real folder owned by this user, never a link someone planted; otherwise
    PermissionError."""
    root = os.environ.get("TMPDIR", "").strip() or "/tmp"  # noqa: S108 - a private, owner-checked folder in it
    path = os.path.join(root, f"{APP}-{os.getuid()}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(path)
    import stat

    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise PermissionError(1, "not a folder of this user's", path)
    if info.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def remove_quietly(path: str) -> None:
    """Remove the file at `path` if it can be: for temporary files after a failed write
    and for stamps and records whose leftover costs nothing."""
    try:
        os.unlink(path)
    except OSError:
        pass


def user_rule_dirs() -> list[str]:
    """`~/.config/tokenjuice/rules` (where the TypeScript tokenjuice looked) and the
    platform's config dir, lowest precedence first, without duplicates."""
    dirs = [os.path.expanduser("~/.config/tokenjuice/rules"), os.path.join(config_dir(), "rules")]
    return dirs if dirs[0] != dirs[1] else dirs[:1]


def ancestors(start: str) -> Iterator[str]:
    """`start` (made absolute) and each folder above it, up to the root."""
    current = os.path.abspath(start)
    while True:
        yield current
        parent = os.path.dirname(current)
        if parent == current:
            return
        current = parent


def up_to_git_root(start: str) -> list[str]:
    """`start` (made absolute) and each folder above it up to the first holding `.git`;
    `start` alone outside a git repository. The folders where a host (Codex,
    OpenCode) looks for a project's configuration, nearest first."""
    chain = []
    for directory in ancestors(start):
        chain.append(directory)
        if os.path.exists(os.path.join(directory, ".git")):
            return chain
    return chain[:1]


def git_root(start: str) -> str | None:
    return next((d for d in ancestors(start) if os.path.exists(os.path.join(d, ".git"))), None)


#: A project's own layer of rules and settings; trust.py decides whether it applies.
PROJECT_LAYER = ".tokenjuice"


def find_project_layer(start: str | None) -> str | None:
    """The nearest folder from `start` up (never above the git root) holding a
    `.tokenjuice/` layer. Here, not in trust.py: most projects have none, and then
    nothing about trust needs loading."""
    return project_root_with(PROJECT_LAYER, start or os.getcwd())


def project_root_with(relative: str, start: str) -> str | None:
    """The nearest ancestor of `start` holding `relative`, never above the git root."""
    for directory in ancestors(start):
        if os.path.isdir(os.path.join(directory, relative)):
            return directory
        if os.path.exists(os.path.join(directory, ".git")):
            return None
    return None
