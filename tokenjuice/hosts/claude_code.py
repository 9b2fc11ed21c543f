"""Claude Code: a hook for the Bash tool in `~/.claude/settings.json`
(`$CLAUDE_CONFIG_DIR/settings.json`), or `<git root>/.claude/settings.json` with --project.

Two ways to hook it, one hook command for both (the payload names its event):

- post (Claude Code 2.1.121 and later, the default there): a `PostToolUse` hook. The
  command runs natively — no rewrite, so its meaning, the shell's state and every
  permission rule stay exactly Claude's — and the hook answers with the compacted
  output as `updatedToolOutput` `{stdout, stderr, interrupted}` (anything less is
  silently ignored). Claude reports no exit code there (and stderr merged into
  stdout), so the compaction claims neither success nor failure. A failing command
  fires `PostToolUseFailure` instead, whose output a hook cannot replace: failures
  reach the model uncompacted (see docs/hosts/claude-code.md for why no rewrite is
  added for them).
- pre (older versions, or `--mode pre`): a `PreToolUse` rewrite through
  `tokenjuice wrap`, answered with `updatedInput` (the whole `tool_input`, command
  replaced). Claude evaluates its rules on the rewrite, so `claude_permissions`
  decides what may be rewritten, and the answer carries `permissionDecision: allow`
  only when the user's rules allow the original.

Settings entries are groups `{"matcher": "Bash", "hooks": [{"type": "command",
"command": …, "timeout": seconds}]}`. One schema-invalid entry makes Claude ignore
the whole file (hooks *and* permissions), so what install writes is exactly that
shape, and doctor checks every hook entry of the file.
"""

from __future__ import annotations

import os

from . import ALLOW, NONE
from .base import FILE_READ_TOOLS, Call, JsonHooksHost, command_at, existing_dir, mcp_tool_part

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .manage import Report, Result
    from .permissions.claude import Rules

PRE, POST, POST_FAILURE = "PreToolUse", "PostToolUse", "PostToolUseFailure"
#: The events each mode hooks: auto rewrites before the run only what the user's rules
#: already allow (so a failing command is compacted too) and compacts the rest after.
EVENTS = {"pre": (PRE,), "post": (POST,), "auto": (PRE, POST)}
LISTS = {PRE: ("hooks", PRE), POST: ("hooks", POST), POST_FAILURE: ("hooks", POST_FAILURE)}
#: What each mode does in Claude Code (doctor's mode line; measured with 2.1.331 in -p mode).
MODE_EFFECTS = {
    "auto": "commands your permission rules allow are rewritten, so their output is compacted whether they "
    "succeed or fail; every other successful command is compacted after it ran; other failures reach the model "
    "as Claude Code shows them",
    "post": "successful commands are compacted after they ran; failing ones reach the model as Claude Code shows "
    "them (a hook cannot replace a failure's output)",
    "pre": "commands your permission rules allow (every command in bypassPermissions mode) are rewritten and "
    "compacted, successful or failing; the rest run and show as typed",
}
#: Seconds Claude waits for the hook; past it the command (or its output) goes on unchanged.
TIMEOUTS = {PRE: 10, POST: 30}
#: The first version whose PostToolUse `updatedToolOutput` replaces a Bash output.
POST_SINCE = (2, 1, 121)
#: What the model reads of an output Claude saved to a file (over 30,000 characters):
#: a header naming the file and the first 2 KB (2,321 characters measured).
CLAUDE_PREVIEW_CHARS = 2300
#: The last line of `tokenjuice wrap`'s output when it cut something.
#: The PostToolUse matcher of `--tools all` (the default): Bash, Grep and every MCP tool.
#: `--tools shell` hooks Bash alone. Claude Code reads a matcher with `|` as a list of
#: names and one with `.` or `*` as a regular expression (2.1.331: `mcp__fs__.*` fired).
TOOLS_MATCHER = "Bash|Grep|mcp__.*"
MATCHERS = {"all": TOOLS_MATCHER, "shell": "Bash"}
#: What each tool set compacts (doctor's tools line).
TOOLS_EFFECTS = {
    "all": "Bash; Grep in content mode; every MCP tool's text but file reads ("
    + ", ".join(sorted(FILE_READ_TOOLS))
    + "); never Read, Edit, Write, NotebookEdit, Glob, web fetches or images",
    "shell": "Bash only (tokenjuice install claude-code --tools all adds Grep and MCP tools)",
}
#: Hook entry types Claude Code knows (2.1.331); another type makes the file invalid.
HOOK_TYPES = frozenset({"command", "prompt", "agent", "http", "mcp_tool", "callback", "function"})


