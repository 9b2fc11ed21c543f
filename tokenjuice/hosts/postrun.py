"""Post-run compaction shared by the hosts that let a hook replace a command's output
after it ran (Codex `PostToolUse`, Gemini `AfterTool`, Copilot `postToolUse`,
OpenCode `tool.execute.after`; Claude Code's `PostToolUse` has its own adapter code).

The command ran natively: nothing about it was rewritten, so no permission rule of
the host saw anything but the user's command. The adapter hands over what the host
would show the model (its own envelope removed), the exit code when the host tells
it, the file where the host saved the whole output when it saved one, and whether
the host itself had cut the middle; this module runs the same engine as `wrap`
(`compact.compact`) and answers the text to show instead, or None to leave the
host's own output as it is (nothing worth saving, tokenjuice turned off, the
command skipped by the user, or the output already compacted by a wrap).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ..settings import Settings

    #: A host's own test that the file it named is the one it wrote for this call: the
    #: opened file's status and its bytes -> whether to use it.
    SavedCheck = Callable[[os.stat_result, bytes], bool]

#: reduce.engine.TINY_CHARS: an output this short is shown whole, so the engine need not
#: run (not imported: the engine's import is most of a compaction's cost, and most
#: outputs are this short).
TINY_OUTPUT = 240
#: The longest command compacted after its run: shell.syntax.MAX_ARG_STRLEN (not imported),
#: the kernel's limit for one argument, past which the rewrite leaves a command alone too.
#: Reading a longer one (classifying it, redacting it for the store) costs seconds.
MAX_COMMAND_CHARS = 131072
#: Bytes read at most from a host's saved-output file when `capture.max_bytes` is 0 (its
#: default, as `capture.DEFAULT_MAX_CAPTURE_BYTES`, which is not imported on this path).
SAVED_LIMIT = 4 * 1024 * 1024


def compact_output(
    host: str,
    command: str,
    shown: str,
    *,
    cwd: str | None,
    env: Mapping[str, str],
    exit_code: int | None = None,
    saved: str | None = None,
    host_cut: str | None = None,
    preview: bool = True,
    saved_max_chars: int | None = None,
    duration_ms: float | None = None,
    saved_check: SavedCheck | None = None,
) -> str | None:
    """The compacted text for `shown` (what the host would show of `command`), or None.

    `saved` is the exact path the host named for the whole output: read only when it
    is a regular file the user owns (not a link), else the host's own text stays.
    `preview` says `shown` is only the host's preview of a saved output (the model
    would need another call to see more): the compaction replaces it whenever it cut
    anything; otherwise (`shown` is the host's own compaction) only when shorter.
    `host_cut` names who cut the middle of `shown` before tokenjuice saw it (Codex
    keeps a head+tail window): the trailer says so. `saved_max_chars`: a compaction of a
    saved output longer than this is not used (the host's own preview is shorter).
    `duration_ms`: how long the command ran, for the ledger, when the host says.
    `saved_check`: the host's own test that `saved` is the file it wrote for this call
    (read on the opened file), else the host's own text stays."""
    if len(command) >= MAX_COMMAND_CHARS or not command.strip():
        return None  # more than a hook reads in its time (hook.WORK_TOKENS bounds the rest)
    settings = settings_at(cwd, env)
    if not settings["hook.enabled"] or skipped(command, settings):
        return None
    if saved is not None:
        # At most what wrap keeps in memory: a bigger file is left to the host's own preview.
        data = read_saved(saved, settings["capture.max_bytes"] or SAVED_LIMIT, saved_check)
        if data is None:
            return None  # the whole output cannot be seen: the host's own preview and file stay
        output = data.decode("utf-8", errors="replace")
    else:
        data = shown.encode("utf-8", errors="surrogatepass")
        output = shown
    if not output.strip() or already_compacted(command, output, host, settings):
        return None
    if saved is None and host_cut is None and shown_whole(shown, settings):
        return None  # shown whole anyway: spare the engine (and the stats) the run
    from ..compact import compact, secret_shown

    def note_cut(stored: object, hint: str | None) -> str | None:
        if host_cut is None:
            return hint
        return f"{hint}; {host_cut}" if hint else host_cut

    compacted = compact(
        command,
        data,
        exit_code=exit_code,
        cwd=cwd,
        source=host,
        settings=settings,
        warn=False,
        after_store=note_cut,
        duration_ms=duration_ms,
        # a saved output's compaction is used only within the host's own preview's size:
        # that size is its budget, spent on the output's start, end and pinned lines
        max_inline_chars=saved_max_chars if saved is not None else None,
    )
    if not compacted.cut and saved is None and compacted.text.rstrip("\n") == shown.rstrip("\n"):
        return None
    if (saved is None or not preview) and len(compacted.text) >= len(shown):
        kept = True  # never longer than what the host shows,
    elif saved is not None and preview and not compacted.cut:
        kept = True
    else:
        kept = saved is not None and saved_max_chars is not None and len(compacted.text) > saved_max_chars
    # ... unless what the host shows would show a secret the compaction redacts
    return None if kept and not secret_shown(shown, settings) else compacted.text


def compact_tool(
    host: str,
    tool: str,
    result: object,
    cwd: str | None,
    env: Mapping[str, str],
    *,
    mcp: tuple[str, str] | None = None,
) -> object | None:
    """A non-shell tool's result (an MCP tool's, a host's search tool's) with its texts
    compacted in the shape it came in (`compact.compact_tool_result`), or None to leave
    it: a tool whose text the agent edits from (a file read, whatever its host calls
    it), tokenjuice or its tool compaction turned off (`hook.enabled`, `tools.enabled`),
    a tool the user excludes (`tools.exclude`), nothing shorter. Every host's adapter
    calls this once it has decided, from the tool's name alone, that the tool may be
    compacted. `mcp` is (server, tool) of an MCP tool whose host name is not
    `mcp__SERVER__TOOL` (Gemini's `mcp_fs_search_files`, Copilot's `fs-search_files`):
    rules, exclusions and stats then know it by that host-neutral name too."""
    names = tool_names(tool, mcp)
    if never_compacted(tool, mcp):
        return None  # decided from the name alone: nothing is loaded
    settings = settings_at(cwd, env)
    if not settings["hook.enabled"] or not settings["tools.enabled"]:
        return None
    if excluded(names, settings["tools.exclude"]) is not None:
        return None
    from ..compact import compact_tool_result

    done = compact_tool_result(names[-1], result, cwd=cwd, source=host, settings=settings)
    return None if done is None else done.result


def tool_names(tool: str, mcp: tuple[str, str] | None = None) -> tuple[str, ...]:
    """The names a tool is known by: the host's, then (for an MCP tool the host names
    otherwise) its host-neutral `mcp__SERVER__TOOL`, which rules and stats use."""
    if mcp is None:
        return (tool,)
    neutral = f"mcp__{mcp[0]}__{mcp[1]}"
    return (tool,) if neutral == tool else (tool, neutral)


def never_compacted(tool: str, mcp: tuple[str, str] | None = None) -> bool:
    """Is `tool` one whose exact text the agent edits from or quotes back: an MCP tool
    that reads a file (`base.FILE_READ_TOOLS`), a host's own read, view or edit tool
    (`base.EDIT_SOURCE_TOOLS`)? Such a result reaches the model byte for byte."""
    from .base import EDIT_SOURCE_TOOLS, FILE_READ_TOOLS, mcp_tool_part

    part = mcp[1] if mcp is not None else mcp_tool_part(tool)
    if part is not None:
        return part.lower() in FILE_READ_TOOLS
    return tool.lower() in EDIT_SOURCE_TOOLS or tool.lower() in FILE_READ_TOOLS


def excluded(names: tuple[str, ...], patterns: list[str]) -> str | None:
    """The first of the user's `tools.exclude` globs (any case) that one of `names` matches."""
    if not patterns:
        return None
    from fnmatch import fnmatchcase

    lowered = [name.lower() for name in names]
    return next((p for p in patterns if any(fnmatchcase(name, p.lower()) for name in lowered)), None)


def settings_at(cwd: str | None, env: Mapping[str, str]) -> Settings:
    from ..settings import resolve

    return resolve(cwd, env=env)


def skipped(command: str, settings: Settings) -> bool:
    """Does one of the user's `hook.skip` patterns name this command?"""
    patterns = list(settings["hook.skip"])
    if not patterns:
        return False
    from ..shell.command import analyze
    from ..shell.neverwrap.user import matches_user_pattern
    from ..shell.syntax import parse

    pipelines, _ = parse(command)
    for pipeline in pipelines:
        for simple in pipeline.commands:
            if matches_user_pattern(simple.text, simple.argv, patterns):
                return True
    analysed = analyze(command)
    return bool(matches_user_pattern(analysed.normalized_command, list(analysed.first_argv), patterns))


def shown_whole(output: str, settings: Settings) -> bool:
    """An output so short that the engine shows it whole (TINY_OUTPUT), with nothing
    in it to escape or redact: the answer would be the output itself."""
    if len(output) > TINY_OUTPUT:
        return False
    from ..text import sanitize

    if sanitize(output) != output:
        return False
    if not settings["redaction.enabled"]:
        return True
    from ..state.redact import might_hold_secrets

    return not might_hold_secrets(output)


def already_compacted(command: str, output: str, host: str, settings: Settings) -> bool:
    """Did tokenjuice already compact this output? The command ran tokenjuice (a
    PreToolUse rewrite by this or another host's hook: Cursor also runs Claude Code's
    hooks). Only the command decides: text in the output (a line that looks like
    wrap's trailer) is what a file or a web page can say, and must never spare an
    output redaction or escaping."""
    if "tokenjuice" not in command:
        return False  # nothing in it can start tokenjuice (the engine's check is not needed)
    from ..shell import rewrite

    plan = rewrite.plan(command, host=host, shell="/bin/sh", launcher="tokenjuice", settings=settings)  # noqa: S604 - nothing runs
    if plan.reason == "already runs tokenjuice":
        return True
    # The engine could not read it, and it names tokenjuice: assume the worst.
    return not plan.wrapped and plan.reason.startswith(("incomplete", "defines", "not a"))


def read_saved(path: str, limit: int, check: SavedCheck | None = None) -> bytes | None:
    """The bytes of the file a host saved an output to, or None unless `path` is an
    absolute path to a regular file (not a link) owned by this user, at most `limit`
    bytes: another local user could otherwise plant the text the model reads; and
    unless `check` (the host's own, on the opened file's status and bytes) accepts it."""
    if not os.path.isabs(path) or "\x00" in path:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        import stat

        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_size > limit:
            return None
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                return None
    except OSError:
        return None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    return data if check is None or check(info, data) else None


def tail_lines(path: str, limit: int) -> list[bytes]:
    """The last lines of a file this user owns (at most `limit` bytes from its end; the
    first, maybe partial, line dropped), newest last; [] when it cannot be read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    if not os.path.isabs(path):
        return []
    try:
        fd = os.open(path, flags)
    except OSError:
        return []
    try:
        import stat

        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid():
            return []
        start = max(0, info.st_size - limit)
        os.lseek(fd, start, os.SEEK_SET)
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return []
    finally:
        os.close(fd)
    lines = b"".join(chunks).split(b"\n")
    return lines[1:] if start > 0 else lines
