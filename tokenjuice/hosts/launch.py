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


#: Interpreter flags a console script's shebang may carry that the direct form keeps
#: (pipx writes `#!…/python -E`: ignore PYTHON* variables).
_KEPT_FLAGS = frozenset({"-E", "-s", "-I"})


def direct_argv(launch: str) -> list[str] | None:
    words = split_words(launch)
    flags: list[str] = []
    if len(words) == 3 and words[1:] == ["-m", "tokenjuice"]:
        interpreter: str | None = words[0]
    elif len(words) == 1:
        found = venv_interpreter(words[0])
        interpreter, flags = found if found else (None, [])
    else:
        return None
    # -P: the hook's working directory (a user's project) must not shadow the package.
    return [interpreter, *flags, "-P", "-c", ENTRY] if interpreter else None


def venv_interpreter(script: str) -> tuple[str, list[str]] | None:
    """The interpreter (and the flags it keeps) named by a tokenjuice console
    script's shebang, if it lives beside the script (a venv: pipx, uv tool,
    install.sh), so both move together."""
    try:
        with open(script, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    first, _, rest = head.partition(b"\n")
    if not first.startswith(b"#!") or _TEMPLATE_MARK not in rest:
        return None
    try:
        interpreter, *flags = first[2:].decode("utf-8").split()
    except (UnicodeDecodeError, ValueError):
        return None
    if (
        not os.path.isabs(interpreter)
        or not os.path.basename(interpreter).startswith("python")
        or any(flag not in _KEPT_FLAGS for flag in flags)
    ):
        return None  # `#!/usr/bin/env python`, `#!/bin/sh` trampolines, other arguments
    if os.path.realpath(os.path.dirname(interpreter)) != os.path.dirname(os.path.realpath(script)):
        return None
    return (interpreter, flags) if os.access(interpreter, os.X_OK) else None
