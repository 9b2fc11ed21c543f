"""The `tokenjuice` executable: send hot commands past click.

`wrap` and the Cursor hook run before every shell command an agent issues; they
are dispatched here without importing click (~60 ms) or anything else they do
not use. Every other command goes through the click CLI in `cli.py`.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else ""
    if command == "wrap":
        from .commands.wrap import main as wrap_main

        return wrap_main(args[1:])
    if command == "hook" and len(args) > 1 and not args[1].startswith("-"):
        from .hosts.hook import main as hook_main

        return hook_main(args[1:])
    if command == "cursor-pre-tool-use":
        from .hosts.hook import main as hook_main

        return hook_main(args[1:], "cursor")
    from .cli import main as cli_main

    return cli_main(args)
