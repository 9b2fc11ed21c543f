"""`tokenjuice wrap [options] -- <command> [args…]`: run, capture, reduce, print.

This is the hot path: it parses its own options (click costs ~60 ms to import),
loads the catalogue from the index cache, and compiles only the chosen rule.
The exit code is always the command's (128+N if a signal killed it); tokenjuice's
own problems with its rules are reported on stderr and never change it.
"""

from __future__ import annotations

import os
import sys

from .. import capture as capture_mod
from ..errors import UsageError
from ..shell.syntax import join, quote, quote_fish

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from ..settings import Settings

USAGE = """\
usage: tokenjuice wrap [options] -- <command> [args...]

Run a command (no shell), then print its output compacted for an AI agent.
The exit code is the command's own. Everything after -- goes to the command.

options:
  --raw, --full            print the exact output, uncompacted (stdout to stdout,
                           stderr to stderr)
  --format text|json       text (default) prints the compacted output; json prints
                           {"result": ..., "exitCode": N, "stdout": ..., "stderr": ...}
                           (and "warnings": [...] when an option was wrong; a usage
                           error is {"error": {...}})
  --trace                  add the classification trace to JSON output
  --source NAME            who ran the command (cursor, cli, ...); default cli
  --max-inline-chars N     size budget for the compacted text (default: the information
                           budget, output.max_chars and output.failure_max_chars)
  --max-capture-bytes N    output kept in memory (default 4194304: the first 3/4
                           and the last 1/4 of the output; the middle is counted)
  --tee                    also stream the raw output to stderr while it runs
  --keep-path              for a login shell (bash -lc ...), run the command with
                           this PATH rather than the one the profile sets
  --no-omit                never cut lines (ANSI is still stripped, counts shown)
  --store                  keep the raw output (secrets redacted) as an artifact
                           even when nothing was cut; see tokenjuice cat (by
                           default it is kept only when the output shown was
                           cut: artifacts.mode = "cut")
  --classifier RULE_ID     use this rule instead of classifying the command (one
                           that does not exist is reported; the command still runs)
  -h, --help               show this help
"""

_FLAGS = {
    "--raw": "raw",
    "--full": "raw",
    "--trace": "trace",
    "--tee": "tee",
    "--no-omit": "no_omit",
    "--keep-path": "keep_path",
    "--store": "store",
}
_VALUES = ("--format", "--source", "--max-inline-chars", "--max-capture-bytes", "--classifier")


class WrapOptions:
    """What `wrap` was asked on its command line (settings are resolved from it)."""

    __slots__ = (
        "classifier",
        "format",
        "help",
        "keep_path",
        "max_capture_bytes",
        "max_inline_chars",
        "no_omit",
        "raw",
        "source",
        "store",
        "tee",
        "trace",
    )

    def __init__(self) -> None:
        self.raw = self.trace = self.tee = self.help = self.keep_path = self.store = False
        self.no_omit: bool | None = None  # None: the setting decides
        self.format = "text"
        self.source = "cli"
        self.max_inline_chars: int | None = None
        self.max_capture_bytes: int | None = None
        self.classifier: str | None = None

    def flags(self) -> dict[str, tuple[str, object]]:
        """The settings these options override, for the resolver."""
        return {
            "output.no_omit": ("--no-omit", self.no_omit),
            "capture.max_bytes": ("--max-capture-bytes", self.max_capture_bytes),
            "artifacts.mode": ("--store", "always" if self.store else None),
        }


def parse(args: list[str]) -> tuple[WrapOptions, list[str]]:
    """Options up to `--` (or the first non-option word); the rest is the command."""
    options = WrapOptions()
    index = 0
    while index < len(args):
        arg = args[index]
        if arg == "--":
            index += 1
            break
        if arg in ("-h", "--help"):
            options.help = True
            return options, []
        if not arg.startswith("-"):
            break
        name, has_value, value = arg.partition("=")
        if name in _FLAGS and not has_value:
            setattr(options, _FLAGS[name], True)
        elif name in _VALUES:
            if not has_value:
                index += 1
                if index >= len(args):
                    raise UsageError(f"{name} needs a value")
                value = args[index]
            _set_value(options, name, value)
        else:
            raise UsageError(f"unknown option {arg}; options go before -- (see tokenjuice wrap --help)")
        index += 1
    command = args[index:]
    if not command and not options.help:
        raise UsageError("give the command to run after --, e.g. tokenjuice wrap -- git status")
    return options, command


