"""`tokenjuice example -- <command>`: capture a real run as a rule example.

Rule examples must be real output, never typed by hand. This runs the command
exactly as `wrap` would, and prints (or appends to a rule file) an `[[examples]]`
table with the command, exit code and output, plus what the rule currently keeps,
so the author only has to choose `keep` and `drop`. Appending to a rule file that
does not exist yet writes a whole rule around the example (family, a match on
the command's name), so `tokenjuice verify` accepts the file as it is.
"""

from __future__ import annotations

import os
import platform

from .. import capture
from ..errors import UsageError
from ..shell.syntax import join
from .output import Output


def run(command: list[str], *, name: str | None, source: str | None, append: str | None) -> Output:
    """The TOML table on stdout, a preview of the current reduction in the notes."""
    import tomli_w

    from ..model import Execution
    from ..reduce.engine import Options, reduce
    from ..reduce.render import text_of
    from ..rules import index
    from ..shell.argv import basename
    from ..shell.command import analyze

    if not command:
        raise UsageError("give the command to capture after --, e.g. tokenjuice example -- git status")
    result = capture.run(command, merged=True)
    if result.spawn_error:
        raise UsageError(
            f"{result.spawn_error.removeprefix('tokenjuice: ')}; to record a shell's own error, "
            f"capture it through the shell: tokenjuice example -- bash -c {join(command)!r}"
        )
    output = capture.decode(result.combined())
    command_text = _display_command(command)
    # Examples are committed (discover says so): secrets in the output or the command never are.
    from ..settings import resolve

    redacted: dict[str, int] = {}
    if resolve(os.getcwd())["redaction.enabled"]:
        from ..state.redact import redact

        output, found = redact(output)
        command_text, found_in_command = redact(command_text)
        name = redact(name)[0] if name else name
        for kind, count in (*found.items(), *found_in_command.items()):
            redacted[kind] = redacted.get(kind, 0) + count
    table = {
        "name": name or command_text,
        "command": command_text,
        "exit_code": result.exit_code,
        # the documented form (docs/rules.md): captured: <tool> on <OS>
        "source": source or f"captured: {os.path.basename(command[0])} on {platform.system()} {platform.release()}",
        "output": output,
        "keep": [],
        "drop": [],
    }
    snippet = tomli_w.dumps({"examples": [table]}, multiline_strings=True)
    reduction = reduce(
        Execution(command=command_text, combined=output, exit_code=result.exit_code), index.load(os.getcwd()), Options()
    )
    preview = "\n".join("  | " + line for line in text_of(reduction).splitlines())
    note = (
        f"currently classified as {reduction.classification.rule.id}, ratio "
        f"{_ratio(reduction.raw_chars, len(text_of(reduction))):.2f}; the reduction reads:\n{preview}\n"
    )
    if redacted:
        kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(redacted.items()))
        note += f"secrets redacted in the example ({kinds}): check it holds none before you commit it\n"
    if not append:
        return Output(text=snippet, data=table, notes=note)
    info = analyze(command_text)
    program = basename(info.normalized_argv[0]) if info.normalized_argv else basename(command[0])
    new_file = not os.path.exists(append)
    header = (
        ""
        if not new_file
        else tomli_w.dumps(
            {
                "family": "custom",
                "description": f"{program}: what this rule keeps (edit me).",
                "match": {"argv0": [program]},
            }
        )
    )
    try:
        from .. import paths

        paths.make_parents(append)  # writable by no one else, whatever the umask
        fd = os.open(append, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        with os.fdopen(fd, "a", encoding="utf-8") as handle:
            handle.write(header + "\n" + snippet)
    except OSError as error:
        raise UsageError(f"cannot append to {append}: {error.strerror}") from None
    created = f"created {append} (a rule matching {program}) with" if new_file else f"appended to {append}"
    return Output(
        data={"path": append, "created": new_file, "example": table},
        notes=f"{created} an example; now fill in keep and drop (tokenjuice verify checks it)\n{note}",
    )


def _ratio(raw: int, shown: int) -> float:
    return shown / raw if raw else 1.0


def _display_command(command: list[str]) -> str:
    """`bash -lc 'x'` is recorded as `x`: examples describe what the agent ran."""
    from ..shell.argv import unwrap_shell

    body = unwrap_shell(command)
    return body[0] if body else join(command)
