"""The `gh` formatter: GitHub CLI / API JSON as one line per record.

`gh pr list --json …`, `gh api repos/o/r/issues` and friends print JSON whose
records are mostly URLs and ids an agent never needs. A list becomes one line
per record of `key: value` parts — the identifying and status fields, then a few
other short fields, names for nested people and labels; a single object lists
its fields one per line (so head/tail cuts are marked like any other lines);
long text fields (bodies) get their first lines. Every key and value is copied
from the input, never computed, so `verify` can check that nothing was invented.
Status-check rollups are counted and only checks that are not passing are listed.
"""

from __future__ import annotations

import json

from ..text import clip_line
from .lines import Item, Omission

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LEADING_KEYS = (
    "number",
    "title",
    "name",
    "displayTitle",
    "workflowName",
    "full_name",
    "state",
    "status",
    "conclusion",
    "isDraft",
    "merged",
    "draft",
    "headRefName",
    "baseRefName",
    "headBranch",
    "event",
    "author",
    "user",
    "login",
    "reviewDecision",
    "mergeable",
    "labels",
    "createdAt",
    "created_at",
    "updatedAt",
    "updated_at",
    "completedAt",
    "url",
    "html_url",
)
#: Keys that are noise in almost every GitHub payload.
NOISE_KEYS = frozenset(
    {
        "node_id",
        "id",
        "databaseId",
        "gravatar_id",
        "avatar_url",
        "_links",
        "reactions",
        "performed_via_github_app",
        "timeline_url",
        "repository_url",
        "labels_url",
        "comments_url",
        "events_url",
        "followers_url",
        "following_url",
        "gists_url",
        "starred_url",
        "subscriptions_url",
        "organizations_url",
        "repos_url",
        "received_events_url",
        "site_admin",
        "type",
        "user_view_type",
        "author_association",
        "active_lock_reason",
        "locked",
        "color",
        "default",
        "description",
        "closed_by",
        "sub_issues_summary",
        "issue_dependencies_summary",
        "state_reason",
    }
)
#: Lists of objects shown inline as their names; any other list of objects is a
#: collection shown as records under its key.
NAME_LISTS = frozenset(
    {"labels", "assignees", "reviewRequests", "requested_reviewers", "topics", "projectCards", "milestones"}
)
SHORT_VALUE = 120
TEXT_LINES = 8
#: Fields beyond the leading ones that a record line may carry.
EXTRA_FIELDS = 4
RECORDS_PER_COLLECTION = 20
_FAILING = frozenset(
    {
        "FAILURE",
        "CANCELLED",
        "TIMED_OUT",
        "ACTION_REQUIRED",
        "STARTUP_FAILURE",
        "ERROR",
        "failure",
        "cancelled",
        "timed_out",
        "action_required",
        "error",
    }
)
_PASSING = frozenset({"SUCCESS", "SKIPPED", "NEUTRAL", "success", "skipped", "neutral"})


NOTE = "JSON shown as records with selected fields"


def gh(lines: list[str]) -> tuple[list[Item], dict[str, int], str | None]:
    data = _parse(lines)
    if data is None:
        return list(lines), {}, None
    items: list[Item] = []
    facts: dict[str, int] = {}
    if isinstance(data, list):
        _collection(items, facts, data, indent="")
    else:
        _object(items, facts, data)
    return (items, facts, NOTE) if items else (list(lines), {}, None)


def _parse(lines: list[str]) -> Any:
    """One JSON document, or a stream of them (`gh api --paginate` prints `[…][…]`,
    `--jq` and JSON lines print one value per line): arrays are joined, objects
    become a list of records. None when the text is not JSON."""
    text = "\n".join(lines).strip()
    if not text.startswith(("{", "[")):
        return None
    decoder = json.JSONDecoder()
    values = []
    position = 0
    try:
        while position < len(text):
            value, position = decoder.raw_decode(text, position)
            values.append(value)
            while position < len(text) and text[position].isspace():
                position += 1
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
        return None
    if len(values) == 1:
        return values[0]
    if all(isinstance(v, list) for v in values):
        return [item for v in values for item in v]
    if all(isinstance(v, dict) for v in values):
        return values
    return None