def _json_asked(args: list[str]) -> bool:
    """Did the options (before `--`) ask for JSON, however wrong the rest of them is?"""
    from itertools import pairwise

    options = args[: args.index("--")] if "--" in args else args
    return "--format=json" in options or any(a == "--format" and b == "json" for a, b in pairwise(options))


def _set_value(options: WrapOptions, name: str, value: str) -> None:
    if name == "--format":
        if value not in ("text", "json"):
            raise UsageError("--format must be text or json")
        options.format = value
    elif name == "--source":
        if not value.strip():
            raise UsageError("--source needs a non-empty name")
        options.source = value.strip()
    elif name == "--classifier":
        options.classifier = value
    else:
        try:
            number = int(value)
        except ValueError:
            number = 0
        if number <= 0:
            raise UsageError(f"{name} must be a positive integer")
        attribute = name[2:].replace("-", "_")
        setattr(options, attribute, number)


def main(args: list[str]) -> int:
    try:
        options, command = parse(args)
    except UsageError as error:
        if _json_asked(args):  # asked for JSON: the error is JSON too, as every command's is
            from .output import json_text

            error_data = {"message": str(error), "kind": error.kind, "exitCode": error.exit_code}
            sys.stdout.write(json_text({"error": error_data}))
        else:
            sys.stderr.write(f"tokenjuice wrap: {error}\n")
        return error.exit_code
    if options.help:
        sys.stdout.write(USAGE)
        return 0

    streaming = options.raw and options.format == "text"
    marker = None if streaming else f"\x1etokenjuice: login profile done {os.urandom(6).hex()}"
    try:
        cwd = os.getcwd()
    except OSError:  # the folder was deleted: the command still runs in it, as a shell would run it
        sys.stderr.write(
            "tokenjuice: the current folder no longer exists; the command runs there without project rules\n"
        )
        cwd = os.sep
    child, started = command, None
    if options.keep_path:  # a hook's wrap: the shell is a login shell the host did not ask for
        handed, started = out_of_sight(command)
        child = after_profile(handed, os.environ.get("PATH", ""), cwd if cwd != os.sep else ".", marker)
    if streaming:
        # Exactly what the command writes, as it writes it: the child inherits our
        # stdout and stderr (no pipes, no size limit); only the exit code is ours to pass on.
        code = capture_mod.stream(child)
        if started is not None and not _started(started):
            capture_mod.write_out(NOT_STARTED.encode(), 2)
            return code or 1
        return code

    settings = _settings(cwd, options)
    # One pipe keeps stdout and stderr in order; JSON needs them apart.
    separate = options.raw or options.format == "json"
    run = capture_mod.run(
        child,
        max_bytes=settings["capture.max_bytes"] or capture_mod.DEFAULT_MAX_CAPTURE_BYTES,
        tee=options.tee,
        merged=not separate,
    )
    if marker and child is not command:
        run.drop_through(marker.encode())  # what the login profile printed is not the command's output
    if started is not None and not _started(started) and run.spawn_error is None:
        run.chunks.append((capture_mod.STDERR, NOT_STARTED.encode()))  # never a silent exit 0 for nothing run
        run.exit_code = run.exit_code or 1
    if run.signal is not None:
        run.chunks.append((capture_mod.STDERR, _signal_marker(run.signal, run.exit_code)))
    try:
        return present(run, command, cwd, options, settings)
    except BaseException as error:  # noqa: BLE001 - the last-resort guard: the command has run
        return last_resort(run, error)
    finally:
        # A background job must never lose its stdout because wrap exits: whatever
        # present() did not hand to a drainer is drained (and discarded) here.
        if run.held:
            capture_mod.drain_detached(run)


def _settings(cwd: str, options: WrapOptions) -> Settings:
    """The settings in force; the defaults (and one line on stderr) if they cannot
    be read: the command runs whatever is wrong inside tokenjuice."""
    from ..settings import resolve

    try:
        return resolve(cwd, flags=options.flags())
    except Exception as error:  # noqa: BLE001 - a bug must not stop the command from running
        from ..settings import defaults

        sys.stderr.write(f"tokenjuice: internal error ({type(error).__name__}) reading settings; defaults used\n")
        return defaults()


