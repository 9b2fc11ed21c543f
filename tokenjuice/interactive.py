"""Commands that must never be wrapped: they never end, or they need the terminal.

`tokenjuice wrap` holds a command's output until it exits and gives the command a
pipe instead of the terminal. That is wrong for a dev server or `tail -f` (the
output never comes back), for an editor, pager, REPL or prompt (it waits for a
terminal the agent cannot see), and for detached jobs (they keep the pipe open).
The host hooks ask `why_not_wrapped` about each simple command before rewriting it.

Detection reads argv, not text: flags anywhere and in any form (`-n20 -f`, `-fn`,
`--follow=name`), subcommands behind global options (`git -C x commit`,
`kubectl -n prod logs -f`, `pnpm --filter web dev`), and what wrappers and
runners run (`sudo`, `env A=1`, `time`, `npx`, `pnpm exec`, `uv run`, `python -m`,
`bash -lc '…'`, `ssh host '…'`, `docker exec c …`). `timeout N cmd` ends, so a
command that would only run forever is fine behind it; one that needs a terminal
is not. docs/never-wrapped.md lists every case and the near-misses that are wrapped.

This runs on every hook call: stdlib only (no `re`), tables and small functions.
The rules for the most common tools live here; the long tail lives in
interactive_dev.py, interactive_system.py and interactive_ops.py, each imported
only when a command names one of its tools.
"""

from __future__ import annotations

from .argv import (
    GLOBAL_VALUE_OPTIONS,
    OWN_COMMANDS,
    RUNNERS,
    SHELLS,
    WRAPPERS,
    basename,
    is_python,
    launcher_body,
    strip_runner,
)
from .shellsyntax import join, parse, star_match

TYPE_CHECKING = False  # `typing` costs milliseconds to import; type checkers know this name
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    Reason = tuple[str, str]
    Rule = Callable[[list[str], "_Context"], Reason | None]

__all__ = ["matches_user_pattern", "why_not_wrapped", "why_not_wrapped_script"]

#: Kinds of reason. `timeout N …` makes an ENDLESS command end; nothing helps the others.
ENDLESS = "endless"  # runs until stopped: servers, watchers, followers
TERMINAL = "terminal"  # needs the terminal: editors, pagers, REPLs, prompts, TUIs
DETACHED = "detached"  # leaves a process behind that keeps the output pipe open

_MAX_DEPTH = 6
_EMPTY: frozenset[str] = frozenset()
_FALSE = frozenset({"false", "0", "no", "off", "never"})
_EDITORS = frozenset(
    {"vi", "vim", "nvim", "view", "vimdiff", "gvim", "nano", "pico", "emacs", "emacsclient", "micro", "hx", "helix"}
    | {"kak", "joe", "jed", "mcedit", "ne", "code", "cursor", "subl", "mate", "zed", "gedit", "kate", "notepad"}
)
_PAGERS = frozenset({"less", "more", "most", "pg"})


class _Context:
    """What the words around a command say about how it runs."""

    __slots__ = ("bounded", "depth", "env", "stdin")

    def __init__(self, stdin: bool = False, bounded: bool = False, depth: int = 0, env: dict[str, str] | None = None):
        self.stdin = stdin  # its standard input is a pipe, file or here-doc, not the terminal
        self.bounded = bounded  # `timeout N` stops it
        self.depth = depth
        self.env = env or {}

    def inner(self, stdin: bool | None = None) -> _Context:
        """The context of a command another one runs (`ssh host cmd`, `docker exec c cmd`)."""
        return _Context(self.stdin if stdin is None else stdin, self.bounded, self.depth + 1, dict(self.env))


# -- public API ------------------------------------------------------------------------


def why_not_wrapped(argv: Sequence[str], *, stdin_supplied: bool = False) -> str | None:
    """A short human reason (e.g. "follows output forever (tail -f)", "dev server (npm run dev)",
    "opens an editor (git commit without -m)") when the command (one simple command's argv, after
    wrappers/runners like sudo, env, npx, uv run, pnpm exec, python -m are understood) is interactive
    or long-running; None when it is safe to wrap.

    Pass the simple command's own words, assignments and wrappers included (`GIT_EDITOR=true`,
    `nohup`, `timeout 10` all change the answer). `stdin_supplied`: its standard input comes from a
    pipe, a file or a here-doc (`… | psql`, `sqlite3 db < x.sql`), so a REPL or prompt reads that
    and ends; editors, pagers and TUIs still need the terminal."""
    found = _check([w for w in argv if isinstance(w, str)], _Context(stdin=stdin_supplied))
    return found[1] if found else None


def why_not_wrapped_script(command: str, dialect: str = "posix", *, waited: bool = False) -> str | None:
    """`why_not_wrapped` for a whole command line: every simple command of every pipeline,
    with its stdin taken from the syntax (a later pipe stage, `<`, `<<`, `<<<`), shell
    launchers' bodies (`bash -lc '…'`) looked into, and a background job (`cmd &`) or an
    endless loop (`while true`) reported too — but for `waited` lines, whose background
    jobs a `wait` at the end collects (`a & b & wait`): there each job is judged itself."""
    found = _script(command, dialect, _Context(), waited)
    return found[1] if found else None


def matches_user_pattern(command_text: str, argv: Sequence[str], patterns: Sequence[str]) -> str | None:
    """User-configured extra patterns (glob over the normalized command text, `*` = any run of chars,
    as today) — returns the pattern that matched.

    A pattern matches the whole command text, or the argv written back as a command line (also with
    the program's directory dropped: `make deploy*` matches `/usr/bin/make deploy`). Matching is
    case-sensitive; blank patterns never match."""
    targets = [command_text.strip()]
    words = [w for w in argv if isinstance(w, str)]
    if words:
        targets.append(join(words))
        if basename(words[0]) != words[0]:
            targets.append(join([basename(words[0]), *words[1:]]))
    targets = [t for t in targets if t]
    for pattern in patterns:
        glob = pattern.strip() if isinstance(pattern, str) else ""
        if glob and any(glob_match(target, glob) for target in targets):
            return pattern  # as configured, surrounding blanks and all
    return None


def glob_match(text: str, pattern: str) -> bool:
    """Does `pattern`, where `*` stands for any run of characters, match all of `text`?"""
    return star_match(text, pattern.split("*"))


# -- driver ----------------------------------------------------------------------------


