"""Codex CLI: a `PreToolUse` hook for the `Bash` tool in `$CODEX_HOME/hooks.json`
(default `~/.codex/hooks.json`; `<git root>/.codex/hooks.json` with --project).

Codex (0.169.0, docs/hosts-research.md) sends `{"hook_event_name": "PreToolUse",
"tool_name": "Bash", "tool_input": {"command"}, "cwd", "permission_mode", …}` and
runs `hookSpecificOutput.updatedInput.command` only when the answer also says
`"permissionDecision": "allow"` — which does not approve anything: Codex checks its
exec policy, heuristics and sandbox on the rewritten command as on any other. So
a command the user's rules forbid or ask about, or that Codex's own heuristic asks
about (a forced `rm`), is left alone (`codex_rules`), and one they allow (which
Codex runs outside the sandbox) only when the rewrite is allowed too.

Codex validates answers against a schema with no room for unknown fields: the
answer is exactly `{"hookSpecificOutput": {"hookEventName", "permissionDecision",
"updatedInput"}}`, or `{}` to leave the command alone. A type error anywhere in
hooks.json makes Codex drop every hook in it, so the entry written is exactly
the documented shape (`timeout` in seconds), and doctor checks the whole file.

In post mode (the default) the same PostToolUse hook also compacts an MCP tool's
result (`--tools all`, the default: the matcher takes `mcp__<server>__<tool>` as well
as Bash): Codex hands the hook the server's whole `CallToolResult` and gives the model
exactly the `reason` of a `decision: block` answer, so the answer is the text the model
would have read, compacted. File reads, errors and results with anything but text
are left alone; Codex 0.169.0 fires no hook for any other tool of its own.

Codex skips hooks the user has not approved, without a word: install says how to
approve it; doctor reads the approval from `config.toml` (`[hooks.state."<key>"]
trusted_hash`, the hash computed as Codex does) and, with --deep, asks Codex
itself (`codex app-server`, `hooks/list`).
"""

from __future__ import annotations

import os

from . import ALLOW, BROKEN, NONE, OK, WARN
from .base import Call, JsonHooksHost, command_at, existing_dir, mcp_tool_part, reads_a_file, shell_tool_input

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .manage import Report, Result

EVENT = "PreToolUse"
POST_EVENT = "PostToolUse"
LIST_PATH = ("hooks", EVENT)
POST_LIST = ("hooks", POST_EVENT)
#: Codex matches this regex against the tool name; every shell call is named "Bash".
MATCHER = "^Bash$"
#: The PostToolUse matcher of `--tools all` (the default): Bash and every MCP tool, which
#: Codex names `mcp__<server>__<tool>`. `--tools shell`, and the pre mode, hook Bash alone.
TOOLS_MATCHER = "^(Bash|mcp__.+)$"
MATCHERS = {"all": TOOLS_MATCHER, "shell": MATCHER}
#: What each tool set compacts (doctor's tools line).
TOOLS_EFFECTS = {
    "all": "Bash; every MCP tool's text but file reads (read_file, read_text_file, …), errors and results "
    "holding images; Codex runs no hook for its other tools",
    "shell": "Bash only (tokenjuice install codex --tools all adds MCP tools)",
}
#: Seconds (Codex's unit). The hook answers in tens of milliseconds.
TIMEOUT_SECONDS = 10
#: Codex's key label for each event in `hooks.state` keys and trust hashes.
EVENT_KEY = "pre_tool_use"
EVENT_KEYS = {EVENT: EVENT_KEY, POST_EVENT: "post_tool_use"}
#: Bytes read from the end of the session's transcript to find the command's exit code.
TRANSCRIPT_TAIL = 4 * 1024 * 1024
#: Codex's marker where it cut the middle of a command's output (0.169.0).
CUT_MARKERS = ("\n... command output truncated for persistence ...\n", "chars truncated…")
HOST_CUT = "Codex had cut the middle"
#: Every event Codex 0.169 knows; a wrong type under one of them drops the whole file.
KNOWN_EVENTS = (
    "PreModelRequest",
    "PreToolUse",
    "PermissionRequest",
    "PostToolUse",
    "PreCompact",
    "PostCompact",
    "SessionStart",
    "SessionEnd",
    "UserPromptSubmit",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "Interrupt",
)
APPROVE = "run tokenjuice install codex --approve, or approve it in codex's /hooks"
TRUST_NOTE = f"Codex runs the hook only once you approve it (until then it skips it without a word): {APPROVE}"


