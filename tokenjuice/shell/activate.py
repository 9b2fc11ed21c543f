"""A virtualenv's `bin/activate` sourced before a command (`source .venv/bin/activate &&
pytest`): whether the script on disk does only what a wrapped child inherits, so that the
step may run outside the wrap. Read only where a line sources a file, so a hook call for
any other line does not load it (rewrite.py)."""

from __future__ import annotations

import os

from ..fast.lazyre import lazy
from .argv import basename

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence


#: The functions a virtualenv's `bin/activate` defines (venv, virtualenv, uv): a
#: wrapped child shell lacks them, so a line that calls one stays whole.
ACTIVATE_FUNCTIONS = frozenset({"deactivate", "pydoc"})
#: First words of a line a virtualenv's activate script never has: it would change
#: what the rest of the line means in the agent's shell (`set -o pipefail`, `shopt`,
#: a trap, another file sourced, an alias defined, code built at run time).
_NOT_IN_ACTIVATE = frozenset({"set", "shopt", "setopt", "trap", "source", ".", "eval", "builtin", "enable", "exec"})
_ACTIVATE_LIMIT = 64 * 1024
#: A line that defines a shell function: `name () {`, `function name {`.
_DEFINES = lazy(r"[ \t]*+(?:function[ \t]++([A-Za-z_][\w:.-]*+)|([A-Za-z_][\w:.-]*+)[ \t]*+\([ \t]*+\))")


def activates_a_virtualenv(words: Sequence[str], here: str | None) -> bool:
    """Is `words` `source DIR/bin/activate` (or `. …`) of a virtualenv's activate
    script as it stands on disk: it exports VIRTUAL_ENV and PATH, which a wrapped
    child inherits, defines only `deactivate` (and `pydoc`), and sets no shell option,
    trap or alias? Any other sourced file may change what the rest of the line means
    (a sourced `set -o pipefail`), so it keeps the line whole."""
    if len(words) != 2 or basename(words[1]) != "activate" or basename(os.path.dirname(words[1])) != "bin":
        return False
    path = words[1]
    if any(char in path for char in "$`*?[~{"):
        return False
    if not os.path.isabs(path):
        if here is None:
            return False
        path = os.path.join(here, path)
    import stat

    try:  # never blocks: a FIFO or device named activate is not a script
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return False
        data = os.read(descriptor, _ACTIVATE_LIMIT + 1)
    except OSError:
        return False
    finally:
        os.close(descriptor)
    if len(data) > _ACTIVATE_LIMIT:
        return False
    text = data.decode("utf-8", "replace")
    if "VIRTUAL_ENV=" not in text or "deactivate" not in text:
        return False
    for line in text.splitlines():
        words_of_line = line.split()
        if not words_of_line or words_of_line[0].startswith("#"):
            continue
        first = words_of_line[0]
        if first in _NOT_IN_ACTIVATE or (first == "alias" and "=" in line):
            return False
        definition = _DEFINES.match(line)
        if definition is None:
            continue
        defined = definition.group(1) or definition.group(2)
        if defined not in ACTIVATE_FUNCTIONS:
            return False
    return True
