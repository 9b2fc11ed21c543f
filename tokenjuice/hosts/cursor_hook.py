"""`tokenjuice cursor-pre-tool-use`: Cursor's preToolUse hook for Shell commands.

Cursor sends a JSON payload on stdin before every shell command and runs
whatever command comes back. This hook answers
`{"permission": "allow", "updated_input": {..., "command": "<launcher> wrap --source cursor --keep-path -- <shell> -lc '<command>'"}}`
or `{}` to leave the command alone. It must never break a command: every path,
including malformed input and internal errors, prints one valid JSON object and
exits 0. It runs before every command, so it imports only what it uses
(no click, no regex, no catalogue).
"""

from __future__ import annotations

import os
import sys

from .. import fastjson
from ..command import SHELLS, analyze, basename, is_python
from ..shellsyntax import join, quote, quote_fish

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..settings import Settings

WINDOWS_MESSAGE = "tokenjuice does not support native Windows shells yet; run Cursor in WSL instead."
MAX_PAYLOAD_BYTES = 4 * 1024 * 1024
#: Longer commands are left alone: wrapped, they could exceed the kernel's limit on
#: one argument (128 KiB on Linux) and fail to run at all.
MAX_COMMAND_CHARS = 64 * 1024
#: Shells the rewrite can run `-lc` with (busybox needs its applet name first).
LOGIN_SHELLS = SHELLS - {"busybox"}

#: Commands that never end or need a terminal: wrapping them would hold their output
#: until they exit. Patterns over the command as run (after `cd …&&`, `FOO=1`,
#: `sudo` and the like are removed), where `*` matches anything, spaces included.
DEFAULT_SKIP = (
    # dev servers and watch modes
    "npm run dev*",
    "npm run start*",
    "npm run serve*",
    "npm run watch*",
    "npm start*",
    "npm run storybook*",
    "pnpm dev*",
    "pnpm run dev*",
    "pnpm start*",
    "pnpm run start*",
    "pnpm serve*",
    "pnpm run watch*",
    "yarn dev*",
    "yarn run dev*",
    "yarn start*",
    "yarn serve*",
    "yarn watch*",
    "bun dev*",
    "bun run dev*",
    "bun start*",
    "bun --watch*",
    "bun --hot*",
    "next dev*",
    "nuxt dev*",
    "astro dev*",
    "remix dev*",
    "ng serve*",
    "expo start*",
    "storybook dev*",
    "vite",
    "vite --*",
    "vite dev*",
    "vite serve*",
    "vitest",
    "vitest dev*",
    "vitest watch*",
    "webpack serve*",
    "webpack-dev-server*",
    "nodemon*",
    "ts-node-dev*",
    "tsx watch*",
    "* --watch",
    "* --watch *",
    "* --watch=*",
    "*--watchAll*",
    "* watch",
    "cargo watch*",
    "watchexec*",
    "python -m http.server*",
    "python3 -m http.server*",
    "flask run*",
    "uvicorn *",
    "gunicorn *",
    "hypercorn *",
    "daphne *",
    "django-admin runserver*",
    "python manage.py runserver*",
    "python3 manage.py runserver*",
    "rails server*",
    "rails s",
    "rails s *",
    "bin/rails server*",
    "php artisan serve*",
    "php -S *",
    "hugo server*",
    "jekyll serve*",
    "mkdocs serve*",
    "http-server*",
    "serve",
    "serve *",
    "live-server*",
    "docker compose up",
    "docker compose up --build",
    "docker-compose up",
    "docker-compose up --build",
    "kubectl port-forward *",
    "minikube tunnel*",
    # following output forever
    "tail -f *",
    "tail -F *",
    "tail --follow*",
    "journalctl -f*",
    "journalctl * -f*",
    "journalctl --follow*",
    "kubectl logs -f*",
    "kubectl logs * -f*",
    "kubectl logs --follow*",
    "kubectl logs * --follow*",
    "docker logs -f*",
    "docker logs * -f*",
    "docker logs --follow*",
    "docker compose logs -f*",
    "watch *",
    "top",
    "htop*",
    "btop*",
    "glances*",
    "ping *",
    "tcpdump *",
    # editors, pagers, interactive tools
    "vi",
    "vi *",
    "vim",
    "vim *",
    "nvim",
    "nvim *",
    "nano",
    "nano *",
    "emacs",
    "emacs *",
    "micro *",
    "less",
    "less *",
    "more",
    "more *",
    "most *",
    "man *",
    "tmux*",
    "screen*",
    "ssh",
    "git add -p*",
    "git add --patch*",
    "git add -i*",
    "git rebase -i*",
    "git rebase --interactive*",
    "git commit",
    "fzf*",
    "lazygit*",
    "tig",
    "tig *",
    "mc",
    # REPLs and interactive shells
    "python",
    "python3",
    "ipython*",
    "bpython*",
    "node",
    "deno",
    "deno repl*",
    "bun repl*",
    "irb*",
    "pry*",
    "rails console*",
    "rails c",
    "php -a",
    "psql",
    "mysql",
    "sqlite3",
    "redis-cli",
    "mongosh",
    "bash",
    "sh",
    "zsh",
    "fish",
    "dash",
    "ghci*",
    "iex*",
    "erl",
    "lua",
    "R",
    "julia",
    # background and detached jobs
    "nohup *",
    "setsid *",
    "disown*",
)


