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
outside the wrap — only whole commands of the shell's grammar (`parse_tree`) —
and a command with state changes anywhere else is left alone. The child also
lacks what the agent's shell has: its functions and aliases (a command name that
is neither a builtin nor on PATH), its unexported variables, `$?`, `$1`, `$$`.
A command that needs them is left alone too. So are commands that never end or
need a terminal (`interactive.py`), commands already wrapped, and anything the
engine cannot read with certainty — when in doubt the hook leaves the command
alone. docs/never-wrapped.md states the rules.
"""

from __future__ import annotations

import os

from ..fast.record import record
from .argv import SHELLS, basename, is_python, strip_wrappers
from .syntax import (
    FUNCTION_DEFINITION,
    MAX_ARG_STRLEN,
    AndOr,
    CommandList,
    Node,
    PipelineNode,
    Tree,
    Unreadable,
    command_start,
    fits_in_argv,
    parse,
    parse_tree,
    quote_for,
    split_words,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ..settings import Settings

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
        "coproc",
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
VARIABLE_STATE = frozenset({"=", "declare", "typeset", "local", "readonly"})
#: Builtins that read what only the agent's shell holds — its functions, aliases,
#: hashed programs, jobs, directory stack — wherever they run: a pipeline stage, a
#: subshell or `$( … )` of the agent's shell holds them too, a wrapped child does not.
#: (`command -v`/`-V`, `declare -f`/`-F`/`-p` and zsh's `which` are read in `_asks`.)
SHELL_QUERIES = frozenset({"type", "whence", "where", "hash", "compgen", "functions", "alias", "jobs", "dirs"})
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
#: Shells that run every stage of a pipeline in a subshell (zsh and ksh run the last
#: one in the shell itself, fish its builtins).
_SUBSHELL_PIPES = frozenset({"bash", "dash", "sh", "ash"})


@record
class Plan:
    """What the host should run, and why."""

    command: str  # the rewritten command, or the original when it is left alone
    wrapped: bool
    reason: str  # "wrapped", or why not ("interactive: tail -f", "already wrapped", …)
    outside: str = (
        ""  # leading steps kept outside the wrap because they change the shell (with a newline that ends them)
    )

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
    cwd: str | None = None,
) -> Plan:
    """The plan for `command`, which the host runs with `shell` (an absolute path)
    in `cwd` with `env` (the hook's own when not given). `launcher` is how to
    start tokenjuice, shell-quoted for that shell."""
    if len(command) >= MAX_ARG_STRLEN:  # decided before reading it: one argument cannot hold it
        return Plan.leave(command, "too long to pass as one argument")
    if not command.strip():
        return Plan.leave(command, "empty")
    if "\0" in command or not _encodable(command):
        return Plan.leave(command, "not a command a shell can receive (NUL or invalid text)")
    shell_name = basename(shell).lower()
    if shell_name not in LOGIN_SHELLS:
        return Plan.leave(command, f"unsupported shell {shell_name}")
    dialect = "fish" if shell_name == "fish" else "posix"
    try:
        tree = parse_tree(command, dialect)
    except Unreadable as error:
        if str(error) == FUNCTION_DEFINITION:
            return Plan.leave(command, "defines a shell function")
        return Plan.leave(command, "incomplete or unreadable shell syntax")
    if not tree.root:
        return Plan.leave(command, "incomplete or unreadable shell syntax")
    nodes = tree.walk("all" if dialect == "fish" else "none" if shell_name in _SUBSHELL_PIPES else "last")
    if any(node.kind == "simple" and _runs_tokenjuice(node.argv) for node, _ in nodes):
        return Plan.leave(command, "already runs tokenjuice")
    environment = os.environ if env is None else env
    outside_end, prefix = _state_prefix(tree, cwd)
    rest = [(node, here) for node, here in nodes if node.start >= outside_end]
    if not rest:
        return Plan.leave(command, "only changes the shell's state")
    try:
        found = _rest_expansions(tree, outside_end)
    except ValueError:  # substitutions nested too deeply to read in the hook's time
        return Plan.leave(command, "incomplete or unreadable shell syntax")
    asked = _asks_the_shell(rest, shell_name)
    if asked:
        return Plan.leave(command, asked)
    if any(_words_of(step.argv)[:1] in (["."], ["source"]) for step in prefix):
        from .activate import ACTIVATE_FUNCTIONS  # a virtualenv's activate was sourced outside

        called = _calls(rest, ACTIVATE_FUNCTIONS)
        if called:
            return Plan.leave(command, f"calls {called}, a function the virtualenv's activate defines")
    changed = _state_change(tree, rest, found)
    if changed:
        return Plan.leave(command, f"changes the shell's state ({changed})")
    background = _background(tree, outside_end)
    if background:
        return Plan.leave(command, background)
    body = _trim(command[outside_end:] if outside_end else command)
    if body.startswith("-"):
        return Plan.leave(command, "starts with '-' (a shell would read it as an option)")
    inner: list[tuple[Node, bool]] | None = []
    if found or any(word.value.startswith("((") for node, _ in rest for word in node.words[:2]):
        from .expand import reads_outer_state, substituted  # only for a line with $, ` or ((…))

        reads = reads_outer_state(tree, rest, outside_end, prefix, environment, found)
        if reads:
            return Plan.leave(command, reads)
        inner = substituted(found, dialect)
    if inner is None:
        return Plan.leave(command, "incomplete or unreadable shell syntax")
    asked = _asks_the_shell(inner, shell_name)
    if asked:
        return Plan.leave(command, asked)
    unknown = _not_a_program(rest + inner, prefix, environment, cwd)
    if unknown:
        return Plan.leave(command, unknown)
    waited = any(item.sep == "&" for item in tree.root)
    why = _never_wrapped(body, dialect, waited, settings)
    if why:
        return Plan.leave(command, why)
    # the body keeps its line numbers (error messages, $LINENO) under the lines that stay outside
    if outside_end:
        rest_text = command[outside_end:]
        lead = len(rest_text) - len(rest_text.lstrip())
        body = "\n" * command.count("\n", 0, outside_end + lead) + body
    try:
        quote_word = quote_for(shell)
    except ValueError:
        return Plan.leave(command, f"unsupported shell {shell_name}")
    launcher_words = split_words(launcher)
    launch = " ".join(quote_word(word) for word in launcher_words)  # the host's shell parses it
    options = ["wrap", "--source", host, "--keep-path", "--"]
    wrapped = f"{launch} {' '.join(options)} {quote_word(shell)} -lc {quote_word(body)}"
    grown = _after_profile_cost(environment, cwd) + body  # what wrap --keep-path runs: PATH, cd and a marker first
    if not fits_in_argv(wrapped, words=[*launcher_words, *options, shell, "-lc", grown], environ=environment):
        return Plan.leave(command, "too long to pass as one argument")
    outside = command[:outside_end].rstrip() if outside_end else ""
    if outside and "\n" in command[len(outside) : outside_end] and not outside.endswith((";", "&&", "||", "|")):
        outside += "\n"  # the newline is what ends the last step outside: `cd x\nmake`
    return Plan(f"{outside} {wrapped}" if outside else wrapped, True, "wrapped", outside)


def _trim(text: str) -> str:
    """`text` without the whitespace around it, but for whitespace a backslash escapes
    at its end: in `echo \\<tab>` the tab is the argument, and cutting it would leave
    a trailing backslash that each shell reads its own way."""
    trimmed = text.strip()
    escapes = len(trimmed) - len(trimmed.rstrip("\\"))
    if escapes % 2:  # the last backslash escapes the whitespace that followed it
        return text.lstrip()[: len(trimmed) + 1]
    return trimmed


def _after_profile_cost(env: Mapping[str, str], cwd: str | None) -> str:
    """A stand-in as long as the prefix `wrap --keep-path` puts before the body
    (`PATH=…; export PATH; cd -- …; printf …` in commands/wrap.py `after_profile`)."""
    path = env.get("PATH", "")
    return "x" * (2 * len(path) + 2 * len(cwd or os.getcwd()) + 256)


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates
        return False
    return True


def _changes_state(argv: Sequence[str]) -> str | None:
    """The state-changing word of a command that runs in the shell itself, or None."""
    words = _words_of(argv)
    index = command_start(words)
    if index == len(words):
        return "=" if words else None  # a bare assignment persists
    name = words[index]
    while name in ("builtin", "command") and index + 1 < len(words):
        index += 1
        while index + 1 < len(words) and words[index] in ("-p", "--"):
            index += 1  # `command -p cd`
        name = words[index]
    following = words[index + 1] if index + 1 < len(words) else None
    if name in STATE_BUILTINS:
        return name
    if name == "printf" and any(word == "-v" or word.startswith("-v") for word in words[index + 1 : index + 3]):
        return "printf -v"
    if following is not None and (name, following) in STATE_FUNCTIONS:
        return f"{name} {following}"
    if (name, None) in STATE_FUNCTIONS:
        return name
    if name == "kill" and any(word.startswith("%") for word in words[index + 1 :]):
        return "kill %job"
    return None


def _asks_the_shell(nodes: Sequence[tuple[Node, bool]], shell_name: str) -> str | None:
    """Why a command must run in the agent's shell itself wherever in the line it is,
    or None: sourcing a file (what it runs sees, and what it sets — options such as
    `set -o pipefail`, functions, aliases — reaches, only the shell that sources it),
    or asking the shell about itself (`type`, `command -v`, `declare -f`, `hash`…)."""
    for node, _ in nodes:
        if node.kind != "simple":
            continue
        words = _words_of(node.argv)
        index = command_start(words)
        while index < len(words) and words[index] in ("builtin", "command"):
            if words[index] == "command" and index + 1 < len(words):
                option = words[index + 1]
                if option.startswith("-") and option != "--" and set(option[1:]) & set("vVq"):
                    return f"reads the agent's shell (command {option})"
            index += 1
            while index < len(words) and words[index] in ("-p", "--"):
                index += 1
        if index == len(words):
            continue
        name = words[index]
        options = [word for word in words[index + 1 :] if word.startswith(("-", "+"))]
        if name in (".", "source"):
            return f"sources a file into the agent's shell ({name})"
        if name == "alias" and any("=" in word for word in words[index + 1 :]):
            continue  # defines one: a change of the shell, which `_state_change` reads
        if name in SHELL_QUERIES or (name == "which" and shell_name == "zsh"):
            return f"reads the agent's shell ({name})"
        if name in ("declare", "typeset") and (
            index + 1 == len(words) or any(set(option[1:]) & set("fFp") for option in options)
        ):
            return f"reads the agent's shell ({name}{' ' + options[0] if options else ''})"
    return None


def _joined(tree: Tree) -> list[AndOr]:
    """The top-level and-or lists, with fish's `; and …` / `; or …` steps joined in
    as `&&` / `||` (they test the step before, as `&&` and `||` do)."""
    joined: list[AndOr] = []
    for item in tree.root:
        first = item.pipelines[0]
        joiner = first.prefix[0].value if first.prefix else ""
        if tree.dialect == "fish" and joiner in _FISH_JOINERS and joined and joined[-1].sep != "&":
            previous = joined[-1]
            previous.ops.append("&&" if joiner == "and" else "||")
            previous.op_ends.append(first.prefix[0].end)
            previous.pipelines.extend(item.pipelines)
            previous.ops.extend(item.ops)
            previous.op_ends.extend(item.op_ends)
            previous.sep, previous.sep_end = item.sep, item.sep_end
            continue
        copy = AndOr(list(item.pipelines), list(item.ops), list(item.op_ends))
        copy.sep, copy.sep_end = item.sep, item.sep_end
        joined.append(copy)
    return joined


def _prefix_step(pipeline: PipelineNode, fish: bool, here: str | None) -> Node | None:
    """The command, if `pipeline` is one simple command that may run outside the
    wrap: it changes only what a child inherits, or sets variables, or sources a
    virtualenv's activate script (read from `here`, the folder the steps before it
    leave the shell in, None when they cannot be followed)."""
    if pipeline.prefix or len(pipeline.stages) != 1 or pipeline.stages[0].kind != "simple":
        return None
    node = pipeline.stages[0]
    changed = _step_kind(node.argv, fish)
    if changed in (".", "source") and not fish:
        from .activate import activates_a_virtualenv

        return node if activates_a_virtualenv(_words_of(node.argv), here) else None
    return node if changed in INHERITED_STATE or changed in VARIABLE_STATE else None


def _followed(here: str | None, words: Sequence[str]) -> str | None:
    """The folder a `cd DIR` (`pushd`, `chdir`) from `here` leads to, or None when it
    cannot be followed from the text (`cd -`, `cd $X`, `cd ~user`, `popd`)."""
    target = words[1] if len(words) == 2 and words[0] in ("cd", "chdir", "pushd") else None
    if here is None or not target or target.startswith("-") or any(char in target for char in "$`~*?[{"):
        return None
    return os.path.normpath(os.path.join(here, target))


def _calls(rest: Sequence[tuple[Node, bool]], names: frozenset[str]) -> str | None:
    """The first of `names` a simple command of `rest` runs, or None."""
    for node, _ in rest:
        if node.kind != "simple":
            continue
        words = _words_of(node.argv)
        index = command_start(words)
        if index < len(words) and words[index] in names:
            return words[index]
    return None


def _step_kind(argv: Sequence[str], fish: bool) -> str | None:
    """What a step changes (`_changes_state`), with fish's `set`: exporting or
    erasing (`set -gx X 1`, `set -e X`) is what a child inherits ("export"), any
    other `set X 1` a shell variable ("="); a query (`set -q X`) is neither."""
    changed = _changes_state(argv)
    if not (fish and changed == "set" and argv[:1] == ["set"] and len(argv) > 1):
        return changed
    flags = "".join(word[1:] for word in argv[1:] if word.startswith("-") and not word.startswith("--"))
    longs = {word for word in argv[1:] if word.startswith("--")}
    if "q" in flags or "n" in flags or "S" in flags or longs & {"--query", "--names", "--show"}:
        return "set"
    if "x" in flags or "e" in flags or longs & {"--export", "--erase"}:
        return "export"
    return "="


def _all_items(commands: CommandList) -> list[AndOr]:
    items: list[AndOr] = []
    for item in commands:
        items.append(item)
        for pipeline in item.pipelines:
            for stage in pipeline.stages:
                for body in stage.body:
                    items.extend(_all_items(body))
    return items


def _state_prefix(tree: Tree, cwd: str | None = None) -> tuple[int, list[Node]]:
    """Where the leading steps that can run outside the wrap end, and those steps.

    Only whole commands of the grammar go outside: complete top-level and-or lists
    of such steps (`cd a && cd b; …`), or — in the last and-or list only — its
    leading `&&` steps, when no `||` follows (`cd x && a || b` is `(cd x && a) || b`,
    and `cd x && a; b` runs `b` even when `cd` fails)."""
    if any(item.sep == "&" for item in _all_items(tree.root)):
        return 0, []  # `cd x && cmd &` sends the whole list, cd included, to a subshell
    items = _joined(tree)
    end = 0
    prefix: list[Node] = []
    here: str | None = cwd or os.getcwd()  # the folder the steps so far leave the shell in; None after a `cd`
    for index, item in enumerate(items):
        steps: list[Node | None] = []
        for pipeline in item.pipelines:
            step = _prefix_step(pipeline, tree.dialect == "fish", here)
            steps.append(step)
            if step is not None and _step_kind(step.argv, tree.dialect == "fish") in ("cd", "chdir", "pushd", "popd"):
                here = _followed(here, _words_of(step.argv))
        if all(steps):
            prefix += [step for step in steps if step is not None]
            end = item.sep_end
            continue
        if index == len(items) - 1:
            count = 0
            while count < len(item.ops) and item.ops[count] == "&&" and steps[count] is not None:
                count += 1
            if count and "||" not in item.ops[count:]:
                prefix += [step for step in steps[:count] if step is not None]
                end = item.op_ends[count - 1]
        break
    if any(_step_kind(step.argv, tree.dialect == "fish") in (*VARIABLE_STATE, ".", "source") for step in prefix):
        rest = tree.source[end:]
        if "$" in rest or "`" in rest:
            return 0, []  # the wrapped part may expand a variable only the outer shell would have
    return end, prefix


def _state_change(tree: Tree, rest: list[tuple[Node, bool]], found: list[tuple[str, str, int]]) -> str | None:
    """The first command of `rest` that would change the shell if it ran there (or
    an expansion among `found` that assigns)."""
    for node, here in rest:
        if not here:
            continue
        if node.kind == "simple":
            changed = _changes_state(node.argv)
            if changed == "wait" and _background_before(tree, node):
                continue
            if changed:
                return changed
        elif node.kind == "arith":
            from .expand import arithmetic_names

            if any(kind == "assign" for kind, _, _ in arithmetic_names(node.words[0].value)):
                return "((…=…))"
        elif node.kind == "loop" and node.words[0].value == "select":
            return "select"
    for kind, name, _ in found:
        if kind == "assign":
            return f"assigns {name} in an expansion"
    return None


def _rest_expansions(tree: Tree, start: int) -> list[tuple[str, str, int]]:
    """What the text after `start` expands (here-document bodies by their own rules)."""
    source = tree.source
    rest = source[start:]
    if "$" not in rest and "`" not in rest and (tree.dialect != "fish" or "(" not in rest):
        return []
    from .expand import expansions

    found: list[tuple[str, str, int]] = []
    position = start
    for body_start, body_end, expands in sorted(tree.bodies):
        if body_end <= start:
            continue
        found += [(k, n, o + position) for k, n, o in expansions(source[position:body_start], tree.dialect)]
        if expands:
            body = source[body_start:body_end]
            found += [(k, n, o + body_start) for k, n, o in expansions(body, tree.dialect, here_doc=True)]
        position = body_end
    found += [(k, n, o + position) for k, n, o in expansions(source[position:], tree.dialect)]
    return found


def _background_before(tree: Tree, target: Node) -> bool:
    """Is a top-level step before `target` sent to the background (so `wait` waits for it)?"""
    return any(item.sep == "&" and item.sep_end <= target.start for item in tree.root)


def _background(tree: Tree, start: int) -> str | None:
    """Why background jobs make this command unsafe to wrap, or None: `cmd &` alone
    detaches (wrapping would hold the job's output); `a & b & wait` is one unit."""
    top = [item for item in tree.root if item.end > start]
    nested = [item for item in _all_items(tree.root) if item.sep == "&" and item not in tree.root]
    if nested:
        return "leaves a background job running"
    if not any(item.sep == "&" for item in top):
        return None
    if top[-1].sep == "&":
        return "runs in the background (trailing &)"
    last = top[-1]
    stages = last.pipelines[0].stages
    if len(last.pipelines) != 1 or len(stages) != 1 or stages[0].kind != "simple" or stages[0].argv[:1] != ["wait"]:
        return "leaves a background job running"
    return None


#: Builtins and reserved words of bash, dash, zsh and fish: never looked up on PATH.
_BUILTIN_TEXT = (
    "! - . : [ [[ ]] _ abbr alias and argparse autoload begin bg bind bindkey block break breakpoint builtin "
    "bye caller case cd chdir command commandline compadd comparguments compcall compctl compdescribe "
    "compfiles compgen compgroups complete compopt compquote compset comptags comptry compvalues contains "
    "continue coproc count declare dirs disable disown do done echo echotc echoti elif else emit emulate "
    "enable end esac eval exec exit export false fc fg fi float for foreach function functions getln getopts "
    "hash help history if in integer jobs kill let limit local log logout mapfile math nocorrect noglob not "
    "or path popd print printf private pushd pushln pwd r random read readarray readonly realpath rehash "
    "repeat return sched select set set_color setopt shift shopt source status string suspend switch test "
    "then time times trap true ttyctl type typeset ulimit umask unalias unfunction unhash unlimit unset "
    "unsetopt until vared wait whence where which while zcompile zformat zle zmodload zparseopts zregexparse "
    "zstyle { }"
)
BUILTIN_NAMES = frozenset(_BUILTIN_TEXT.split())


def _search_path(env: Mapping[str, str], prefix: list[Node], cwd: str) -> tuple[list[str], str]:
    """The directories the command's programs are found in: PATH, as the steps
    outside change it (`export PATH=…:$PATH`, a virtualenv's `bin/activate`, read
    from the directory the `cd`s before it lead to), and that directory."""
    directories = env.get("PATH", os.defpath).split(os.pathsep)
    here: str | None = cwd  # None once a `cd` goes somewhere this cannot follow (`cd -`, `cd $X`)
    for node in prefix:
        argv = node.argv
        if argv[:1] in (["cd"], ["pushd"]):
            target = argv[1] if len(argv) == 2 else None
            literal = target is not None and not target.startswith("-") and not any(c in target for c in "$`~*?[")
            here = os.path.join(here, target) if here is not None and literal and target else None
            continue
        if argv[:1] in (["."], ["source"]) and len(argv) == 2:  # a virtualenv's activate (`_prefix_step`)
            if here is not None or os.path.isabs(argv[1]):  # its programs sit beside it
                directories.insert(0, os.path.join(here or "/", os.path.dirname(argv[1])))
            continue
        for word in argv[1:] if argv[:1] == ["export"] else argv:
            if word.startswith("PATH="):
                grown: list[str] = []
                for entry in word[5:].split(os.pathsep):
                    if entry in ("$PATH", "${PATH}"):
                        grown += directories
                    elif "$" not in entry and "`" not in entry:
                        grown.append(os.path.expanduser(entry))
                directories = grown
    where = here or cwd
    return [os.path.join(where, directory) for directory in directories if directory], where


def _not_a_program(
    rest: list[tuple[Node, bool]], prefix: list[Node], env: Mapping[str, str], cwd: str | None
) -> str | None:
    """Why a command name is probably a function or alias of the agent's shell, or
    None: a name that is neither a builtin nor an executable on the PATH it will
    run with, nor in a folder that the agent's shell may have on its PATH
    (`homes.program_homes`). A wrapped child shell has none of the functions and
    aliases the agent's shell has defined or sourced: `nvm`, `sdk`, a user's own."""
    directories: list[str] | None = None
    homes: list[str] | None = None
    where = cwd or os.getcwd()
    checked: set[str] = set()
    for node, _ in rest:
        if node.kind != "simple":
            continue
        argv = node.argv
        index = command_start(argv)
        if index == len(argv):
            continue
        name = argv[index]
        if name in checked or name in BUILTIN_NAMES or not name or any(c in name for c in "/$`*?[~("):
            continue
        checked.add(name)
        if directories is None:
            directories, where = _search_path(env, prefix, where)
        if any(_is_program(os.path.join(directory, name)) for directory in directories):
            continue
        if homes is None:
            from .homes import program_homes  # a name not on PATH: rare, so read only then

            homes = program_homes(env, where)
        if not any(_is_program(os.path.join(directory, name)) for directory in homes):
            return f"runs {name}, which is neither a builtin nor a program on PATH (a function or alias?)"
    return None


def _is_program(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return mode & 0o170000 == 0o100000 and bool(mode & 0o111)


def _never_wrapped(body: str, dialect: str, waited: bool, settings: Settings) -> str | None:
    """Why the body must run unwrapped (interactive or never-ending, or one of the
    user's `hook.skip` patterns), or None."""
    from .neverwrap import engine as interactive

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
        from .neverwrap.user import matches_user_pattern

        for text, argv in texts:
            matched = matches_user_pattern(text, argv, patterns)
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
