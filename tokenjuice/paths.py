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
    """`$VARIABLE/tokenjuice`; a relative value is ignored, as the XDG specification
    says (it would put tokenjuice's files into whatever folder a command runs in)."""
    value = os.environ.get(variable, "").strip()
    return os.path.join(value if os.path.isabs(value) else os.path.expanduser(fallback), APP)


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
    (a link planted in our folders must not redirect what we write), and so is a
    folder another user owns or a base another user could replace (`secure_root`)."""
    base = next((root for root in (data_dir(), cache_dir()) if path == root or path.startswith(root + os.sep)), path)
    if not secure_root(base):
        raise PermissionError(1, "another user could replace this folder or one above it", base)
    parts = [] if path == base else os.path.relpath(path, base).split(os.sep)
    chain = [base] + [os.path.join(base, *parts[: depth + 1]) for depth in range(len(parts))]
    make_parents(base)
    for directory in chain:
        if os.path.islink(directory):
            raise PermissionError(40, "a symlink where a folder of tokenjuice's should be", directory)
        if read_only(directory):
            raise PermissionError(13, "read-only folder", directory)
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            pass
        info = os.lstat(directory)
        if (POSIX_OWNERS and info.st_uid != os.geteuid()) or not _is_dir(info.st_mode):
            raise PermissionError(1, "not a folder of this user's", directory)
        if info.st_mode & 0o077:
            os.chmod(directory, 0o700)
    return path


def make_parents(path: str, mode: int = 0o755) -> None:
    """Create the missing folders above `path` (not `path` itself), each with `mode`
    at most: `os.makedirs` gives the folders above its last 0777 less the umask, so
    under `umask 000` a new `~/.local`, `~/.local/share` or `~/.cache` — where
    other programs keep their own folders — would be writable by everyone."""
    missing = []
    folder = os.path.dirname(os.path.abspath(path))
    while not os.path.lexists(folder) and os.path.dirname(folder) != folder:
        missing.append(folder)
        folder = os.path.dirname(folder)
    for folder in reversed(missing):
        try:
            os.mkdir(folder, mode)  # the umask can only take bits away
        except FileExistsError:
            pass


def _is_dir(mode: int) -> bool:
    return mode & 0o170000 == 0o040000


#: POSIX owners and modes exist (not on Windows, where none of these checks apply).
POSIX_OWNERS = hasattr(os, "geteuid")


def euid() -> int:
    """This process's effective user id (-1 where there is none: Windows)."""
    return os.geteuid() if POSIX_OWNERS else -1


def others_can_write(info: os.stat_result) -> bool:
    """Could users other than the owner write this file or folder? World-writable,
    or group-writable by a group other than this user's own (the private group
    most systems give each user, whose umask 002 makes its folders 0775)."""
    if not POSIX_OWNERS:
        return False
    return bool(info.st_mode & 0o002 or (info.st_mode & 0o020 and info.st_gid != os.getegid()))


def mine_alone(info: os.stat_result) -> bool:
    """Is what `info` describes this user's, and writable by no one else? (Always,
    where there are no POSIX owners.)"""
    return not POSIX_OWNERS or (info.st_uid == os.geteuid() and not others_can_write(info))