def main(args: list[str]) -> int:
    launcher = "tokenjuice"
    if "--wrap-launcher" in args:
        position = args.index("--wrap-launcher")
        if position + 1 < len(args) and args[position + 1].strip():
            launcher = args[position + 1]
    payload: object = None
    try:
        data = sys.stdin.buffer.read(MAX_PAYLOAD_BYTES + 1) if not sys.stdin.isatty() else b""
        payload = fastjson.loads(data) if data and len(data) <= MAX_PAYLOAD_BYTES else None
        response = respond(payload, launcher, os.environ)
    except Exception as error:  # the hook must never break a command
        _debug(payload, error)
        response = {}
    sys.stdout.write(fastjson.dumps(response) + "\n")
    sys.stdout.flush()
    return 0


def respond(payload: object, launcher: str, env) -> dict:
    """The hook's answer for one payload: a rewrite, a Windows refusal, or `{}`."""
    if not isinstance(payload, dict) or payload.get("tool_name") != "Shell":
        return {}
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, dict):
        return {}
    command = tool_input.get("command")
    if not isinstance(command, str) or not command.strip() or len(command) > MAX_COMMAND_CHARS:
        return {}
    if os.name == "nt":
        return {
            "permission": "deny",
            "user_message": WINDOWS_MESSAGE,
            "agent_message": "Shell command blocked by tokenjuice: native Windows shells are not supported. "
            "Ask the user to run Cursor in WSL, then retry.",
        }
    info = analyze(command)
    if _runs_tokenjuice(info.first_argv) or info.background:
        return {}
    from ..settings import resolve

    settings = resolve(_project_dir(payload, tool_input), env=env)
    if not settings["cursor.enabled"] or _skipped(info, skip_patterns(settings)):
        return {}
    shell = resolve_shell(tool_input.get("shell"), settings["cursor.shell"], env)
    if shell is None:
        return {}
    quote_word = quote_fish if basename(shell) == "fish" else quote
    rewritten = f"{launcher} wrap --source cursor --keep-path -- {quote_word(shell)} -lc {quote_word(command)}"
    return {"permission": "allow", "updated_input": {**tool_input, "command": rewritten}}


def _runs_tokenjuice(argv: list[str]) -> bool:
    """Already wrapped (`tokenjuice wrap …`, `python -m tokenjuice wrap …`) or any
    other tokenjuice command: never wrap tokenjuice in itself."""
    if not argv:
        return False
    name = basename(argv[0]).lower()
    if name == "tokenjuice":
        return True
    return is_python(name) and tuple(argv[1:3]) == ("-m", "tokenjuice")


def _project_dir(payload: dict, tool_input: dict) -> str:
    cwd = tool_input.get("cwd")
    if isinstance(cwd, str) and os.path.isdir(cwd):
        return cwd
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str) and os.path.isdir(roots[0]):
        return roots[0]
    return os.getcwd()


def skip_patterns(settings: Settings) -> list[str]:
    """The skip list in force: the defaults (unless turned off) and `cursor.skip`."""
    patterns = list(DEFAULT_SKIP) if settings["cursor.skip_defaults"] else []
    return patterns + list(settings["cursor.skip"])


def _skipped(info, patterns: list[str]) -> bool:
    targets = {info.normalized_command, join(info.first_argv)} - {""}
    return any(glob_match(target, pattern) for pattern in patterns for target in targets)


def glob_match(text: str, pattern: str) -> bool:
    """Does `pattern`, where `*` stands for any run of characters, match all of `text`?
    (fnmatch would compile a regex per pattern: ~10 ms for the default list.)"""
    parts = pattern.split("*")
    if len(parts) == 1:
        return text == pattern
    first, last = parts[0], parts[-1]
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return False
    position, end = len(first), len(text) - len(last)
    for part in parts[1:-1]:
        found = text.find(part, position, end)
        if found < 0:
            return False
        position = found + len(part)
    return True


def resolve_shell(requested: object, configured: str, env: Mapping[str, str]) -> str | None:
    """The first usable shell: Cursor's, `cursor.shell` (TOKENJUICE_CURSOR_SHELL),
    $SHELL, the shell shellingham detects, then sh — as an absolute path to an
    executable."""
    for candidate in (requested, configured, env.get("SHELL")):
        found = _usable_shell(candidate, env)
        if found:
            return found
    try:
        import shellingham

        name, path = shellingham.detect_shell()
        found = _usable_shell(path, env) or _usable_shell(name, env)
        if found:
            return found
    except Exception:  # shellingham raises when it cannot tell; fall through to sh
        pass
    return _usable_shell("sh", env)


def _usable_shell(value: object, env) -> str | None:
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


def _debug(payload: object, error: BaseException) -> None:
    """One line per internal error when debugging is on (TOKENJUICE_DEBUG=1): ids
    and the error class, never the command or the environment."""
    from ..settings import resolve

    try:
        if not resolve().values["debug.enabled"]:
            return
    except Exception:  # noqa: BLE001 - a broken setup must not break the hook's answer
        return
    try:
        import time

        from .. import paths

        ids = ""
        if isinstance(payload, dict):
            ids = " ".join(
                f"{key}={payload[key]}"
                for key in ("conversation_id", "generation_id")
                if isinstance(payload.get(key), str) and len(payload[key]) < 100
            )
        line = f"{time.strftime('%Y-%m-%dT%H:%M:%S%z')} cursor-pre-tool-use {type(error).__name__} {ids}\n"
        directory = paths.private_dir(paths.data_dir())
        flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(os.path.join(directory, "debug.log"), flags, 0o600), "a", encoding="utf-8") as handle:
            handle.write(line)
    except Exception:
        pass