def present(run: capture_mod.Capture, command: list[str], cwd: str, options: WrapOptions, settings: Settings) -> int:
    """Reduce, store, record and print what the command wrote; its exit code."""
    from ..compact import compact
    from ..model import CaptureFacts

    problem = _unknown_classifier(options.classifier, cwd) if options.classifier else None
    if problem and options.format != "json":
        sys.stderr.write(f"tokenjuice wrap: {problem}\n")
    combined = run.combined()
    compacted = compact(
        join(command),
        combined,
        exit_code=run.exit_code,
        cwd=cwd,
        source=options.source,
        settings=settings,
        argv=command,
        capture=CaptureFacts(
            kept_bytes=run.kept_bytes,
            dropped_bytes=run.dropped_bytes,
            dropped_lines=run.dropped_lines,
            limit_bytes=run.limit_bytes,
            signal=run.signal,
            background=run.background,
        ),
        duration_ms=run.duration_ms,
        classifier=options.classifier,
        max_inline_chars=options.max_inline_chars,
        raw=options.raw,
        facts=options.format == "json",
        announce_store_errors=options.store,
        after_store=(
            (lambda stored, hint: _follow_background(run, stored, hint, settings["redaction.enabled"]))
            if run.held
            else None
        ),
    )
    reduction, text = compacted.reduction, compacted.text

    if options.format == "json":
        from .output import json_text
        from .wire import result_to_wire

        stored, path = compacted.artifact_id, compacted.stored_path
        raw_ref = {"id": stored, "storage": "file", "path": path} if stored and path else None
        payload = {
            "result": result_to_wire(reduction, trace=options.trace, raw_ref=raw_ref),
            "exitCode": run.exit_code,
            "stdout": capture_mod.decode(run.stream(capture_mod.STDOUT)),
            "stderr": capture_mod.decode(run.stream(capture_mod.STDERR)),
        }
        if problem:
            payload["warnings"] = [problem]
        if settings["redaction.enabled"]:  # every string out, not only the compacted text
            payload = _redacted(payload)
        capture_mod.write_out(json_text(payload).encode("utf-8", errors="surrogateescape"))
    elif reduction.exact is not None:
        # Exact reads stay exact: the bytes as written, no newline added, unless
        # something had to be escaped or redacted in them.
        exact = combined if text == compacted.execution.combined else text.encode("utf-8", errors="surrogateescape")
        capture_mod.write_out(exact)
    else:
        capture_mod.write_out((text + "\n" if text else "").encode("utf-8", errors="surrogateescape"))
    return run.exit_code


def _unknown_classifier(rule_id: str, cwd: str) -> str | None:
    """What to say when --classifier names no rule (the output is then classified as
    usual: the command has run, its output must not be lost over an option)."""
    from ..rules import index

    if any(entry.id == rule_id for entry in index.load(cwd).entries):
        return None
    return (
        f"--classifier {rule_id}: no such rule, so the output was classified as usual; "
        "tokenjuice verify --format json lists the rules"
    )


def _redact_bytes(data: bytes) -> bytes:
    from ..state.redact import redact

    return redact(data.decode("utf-8", "surrogateescape"))[0].encode("utf-8", "surrogateescape")


def _redacted(value: Any) -> Any:
    """`value` (JSON-able) with every string in it redacted."""
    if isinstance(value, str):
        from ..state.redact import might_hold_secrets, redact

        return redact(value)[0] if might_hold_secrets(value) else value
    if isinstance(value, dict):
        return {key: _redacted(item) for key, item in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(item, str) for item in value):  # a command's words: read together
            from ..state.redact import redact_words

            return redact_words(value)
        return [_redacted(item) for item in value]
    return value


def last_resort(run: capture_mod.Capture, error: BaseException) -> int:
    """Whatever failed inside tokenjuice after the command ran, hand back its output
    (as captured: bounded, marked where cut) and its exit code."""
    try:
        kind = type(error).__name__
        sys.stderr.write(f"tokenjuice: internal error ({kind}); showing raw output\n")
        capture_mod.write_out(run.combined())
    except BaseException:  # noqa: BLE001, S110 - nothing more can be done; the exit code still goes back
        pass
    return run.exit_code


def _follow_background(
    run: capture_mod.Capture, stored: tuple[str, str] | None, hint: str | None, redact: bool = True
) -> str:
    """Hand the pipes a background job still holds to a detached drainer that appends
    what it writes next to the stored output (`tokenjuice cat ID` shows it); the
    trailer says so. Without a stored output the job's later output is discarded,
    but the job itself keeps running as it would in a terminal."""
    from ..state import artifacts

    if stored is not None:
        late_path = stored[1].removesuffix(artifacts.OUTPUT_SUFFIX) + artifacts.LATE_SUFFIX
        try:
            transform = _redact_bytes if redact else None  # redacted before it reaches the disk
            if capture_mod.drain_detached(run, late_path, transform=transform) is not None:
                return f"what it writes next: tokenjuice cat {stored[0]}"
        except OSError:
            pass
    capture_mod.drain_detached(run)
    return f"{hint + '; ' if hint else ''}what it writes next is not kept"