def _script(source: str, dialect: str, ctx: _Context, waited: bool = False) -> Reason | None:
    if ctx.depth > _MAX_DEPTH or not source.strip():
        return None
    pipelines, _ = parse(source, dialect)
    for pipeline in pipelines:
        if pipeline.op == "&" and not waited:
            return DETACHED, f"runs in the background ({_short(pipeline.text)} &)"
        for position, command in enumerate(pipeline.commands):
            argv = command.argv
            while argv and argv[0] in _LEADING_KEYWORDS:
                argv = argv[1:]
            if not argv or argv[0] in _BLOCK_KEYWORDS:
                continue
            if command.argv[0] in ("while", "until") and _loops_forever(command.argv):
                return ENDLESS, f"loops forever ({' '.join(command.argv)})"
            # a loop condition (`while read line; do …; done < file`) reads what the loop is given
            condition = command.argv[0] in ("while", "until")
            stdin = ctx.stdin or condition or position > 0 or any(_reads_stdin(r.value) for r in command.redirects)
            found = _check(argv, _Context(stdin, ctx.bounded, ctx.depth, dict(ctx.env)))
            if found and not (found[0] == ENDLESS and ctx.bounded):
                return found
    return None


_LEADING_KEYWORDS = frozenset({"do", "then", "else", "elif", "if", "while", "until", "!", "{", "begin"})
_BLOCK_KEYWORDS = frozenset({"for", "case", "select", "function", "done", "fi", "esac", "end", "}", "switch"})


def _loops_forever(argv: list[str]) -> bool:
    condition = argv[1:]
    if argv[0] == "until":
        return condition == ["false"]
    return condition in (["true"], [":"]) or (condition[:1] == ["sleep"] and len(condition) == 2)


def _reads_stdin(redirect: str) -> bool:
    """Does this redirection operator (`<`, `0<`, `<<`, `<<<`, `<&`) feed standard input?"""
    operator = redirect.lstrip("0123456789")
    return operator.startswith("<") and redirect[: len(redirect) - len(operator)] in ("", "0")


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "…"


def _check(argv: list[str], ctx: _Context) -> Reason | None:
    """The reason for one simple command, wrappers and runners included."""
    if ctx.depth > _MAX_DEPTH:
        return None
    peeled = _peel(argv, ctx)
    if isinstance(peeled, tuple):
        return peeled
    argv = peeled
    for _ in range(_MAX_DEPTH):
        if not argv:
            return None
        found = _dispatch(argv, ctx)
        if found:
            return None if found[0] == ENDLESS and ctx.bounded else found
        stripped = _strip_runner(argv)
        if not stripped or stripped == argv:
            return None
        peeled = _peel(stripped, ctx)
        if isinstance(peeled, tuple):
            return peeled
        argv = peeled
    return None


def _peel(argv: list[str], ctx: _Context) -> list[str] | Reason:
    """Drop assignments and wrappers from the front (noting `A=1` and `timeout`), or the
    reason when a wrapper itself keeps the command from being wrapped (`nohup`, `sudo -i`)."""
    index = 0
    while index < len(argv):
        word = argv[index]
        name, sep, value = word.partition("=")
        if sep and name and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum():
            ctx.env[name] = value
            index += 1
            continue
        if index == 0 and word in ("!", "and", "or", "not"):
            index += 1
            continue
        tool = basename(word)
        if tool in ("nohup", "setsid"):
            args = _scan(argv, index + 1, stop_at_operand=True)
            if args.stop < len(argv):
                return DETACHED, f"keeps running after the shell exits ({tool})"
            return argv[index:]
        if tool == "sudo":
            args = _scan(argv, index + 1, _SUDO_SHORT, _SUDO_LONG, stop_at_operand=True)
            if args.has("-e", "--edit"):
                return TERMINAL, "opens an editor (sudo -e)"
            if args.stop >= len(argv):
                if args.has("-i", "--login", "-s", "--shell") and not ctx.stdin:
                    return TERMINAL, f"interactive shell (sudo {'-i' if args.has('-i', '--login') else '-s'})"
                return argv[index:]
            index = args.stop
            continue
        if tool in ("timeout", "gtimeout"):
            args = _scan(argv, index + 1, "ks", frozenset({"--kill-after", "--signal"}), stop_at_operand=True)
            if args.stop + 1 >= len(argv):
                return argv[index:]
            ctx.bounded = True
            index = args.stop + 1
            continue
        if tool in WRAPPERS or tool in _EXTRA_WRAPPERS:
            short, long = _WRAPPER_OPTIONS.get(tool, ("", _EMPTY))
            args = _scan(argv, index + 1, short, long, stop_at_operand=True)
            if args.stop >= len(argv) or (tool == "command" and args.has("-v", "-V")):
                return argv[index:]  # the wrapper alone (`env`, `time`) is itself the command
            index = args.stop
            continue
        break
    return argv[index:]


def _wrapper_options(options: frozenset[str]) -> tuple[str, frozenset[str]]:
    short = "".join(o[1] for o in options if len(o) == 2 and o[0] == "-")
    return short, frozenset(o for o in options if o.startswith("--"))


_EXTRA_WRAPPERS = frozenset({"xvfb-run", "chronic", "unbuffer"})
_WRAPPER_OPTIONS = {name: _wrapper_options(options) for name, options in WRAPPERS.items()}
_WRAPPER_OPTIONS["xvfb-run"] = (
    "nsfewp",
    frozenset({"--server-num", "--server-args", "--error-file", "--xauth-protocol"}),
)
_SUDO_SHORT, _SUDO_LONG = _WRAPPER_OPTIONS["sudo"]


def _strip_runner(argv: list[str]) -> list[str] | None:
    """What a runner runs: tokenjuice.command's runners, and a few more that take `--`."""
    name = _tool(argv[0])
    if name in _DASHDASH_RUNNERS and (len(argv) > 1 and argv[1] in _DASHDASH_RUNNERS[name]):
        if "--" in argv:
            return argv[argv.index("--") + 1 :]
        return argv[_scan(argv, 2, stop_at_operand=True).stop :]
    if name in ("conda", "mamba", "micromamba") and argv[1:2] == ["run"]:
        return argv[_scan(argv, 2, "np", frozenset({"--name", "--prefix", "--cwd"}), stop_at_operand=True).stop :]
    if name == "pipenv" and argv[1:2] == ["run"]:
        return argv[2:]
    if name == "cross-env":
        rest = argv[1:]
        while rest and "=" in rest[0] and not rest[0].startswith("-"):
            rest = rest[1:]
        return rest
    return strip_runner(argv)


#: Runners whose command follows `--` (or their options): tool -> their run subcommands.
_DASHDASH_RUNNERS = {
    "op": ("run",),
    "doppler": ("run",),
    "infisical": ("run",),
    "dotenvx": ("run",),
    "mise": ("exec", "x"),
    "aws-vault": ("exec",),
    "devbox": ("run",),
}


# -- option scanning -------------------------------------------------------------------