class ClaudeCode(JsonHooksHost):
    name = "claude-code"
    title = "Claude Code"
    modes = ("auto", "post", "pre")
    list_path = LISTS[PRE]
    more_lists = (LISTS[POST], LISTS[POST_FAILURE])
    nested = "hooks"
    project_file = (".claude", "settings.json")
    programs = ("claude",)
    tool_sets = ("all", "shell")

    def __init__(self) -> None:
        self._rules: Rules | None = None

    # -- post: compact the output of a command that ran -----------------------------------

    def leaves_alone(self, payload: dict[str, Any]) -> bool:
        tool, event = payload.get("tool_name"), payload.get("hook_event_name")
        if event == PRE:
            return tool != "Bash"
        return event == POST and isinstance(tool, str) and not compactable(tool)

    def own_answer(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any] | None:
        if payload.get("hook_event_name") != POST:
            return None
        return self.compacted_output(payload, env)

    def compacted_output(self, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """The PostToolUse answer: the compacted output, or {} to leave it as it is.
        Decided from the tool's name first: a tool that is never compacted costs no import."""
        tool = payload.get("tool_name")
        if os.name == "nt" or not isinstance(tool, str):
            return {}
        if tool != "Bash":
            return self.compacted_tool(tool, payload, env)
        tool_input, response = payload.get("tool_input"), payload.get("tool_response")
        if not isinstance(tool_input, dict) or not isinstance(response, dict):
            return {}
        command = tool_input.get("command")
        stdout, stderr, interrupted = response.get("stdout"), response.get("stderr"), response.get("interrupted")
        if not isinstance(command, str) or not command.strip() or not isinstance(stdout, str):
            return {}
        if not isinstance(stderr, str) or not isinstance(interrupted, bool):
            return {}
        if tool_input.get("run_in_background") is True or response.get("backgroundTaskId") or response.get("isImage"):
            return {}  # a background task's output is read later; an image is not text
        shown = stdout + ("\n" + stderr if stderr else "")  # what Claude would show the model
        persisted = response.get("persistedOutputPath")
        duration = payload.get("duration_ms")
        from .postrun import compact_output

        text = compact_output(
            self.name,
            command,
            shown,
            cwd=existing_dir(payload.get("cwd")),
            env=env,
            exit_code=None,  # PostToolUse carries none; non-zero exits Claude deems errors never come here
            saved=persisted if isinstance(persisted, str) and persisted else None,
            saved_max_chars=CLAUDE_PREVIEW_CHARS,  # else Claude's own preview of a saved output is shorter
            duration_ms=float(duration) if isinstance(duration, int | float) and duration >= 0 else None,
        )
        if text is None:
            return {}
        updated: dict[str, Any] = {"stdout": text, "stderr": "", "interrupted": interrupted}
        interpretation = response.get("returnCodeInterpretation")
        if isinstance(interpretation, str):
            updated["returnCodeInterpretation"] = interpretation
        return {"hookSpecificOutput": {"hookEventName": POST, "updatedToolOutput": updated}}

    def compacted_tool(self, tool: str, payload: dict[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
        """A non-shell tool's PostToolUse answer: an MCP tool's result (a string, or its
        content blocks) in the same shape, Grep's output object with its `content`
        compacted; {} for every other tool (Read, Edit, Write, NotebookEdit, Glob, a file
        read through MCP) and whatever Claude Code would not take back."""
        from .postrun import compact_tool

        if not compactable(tool):
            return {}
        response, cwd = payload.get("tool_response"), existing_dir(payload.get("cwd"))
        if tool != "Grep":
            if not isinstance(response, str | list):
                return {}  # Claude Code 2.1.331 hands a string or content blocks
            replaced = compact_tool(self.name, tool, response, cwd, env)
            return {} if replaced is None else _post_answer(replaced)
        if not isinstance(response, dict) or response.get("mode") != "content":
            return {}  # file lists and counts: the names are what the agent asked for
        content = response.get("content")
        if not isinstance(content, str):
            return {}
        replaced = compact_tool(self.name, tool, content, cwd, env)
        return {} if not isinstance(replaced, str) else _post_answer(dict(response, content=replaced))

    # -- pre: rewrite the command before it runs -----------------------------------------

    def call(self, payload: dict[str, Any]) -> Call | None:
        if payload.get("hook_event_name") != PRE or payload.get("tool_name") != "Bash" or os.name == "nt":
            return None
        tool_input = payload.get("tool_input")
        if not isinstance(tool_input, dict) or tool_input.get("run_in_background") is True:
            return None  # a background task's output is read later, through Claude
        command = tool_input.get("command")
        if not isinstance(command, str):
            return None
        cwd = existing_dir(payload.get("cwd"))
        mode = payload.get("permission_mode")
        return Call(command, cwd, None, cwd, mode if isinstance(mode, str) else None)

    def permission(self, call: Call, env: Mapping[str, str]) -> str:
        from .permissions.claude import decide, load_rules

        self._rules = load_rules(_project(call, env), env)
        return decide(call.command, self._rules, call.mode)

    def answer(
        self, payload: dict[str, Any], call: Call, rewritten: str, permission: str, env: Mapping[str, str]
    ) -> dict[str, Any]:
        from .permissions.claude import load_rules, ruled

        rules = self._rules or load_rules(_project(call, env), env)
        if permission not in (ALLOW, NONE) or ruled(rewritten, rules):
            return {}  # a deny or ask rule might match the wrapper: Claude must see the original
        output: dict[str, Any] = {
            "hookEventName": PRE,
            "updatedInput": {**payload["tool_input"], "command": rewritten},
        }
        if permission == ALLOW:
            output["permissionDecision"] = "allow"  # the user's rules allow the original: no prompt, as before
        return {"hookSpecificOutput": output}

    def probe_payload(self, command: str, cwd: str) -> dict[str, Any]:
        """A PreToolUse payload as Claude sends it; `bypassPermissions` so that only
        the user's deny and ask rules (not the session's prompts) can stop the probe."""
        return {
            "session_id": "tokenjuice-doctor",
            "cwd": cwd,
            "permission_mode": "bypassPermissions",
            "hook_event_name": PRE,
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "tokenjuice doctor probe"},
            "tool_use_id": "toolu_tokenjuice_doctor",
        }

    def rewritten(self, answer: dict[str, Any]) -> str | None:
        return command_at(answer, "hookSpecificOutput", "updatedInput")

    # -- the config --------------------------------------------------------------------

    def user_config_path(self) -> str:
        from .permissions.claude import config_dir

        return os.path.join(config_dir(os.environ), "settings.json")

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        from . import jsonhooks
        from .manage import launcher_warnings, refuse_windows

        refuse_windows()
        notes: list[str] = []
        version = installed_version()
        mode = self.mode
        if mode is None:
            mode = "pre" if version is not None and version < POST_SINCE else "auto"
            if version is None:
                notes.append(
                    "claude --version did not answer, so the hook compacts output after commands run "
                    "(Claude Code 2.1.121+); on an older Claude Code run tokenjuice install claude-code --mode pre"
                )
            elif mode == "pre":
                notes.append(
                    f"Claude Code {_shown(version)} cannot replace a command's output (2.1.121+ can), so the hook "
                    "rewrites commands before they run; after upgrading Claude Code, run tokenjuice install "
                    "claude-code again"
                )
        elif mode in ("post", "auto") and version is not None and version < POST_SINCE:
            notes.append(
                f"Claude Code {_shown(version)} ignores output replacement (2.1.121+ has it): upgrade Claude Code, "
                "or run tokenjuice install claude-code --mode pre"
            )
        events = EVENTS[mode]

        matcher = MATCHERS[self.tools or self.tool_sets[0]]

        def group(event: str) -> dict[str, Any] | None:
            if event not in events:
                return None
            return {
                "matcher": matcher if event == POST else "Bash",
                "hooks": [{"type": "command", "command": command, "timeout": TIMEOUTS[event]}],
            }

        placements: list[tuple[tuple[str, ...], dict[str, Any] | None]] = [
            (LISTS[PRE], group(PRE)),
            (LISTS[POST], group(POST)),
            (LISTS[POST_FAILURE], None),
        ]
        result = jsonhooks.install_many(
            path,
            placements,
            self._ours,
            dry_run=dry_run,
            command=command,
            warnings=launcher_warnings(command),
            nested="hooks",
            notes=notes,
        )
        if result.action in ("installed", "updated"):
            result.notes.append(
                "start a new Claude Code session to use it (one already running may not load the new hook)"
            )
        return result

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from . import BROKEN, DISABLED, OK, WARN, jsonhooks

        report = self._entry_report(path, expected, install_hint)
        if report.status == DISABLED or any(c["name"] == "file" and c["status"] == BROKEN for c in report.checks):
            return report
        data = jsonhooks.read(path) or {}
        for problem in settings_problems(data):
            report.check("settings", WARN, f"{path}: {problem}; Claude Code ignores the whole file until it is fixed")
        for problem in hooks_switched_off(os.getcwd()):
            report.check("settings", WARN, problem)
        events = self.installed_events(data)
        version = installed_version()
        mode = next((m for m, wanted in EVENTS.items() if set(wanted) == set(events) - {POST_FAILURE}), None)
        if mode is not None:
            report.check("mode", OK, f"{mode}: {MODE_EFFECTS[mode]}")
        if POST in events:
            post = jsonhooks.our_element(data, LISTS[POST], self._ours, "hooks")
            jsonhooks.check_tools(report, post, {m: t for t, m in MATCHERS.items()}, TOOLS_EFFECTS)
        elif PRE in events:
            report.check("tools", OK, "compacted: Bash only (rewritten before it runs)")
        if POST_FAILURE in events:
            report.check("mode", WARN, "the hook sits in PostToolUseFailure, which cannot replace output")
            report.fix = install_hint
        if POST in events and version is not None and version < POST_SINCE:
            report.check(
                "mode",
                WARN,
                f"Claude Code {_shown(version)} ignores PostToolUse output replacement (2.1.121+ has it); "
                "upgrade Claude Code or reinstall with --mode pre",
            )
            report.fix = f"{install_hint} --mode pre"
        if deep and report.status != BROKEN:
            found = self.deep_probe(report.detected or "", events)
            report.check_probe(found, found.get("summary", "the hook answered as Claude Code expects"))
        return report

    def _entry_report(self, path: str, expected: str | None, install_hint: str) -> Report:
        """The shared checks of our entry; in auto mode the PreToolUse and PostToolUse
        entries are one installation (not two entries where one is enough)."""
        from ..files.editfile import EditError
        from . import jsonhooks

        try:
            events = self.installed_events(jsonhooks.read(path) or {})
        except EditError:
            events = []
        if {PRE, POST} <= set(events):
            return jsonhooks.doctor(
                self,
                path,
                LISTS[POST],
                self._ours,
                expected,
                install_hint,
                command_of=self.command_of,
                shape_problems=self.shape_problems,
                others_conflict=self.handles_shell,
                more_lists=(LISTS[POST_FAILURE],),
                nested=self.nested,
            )
        return super().doctor(path, expected, install_hint, deep=False)  # the probe is ours, per event

    def installed_events(self, data: dict[str, Any]) -> list[str]:
        """The events whose lists hold our hook."""
        from ..files.editfile import EditError
        from . import jsonhooks

        found = []
        for event, list_path in LISTS.items():
            try:
                elements = jsonhooks.entries(data, list_path, "")
            except EditError:
                continue
            if jsonhooks.ours_found(elements, self._ours, "hooks"):
                found.append(event)
        return found

    def deep_probe(self, hook_command: str, events: list[str]) -> dict[str, Any]:
        """Run the installed hook as Claude would, for each event it is installed for."""
        from .probe import probe

        results: dict[str, Any] = {}
        if PRE in events:
            results[PRE] = probe(self, hook_command)
        if POST in events:
            results[POST] = probe_post(hook_command)
        ok = bool(results) and all(result["ok"] for result in results.values())
        deep: dict[str, Any] = {"ok": ok, "events": results}
        latencies = [r["hookLatencyMs"] for r in results.values() if "hookLatencyMs" in r]
        if latencies:
            deep["hookLatencyMs"] = max(latencies)
        problems = [f"{event}: {r['problem']}" for event, r in results.items() if "problem" in r]
        if problems:
            deep["problem"] = "; ".join(problems)
        elif not results:
            deep["problem"] = "no hook to probe in PreToolUse or PostToolUse"
        else:
            deep["summary"] = " and ".join(
                {PRE: "PreToolUse rewrote and ran a probe", POST: "PostToolUse compacted a probe output"}[event]
                for event in results
            )
        return deep

    def command_of(self, hook: Any) -> str | None:
        return self.command_in_hook(hook)  # doctor shows our hook's command, never another's in a group

    def shape_problems(self, group: Any) -> list[str]:
        hooks = group.get("hooks") if isinstance(group, dict) else None
        mine = [hook for hook in hooks or [] if self._ours(hook)]
        if not isinstance(group, dict) or group.get("matcher") not in MATCHERS.values():
            return [f'the hook\'s group should have "matcher": "Bash" (or "{TOOLS_MATCHER}" after PostToolUse)']
        for hook in mine:
            timeout = hook.get("timeout")
            if hook.get("type") != "command" or (timeout is not None and not _number(timeout)):
                return ['the hook should be {"type": "command", "command": …, "timeout": <seconds>}']
        return []


# -- post mode helpers ----------------------------------------------------------------------


def compactable(tool: str) -> bool:
    """Does the PostToolUse hook compact this tool's result: Bash, Grep, an MCP tool
    that reads no file? Told from the name alone."""
    if tool in ("Bash", "Grep"):
        return True
    part = mcp_tool_part(tool)
    return part is not None and part not in FILE_READ_TOOLS


def _post_answer(updated: object) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": POST, "updatedToolOutput": updated}}


def _project(call: Call, env: Mapping[str, str]) -> str | None:
    return existing_dir(env.get("CLAUDE_PROJECT_DIR")) or call.project_dir


POST_PROBE_COMMAND = "for i in $(seq 1 400); do echo tokenjuice-doctor-probe line $i; done"
POST_PROBE_MARK = "tokenjuice-doctor-probe"


def post_probe_payload(cwd: str) -> dict[str, Any]:
    """A PostToolUse payload as Claude Code 2.1.331 sends it for a successful Bash call."""
    output = "\n".join(f"{POST_PROBE_MARK} line {i}" for i in range(1, 401))
    return {
        "session_id": "tokenjuice-doctor",
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": POST,
        "tool_name": "Bash",
        "tool_input": {"command": POST_PROBE_COMMAND, "description": "tokenjuice doctor probe"},
        "tool_response": {
            "stdout": output,
            "stderr": "",
            "interrupted": False,
            "isImage": False,
            "noOutputExpected": False,
        },
        "tool_use_id": "toolu_tokenjuice_doctor",
        "duration_ms": 1,
    }


def probe_post(hook_command: str) -> dict[str, Any]:
    """Run the hook on a PostToolUse payload and check the answer's shape: the whole
    Bash output object, shorter than the probe's output. Not counted in the stats;
    its full output is kept in a throwaway folder."""
    import json
    import shutil
    import subprocess
    import tempfile
    import time

    payload = post_probe_payload(os.getcwd())
    scratch = tempfile.mkdtemp(prefix="tokenjuice-doctor-")
    env = os.environ | {"TOKENJUICE_STATS": "off", "TOKENJUICE_ARTIFACT_DIR": scratch}
    started = time.monotonic()
    try:
        hook = subprocess.run(
            ["/bin/sh", "-c", hook_command],
            check=False,
            input=json.dumps(payload).encode(),
            capture_output=True,
            timeout=TIMEOUTS[POST],
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "problem": f"the hook did not answer within {TIMEOUTS[POST]} s"}
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    result: dict[str, Any] = {
        "ok": False,
        "hookLatencyMs": round((time.monotonic() - started) * 1000, 1),
        "hookExitCode": hook.returncode,
    }
    try:
        answer = json.loads(hook.stdout)
    except ValueError:
        result["problem"] = f"the hook answered {hook.stdout[:200]!r} (exit {hook.returncode}), not JSON"
        return result
    problem = post_answer_problem(answer, payload["tool_response"]["stdout"])
    if problem:
        result["problem"] = problem
        return result
    result["ok"] = True
    result["compactedChars"] = len(answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"])
    return result


def post_answer_problem(answer: object, original: str) -> str | None:
    """Why `answer` is not a PostToolUse answer Claude Code applies, or None."""
    output = answer.get("hookSpecificOutput") if isinstance(answer, dict) else None
    if not isinstance(output, dict) or output.get("hookEventName") != POST:
        return (
            f"the hook left the probe output unchanged (answer {str(answer)[:200]}); "
            "tokenjuice config list shows whether hook.enabled is off"
        )
    updated = output.get("updatedToolOutput")
    if not isinstance(updated, dict) or not (
        isinstance(updated.get("stdout"), str)
        and isinstance(updated.get("stderr"), str)
        and isinstance(updated.get("interrupted"), bool)
    ):
        return "updatedToolOutput is not {stdout, stderr, interrupted}: Claude Code would ignore it"
    if len(updated["stdout"]) >= len(original) or POST_PROBE_MARK not in updated["stdout"]:
        return "the compacted probe output is not shorter than the original, or lost its lines"
    return None


# -- versions and settings ------------------------------------------------------------------


def installed_version(env: Mapping[str, str] | None = None) -> tuple[int, int, int] | None:
    """`claude --version` of the `claude` on PATH, or None when it cannot be told."""
    import shutil
    import subprocess

    env = os.environ if env is None else env
    program = shutil.which("claude", path=env.get("PATH"))
    if not program:
        return None
    try:
        done = subprocess.run(
            [program, "--version"],
            capture_output=True,
            timeout=30,
            check=False,
            stdin=subprocess.DEVNULL,
            env=dict(env) | {"DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"},
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return parse_version(done.stdout.decode("utf-8", "replace"))


def parse_version(text: str) -> tuple[int, int, int] | None:
    """`2.1.331 (Claude Code)` → (2, 1, 331)."""
    words = text.split()
    parts = words[0].split(".") if words else []
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        return None
    return int(parts[0]), int(parts[1]), int(parts[2])


def _shown(version: tuple[int, int, int]) -> str:
    return ".".join(map(str, version))


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > 0


def settings_problems(data: dict[str, Any]) -> list[str]:
    """Hook entries Claude Code's schema refuses (it then drops the whole file): events
    that are not lists of `{matcher?: string, hooks: [hook, …]}`, hooks without a known
    `type`, command hooks without a `command` string, non-numeric timeouts. Unknown
    event names are only ignored by Claude, so they are not reported."""
    hooks = data.get("hooks")
    if hooks is None:
        return []
    if not isinstance(hooks, dict):
        return ['"hooks" is not an object']
    problems = []
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            problems.append(f'"hooks.{event}" is not a list')
            continue
        for index, group in enumerate(groups):
            where = f"hooks.{event}[{index}]"
            if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
                problems.append(f'{where} is not {{"matcher": …, "hooks": [ … ]}}')
                continue
            if "matcher" in group and not isinstance(group["matcher"], str):
                problems.append(f"{where}.matcher is not a string")
            for position, hook in enumerate(group["hooks"]):
                problem = _hook_problem(hook)
                if problem:
                    problems.append(f"{where}.hooks[{position}] {problem}")
    return problems


def hooks_switched_off(project_dir: str | None) -> list[str]:
    """Settings that keep Claude Code from running this hook at all."""
    from .permissions.claude import MANAGED, read_settings, settings_files

    problems = []
    for path, scope in settings_files(project_dir, os.environ):
        _, value = read_settings(path)
        if value is None:
            continue
        if value.get("disableAllHooks") is True:
            problems.append(f"{path} sets disableAllHooks: Claude Code runs no hooks while it does")
        if scope == MANAGED and value.get("allowManagedHooksOnly") is True:
            problems.append(f"{path} (your organisation's policy) sets allowManagedHooksOnly: this hook never runs")
    return problems


def _hook_problem(hook: object) -> str | None:
    if not isinstance(hook, dict):
        return "is not an object"
    kind = hook.get("type")
    if kind not in HOOK_TYPES:
        return f"has an unknown type {kind!r}"
    if kind == "command" and not isinstance(hook.get("command"), str):
        return "has no command string"
    if "timeout" in hook and not _number(hook["timeout"]):
        return f"has a timeout that is not a number of seconds ({hook['timeout']!r})"
    return None
