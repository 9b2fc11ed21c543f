"""`tokenjuice.interactive`'s rules for dev servers, watchers, language tools, REPLs and
debuggers (JavaScript, Python, Ruby, PHP, …).

Imported only when a command names one of these tools (`interactive._MORE_RULES`), so the
hook's common case (git, npm, python, pytest, a shell) loads none of it.
"""

from __future__ import annotations

from .argv import basename
from .interactive import (
    _SERVER,
    _WATCH,
    ENDLESS,
    TERMINAL,
    _Context,
    _first_operand,
    _login,
    _scan,
    _script_reason,
    _tool,
    _truthy,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .interactive import Reason, Rule


def _deno(argv: list[str], ctx: _Context) -> Reason | None:
    index, sub = _first_operand(argv, 1)
    if sub is None or sub == "repl":
        if sub is None and (ctx.stdin or _scan(argv).has("-V", "-v")):
            return None
        return TERMINAL, "interactive REPL (deno)" if sub is None else "interactive REPL (deno repl)"
    if sub == "serve":
        return ENDLESS, f"{_SERVER} (deno serve)"
    if sub == "task":
        _, script = _first_operand(argv, index + 1, frozenset({"--cwd", "-c", "--config", "-f", "--filter"}))
        return _script_reason("deno task", script) if script else None
    return None


def _ts_node(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "rP", frozenset({"--require", "--project", "-O", "--compilerOptions"}))
    if name == "tsx" and args.operands[:1] == ["watch"]:
        return ENDLESS, f"{_WATCH} (tsx watch)"
    if args.has("-i", "--interactive"):
        return TERMINAL, f"interactive REPL ({name} -i)"
    if args.operands or args.has("-e", "--eval", "-p", "--print", "-v") or ctx.stdin:
        return None
    return TERMINAL, f"interactive REPL ({name} without a script)"


def _vite(argv: list[str], ctx: _Context) -> Reason | None:
    values = frozenset({"--port", "--host", "--config", "-c", "--mode", "-m", "--base", "--logLevel", "-l", "--outDir"})
    _, sub = _first_operand(argv, 1, values)
    if sub in ("build", "optimize"):
        if sub == "build" and _scan(argv, 1, "cml").on("-w", "--watch"):
            return ENDLESS, f"{_WATCH} (vite build --watch)"
        return None
    return ENDLESS, f"{_SERVER} (vite{' ' + sub if sub in ('dev', 'serve', 'preview') else ''})"


def _vitest(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(
        argv, 1, "crt", frozenset({"--config", "--root", "--dir", "--project", "--reporter", "--testNamePattern"})
    )
    sub = args.operands[0] if args.operands else None
    if args.on("--ui"):
        return ENDLESS, f"{_SERVER} (vitest --ui)"
    if sub in ("run", "list", "init"):
        return None
    if sub in ("watch", "dev"):
        return ENDLESS, f"{_WATCH} (vitest {sub})"
    if args.has("--run") or ("--watch" in args.flags and not args.on("--watch")) or args.has("--no-watch"):
        return None
    if args.on("--watch"):
        return ENDLESS, f"{_WATCH} (vitest --watch)"
    if _truthy(ctx.env.get("CI")):
        return None  # vitest runs once in CI
    return ENDLESS, f"{_WATCH} (vitest without run)"


def _next(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(argv, 1, frozenset({"-p", "--port", "-H", "--hostname"}))
    if sub is None or sub in ("dev", "start"):
        return ENDLESS, f"{_SERVER} (next {sub or 'dev'})"
    return None


def _ng(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("serve", "s", "dev"):
        return ENDLESS, f"{_SERVER} (ng {sub})"
    if sub in ("test", "t"):
        args = _scan(argv, 2)
        if ("--watch" in args.flags and not args.on("--watch")) or args.has("--no-watch"):
            return None
        return ENDLESS, f"{_WATCH} (ng test without --watch=false)"
    return None


def _webpack(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(argv, 1, frozenset({"--config", "-c", "--mode", "--entry", "--env", "-o", "--output-path"}))
    if sub in ("serve", "server", "s"):
        return ENDLESS, f"{_SERVER} (webpack {sub})"
    if _scan(argv, 1, "co").on("-w", "--watch"):
        return ENDLESS, f"{_WATCH} (webpack --watch)"
    return None


def _parcel(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(argv, 1, frozenset({"--dist-dir", "--port", "-p", "--config", "--target", "--public-url"}))
    if sub == "build":
        return None
    if sub == "watch":
        return ENDLESS, f"{_WATCH} (parcel watch)"
    return ENDLESS, f"{_SERVER} (parcel{' serve' if sub == 'serve' else ''})"


def _esbuild(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv)
    if args.has("--serve"):
        return ENDLESS, f"{_SERVER} (esbuild --serve)"
    return None


def _eleventy(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv)
    if args.has("--serve"):
        return ENDLESS, f"{_SERVER} (eleventy --serve)"
    return None


def _react_scripts(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "start":
        return ENDLESS, f"{_SERVER} (react-scripts start)"
    if sub == "test":
        args = _scan(argv, 2)
        if ("--watchAll" in args.flags and not args.on("--watchAll")) or _truthy(ctx.env.get("CI")):
            return None
        return ENDLESS, f"{_WATCH} (react-scripts test)"
    return None


def _karma(argv: list[str], ctx: _Context) -> Reason | None:
    if argv[1:2] == ["start"]:
        args = _scan(argv, 2)
        if args.on("--single-run") or ("--watch" in args.flags and not args.on("--watch")) or args.has("--no-watch"):
            return None
        return ENDLESS, f"{_WATCH} (karma start without --single-run)"
    return None


def _ember(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("serve", "s", "server"):
        return ENDLESS, f"{_SERVER} (ember {sub})"
    if sub in ("test", "t") and _scan(argv, 2).has("--server", "-s"):
        return ENDLESS, f"{_WATCH} (ember test --server)"
    return None


def _remix(argv: list[str], ctx: _Context) -> Reason | None:
    if len(argv) > 1 and argv[1] in ("dev", "vite:dev"):
        return ENDLESS, f"{_SERVER} (remix {argv[1]})"
    return None


def _prisma(argv: list[str], ctx: _Context) -> Reason | None:
    words = [w for w in argv[1:3] if not w.startswith("-")]
    args = _scan(argv, 1, "n", frozenset({"--name", "--schema"}))
    if words[:1] == ["studio"]:
        return ENDLESS, f"{_SERVER} (prisma studio)"
    if words == ["migrate", "dev"] and not args.has("-n", "--name", "--create-only"):
        return TERMINAL, "prompts for a migration name (prisma migrate dev without --name)"
    if words == ["migrate", "reset"] and not args.has("-f", "--force"):
        return TERMINAL, "asks for confirmation (prisma migrate reset without --force)"
    return None


def _storybook(argv: list[str], ctx: _Context) -> Reason | None:
    return (ENDLESS, f"{_SERVER} (storybook dev)") if argv[1:2] in (["dev"], ["start"]) else None


def _ipython(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "cm", stop_at_operand=True)
    if args.has("-i"):
        return TERMINAL, "interactive REPL (ipython -i)"
    if args.has("-c", "-m", "-V") or args.stop < len(argv) or ctx.stdin:
        return None
    return TERMINAL, "interactive REPL (ipython)"


def _django(argv: list[str], ctx: _Context) -> Reason | None:
    """`manage.py <command>`, `django-admin <command>`, `python -m django <command>`."""
    label = "manage.py" if basename(argv[0]) == "manage.py" else _tool(argv[0])
    _, sub = _first_operand(argv, 1, frozenset({"--settings", "--pythonpath", "-v", "--verbosity"}))
    if sub in ("runserver", "runserver_plus", "testserver", "runsslserver", "runmodwsgi"):
        return ENDLESS, f"{_SERVER} ({label} {sub})"
    if sub in ("shell", "shell_plus", "dbshell") and not ctx.stdin:
        if sub != "dbshell" and _scan(argv, 2, "c", frozenset({"--command"})).has("-c", "--command"):
            return None
        return TERMINAL, f"interactive REPL ({label} {sub})"
    noinput = _scan(argv).has("--noinput", "--no-input") or ctx.stdin
    if sub in ("createsuperuser", "collectstatic", "flush") and not noinput:
        return TERMINAL, f"prompts for input ({label} {sub} without --noinput)"
    return None


def _flask(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    _, sub = _first_operand(argv, 1, frozenset({"--app", "-A", "-e", "--env-file"}))
    if sub == "run":
        return ENDLESS, f"{_SERVER} ({name} run)"
    if sub == "shell" and not ctx.stdin:
        return TERMINAL, f"interactive REPL ({name} shell)"
    return None


def _run_subcommand_server(argv: list[str], ctx: _Context) -> Reason | None:
    """fastapi dev/run, litestar run, streamlit run, marimo edit/run, quart run, mlflow ui/server."""
    name = _tool(argv[0])
    _, sub = _first_operand(argv, 1, frozenset({"--app", "-A", "--port", "--host"}))
    if sub in _RUN_SUBCOMMANDS.get(name, ()):
        return ENDLESS, f"{_SERVER} ({name} {sub})"
    return None


_RUN_SUBCOMMANDS = {
    "fastapi": ("dev", "run"),
    "litestar": ("run",),
    "quart": ("run",),
    "streamlit": ("run", "hello"),
    "marimo": ("edit", "run", "tutorial"),
    "mlflow": ("ui", "server"),
}


def _gunicorn(argv: list[str], ctx: _Context) -> Reason | None:
    if _scan(argv, 1, "bcwkt").has("-D", "--daemon", "--check-config", "--print-config"):
        return None
    return ENDLESS, f"{_SERVER} (gunicorn)"


def _jupyter(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("notebook", "lab", "server", "nbclassic", "notebook-server"):
        return ENDLESS, f"{_SERVER} (jupyter {sub})"
    if sub in ("console", "qtconsole") and not _scan(argv, 2).has("--existing-no-stdin"):
        return TERMINAL, f"interactive REPL (jupyter {sub})"
    return None


def _celery(argv: list[str], ctx: _Context) -> Reason | None:
    values = frozenset({"-A", "--app", "-b", "--broker", "--result-backend", "--workdir", "--config"})
    _, sub = _first_operand(argv, 1, values)
    if sub in ("worker", "beat", "flower", "events", "multi-start"):
        return ENDLESS, f"worker that runs until stopped (celery {sub})"
    if sub == "shell" and not ctx.stdin:
        return TERMINAL, "interactive REPL (celery shell)"
    return None


def _rq(argv: list[str], ctx: _Context) -> Reason | None:
    if argv[1:2] == ["worker"] and not _scan(argv, 2).has("-b", "--burst"):
        return ENDLESS, "worker that runs until stopped (rq worker)"
    return None


def _poetry(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "CP", frozenset({"--directory", "--project"}))
    sub = args.operands[0] if args.operands else None
    if sub == "shell":
        return TERMINAL, "interactive shell (poetry shell)"
    if sub == "init" and not args.has("-n", "--no-interaction") and not ctx.stdin:
        return TERMINAL, "prompts for answers (poetry init without -n)"
    return None


def _pip(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    _, sub = _first_operand(argv, 1, frozenset({"--python", "--log", "--proxy", "--cache-dir"}))
    if sub == "uninstall" and not _scan(argv, 1, "r").has("-y", "--yes") and not ctx.stdin:
        return TERMINAL, f"asks for confirmation ({name} uninstall without -y)"
    return None


def _conda(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    sub = argv[1] if len(argv) > 1 else None
    prompting = ("install", "create", "remove", "uninstall", "update", "upgrade")
    if sub in prompting and not _scan(argv, 2, "npc", frozenset({"--name", "--prefix", "--channel", "--file"})).has(
        "-y", "--yes"
    ):
        if _truthy(ctx.env.get("CONDA_ALWAYS_YES")) or ctx.stdin:
            return None
        return TERMINAL, f"asks for confirmation ({name} {sub} without -y)"
    return None


# -- Ruby, PHP, Elixir, and other servers ---------------------------------------------


def _rails(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("s", "server"):
        return ENDLESS, f"{_SERVER} (rails {sub})"
    if sub in ("c", "console", "dbconsole", "db") and not ctx.stdin:
        return TERMINAL, f"interactive REPL (rails {sub})"
    if sub and sub.endswith(":edit"):
        return TERMINAL, f"opens an editor (rails {sub})"
    return None


def _php(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "SdfrtcBREFz", stop_at_operand=True)
    if args.has("-S"):
        return ENDLESS, f"{_SERVER} (php -S)"
    if args.has("-a"):
        return TERMINAL, "interactive REPL (php -a)"
    if args.stop < len(argv) and basename(argv[args.stop]) == "artisan":
        return _artisan(argv[args.stop :], ctx)
    return None


def _artisan(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "serve":
        return ENDLESS, f"{_SERVER} (php artisan serve)"
    if sub == "tinker" and not ctx.stdin:
        return TERMINAL, "interactive REPL (php artisan tinker)"
    if sub in ("queue:work", "queue:listen", "schedule:work", "horizon", "octane:start", "reverb:start", "pail"):
        return ENDLESS, f"worker that runs until stopped (php artisan {sub})"
    return None


def _symfony(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("serve", "server:start", "local:server:start") and not _scan(argv, 2).has("-d", "--daemon"):
        return ENDLESS, f"{_SERVER} (symfony {sub})"
    return None


def _mix(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "phx.server":
        return ENDLESS, f"{_SERVER} (mix phx.server)"
    if sub == "test.watch":
        return ENDLESS, f"{_WATCH} (mix test.watch)"
    return None


def _hugo(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(
        argv, 1, frozenset({"-s", "--source", "-d", "--destination", "--config", "-b", "--baseURL"})
    )
    if sub in ("server", "serve"):
        return ENDLESS, f"{_SERVER} (hugo {sub})"
    if _scan(argv, 1, "sdbcep").on("-w", "--watch"):
        return ENDLESS, f"{_WATCH} (hugo --watch)"
    return None


def _jekyll(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("serve", "s", "server"):
        return ENDLESS, f"{_SERVER} (jekyll {sub})"
    if _scan(argv, 2, "sdc").on("-w", "--watch"):
        return ENDLESS, f"{_WATCH} (jekyll --watch)"
    return None


def _caddy(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("run", "file-server", "reverse-proxy", "respond"):
        return ENDLESS, f"server that runs until stopped (caddy {sub})"
    return None


def _iperf(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "pcitlnbBfFkPwAT")
    if args.has("-s", "--server") and not args.has("-1", "--one-off"):
        return ENDLESS, "server that runs until stopped (iperf -s)"
    return None


def _server_unless_daemon(argv: list[str], ctx: _Context) -> Reason | None:
    """mongod --fork, memcached -d, postgres/mysqld in the foreground."""
    name = _tool(argv[0])
    if _scan(argv, 1, "Dpcu").has("--fork", "-d", "--daemonize", "--version", "-V"):
        return None
    return ENDLESS, f"server that runs until stopped ({name})"


def _flutter(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("run", "attach"):
        return TERMINAL, f"runs the app until stopped (flutter {sub})"
    if sub == "logs":
        return ENDLESS, "follows output forever (flutter logs)"
    return None


def _dotnet(argv: list[str], ctx: _Context) -> Reason | None:
    return (ENDLESS, f"{_WATCH} (dotnet watch)") if argv[1:2] == ["watch"] else None


def _cargo(argv: list[str], ctx: _Context) -> Reason | None:
    words = [w for w in argv[1:4] if not w.startswith("-")]
    if words[:1] == ["watch"]:
        return ENDLESS, f"{_WATCH} (cargo watch)"
    if words[:1] == ["login"] and not ctx.stdin:
        return _login("cargo", argv, argv.index("login") + 1)
    if words[:2] in (["leptos", "watch"], ["leptos", "serve"], ["tauri", "dev"], ["shuttle", "run"]):
        return ENDLESS, f"{_SERVER} (cargo {' '.join(words[:2])})"
    return None


def _sbt(argv: list[str], ctx: _Context) -> Reason | None:
    commands = [w for w in argv[1:] if not w.startswith("-")]
    if any(w.startswith("~") for w in commands):
        return ENDLESS, f"{_WATCH} (sbt ~)"
    if (not commands or commands[0] in ("shell", "console")) and not ctx.stdin:
        return TERMINAL, "interactive shell (sbt without a command)"
    return None


def _gradle(argv: list[str], ctx: _Context) -> Reason | None:
    if _scan(argv, 1, "pbcDPI").has("-t", "--continuous"):
        return ENDLESS, f"{_WATCH} ({_tool(argv[0])} --continuous)"
    return None


def _latexmk(argv: list[str], ctx: _Context) -> Reason | None:
    return (ENDLESS, f"{_WATCH} (latexmk -pvc)") if "-pvc" in argv[1:] else None


def _dlv(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("debug", "exec", "attach", "test", "core", "connect", "replay", "trace"):
        if "--headless" in argv:
            return ENDLESS, f"debug server that runs until stopped (dlv {sub} --headless)"
        return TERMINAL, f"interactive debugger (dlv {sub})"
    return None


def _gdb(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if {"-batch", "--batch", "-b", "--version", "-version", "-configuration"} & set(argv[1:]):
        return None
    return TERMINAL, f"interactive debugger ({name} without --batch)"


def _perl(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "eE", attached="lI0MmxCiD", stop_at_operand=True)
    if args.has("-d"):
        return TERMINAL, "interactive debugger (perl -d)"
    return None


def _ruby(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "eIrECFT0x", stop_at_operand=True)
    if args.has("-e", "-v", "-c", "-n", "-p") or args.stop < len(argv) or ctx.stdin:
        return None
    return TERMINAL, "reads a program from the terminal (ruby without a script)"


def _irb(argv: list[str], ctx: _Context) -> Reason | None:
    if ctx.stdin or _scan(argv, 1, "rI").has("-v"):
        return None
    return TERMINAL, "interactive REPL (irb)"


def _repl(
    ok: tuple[str, ...], short_values: str = "", interactive: tuple[str, ...] = ("-i",), scripts: bool = True
) -> Rule:
    """A REPL unless given one of `ok` (-e code, -f file, --version) or, if `scripts`, a script
    (ghci and jshell load a file and then stay interactive)."""

    def rule(argv: list[str], ctx: _Context) -> Reason | None:
        name = _tool(argv[0])
        args = _scan(argv, 1, short_values, stop_at_operand=True)
        if args.has(*interactive):
            return TERMINAL, f"interactive REPL ({name} {interactive[0]})"
        if args.has(*ok) or (scripts and args.stop < len(argv)) or ctx.stdin:
            return None
        return TERMINAL, f"interactive REPL ({name} without a script)" if scripts else f"interactive REPL ({name})"

    return rule


def _erl(argv: list[str], ctx: _Context) -> Reason | None:
    if {"-noshell", "-detached", "-noinput", "-version"} & set(argv[1:]) or ctx.stdin:
        return None
    return TERMINAL, "interactive REPL (erl)"


def _r(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "ef", frozenset({"--file"}), stop_at_operand=True)
    if args.has("-e", "-f", "--file") or args.stop < len(argv) or ctx.stdin:
        return None  # R -e, R -f x.R, R CMD …
    return TERMINAL, "interactive REPL (R)"


def _swipl(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "gtfFlsxpo")
    if args.has("-g", "-t") or ctx.stdin:
        return None
    return TERMINAL, "interactive REPL (swipl)"


def _sbcl(argv: list[str], ctx: _Context) -> Reason | None:
    if {"--script", "--non-interactive"} & set(argv[1:]) or ctx.stdin:
        return None
    return TERMINAL, "interactive REPL (sbcl)"


def _clojure(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if len(argv) > 1 or ctx.stdin:
        return None
    return TERMINAL, f"interactive REPL ({name})"


def _lein(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "repl":
        return TERMINAL, "interactive REPL (lein repl)"
    if sub == "ring" and argv[2:3] == ["server"]:
        return ENDLESS, f"{_SERVER} (lein ring server)"
    return None


def _stack_cabal(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    sub = next((w for w in argv[1:] if not w.startswith("-")), None)
    if sub in ("repl", "ghci", "v2-repl") and not ctx.stdin:
        return TERMINAL, f"interactive REPL ({name} {sub})"
    if name == "stack" and "--file-watch" in argv:
        return ENDLESS, f"{_WATCH} (stack --file-watch)"
    return None


def _ollama(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "serve":
        return ENDLESS, "server that runs until stopped (ollama serve)"
    if sub == "run":
        args = _scan(argv, 2, "", frozenset({"--format", "--keepalive"}))
        if len(args.operands) < 2 and not ctx.stdin:
            return TERMINAL, "interactive chat (ollama run without a prompt)"
    return None


def _task_runner(argv: list[str], ctx: _Context) -> Reason | None:
    """turbo run dev, turbo dev, nx serve web, nx run web:serve, nx dev web, lerna run dev."""
    name = _tool(argv[0])
    index, sub = _first_operand(argv, 1, frozenset({"--filter", "-F", "--cwd", "--scope", "--concurrency"}))
    if sub is None:
        return None
    if sub == "run" or (sub == "run-many" and name == "nx"):
        _, task = _first_operand(argv, index + 1, frozenset({"--filter", "-F", "--scope", "-t", "--target"}))
        if task is None and sub == "run-many":
            values = [w.partition("=")[2] for w in argv if w.startswith(("--target=", "-t="))]
            task = values[0] if values else (argv[argv.index("-t") + 1] if "-t" in argv[:-1] else None)
        if task:
            found = _script_reason(f"{name} {sub}", task.rpartition(":")[2])
            return (found[0], f"{found[1].rpartition('(')[0]}({name} {sub} {task})") if found else None
        return None
    if name == "lerna":
        return None
    return _script_reason(name, sub)


RULES: dict[str, Rule] = {
    "deno": _deno,
    "ts-node": _ts_node,
    "tsx": _ts_node,
    "vite": _vite,
    "vitest": _vitest,
    "next": _next,
    "ng": _ng,
    "webpack": _webpack,
    "webpack-cli": _webpack,
    "parcel": _parcel,
    "esbuild": _esbuild,
    "eleventy": _eleventy,
    "react-scripts": _react_scripts,
    "karma": _karma,
    "ember": _ember,
    "remix": _remix,
    "prisma": _prisma,
    "storybook": _storybook,
    "ipython": _ipython,
    "ipython3": _ipython,
    "manage.py": _django,
    "django-admin": _django,
    "django": _django,
    "flask": _flask,
    "quart": _flask,
    "fastapi": _run_subcommand_server,
    "litestar": _run_subcommand_server,
    "streamlit": _run_subcommand_server,
    "marimo": _run_subcommand_server,
    "mlflow": _run_subcommand_server,
    "gunicorn": _gunicorn,
    "jupyter": _jupyter,
    "celery": _celery,
    "rq": _rq,
    "poetry": _poetry,
    "pip": _pip,
    "pip3": _pip,
    "conda": _conda,
    "mamba": _conda,
    "micromamba": _conda,
    "rails": _rails,
    "php": _php,
    "artisan": _artisan,
    "symfony": _symfony,
    "mix": _mix,
    "hugo": _hugo,
    "jekyll": _jekyll,
    "caddy": _caddy,
    "iperf": _iperf,
    "iperf3": _iperf,
    "mongod": _server_unless_daemon,
    "postgres": _server_unless_daemon,
    "mysqld": _server_unless_daemon,
    "flutter": _flutter,
    "dotnet": _dotnet,
    "cargo": _cargo,
    "sbt": _sbt,
    "gradle": _gradle,
    "gradlew": _gradle,
    "latexmk": _latexmk,
    "dlv": _dlv,
    "gdb": _gdb,
    "lldb": _gdb,
    "perl": _perl,
    "ruby": _ruby,
    "irb": _irb,
    "lua": _repl(("-e", "-v"), "el"),
    "luajit": _repl(("-e", "-v"), "el"),
    "julia": _repl(("-e", "-E", "--eval", "--print", "-v"), "eELtpJC"),
    "ghci": _repl(("-e",), "e", scripts=False),
    "racket": _repl(("-e", "-f", "-t", "-l", "-r", "-v"), "eftlr"),
    "guile": _repl(("-c", "-s", "-v"), "cs"),
    "ocaml": _repl(("-version", "-vnum"), "I"),
    "jshell": _repl(("--version",), "", scripts=False),
    "kotlinc": _repl(("-e", "-script", "-version"), "d"),
    "kotlin": _repl(("-e", "-version"), ""),
    "scala": _repl(("-e", "-version"), ""),
    "erl": _erl,
    "R": _r,
    "swipl": _swipl,
    "sbcl": _sbcl,
    "clj": _clojure,
    "clojure": _clojure,
    "lein": _lein,
    "stack": _stack_cabal,
    "cabal": _stack_cabal,
    "ollama": _ollama,
    "pyspark": _repl(("--version",), ""),
    "turbo": _task_runner,
    "nx": _task_runner,
    "lerna": _task_runner,
}