class _Args:
    """Options and operands of a command line, as `_scan` read them."""

    __slots__ = ("flags", "operands", "stop")

    def __init__(self) -> None:
        self.flags: dict[str, str] = {}  # "-f" / "--follow" -> its value ("" if none)
        self.operands: list[str] = []
        self.stop = 0  # with stop_at_operand: index of the first operand (len(argv) if none)

    def has(self, *names: str) -> bool:
        return any(name in self.flags for name in names)

    def on(self, *names: str) -> bool:
        """Given and not switched off (`--watch`, not `--watch=false`)."""
        return any(name in self.flags and self.flags[name].lower() not in _FALSE for name in names)


def _scan(
    argv: Sequence[str],
    start: int = 1,
    short_values: str = "",
    long_values: frozenset[str] = _EMPTY,
    *,
    attached: str = "",
    stop_at_operand: bool = False,
) -> _Args:
    """Read options the getopt way: `-abc` is `-a -b -c`, a short option that takes a value
    takes the rest of its word or the next word (`-n20`, `-n 20`, `-fn 20`), and
    `--long=value` or `--long value` (for `long_values`). `attached` short options take
    only the rest of their word (`mysql -pSECRET`, but `-p` alone asks). `--` ends options."""
    args = _Args()
    index, count = start, len(argv)
    while index < count:
        word = argv[index]
        if word == "--":
            if stop_at_operand:
                args.stop = index + 1
                return args
            args.operands.extend(argv[index + 1 :])
            break
        if word.startswith("--"):
            name, eq, value = word.partition("=")
            if not eq and name in long_values and index + 1 < count:
                index += 1
                value = argv[index]
            args.flags[name] = value
        elif word.startswith("-") and len(word) > 1:
            for position in range(1, len(word)):
                letter = word[position]
                if letter in attached:
                    args.flags["-" + letter] = word[position + 1 :]
                    break
                if letter in short_values:
                    value = word[position + 1 :]
                    if not value and index + 1 < count:
                        index += 1
                        value = argv[index]
                    args.flags["-" + letter] = value
                    break
                args.flags["-" + letter] = ""
        elif stop_at_operand:
            args.stop = index
            return args
        else:
            args.operands.append(word)
        index += 1
    args.stop = count
    return args


def _tool(word: str) -> str:
    """The program a word names: `/usr/bin/git` -> `git`, `create-vite@latest` -> `create-vite`,
    `@scope/cli@2` -> `cli`."""
    name = basename(word)
    at = name.find("@", 1)
    return name[:at] if at > 0 else name


def _first_operand(argv: Sequence[str], start: int, values: frozenset[str] = _EMPTY) -> tuple[int, str | None]:
    """(index, word) of the first word from `start` that is not an option or an option's value."""
    index = start
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return (index + 1, argv[index + 1]) if index + 1 < len(argv) else (index + 1, None)
        if not word.startswith("-") or word == "-":
            return index, word
        index += 2 if word in values else 1
    return index, None


def _truthy(value: str | None) -> bool:
    return value is not None and value.strip().lower() not in _FALSE and value.strip() != ""


def _scripted_editor(value: str | None) -> bool:
    """An editor variable set to a command that needs no terminal (`true`, `sed -i …`)."""
    if value is None or not value.strip():
        return False
    return _tool(value.split()[0]) not in _EDITORS


# -- dispatch --------------------------------------------------------------------------