#: The variable a hook's command reaches bash in, out of every process's arguments.
COMMAND_VARIABLE = "TOKENJUICE_COMMAND"
#: What bash runs instead: the command, as `bash -c` would run it (same $0, $@, line
#: numbers and error messages), once the variable is gone from its environment; past
#: any function a login profile names `eval` or `unset`.
FROM_VARIABLE = f'\\builtin eval "\\builtin unset -v {COMMAND_VARIABLE};${COMMAND_VARIABLE}"'
#: The lowest descriptor the started signal gets in bash: above those scripts and
#: profiles pick by hand (3-9) and the first ones bash gives `{name}>file` (10 up).
STARTED_FD_FLOOR = 60
#: What `wrap` says when bash never reached the command it was handed.
NOT_STARTED = (
    "tokenjuice: the command never started: bash's login profile ended or skipped it (a function "
    f"named builtin, {COMMAND_VARIABLE} unset, an exit); nothing ran\n"
)


def out_of_sight(argv: list[str]) -> tuple[list[str], tuple[int, int] | None]:
    """`bash -lc BODY` → `bash -lc FROM_VARIABLE`, with BODY in the environment, and
    BODY wiped from this process's own arguments: a hook's command (a here-doc body,
    `TOKEN=x make`) is then not in what other local users read with `ps` while it
    runs — an environment is readable by its owner only. Only bash: `eval` in dash,
    zsh and fish names itself in error messages and line numbers, so their bodies
    stay arguments, and so does a body whose last command `bash -c` would exec in
    its own place (`eval` never does: bash would stay, and say `Terminated` when a
    signal ends that command) — it is in bash's arguments until the login profile
    has run, then that command's own arguments are what `ps` shows. argv unchanged,
    too, when BODY does not fit in one variable.

    A handed-over BODY first writes one byte into a pipe (`_started` reads it once the
    command is done) and closes it: a profile that unsets the variable or exits, or a
    function named `builtin` (exported, or defined by the profile), would otherwise run
    nothing and exit 0. The second value is that pipe (read end, write end), or None."""
    from ..shell.syntax import MAX_ARG_STRLEN, bash_execs_last

    found = _login_launcher(argv)
    if found is None:
        return argv, None
    index, dialect, shell = found
    body = argv[index]
    _wipe_argument(body, len(argv) - index)
    if dialect != "posix" or shell != "bash":
        return argv, None
    room = len(os.fsencode(f"{COMMAND_VARIABLE}={body}")) + 64  # the started signal's steps
    if room >= MAX_ARG_STRLEN or bash_execs_last(body):
        return argv, None
    pipe = _started_pipe()
    if pipe is None:
        return argv, None
    # one line with the body: its line numbers stay what `bash -c` gives
    os.environ[COMMAND_VARIABLE] = f"\\builtin printf . >&{pipe[1]};\\builtin exec {pipe[1]}>&-;{body}"
    return [*argv[:index], FROM_VARIABLE, *argv[index + 1 :]], pipe


def _started_pipe() -> tuple[int, int] | None:
    """A pipe whose write end bash inherits, numbered from STARTED_FD_FLOOR; None
    when there is none to be had (the command then stays in bash's arguments)."""
    import fcntl

    try:
        read_end, write_end = os.pipe()
    except OSError:
        return None
    try:
        high = fcntl.fcntl(write_end, fcntl.F_DUPFD, STARTED_FD_FLOOR)  # inheritable, unlike os.pipe's
    except OSError:
        os.close(read_end)
        return None
    finally:
        os.close(write_end)
    return read_end, high


def _started(pipe: tuple[int, int]) -> bool:
    """Did the handed-over command start (its byte is in the pipe)? Closes the pipe.
    Read without waiting: a job the profile started may hold the write end."""
    read_end, write_end = pipe
    os.close(write_end)
    try:
        os.set_blocking(read_end, False)
        return bool(os.read(read_end, 1))
    except OSError:  # nothing written (BlockingIOError)
        return False
    finally:
        os.close(read_end)


