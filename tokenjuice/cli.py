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


@cli.command(short_help="Compact saved output (file or stdin).")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--command", metavar="CMD", help="The command that produced the output (for classification).")
@click.option("--exit-code", type=int, default=0, show_default=True, help="The command's exit code.")
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
@click.argument("file", required=False, type=click.Path(dir_okay=False))
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
@_FORMAT
def verify(fixtures, only, show, output_format) -> None:
    """Validate every rule layer (and run the examples with --fixtures)."""
    from .commands.verify import run

    out, err, code = run(fixtures=fixtures, output_format=output_format, only=only, show=show)
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
