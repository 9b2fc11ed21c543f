"""The `tokenjuice` command line: a thin click layer over `tokenjuice.commands`.

`wrap` (and the Cursor hook) normally never get here: `entry.py` dispatches them
before click is imported. They are declared here too so `--help` lists them and
`python -m tokenjuice wrap …` behaves the same.
"""

from __future__ import annotations

import sys

import click

from . import __version__
from .errors import UsageError

_PASSTHROUGH = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="tokenjuice", message="%(version)s")
def cli() -> None:
    """Compact noisy shell output before it reaches an AI coding agent."""


@cli.command(context_settings=_PASSTHROUGH, add_help_option=False, short_help="Run a command, print compacted output.")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def wrap(args: tuple[str, ...]) -> None:
    """Run a command and print its output compacted (tokenjuice wrap -- git status)."""
    from .commands.wrap import main

    sys.exit(main(list(args)))


_FORMAT = click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
                       show_default=True, help="Output format.")
_CLASSIFIER = click.option("--classifier", metavar="RULE_ID", help="Use this rule instead of classifying.")
_MAX_INLINE = click.option("--max-inline-chars", type=click.IntRange(min=1), metavar="N",
                           help="Size budget for the compacted text.")
_TRACE = click.option("--trace", is_flag=True, help="Include the classification trace (JSON).")
_RAW = click.option("--raw", "--full", "raw", is_flag=True, help="Return the input unchanged.")
_LOG_FILE = click.argument("file", required=False, type=click.Path(dir_okay=False))
_EXIT_CODE = click.option("--exit-code", type=int, default=0, show_default=True, help="The command's exit code.")


@cli.command(short_help="Compact saved output (file or stdin).")
@_LOG_FILE
@click.option("--command", metavar="CMD", help="The command that produced the output (for classification).")
@_EXIT_CODE
@_FORMAT
@_RAW
@_CLASSIFIER
@_MAX_INLINE
@_TRACE
def reduce(file, command, exit_code, output_format, raw, classifier, max_inline_chars, trace) -> None:
    """Compact saved output from FILE or stdin."""
    from .commands.reduce import reduce_text

    click.echo(reduce_text(file, command=command, exit_code=exit_code, output_format=output_format,
                           raw=raw, classifier=classifier, max_inline_chars=max_inline_chars,
                           trace=trace), nl=False)


@cli.command("reduce-json", short_help="Reduce a JSON tool-execution payload.")
@_LOG_FILE
@_RAW
@_CLASSIFIER
@_MAX_INLINE
@_TRACE
def reduce_json(file, raw, classifier, max_inline_chars, trace) -> None:
    """Reduce a JSON tool-execution payload; always answers JSON."""
    from .commands.reduce import reduce_json as run
    from .output import json_text

    try:
        result = run(file, classifier=classifier, raw=raw, trace=trace, max_inline_chars=max_inline_chars)
    except UsageError as error:
        click.echo(json_text({"error": {"message": str(error)}}), nl=False)
        sys.exit(error.exit_code)
    click.echo(json_text(result), nl=False)


@cli.command(short_help="Check rule files and their examples.")
@click.option("--fixtures", is_flag=True, help="Also run every rule's examples.")
@click.option("--only", metavar="ID_PREFIX", help="Run only the examples of rules whose id starts with this.")
@click.option("--show", is_flag=True, help="Print each example's reduced output (implies --fixtures).")
@click.option("--coverage", is_flag=True, help="Per category: rules, examples, median ratio, worst rule.")
@click.option("--reducers-doc", type=click.Path(dir_okay=False), metavar="PATH",
              help="Write the table of every built-in rule (docs/reducers.md).")
@_FORMAT
def verify(fixtures, only, show, coverage, reducers_doc, output_format) -> None:
    """Validate every rule layer (and run the examples with --fixtures)."""
    from .commands.verify import run

    out, err, code = run(fixtures=fixtures, output_format=output_format, only=only, show=show,
                         coverage=coverage, reducers_doc=reducers_doc)
    if err:
        click.echo(err, nl=False, err=True)
    click.echo(out, nl=False)
    sys.exit(code)


