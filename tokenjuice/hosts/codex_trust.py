"""`doctor codex --deep`: ask Codex itself whether it loads and trusts the hook.

`codex app-server` speaks JSON-RPC on stdio; `initialize`, `initialized`, then
`hooks/list {"cwds": [cwd]}` answers every hook Codex would load there, each with
its `key`, `trustStatus` (`trusted`, `untrusted`, `modified`, `managed`) and
`enabled`, plus the warnings of files it could not read (a type error anywhere in
hooks.json drops every hook in it). Nothing is written; no account or network is
needed (measured with codex 0.169.0, tests/fixtures/hosts/tools/codex_hooks_list.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time

from . import BROKEN, OK, WARN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from .codex import Written
    from .manage import Report

#: Seconds Codex gets to start and answer.
DEADLINE = 30.0


def app_server(
    program: str, cwd: str, requests: list[dict[str, Any]], env: Mapping[str, str] | None = None
) -> dict[Any, dict[str, Any]] | None:
    """The answers, by id, of `codex app-server` to `requests` sent one at a time
    after `initialize`/`initialized` (each waits for the one before it: a `hooks/list`
    after a trust write sees the write), or None when Codex cannot start. Requests
    left unanswered at the deadline have no entry."""
    import select

    try:
        process = subprocess.Popen(
            [program, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
            env=None if env is None else dict(env),
        )
    except OSError:
        return None
    assert process.stdin is not None and process.stdout is not None
    hello = {"id": 0, "method": "initialize", "params": {"clientInfo": {"name": "tokenjuice-doctor", "version": "1"}}}
    answers: dict[Any, dict[str, Any]] = {}
    try:
        for message in (hello, {"method": "initialized"}):
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        pending, waiting = list(requests), {0}
        deadline = time.monotonic() + DEADLINE
        buffer = b""
        while (waiting or pending) and time.monotonic() < deadline:
            if not waiting and pending:
                request = pending.pop(0)
                process.stdin.write(json.dumps(request).encode() + b"\n")
                process.stdin.flush()
                waiting.add(request["id"])
            ready, _, _ = select.select([process.stdout], [], [], 0.5)
            if not ready:
                continue
            chunk = os.read(process.stdout.fileno(), 65536)
            if not chunk:
                break
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    message = json.loads(line)
                except ValueError:
                    continue
                if isinstance(message, dict) and message.get("id") in waiting and "method" not in message:
                    answers[message["id"]] = message
                    waiting.discard(message["id"])
    except OSError:
        pass
    finally:
        try:
            process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    return answers


def hooks_list(program: str, cwd: str, env: Mapping[str, str] | None = None) -> dict[str, Any] | None:
    """The `hooks/list` result for `cwd` (`{"hooks": [...], "warnings": [...]}`), or
    None when Codex did not answer in time."""
    answers = app_server(program, cwd, [{"id": 1, "method": "hooks/list", "params": {"cwds": [cwd]}}], env)
    if not answers or 1 not in answers:
        return None
    data = (answers[1].get("result") or {}).get("data")
    return data[0] if isinstance(data, list) and data and isinstance(data[0], dict) else {}


def deep_check(report: Report, path: str, ours: Any) -> None:
    """Add what Codex itself says about the hook in `path` to `report`."""
    program = shutil.which("codex")
    if program is None:
        report.check("codex", WARN, "cannot check trust with Codex itself: codex not found on PATH")
        return
    target = os.path.abspath(path)
    cwd = os.path.dirname(os.path.dirname(target)) if os.path.basename(os.path.dirname(target)) == ".codex" else None
    listed = hooks_list(program, cwd if cwd and os.path.isdir(cwd) else os.getcwd())
    if listed is None:
        report.check("codex", WARN, f"{program} app-server did not answer hooks/list; run codex once and try again")
        return
    for warning in listed.get("warnings") or []:
        if isinstance(warning, str) and (target in warning or os.path.realpath(target) in warning):
            report.check("codex", BROKEN, f"Codex says: {warning.splitlines()[0]}")
    sources = {target, os.path.realpath(target)}
    mine = [
        h
        for h in listed.get("hooks") or []
        if isinstance(h, dict) and h.get("sourcePath") in sources and ours({"command": h.get("command")})
    ]
    if not mine:
        if cwd is not None:
            report.check(
                "codex",
                WARN,
                f"Codex does not load {path}: it reads a project's .codex folder once you trust the project",
            )
        else:
            report.check("codex", BROKEN, f"Codex does not load the hook from {path}; run codex to see why")
        return
    status = mine[0].get("trustStatus")
    if mine[0].get("enabled") is False:
        report.check("codex", WARN, "Codex lists the hook as turned off; turn it on in codex's /hooks")
    elif status in ("trusted", "managed"):
        report.check("codex", OK, f"Codex loads the hook ({status})")
    else:
        report.check("codex", WARN, f"Codex loads the hook but skips it ({status}); approve it in codex's /hooks")


def approve(path: str, written: Written | None, env: Mapping[str, str] | None = None) -> str | None:
    """Record the user's approval of the one entry install just wrote into `path`
    exactly as Codex's `/hooks` does: `hooks/list` gives each hook's key and current
    hash, `config/batchWrite` stores `hooks.state."<key>".trusted_hash` in Codex's
    config.toml. Only the hook Codex lists with that entry's key (its file, event and
    position), its exact command and the hash tokenjuice computes for it is approved,
    never another hook of the file however much it looks like ours, and only when
    asked (`install codex --approve`). None when Codex lists it as approved
    afterwards, else what went wrong, as a sentence."""
    if written is None:
        return f"tokenjuice could not find the entry it wrote in {path}, so nothing was approved: {MANUAL}"
    program = shutil.which("codex", path=(env or os.environ).get("PATH"))
    if program is None:
        return f"codex is not on PATH, so the hook was not approved: {MANUAL}"
    target = os.path.abspath(path)
    folder = os.path.dirname(target)
    cwd = os.path.dirname(folder) if os.path.basename(folder) == ".codex" else os.getcwd()
    sources = {target, os.path.realpath(target)}
    suffix = written.key.removeprefix(target)
    keys = {source + suffix for source in sources}

    def listed_entry() -> list[dict[str, Any]] | None:
        listed = hooks_list(program, cwd, env)
        if listed is None:
            return None
        return [
            h
            for h in listed.get("hooks") or []
            if isinstance(h, dict)
            and h.get("sourcePath") in sources
            and h.get("key") in keys
            and h.get("command") == written.command
            and h.get("currentHash") == written.trust_hash
        ]

    mine = listed_entry()
    if mine is None:
        return f"{program} app-server did not answer, so the hook was not approved: {MANUAL}"
    if len(mine) != 1:
        return f"Codex does not load the entry install wrote in {path} here, so the hook was not approved: {MANUAL}"
    if mine[0].get("trustStatus") not in ("trusted", "managed"):
        edit = {
            "keyPath": f"hooks.state.{json.dumps(mine[0]['key'])}.trusted_hash",
            "value": written.trust_hash,
            "mergeStrategy": "upsert",
        }
        answers = app_server(program, cwd, [{"id": 1, "method": "config/batchWrite", "params": {"edits": [edit]}}], env)
        result = ((answers or {}).get(1) or {}).get("result") or {}
        if result.get("status") != "ok":
            return f"Codex did not record the approval: {MANUAL}"
    again = listed_entry() or []
    if len(again) != 1 or again[0].get("trustStatus") not in ("trusted", "managed"):
        return f"Codex still lists the hook as not approved: {MANUAL}"
    if mine[0].get("trustStatus") not in ("trusted", "managed"):  # ours to take back on uninstall
        from .manage import remember_approval
        from .permissions.codex_rules import codex_home

        config = os.path.join(codex_home(env or os.environ), "config.toml")
        remember_approval(path, config, str(mine[0]["key"]), written.trust_hash)
    return None


def revoke(approvals: list[dict[str, str]]) -> list[str]:
    """Take back the approvals install recorded (`hooks.state."<key>".trusted_hash` in
    Codex's config.toml), each only while it still holds the hash install wrote, and
    the `[hooks.state]`/`[hooks]` tables that are empty without it; every other byte of
    the file stays. What could not be done, as sentences."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    from ..files.editfile import EditError, LockedFile

    problems: list[str] = []
    for config in dict.fromkeys(approval["config"] for approval in approvals):
        mine = [a for a in approvals if a["config"] == config]
        try:
            with LockedFile(config, create=False) as file:
                if file.text is None:
                    continue
                document = tomlkit.parse(file.text)
                hooks = document.get("hooks")
                state = hooks.get("state") if isinstance(hooks, dict) else None
                if not isinstance(hooks, dict) or not isinstance(state, dict):
                    continue
                changed = False
                for approval in mine:
                    entry = state.get(approval["key"])
                    if isinstance(entry, dict) and entry.get("trusted_hash") == approval["hash"]:
                        del state[approval["key"]]
                        changed = True
                if not changed:
                    continue
                if not state:
                    del hooks["state"]
                if not hooks:
                    del document["hooks"]
                text = tomlkit.dumps(document)
                if text.endswith("\n\n") and not file.text.endswith("\n\n"):
                    text = text.rstrip("\n") + "\n"  # the blank line Codex put before the table it appended
                file.save(text, keep_backup=False)
        except (EditError, TOMLKitError, OSError) as error:
            problems.append(f"the hook's approval stays in {config} ({error}); take it back in codex's /hooks")
    return problems


MANUAL = "start codex and approve the tokenjuice hook in /hooks"
