"""Integrations with agent hosts: one adapter module per host, the hook process, post-run
compaction, install/uninstall/doctor, and (in `permissions/`) readers of each host's own
permission settings.

The words every host module shares are declared here, so that adapters, permission
readers and install/doctor import them without importing one another, and the hook pays
no extra module for them: what a host's own rules say about a command, and how healthy
an integration is. So are the places of Cursor's permission files: its adapter checks
them on every hook call (no file, no rule to read) and its permission reader reads them,
and here the hook imports neither the `permissions` package nor a module of their own."""

from __future__ import annotations

import os

#: The user's own rules about a command, as far as tokenjuice can read them.
DENY, ASK, ALLOW, NONE = "deny", "ask", "allow", "none"
#: Health of one integration.
OK, WARN, BROKEN, DISABLED = "ok", "warn", "broken", "disabled"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping


def user_config_paths(env: Mapping[str, str] | None = None) -> list[str]:
    """Where Cursor's CLI keeps the user's `cli-config.json`, most specific first."""
    env = os.environ if env is None else env
    custom = (env.get("CURSOR_CONFIG_DIR") or "").strip()
    if custom:
        return [os.path.join(os.path.expanduser(custom), "cli-config.json")]
    paths = []
    xdg = (env.get("XDG_CONFIG_HOME") or "").strip()
    if xdg and os.name != "nt":
        paths.append(os.path.join(xdg, "cursor", "cli-config.json"))
    home = (env.get("HOME") or "").strip() or os.path.expanduser("~")
    paths.append(os.path.join(home, ".cursor", "cli-config.json"))
    return paths


def project_config_paths(project_dir: str | None) -> list[str]:
    """Each `.cursor/cli.json` from the git root down to `project_dir`, shallowest first
    (only `project_dir`'s own when it is not inside a git work tree)."""
    if not project_dir:
        return []
    start = os.path.abspath(project_dir)
    chain = [start]
    current = start
    root = None
    while True:
        if os.path.exists(os.path.join(current, ".git")):
            root = current
            break
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
        chain.append(current)
    dirs = chain[: chain.index(root) + 1] if root else [start]
    return [os.path.join(d, ".cursor", "cli.json") for d in reversed(dirs)]
