"""The `tokenjuice` command line: a thin click layer over `tokenjuice.commands`.

Each command parses its options, calls one function in `commands/`, and hands the
`Output` it returns to `emit`, which prints text or JSON (`--format json` or
`--json`), colours text only for a terminal (`NO_COLOR` turns it off,
`FORCE_COLOR` on) and exits with the command's code. `main` is the one place
errors are turned into words: a `TokenjuiceError` becomes one sentence on stderr
(or a JSON error object in JSON mode) with exit 1, or 2 for usage errors; any
other exception is a bug and keeps its traceback.

`wrap` and the hooks normally never get here: `entry.py` dispatches them before
click is imported. They are declared here too so `--help` lists them and
`python -m tokenjuice wrap …` behaves the same.
"""

from __future__ import annotations

import itertools
import os
import platform
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

import click

from . import __version__
from .commands.output import Output, json_text
from .errors import TokenjuiceError, UsageError

F = TypeVar("F", bound=Callable[..., Any])
_PASSTHROUGH = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}
#: Commands that only look: they never create a file or a folder (no cache writes either).
READ_ONLY = frozenset(
    {"doctor", "stats", "discover", "ls", "cat", "paths", "schema", "config list", "config get", "completion", "verify"}
)


def use_colour(stream: Any) -> bool:
    """Colour for terminals only; NO_COLOR (any value) turns it off, FORCE_COLOR on."""
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("FORCE_COLOR", ""):
        return True
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def on_terminal() -> bool:
    """Is a person watching (stdout and stderr both terminals)? Only then does a long
    command say what it is doing while it does it, on stderr; a pipe gets nothing extra."""
    try:
        return sys.stdout.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def long_work(line: str) -> None:
    """One line on stderr before work that takes seconds, for a terminal only."""
    if on_terminal():
        click.echo(line, err=True)


def progress_bar(label: str) -> Callable[[list[Any]], Iterable[Any]] | None:
    """A progress bar (stderr) over countable work, for a terminal only."""
    if not on_terminal():
        return None

    def shown(items: list[Any]) -> Iterator[Any]:
        with click.progressbar(items, label=label, file=sys.stderr) as bar:
            yield from bar

    return shown


def emit(output: Output, output_format: str = "text") -> None:
    """Print a command's Output and exit with its code."""
    if output.raw is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(output.raw)
    elif output_format == "json" and output.data is not None:
        click.echo(json_text(output.data), nl=False)
    else:
        click.echo(output.text, nl=False, color=use_colour(sys.stdout))
    if output.notes and output_format != "json":
        click.echo(output.notes, nl=False, err=True, color=use_colour(sys.stderr))
    if output.warnings:
        click.echo(output.warnings, nl=False, err=True, color=use_colour(sys.stderr))
    sys.exit(output.exit_code)


def format_option(function: F) -> F:
    """`--format text|json` and its shorthand `--json`, as `output_format`."""

    def json_flag(ctx: click.Context, _: click.Parameter, value: bool) -> None:
        if value:
            ctx.meta["json"] = True

    function = click.option(
        "--json", "json_flag", is_flag=True, expose_value=False, callback=json_flag, help="Same as --format json."
    )(function)
    return click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "json"]),
        default="text",
        show_default=True,
        help="Output format.",
        callback=lambda ctx, _, value: "json" if ctx.meta.get("json") else value,
    )(function)


@click.group(context_settings={"help_option_names": ["-h", "--help"]}, invoke_without_command=True)
@click.option("-V", "--version", is_flag=True, help="Print the version (-v too: Python and platform).")
@click.option("-v", "--verbose", is_flag=True, hidden=True)
@click.pass_context
def cli(ctx: click.Context, version: bool, verbose: bool) -> None:
    """Compact noisy shell output before it reaches an AI coding agent."""
    if version or (ctx.invoked_subcommand is None and verbose):
        click.echo(version_text(verbose))
        sys.exit(0)
    if ctx.invoked_subcommand is None:
        click.echo(ctx.get_help())
        sys.exit(0)


def version_text(verbose: bool) -> str:
    text = f"tokenjuice {__version__}"
    if verbose:
        text += (
            f"\nPython {platform.python_version()} ({platform.python_implementation()}, {sys.executable})"
            f"\n{platform.platform()}"
        )
    return text


