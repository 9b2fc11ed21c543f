"""Work out which command really produced an output, before any rule is chosen.

Agents rarely run `pytest`; they run `bash -lc 'cd repo && FOO=1 uv run pytest -x 2>&1'`.
`analyze` peels that back to candidates the classifier can match: the command as
given (`original`), the body of a shell launcher (`shell-body`) and the command that
actually produces the output (`effective`, with setup steps, environment
assignments, wrappers such as `sudo`/`time` and runners such as `npx`/`uv run`
removed). It also decides when output must stay raw (exact file reads, unsafe
inventory pipelines).
"""

from __future__ import annotations

from . import shellsyntax
from .record import record
from .shellsyntax import Pipeline, SimpleCommand

TYPE_CHECKING = False  # collections.abc costs ~1.4 ms to import on the hook's path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

ORIGINAL, SHELL_BODY, EFFECTIVE = "original", "shell-body", "effective"
SOURCE_PRIORITY = {ORIGINAL: 0, SHELL_BODY: 1, EFFECTIVE: 2}

SHELLS = frozenset({"bash", "sh", "zsh", "fish", "dash", "ksh", "mksh", "ash", "yash", "busybox"})
_MAX_UNWRAP_DEPTH = 4

#: Commands whose own output carries nothing worth classifying.
SETUP_COMMANDS = frozenset(
    {
        "cd",
        "pushd",
        "popd",
        "pwd",
        "set",
        "setopt",
        "shopt",
        "source",
        ".",
        "export",
        "unset",
        "trap",
        "true",
        ":",
        "alias",
        "umask",
        "ulimit",
        "hash",
        "declare",
        "typeset",
        "local",
        "exit",
        "return",
        "false",
        "wait",
        "sleep",
        "clear",
    }
)
#: Commands that only print a caption around the real work (`echo "== tests ==" && pytest`).
DECORATION_COMMANDS = frozenset({"echo", "printf"})
#: (command, first argument) pairs that are setup too.
SETUP_SUBCOMMANDS = frozenset(
    {
        ("nvm", "use"),
        ("conda", "activate"),
        ("conda", "deactivate"),
        ("pyenv", "shell"),
        ("fnm", "use"),
        ("mise", "activate"),
        ("deactivate", ""),
    }
)