def _dispatch(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if _asks_for_help(argv):
        return None
    rule = _RULES.get(name)
    if rule is None:
        home = _MORE_RULES.get(name)
        if home is not None:
            rule = _more_rules(home)[name]
        elif is_python(name):
            rule = _python
        elif name in SHELLS or name in _MORE_SHELLS:
            rule = _shell
        elif name.startswith("create-"):
            rule = _create
    if rule is not None:
        found = rule(argv, ctx)
        if found or name in _NO_GENERIC:
            return found
        return _watch_flags(name, argv)  # its rule knows its subcommands; `--watch` still means watch
    simple = _SIMPLE.get(name)
    if simple:
        return simple[0], f"{simple[1]} ({name})"
    if name in _NO_GENERIC or name in _OPERAND_TOOLS:
        return None
    return _watch_flags(name, argv) or _subcommand(name, argv)


def _asks_for_help(argv: list[str]) -> bool:
    """`--help` / `--version` anywhere before `--`, or `-h` alone: prints and exits."""
    if len(argv) == 2 and argv[1] in ("-h", "-?", "-help", "-version"):
        return True
    for word in argv[1:]:
        if word == "--":
            return False
        if word in ("--help", "--version"):
            return True
    return False


def _watch_flags(name: str, argv: list[str]) -> Reason | None:
    """`--watch` (not `--watch=false`) on any tool; `-w` where the tool means watch by it."""
    args = _scan(argv)
    for flag in ("--watch", "--watchAll", "--watch-all"):
        if args.on(flag):
            return ENDLESS, f"{_WATCH} ({name} {flag})"
    if name in _SHORT_W_WATCH and args.has("-w"):
        return ENDLESS, f"{_WATCH} ({name} -w)"
    return None


def _subcommand(name: str, argv: list[str]) -> Reason | None:
    """A `watch` / `dev` / `serve` subcommand of a tool without a rule of its own (`cargo watch`,
    `wrangler dev`, `mkdocs serve`, `make dev`), and `login` / `auth login`."""
    sub = argv[1] if len(argv) > 1 else ""
    if sub == "watch":
        return ENDLESS, f"{_WATCH} ({name} watch)"
    if sub == "dev":
        return ENDLESS, f"{_SERVER} ({name} dev)"
    if sub == "serve" and (len(argv) == 2 or argv[2] not in _SERVE_VERBS):
        return ENDLESS, f"{_SERVER} ({name} serve)"
    if sub in ("server", "s") and name in _SERVER_SUBCOMMAND:
        return ENDLESS, f"{_SERVER} ({name} {sub})"
    if sub in _START_SUBCOMMAND.get(name, ()):
        return ENDLESS, f"{_SERVER} ({name} {sub})"
    if sub == "login" or (sub == "auth" and argv[2:3] == ["login"]):
        return _login(name, argv, 2 if sub == "login" else 3)
    return None


#: Tools whose `-w` means watch (elsewhere `grep -w`, `wc -w`, `ls -w 80`, `jest -w 4` do not).
_SHORT_W_WATCH = frozenset(
    {"tsc", "mocha", "rollup", "sass", "tailwindcss", "postcss", "babel", "swc", "pyright", "ava", "coffee"}
    | {"stylus", "dune", "rescript", "tsup", "tap"}
)
#: `<tool> serve <verb>` manages a server rather than running one (`tailscale serve status`).
_SERVE_VERBS = frozenset({"status", "reset", "list", "ls", "off", "stop", "help", "get", "show"})
#: Tools whose `server` (or `s`) subcommand runs a server (`openstack server list` does not).
_SERVER_SUBCOMMAND = frozenset({"hexo", "vault", "minio", "json-server", "mlflow"})
#: Tools whose `start` / `develop` / `preview` subcommand runs a server (`docker start` does not).
_START_SUBCOMMAND: dict[str, tuple[str, ...]] = {
    "expo": ("start",),
    "react-native": ("start",),
    "docusaurus": ("start",),
    "electron-forge": ("start",),
    "func": ("start",),
    "thin": ("start",),
    "foreman": ("start",),
    "overmind": ("start",),
    "honcho": ("start",),
    "passenger": ("start",),
    "strapi": ("develop", "start"),
    "medusa": ("develop", "start"),
    "gatsby": ("develop",),
    "astro": ("preview",),
    "nuxt": ("preview", "start"),
    "nuxi": ("preview", "start"),
    "vitepress": ("preview",),
    "remix-serve": ("start",),
    "localstack": ("start",),
}
#: Runners (their command is looked at instead) and tools whose rule is the whole story:
#: no generic `--watch` / `dev` / `login` reading for them.
_NO_GENERIC = frozenset(
    {prefix[0] for prefix in RUNNERS}
    | {"gh", "watchman", "kubectl", "oc", "git", "ssh", "autossh", "conda", "mamba", "micromamba", "pipenv"}
    | {"cross-env", "env-cmd", "dotenv", "op", "doppler", "infisical", "dotenvx", "aws-vault", "xargs"}
)
#: Tools whose first argument is a file, host or the like: `ls dev`, `cat serve`, `rm -r watch`
#: are not subcommands.
_OPERAND_TOOLS = frozenset(
    {"ls", "cat", "cd", "mkdir", "rmdir", "touch", "ln", "chmod", "chown", "chgrp", "stat", "file", "du", "df"}
    | {"find", "fd", "grep", "egrep", "fgrep", "rg", "ag", "ack", "head", "wc", "sort", "uniq", "diff", "cmp"}
    | {"comm", "tar", "zip", "unzip", "gzip", "gunzip", "bzip2", "xz", "zstd", "echo", "printf", "test", "["}
    | {"scp", "rsync", "curl", "wget", "http", "https", "open", "xdg-open", "realpath", "readlink", "basename"}
    | {"dirname", "tree", "bat", "batcat", "jq", "yq", "sed", "awk", "gawk", "cut", "tr", "paste", "which"}
    | {"type", "whereis", "kill", "pkill", "pgrep", "killall", "host", "dig", "nslookup", "traceroute", "tee"}
    | {"truncate", "install", "mount", "umount", "source", ".", "pushd", "export", "unset", "alias", "date"}
    | {"md5sum", "sha1sum", "sha256sum", "shasum", "cksum", "base64", "xxd", "hexdump", "od", "strings", "nl"}
    | {"tac", "fold", "fmt", "column", "iconv", "split", "join", "shuf", "seq", "expr", "mktemp", "lsof", "ps"}
    | {"unlink", "dd", "mkfifo", "shred", "cmake", "ninja", "tmuxp", "id", "groups", "getent", "printenv"}
)


# -- one-word tables -------------------------------------------------------------------

_TUI = "full-screen terminal UI"
_MONITOR = "live monitor"
_SERVER = "dev server"
_WATCH = "watch mode"

#: Programs that are what they are whatever their arguments (but --help/--version).
_SIMPLE: dict[str, tuple[str, str]] = {}
for _names, _entry in (
    (
        ("htop", "btop", "bpytop", "gtop", "nvtop", "btm", "bottom", "zenith", "ctop", "glances", "bmon"),
        (TERMINAL, _MONITOR),
    ),
    (("nload", "iftop", "nethogs", "bandwhich", "atop", "powertop", "s-tui"), (TERMINAL, _MONITOR)),
    (("k9s", "lazydocker", "lazygit", "gitui", "tig", "mc", "ranger", "nnn", "lf", "yazi", "vifm"), (TERMINAL, _TUI)),
    (
        ("broot", "cmatrix", "ncmpcpp", "newsboat", "mutt", "neomutt", "aerc", "irssi", "weechat", "calcurse"),
        (TERMINAL, _TUI),
    ),
    (("byobu", "minicom", "picocom", "telnet"), (TERMINAL, "interactive session")),
    (
        ("nano", "pico", "micro", "hx", "helix", "kak", "joe", "jed", "mcedit", "ne", "vimdiff", "view"),
        (TERMINAL, "opens an editor"),
    ),
    (("vipw", "vigr", "sudoedit", "edquota"), (TERMINAL, "opens an editor")),
    (("less", "more", "most", "pg"), (TERMINAL, "opens a pager")),
    (
        ("bpython", "ptpython", "ptipython", "pry", "utop", "pgcli", "groovysh", "spark-shell", "iex"),
        (TERMINAL, "interactive REPL"),
    ),
    (("cgdb", "pdb", "ipdb", "ipdb3", "pudb", "pudb3", "rdbg", "byebug", "jdb"), (TERMINAL, "interactive debugger")),
    (
        ("uvicorn", "hypercorn", "daphne", "waitress-serve", "granian", "http-server", "live-server", "serve"),
        (ENDLESS, _SERVER),
    ),
    (("browser-sync", "json-server", "webpack-dev-server", "start-storybook", "sphinx-autobuild"), (ENDLESS, _SERVER)),
    (
        ("jupyter-lab", "jupyter-notebook", "voila", "tensorboard", "sanic", "puma", "rackup", "gradio"),
        (ENDLESS, _SERVER),
    ),
    (("dev",), (ENDLESS, _SERVER)),  # Rails' and others' bin/dev
    (
        ("redis-server", "valkey-server", "mongod", "memcached", "etcd", "localtunnel", "lt"),
        (ENDLESS, "server that runs until stopped"),
    ),
    (("sidekiq", "dramatiq", "huey_consumer"), (ENDLESS, "worker that runs until stopped")),
    (
        ("nodemon", "ts-node-dev", "tsc-watch", "watchexec", "entr", "ghcid", "watchman-make", "reflex", "modd"),
        (ENDLESS, _WATCH),
    ),
    (("ptw", "pytest-watch", "pytest-watcher", "bacon", "air", "fswatch", "chokidar", "onchange"), (ENDLESS, _WATCH)),
    (("su", "chsh", "chfn"), (TERMINAL, "asks for a password")),
    (("disown",), (DETACHED, "detaches background jobs")),
):
    for _name in _names:
        _SIMPLE[_name] = _entry


# -- the common tools (the rest live in interactive_tools) -----------------------------


def _tail(argv: list[str], ctx: _Context) -> Reason | None:
    long = frozenset({"--lines", "--bytes", "--sleep-interval", "--pid", "--max-unchanged-stats"})
    args = _scan(argv, 1, "cns", long)
    for flag in ("-f", "-F", "--follow"):
        if flag in args.flags:
            return ENDLESS, f"follows output forever (tail {flag})"
    return None


# -- git -------------------------------------------------------------------------------


def _git(argv: list[str], ctx: _Context) -> Reason | None:
    config: dict[str, str] = {}
    index = 1
    values = GLOBAL_VALUE_OPTIONS["git"]
    while index < len(argv) and argv[index].startswith("-"):
        word = argv[index]
        if word == "-c" and index + 1 < len(argv):
            key, _, value = argv[index + 1].partition("=")
            config[key.lower()] = value
        index += 2 if word in values else 1
    if index >= len(argv):
        return None
    sub, rest = argv[index], argv[index + 1 :]
    editor = ctx.env.get("GIT_EDITOR", config.get("core.editor"))
    scripted = _scripted_editor(editor)
    check = _GIT_RULES.get(sub)
    return check(rest, scripted, ctx, config) if check else None


def _git_commit(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    long = frozenset({"--message", "--file", "--reuse-message", "--reedit-message", "--fixup", "--squash"})
    long |= frozenset({"--template", "--author", "--date", "--trailer", "--cleanup", "--pathspec-from-file"})
    args = _scan(rest, 0, "mFCct", long, attached="Su")
    if args.has("-p", "--patch", "--interactive"):
        return TERMINAL, "picks hunks interactively (git commit -p)"
    if scripted or args.has("--dry-run"):
        return None
    fixup = args.flags.get("--fixup", "")
    if args.has("-e", "--edit", "-c", "--reedit-message") or fixup.startswith(("amend:", "reword:")):
        return TERMINAL, "opens an editor (git commit --edit)"
    if args.has("-m", "--message", "-F", "--file", "-C", "--reuse-message", "--no-edit", "--fixup"):
        return None
    if args.has("--amend"):
        return TERMINAL, "opens an editor (git commit --amend without --no-edit or -m)"
    return TERMINAL, "opens an editor (git commit without -m)"


def _git_rebase(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    args = _scan(rest, 0, "sxXC", frozenset({"--onto", "--strategy", "--strategy-option", "--exec"}))
    if args.has("--edit-todo") and not scripted:
        return TERMINAL, "opens an editor (git rebase --edit-todo)"
    if args.has("-i", "--interactive"):
        sequence = ctx.env.get("GIT_SEQUENCE_EDITOR", config.get("sequence.editor"))
        if _scripted_editor(sequence) or (sequence is None and scripted):
            return None  # the todo list is edited by a script
        return TERMINAL, "opens an editor (git rebase -i)"
    return None


def _git_patch(sub: str) -> Callable[[list[str], bool, _Context, dict[str, str]], Reason | None]:
    """checkout/reset/restore/stash with `-p`: hunk selection."""

    def rule(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
        args = _scan(rest, 0, "bBsmUe", frozenset({"--source", "--message", "--pathspec-from-file"}))
        if args.has("-p", "--patch"):
            return TERMINAL, f"picks hunks interactively (git {sub} -p)"
        return None

    return rule


def _git_add(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    args = _scan(rest, 0, "", frozenset({"--chmod", "--pathspec-from-file"}))
    if args.has("-p", "--patch"):
        return TERMINAL, "picks hunks interactively (git add -p)"
    if args.has("-i", "--interactive"):
        return TERMINAL, "interactive menu (git add -i)"
    if args.has("-e", "--edit") and not scripted:
        return TERMINAL, "opens an editor (git add -e)"
    return None


def _git_clean(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    if _scan(rest, 0, "e", frozenset({"--exclude"})).has("-i", "--interactive"):
        return TERMINAL, "interactive menu (git clean -i)"
    return None


def _git_tag(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    args = _scan(rest, 0, "mFu", frozenset({"--message", "--file", "--local-user", "--contains", "--points-at"}))
    if scripted or args.has("-l", "--list", "-d", "--delete", "-v", "--verify"):
        return None
    if args.has("-e", "--edit"):
        return TERMINAL, "opens an editor (git tag -e)"
    annotated = args.has("-a", "--annotate", "-s", "--sign", "-u", "--local-user")
    if annotated and not args.has("-m", "--message", "-F", "--file"):
        return TERMINAL, "opens an editor (git tag -a without -m)"
    return None


def _git_merge(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    # Without --edit, git opens an editor for a merge commit only when stdin and stdout are
    # the same terminal; wrapped, stdout is a pipe, so `git merge x` / `git pull` never do.
    if not scripted and _scan(rest, 0, "msX", frozenset({"--message", "--strategy"})).has("-e", "--edit"):
        return TERMINAL, "opens an editor (git merge --edit)"
    return None


def _git_pull(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    args = _scan(rest, 0, "sXr", frozenset({"--strategy", "--rebase"}))
    if args.flags.get("--rebase", args.flags.get("-r", "")) in ("i", "interactive"):
        return TERMINAL, "opens an editor (git pull --rebase=interactive)"
    return _git_merge(rest, scripted, ctx, config)


def _git_revert(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    # git revert edits the message by default when run from a terminal (its stdin is one).
    args = _scan(rest, 0, "mX", frozenset({"--mainline", "--strategy", "--strategy-option"}))
    done = ("--no-edit", "-n", "--no-commit", "--abort", "--quit", "--skip")
    if scripted or (args.has(*done) and not args.has("-e", "--edit")):
        return None
    return TERMINAL, "opens an editor (git revert without --no-edit)"


def _git_cherry_pick(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    if not scripted and _scan(rest, 0, "mX").has("-e", "--edit"):
        return TERMINAL, "opens an editor (git cherry-pick --edit)"
    return None


def _git_notes(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    index, sub = _first_operand(rest, 0, frozenset({"--ref"}))
    if scripted or sub not in ("add", "append", "edit"):
        return None
    args = _scan(rest, index + 1, "mFCc", frozenset({"--message", "--file", "--reuse-message", "--reedit-message"}))
    if sub == "edit" or not args.has("-m", "--message", "-F", "--file", "-C", "--reuse-message"):
        return TERMINAL, f"opens an editor (git notes {sub})"
    return None


def _git_config(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    if not scripted and (
        rest[:1] == ["edit"] or _scan(rest, 0, "f", frozenset({"--file", "--blob"})).has("-e", "--edit")
    ):
        return TERMINAL, "opens an editor (git config --edit)"
    return None


def _git_tool(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    return None if "--tool-help" in rest else (TERMINAL, "launches a diff/merge tool (git difftool)")


def _git_gui(rest: list[str], scripted: bool, ctx: _Context, config: dict[str, str]) -> Reason | None:
    return TERMINAL, "opens a window (git gui)"


_GIT_RULES: dict[str, Callable[[list[str], bool, _Context, dict[str, str]], Reason | None]] = {
    "commit": _git_commit,
    "rebase": _git_rebase,
    "add": _git_add,
    "stage": _git_add,
    "checkout": _git_patch("checkout"),
    "reset": _git_patch("reset"),
    "restore": _git_patch("restore"),
    "stash": _git_patch("stash"),
    "clean": _git_clean,
    "tag": _git_tag,
    "merge": _git_merge,
    "pull": _git_pull,
    "revert": _git_revert,
    "cherry-pick": _git_cherry_pick,
    "notes": _git_notes,
    "config": _git_config,
    "difftool": _git_tool,
    "mergetool": _git_tool,
    "gui": _git_gui,
    "citool": _git_gui,
}


# -- package managers and their scripts ------------------------------------------------

_DEV_SCRIPT_HEADS = frozenset({"dev", "start", "serve", "server", "watch", "develop", "preview", "storybook"})
_ONE_SHOT_HEADS = frozenset({"build", "compile", "bundle", "test", "lint", "typecheck", "check", "format", "fmt"})
_ONE_SHOT_HEADS |= frozenset({"generate", "gen", "clean", "install", "setup", "migrate", "db", "e2e", "ci", "deps"})


def _script_kind(script: str) -> str | None:
    """'server' / 'watch' for package.json script names that run until stopped:
    `dev`, `start:prod`, `web:dev`, `docs:serve`, `test:watch`, `build-watch`;
    not `build:dev` or `db:start`, which end."""
    parts = script.lower().replace("-", ":").replace("_", ":").split(":")
    if "watch" in parts:
        return "watch"
    if any(part in _ONE_SHOT_HEADS for part in parts[1:]):
        return None  # `dev:setup`, `start-db`
    if parts[0] in _DEV_SCRIPT_HEADS:
        return "server"
    if parts[0] not in _ONE_SHOT_HEADS and {"dev", "serve", "server", "start"} & set(parts[1:]):
        return "server"
    return None


def _script_reason(runner: str, script: str) -> Reason | None:
    kind = _script_kind(script)
    if kind == "watch":
        return ENDLESS, f"{_WATCH} ({runner} {script})"
    if kind == "server":
        return ENDLESS, f"{_SERVER} ({runner} {script})"
    return None


def _passthrough_watch(runner: str, rest: list[str]) -> Reason | None:
    """`npm test -- --watch`, `yarn test --watchAll`: the test runner's watch mode."""
    args = _scan([w for w in rest if w != "--"], 0)  # after `--` or not, they reach the script
    for flag in ("--watch", "--watchAll"):
        if args.on(flag):
            return ENDLESS, f"{_WATCH} ({runner} {flag})"
    return None


def _yes(argv: Sequence[str]) -> bool:
    return any(w in ("-y", "--yes") or w.startswith("--yes=") for w in argv)


def _run_script(tool: str, rest: list[str], values: frozenset[str]) -> Reason | None:
    """`<tool> run SCRIPT …` (npm, pnpm, yarn): what the script is known to do (a dev
    server, a watcher), else a watch flag passed through to it."""
    position, script = _first_operand(rest, 0, values)
    if script is None:
        return None
    return _script_reason(f"{tool} run", script) or _passthrough_watch(f"{tool} run {script}", rest[position + 1 :])


def _prompts_without_yes(what: str, argv: Sequence[str], ctx: _Context) -> Reason | None:
    """A package manager's `init`/`create`: it asks questions unless told -y or fed stdin."""
    return None if _yes(argv) or ctx.stdin else (TERMINAL, f"prompts for answers ({what} without -y)")


def _package_runner(rest: list[str], values: frozenset[str], ctx: _Context) -> Reason | None:
    """`npm exec`, `pnpm dlx`, `yarn dlx`…: the command after the runner's own options,
    checked as any command."""
    position, _ = _first_operand(rest, 0, values)
    return _check(rest[position:], ctx.inner()) if position < len(rest) else None


_NPM_VALUES = GLOBAL_VALUE_OPTIONS["npm"] | {"--loglevel", "--otp", "--tag", "--access"}


def _npm(argv: list[str], ctx: _Context) -> Reason | None:
    index, sub = _first_operand(argv, 1, _NPM_VALUES)
    if sub is None:
        return None
    rest = argv[index + 1 :]
    if sub in ("start", "restart"):
        return ENDLESS, f"{_SERVER} (npm {sub})"
    if sub in ("run", "run-script", "rum", "urn"):
        return _run_script("npm", rest, _NPM_VALUES)
    if sub in ("test", "t", "tst"):
        return _passthrough_watch("npm test", rest)
    if sub in ("init", "create", "innit"):
        return _prompts_without_yes(f"npm {sub}", argv, ctx)
    if sub in ("exec", "x"):
        return _package_runner(rest, frozenset({"-p", "--package", "-c", "--call"}), ctx)
    if sub in ("login", "adduser", "add-user"):
        return TERMINAL, f"logs in interactively (npm {sub})"
    if sub == "edit":
        return TERMINAL, "opens an editor (npm edit)"
    if sub == "explore":
        return TERMINAL, "interactive shell (npm explore)"
    return None


_PNPM_VALUES = GLOBAL_VALUE_OPTIONS["pnpm"] | {"--reporter", "--loglevel", "--workspace-concurrency", "--filter-prod"}
_PNPM_VALUES |= {"--test-pattern", "--changed-files-ignore-pattern", "--resume-from"}


def _pnpm(argv: list[str], ctx: _Context) -> Reason | None:
    index, sub = _first_operand(argv, 1, _PNPM_VALUES)
    if sub is None:
        return None
    rest = argv[index + 1 :]
    if sub in ("start", "restart"):
        return ENDLESS, f"{_SERVER} (pnpm {sub})"
    if sub in ("run", "run-script"):
        return _run_script("pnpm", rest, _PNPM_VALUES)
    if sub in ("test", "t", "tst"):
        return _passthrough_watch("pnpm test", rest)
    if sub == "create":
        return _prompts_without_yes("pnpm create", argv, ctx)
    if sub in ("exec", "dlx"):
        return _package_runner(rest, frozenset({"--package", "-c"}), ctx)
    if sub in ("login", "adduser"):
        return TERMINAL, f"logs in interactively (pnpm {sub})"
    if sub == "server":
        return ENDLESS, "server that runs until stopped (pnpm server)"
    if sub in OWN_COMMANDS["pnpm"]:
        return None
    # `pnpm dev`: a script of that name; `pnpm vite`: a package's binary
    return _script_reason("pnpm", sub) or _check([sub, *rest], ctx.inner())


_YARN_VALUES = frozenset(
    {"--cwd", "--modules-folder", "--cache-folder", "--global-folder", "--mutex", "--network-timeout"}
)


def _yarn(argv: list[str], ctx: _Context) -> Reason | None:
    index, sub = _first_operand(argv, 1, _YARN_VALUES)
    if sub is None:
        return None  # `yarn` installs
    rest = argv[index + 1 :]
    if sub == "start":
        return ENDLESS, f"{_SERVER} (yarn start)"
    if sub == "run":
        return _run_script("yarn", rest, _YARN_VALUES)
    if sub == "test":
        return _passthrough_watch("yarn test", rest)
    if sub in ("init", "create"):
        return _prompts_without_yes(f"yarn {sub}", argv, ctx)
    if sub == "upgrade-interactive":
        return TERMINAL, "interactive menu (yarn upgrade-interactive)"
    if sub == "workspace" and len(rest) > 1:
        return _check(["yarn", *rest[1:]], ctx.inner())
    if sub == "workspaces" and rest[:1] == ["foreach"]:
        values = frozenset({"--from", "--include", "--exclude", "-j", "--jobs", "--since"})
        position, _ = _first_operand(rest, 1, values)
        return _check(["yarn", *rest[position:]], ctx.inner()) if position < len(rest) else None
    if sub in ("dlx", "exec"):
        return _package_runner(rest, frozenset({"-p", "--package"}), ctx)
    if sub == "login" or (sub == "npm" and rest[:1] == ["login"]):
        return TERMINAL, "logs in interactively (yarn login)"
    if sub in OWN_COMMANDS["yarn"]:
        return None
    return _script_reason("yarn", sub) or _check([sub, *rest], ctx.inner())


_BUN_OWN = frozenset(
    {"test", "x", "exec", "install", "i", "add", "a", "remove", "rm", "update", "outdated", "link", "unlink", "pm"}
    | {"build", "upgrade", "publish", "patch", "audit", "info", "why", "completions", "help", "c"}
)


def _bun(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv)
    if args.has("--hot"):
        return ENDLESS, f"{_WATCH} (bun --hot)"
    if args.on("--watch"):
        return ENDLESS, f"{_WATCH} (bun --watch)"
    index, sub = _first_operand(argv, 1, frozenset({"--cwd", "-r", "--preload", "--config", "-c", "--env-file"}))
    if sub is None:
        return None
    rest = argv[index + 1 :]
    if sub == "repl":
        return TERMINAL, "interactive REPL (bun repl)"
    if sub in ("init", "create", "c"):
        return _prompts_without_yes(f"bun {sub}", argv, ctx)
    if sub == "run":
        position, script = _first_operand(rest, 0)
        if script is None:
            return None
        return _script_reason("bun run", script) or _check(rest[position:], ctx.inner())
    if sub in _BUN_OWN:
        return None
    return _script_reason("bun", sub)


# -- JavaScript tools ------------------------------------------------------------------


def _node(argv: list[str], ctx: _Context) -> Reason | None:
    values = frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions"})
    values |= {"--input-type", "--title", "--env-file", "--watch-path", "--inspect-port", "--stack-size"}
    args = _scan(argv, 1, "rC", values, stop_at_operand=True)
    if args.has("--inspect-brk", "--inspect-wait"):
        return TERMINAL, "waits for a debugger (node --inspect-brk)"
    if args.on("--watch") or args.has("--watch-path"):
        return ENDLESS, f"{_WATCH} (node --watch)"
    if args.has("-i", "--interactive"):
        return TERMINAL, "interactive REPL (node -i)"
    if args.has("-e", "--eval", "-p", "--print", "-c", "--check", "--test", "--run", "-v"):
        return None
    script = argv[args.stop] if args.stop < len(argv) else None
    if script == "inspect":
        return TERMINAL, "interactive debugger (node inspect)"
    if script is None and not ctx.stdin:
        return TERMINAL, "interactive REPL (node without a script)"
    return None


def _create(argv: list[str], ctx: _Context) -> Reason | None:
    """`create-vite`, `create-next-app`, …: scaffolders ask questions unless told --yes."""
    name = _tool(argv[0])
    if _yes(argv) or ctx.stdin:
        return None
    return TERMINAL, f"prompts for answers ({name} without --yes)"


# -- Python tools ----------------------------------------------------------------------


def _python(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    interactive = False
    index = 1
    while index < len(argv):
        word = argv[index]
        if word == "--" or not word.startswith("-") or word == "-":
            break
        if word.startswith("--"):
            index += 2 if word == "--check-hash-based-pycs" else 1
            continue
        for position in range(1, len(word)):
            letter = word[position]
            if letter == "i":
                interactive = True
            elif letter in "cm":
                if interactive:
                    return TERMINAL, f"interactive REPL ({name} -i)"
                if letter == "m":
                    module = word[position + 1 :] or (argv[index + 1] if index + 1 < len(argv) else "")
                    return _python_module(name, module, ctx)
                return None  # `-c code` ends
            elif letter in "WXQ":
                index += 0 if word[position + 1 :] else 1
                break
            elif letter in "Vh":
                return None
        index += 1
    if index < len(argv) and argv[index] == "--":
        index += 1
    script = argv[index] if index < len(argv) else None
    if interactive:
        return TERMINAL, f"interactive REPL ({name} -i)"
    if script is None or script == "-":
        return None if ctx.stdin else (TERMINAL, f"interactive REPL ({name} without a script)")
    if basename(script) == "manage.py":
        return _dispatch(argv[index:], ctx)  # `python manage.py runserver` is `manage.py runserver`
    return None


def _python_module(name: str, module: str, ctx: _Context) -> Reason | None:
    """`python -m <module>`: the modules that are themselves servers or REPLs. Any other module
    is looked at as the tool it is (`python -m pytest --pdb`, `python -m uvicorn`) once stripped."""
    if module in ("http.server", "SimpleHTTPServer"):
        return ENDLESS, f"{_SERVER} ({name} -m {module})"
    if module in ("code", "asyncio", "IPython", "idlelib", "sqlite3") and not ctx.stdin:
        return TERMINAL, f"interactive REPL ({name} -m {module})"
    return None


def _pytest(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "kmpcnor", frozenset({"--pdbcls", "--rootdir", "--maxfail", "--deselect", "--ignore"}))
    for flag in ("--pdb", "--trace", "--pdbcls"):
        if flag in args.flags:
            return TERMINAL, f"interactive debugger ({name} {flag})"
    if args.has("-f", "--looponfail"):
        return ENDLESS, f"{_WATCH} ({name} --looponfail)"
    return None


# -- logins ----------------------------------------------------------------------------

_LOGIN_OK: tuple[str, ...] = (
    "--with-token",
    "--token",
    "--password-stdin",
    "--password",
    "-p",
    "--service-principal",
    "--identity",
)
_LOGIN_OK += ("--cred-file", "--apikey", "--access-token", "--key", "--local", "-t", "--federated-token")
#: Tools whose `login <argument>` is the token or URL itself (`cargo login TOKEN`, `pulumi login file://…`).
_LOGIN_OPERAND = frozenset({"cargo", "wandb", "vault", "pulumi", "huggingface-cli", "hf"})


def _login(name: str, argv: list[str], start: int) -> Reason | None:
    args = _scan(argv, start, "", frozenset({"--hostname", "--registry", "--scopes", "--username", "--server"}))
    if args.has(*_LOGIN_OK) or (name in _LOGIN_OPERAND and args.operands):
        return None
    if name == "vault" and any(w.startswith("-method") for w in argv):
        return TERMINAL, "asks for a password (vault login -method)"
    words = " ".join(argv[1:start])
    return TERMINAL, f"logs in interactively ({name} {words})"


# -- shells ----------------------------------------------------------------------------

_MORE_SHELLS = frozenset({"tcsh", "csh", "nu", "elvish", "xonsh", "pwsh", "powershell", "osh"})


def _shell(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    found = launcher_body(argv)
    if found is not None:
        position, dialect, _ = found
        return _script(argv[position], dialect, ctx.inner())
    if name in ("pwsh", "powershell"):
        lowered = [w.lower() for w in argv[1:]]
        if any(w in ("-c", "-command", "-f", "-file", "-encodedcommand") for w in lowered) or any(
            not w.startswith("-") for w in lowered
        ):
            return None if "-noexit" not in lowered else (TERMINAL, f"interactive shell ({name} -NoExit)")
        return None if ctx.stdin else (TERMINAL, f"interactive shell ({name})")
    args = _scan(argv, 1, "oOC", frozenset({"--rcfile", "--init-file", "--init-command"}), stop_at_operand=True)
    if args.has("-i", "--interactive"):
        return TERMINAL, f"interactive shell ({name} -i)"
    if args.stop < len(argv):
        return None  # a script
    if ctx.stdin:
        return None  # commands from a pipe or file
    return TERMINAL, f"interactive shell ({name} without -c or a script)"


_RULES: dict[str, Rule] = {
    "tail": _tail,
    "gtail": _tail,
    "git": _git,
    "npm": _npm,
    "pnpm": _pnpm,
    "yarn": _yarn,
    "bun": _bun,
    "node": _node,
    "nodejs": _node,
    "pytest": _pytest,
    "py.test": _pytest,
}
#: Where the other tools' rules live: tokenjuice/interactive_<home>.py, imported on first use so
#: the common case loads none of them (a test keeps this in step with their RULES).
_DEV_TOOLS = (
    "R",
    "artisan",
    "cabal",
    "caddy",
    "cargo",
    "celery",
    "clj",
    "clojure",
    "conda",
    "deno",
    "django",
    "django-admin",
    "dlv",
    "dotnet",
    "eleventy",
    "ember",
    "erl",
    "esbuild",
    "fastapi",
    "flask",
    "flutter",
    "gdb",
    "ghci",
    "gradle",
    "gradlew",
    "guile",
    "gunicorn",
    "hugo",
    "iperf",
    "iperf3",
    "ipython",
    "ipython3",
    "irb",
    "jekyll",
    "jshell",
    "julia",
    "jupyter",
    "karma",
    "kotlin",
    "kotlinc",
    "latexmk",
    "lein",
    "lerna",
    "litestar",
    "lldb",
    "lua",
    "luajit",
    "mamba",
    "manage.py",
    "marimo",
    "micromamba",
    "mix",
    "mlflow",
    "mongod",
    "mysqld",
    "next",
    "ng",
    "nx",
    "ocaml",
    "ollama",
    "parcel",
    "perl",
    "php",
    "pip",
    "pip3",
    "poetry",
    "postgres",
    "prisma",
    "pyspark",
    "quart",
    "racket",
    "rails",
    "react-scripts",
    "remix",
    "rq",
    "ruby",
    "sbcl",
    "sbt",
    "scala",
    "stack",
    "storybook",
    "streamlit",
    "swipl",
    "symfony",
    "ts-node",
    "tsx",
    "turbo",
    "vite",
    "vitest",
    "webpack",
    "webpack-cli",
)
_SYSTEM_TOOLS = (
    "adb",
    "ansible-vault",
    "beeline",
    "caffeinate",
    "clickhouse",
    "clickhouse-client",
    "code",
    "cp",
    "cqlsh",
    "crontab",
    "cursor",
    "dmesg",
    "duckdb",
    "elinks",
    "emacs",
    "emacsclient",
    "ex",
    "free",
    "fzf",
    "gvim",
    "inotifywait",
    "iostat",
    "iotop",
    "journalctl",
    "keydb-cli",
    "links",
    "litecli",
    "log",
    "ltrace",
    "lynx",
    "man",
    "mariadb",
    "mate",
    "mongo",
    "mongosh",
    "mosh",
    "mpstat",
    "mtr",
    "mv",
    "mycli",
    "mysql",
    "ncdu",
    "nvidia-smi",
    "nvim",
    "passwd",
    "perf",
    "pidstat",
    "ping",
    "ping6",
    "psql",
    "read",
    "redis-cli",
    "rm",
    "sar",
    "screen",
    "sleep",
    "sops",
    "sqlcmd",
    "sqlite",
    "sqlite3",
    "sqlplus",
    "stern",
    "strace",
    "subl",
    "systemctl",
    "tcpdump",
    "termshark",
    "tmux",
    "top",
    "tshark",
    "usql",
    "valkey-cli",
    "vi",
    "vim",
    "visudo",
    "vmstat",
    "w3m",
    "watch",
    "zed",
    "zellij",
)
_OPS_TOOLS = (
    "amplify",
    "apt",
    "apt-get",
    "aptitude",
    "autossh",
    "aws",
    "az",
    "chroot",
    "cloudflared",
    "composer",
    "devbox",
    "devenv",
    "distrobox",
    "dnf",
    "docker",
    "docker-compose",
    "eb",
    "firebase",
    "fly",
    "flyctl",
    "ftp",
    "gcloud",
    "gh",
    "gpg",
    "gpg2",
    "hatch",
    "heroku",
    "kubectl",
    "lftp",
    "limactl",
    "microdnf",
    "minikube",
    "multipass",
    "nc",
    "ncat",
    "nerdctl",
    "netcat",
    "ngrok",
    "nix",
    "nix-shell",
    "oc",
    "pacman",
    "paru",
    "pipenv",
    "pm2",
    "podman",
    "podman-compose",
    "pulumi",
    "sam",
    "sftp",
    "ssh",
    "ssh-keygen",
    "terraform",
    "tofu",
    "toolbox",
    "vagrant",
    "wsl",
    "yay",
    "yum",
    "zypper",
)
_MORE_RULES: dict[str, str] = {
    **dict.fromkeys(_DEV_TOOLS, "dev"),
    **dict.fromkeys(_SYSTEM_TOOLS, "system"),
    **dict.fromkeys(_OPS_TOOLS, "ops"),
}


def _more_rules(home: str) -> dict[str, Rule]:
    if home == "dev":
        from .interactive_dev import RULES
    elif home == "system":
        from .interactive_system import RULES
    else:
        from .interactive_ops import RULES
    return RULES