def private_entry(path: str, *, folder: bool) -> bool:
    """Is `path` a real folder (`folder`) or regular file, not a link, that is this
    user's alone (`mine_alone`)? For what sqlite or a folder listing opens by path;
    a file's bytes are read with `read_regular(..., own=True)` instead, checked on
    the opened descriptor."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    kind = 0o040000 if folder else 0o100000
    return info.st_mode & 0o170000 == kind and mine_alone(info)


#: Roots `secure_root` found safe in this process (what makes them safe cannot change).
_SECURE: set[str] = set()


def secure_root(root: str) -> bool:
    """Can no other local user replace `root` (one of tokenjuice's folders, which
    may not exist yet) or what is in it? `root` itself, when it exists, must be a
    real folder of this user's (`private_dir` makes it 0700); every folder above it
    must belong to root or this user and be writable by no one else, unless it is
    sticky like /tmp (others cannot rename what is ours there); every symlink above
    it must belong to root or this user, and so must the folders it leads to.
    `HOME=/tmp` or `XDG_CACHE_HOME=/tmp/cache` pass only as long as what tokenjuice
    finds there is its user's."""
    if root in _SECURE or not POSIX_OWNERS:
        return True
    uid = os.geteuid()
    try:
        info = os.lstat(root)
    except FileNotFoundError:
        info = None
    except OSError:
        return False
    if info is not None and (not _is_dir(info.st_mode) or info.st_uid != uid):
        return False
    if not _safe_above(os.path.dirname(os.path.abspath(root)), uid, 0):
        return False
    _SECURE.add(root)
    return True


def safe_place(path: str) -> bool:
    """Could no other user (root aside) have put or replaced what is at `path`: it
    (when it exists) and every folder above it belong to root or this user, and
    others cannot write them unless sticky (`secure_root`'s rule for folders
    above). For the user's own config and rules, which decide what runs."""
    if not POSIX_OWNERS:
        return True
    uid = os.geteuid()
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError:
        return False
    if info is not None and (info.st_uid not in (0, uid) or others_can_write(info)):
        return False
    return _safe_above(os.path.dirname(os.path.abspath(path)), uid, 0)


def _safe_above(path: str, uid: int, depth: int) -> bool:
    """`path` and every folder above it: see `secure_root`."""
    if depth > 8:  # a loop of links
        return False
    for directory in ancestors(path):
        try:
            info = os.lstat(directory)
        except FileNotFoundError:
            continue  # created by us, 0700, when needed
        except OSError:
            return False
        if info.st_uid not in (0, uid):
            return False
        if info.st_mode & 0o170000 == 0o120000:  # a symlink: where it leads must be as safe
            if not _safe_above(os.path.realpath(directory), uid, depth + 1):
                return False
        elif others_can_write(info) and not info.st_mode & 0o1000:
            return False
    return True


def regular_only(path: str, flags: int) -> int:
    """An `open()` opener for files a project or another user may have put there:
    it never blocks (a FIFO at `.cursor/cli.json` would hang the hook) and raises
    OSError (EINVAL) for anything but a regular file."""
    import errno

    fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    if os.fstat(fd).st_mode & 0o170000 != 0o100000:
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", path)
    return fd


def read_regular(path: str, limit: int, *, follow: bool = True, own: bool = False) -> bytes:
    """The bytes of the regular file at `path`, checked on the opened descriptor:
    a FIFO, device or folder raises OSError (EINVAL) without blocking, a file over
    `limit` bytes raises OSError (EFBIG) without being read, a symlink raises
    unless `follow`; with `own`, a file that is not this user's or that others may
    write raises PermissionError. For every file a project or another user could
    have put where tokenjuice reads."""
    import errno

    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if info.st_mode & 0o170000 != 0o100000:
            raise OSError(errno.EINVAL, "not a regular file", path)
        if own and not mine_alone(info):
            raise PermissionError(errno.EPERM, "not this user's, or writable by others", path)
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", path)
        chunks = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise OSError(errno.EFBIG, f"larger than {limit} bytes", path)
        return b"".join(chunks)
    finally:
        os.close(fd)


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
    if not _is_dir(info.st_mode) or info.st_uid != os.getuid():
        raise PermissionError(1, "not a folder of this user's", path)
    if info.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def owned_temp_dir() -> str | None:
    """`private_temp_dir`'s folder if it exists and is this user's, private and
    no link; None otherwise (another user may have made it: nothing in it is read)."""
    root = os.environ.get("TMPDIR", "").strip() or "/tmp"  # noqa: S108 - checked below
    path = os.path.join(root, f"{APP}-{os.getuid()}")
    try:
        info = os.lstat(path)
    except OSError:
        return None
    if not _is_dir(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
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