#: Wrappers that run the rest of the line unchanged: name -> options that take a value.
WRAPPERS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "sudo": frozenset(
        {
            "-u",
            "--user",
            "-g",
            "--group",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-C",
            "--close-from",
            "-D",
            "--chdir",
            "-r",
            "--role",
            "-t",
            "--type",
            "-T",
            "--command-timeout",
            "-U",
            "--other-user",
        }
    ),
    "doas": frozenset({"-u", "-C"}),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "command": frozenset(),
    "exec": frozenset({"-a"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "ionice": frozenset({"-c", "--class", "-n", "--classdata", "-p", "--pid"}),
    "stdbuf": frozenset({"-i", "--input", "-o", "--output", "-e", "--error"}),
    "timeout": frozenset({"-k", "--kill-after", "-s", "--signal"}),
    "caffeinate": frozenset({"-t", "-w"}),
    "chronic": frozenset(),
    "unbuffer": frozenset(),
}
#: Shell keywords that prefix a command: `! cmd`, fish's `and cmd` / `or cmd` / `not cmd`.
_KEYWORD_PREFIXES = frozenset({"!", "and", "or", "not"})
#: Wrappers that take positional arguments of their own before the command.
_WRAPPER_POSITIONALS = {"timeout": 1}

#: Runners that execute a tool by name: (argv prefix) -> options that take a value.
RUNNERS: dict[tuple[str, ...], frozenset[str]] = {
    ("npx",): frozenset({"-p", "--package", "--cache", "--userconfig"}),
    ("pnpx",): frozenset({"-p", "--package"}),
    ("bunx",): frozenset({"-p", "--package"}),
    ("bun", "x"): frozenset({"-p", "--package"}),
    ("pnpm", "exec"): frozenset({"-C", "--dir", "--filter", "-F"}),
    ("pnpm", "dlx"): frozenset({"--package"}),
    ("npm", "exec"): frozenset({"-p", "--package", "-w", "--workspace"}),
    ("npm", "x"): frozenset({"-p", "--package"}),
    ("yarn", "exec"): frozenset(),
    ("yarn", "dlx"): frozenset({"-p", "--package"}),
    # `pnpm <binary>` / `yarn <binary>` run a package's binary like `pnpm exec`,
    # unless the word is one of their own commands (OWN_COMMANDS below).
    ("pnpm",): frozenset({"-C", "--dir", "--filter", "-F", "--reporter", "--loglevel", "--workspace-concurrency"}),
    ("yarn",): frozenset({"--cwd", "--modules-folder", "--cache-folder", "--global-folder", "--mutex"}),
    ("uv", "run"): frozenset(
        {
            "--with",
            "--with-editable",
            "--with-requirements",
            "--python",
            "-p",
            "--project",
            "--directory",
            "--package",
            "--extra",
            "--group",
            "--env-file",
            "--index",
            "--index-url",
            "--extra-index-url",
            "-C",
            "--config-setting",
            "--only-group",
            "--no-group",
        }
    ),
    ("uv", "tool", "run"): frozenset({"--from", "--with", "--python", "-p"}),
    ("uvx",): frozenset({"--from", "--with", "--python", "-p"}),
    ("poetry", "run"): frozenset({"-C", "--directory", "-P", "--project"}),
    ("pdm", "run"): frozenset({"-p", "--project"}),
    ("pipx", "run"): frozenset({"--spec", "--python", "--pip-args"}),
    ("hatch", "run"): frozenset(),
    ("rye", "run"): frozenset(),
    ("bundle", "exec"): frozenset(),
}
_PYTHON_VALUE_OPTIONS = frozenset({"-X", "-W", "-Q"})

#: The commands pnpm and yarn run themselves: `pnpm install`, `yarn add` are the
#: package manager at work, not a package's binary, and are never stripped. A word
#: not listed (`pnpm esbuild`, `yarn jest`) runs a script or binary of that name.
OWN_COMMANDS: dict[str, frozenset[str]] = {
    "pnpm": frozenset(
        # pnpm 9/10 `pnpm help --all`, their aliases, and the npm commands pnpm passes on
        [
            "add",
            "i",
            "install",
            "it",
            "install-test",
            "ln",
            "link",
            "prune",
            "rb",
            "rebuild",
            "rm",
            "remove",
            "uninstall",
            "un",
            "unlink",
            "up",
            "update",
            "upgrade",
            "audit",
            "licenses",
            "ls",
            "list",
            "ll",
            "la",
            "outdated",
            "why",
            "exec",
            "run",
            "run-script",
            "start",
            "t",
            "test",
            "tst",
            "restart",
            "stop",
            "cat-file",
            "cat-index",
            "find-hash",
            "pack",
            "publish",
            "root",
            "store",
            "import",
            "dlx",
            "create",
            "init",
            "setup",
            "server",
            "recursive",
            "multi",
            "m",
            "deploy",
            "doctor",
            "config",
            "c",
            "get",
            "set",
            "env",
            "bin",
            "self-update",
            "dedupe",
            "patch",
            "patch-commit",
            "patch-remove",
            "fetch",
            "approve-builds",
            "ignored-builds",
            "help",
            "completion",
            "install-completion",
            "catalog",
            "sbom",
            "version",
            "view",
            "info",
            "show",
            "access",
            "adduser",
            "login",
            "logout",
            "whoami",
            "owner",
            "dist-tag",
            "deprecate",
            "docs",
            "bugs",
            "repo",
            "search",
            "star",
            "unstar",
            "stars",
            "team",
            "token",
            "unpublish",
            "pkg",
            "profile",
            "ping",
            "prefix",
            "edit",
            "cache",
        ]
    ),
    "yarn": frozenset(
        # yarn 1 (classic) and yarn 2+ (berry) commands
        [
            "access",
            "add",
            "audit",
            "autoclean",
            "bin",
            "cache",
            "check",
            "config",
            "constraints",
            "create",
            "dedupe",
            "dlx",
            "exec",
            "explain",
            "generate-lock-entry",
            "global",
            "help",
            "import",
            "info",
            "init",
            "install",
            "licenses",
            "link",
            "list",
            "login",
            "logout",
            "node",
            "npm",
            "outdated",
            "owner",
            "pack",
            "patch",
            "patch-commit",
            "plugin",
            "policies",
            "publish",
            "rebuild",
            "remove",
            "run",
            "search",
            "set",
            "stage",
            "tag",
            "team",
            "test",
            "unlink",
            "unplug",
            "up",
            "upgrade",
            "upgrade-interactive",
            "version",
            "versions",
            "why",
            "workspace",
            "workspaces",
        ]
    ),
}

#: Commands that print file contents: their output is the file and must stay exact.
FILE_READERS = frozenset(
    {
        "cat",
        "tac",
        "nl",
        "bat",
        "batcat",
        "head",
        "tail",
        "sed",
        "jq",
        "yq",
        "less",
        "more",
        "xxd",
        "hexdump",
        "od",
        "strings",
        "base64",
    }
)
#: Repository inventory commands: compacted only when standalone or structurally filtered.
INVENTORY = frozenset({"find", "fd", "fdfind", "ls", "tree", "exa", "eza"})
#: Pipe stages that only reorder, slice or count lines without changing their content.
STRUCTURAL_FILTERS = frozenset({"sort", "head", "tail", "uniq", "wc", "cat", "tee", "less", "more"})


@record
class Candidate:
    """One reading of the command that rules are matched against."""

    source: str
    command: str
    argv: tuple[str, ...]
    depth: int = 0  # how many runner prefixes were peeled off

    @property
    def rank(self) -> tuple[int, int]:
        return (SOURCE_PRIORITY[self.source], self.depth)


@record
class CommandInfo:
    """Everything the classifier and the reducer need to know about a command."""

    candidates: tuple[Candidate, ...] = ()
    normalized_command: str = ""
    normalized_argv: tuple[str, ...] = ()
    multiple: bool = False  # several substantive commands: no single rule fits
    keep_raw: str | None = None  # why the output must stay exact, if it must
    first_argv: tuple[str, ...] = ()  # the first substantive command, even among several
    background: bool = False  # some part runs in the background (`cmd &`)


class _Analysis:
    """The fields of a `CommandInfo` while `analyze` works them out."""

    def __init__(self) -> None:
        self.candidates: list[Candidate] = []
        self.normalized_command = ""
        self.normalized_argv: list[str] = []
        self.multiple = False
        self.keep_raw: str | None = None
        self.first_argv: list[str] = []
        self.background = False

    def add(self, source: str, command: str, argv: list[str], depth: int = 0) -> None:
        self.candidates.append(Candidate(source, command, tuple(argv), depth))

    def freeze(self) -> CommandInfo:
        """The result, with one candidate per (command, argv): the first, i.e. the least
        derived one, so a plain `git status` is reported as matched via `original`."""
        seen: set[tuple[str, tuple[str, ...]]] = set()
        unique = []
        for candidate in self.candidates:
            key = (candidate.command, candidate.argv)
            if key not in seen:
                seen.add(key)
                unique.append(candidate)
        return CommandInfo(
            tuple(unique),
            self.normalized_command,
            tuple(self.normalized_argv),
            self.multiple,
            self.keep_raw,
            tuple(self.first_argv),
            self.background,
        )


def basename(word: str) -> str:
    """`/usr/bin/git` -> `git`, `C:\\bin\\git.exe` -> `git`."""
    name = word.rstrip("/").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    return name[:-4] if name.lower().endswith(".exe") else name


def analyze(command: str | None = None, argv: list[str] | tuple[str, ...] | None = None) -> CommandInfo:
    """Build the candidates, normalised form and raw-keeping policy for a command."""
    info = _Analysis()
    command = (command or "").strip()
    words = [a for a in argv or [] if isinstance(a, str)]
    if words:
        script, dialect = shellsyntax.join(words), "posix"
        info.add(ORIGINAL, command or script, words)
    elif command:
        script, dialect = command, "posix"
        pipelines, complete = shellsyntax.parse(command)
        single = _single_command(pipelines) if complete else None
        words = single.argv if single else []
        info.add(ORIGINAL, command, words)
    else:
        return info.freeze()

    body = None
    for _ in range(_MAX_UNWRAP_DEPTH):
        unwrapped = unwrap_shell(words)
        if unwrapped is None:
            break
        body, dialect = unwrapped
        pipelines, complete = shellsyntax.parse(body, dialect)
        single = _single_command(pipelines) if complete else None
        words = single.argv if single else []
    if body is not None:
        script = body
        info.add(SHELL_BODY, body, words)

    _analyze_script(info, script, dialect)
    return info.freeze()


def unwrap_shell(words: list[str]) -> tuple[str, str] | None:
    """The body and dialect of `bash -lc '<body>'` style launchers, else None."""
    found = launcher_body(words)
    if found is None:
        return None
    position, dialect, _ = found
    body = words[position].strip()
    return (body, dialect) if body else None


def launcher_body(words: list[str]) -> tuple[int, str, bool] | None:
    """(index of the inline command, dialect, is a login shell) for a shell launcher
    such as `bash -lc '<body>'`, or None when `words` is not one."""
    login = False
    index = 0
    while index < len(words) and basename(words[index]) in ("env", "exec", "command"):
        index += 1
        while index < len(words) and (words[index].startswith("-") or "=" in words[index]):
            index += 1
    if index >= len(words):
        return None
    shell = basename(words[index]).lower()
    if shell not in SHELLS:
        return None
    if shell == "busybox":
        index += 1
        if index >= len(words) or basename(words[index]) not in ("sh", "ash"):
            return None
    dialect = "fish" if shell == "fish" else "posix"
    position = index + 1
    while position < len(words):
        word = words[position]
        if word in ("-o", "+o", "-O", "+O", "--init-file", "--rcfile"):
            position += 2
            continue
        if word.startswith("--"):
            login = login or word == "--login"
            if word == "--command" and position + 1 < len(words):
                return position + 1, dialect, login
            position += 1
            continue
        if word.startswith(("-", "+")) and len(word) > 1 and word[1:].isalpha():
            login = login or (word.startswith("-") and "l" in word[1:])
            if "c" in word[1:]:
                return (position + 1, dialect, login) if position + 1 < len(words) else None
            position += 1
            continue
        return None  # a script path or other operand: not an inline command
    return None


def _single_command(pipelines: list[Pipeline]) -> SimpleCommand | None:
    if len(pipelines) == 1 and len(pipelines[0].commands) == 1:
        return pipelines[0].commands[0]
    return None


def _analyze_script(info: _Analysis, script: str, dialect: str) -> None:
    pipelines, complete = shellsyntax.parse(script, dialect)
    if not complete or not pipelines:
        info.normalized_command = script
        return
    if any(_is_control_structure(p) for p in pipelines):
        info.normalized_command = script
        info.multiple = len(pipelines) > 1
        return

    info.background = any(p.op == "&" for p in pipelines)
    substantive = _substantive_pipelines(pipelines)
    first = substantive[0] if substantive else pipelines[0]
    info.first_argv = strip_wrappers(first.commands[0].argv)
    end = pipelines[-1].commands[-1].end
    info.normalized_command = script[first.commands[0].start : end].strip()
    if len(substantive) > 1:
        info.multiple = True
        info.keep_raw = _sequence_keep_raw(substantive)
        return

    stages = [strip_wrappers(c.argv) for c in first.commands]
    source = stages[0]
    info.normalized_argv = source
    info.keep_raw = _pipeline_keep_raw(stages)
    if len(stages) > 1 and not all(_is_structural_filter(s) for s in stages[1:]):
        return  # the output is a downstream tool's; let the fallback handle it
    if not source:
        return
    head = first.commands[0]
    skipped = len(head.argv) - len(source)
    info.add(EFFECTIVE, head.text_from(skipped), source)
    depth = 0
    argv = source
    while True:
        stripped = strip_runner(argv)
        if stripped is None or not stripped:
            break
        depth += 1
        argv = stripped
        info.add(EFFECTIVE, shellsyntax.join(argv), argv, depth)


def _is_control_structure(pipeline: Pipeline) -> bool:
    argv = pipeline.commands[0].argv
    return bool(argv) and argv[0] in (
        "if",
        "for",
        "while",
        "until",
        "case",
        "select",
        "function",
        "then",
        "do",
        "else",
        "elif",
        "fi",
        "done",
        "esac",
        "begin",
        "end",
        "switch",
    )


def _substantive_pipelines(pipelines: list[Pipeline]) -> list[Pipeline]:
    """Pipelines that produce output worth classifying, in order.

    Setup steps (`cd x`, `export A=1`, `source venv/bin/activate`) and fallbacks after
    `||` (`pytest || true`, `cd x || exit 1`) do not count; captions (`echo ==`) count
    only when nothing else runs.
    """
    result: list[Pipeline] = []
    captions: list[Pipeline] = []
    previous_op: str | None = None
    for pipeline in pipelines:
        argv = pipeline.commands[0].argv
        after_or = previous_op == "||" or (argv[:1] == ["or"])
        previous_op = pipeline.op
        argv = strip_wrappers(argv)
        if not argv or _is_setup(argv):
            continue
        if after_or and result:
            continue  # `a || b`: b only runs when a failed; a is the command of interest
        if len(pipeline.commands) == 1 and basename(argv[0]) in DECORATION_COMMANDS:
            captions.append(pipeline)
            continue
        result.append(pipeline)
    return result if result else captions[:1]


def _is_setup(argv: list[str]) -> bool:
    name = basename(argv[0])
    if name in SETUP_COMMANDS:
        return True
    if (name, argv[1] if len(argv) > 1 else "") in SETUP_SUBCOMMANDS:
        return True
    return name == "command" and len(argv) > 1 and argv[1] in ("-v", "-V")


def strip_wrappers(argv: list[str]) -> list[str]:
    """Drop `FOO=1`, `env`, `sudo`, `time`, `nice`, `timeout 10`, … from the front.
    A wrapper with no command after it (`env`, `sudo -l`) is itself the command."""
    index = 0
    while index < len(argv):
        word = argv[index]
        if _is_assignment(word) or (index == 0 and word in _KEYWORD_PREFIXES):
            index += 1
            continue
        name = basename(word)
        if name not in WRAPPERS:
            break
        if name == "command" and index + 1 < len(argv) and argv[index + 1] in ("-v", "-V"):
            break  # a probe, not a wrapper
        after = _skip_options(argv, index + 1, WRAPPERS[name], allow_assignments=name == "env")
        after += _WRAPPER_POSITIONALS.get(name, 0)
        if after >= len(argv):
            break
        index = after
    return argv[index:]


def strip_runner(argv: list[str]) -> list[str] | None:
    """`npx jest` -> `jest`, `uv run pytest` -> `pytest`, `python -m pip` -> `pip`."""
    if not argv:
        return None
    name = basename(argv[0])
    if is_python(name):
        index = 1
        while index < len(argv) and argv[index].startswith("-") and argv[index] != "-m":
            index += 2 if argv[index] in _PYTHON_VALUE_OPTIONS else 1
        if index + 1 < len(argv) and argv[index] == "-m":
            return argv[index + 1 :]
        return None
    for prefix, value_options in RUNNERS.items():
        if name == prefix[0] and tuple(argv[1 : len(prefix)]) == prefix[1:]:
            index = _skip_options(argv, len(prefix), value_options, allow_assignments=False)
            rest = argv[index:]
            if len(prefix) == 1 and rest and rest[0] in OWN_COMMANDS.get(name, ()):
                return None  # `pnpm install`, `yarn add`: the package manager itself
            return rest or None
    return None


def variants(argv: list[str], behind: Callable[[list[str]], list[list[str]]]) -> Iterator[list[str]]:
    """`argv` and every command `behind` finds behind it, and behind those in turn,
    each once (at most 65): the forms of a command a permission check (Claude Code's,
    Cursor's) tries its deny rules against. `behind(words)` says what one form hides
    (after a control word, a wrapper, a path); each host reads that differently."""
    seen: set[tuple[str, ...]] = set()
    pending = [argv]
    while pending:
        words = pending.pop()
        key = tuple(words)
        if not words or key in seen or len(seen) > 64:
            continue
        seen.add(key)
        yield words
        pending += behind(words)


def shell_scripts(argv: list[str]) -> list[str]:
    """Scripts run by `sh -c '…'`, `bash -lc '…'` or `eval …` anywhere in argv: what a
    permission check (Claude Code's, Cursor's) must look into as well."""
    scripts = []
    for index, word in enumerate(argv):
        name = basename(word)
        if name == "eval" and index + 1 < len(argv):
            scripts.append(" ".join(argv[index + 1 :]))
        if name not in SHELLS:
            continue
        rest = argv[index + 1 :]
        for position, option in enumerate(rest):
            if option.startswith("-") and not option.startswith("--") and "c" in option[1:]:
                operands = [w for w in rest[position + 1 :] if not w.startswith("-")]
                if operands:
                    scripts.append(operands[0])
                break
    return scripts


def substitutions(word: str) -> list[str]:
    """Bodies of `$( … )`, `<( … )`, `>( … )` and backticks in one raw word (as written,
    unparsed): commands a permission check must look into as well."""
    found = []
    index = 0
    while index < len(word):
        ch = word[index]
        if ch == "`":
            end = word.find("`", index + 1)
            end = len(word) if end < 0 else end
            found.append(word[index + 1 : end])
            index = end + 1
            continue
        if ch in "$<>" and word.startswith("(", index + 1):
            depth, cursor = 1, index + 2
            while cursor < len(word) and depth:
                if word[cursor] == "(":
                    depth += 1
                elif word[cursor] == ")":
                    depth -= 1
                cursor += 1
            found.append(word[index + 2 : cursor - 1 if depth == 0 else cursor])
            index = cursor
            continue
        index += 1
    return found


def is_python(name: str) -> bool:
    return name == "python" or (name.startswith("python") and name[6:].replace(".", "").isdigit())


def _skip_options(argv: list[str], index: int, value_options: frozenset[str], allow_assignments: bool) -> int:
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return index + 1
        if allow_assignments and _is_assignment(word):
            index += 1
            continue
        if not word.startswith("-") or word == "-":
            return index
        index += 2 if word in value_options else 1
    return index


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return (
        bool(sep)
        and bool(name)
        and (name[0].isalpha() or name[0] == "_")
        and name.replace("_", "a").isalnum()
        and name.isascii()
    )


def _is_structural_filter(argv: list[str]) -> bool:
    if not argv:
        return False
    name = basename(argv[0])
    if name not in STRUCTURAL_FILTERS:
        return False
    if name == "sort" and any(a == "-o" or a.startswith("--output") for a in argv[1:]):
        return False
    if name == "tee":
        return True
    return not _operands(argv)  # a file operand would add another file's content


def _operands(argv: list[str]) -> list[str]:
    operands = []
    skip_next = False
    for word in argv[1:]:
        if skip_next:
            skip_next = False
            continue
        if word in ("-n", "-c", "-k", "-t", "-S", "--lines", "--bytes", "-f", "--fields"):
            skip_next = True
            continue
        if not word.startswith("-"):
            operands.append(word)
    return operands


#: Global options that take a value, per tool, so the subcommand after them can be
#: found (`git -C repo status`, `kubectl -n prod get pods`, `docker --context x ps`).
GLOBAL_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "git": frozenset(
        {
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--exec-path",
            "--super-prefix",
            "--config-env",
            "--list-cmds",
        }
    ),
    "kubectl": frozenset(
        {
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--cache-dir",
            "--request-timeout",
            "-v",
            "--v",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
        }
    ),
    "docker": frozenset(
        {"-c", "--context", "-H", "--host", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}
    ),
    "helm": frozenset(
        {
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--kube-apiserver",
            "--kube-token",
            "--registry-config",
            "--repository-config",
            "--repository-cache",
        }
    ),
    "npm": frozenset({"--prefix", "-C", "-w", "--workspace", "--registry", "--cache", "--userconfig"}),
    "pnpm": frozenset({"-C", "--dir", "-F", "--filter"}),
    "yarn": frozenset({"--cwd"}),
    "cargo": frozenset({"-C", "--config", "-Z", "--color"}),
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-read-timeout"}),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--verbosity", "--format"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
}


