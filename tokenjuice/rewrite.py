"""The rewrite engine every host hook shares: should this shell command run through
`tokenjuice wrap`, and if so, as what exact command line?

A host (Cursor, Claude Code, Codex, Gemini CLI, Copilot CLI, OpenCode) hands its
adapter a command the agent is about to run; the adapter asks `plan()` and
answers the host with `Plan.command`. The same command gives the same plan on
every host: only the shell that will run the rewritten line, and the host's name
in `--source`, differ.

A wrapped command runs in a child shell. Whatever it does to *that* shell's
state (its directory, variables, options, functions, jobs) is lost when the
child exits, so a command that changes the agent's shell is never wrapped as a
whole: its leading state-changing steps (`cd api && export X=1 && …`) stay
outside the wrap, and a command with state changes anywhere else is left
alone. So are commands that never end or need a terminal (`interactive.py`),
commands already wrapped, and anything the engine cannot read with certainty —
when in doubt the hook leaves the command alone.
"""

from __future__ import annotations

import os

from .argv import SHELLS, basename, is_python, strip_wrappers
from .record import record
from .shellsyntax import Pipeline, SimpleCommand, fits_in_argv, parse, quote_for, split_words

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .settings import Settings

#: Shells a rewritten command can run its body in with `-lc`.
LOGIN_SHELLS = SHELLS - {"busybox"}

#: Builtins that change (or only make sense in) the shell that runs them: run in a
#: wrapped child shell, their effect would vanish with it.
STATE_BUILTINS = frozenset(
    {
        ".",
        "alias",
        "autoload",
        "bg",
        "bind",
        "bindkey",
        "cd",
        "chdir",
        "compdef",
        "complete",
        "declare",
        "dirs",
        "disable",
        "disown",
        "emulate",
        "enable",
        "eval",
        "exec",
        "exit",
        "export",
        "fc",
        "fg",
        "getopts",
        "hash",
        "history",
        "jobs",
        "let",
        "local",
        "logout",
        "mapfile",
        "popd",
        "pushd",
        "read",
        "readarray",
        "readonly",
        "rehash",
        "return",
        "set",
        "setopt",
        "shift",
        "shopt",
        "source",
        "suspend",
        "trap",
        "typeset",
        "ulimit",
        "umask",
        "unalias",
        "unfunction",
        "unhash",
        "unset",
        "unsetopt",
        "zmodload",
        # fish
        "abbr",
        "functions",
        "funcsave",
        "prevd",
        "nextd",
        "emit",
    }
)
#: State a child process inherits (the directory, exported variables, limits, the
#: umask): such leading steps can run outside the wrap and still hold inside it.
INHERITED_STATE = frozenset({"cd", "chdir", "pushd", "popd", "export", "unset", "ulimit", "umask"})
#: Steps that set shell variables a child does not inherit: outside the wrap only
#: when the wrapped part expands no variable (`$`) that they could have set.
VARIABLE_STATE = frozenset({"=", ".", "source", "declare", "typeset", "local", "readonly"})
#: Shell functions that tools install to change the shell they run in.
STATE_FUNCTIONS = frozenset(
    {
        ("nvm", "use"),
        ("nvm", "alias"),
        ("nvm", "unload"),
        ("conda", "activate"),
        ("conda", "deactivate"),
        ("mamba", "activate"),
        ("mamba", "deactivate"),
        ("micromamba", "activate"),
        ("micromamba", "deactivate"),
        ("pyenv", "shell"),
        ("pyenv", "activate"),
        ("pyenv", "deactivate"),
        ("rbenv", "shell"),
        ("nodenv", "shell"),
        ("goenv", "shell"),
        ("jenv", "shell"),
        ("rvm", "use"),
        ("sdk", "use"),
        ("asdf", "shell"),
        ("mise", "shell"),
        ("rtx", "shell"),
        ("direnv", "allow"),
        ("workon", None),
        ("deactivate", None),
        ("chruby", None),
        ("fnm", "use"),
        ("volta", "use"),
        ("z", None),
        ("zoxide", None),
        ("j", None),
        ("wait", None),
    }
)
#: Words that open or join shell grammar around a command (`if`, `do`, `!`, `{`, `time`).
_GRAMMAR = frozenset(
    {"if", "then", "elif", "else", "fi", "for", "select", "while", "until", "do", "done", "case", "esac", "!", "{", "}"}
    | {"and", "or", "not", "begin", "end", "switch"}  # fish
)
#: fish's `and`/`or` read the status of the step before: they go outside with it.
_FISH_JOINERS = ("and", "or")
#: Operators after which the next step runs in the same shell whatever happened.
_SEQUENCE = frozenset({"&&", ";", "\n"})


