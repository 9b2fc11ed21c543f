"""How a host starts the hook: the interpreter itself, not the console script.

pip's console-script template imports `re` before it calls tokenjuice (~13 ms on
a slow machine; the hook imports no `re`), and `python -m` pays for `runpy`. The
hook runs before every shell command, so a host's hook entry asks the venv's
interpreter to call the entry point directly: 38 → 27 ms per call on the
reference machine. The rewritten command the agent sees keeps the plain
`tokenjuice` launcher.
"""

from __future__ import annotations

import os

from ..shellsyntax import join, split_words

ENTRY = "import sys;from tokenjuice.entry import main;sys.exit(main())"
_TEMPLATE_MARK = b"from tokenjuice.entry import main"


def direct(launch: str) -> str | None:
    """`<python> -P -c <entry>` for the launcher `launch` (shell-quoted), when its
    interpreter is known and as stable as the launcher itself; otherwise None."""
    argv = direct_argv(launch)
    return join(argv) if argv else None


def direct_argv(launch: str) -> list[str] | None:
    words = split_words(launch)
    if len(words) == 3 and words[1:] == ["-m", "tokenjuice"]:
        interpreter: str | None = words[0]
    elif len(words) == 1:
        interpreter = venv_interpreter(words[0])
    else:
        return None
    # -P: the hook's working directory (a user's project) must not shadow the package.
    return [interpreter, "-P", "-c", ENTRY] if interpreter else None


def venv_interpreter(script: str) -> str | None:
    """The interpreter named by a tokenjuice console script's shebang, if it lives
    beside the script (a venv: pipx, uv tool, install.sh), so both move together."""
    try:
        with open(script, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    first, _, rest = head.partition(b"\n")
    if not first.startswith(b"#!") or _TEMPLATE_MARK not in rest:
        return None
    try:
        interpreter = first[2:].strip().decode("utf-8")
    except UnicodeDecodeError:
        return None
    if (
        not os.path.isabs(interpreter)
        or any(c.isspace() for c in interpreter)
        or not os.path.basename(interpreter).startswith("python")
    ):
        return None  # `#!/usr/bin/env python`, `#!/bin/sh` trampolines, arguments
    if os.path.realpath(os.path.dirname(interpreter)) != os.path.dirname(os.path.realpath(script)):
        return None
    return interpreter if os.access(interpreter, os.X_OK) else None