#: Tools whose second word names what they were asked to do: for any other program
#: that word may be an argument value (`psql mydb`, `mysql -p hunter2`), so the
#: ledger never records it.
SUBCOMMAND_TOOLS = frozenset(GLOBAL_VALUE_OPTIONS) | frozenset(
    {
        "go",
        "pip",
        "pip3",
        "uv",
        "poetry",
        "pdm",
        "hatch",
        "gh",
        "glab",
        "terraform",
        "terragrunt",
        "pulumi",
        "tofu",
        "dotnet",
        "brew",
        "apt",
        "apt-get",
        "dnf",
        "yum",
        "apk",
        "systemctl",
        "bun",
        "deno",
        "rustup",
        "conda",
        "mamba",
        "mvn",
        "gradle",
        "flyctl",
        "fly",
        "vercel",
        "netlify",
        "composer",
        "gem",
        "bundle",
        "swift",
        "mise",
        "nix",
    }
)


def subcommand(argv: Sequence[str]) -> str | None:
    """The word naming what a tool was asked to do: `git -C repo status` -> `status`.
    For tools whose global options are known, options (and their values) before it
    are skipped; for any other tool it must be the word right after the command."""
    if len(argv) < 2:
        return None
    options = GLOBAL_VALUE_OPTIONS.get(basename(argv[0]))
    if options is None:
        return None if argv[1].startswith("-") else argv[1]
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in options:
            index += 2
        elif word.startswith("-"):
            index += 1
        else:
            return word
    return None


