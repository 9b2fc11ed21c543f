"""`tokenjuice wrap [options] -- <command> [args…]`: run, capture, reduce, print.

This is the hot path: it parses its own options (click costs ~60 ms to import),
loads the catalogue from the index cache, and compiles only the chosen rule.
The exit code is always the command's (128+N if a signal killed it); tokenjuice's
own problems with its rules are reported on stderr and never change it.
"""

from __future__ import annotations

import os
import sys
import time

from .. import capture as capture_mod
from ..errors import UsageError
from ..shellsyntax import join, quote, quote_fish

USAGE = """\
usage: tokenjuice wrap [options] -- <command> [args...]

Run a command (no shell), then print its output compacted for an AI agent.
The exit code is the command's own. Everything after -- goes to the command.

options:
  --raw, --full            print the exact output, uncompacted (stdout to stdout,
                           stderr to stderr)
  --format text|json       text (default) prints the compacted output; json prints
                           {"result": ..., "exitCode": N, "stdout": ..., "stderr": ...}
  --trace                  add the classification trace to JSON output
  --source NAME            who ran the command (cursor, cli, ...); default cli
  --max-inline-chars N     size budget for the compacted text
                           (default 1200, or 2400 when the command failed)
  --max-capture-bytes N    output kept in memory (default 4194304: the first 3/4
                           and the last 1/4 of the output; the middle is counted)
  --tee                    also stream the raw output to stderr while it runs
  --keep-path              for a login shell (bash -lc ...), run the command with
                           this PATH rather than the one the profile sets
  --no-omit                never cut lines (ANSI is still stripped, counts shown)
  --store                  keep the raw output (secrets redacted) as an artifact
                           even if the command succeeded; see tokenjuice cat
                           (by default only failed commands' output is kept)
  --classifier RULE_ID     use this rule instead of classifying the command
  -h, --help               show this help
"""

_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ALNUM = _LOWER + _LOWER.upper() + "0123456789"
#: What the ledger may hold as a command or subcommand name (checked without `re`,
#: whose pattern compiles would be paid on every wrap).
_NAME_CHARS = frozenset(_ALNUM + "._+-")
_SUBCOMMAND_CHARS = frozenset(_LOWER + "0123456789-")
_FLAGS = {"--raw": "raw", "--full": "raw", "--trace": "trace", "--tee": "tee", "--no-omit": "no_omit",
          "--keep-path": "keep_path", "--store": "store"}
_VALUES = ("--format", "--source", "--max-inline-chars", "--max-capture-bytes", "--classifier")


class WrapOptions:
    __slots__ = ("raw", "trace", "tee", "no_omit", "keep_path", "store", "format", "source", "max_inline_chars",
                 "max_capture_bytes", "classifier", "help")

    def __init__(self) -> None:
        self.raw = self.trace = self.tee = self.help = self.keep_path = self.store = False
        self.no_omit = os.environ.get("TOKENJUICE_NO_OMISSION", "") in ("1", "true", "TRUE", "yes", "YES")
        self.format = "text"
        self.source = "cli"
        self.max_inline_chars: int | None = None
        self.max_capture_bytes: int | None = None
        self.classifier: str | None = None


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
        sys.stderr.write(f"tokenjuice wrap: {error}\n")
        return error.exit_code
    if options.help:
        sys.stdout.write(USAGE)
        return 0

    from .. import config

    settings = config.load(os.getcwd())
    max_bytes = options.max_capture_bytes or settings["capture.max_bytes"] or capture_mod.DEFAULT_MAX_CAPTURE_BYTES
    child = with_caller_path(command, os.environ.get("PATH", "")) if options.keep_path else command
    # One pipe keeps stdout and stderr in order; --raw and JSON need them apart.
    separate = options.raw or options.format == "json"
    run = capture_mod.run(child, max_bytes=max_bytes, tee=options.tee, merged=not separate)
    if options.raw and options.format == "text":
        # Exactly what the command wrote, each stream to its own descriptor.
        capture_mod.write_out(run.stream(capture_mod.STDOUT))
        capture_mod.write_out(run.stream(capture_mod.STDERR), 2)
        return run.exit_code
    if run.signal is not None:
        run.chunks.append((capture_mod.STDERR, _signal_marker(run.signal, run.exit_code)))
    combined = run.combined()

    from ..reduce.engine import Options, reduce
    from ..rules import index

    execution = {
        "toolName": "exec",
        "command": join(command),
        "argv": command,
        "combinedText": capture_mod.decode(combined),
        "exitCode": run.exit_code,
        "metadata": {"source": options.source, "tokenjuiceCaptureTruncated": run.truncated},
    }
    catalogue = index.load(os.getcwd())
    _warn(catalogue.errors, settings.warnings)
    fallback_hint = "tokenjuice wrap --raw -- " + join(command)

    def reduce_with(hint: str):
        return reduce(execution, catalogue, Options(
            classifier=options.classifier, max_inline_chars=options.max_inline_chars, raw=options.raw,
            no_omit=options.no_omit, trace=options.trace, raw_hint=hint, facts=options.format == "json"))

    # The raw output is kept (redacted, compressed) only when this run wants it and
    # the reduction cut something: the shown output is otherwise the whole output.
    artifact_id = None
    if _wants_artifact(run.exit_code, options, settings):
        from ..state import artifacts

        artifact_id = artifacts.new_id()
    reduction = reduce_with(f"tokenjuice cat {artifact_id}" if artifact_id else fallback_hint)
    artifact = None
    if artifact_id and (options.store or reduction.result["compaction"]["kinds"]):
        artifact = _store_artifact(artifact_id, combined, options, settings)
        if artifact is None:
            reduction = reduce_with(fallback_hint)  # the id would lead nowhere
    result = reduction.result
    if artifact:
        result = _with_raw_ref(result, *artifact)
    _record(reduction, run, options, settings, artifact[0] if artifact else None)

    if options.format == "json":
        from ..output import json_text

        payload = {"result": result, "exitCode": run.exit_code,
                   "stdout": capture_mod.decode(run.stream(capture_mod.STDOUT)),
                   "stderr": capture_mod.decode(run.stream(capture_mod.STDERR))}
        text = json_text(payload)
    else:
        text = result["inlineText"] + "\n" if result["inlineText"] else ""
    capture_mod.write_out(text.encode("utf-8", errors="surrogateescape"))
    return run.exit_code