class Codex(JsonHooksHost):
    name = "codex"
    title = "Codex CLI"
    modes = ("post", "pre")
    list_path = LIST_PATH
    more_lists = (POST_LIST,)
    mode_lists = (("post", POST_LIST), ("pre", LIST_PATH))
    mode_effects = (
        (
            "post",
            "every command's output is compacted after it ran, successful or failing, in every approval and "
            "sandbox mode, once Codex runs the hook (see trust)",
        ),
        (
            "pre",
            "commands are rewritten to run through tokenjuice wrap when your exec-policy rules would not "
            "deny or ask about them, once Codex runs the hook (see trust)",
        ),
    )
    nested = "hooks"
    project_file = (".codex", "hooks.json")
    programs = ("codex",)
    tool_sets = ("all", "shell")

    def __init__(self) -> None:
        self._rules: Any = None  # the rules `permission` read, for `answer` (one call per process)

    # -- post: compact the output of a command that ran -----------------------------------

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        if payload.get("hook_event_name") != POST_EVENT:
            return None
        return self.compacted_output(payload, env)

    def compacted_output(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The PostToolUse answer `{"decision": "block", "reason": TEXT}` (Codex then hands
        the model exactly TEXT instead of its own output), or {} to leave it as it is.

        Codex's payload carries no exit code and at most a head+tail window of ~10 k
        characters; the session transcript it names already holds the finished command
        (`exit_code`, and `aggregated_output`: a 64 KiB head+tail window). The output is
        replaced only when that exit code is found, so the model keeps seeing it.
        Decided from the tool's name first: a tool that is never compacted costs no import."""
        tool = payload.get("tool_name")
        if isinstance(tool, str) and tool.startswith("mcp__"):
            return self.compacted_tool(tool, payload, env)
        found = shell_tool_input(payload, POST_EVENT, "Bash")
        response = payload.get("tool_response")
        if found is None or not isinstance(response, str):
            return {}
        _, command = found
        executed = finished_command(payload.get("transcript_path"), payload.get("tool_use_id"))
        if executed is None:
            return {}  # no exit code to show: Codex's own output (which shows it) stays
        exit_code, aggregated = executed
        shown = aggregated if aggregated is not None else response
        cut = HOST_CUT if any(marker in shown for marker in CUT_MARKERS) else None
        from .postrun import compact_output

        text = compact_output(
            self.name, command, shown, cwd=existing_dir(payload.get("cwd")), env=env, exit_code=exit_code, host_cut=cut
        )
        return {} if text is None else {"decision": "block", "reason": text}

    def compacted_tool(self, tool: str, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """An MCP tool's PostToolUse answer: `{"decision": "block", "reason": TEXT}`, TEXT
        being what the model would have read of the result (`model_text`) compacted; {}
        for a file read, an error, a result holding anything but text, or nothing shorter."""
        if os.name == "nt" or mcp_tool_part(tool) is None or reads_a_file(tool, "__"):
            return {}
        shown = model_text(payload.get("tool_response"))
        if shown is None:
            return {}
        from .postrun import compact_tool

        text = compact_tool(self.name, tool, shown, existing_dir(payload.get("cwd")), env)
        return {"decision": "block", "reason": text} if isinstance(text, str) else {}

    # -- pre: rewrite the command before it runs -----------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        found = shell_tool_input(payload, EVENT, "Bash")
        if found is None:
            return None
        _, command = found
        cwd = existing_dir(payload.get("cwd"))
        return Call(command, cwd, None, cwd)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        from .permissions import codex_rules

        self._rules = codex_rules.load(call.project_dir, env)
        return codex_rules.decide(call.command, self._rules)

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        from .permissions import codex_rules

        rules = self._rules if self._rules is not None else codex_rules.load(call.project_dir, env)
        seen = codex_rules.decide_rewritten(rewritten, rules)
        if seen != (ALLOW if permission == ALLOW else NONE):
            return {}  # the rules would judge the wrapper differently from the command
        tool_input = payload["tool_input"]
        return {
            "hookSpecificOutput": {
                "hookEventName": EVENT,
                "permissionDecision": "allow",
                "updatedInput": {**tool_input, "command": rewritten},
            }
        }

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        return {
            "session_id": "doctor",
            "turn_id": "doctor",
            "transcript_path": None,
            "cwd": cwd,
            "hook_event_name": EVENT,
            "model": "doctor",
            "permission_mode": "default",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "tool_use_id": "doctor",
        }

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        specific = answer.get("hookSpecificOutput")
        if not isinstance(specific, dict) or specific.get("permissionDecision") != "allow":
            return None
        return command_at(specific, "updatedInput")

    # -- the config --------------------------------------------------------------------

    def user_config_path(self) -> str:
        from .permissions.codex_rules import codex_home

        return os.path.join(codex_home(os.environ), "hooks.json")

    def entry(self, command: str) -> dict[str, Any]:
        """Our matcher group, exactly as Codex's hooks.json schema wants it: after the run
        for the tool set asked for, before it for Bash alone."""
        post = (self.mode or self.modes[0]) == "post"
        matcher = MATCHERS[self.tools or self.tool_sets[0]] if post else MATCHER
        return {"matcher": matcher, "hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}]}

    def skeleton(self) -> dict[str, Any]:
        return {"hooks": {}}

    def install_notes(self, path: str) -> list[str]:
        notes = [TRUST_NOTE]
        if path != self.config_path(False):
            notes.append(
                "Codex reads a project's .codex folder only once you trust the project "
                "(it asks the first time you run codex there)"
            )
        return notes

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        from . import jsonhooks

        was_approved = not dry_run and _approved(path, self._ours)
        result = super().install(path, command, dry_run=dry_run)
        existing = jsonhooks.read(path) if not dry_run else None
        result.warnings += schema_problems(existing or {})
        result.warnings += look_alike_warnings(path, existing or {}, self._ours)
        # The user approved our entry before and install changed it (another tool set, a
        # new matcher): the approval follows it, else Codex would skip it without a word.
        follows = was_approved and not _approved(path, self._ours)
        if not dry_run and (self.approve or follows or _asked_to_approve()):
            from .codex_trust import approve

            problem = approve(path, self.written_entry(path, existing or {}, command))
            if problem is None:
                result.notes = [n for n in result.notes if n != TRUST_NOTE]
                result.notes.insert(0, "Codex will run the hook: your approval is recorded, as /hooks records it")
            else:
                # the note would say to run what was just run: the warning says what to do instead
                result.notes = [n for n in result.notes if n != TRUST_NOTE]
                result.warnings.append(problem)
                result.undone = "approval"
        return result

    def _ours(self, hook: object) -> bool:
        """Is this hook the one install writes, running this installation? (A hook
        that only looks like it — a repository's own `.codex/tokenjuice-hook codex`,
        `python3 -m tokenjuice hook codex` — is a look-alike: never approved, replaced
        or removed, and reported.)"""
        from .manage import is_this_installation

        return isinstance(hook, dict) and is_this_installation(hook.get(self.command_key), self.name)

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        from ..files.editfile import EditError
        from . import jsonhooks
        from .manage import recorded_approvals

        approvals = recorded_approvals(path)
        result = super().uninstall(path, dry_run=dry_run)
        if approvals and not dry_run and result.action != "absent":
            from .codex_trust import revoke

            result.warnings += revoke(approvals)
        try:
            data = jsonhooks.read(path) or {}
        except EditError:
            return result
        result.warnings += look_alike_warnings(path, data, self._ours)
        return result

    def written_entry(self, path: str, data: dict[str, Any], command: str) -> Written | None:
        """The entry install just wrote into `data` (the file at `path`): Codex's key for
        it, its command and the trust hash Codex computes for it; None when the file
        does not hold exactly one group that is our entry."""
        where = dict(self.mode_lists)[self.mode or self.modes[0]]
        event = where[-1]
        groups = data.get("hooks", {}).get(event) if isinstance(data.get("hooks"), dict) else None
        entry = self.entry(command)
        found = [index for index, group in enumerate(groups or []) if group == entry]
        if not isinstance(groups, list) or len(found) != 1:
            return None
        label = EVENT_KEYS[event]
        key = f"{os.path.abspath(path)}:{label}:{found[0]}:0"
        return Written(key, command, trust_hash(label, entry["matcher"], entry["hooks"][0]))

    def shape_problems(self, group: Any) -> list[str]:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        hook = hooks[0] if isinstance(hooks, list) and len(hooks) == 1 and isinstance(hooks[0], dict) else {}
        matcher = group.get("matcher")
        if matcher not in MATCHERS.values() or hook.get("type") != "command" or hook.get("timeout") != TIMEOUT_SECONDS:
            return [
                f'the entry should be {{"matcher": "{MATCHER}" (or "{TOOLS_MATCHER}" after PostToolUse), '
                '"hooks": [{"type": "command", …, "timeout": 10}]}'
            ]
        return []

    def handles_shell(self, group: Any) -> bool:
        from .manage import matcher_hooks

        return matcher_hooks(group, "Bash")

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from ..files.editfile import EditError
        from . import jsonhooks

        report = super().doctor(path, expected, install_hint, deep=deep)
        try:
            data = jsonhooks.read(path) or {}
        except EditError:
            return report  # the file check says why
        for warning in look_alike_warnings(path, data, self._ours):
            report.check("look-alike", WARN, warning)
        if report.detected is None:
            return report
        problems = schema_problems(data)
        for problem in problems:
            report.check("file", BROKEN, problem)
        if problems:
            report.fix = f"fix {path} as the issues say, then run tokenjuice doctor codex"
        trust_check(report, path, data, self._ours)
        post = jsonhooks.our_element(data, POST_LIST, self._ours, self.nested)
        if post is not None:
            jsonhooks.check_tools(report, post, {m: t for t, m in MATCHERS.items()}, TOOLS_EFFECTS)
        elif jsonhooks.our_element(data, LIST_PATH, self._ours, self.nested) is not None:
            report.check("tools", OK, "compacted: Bash only (rewritten before it runs)")
        if deep:
            from .codex_trust import deep_check

            deep_check(report, path, self._ours)
        return report


def _asked_to_approve() -> bool:
    """Ask, in a terminal, whether to approve the hook in Codex now (never otherwise)."""
    import sys

    if not (sys.stdin and sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    try:
        answer = input("Codex runs the hook only once you approve it. Approve it now? [y/N] ")
    except (EOFError, OSError):
        return False
    return answer.strip().lower() in ("y", "yes")


def schema_problems(data: dict[str, Any]) -> list[str]:
    """What Codex's hooks.json reader rejects, each of which makes it ignore every hook
    in the file (measured with codex 0.169.0: an unknown top-level key, `"hooks":
    null`, a `null` event list, an unknown hook type, a hook without `type` or
    `command`, `"timeout": "ten"`, `-1` or `1.5`, `"async": null`; unknown events,
    and unknown keys inside groups and hooks, are ignored)."""
    problems = [f'the top-level key "{key}"' for key in data if key not in ("hooks", "description")]
    if "description" in data and not isinstance(data["description"], str):
        problems.append('"description" is not a string')
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        problems.append('"hooks" is not an object')
        hooks = {}
    for event in KNOWN_EVENTS:
        if event not in hooks:
            continue
        groups = hooks[event]
        where = f"hooks.{event}"
        if not isinstance(groups, list):
            problems.append(f"{where} is not a list")
            continue
        for g_index, group in enumerate(groups):
            here = f"{where}[{g_index}]"
            if not isinstance(group, dict):
                problems.append(f"{here} is not an object")
                continue
            if group.get("matcher") is not None and not isinstance(group.get("matcher"), str):
                problems.append(f"{here}.matcher is not a string")
            handlers = group.get("hooks", [])
            if not isinstance(handlers, list):
                problems.append(f"{here}.hooks is not a list")
                continue
            for h_index, handler in enumerate(handlers):
                problems += _handler_problems(handler, f"{here}.hooks[{h_index}]")
    return [f"{p}: Codex ignores every hook in this file until it is fixed" for p in problems]


def _handler_problems(handler: object, where: str) -> list[str]:
    if not isinstance(handler, dict):
        return [f"{where} is not an object"]
    kind = handler.get("type")
    if kind not in ("command", "mcp_tool", "prompt", "agent"):
        return [f"{where}.type is not command, mcp_tool, prompt or agent"]
    if kind != "command":
        return []  # other kinds: Codex skips them with a warning, or checks fields tokenjuice does not know
    problems = []
    if not isinstance(handler.get("command"), str):
        problems.append(f"{where}.command is missing or not a string")
    for key in ("timeout", "timeoutSec"):
        value = handler.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            problems.append(f"{where}.{key} is not a whole number of seconds")
    if "async" in handler and not isinstance(handler["async"], bool):
        problems.append(f"{where}.async is not true or false")
    for key in ("statusMessage", "commandWindows"):
        if handler.get(key) is not None and not isinstance(handler.get(key), str):
            problems.append(f"{where}.{key} is not a string")
    return problems


# -- trust -----------------------------------------------------------------------------


class Written:
    """The one entry an install wrote, as Codex names it: what approval may approve."""

    __slots__ = ("command", "key", "trust_hash")

    def __init__(self, key: str, command: str, trust_hash: str) -> None:
        self.key = key  # `<file>:<event label>:<group index>:<hook index>`, Codex's hooks.state key
        self.command = command
        self.trust_hash = trust_hash  # what Codex computes for it (`trust_hash`)


def look_alikes(data: dict[str, Any], ours: Any) -> list[tuple[str, str]]:
    """(where, command) of every hook in the file, on any event, that passes for
    tokenjuice's hook (`manage.is_our_command`) but is not our entry: a command that
    does not run this installation, or ours on an event install never writes to."""
    from .manage import is_our_command

    found = []
    hooks = data.get("hooks")
    for event, groups in hooks.items() if isinstance(hooks, dict) else ():
        for g_index, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for h_index, hook in enumerate(handlers if isinstance(handlers, list) else []):
                command = hook.get("command") if isinstance(hook, dict) else None
                if not is_our_command(command, "codex") or (event in EVENT_KEYS and ours(hook)):
                    continue
                found.append((f"hooks.{event}[{g_index}].hooks[{h_index}]", str(command)))
    return found


def look_alike_warnings(path: str, data: dict[str, Any], ours: Any) -> list[str]:
    """One line for each look-alike: where it is, and that tokenjuice leaves it to the user."""
    from ..fast import fastjson

    return [
        f"{where} ({path}) runs {fastjson.dumps(command[:200])}, which looks like tokenjuice's hook but does not "
        "run this installation, so tokenjuice neither approves nor removes it: remove it unless you trust it"
        for where, command in look_alikes(data, ours)
    ]


def trust_hash(event_key: str, matcher: str | None, hook: dict[str, Any]) -> str:
    """Codex's `command_hook_hash`: sha256 of the canonical JSON (sorted keys, no
    spaces) of `{event_name, matcher, hooks: [the hook as Codex normalises it]}`,
    fields Codex leaves empty omitted. Checked against hashes codex 0.169.0 reported
    (tests/fixtures/hosts/codex/hooks-list/)."""
    import hashlib
    import json

    timeout = hook.get("timeout", hook.get("timeoutSec"))
    normal: dict[str, Any] = {
        "type": "command",
        "command": hook.get("command"),
        "timeout": max(1, timeout if isinstance(timeout, int) and not isinstance(timeout, bool) else 600),
        "async": hook.get("async") is True,
    }
    if isinstance(hook.get("statusMessage"), str):
        normal["statusMessage"] = hook["statusMessage"]
    identity: dict[str, Any] = {"event_name": event_key, "hooks": [normal]}
    if matcher is not None:
        identity["matcher"] = matcher
    text = json.dumps(identity, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def _approved(path: str, ours: Any) -> bool:
    """Does Codex's config.toml record an approval of each of our hooks in `path` as
    they are now (read offline; False when there is none, or anything is unreadable)?"""
    from ..files.editfile import EditError
    from . import jsonhooks
    from .permissions.codex_rules import codex_home

    try:
        data = jsonhooks.read(path)
    except EditError:  # an unreadable or unparsable file: install refuses it, with its own message
        return False
    keys = hook_keys(path, data if isinstance(data, dict) else {}, ours)
    if not keys:
        return False
    state, _, problem = _read_config(os.path.join(codex_home(os.environ), "config.toml"))
    if problem:
        return False
    entries = [state.get(key) for key, _ in keys]
    return all(
        isinstance(entry, dict) and entry.get("trusted_hash") == current
        for entry, (_, current) in zip(entries, keys, strict=True)
    )


def hook_keys(path: str, data: dict[str, Any], ours: Any) -> list[tuple[str, str]]:
    """(Codex's `hooks.state` key, current trust hash) for each hook of ours."""
    found = []
    for event, label in EVENT_KEYS.items():
        groups = data.get("hooks", {}).get(event) if isinstance(data.get("hooks"), dict) else None
        for g_index, group in enumerate(groups if isinstance(groups, list) else []):
            hooks = group.get("hooks") if isinstance(group, dict) else None
            for h_index, hook in enumerate(hooks if isinstance(hooks, list) else []):
                if ours(hook):
                    matcher = group.get("matcher")
                    key = f"{os.path.abspath(path)}:{label}:{g_index}:{h_index}"
                    found.append((key, trust_hash(label, matcher if isinstance(matcher, str) else None, hook)))
    return found


def model_text(response: object) -> str | None:
    """What Codex (0.169.0) shows the model of an MCP tool's `CallToolResult` (after its
    own `Wall time: …` lines): the JSON of the server's `structuredContent` when it sent
    one, else its text blocks one after another. None for an error, a result holding
    anything but text blocks (an image, a resource) and whatever else it may be."""
    if not isinstance(response, dict) or response.get("isError") is True:
        return None
    blocks = response.get("content")
    if not isinstance(blocks, list) or not all(
        isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)
        for block in blocks
    ):
        return None
    structured = response.get("structuredContent")
    if structured is not None:
        from ..fast import fastjson

        return fastjson.dumps(structured) if isinstance(structured, dict) else None
    return "\n".join(block["text"] for block in blocks) if blocks else None


def finished_command(transcript: object, call_id: object) -> tuple[int, str | None] | None:
    """(exit code, aggregated output or None) of the command `call_id` as the session
    transcript Codex names records it (`item_completed` of a `CommandExecution`), or
    None when it is not there."""
    if not isinstance(transcript, str) or not isinstance(call_id, str) or not call_id:
        return None
    from ..fast import fastjson
    from .postrun import tail_lines

    needle = fastjson.dumps(call_id).encode()
    for line in reversed(tail_lines(transcript, TRANSCRIPT_TAIL)):
        if needle not in line or b"CommandExecution" not in line:
            continue
        try:
            event = fastjson.loads(line)
        except ValueError:
            continue
        payload = event.get("payload") if isinstance(event, dict) else None
        item = payload.get("item") if isinstance(payload, dict) else None
        if not isinstance(item, dict) or item.get("type") != "CommandExecution" or item.get("id") != call_id:
            continue
        code, output = item.get("exit_code"), item.get("aggregated_output")
        if not isinstance(code, int) or isinstance(code, bool):
            return None
        return code, output if isinstance(output, str) else None
    return None


def trust_check(report: Report, path: str, data: dict[str, Any], ours: Any) -> None:
    """Is our hook approved in Codex's config.toml? (read offline)."""
    from .permissions.codex_rules import codex_home

    config = os.path.join(codex_home(os.environ), "config.toml")
    state, projects, problem = _read_config(config)
    if problem:
        report.check("trust", WARN, problem)
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(path)))
    if os.path.abspath(path) != os.path.join(codex_home(os.environ), "hooks.json"):
        project = projects.get(root) or projects.get(os.path.realpath(root))
        if not (isinstance(project, dict) and project.get("trust_level") == "trusted"):
            report.check(
                "trust",
                WARN,
                f"Codex reads {os.path.dirname(path)} only in a trusted project; run codex in {root} and trust it",
            )
    keys = hook_keys(path, data, ours)
    for key, current in keys:
        entry = state.get(key)
        if entry is None and os.path.realpath(path) != os.path.abspath(path):
            entry = state.get(key.replace(os.path.abspath(path), os.path.realpath(path), 1))
        entry = entry if isinstance(entry, dict) else {}
        if entry.get("enabled") is False:
            report.check("trust", WARN, f"the hook is turned off in {config}; turn it on in codex's /hooks")
        elif entry.get("trusted_hash") == current:
            report.check("trust", OK, "Codex will run the hook: you approved it")
        elif entry.get("trusted_hash"):
            report.check("trust", WARN, f"the hook changed since you approved it, so Codex skips it: {APPROVE}")
        else:
            report.check("trust", WARN, f"Codex skips the hook until you approve it: {APPROVE}")


def _read_config(config: str) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """(hooks.state, projects, a problem) from Codex's config.toml."""
    try:
        with open(config, "rb") as handle:
            raw = handle.read()
    except FileNotFoundError:
        return {}, {}, None
    except OSError as error:
        return {}, {}, f"cannot read {config} to see whether the hook is approved ({error.strerror})"
    import tomllib

    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}, {}, f"{config} is not valid TOML, so Codex may not start; fix it"
    features = data.get("features")
    if isinstance(features, dict) and features.get("hooks") is False:
        return {}, {}, f"hooks are turned off in {config} (features.hooks = false); remove that line"
    hooks = data.get("hooks")
    state = hooks.get("state") if isinstance(hooks, dict) else None
    projects = data.get("projects")
    return (state if isinstance(state, dict) else {}), (projects if isinstance(projects, dict) else {}), None
