"""Commands that must never be wrapped: they never end, or they need the terminal.

`tokenjuice wrap` holds a command's output until it exits and gives the command a
pipe instead of the terminal. That is wrong for a dev server or `tail -f` (the
output never comes back), for an editor, pager, REPL or prompt (it waits for a
terminal the agent cannot see), and for detached jobs (they keep the pipe open).
The host hooks ask `why_not_wrapped` about each simple command before rewriting it.

Detection reads argv, not text: flags anywhere and in any form (`-n20 -f`, `-fn`,
`--follow=name`), subcommands behind global options, and what wrappers and runners
run (`sudo`, `env A=1`, `npx`, `uv run`, `python -m`, `bash -lc '…'`, `ssh host '…'`).
`timeout N cmd` ends, so a command that would only run forever is fine behind it.

What each tool does is data: tokenjuice/shell/neverwrap/*.toml (the format: schema.py,
docs/never-wrapped.md), compiled into the literal modules data.py and more.py. This module
is the small engine that reads it, the driver (pipelines, wrappers, runners), and the
readers of python and the shells that a declaration cannot express; the named predicates
a case can `call` and the named tests it can `test` are in predicates.py, loaded the first
time a case names one (most commands never do), and a user's `hook.skip` patterns in
user.py, loaded only where there are some. Stdlib only, no `re`: it runs on every hook call.
"""

from __future__ import annotations

import marshal

from ..argv import GLOBAL_VALUE_OPTIONS, RUNNERS, SHELLS, WRAPPERS, basename, is_python, launcher_body
from ..argv import strip_runner as _argv_strip_runner
from ..syntax import parse
from . import DETACHED, ENDLESS, TERMINAL
from . import data as _data

TYPE_CHECKING = False  # `typing` costs milliseconds to import; type checkers know this name
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    Reason = tuple[str, str]
    Entry = dict[str, Any]

__all__ = ["why_not_wrapped", "why_not_wrapped_script"]

_MAX_DEPTH = 6
_EMPTY: frozenset[str] = frozenset()
_GENERIC = marshal.loads(_data.GENERIC)  # noqa: S302 - the package's own data, as trusted as its code
#: The catalogue's index: a program's name -> its entry.
_INDEX: dict[str, int] = marshal.loads(_data.INDEX)  # noqa: S302 - as above
#: The generic tables as sets, each made the first time it is read (`_g`): a command reads a few.
_G: dict[str, frozenset[str]] = {}


def _g(key: str) -> frozenset[str]:
    found = _G.get(key)
    if found is None:
        found = _G[key] = frozenset(_GENERIC[key])
    return found


_FALSE = _g("false_values")
_START = {group[0]: group[1:] for group in _GENERIC["start_subcommands"]}
_NO_GENERIC = _g("no_generic") | {prefix[0] for prefix in RUNNERS}
_DASHDASH = {group[0]: group[1:] for group in _GENERIC["dashdash_runners"]}


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
    """A short human reason (e.g. "follows output forever (tail -f)", "dev server (npm run dev)")
    when the command (one simple command's argv, assignments and wrappers included) is
    interactive or long-running; None when it is safe to wrap. `stdin_supplied`: its standard
    input is a pipe, file or here-doc, so a REPL or prompt reads that and ends."""
    found = _check([w for w in argv if isinstance(w, str)], _Context(stdin=stdin_supplied))
    return found[1] if found else None


def why_not_wrapped_script(command: str, dialect: str = "posix", *, waited: bool = False) -> str | None:
    """`why_not_wrapped` for a whole command line: every simple command of every pipeline,
    stdin taken from the syntax, launchers' bodies (`bash -lc '…'`) looked into, and a
    background job (`cmd &`) or endless loop reported — but for `waited` lines (`a & b & wait`),
    whose background jobs are each judged themselves."""
    found = _script(command, dialect, _Context(), waited)
    return found[1] if found else None


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


