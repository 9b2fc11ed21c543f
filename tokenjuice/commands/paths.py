"""`tokenjuice paths`: every folder and file tokenjuice reads or writes."""

from __future__ import annotations

import os

from .. import paths
from ..output import Output
from ..settings import project_config_path, resolve, user_config_path
from ..state import artifacts, ledger, spool


def run() -> Output:
    cwd = os.getcwd()
    settings = resolve(cwd)
    rows = [
        ("config", paths.config_dir(), "settings and your own rules"),
        ("user-config", user_config_path(), "your settings (TOKENJUICE_CONFIG moves it)"),
        ("project-config", project_config_path(cwd) or "", "this project's settings, if any"),
        *[
            (f"user-rules{'' if i == 0 else '-' + str(i + 1)}", d, "your own rules")
            for i, d in enumerate(paths.user_rule_dirs())
        ],
        ("cache", paths.cache_dir(), "rebuildable caches (safe to delete)"),
        ("data", paths.data_dir(), "everything tokenjuice records (TOKENJUICE_HOME moves it)"),
        ("ledger", ledger.db_path(), "the savings ledger (tokenjuice stats)"),
        ("spool", spool.spool_path(), "runs not yet folded into the ledger"),
        ("artifacts", artifacts.Store.from_settings(settings).directory, "stored full outputs (tokenjuice cat)"),
    ]
    width = max(len(name) for name, _, _ in rows)
    text = "".join(
        f"{name:<{width}}  {path or '-'}{'' if not path or os.path.exists(path) else '  (not created)'}\n"
        for name, path, _ in rows
    )
    data = {
        name: {"path": path or None, "exists": bool(path) and os.path.exists(path), "what": what}
        for name, path, what in rows
    }
    return Output(text=text, data=data)