@record
class Plan:
    """What the host should run, and why."""

    command: str  # the rewritten command, or the original when it is left alone
    wrapped: bool
    reason: str  # "wrapped", or why not ("interactive: tail -f", "already wrapped", …)
    outside: str = ""  # leading steps kept outside the wrap because they change the shell

    @classmethod
    def leave(cls, command: str, reason: str) -> Plan:
        return cls(command, False, reason)


def plan(
    command: str,
    *,
    host: str,
    shell: str,
    launcher: str,
    settings: Settings,
    env: Mapping[str, str] | None = None,
) -> Plan:
    """The plan for `command`, which the host runs with `shell` (an absolute path).
    `launcher` is how to start tokenjuice, shell-quoted for that shell."""
    if not command.strip():
        return Plan.leave(command, "empty")
    if "\0" in command or not _encodable(command):
        return Plan.leave(command, "not a command a shell can receive (NUL or invalid text)")
    shell_name = basename(shell).lower()
    if shell_name not in LOGIN_SHELLS:
        return Plan.leave(command, f"unsupported shell {shell_name}")
    dialect = "fish" if shell_name == "fish" else "posix"
    pipelines, complete = parse(command, dialect)
    if not complete or not pipelines:
        return Plan.leave(command, "incomplete or unreadable shell syntax")
    if _defines_function(command, dialect):
        return Plan.leave(command, "defines a shell function")
    steps = _steps(pipelines)
    if any(_runs_tokenjuice(simple.argv) for step in steps for pipeline in step for simple in pipeline.commands):
        return Plan.leave(command, "already runs tokenjuice")
    outside_end = _state_prefix_end(steps)
    rest_steps = steps[_count_prefix_steps(steps) :]
    if not rest_steps:
        return Plan.leave(command, "only changes the shell's state")
    changed = _state_change(rest_steps)
    if changed:
        return Plan.leave(command, f"changes the shell's state ({changed})")
    background = _background(rest_steps)
    if background:
        return Plan.leave(command, background)
    if outside_end and dialect == "fish":
        first = rest_steps[0][0].commands[0]
        if first.words and first.words[0].value in _FISH_JOINERS and first.depth == 0:
            outside_end = first.words[0].end  # `cd x; and make`: `and` tests the cd
    body = _trim(command[outside_end:] if outside_end else command)
    why = _never_wrapped(body, dialect, any(step[-1].op == "&" for step in rest_steps), settings)
    if why:
        return Plan.leave(command, why)
    if body.startswith("-"):
        return Plan.leave(command, "starts with '-' (a shell would read it as an option)")
    try:
        quote_word = quote_for(shell)
    except ValueError:
        return Plan.leave(command, f"unsupported shell {shell_name}")
    launcher_words = split_words(launcher)
    launch = " ".join(quote_word(word) for word in launcher_words)  # the host's shell parses it
    options = ["wrap", "--source", host, "--keep-path", "--"]
    wrapped = f"{launch} {' '.join(options)} {quote_word(shell)} -lc {quote_word(body)}"
    grown = _after_profile_cost(env) + body  # what wrap --keep-path runs: PATH, cd and a marker first
    if not fits_in_argv(wrapped, words=[*launcher_words, *options, shell, "-lc", grown]):
        return Plan.leave(command, "too long to pass as one argument")
    outside = command[:outside_end] if outside_end else ""
    if outside:
        outside = outside.rstrip() + " "
    return Plan(outside + wrapped, True, "wrapped", outside.strip())