def _check(argv: list[str], ctx: _Context, only: Entry | None = None) -> Reason | None:
    """The reason for one simple command, wrappers and runners included (`only`: as this
    entry alone decides it)."""
    if ctx.depth > _MAX_DEPTH:
        return None
    peeled = _peel(argv, ctx)
    if isinstance(peeled, tuple):
        return peeled
    argv = peeled
    for _ in range(_MAX_DEPTH):
        if not argv:
            return None
        if only is None:
            found = _dispatch(argv, ctx)
        else:
            name = _tool(argv[0])
            found = _decide(only, argv, ctx, name) if name in only["names"] and not _asks_for_help(argv) else None
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
            if _scan(argv, index + 1, stop_at_operand=True).stop < len(argv):
                return DETACHED, f"keeps running after the shell exits ({tool})"
            return argv[index:]
        if tool == "sudo":
            args = _scan(argv, index + 1, *_wrapper_options("sudo"), stop_at_operand=True)
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
        if tool in WRAPPERS or tool in _g("extra_wrappers"):
            args = _scan(argv, index + 1, *_wrapper_options(tool), stop_at_operand=True)
            if args.stop >= len(argv) or (tool == "command" and args.has("-v", "-V")):
                return argv[index:]  # the wrapper alone (`env`, `time`) is itself the command
            index = args.stop
            continue
        break
    return argv[index:]


#: A wrapper's options that take a value, as `_scan` reads them (short letters, long names):
#: argv.py's, each read the first time a command goes through that wrapper (most go through none).
_WRAPPER_OPTIONS = {
    "xvfb-run": ("nsfewp", frozenset({"--server-num", "--server-args", "--error-file", "--xauth-protocol"})),
}


def _wrapper_options(tool: str) -> tuple[str, frozenset[str]]:
    found = _WRAPPER_OPTIONS.get(tool)
    if found is None:
        options = WRAPPERS.get(tool)
        if options is None:
            return "", _EMPTY
        short = "".join(o[1] for o in options if len(o) == 2 and o[0] == "-")
        found = _WRAPPER_OPTIONS[tool] = short, frozenset(o for o in options if o.startswith("--"))
    return found


def _strip_runner(argv: list[str]) -> list[str] | None:
    """What a runner runs: argv.py's runners, and a few more that take `--`."""
    name = _tool(argv[0])
    if name in _DASHDASH and (len(argv) > 1 and argv[1] in _DASHDASH[name]):
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
    return _argv_strip_runner(argv)


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
    long_values: frozenset[str] | tuple[str, ...] = _EMPTY,
    attached: str = "",
    *,
    stop_at_operand: bool = False,
) -> _Args:
    """Read options the getopt way: `-abc` is `-a -b -c`; a short option in `short_values` takes
    the rest of its word or the next word (`-n20`, `-n 20`), one in `attached` only the rest of
    its word; `--long=value` or `--long value` (for `long_values`). `--` ends options."""
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
    """The program a word names: `/usr/bin/git` -> `git`, `create-vite@latest` -> `create-vite`."""
    name = basename(word)
    at = name.find("@", 1)
    return name[:at] if at > 0 else name


def _first_operand(argv: Sequence[str], start: int, values: Sequence[str] = ()) -> tuple[int, str | None]:
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


# -- dispatch --------------------------------------------------------------------------