def _login_launcher(argv: list[str]) -> tuple[int, str, str] | None:
    """(index of the body, dialect, shell name) for a login-shell launcher such as
    `bash -lc BODY`, the form a hook's rewrite runs; None for any other argv."""
    from ..shell.argv import SHELLS, basename, launcher_body

    found = launcher_body(argv)
    if not found or not found[2]:
        return None
    shell = next((basename(word) for word in argv if basename(word) in SHELLS), "sh")
    return found[0], found[1], shell


def _wipe_argument(value: str, from_end: int) -> None:
    """Overwrite `value`'s bytes where the kernel keeps this process's arguments (what
    /proc/PID/cmdline and `ps` show), through /proc/self/mem; Python has its own copy
    already. `value` is the argument `from_end` places from the last (1: the last
    one), and only that one: the same text elsewhere (the command's `$0` or `$1`, an
    option's value) is another argument, left as it is; nothing is wiped when that
    place holds something else (wrap called in-process). Linux only, best effort:
    until this runs (Python's start), and where the kernel refuses, `ps` shows it."""
    try:
        with open("/proc/self/cmdline", "rb") as file:
            area = file.read()
        with open("/proc/self/stat", "rb") as file:
            status = file.read()
        arg_start = int(status[status.rindex(b")") + 2 :].split()[45])  # field 48, arg_start
        target = os.fsencode(value)
        arguments = area.split(b"\0")[:-1]  # each argument ends in a NUL
        position = len(arguments) - from_end
        if not target or from_end < 1 or position < 0 or arguments[position] != target:
            return
        offset = sum(len(argument) + 1 for argument in arguments[:position])
        memory = os.open("/proc/self/mem", os.O_WRONLY | os.O_CLOEXEC)
        try:
            os.pwrite(memory, b"\0" * len(target), arg_start + offset)
        finally:
            os.close(memory)
    except (OSError, ValueError, IndexError):
        pass


def after_profile(argv: list[str], path: str, cwd: str, marker: str | None) -> list[str]:
    """`bash -lc BODY` → `bash -lc '<restore>; BODY'`: what a hook's wrap does
    once the login profile has run and before the command does.

    A login shell sources profile files, and they may reset PATH (Debian's
    /etc/profile, macOS's path_helper: an activated virtualenv or nvm bin dir
    would vanish), `cd` elsewhere, or print a banner. So after the profile: PATH
    is the caller's again, the directory is the one the host ran the command in
    (with the shell's own `cd`, past any function or alias a profile puts in its
    place), and `marker` is printed on stdout (and stderr) so that everything the
    profile printed — it is not the command's output — can be cut away. The
    prefix shares the body's first line, so line numbers in the shell's error
    messages stay the same. fish gets `--init-command` instead.
    """
    found = _login_launcher(argv)
    if found is None:
        return argv
    index, dialect, shell = found
    cwd = _logical(cwd)
    if dialect == "fish":
        # fish echoes the failing command line in its errors, so keep the body
        # clean: --init-command runs after the config files, before the command.
        steps = [f"set -gx PATH (string split -- : {quote_fish(path)})"] if path else []
        steps.append(f"builtin cd {quote_fish(cwd)} 2>/dev/null")
        if marker:
            steps.append(f"builtin printf '%s\\n' {quote_fish(marker)}")
            steps.append(f"builtin printf '%s\\n' {quote_fish(marker)} >&2")
        return [argv[0], "--init-command", "; ".join(steps)] + argv[1:]
    own = "\\builtin" if shell == "zsh" else "\\command"  # zsh's `command` skips builtins
    steps = [f"PATH={quote(path)}", "export PATH"] if path else []
    steps.append(f"{own} cd -- {quote(cwd)} >/dev/null 2>&1")
    if marker:
        steps.append(f"{own} printf '%s\\n' {quote(marker)}")
        steps.append(f"{own} printf '%s\\n' {quote(marker)} >&2")
    return argv[:index] + ["; ".join(steps) + "; " + argv[index]] + argv[index + 1 :]


def _logical(cwd: str) -> str:
    """The directory as the caller's shell names it ($PWD, through any symlink) when
    $PWD is `cwd`, so `pwd` and $PWD inside the wrap read as they do outside it."""
    logical = os.environ.get("PWD", "")
    if not logical.startswith("/") or logical == cwd:
        return cwd
    try:
        return logical if os.path.samefile(logical, cwd) else cwd
    except (OSError, ValueError):
        return cwd


def _signal_marker(signum: int, exit_code: int) -> bytes:
    import signal

    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return f"\n[tokenjuice: the command was killed by {name} (exit {exit_code})]\n".encode()