@cli.command(context_settings=_PASSTHROUGH, add_help_option=False, short_help="Run a command, print compacted output.")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def wrap(args: tuple[str, ...]) -> None:
    """Run a command and print its output compacted (tokenjuice wrap -- git status)."""
    from .commands.wrap import main

    sys.exit(main(list(args)))


_CLASSIFIER = click.option("--classifier", metavar="RULE_ID", help="Use this rule instead of classifying.")
_MAX_INLINE = click.option(
    "--max-inline-chars",
    type=click.IntRange(min=1),
    metavar="N",
    help="Size budget for the compacted text (default: the information budget, output.max_chars).",
)
_TRACE = click.option("--trace", is_flag=True, help="Include the classification trace (JSON).")
_RAW = click.option("--raw", "--full", "raw", is_flag=True, help="Return the input unchanged.")
_LOG_FILE = click.argument("file", required=False, type=click.Path(dir_okay=False))
_EXIT_CODE = click.option("--exit-code", type=int, default=0, show_default=True, help="The command's exit code.")


@cli.command(short_help="Compact saved output (file or stdin).")
@_LOG_FILE
@click.option("--command", metavar="CMD", help="The command that produced the output (for classification).")
@_EXIT_CODE
@format_option
@_RAW
@_CLASSIFIER
@_MAX_INLINE
@_TRACE
def reduce(
    file: str | None,
    command: str | None,
    exit_code: int,
    output_format: str,
    raw: bool,
    classifier: str | None,
    max_inline_chars: int | None,
    trace: bool,
) -> None:
    """Compact saved output from FILE or stdin."""
    from .commands.reduce import reduce_text

    _check_classifier(classifier)
    emit(
        reduce_text(
            file,
            command=command,
            exit_code=exit_code,
            raw=raw,
            classifier=classifier,
            max_inline_chars=max_inline_chars,
            trace=trace,
        ),
        output_format,
    )


@cli.command("reduce-json", short_help="Reduce a JSON tool-execution payload.")
@_LOG_FILE
@_RAW
@_CLASSIFIER
@_MAX_INLINE
@_TRACE
def reduce_json(file: str | None, raw: bool, classifier: str | None, max_inline_chars: int | None, trace: bool) -> None:
    """Reduce a JSON tool-execution payload; always answers JSON (errors too)."""
    from .commands.reduce import reduce_json as run

    _check_classifier(classifier)
    emit(run(file, classifier=classifier, raw=raw, trace=trace, max_inline_chars=max_inline_chars), "json")


def _check_classifier(classifier: str | None) -> None:
    """An unknown --classifier is a usage error, not silently ignored."""
    if classifier is None:
        return
    from .rules import index

    if not any(entry.id == classifier for entry in index.load(os.getcwd()).entries):
        raise UsageError(f"--classifier {classifier}: no such rule; tokenjuice verify --format json lists them")


@cli.command(short_help="Check rule files and their examples.")
@click.option("--fixtures", is_flag=True, help="Also run every rule's examples.")
@click.option("--only", metavar="ID_PREFIX", help="Run only the examples of rules whose id starts with this.")
@click.option("--show", is_flag=True, help="Print each example's reduced output (implies --fixtures).")
@click.option("--coverage", is_flag=True, help="Per category: rules, examples, median ratio, worst rule.")
@click.option(
    "--reducers-doc",
    type=click.Path(dir_okay=False),
    metavar="PATH",
    help="Write the table of every built-in rule (docs/reducers.md).",
)
@format_option
def verify(
    fixtures: bool, only: str | None, show: bool, coverage: bool, reducers_doc: str | None, output_format: str
) -> None:
    """Validate every rule layer (and run the examples with --fixtures)."""
    from .commands.verify import run

    examples = fixtures or show or coverage or bool(reducers_doc)
    progress = progress_bar("running every rule's examples") if examples else None
    emit(
        run(fixtures=fixtures, only=only, show=show, coverage=coverage, reducers_doc=reducers_doc, progress=progress),
        output_format,
    )


