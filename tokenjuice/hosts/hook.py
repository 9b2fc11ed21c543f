"""`tokenjuice hook <host>`: the process a host runs before each shell command.

It reads the host's JSON payload on stdin, asks the host's adapter what the call
is, asks the shared rewrite engine what to run, and prints the host's answer.
(A host that lets a hook replace a command's output after it ran — Claude Code's
PostToolUse — gets its answer from the adapter's `own_answer` instead.)
It must never break a command: every path — a payload that is not JSON, is not
UTF-8, carries lone surrogates, NaN or a BOM, is 10 MB long; an internal error;
an adapter that raises — prints one valid JSON object (the host's neutral
answer: run the command unchanged) and exits 0. It runs before every command,
so it imports only what it uses (no click, no regex, no catalogue).
"""

from __future__ import annotations

import os
import sys

from ..fast import fastjson

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from ..settings import Settings
    from .base import Host

#: A payload larger than this is not read further: the command runs unchanged.
MAX_PAYLOAD_BYTES = 4 * 1024 * 1024
#: Shell tokens one hook call may lex in all (4 times `syntax.MAX_TOKENS`, the most a
#: rewrite reads of one line): every reading of the command and of the scripts in it
#: (the rewrite's grammar, the never-wrap catalogue, the host's permission rules, the
#: post-run classification) counts. A call that would take more answers neutrally, so
#: a hook answers in a bounded time whatever the command (a 1 MB one took 8 s of CPU).
WORK_TOKENS = 4 * 4096
#: Hosts by CLI name -> (module, class); loaded only when asked for.
HOSTS: dict[str, tuple[str, str]] = {
    "cursor": ("tokenjuice.hosts.cursor", "Cursor"),
    "claude-code": ("tokenjuice.hosts.claude_code", "ClaudeCode"),
    "codex": ("tokenjuice.hosts.codex", "Codex"),
    "gemini": ("tokenjuice.hosts.gemini", "Gemini"),
    "copilot": ("tokenjuice.hosts.copilot", "Copilot"),
    "opencode": ("tokenjuice.hosts.opencode", "OpenCode"),
    "windsurf": ("tokenjuice.hosts.advisory", "Windsurf"),
    "cline": ("tokenjuice.hosts.advisory", "Cline"),
}


def load(name: str) -> Host:
    """The adapter for `name`; KeyError for an unknown host."""
    module_name, class_name = HOSTS[name]
    module = __import__(module_name, fromlist=[class_name])  # importlib costs an import of its own
    host: Host = getattr(module, class_name)()
    return host


def main(args: list[str], host_name: str | None = None) -> int:
    """`hook <host> [--wrap-launcher L]` (or the old `cursor-pre-tool-use [...]`)."""
    if host_name is None:
        host_name = args[0] if args else ""
        args = args[1:]
    launcher = "tokenjuice"
    if "--wrap-launcher" in args:
        position = args.index("--wrap-launcher")
        if position + 1 < len(args) and args[position + 1].strip():
            launcher = args[position + 1]
    try:
        host = load(host_name)
    except (KeyError, ImportError):
        sys.stderr.write(f"tokenjuice: unknown host {host_name!r}; tokenjuice install lists the hosts\n")
        _print({})
        return 0
    response: dict[str, Any] = dict(host.neutral)
    payload: object = None
    try:
        payload = read_payload()
        response = respond(host, payload, launcher, os.environ)
    except BaseException as error:  # noqa: BLE001 - the hook must never break a command
        if isinstance(error, KeyboardInterrupt | SystemExit):
            response = dict(host.neutral)
        else:
            _debug(host_name, payload, error)
            response = dict(host.neutral)
    _print(response, host.neutral)
    return 0


def read_payload() -> object:
    """The payload, or None when it cannot be read as JSON text: not UTF-8, too
    big, a BOM before it, NaN/Infinity (parsed, then ignored where a string is
    wanted), lone surrogates (kept as such; no command holding one is rewritten)."""
    if sys.stdin is None or sys.stdin.isatty():
        return None
    data = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1)
    if not data or len(data) > MAX_PAYLOAD_BYTES:
        return None
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return fastjson.loads(data)
    except ValueError:
        return None


def respond(host: Host, payload: object, launcher: str, env: Mapping[str, str]) -> dict[str, Any]:
    """The host's answer for one payload: the rewrite (or the compacted output), or its
    neutral answer, also when reading the command would take more than WORK_TOKENS."""
    if isinstance(payload, dict) and host.leaves_alone(payload):
        return dict(host.neutral)  # decided from the tool's name: the shell engine is not loaded
    from ..shell import syntax

    syntax.bound_work(WORK_TOKENS)
    try:
        answer = _respond(host, payload, launcher, env)
        exceeded = syntax.work_exceeded()
    finally:
        syntax.bound_work(None)
    return dict(host.neutral) if exceeded else answer


