"""`tokenjuice trust [PATH]`, `--list`, `--revoke`, `--show`: the project layers in force."""

from __future__ import annotations

import os
import time

from .. import paths, trust
from ..errors import UsageError
from .output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _layer(path: str | None) -> trust.Layer:
    start = os.path.abspath(path or os.getcwd())
    layer = trust.layer_for(start, env={})
    if layer is None:
        raise UsageError(f"no .tokenjuice/ folder in {start} or above it (up to the git root); nothing to trust")
    return layer


def trust_here(path: str | None) -> Output:
    layer = _layer(path)
    was = layer.status
    changes = layer.changed
    record = trust.trust(layer.project)
    files = sorted(record["files"])
    lines = [f"trusted {layer.project}: {len(files)} files of its .tokenjuice/ now shape tokenjuice here"]
    if was == "changed":
        lines.append("changed since you last trusted it: " + ", ".join(changes))
    lines += [f"  {name}" for name in files]
    lines.append("any later edit of these files makes the layer untrusted again (tokenjuice trust --show)")
    return Output(
        text="\n".join(lines) + "\n",
        data={"project": layer.project, "files": files, "previously": was, "changes": list(changes)},
    )


def listing() -> Output:
    rows: list[dict[str, object]] = []
    for project, record in sorted(trust.trusted_projects().items()):
        layer = trust.layer_for(project, env={}) if os.path.isdir(project) else None
        status = "missing" if layer is None else layer.status
        rows.append(
            {
                "project": project,
                "status": status,
                "trustedAt": record.get("trusted_at"),
                "changes": list(layer.changed) if layer else [],
            }
        )
    if not rows:
        return Output(
            text="no trusted projects; tokenjuice trust in a project with a .tokenjuice/ folder adds one\n", data=rows
        )
    text = "".join(f"{row['status']:<9}  {_day(row['trustedAt'])}  {row['project']}\n" for row in rows)
    return Output(text=text, data=rows)


def _day(stamp: object) -> str:
    """The day a project was trusted, or '-' for a record written by hand without a time."""
    if not isinstance(stamp, int | float):
        return "-"
    return time.strftime("%Y-%m-%d", time.localtime(stamp))


def revoke(path: str | None) -> Output:
    project = os.path.abspath(path or os.getcwd())
    found = paths.find_project_layer(project) or project
    if not trust.revoke(found):
        raise UsageError(f"{found} is not trusted; tokenjuice trust --list shows the trusted projects")
    return Output(
        text=f"no longer trusted: {found} (its .tokenjuice/ layer is ignored from now on)\n",
        data={"project": found, "revoked": True},
    )


def show(path: str | None) -> Output:
    """What the layer would change if it were trusted: rules added and overridden,
    settings changed, and the settings it may not change."""
    from ..rules import loader
    from ..settings import BY_KEY, parse_file, project_refusal, resolve

    layer = _layer(path)
    rules, problems = loader.load_layer(loader.PROJECT, os.path.join(layer.directory, "rules"))
    known = {r.rule.id: r.layer for r in loader.load_catalogue(loader.layer_roots(layer.project, untrusted=False))[0]}
    added = sorted(r.rule.id for r in rules if r.rule.id not in known)
    overridden = sorted(f"{r.rule.id} (over the {known[r.rule.id]} rule)" for r in rules if r.rule.id in known)
    config = os.path.join(layer.directory, "config.toml")
    values, warnings = parse_file(config) if os.path.isfile(config) else ({}, [])
    base = resolve(layer.project, env={}, project_layer=False)  # what the user's own layers give
    changed: list[str] = []
    refused: list[str] = []
    for key, value in values.items():
        refusal = project_refusal(BY_KEY[key], value, base[key])
        (refused if refusal else changed).append(f"{key} = {value!r}" + (f" ({refusal})" if refusal else ""))
    data: dict[str, Any] = {
        "project": layer.project,
        "status": layer.status,
        "changes": list(layer.changed),
        "rulesAdded": added,
        "rulesOverridden": overridden,
        "settings": changed,
        "refusedSettings": refused,
        "problems": [str(p) for p in problems] + warnings,
    }
    lines = [f"{layer.project}: {layer.status}" + (f" ({', '.join(layer.changed)})" if layer.changed else "")]
    for title, items in (
        ("rules added", added),
        ("rules overridden", overridden),
        ("settings changed", changed),
        ("settings a project may not change (ignored)", refused),
        ("problems", data["problems"]),
    ):
        if items:
            lines.append(f"{title}:")
            lines += [f"  {item}" for item in items]
    if layer.status != "trusted":
        lines.append("tokenjuice trust applies it")
    return Output(text="\n".join(lines) + "\n", data=data)