def git_subcommand(argv: Sequence[str]) -> str | None:
    """`git -C repo -c a=b --no-pager log` -> `log`; None when it is not git."""
    return subcommand(argv) if argv and basename(argv[0]) == "git" else None


def is_file_read(argv: list[str]) -> bool:
    """Does this command print the contents of a file (which must stay exact)?"""
    if not argv:
        return False
    name = basename(argv[0])
    if name in FILE_READERS:
        return True
    if git_subcommand(argv) == "show":
        return any(":" in a and not a.startswith("-") for a in argv[argv.index("show") + 1 :])
    return False


_SSH_VALUE_OPTIONS = frozenset("BbcDEeFIiJLlmOoPpQRSWw")


def ssh_remote_argv(argv: list[str]) -> list[str] | None:
    """The remote command of `ssh [options] host command…`, as words, or None."""
    if not argv or basename(argv[0]) != "ssh":
        return None
    index = 1
    while index < len(argv) and argv[index].startswith("-") and argv[index] != "--":
        option = argv[index]
        index += 2 if len(option) == 2 and option[1] in _SSH_VALUE_OPTIONS else 1
    if index < len(argv) and argv[index] == "--":
        index += 1
    remote = " ".join(argv[index + 1 :])  # ssh joins the words and hands them to the remote shell
    if not remote.strip():
        return None
    pipelines, complete = shellsyntax.parse(remote)
    if not complete or not pipelines:
        return None
    return strip_wrappers(pipelines[0].commands[0].argv)