def _respond(host: Host, payload: object, launcher: str, env: Mapping[str, str]) -> dict[str, Any]:
    if not isinstance(payload, dict):
        return dict(host.neutral)
    own = host.own_answer(payload, env)
    if own is not None:
        return own
    from ..shell import rewrite
    from . import ALLOW, NONE

    call = host.call(payload)
    if call is None:
        return dict(host.neutral)
    settings = _settings(call, env)
    if not settings["hook.enabled"]:
        return dict(host.neutral)
    shell = resolve_shell(call.shell, settings["hook.shell"], env)
    if shell is None:
        return dict(host.neutral)
    if not rewrite.launcher_usable(_launcher_words(launcher), env):
        return dict(host.neutral)  # the installation the hook points at is gone: run commands as they are
    cwd = call.cwd if call.cwd and os.path.isabs(call.cwd) else None
    plan = rewrite.plan(
        call.command, host=host.name, shell=shell, launcher=launcher, settings=settings, env=env, cwd=cwd
    )
    if not plan.wrapped:
        return dict(host.neutral)
    permission = host.permission(call, env)
    if permission not in (ALLOW, NONE):
        return dict(host.neutral)  # denied or asked about: the host's own checks must see the command
    if permission == NONE and not settings["hook.rewrite_unruled"]:
        return dict(host.neutral)
    answer = host.answer(payload, call, plan.command, permission, env)
    return answer if answer else dict(host.neutral)


def _settings(call: Any, env: Mapping[str, str]) -> Settings:
    from ..settings import resolve

    where = call.project_dir or call.cwd
    return resolve(where if where and os.path.isdir(where) else None, env=env)


def _launcher_words(launcher: str) -> list[str]:
    from ..shell.syntax import split_words

    return split_words(launcher)


def resolve_shell(requested: object, configured: str, env: Mapping[str, str]) -> str | None:
    """The shell rewritten commands run in: the host's, `hook.shell`, $SHELL, the
    login shell of the password database, the shell shellingham detects, then sh —
    as an absolute path to an executable. A host, `hook.shell` or $SHELL that
    names a shell tokenjuice cannot drive (nu, pwsh, xonsh, elvish, csh) gets
    None: the command runs unchanged rather than rewritten into another shell's
    syntax."""
    if isinstance(requested, str) and requested.strip():
        return _usable_shell(requested, env)
    for candidate in (configured, env.get("SHELL")):
        if _foreign_shell(candidate):
            return None
        found = _usable_shell(candidate, env)
        if found:
            return found
    return _usable_shell(_login_shell(), env) or _detected_shell(env) or _usable_shell("sh", env)


def _login_shell() -> str | None:
    """The user's login shell from the password database: what login(1) puts in
    $SHELL, so a host started without $SHELL (a service, a CI runner, `env -i`)
    gets the same answer. Asked before shellingham, whose process-tree walk costs
    `subprocess` and `re` imports on every shell command."""
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_shell
    except (KeyError, OSError):  # a uid with no passwd entry (containers)
        return None


def _detected_shell(env: Mapping[str, str]) -> str | None:
    """The shell shellingham sees running us, or None when it cannot tell (it raises)."""
    import shellingham

    try:
        name, path = shellingham.detect_shell()
    except Exception:  # noqa: BLE001 - any failure to detect means "not known"
        return None
    return _usable_shell(path, env) or _usable_shell(name, env)


#: What $SHELL holds for an account that has no shell.
_NO_SHELL = frozenset({"nologin", "false", "true"})


def _foreign_shell(value: object) -> bool:
    """Does `value` name a shell outside the family tokenjuice quotes for (bash, zsh,
    sh, dash, ksh, fish…)? `-bash`, `zsh-5.9` and `bash.exe` are of the family."""
    from ..shell.argv import basename
    from ..shell.rewrite import LOGIN_SHELLS

    if not isinstance(value, str) or not value.strip():
        return False
    name = basename(value.strip()).lower().lstrip("-").removesuffix(".exe")
    if name in _NO_SHELL:
        return False  # an account without a login shell: the next candidate decides
    return name.rstrip("0123456789.").rstrip("-") not in LOGIN_SHELLS


def _usable_shell(value: object, env: Mapping[str, str]) -> str | None:
    from ..shell.argv import basename
    from ..shell.rewrite import LOGIN_SHELLS

    if not isinstance(value, str) or not value.strip():
        return None
    value = value.strip()
    if basename(value).lower() not in LOGIN_SHELLS:
        return None
    if "/" in value:
        return value if os.path.isfile(value) and os.access(value, os.X_OK) else None
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        path = os.path.join(directory, value)
        if directory and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _print(response: dict[str, Any], neutral: dict[str, Any] | None = None) -> None:
    """One line of JSON any parser reads; the neutral answer when the response
    would not be (NaN, lone surrogates echoed from the payload)."""
    try:
        text = fastjson.dumps(response, strict=True)
    except (ValueError, TypeError):
        text = fastjson.dumps(neutral or {})
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _debug(host_name: str, payload: object, error: BaseException) -> None:
    """One line per internal error when debugging is on (TOKENJUICE_DEBUG=1): the
    host, ids and the error class, never the command or the environment."""
    try:
        from ..settings import resolve

        if not resolve().values["debug.enabled"]:
            return
        import time

        from .. import paths

        ids = ""
        if isinstance(payload, dict):
            ids = " ".join(
                f"{key}={payload[key]}"
                for key in ("conversation_id", "generation_id", "session_id", "sessionId")
                if isinstance(payload.get(key), str) and len(payload[key]) < 100 and payload[key].isprintable()
            )
        line = f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} hook {host_name} {type(error).__name__} {ids}\n"
        directory = paths.private_dir(paths.data_dir())
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(os.path.join(directory, "debug.log"), flags, 0o600), "a", encoding="utf-8") as handle:
            handle.write(line)
    except Exception:  # noqa: BLE001, S110 - a broken setup must not break the hook's answer
        pass