def _trim(text: str) -> str:
    """`text` without the whitespace around it, but for whitespace a backslash escapes
    at its end: in `echo \\<tab>` the tab is the argument, and cutting it would leave
    a trailing backslash that each shell reads its own way."""
    trimmed = text.strip()
    escapes = len(trimmed) - len(trimmed.rstrip("\\"))
    if escapes % 2:  # the last backslash escapes the whitespace that followed it
        return text.lstrip()[: len(trimmed) + 1]
    return trimmed


def _after_profile_cost(env: Mapping[str, str] | None) -> str:
    """A stand-in as long as the prefix `wrap --keep-path` puts before the body
    (`PATH=…; export PATH; cd -- …; printf …` in commands/wrap.py `after_profile`)."""
    path = (os.environ if env is None else env).get("PATH", "")
    return "x" * (2 * len(path) + 2 * len(os.getcwd()) + 256)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates
        return False
    return True


def _defines_function(command: str, dialect: str) -> bool:
    """`f() { …; }` or `function f …` (a definition lives in the shell that reads it)."""
    from .shellsyntax import lex

    tokens = lex(command, dialect).tokens
    for index, token in enumerate(tokens):
        if token.kind == "word" and token.value == "function" and (index == 0 or tokens[index - 1].kind == "op"):
            return True
        opens_body = token.value == "(" and index + 1 < len(tokens) and tokens[index + 1].value == ")"
        if opens_body and index > 0 and tokens[index - 1].kind == "word":
            return True
    return False


def _steps(pipelines: list[Pipeline]) -> list[list[Pipeline]]:
    """The top-level steps: runs of pipelines joined by operators inside subshells,
    each step ending at an operator of the shell itself."""
    steps: list[list[Pipeline]] = []
    current: list[Pipeline] = []
    for pipeline in pipelines:
        current.append(pipeline)
        if pipeline.op_depth == 0:
            steps.append(current)
            current = []
    if current:
        steps.append(current)
    return steps


def _words(simple: SimpleCommand) -> list[str]:
    """The command's words without the grammar around it (`if`, `do`, `!`, `time`)."""
    return _words_of(simple.argv)


def _is_assignment(word: str) -> bool:
    name, equals, _ = word.partition("=")
    return bool(equals) and bool(name) and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum()


def _changes_state(simple: SimpleCommand, dialect_fish: bool = False) -> str | None:
    """The state-changing word of a command that runs in the shell itself, or None."""
    words = _words(simple)
    index = 0
    while index < len(words) and _is_assignment(words[index]):
        index += 1
    if index == len(words):
        return "=" if words else None  # a bare assignment persists
    name = words[index]
    if name in ("builtin", "command") and index + 1 < len(words):
        index += 1
        name = words[index]
    following = words[index + 1] if index + 1 < len(words) else None
    if name in STATE_BUILTINS:
        return name
    if following is not None and (name, following) in STATE_FUNCTIONS:
        return f"{name} {following}"
    if (name, None) in STATE_FUNCTIONS:
        return name
    if name == "kill" and any(word.startswith("%") for word in words[index + 1 :]):
        return "kill %job"
    return None


def _single(step: list[Pipeline]) -> SimpleCommand | None:
    if len(step) == 1 and len(step[0].commands) == 1 and step[0].commands[0].depth == 0:
        return step[0].commands[0]
    return None


def _count_prefix_steps(steps: list[list[Pipeline]]) -> int:
    """How many leading steps can run outside the wrap with the same effect: they
    change only what the wrapped part inherits anyway (or set variables it never
    expands)."""
    if any(pipeline.op == "&" for step in steps for pipeline in step):
        return 0  # `cd x && cmd &` sends the whole list, cd included, to a subshell
    count = 0
    for step in steps:
        simple = _single(step)
        if simple is None or step[-1].op not in (*_SEQUENCE, None) or _words(simple) != simple.argv:
            break  # `if cd x; then` is grammar, not a prefix
        changed = _changes_state(simple)
        if changed not in INHERITED_STATE and changed not in VARIABLE_STATE:
            break
        count += 1
    if any(_changes_state(simple) in VARIABLE_STATE for step in steps[:count] for simple in step[0].commands):
        rest = steps[count:]
        if rest and any("$" in c.text or "`" in c.text for step in rest for p in step for c in p.commands):
            return 0  # the wrapped part may expand a variable only the outer shell would have
    return count