def _wants_artifact(exit_code: int, options: WrapOptions, settings) -> bool:
    mode = settings["artifacts.mode"]
    return options.store or mode == "always" or (mode == "failures" and exit_code != 0)


def _store_artifact(artifact_id: str, combined: bytes, options: WrapOptions, settings) -> tuple[str, str] | None:
    """(id, path) of the stored raw output, or None when it could not be stored."""
    from ..state import artifacts

    try:
        path = artifacts.store(artifact_id, combined, redact=settings["redaction.enabled"],
                               retention_days=settings["artifacts.retention_days"],
                               max_total_mb=settings["artifacts.max_total_mb"])
    except artifacts.ArtifactError as error:
        if options.store or os.environ.get("TOKENJUICE_DEBUG") == "1":
            sys.stderr.write(f"tokenjuice: {error}\n")
        return None
    return artifact_id, path


def _with_raw_ref(result: dict, artifact_id: str, path: str) -> dict:
    """The result with `rawRef` placed before `stats`, as the original did."""
    ordered = {}
    for key, value in result.items():
        if key == "stats":
            ordered["rawRef"] = {"id": artifact_id, "storage": "file", "path": path}
        ordered[key] = value
    return ordered


def _record(reduction, run, options: WrapOptions, settings, artifact_id: str | None) -> None:
    from ..state import spool

    if not spool.enabled(settings["stats.enabled"]):
        return
    from ..command import basename, subcommand

    argv = reduction.info.normalized_argv or reduction.info.first_argv
    argv0 = basename(argv[0]) if argv else ""
    action = subcommand(argv)
    result = reduction.result
    spool.record({
        "record_id": os.urandom(8).hex(),
        "created_at": time.time(),
        "source": _name_or_none(options.source.lower()) or "cli",
        "argv0": _name_or_none(argv0),
        "subcommand": _name_or_none(action, _LOWER, _SUBCOMMAND_CHARS, 31),
        "rule_id": reduction.classification.rule["id"],
        "family": reduction.classification.rule["family"],
        "exit_code": run.exit_code,
        "raw_chars": result["stats"]["rawChars"],
        "reduced_chars": result["stats"]["reducedChars"],
        "duration_ms": round(run.duration_ms, 1),
        "capture_truncated": int(run.truncated),
        "passthrough": result.get("passthrough"),
        "artifact_id": artifact_id,
    })


def _name_or_none(name: str | None, first: str = _ALNUM, chars: frozenset = _NAME_CHARS,
                  limit: int = 64) -> str | None:
    """Command names only: no paths, arguments, URLs or anything that may be private."""
    return name if name and len(name) <= limit and name[0] in first and set(name) <= chars else None


def with_caller_path(argv: list[str], path: str) -> list[str]:
    """`bash -lc BODY` → `bash -lc 'PATH=<ours>; export PATH; BODY'`.

    A login shell sources profile files, and Debian's /etc/profile (like macOS's
    path_helper) resets or reorders PATH, so an activated virtualenv or nvm bin dir
    would vanish. Restoring PATH after the profile ran keeps the rest of the
    profile's setup. The prefix shares the body's first line, so line numbers in
    the shell's error messages stay the same. fish gets `--init-command` instead.
    """
    from ..command import launcher_body

    found = launcher_body(argv)
    if not found or not found[2] or not path:
        return argv
    index, dialect, _ = found
    if dialect == "fish":
        # fish echoes the failing command line in its errors, so keep the body
        # clean: --init-command runs after the config files, before the command.
        restore = f"set -gx PATH (string split -- : {quote_fish(path)})"
        return [argv[0], "--init-command", restore] + argv[1:]
    return argv[:index] + [f"PATH={quote(path)}; export PATH; " + argv[index]] + argv[index + 1:]


def _signal_marker(signum: int, exit_code: int) -> bytes:
    import signal

    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    return f"\n[tokenjuice: the command was killed by {name} (exit {exit_code})]\n".encode()


def _warn(problems: list[dict], config_warnings: list[str]) -> None:
    """Broken rule files are skipped and a broken config falls back to defaults,
    never fatally; say so on stderr."""
    for problem in problems[:3]:
        sys.stderr.write(f"tokenjuice: skipped rule {problem['path']}: {problem['message']}"
                         " (check with: tokenjuice verify)\n")
    if len(problems) > 3:
        sys.stderr.write(f"tokenjuice: {len(problems) - 3} more rule files skipped (tokenjuice verify)\n")
    for warning in config_warnings[:2]:
        sys.stderr.write(f"tokenjuice: {warning} (check with: tokenjuice config list)\n")