@cli.command(context_settings={"ignore_unknown_options": True}, short_help="Capture real output as a rule example.")
@click.option("--name", help="A short name for the example.")
@click.option("--source", help="Where the output comes from (default: this machine).")
@click.option(
    "--append",
    type=click.Path(dir_okay=False),
    metavar="RULE_FILE",
    help="Append the example to this rule file (a new file gets a whole rule).",
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def example(name: str | None, source: str | None, append: str | None, command: tuple[str, ...]) -> None:
    """Run a command and print its real output as a rule [[examples]] entry."""
    from .commands.example import run

    emit(run(list(command), name=name, source=source, append=append))


@cli.command(short_help="Print the JSON Schema of rule files or never-wrap files.")
@click.argument("what", type=click.Choice(["rule", "neverwrap"]))
def schema(what: str) -> None:
    """Print the JSON Schema of a TOML rule file (also in docs/rule.schema.json), or of a
    never-wrap catalogue file and a hook.skip table (docs/neverwrap.schema.json)."""
    if what == "neverwrap":
        from .shell.neverwrap.schema import json_schema as neverwrap_schema

        emit(Output(data=neverwrap_schema()), "json")
        return
    from .rules.schema import json_schema

    emit(Output(data=json_schema()), "json")


def _host_names() -> list[str]:
    from .hosts.hook import HOSTS

    return list(HOSTS)


_HOST = click.argument("host", required=False, type=click.Choice(_host_names()), metavar="[HOST]")
#: Under --help of the commands taking a host (a metavar keeps click from wrapping the list mid-word).
_HOSTS_EPILOG = "HOST is one of: " + ", ".join(_host_names()) + "."
_ALL = click.option("--all", "every", is_flag=True, help="Every host found on this machine.")
_PROJECT = click.option("--project", is_flag=True, help="Use the project's config (at the git root), not your own.")
_LOCAL = click.option("--local", is_flag=True, help="Use this interpreter and checkout (python -m tokenjuice).")
_DRY_RUN = click.option("--dry-run", is_flag=True, help="Print the change as a diff; write nothing.")
#: install's exit codes (commands/hosts.py declares them; kept here so --help imports nothing more).
_INSTALL_EXIT_CODES = (
    "Exit codes: 0 done; 1 a host failed (the others were done); 2 wrong usage; 3 --all found no agent "
    "host, so nothing was installed; 4 the Codex hook was installed but --approve could not record its approval."
)


@cli.command(
    short_help="Install the hook for an agent host (or list them).",
    epilog=_HOSTS_EPILOG + "\n\n" + _INSTALL_EXIT_CODES,
)
@_HOST
@_ALL
@_PROJECT
@_LOCAL
@_DRY_RUN
@click.option(
    "--mode",
    type=click.Choice(["post", "pre", "auto"]),
    help="post: compact a command's output after it ran (the default where the host can); pre: rewrite the "
    "command to run through tokenjuice wrap; auto (Claude Code): both, the rewrite only for commands your "
    "permission rules already allow, so that failing ones are compacted too.",
)
@click.option(
    "--tools",
    type=click.Choice(["all", "shell"]),
    help="Claude Code, Codex, Copilot, Gemini, OpenCode: which tools' outputs are compacted after they ran; all (the "
    "default): shell commands, the host's search tools (Claude Code's Grep and Copilot's grep and rg in content mode; "
    "Gemini's grep_search, glob, list_directory, web_fetch, google_web_search; OpenCode's grep, glob, webfetch, "
    "websearch) and MCP tools (never file reads, edits or images); shell: shell commands only.",
)
@click.option(
    "--approve",
    is_flag=True,
    help="Codex: also record your approval of the hook through codex app-server (what /hooks would write).",
)
@format_option
def install(
    host: str | None,
    every: bool,
    project: bool,
    local: bool,
    dry_run: bool,
    mode: str | None,
    tools: str | None,
    approve: bool,
    output_format: str,
) -> None:
    """Add tokenjuice's hook to a host's config (backup, atomic write, nothing else touched).
    Without HOST, list the hosts found on this machine and what install would do."""
    from .commands import hosts

    emit(
        hosts.install(
            host, every=every, project=project, local=local, dry_run=dry_run, mode=mode, approve=approve, tools=tools
        ),
        output_format,
    )


@cli.command(short_help="Remove the hook from an agent host.", epilog=_HOSTS_EPILOG)
@_HOST
@_ALL
@_PROJECT
@_DRY_RUN
@click.option(
    "--purge", is_flag=True, help="With --all: then remove tokenjuice's config, data, cache and temporary store."
)
@format_option
def uninstall(host: str | None, every: bool, project: bool, dry_run: bool, purge: bool, output_format: str) -> None:
    """Remove tokenjuice's entry, and nothing else; a file install left untouched gets its
    bytes from before install back (and install's backups of it go). With --all --purge,
    then everything tokenjuice wrote for you (listed first; tokenjuice paths shows it)."""
    from .commands import hosts

    emit(hosts.uninstall(host, every=every, project=project, dry_run=dry_run, purge=purge), output_format)


@cli.command(short_help="Check tokenjuice's health, or a host's hook.", epilog=_HOSTS_EPILOG)
@click.argument("target", required=False, type=click.Choice([*_host_names(), "hooks"]), metavar="[HOST|hooks]")
@_PROJECT
@_LOCAL
@click.option("--deep", is_flag=True, help="Run the installed hook and a probe command for real.")
@click.option("--all", "every", is_flag=True, help="Every host's hook (the same as doctor hooks).")
@format_option
def doctor(target: str | None, project: bool, local: bool, deep: bool, every: bool, output_format: str) -> None:
    """Rules, config, ledger, stored output and hooks; or one host's hook, or every hook
    (hooks). Exit 1 when something is broken."""
    from .commands import doctor as health
    from .commands import hosts

    if target == "hooks" or (every and target is None):
        long_work(f"checking every host's hook{' and running each' if deep else ''} (a few seconds)...")
        emit(hosts.doctor_hooks(local=local, deep=deep), output_format)
    elif target:
        if deep:
            long_work(f"running the {target} hook on a probe command (a few seconds)...")
        emit(hosts.doctor_host(target, project=project, local=local, deep=deep), output_format)
    else:
        long_work("checking rules, config, ledger, stored outputs and hooks (a few seconds)...")
        emit(health.run(), output_format)


_SINCE = click.option("--since", metavar="WHEN", help="Only runs since a duration (7d, 24h, 2w) or a date.")


@cli.command(short_help="What tokenjuice saved, by family, rule, tool and day.")
@_SINCE
@click.option("--timezone", "zone", default="local", show_default=True, help="local, utc or an IANA name.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "csv"]),
    default="text",
    show_default=True,
    help="Output format.",
)
@click.option("--json", "json_flag", is_flag=True, help="Same as --format json.")
def stats(since: str | None, zone: str, output_format: str, json_flag: bool) -> None:
    """Totals and savings by source, family, rule, non-shell tool and day, from the local ledger.

    \b
    A tool result a host hook compacted that ran no shell command (an MCP
    tool, a search tool) is counted by the tool's name, apart from commands.

    \b
    The columns add up: saved = credited - read back.
    credited   what a run saved against what its host would have shown
               (at most claude-code 30k chars, codex 10k, gemini 40k,
               opencode 51.2k or 2,000 lines, copilot 50k; cursor and cli
               uncapped), less what tokenjuice showed; nothing when the
               command bounded its own output (| head, -n N)
    read back  every char tokenjuice cat printed of the runs' stored
               outputs; a rule whose cuts are read back often can save
               less than nothing
    cuts read back  of the runs whose output was cut, how many were read back
    """
    from .commands import stats as command

    output_format = "json" if json_flag else output_format
    emit(command.run(since=since, zone_name=zone, csv_format=output_format == "csv"), output_format)


@cli.command(short_help="Find commands that still pour out noise.")
@_LOG_FILE
@click.option("--source-command", metavar="CMD", help="With FILE: the command that produced it.")
@_EXIT_CODE
@_SINCE
@format_option
def discover(
    file: str | None, source_command: str | None, exit_code: int, since: str | None, output_format: str
) -> None:
    """From the ledger: commands that fall back to generic/fallback and rules that save little,
    with what to do about each. With FILE, analyse one saved log instead."""
    from .commands import discover as command

    if file:
        if not source_command:
            raise UsageError("discover FILE needs --source-command, the command that produced the log")
        emit(command.one_file(file, source_command=source_command, exit_code=exit_code), output_format)
    emit(command.run(since=since), output_format)


@cli.command("ls", short_help="List stored full outputs.")
@format_option
def list_artifacts(output_format: str) -> None:
    """Stored full outputs (of every run whose shown output was cut), newest first."""
    from .commands import artifacts

    emit(artifacts.listing(), output_format)


@cli.command(short_help="Print a stored full output.")
@click.argument("artifact_id", metavar="ID")
@click.option("--lines", metavar="A:B", help="Only lines A to B (1-based; A: or :B leave an end open).")
@click.option("--grep", metavar="PATTERN", help="Only the lines matching PATTERN, with their line numbers.")
@click.option("--shown", is_flag=True, help="What the agent was shown for that run, instead of the full output.")
@format_option
def cat(artifact_id: str, lines: str | None, grep: str | None, shown: bool, output_format: str) -> None:
    """Print the full output stored as ID (the trailer of a cut output names it; tokenjuice ls lists them)
    exactly as it was kept; --shown prints what the agent was shown instead; --format json prints what it
    came from. Each read is recorded in the ledger (tokenjuice stats shows how often each rule's cuts are
    read back)."""
    from .commands import artifacts

    if lines is not None and grep is not None:
        raise UsageError("use --lines or --grep, not both")
    emit(
        artifacts.cat(artifact_id, lines=lines, grep=grep, shown=shown, as_json=output_format == "json"), output_format
    )


@cli.command(short_help="Delete old stored outputs.")
@click.option("--days", type=click.IntRange(min=0), help="Keep this many days; 0 = no age limit (default: config).")
@click.option(
    "--max-mb", type=click.IntRange(min=0), help="Keep at most this many MiB; 0 = no size limit (default: config)."
)
@format_option
def prune(days: int | None, max_mb: int | None, output_format: str) -> None:
    """Apply the retention settings to stored raw outputs now (and fold recorded runs into the ledger)."""
    from .commands import artifacts

    emit(artifacts.prune(days=days, max_mb=max_mb), output_format)


@cli.command(short_help="Let a project's .tokenjuice/ rules and settings apply.")
@click.argument("path", required=False, type=click.Path(file_okay=False))
@click.option("--list", "list_", is_flag=True, help="List trusted projects and whether they changed since.")
@click.option("--revoke", is_flag=True, help="Stop trusting the project at PATH (default: here).")
@click.option("--show", is_flag=True, help="Say what the project's layer would change, without trusting it.")
@format_option
def trust(path: str | None, list_: bool, revoke: bool, show: bool, output_format: str) -> None:
    """Trust the .tokenjuice/ layer of the project at PATH (default: here), as it is now. Until then
    its rules and settings are ignored, and any later edit of its files makes it untrusted again.
    TOKENJUICE_TRUST_ALL=1 trusts every project (CI, throwaway sandboxes)."""
    from .commands import trust as command

    if sum((list_, revoke, show)) > 1:
        raise UsageError("use one of --list, --revoke and --show")
    if list_:
        emit(command.listing(), output_format)
    if revoke:
        emit(command.revoke(path), output_format)
    if show:
        emit(command.show(path), output_format)
    emit(command.trust_here(path), output_format)


@cli.command(short_help="Where tokenjuice keeps its files.")
@format_option
def paths(output_format: str) -> None:
    """Every folder and file tokenjuice reads or writes (to back up, inspect or remove them)."""
    from .commands.paths import run

    emit(run(), output_format)


@cli.command(short_help="Print a shell completion script (bash, zsh, fish).")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
def completion(shell: str) -> None:
    """Print the completion script: eval "$(tokenjuice completion bash)" in ~/.bashrc,
    or tokenjuice completion fish > ~/.config/fish/completions/tokenjuice.fish."""
    from click.shell_completion import get_completion_class

    completer = get_completion_class(shell)
    assert completer is not None  # click ships all three
    source = completer(cli, {}, "tokenjuice", "_TOKENJUICE_COMPLETE").source()
    emit(Output(text=source if source.endswith("\n") else source + "\n"))


@cli.group(short_help="Show or change settings.")
@click.pass_context
def config(ctx: click.Context) -> None:
    """Settings live in ~/.config/tokenjuice/config.toml (TOKENJUICE_CONFIG overrides) and
    .tokenjuice/config.toml in a project; TOKENJUICE_* variables and flags override both."""
    if ctx.resilient_parsing or any(a in ("-h", "--help") for a in sys.argv[1:]):
        return
    from .commands import config as command

    click.echo(command.warnings(), nl=False, err=True, color=use_colour(sys.stderr))


@config.command("list")
@click.option("--show-origin", is_flag=True, help="Say where each value comes from (file, variable, default).")
@format_option
def config_list(show_origin: bool, output_format: str) -> None:
    """Every setting, its value and where it comes from."""
    from .commands import config as command

    emit(command.listing(show_origin=show_origin), output_format)


@config.command("get")
@click.argument("key")
@format_option
def config_get(key: str, output_format: str) -> None:
    """Print one setting's value (bare; JSON with --format json)."""
    from .commands import config as command

    emit(command.get(key), output_format)


@config.command("set")
@click.argument("key")
@click.argument("value")
@click.option("--project", is_flag=True, help="Change the project's .tokenjuice/config.toml.")
@format_option
def config_set(key: str, value: str, project: bool, output_format: str) -> None:
    """Set KEY to VALUE (true/false, a number, or a comma-separated list)."""
    from .commands import config as command

    emit(command.set_value(key, value, project=project), output_format)


@config.command("unset")
@click.argument("key")
@click.option("--project", is_flag=True, help="Change the project's .tokenjuice/config.toml.")
@format_option
def config_unset(key: str, project: bool, output_format: str) -> None:
    """Remove KEY so its default applies again."""
    from .commands import config as command

    emit(command.unset(key, project=project), output_format)


@cli.command(
    "hook", context_settings=_PASSTHROUGH, add_help_option=False, short_help="The command a host runs as its hook."
)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def hook(args: tuple[str, ...]) -> None:
    """A host's hook: reads its JSON payload on stdin, answers JSON (tokenjuice hook HOST)."""
    if args[:1] in (("-h",), ("--help",)):
        click.echo(
            "Usage: tokenjuice hook HOST [--wrap-launcher LAUNCHER]\n\n"
            "  What an agent host runs as its hook (tokenjuice install writes it): reads the\n"
            "  host's JSON payload on stdin and answers JSON on stdout, always exiting 0.\n\n"
            f"{_HOSTS_EPILOG}"
        )
        sys.exit(0)
    from .hosts.hook import main

    sys.exit(main(list(args)))


@cli.command("cursor-pre-tool-use", hidden=True, context_settings=_PASSTHROUGH, add_help_option=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def cursor_pre_tool_use(args: tuple[str, ...]) -> None:
    """The old name of `tokenjuice hook cursor` (hooks.json files written before it still run)."""
    from .hosts.hook import main

    sys.exit(main(list(args), "cursor"))


def _command_name(args: list[str]) -> str:
    words = [a for a in args if not a.startswith("-")][:2]
    if words[:1] == ["config"] and len(words) > 1:
        return " ".join(words)
    return words[0] if words else ""


def _json_mode(args: list[str], name: str) -> bool:
    return (
        name == "reduce-json"
        or "--json" in args
        or "--format=json" in args
        or any(a == "--format" and b == "json" for a, b in itertools.pairwise(args))
    )


def main(args: list[str]) -> int:
    name = _command_name(args)
    json_mode = _json_mode(args, name)
    if name in READ_ONLY or not name:
        from .files import cachefile

        cachefile.disable_writes()
    try:
        cli.main(args=args, prog_name="tokenjuice", standalone_mode=False)
    except TokenjuiceError as error:
        _report(str(error), error.kind, error.exit_code, name, json_mode)
        return error.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except click.ClickException as error:
        if json_mode:
            _report(error.format_message(), "usage", error.exit_code, name, True)
        else:
            error.show()
        return error.exit_code
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return 0


def _report(message: str, kind: str, code: int, name: str, json_mode: bool) -> None:
    if json_mode:
        click.echo(json_text({"error": {"message": message, "kind": kind, "exitCode": code}}), nl=False)
    else:
        prefix = f"tokenjuice {name}: " if name else "tokenjuice: "
        click.echo(click.style(prefix, fg="red") + message, err=True, color=use_colour(sys.stderr))