def _state_prefix_end(steps: list[list[Pipeline]]) -> int:
    """Where the leading state-changing steps end (after their operator), or 0."""
    count = _count_prefix_steps(steps)
    return steps[count - 1][-1].op_end if count else 0


def _state_change(steps: list[list[Pipeline]]) -> str | None:
    """The first command among `steps` that would change the shell if it ran there."""
    for step in steps:
        for pipeline in step:
            for simple in pipeline.commands:
                if simple.depth:
                    continue  # inside `( … )`: a subshell already
                if len(pipeline.commands) > 1 and simple is not pipeline.commands[-1]:
                    continue  # bash runs each stage in a subshell, zsh the last in the shell itself
                found = _changes_state(simple)
                if found == "wait" and _background_before(steps, simple):
                    continue
                if found:
                    return found
    return None


def _background_before(steps: list[list[Pipeline]], target: SimpleCommand) -> bool:
    """Is some step before `target` sent to the background (so `wait` waits for it)?"""
    for step in steps:
        for pipeline in step:
            if target in pipeline.commands:
                return False
            if pipeline.op == "&" and pipeline.op_depth == 0:
                return True
    return False


def _background(steps: list[list[Pipeline]]) -> str | None:
    """Why background jobs make this command unsafe to wrap, or None: `cmd &` alone
    detaches (wrapping would hold the job's output); `a & b & wait` is one unit."""
    background = [step for step in steps if step[-1].op == "&"]
    if not background:
        return None
    if steps[-1][-1].op == "&":
        return "runs in the background (trailing &)"
    last = _single(steps[-1])
    if last is None or _words(last)[:1] != ["wait"]:
        return "leaves a background job running"
    return None


def _never_wrapped(body: str, dialect: str, waited: bool, settings: Settings) -> str | None:
    """Why the body must run unwrapped (interactive or never-ending, or one of the
    user's `hook.skip` patterns), or None."""
    from . import interactive

    if settings["hook.skip_defaults"]:
        why = interactive.why_not_wrapped_script(body, dialect, waited=waited)
        if why:
            return f"interactive or long-running: {why}"
    patterns = list(settings["hook.skip"])
    if patterns:
        from .command import analyze  # the user's patterns also see the command that does the work

        pipelines, _ = parse(body, dialect)
        texts = [(simple.text, simple.argv) for pipeline in pipelines for simple in pipeline.commands]
        analysed = analyze(body)
        texts.append((analysed.normalized_command, list(analysed.first_argv)))
        for text, argv in texts:
            matched = interactive.matches_user_pattern(text, argv, patterns)
            if matched:
                return f"hook.skip pattern {matched!r}"
    return None


def _runs_tokenjuice(argv: Sequence[str]) -> bool:
    """Any form that starts tokenjuice: `tokenjuice …` by any path, `python -m
    tokenjuice`, the hook's direct launcher, behind env/sudo/exec/command."""
    argv = strip_wrappers(list(_words_of(argv)))
    if not argv:
        return False
    name = basename(argv[0]).lower()
    if name.startswith("tokenjuice"):
        return True
    if is_python(name):
        options = argv[1:6]
        return any(word in ("tokenjuice", "-mtokenjuice") or "tokenjuice.entry" in word for word in options)
    return False


def _words_of(argv: Sequence[str]) -> list[str]:
    index = 0
    while index < len(argv) and (argv[index] in _GRAMMAR or argv[index] == "time"):
        index += 1
    return list(argv[index:])


def launcher_usable(launcher_argv: Sequence[str], env: Mapping[str, str]) -> bool:
    """Does the launcher's program still exist? (a `pip uninstall` leaves the hook
    entry behind: the rewritten command must never point at nothing)."""
    if not launcher_argv:
        return False
    program = launcher_argv[0]
    if "/" in program:
        return os.access(program, os.X_OK)
    for directory in env.get("PATH", os.defpath).split(os.pathsep):
        if directory and os.access(os.path.join(directory, program), os.X_OK):
            return True
    return False