def _object(items: list[Item], facts: dict[str, int], obj: dict[str, Any]) -> None:
    items += [f"{key}: {value}" for key, value in _fields(obj, extra=len(obj))]
    for key, member in obj.items():
        value = member["nodes"] if isinstance(member, dict) and isinstance(member.get("nodes"), list) else member
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value) and key not in NAME_LISTS:
            items.append(f"{key}:")
            if key == "statusCheckRollup":
                _checks(items, facts, value)
            else:
                _collection(items, facts, value, indent="  ")
        elif isinstance(value, str) and _is_long(value) and key not in NOISE_KEYS:
            _text(items, key, value, indent="")


def _collection(items: list[Item], facts: dict[str, int], records: list[Any], indent: str) -> None:
    shown = records[:RECORDS_PER_COLLECTION]
    for record in shown:
        if isinstance(record, dict):
            line = _record(record)
            items.append(indent + line if line else indent + clip_line(json.dumps(record), SHORT_VALUE))
            for key, value in record.items():
                if isinstance(value, str) and _is_long(value) and key in ("body", "bodyText", "message"):
                    _text(items, key, value, indent=indent + "  ")
        else:
            items.append(indent + json.dumps(record, ensure_ascii=False))
    hidden = len(records) - len(shown)
    if hidden:
        items.append(Omission(hidden, f"{hidden} more records"))


def _checks(items: list[Item], facts: dict[str, int], checks: list[Any]) -> None:
    """Count every check; list only the ones that are not passing."""
    failing = pending = 0
    passing: list[dict[str, Any]] = []
    for check in checks:
        outcome = check.get("conclusion") or check.get("state") or ""
        if outcome in _FAILING:
            failing += 1
        elif outcome in _PASSING:
            passing.append(check)
            continue
        else:
            pending += 1
        items.append("  " + _record(check))
    facts.update({"check": len(checks), "failing check": failing, "pending check": pending})
    if passing:
        items.append(Omission(len(passing), f"{len(passing)} passing checks"))


def _record(obj: dict[str, Any]) -> str:
    return " | ".join(f"{key}: {value}" for key, value in _fields(obj, extra=EXTRA_FIELDS))


def _fields(obj: dict[str, Any], extra: int) -> list[tuple[str, str]]:
    """(key, short value) pairs: the leading keys present, then up to `extra` others."""
    leading = [k for k in LEADING_KEYS if k in obj]
    others = [k for k in obj if k not in LEADING_KEYS]
    fields = []
    for key in leading + others:
        if key in NOISE_KEYS or _is_api_url(obj[key]):
            continue
        value = _short(obj[key], names=key in NAME_LISTS)
        if value is None:
            continue
        if key not in LEADING_KEYS:
            if extra <= 0:
                break
            extra -= 1
        fields.append((key, value))
    return fields


def _is_api_url(value: object) -> bool:
    return (
        isinstance(value, str)
        and value.startswith("https://")
        and ("//api.github.com/" in value or "/api/v3/" in value or "//uploads.github.com/" in value)
    )


def _short(value: object, names: bool = False) -> str | None:
    """A one-line form of `value` made only of text found in it, or None to leave it out;
    a list of objects only when `names` (labels, assignees) asks for their names."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value) if isinstance(value, bool) else None
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        return None if _is_long(value) or not value else value
    if isinstance(value, dict):
        for key in ("login", "name", "title"):
            found = value.get(key)
            if isinstance(found, str):
                return found
        return None
    if names and isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        found = [v.get("name") or v.get("login") for v in value]
        if all(isinstance(n, str) for n in found):
            return ", ".join(found[:8])
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return ", ".join(value[:8])
    return None


def _is_long(value: str) -> bool:
    return len(value) > SHORT_VALUE or "\n" in value


def _text(items: list[Item], key: str, value: str, indent: str) -> None:
    lines = [line.rstrip() for line in value.replace("\r\n", "\n").split("\n")]
    lines = [line for line in lines if line.strip()]
    if not lines:
        return
    items.append(f"{indent}{key}:")
    for line in lines[:TEXT_LINES]:
        items.append(indent + "  " + clip_line(line.strip(), 200))
    if len(lines) > TEXT_LINES:
        items.append(Omission(len(lines) - TEXT_LINES, f"{len(lines) - TEXT_LINES} more lines of {key}"))
