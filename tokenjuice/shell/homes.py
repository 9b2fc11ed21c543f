"""Where the agent's shell may find programs that the hook's own PATH lacks: asked only
when a command's name is neither a builtin nor on that PATH (a function or alias of the
agent's shell, or a program a profile or version manager adds), so a hook call for a
command found on PATH does not load it (rewrite.py's `_not_a_program`)."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


#: Where programs live that a login profile, an activation or a version manager puts
#: on the PATH of the agent's shell — which the host's own environment, and so the
#: hook's, may lack (a session that ran `source .venv/bin/activate` or `nvm use`).
_HOME_BINS = (".local/bin", ".cargo/bin", "go/bin", ".bun/bin", ".deno/bin", ".volta/bin", ".pyenv/shims")
_MORE_BINS = (".rbenv/shims", ".nodenv/shims", ".asdf/shims", ".local/share/mise/shims", "miniconda3/bin")
_SYSTEM_BINS = ("/usr/local/bin", "/opt/homebrew/bin", "/snap/bin", "/opt/conda/bin")


def program_homes(env: Mapping[str, str], where: str) -> list[str]:
    """The folders `_HOME_BINS` and friends name, the project's `.venv/bin`,
    `venv/bin` and `node_modules/.bin`, $VIRTUAL_ENV's, and nvm's node versions."""
    home = env.get("HOME") or os.path.expanduser("~")
    found = [os.path.join(where, ".venv", "bin"), os.path.join(where, "venv", "bin")]
    found.append(os.path.join(where, "node_modules", ".bin"))
    if env.get("VIRTUAL_ENV"):
        found.append(os.path.join(env["VIRTUAL_ENV"], "bin"))
    found += [os.path.join(home, folder) for folder in (*_HOME_BINS, *_MORE_BINS)]
    found += _SYSTEM_BINS
    versions = os.path.join(env.get("NVM_DIR") or os.path.join(home, ".nvm"), "versions", "node")
    try:
        found += [os.path.join(versions, version, "bin") for version in sorted(os.listdir(versions))[:16]]
    except OSError:
        pass
    return found
