"""`tokenjuice example -- <command>`: capture a real run as a rule example.

Rule examples must be real output, never typed by hand. This runs the command
exactly as `wrap` would, and prints (or appends to a rule file) an `[[examples]]`
table with the command, exit code and output, plus what the rule currently keeps,
so the author only has to choose `keep` and `drop`.
"""

from __future__ import annotations

import os
import platform

from .. import capture
from ..errors import UsageError
from ..reduce.engine import Options, reduce_execution
from ..rules import index
from ..shellsyntax import join


def run(command: list[str], *, name: str | None, source: str | None, append: str | None) -> tuple[str, str]:
    """Returns (TOML for stdout, a preview of the current reduction for stderr)."""
    import tomli_w

    if not command:
        raise UsageError("give the command to capture after --, e.g. tokenjuice example -- git status")
    result = capture.run(command, merged=True)
    if result.spawn_error:
        raise UsageError(f"{result.spawn_error.removeprefix('tokenjuice: ')}; to record a shell's own error, "
                         f"capture it through the shell: tokenjuice example -- bash -c {join(command)!r}")
    output = capture.decode(result.combined())
    command_text = _display_command(command)
    table = {
        "name": name or command_text,
        "command": command_text,
        "exit_code": result.exit_code,
        "source": source or f"captured with tokenjuice example on {platform.system()} {platform.release()}",
        "output": output,
        "keep": [],
        "drop": [],
    }
    snippet = tomli_w.dumps({"examples": [table]}, multiline_strings=True)
    catalogue = index.load(os.getcwd())
    reduced = reduce_execution({"toolName": "exec", "command": command_text, "combinedText": output,
                                "exitCode": result.exit_code}, catalogue, Options())
    preview = "\n".join("  | " + line for line in reduced["inlineText"].splitlines())
    note = (f"currently classified as {reduced['classification']['matchedReducer']}, "
            f"ratio {reduced['stats']['ratio']:.2f}; the reduction reads:\n{preview}\n")
    if append:
        try:
            with open(append, "a", encoding="utf-8") as handle:
                handle.write("\n" + snippet)
        except OSError as error:
            raise UsageError(f"cannot append to {append}: {error.strerror}") from None
        return "", f"appended an example to {append}; now fill in keep and drop\n{note}"
    return snippet, note


def _display_command(command: list[str]) -> str:
    """`bash -lc 'x'` is recorded as `x`: examples describe what the agent ran."""
    from ..command import unwrap_shell

    body = unwrap_shell(command)
    return body[0] if body else join(command)