@cli.command(context_settings={"ignore_unknown_options": True}, short_help="Capture real output as a rule example.")
@click.option("--name", help="A short name for the example.")
@click.option("--source", help="Where the output comes from (default: this machine).")
@click.option("--append", type=click.Path(dir_okay=False), metavar="RULE_FILE",
              help="Append the example to this rule file instead of printing it.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def example(name, source, append, command) -> None:
    """Run a command and print its real output as a rule [[examples]] entry."""
    from .commands.example import run

    snippet, note = run(list(command), name=name, source=source, append=append)
    click.echo(note, nl=False, err=True)
    click.echo(snippet, nl=False)


_HOST = click.argument("host", type=click.Choice(["cursor"]))
_PROJECT = click.option("--project", is_flag=True, help="Use .cursor/hooks.json at the git root, not ~/.cursor.")
_LOCAL = click.option("--local", is_flag=True, help="Use this interpreter and checkout (python -m tokenjuice).")
_DRY_RUN = click.option("--dry-run", is_flag=True, help="Print the change as a diff; write nothing.")


@cli.command(short_help="Install the hook for an agent (cursor).")
@_HOST
@_PROJECT
@_LOCAL
@_DRY_RUN
@_FORMAT
def install(host, project, local, dry_run, output_format) -> None:
    """Add tokenjuice's preToolUse hook to Cursor's hooks.json (backup, atomic write)."""
    from .commands import cursor

    click.echo(cursor.install(project=project, local=local, dry_run=dry_run, output_format=output_format),
               nl=False)


@cli.command(short_help="Remove the hook for an agent (cursor).")
@_HOST
@_PROJECT
@_DRY_RUN
@_FORMAT
def uninstall(host, project, dry_run, output_format) -> None:
    """Remove tokenjuice's entries from Cursor's hooks.json, and nothing else."""
    from .commands import cursor

    click.echo(cursor.uninstall(project=project, dry_run=dry_run, output_format=output_format), nl=False)


@cli.command(short_help="Check tokenjuice's health (or: cursor, hooks).")
@click.argument("target", required=False, type=click.Choice(["cursor", "hooks"]))
@_PROJECT
@_LOCAL
@click.option("--deep", is_flag=True, help="Run the installed hook and a probe command for real.")
@_FORMAT
def doctor(target, project, local, deep, output_format) -> None:
    """Rules, config, ledger, stored output and hooks; or just the Cursor hook (cursor) or every
    integration (hooks). Exit 1 when something is broken."""
    from .commands import cursor, doctor as health

    if target == "cursor":
        text, code = cursor.doctor_cursor(project=project, local=local, deep=deep, output_format=output_format)
    elif target == "hooks":
        text, code = cursor.doctor_hooks(local=local, deep=deep, output_format=output_format)
    else:
        text, code = health.run(output_format=output_format)
    click.echo(text, nl=False)
    sys.exit(code)


_FORMAT_CSV = click.option("--format", "output_format", type=click.Choice(["text", "json", "csv"]), default="text",
                           show_default=True, help="Output format.")
_SINCE = click.option("--since", metavar="WHEN", help="Only runs since a duration (7d, 24h, 2w) or a date.")


@cli.command(short_help="What tokenjuice saved, by family, rule and day.")
@_SINCE
@click.option("--timezone", "zone", default="local", show_default=True, help="local, utc or an IANA name.")
@_FORMAT_CSV
def stats(since, zone, output_format) -> None:
    """Totals and savings by source, family, rule and day, from the local ledger."""
    from .commands import stats as command

    click.echo(command.run(since=since, zone_name=zone, output_format=output_format), nl=False)


@cli.command(short_help="Find commands that still pour out noise.")
@_LOG_FILE
@click.option("--source-command", metavar="CMD", help="With FILE: the command that produced it.")
@_EXIT_CODE
@_SINCE
@_FORMAT
def discover(file, source_command, exit_code, since, output_format) -> None:
    """From the ledger: commands that fall back to generic/fallback and rules that save little,
    with what to do about each. With FILE, analyse one saved log instead."""
    from .commands import discover as command

    if file:
        if not source_command:
            raise UsageError("discover FILE needs --source-command, the command that produced the log")
        click.echo(command.one_file(file, source_command=source_command, exit_code=exit_code,
                                    output_format=output_format), nl=False)
    else:
        click.echo(command.run(since=since, output_format=output_format), nl=False)


@cli.command("ls", short_help="List stored raw outputs.")
@_FORMAT
def list_artifacts(output_format) -> None:
    """Stored raw outputs (failed commands' by default), newest first."""
    from .commands import artifacts

    click.echo(artifacts.listing(output_format=output_format), nl=False)


@cli.command(short_help="Print a stored raw output.")
@click.argument("artifact_id")
def cat(artifact_id) -> None:
    """Print the raw output stored as ARTIFACT_ID (tokenjuice ls lists them)."""
    from .commands import artifacts

    data = artifacts.cat(artifact_id)
    sys.stdout.flush()
    sys.stdout.buffer.write(data)


@cli.command(short_help="Delete old stored raw outputs.")
@click.option("--days", type=click.IntRange(min=0), help="Keep this many days; 0 = no age limit (default: config).")
@click.option("--max-mb", type=click.IntRange(min=0),
              help="Keep at most this many MiB; 0 = no size limit (default: config).")
@_FORMAT
def prune(days, max_mb, output_format) -> None:
    """Apply the retention settings to stored raw outputs now."""
    from .commands import artifacts

    click.echo(artifacts.prune(days=days, max_mb=max_mb, output_format=output_format), nl=False)


@cli.group(short_help="Show or change settings.")
def config() -> None:
    """Settings live in ~/.config/tokenjuice/config.toml (TOKENJUICE_CONFIG overrides) and
    .tokenjuice/config.toml in a project."""


@config.command("list")
@_FORMAT
def config_list(output_format) -> None:
    """Every setting, its value and where it comes from."""
    from .commands import config as command

    click.echo(command.listing(output_format=output_format), nl=False)


@config.command("get")
@click.argument("key")
def config_get(key) -> None:
    """Print one setting's value (JSON)."""
    from .commands import config as command

    click.echo(command.get(key), nl=False)


@config.command("set")
@click.argument("key")
@click.argument("value")
@click.option("--project", is_flag=True, help="Change the project's .tokenjuice/config.toml.")
def config_set(key, value, project) -> None:
    """Set KEY to VALUE (true/false, a number, or a comma-separated list)."""
    from .commands import config as command

    click.echo(command.set_value(key, value, project=project), nl=False)


@config.command("unset")
@click.argument("key")
@click.option("--project", is_flag=True, help="Change the project's .tokenjuice/config.toml.")
def config_unset(key, project) -> None:
    """Remove KEY so its default applies again."""
    from .commands import config as command

    click.echo(command.unset(key, project=project), nl=False)


@cli.command("cursor-pre-tool-use", hidden=True, context_settings=_PASSTHROUGH, add_help_option=False)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def cursor_pre_tool_use(args: tuple[str, ...]) -> None:
    """Cursor's preToolUse hook (reads the payload on stdin, answers JSON)."""
    from .hosts.cursor_hook import main

    sys.exit(main(list(args)))


def main(args: list[str]) -> int:
    name = args[0] if args and not args[0].startswith("-") else ""
    try:
        cli.main(args=args, prog_name="tokenjuice", standalone_mode=False)
    except UsageError as error:
        click.echo(f"tokenjuice {name}: {error}" if name else f"tokenjuice: {error}", err=True)
        return error.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted.", err=True)
        return 1
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
    return 0