def _inventory_kind(argv: list[str]) -> str | None:
    """'safe'/'unsafe' for repository inventory commands, None for anything else."""
    if not argv:
        return None
    name = basename(argv[0])
    if name == "find":
        actions = {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fls"}
        return "unsafe" if actions.intersection(argv) else "safe"
    if name in ("fd", "fdfind"):
        unsafe = any(
            a in ("-x", "--exec", "-X", "--exec-batch") or a.startswith(("--exec=", "--exec-batch=")) for a in argv
        )
        return "unsafe" if unsafe else "safe"
    if name in INVENTORY:
        return "safe"
    if name == "rg" and "--files" in argv:
        return "safe"
    if name == "git" and git_subcommand(argv) == "ls-files":
        return "safe"
    return None


def _pipeline_keep_raw(stages: list[list[str]]) -> str | None:
    if is_file_read(stages[0]) or is_file_read(ssh_remote_argv(stages[0]) or []):
        return "file-content"
    kind = _inventory_kind(stages[0])
    if kind == "unsafe":
        return "unsafe-inventory"
    if kind == "safe" and not all(_is_structural_filter(s) for s in stages[1:]):
        return "unsafe-inventory"
    return None


def _sequence_keep_raw(pipelines: list[Pipeline]) -> str | None:
    """Several commands in a row: exact file reads stay raw, and so does inventory
    mixed with anything that is not itself safe inventory."""
    reasons = []
    for pipeline in pipelines:
        stages = [strip_wrappers(c.argv) for c in pipeline.commands]
        reasons.append((_pipeline_keep_raw(stages), _inventory_kind(stages[0])))
    if any(reason == "file-content" for reason, _ in reasons):
        return "file-content"
    involves_inventory = any(kind is not None for _, kind in reasons)
    all_safe_inventory = all(reason is None and kind == "safe" for reason, kind in reasons)
    if involves_inventory and not all_safe_inventory:
        return "mixed-inventory"
    return None