def _dispatch(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if _asks_for_help(argv):
        return None
    index = _INDEX.get(name)
    if index is not None:
        found = _decide(_entry(index), argv, ctx, name)
    elif is_python(name):
        found = _python(argv, ctx)
    elif name in SHELLS or name in _g("more_shells"):
        found = _shell(name, argv, ctx)
    elif name.startswith("create-"):
        found = None if _yes(argv) or ctx.stdin else (TERMINAL, f"prompts for answers ({name} without --yes)")
    elif name in _NO_GENERIC or name in _g("operand_tools"):
        return None
    else:
        return _watch_flags(name, argv) or _subcommand(name, argv)
    if found or name in _NO_GENERIC:
        return found
    return _watch_flags(name, argv)  # its entry knows its subcommands; `--watch` still means watch


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
            return ENDLESS, f"watch mode ({name} {flag})"
    if name in _g("short_w_watch") and args.has("-w"):
        return ENDLESS, f"watch mode ({name} -w)"
    return None


def _subcommand(name: str, argv: list[str]) -> Reason | None:
    """A `watch` / `dev` / `serve` subcommand of a tool without an entry of its own (`cargo watch`,
    `wrangler dev`, `mkdocs serve`, `make dev`), and `login` / `auth login`."""
    sub = argv[1] if len(argv) > 1 else ""
    if sub == "watch":
        return ENDLESS, f"watch mode ({name} watch)"
    if sub == "dev":
        return ENDLESS, f"dev server ({name} dev)"
    if sub == "serve" and (len(argv) == 2 or argv[2] not in _g("serve_verbs")):
        return ENDLESS, f"dev server ({name} serve)"
    if (sub in ("server", "s") and name in _g("server_subcommand")) or sub in _START.get(name, ()):
        return ENDLESS, f"dev server ({name} {sub})"
    if sub == "login" or (sub == "auth" and argv[2:3] == ["login"]):
        return _login(name, argv, 2 if sub == "login" else 3)
    return None


def _login(name: str, argv: list[str], start: int) -> Reason | None:
    args = _scan(argv, start, "", _g("login_values"))
    if args.has(*_g("login_ok")) or (name in _g("login_operand") and args.operands):
        return None
    if name == "vault" and any(w.startswith("-method") for w in argv):
        return TERMINAL, "asks for a password (vault login -method)"
    return TERMINAL, f"logs in interactively ({name} {' '.join(argv[1:start])})"


# -- the engine: a tool's entry of the catalogue ----------------------------------------

_BUILT: dict[int, Entry] = {}


def _entry(index: int) -> Entry:
    """The catalogue entry at `index`, unmarshalled on first use."""
    entry = _BUILT.get(index)
    if entry is None:
        core = _data.ENTRIES  # core.toml's; the long tail's module loads when a command names one
        if index < len(core):
            blob = core[index]
        else:
            from . import more as neverwrap_more

            blob = neverwrap_more.ENTRIES[index - len(core)]
        entry = _BUILT[index] = marshal.loads(blob)  # noqa: S302 - our own data
    return entry


def _values(entry: Entry) -> tuple[str, ...]:
    """The options that take a value before the subcommand (`sub_values`, argv.py's `global_values`)."""
    values: tuple[str, ...] = entry.get("sub_values", ())
    return (*values, *GLOBAL_VALUE_OPTIONS[entry["global_values"]]) if "global_values" in entry else values


def _yes(argv: Sequence[str]) -> bool:
    return any(w in ("-y", "--yes") or w.startswith("--yes=") for w in argv)


class _Eval:
    """One entry applied to one argv (argv[0] is the tool, or the subcommand of a `subs` entry).
    The named predicates (predicates.py) read the command through it: this module loads
    theirs, so they cannot import it."""

    entry: Entry
    argv: list[str]
    ctx: _Context
    name: str
    parent: _Eval | None
    index: int | None
    sub: str | None
    words: list[str]
    generic = staticmethod(_g)
    catalogue = _INDEX
    scan_argv = staticmethod(_scan)
    first_operand = staticmethod(_first_operand)
    option_values = staticmethod(_values)
    tool = staticmethod(_tool)
    yes = staticmethod(_yes)

    def __init__(self, entry: Entry, argv: list[str], ctx: _Context, name: str, parent: _Eval | None) -> None:
        self.entry, self.argv, self.ctx, self.name, self.parent = entry, argv, ctx, name, parent
        self.args = _scan_with(argv, entry)
        self.index, self.sub, self.words = _find_sub(entry, argv, self.args)
        self.scans: dict[int, _Args] = {}

    def scan(self, case: Entry) -> _Args:
        if not any(key in case for key in _SCAN_KEYS):
            return self.args
        found = self.scans.get(id(case))
        if found is None:
            found = self.scans[id(case)] = _scan_with(self.argv, case, self.index)
        return found

    def holds(self, case: Entry) -> bool:
        return all(test(self, case, want) for key, want in case.items() if (test := _CONDITIONS.get(key)))

    def rest(self) -> list[str]:
        """The words after the subcommand (none when the entry does not know where it is)."""
        return self.argv[self.index + 1 :] if self.index is not None else []

    def check(self, argv: list[str], stdin: bool | None = None) -> Reason | None:
        """The reason for a command this one runs (`ssh host cmd`, `npx tool`); `stdin`: whether
        it reads a pipe or file rather than the terminal (None: as this one does)."""
        return _check(argv, self.ctx.inner(stdin))

    def script(self, source: str, stdin: bool | None = None) -> Reason | None:
        """The reason for a command line this one runs (`ssh host 'a | b'`)."""
        return _script(source, "posix", self.ctx.inner(stdin))

    def decide(self, index: int, argv: list[str], name: str, parent: _Eval | None = None) -> Reason | None:
        """What the catalogue's entry at `index` decides for `argv` (`php artisan` as `artisan`)."""
        return _decide(_entry(index), argv, self.ctx, name, parent)

    def login(self, start: int) -> Reason | None:
        return _login(self.name, self.argv, start)

    def subcommand(self) -> Reason | None:
        return _subcommand(self.name, self.argv)

    def outcome(self, case: Entry) -> Reason | None:
        if "call" in case:
            from .predicates import CALLS  # the named predicates load the first time a case names one

            return CALLS[case["call"]](self, case)
        for kind in (ENDLESS, TERMINAL, DETACHED):
            if kind in case:
                args = self.scan(case)
                flags = [f for f in (*case.get("has", ()), *case.get("on", ())) if f in args.flags]
                words = self.words
                return kind, case[kind].format(
                    name=self.name,
                    cmd=self.argv[0],
                    sub=self.sub or "",
                    flag=flags[0] if flags else "",
                    words=" ".join(words),
                    words2=" ".join(words[:2]),
                )
        return None  # wrap = true


def _decide(entry: Entry, argv: list[str], ctx: _Context, name: str, parent: _Eval | None = None) -> Reason | None:
    """The first case that holds decides; else the entry of its subcommand, if it has one."""
    ev = _Eval(entry, argv, ctx, name, parent)
    for case in entry.get("cases", ()):
        if ev.holds(case):
            return ev.outcome(case)
    if ev.index is not None and ev.sub is not None:
        for sub in entry.get("subs", ()):
            if ev.sub in sub["names"]:
                return _decide(sub, argv[ev.index :], ctx, name, ev)
    return None


_SCAN_KEYS = ("short", "long", "attached", "stop", "from", "after_sub")


def _scan_with(argv: list[str], spec: Entry, sub_index: int | None = None) -> _Args:
    start = spec.get("from", 1)
    if spec.get("after_sub"):
        start = len(argv) if sub_index is None else sub_index + 1
    long = spec.get("long", ())
    return _scan(
        argv, start, spec.get("short", ""), long, spec.get("attached", ""), stop_at_operand=spec.get("stop", False)
    )


def _find_sub(entry: Entry, argv: list[str], args: _Args) -> tuple[int | None, str | None, list[str]]:
    """Where the subcommand is (its index, when the entry's `sub` mode knows it), the word, and
    the leading words (`words` and `leading` modes)."""
    mode, values = entry.get("sub"), _values(entry)
    if mode == "self":  # a part of another tool's entry, handed [subcommand, …]
        return 0, argv[0], []
    if mode == "first":
        return (1, argv[1], []) if len(argv) > 1 else (None, None, [])
    if mode == "operand":
        index, sub = _first_operand(argv, 1, values)
        return index, sub, []
    if mode == "options":  # options up to the first word that is not one (git, docker)
        index = 1
        while index < len(argv) and argv[index].startswith("-"):
            index += 2 if argv[index] in values else 1
        return (index, argv[index], []) if index < len(argv) else (None, None, [])
    if mode == "scanned":
        if entry.get("stop"):
            return (args.stop, argv[args.stop], []) if args.stop < len(argv) else (None, None, [])
        return (
            None,
            (args.operands[0].lower() if entry.get("lower") else args.operands[0]) if args.operands else None,
            [],
        )
    if mode == "words":  # the words that are not options among the next `window`
        words = [w for w in argv[1 : 1 + entry.get("window", 1)] if not w.startswith("-")]
        return None, words[0] if words else None, words
    if mode == "leading":  # the first `window` words that are neither options nor their values
        words, index = [], 1
        while index < len(argv) and len(words) < entry.get("window", 1):
            if argv[index].startswith("-"):
                index += 2 if argv[index] in values else 1
                continue
            words.append(argv[index])
            index += 1
        return None, words[0] if words else None, words
    return None, None, []


def _operand_count(ev: _Eval, case: Entry) -> int:
    args = ev.scan(case)
    return len(ev.argv) - args.stop if case.get("stop", ev.entry.get("stop")) else len(args.operands)


def _value(ev: _Eval, case: Entry, wants: Sequence[str], prefix: bool) -> bool:
    flags = ev.scan(case).flags
    for want in wants:
        flag, _, value = want.partition("=")
        if flag in flags and (flags[flag].startswith(value) if prefix else flags[flag] == value):
            return True
    return False


_CONDITIONS: dict[str, Callable[[_Eval, Entry, Any], bool]] = {
    "tool": lambda ev, case, want: ev.name in want,
    "sub": lambda ev, case, want: ev.sub in want,
    "no_sub": lambda ev, case, want: (ev.sub is None) == want,
    "sub_suffix": lambda ev, case, want: (ev.sub or "").endswith(tuple(want)),
    "words": lambda ev, case, want: any(ev.words[: len(g)] == list(g) for g in want),
    "words_end": lambda ev, case, want: any(ev.words[-len(g) :] == list(g) for g in want),
    "words_max": lambda ev, case, want: len(ev.words) <= want,
    "rest": lambda ev, case, want: any(ev.rest()[: len(g)] == list(g) for g in want),
    "rest_min": lambda ev, case, want: len(ev.rest()) >= want,
    "rest_max": lambda ev, case, want: len(ev.rest()) <= want,
    "has": lambda ev, case, want: ev.scan(case).has(*want),
    "and_has": lambda ev, case, want: ev.scan(case).has(*want),
    "all": lambda ev, case, want: all(ev.scan(case).has(w) for w in want),
    "lacks": lambda ev, case, want: not ev.scan(case).has(*want),
    "on": lambda ev, case, want: ev.scan(case).on(*want),
    "off": lambda ev, case, want: any(w in ev.scan(case).flags and not ev.scan(case).on(w) for w in want),
    "value": lambda ev, case, want: _value(ev, case, want, False),
    "value_starts": lambda ev, case, want: _value(ev, case, want, True),
    "args_any": lambda ev, case, want: any(w in want for w in ev.argv[1:]),
    "args_all": lambda ev, case, want: all(w in ev.argv[1:] for w in want),
    "args_none": lambda ev, case, want: not any(w in want for w in ev.argv[1:]),
    "starts_any": lambda ev, case, want: any(w.startswith(tuple(want)) for w in ev.argv[1:]),
    "ends_any": lambda ev, case, want: any(not w.startswith("-") and w.endswith(tuple(want)) for w in ev.argv[1:]),
    "operand_ends": lambda ev, case, want: any(o.endswith(tuple(want)) for o in ev.scan(case).operands),
    "operand_contains": lambda ev, case, want: any(p in o for o in ev.scan(case).operands for p in want),
    "operands_min": lambda ev, case, want: _operand_count(ev, case) >= want,
    "operands_max": lambda ev, case, want: _operand_count(ev, case) <= want,
    "options_only": lambda ev, case, want: all(w.startswith("-") for w in ev.argv[1:]) == want,
    "args_min": lambda ev, case, want: len(ev.argv) - 1 >= want,
    "args_max": lambda ev, case, want: len(ev.argv) - 1 <= want,
    "stdin": lambda ev, case, want: ev.ctx.stdin == want,
    "env": lambda ev, case, want: any(_truthy(ev.ctx.env.get(name)) for name in want),
    "test": lambda ev, case, want: _test(ev, want),
    "unless": lambda ev, case, want: not _test(ev, want),
}


def _test(ev: _Eval, name: str) -> bool:
    """A named test of predicates.py (`test`, `unless`), loaded the first time a case reaches one."""
    from .predicates import TESTS

    return TESTS[name](ev)


def _python(argv: list[str], ctx: _Context) -> Reason | None:
    name, interactive, index = _tool(argv[0]), False, 1
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
                if letter == "c":
                    return None  # `-c code` ends
                module = word[position + 1 :] or (argv[index + 1] if index + 1 < len(argv) else "")
                if module in ("http.server", "SimpleHTTPServer"):
                    return ENDLESS, f"dev server ({name} -m {module})"
                if module in ("code", "asyncio", "IPython", "idlelib", "sqlite3") and not ctx.stdin:
                    return TERMINAL, f"interactive REPL ({name} -m {module})"
                return None  # any other module is the tool it is once stripped (`python -m pytest --pdb`)
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


def _shell(name: str, argv: list[str], ctx: _Context) -> Reason | None:
    found = launcher_body(argv)
    if found is not None:
        return _script(argv[found[0]], found[1], ctx.inner())
    if name in ("pwsh", "powershell"):
        lowered = [w.lower() for w in argv[1:]]
        if any(w in ("-c", "-command", "-f", "-file", "-encodedcommand") or not w.startswith("-") for w in lowered):
            return None if "-noexit" not in lowered else (TERMINAL, f"interactive shell ({name} -NoExit)")
        return None if ctx.stdin else (TERMINAL, f"interactive shell ({name})")
    args = _scan(argv, 1, "oOC", frozenset({"--rcfile", "--init-file", "--init-command"}), stop_at_operand=True)
    if args.has("-i", "--interactive"):
        return TERMINAL, f"interactive shell ({name} -i)"
    if args.stop < len(argv) or ctx.stdin:
        return None  # a script, or commands from a pipe or file
    return TERMINAL, f"interactive shell ({name} without -c or a script)"
