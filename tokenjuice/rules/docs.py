"""`python -m tokenjuice.rules.docs [DOCS_DIR]`: regenerate every part of the docs that is
derived from a declaration in code, so the docs cannot drift from it:

- `rule.schema.json` and the field reference of `rules.md`, from the rule model
  (`rules/schema.py`);
- the settings table of `state.md`, from `settings.SETTINGS`.

Tests fail when a generated part is stale, naming this command.
"""

from __future__ import annotations

import json
import sys

from ..files.atomic import write_atomically
from ..settings import ADD, ANY, LOWER, NEVER, SETTINGS, Setting
from .schema import fields_markdown, json_schema

SETTINGS_START, SETTINGS_END = "<!-- settings:start -->\n", "<!-- settings:end -->"
FIELDS_START, FIELDS_END = "<!-- fields:start -->\n", "<!-- fields:end -->"


def settings_markdown() -> str:
    """The settings table: key, default, variable, what a project may do, meaning."""
    rows = [
        "| key | default | variable | a trusted project may | meaning |",
        "|---|---|---|---|---|",
    ]
    rows += [
        f"| `{s.key}` | `{json.dumps(s.default)}` | {f'`{s.env}`' if s.env else '—'} | {_project_policy(s)} | {s.doc} |"
        for s in SETTINGS
    ]
    return "\n".join(rows) + "\n"


def _project_policy(setting: Setting) -> str:
    policy = setting.project
    if policy == ANY:
        return "set it"
    if policy == NEVER:
        return "not set it"
    if policy == LOWER:
        return "only lower it"
    if policy == ADD:
        return "only add to it (its entries join yours)"
    return f"only set it to `{json.dumps(policy)}`"


def replace_between(text: str, start: str, end: str, body: str) -> str:
    head, rest = text.split(start, 1)
    return head + start + body + end + rest.split(end, 1)[1]


def update(docs: str = "docs") -> None:
    write_atomically(f"{docs}/rule.schema.json", (json.dumps(json_schema(), indent=2) + "\n").encode())
    for name, start, end, body in (
        ("rules.md", FIELDS_START, FIELDS_END, fields_markdown()),
        ("state.md", SETTINGS_START, SETTINGS_END, settings_markdown()),
    ):
        path = f"{docs}/{name}"
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        write_atomically(path, replace_between(text, start, end, body).encode())


if __name__ == "__main__":
    update(sys.argv[1] if len(sys.argv) > 1 else "docs")
