"""Work out which command really produced an output, before any rule is chosen.

Agents rarely run `pytest`; they run `bash -lc 'cd repo && FOO=1 uv run pytest -x 2>&1'`.
`analyze` peels that back to candidates the classifier can match: the command as
given (`original`), the body of a shell launcher (`shell-body`) and the command that
actually produces the output (`effective`, with setup steps, environment
assignments, wrappers such as `sudo`/`time` and runners such as `npx`/`uv run`
removed: argv.py knows those). It also decides when output must stay raw (exact
file reads, unsafe inventory pipelines).
"""

from __future__ import annotations

from ..fast.lazyre import lazy
from ..fast.record import record
from . import syntax as shellsyntax
from .argv import basename, git_subcommand, strip_runner, strip_wrappers, unwrap_shell
from .syntax import Pipeline, SimpleCommand

ORIGINAL, SHELL_BODY, EFFECTIVE = "original", "shell-body", "effective"
SOURCE_PRIORITY = {ORIGINAL: 0, SHELL_BODY: 1, EFFECTIVE: 2}
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
    # The agent bounded the output itself (`| head -50`, `| tail -n 20`, `| sed -n 1,80p`,
    # `git log -n 5`, `grep -m 3`): it chose the size, so it is shown whole up to a cap.
    bounded: bool = False


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
        self.bounded = False

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
            self.bounded,
        )


def analyze(command: str | None = None, argv: list[str] | tuple[str, ...] | None = None) -> CommandInfo:
    """Build the candidates, normalised form and raw-keeping policy for a command.

    Every line it reads is read to at most `shellsyntax.MAX_TOKENS` tokens (a hook's
    command can be megabytes): a longer one is a script it cannot read, whose output
    is classified by what it looks like, as for any unreadable script."""
    info = _Analysis()
    command = (command or "").strip()
    words = [a for a in argv or [] if isinstance(a, str)]
    if words:
        script, dialect = shellsyntax.join(words), "posix"
        info.add(ORIGINAL, command or script, words)
    elif command:
        script, dialect = command, "posix"
        pipelines, complete = shellsyntax.parse(command, bounded=True)
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
        pipelines, complete = shellsyntax.parse(body, dialect, bounded=True)
        single = _single_command(pipelines) if complete else None
        words = single.argv if single else []
    if body is not None:
        script = body
        info.add(SHELL_BODY, body, words)

    _analyze_script(info, script, dialect)
    return info.freeze()


def _single_command(pipelines: list[Pipeline]) -> SimpleCommand | None:
    if len(pipelines) == 1 and len(pipelines[0].commands) == 1:
        return pipelines[0].commands[0]
    return None


def _analyze_script(info: _Analysis, script: str, dialect: str) -> None:
    pipelines, complete = shellsyntax.parse(script, dialect, bounded=True)
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
        # the agent bounded one of the steps (`pytest | tail -40; git status`): it chose its size
        info.bounded = any(_pipeline_bounded(p) for p in substantive)
        return

    stages = [strip_wrappers(c.argv) for c in first.commands]
    source = stages[0]
    info.normalized_argv = source
    info.bounded = _pipeline_bounded(first)
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


def _pipeline_bounded(pipeline: Pipeline, depth: int = 0) -> bool:
    """Did the agent bound this pipeline's output: a downstream stage keeping a chosen
    number of lines or bytes, or the tool's own flag (`git log -n 5`, `grep -m 3`),
    here or inside the shell it runs (`bash -lc 'pytest | tail -40'`)?"""
    stages = [strip_wrappers(c.argv) for c in pipeline.commands]
    if any(_bounds(stage) for stage in stages[1:]) or (bool(stages) and _bounded_by_flags(stages[0])):
        return True
    unwrapped = unwrap_shell(stages[0]) if len(stages) == 1 and depth < _MAX_UNWRAP_DEPTH else None
    if unwrapped is None:
        return False
    inner, complete = shellsyntax.parse(*unwrapped, bounded=True)
    return complete and any(_pipeline_bounded(p, depth + 1) for p in _substantive_pipelines(inner))


def _bounds(argv: list[str]) -> bool:
    """A downstream stage that keeps a chosen number of lines or bytes: `head`, `tail`
    (not following; `-n 40`, `-40`, `-n40`, `--lines=40`, `-c 2000`), `sed -n 'A,Bp'`,
    `sed 40q`, `awk 'NR<=40'`."""
    if not argv:
        return False
    name = basename(argv[0])
    if name in ("head", "tail"):
        return not any(a in ("-f", "-F", "--follow") or a.startswith("--follow") for a in argv[1:])
    scripts = [a for a in argv[1:] if not a.startswith("-")]
    if name in ("sed", "gsed") and len(scripts) == 1:
        script = scripts[0]
        return ("-n" in argv[1:] and _SED_RANGE.match(script) is not None) or _SED_QUIT.match(script) is not None
    if name in ("awk", "gawk", "mawk") and len(scripts) == 1:
        return _AWK_RANGE.match(scripts[0]) is not None
    return False


#: `sed -n` scripts that print a range of lines: `10,80p`, `5p`, `1,/^$/p` is not one.
_SED_RANGE = lazy(r"^\d+(?:,\d+)?p$")
#: `sed 40q`: the first lines, then quit.
_SED_QUIT = lazy(r"^\d+q$")
#: `awk 'NR<=40'`, `awk 'NR>=10 && NR<=50'`, `awk 'NR<41'`.
_AWK_RANGE = lazy(r"^\s*(?:NR\s*>=?\s*\d+\s*&&\s*)?NR\s*<=?\s*\d+\s*$")
#: Tools whose own flag bounds how much they print, and those flags (`-n 5`, `-n5`,
#: `--max-count=5`, git's `-5`).
_BOUNDING_FLAGS = {
    "git": ("-n", "--max-count"),
    "grep": ("-m", "--max-count"),
    "egrep": ("-m", "--max-count"),
    "fgrep": ("-m", "--max-count"),
    "rg": ("-m", "--max-count"),
    "journalctl": ("-n", "--lines"),
    "docker": ("--tail", "-n"),
    "kubectl": ("--tail",),
}


def _bounded_by_flags(argv: list[str]) -> bool:
    if not argv:
        return False
    flags = _BOUNDING_FLAGS.get(basename(argv[0]))
    if flags is None:
        return False
    if basename(argv[0]) == "git" and git_subcommand(argv) not in ("log", "shortlog", "reflog", "rev-list"):
        return False
    if basename(argv[0]) in ("docker", "kubectl") and "logs" not in argv[1:3]:
        return False
    for word in argv[1:]:
        name = word.split("=", 1)[0]
        if name in flags or any(word.startswith(f) and word[len(f) :].isdigit() for f in flags if len(f) == 2):
            return True
        if basename(argv[0]) == "git" and word[:1] == "-" and word[1:].isdigit():
            return True
    return False


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
    pipelines, complete = shellsyntax.parse(remote, bounded=True)
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
