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

from .base import BROKEN, OK, WARN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Report

#: Seconds Codex gets to start and answer.
DEADLINE = 30.0


def hooks_list(program: str, cwd: str) -> dict[str, Any] | None:
    """The `hooks/list` result for `cwd` (`{"hooks": [...], "warnings": [...]}`), or
    None when Codex did not answer in time."""
    import select

    try:
        process = subprocess.Popen(
            [program, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=cwd,
        )
    except OSError:
        return None
    assert process.stdin is not None and process.stdout is not None
    requests = [
        {"id": 1, "method": "initialize", "params": {"clientInfo": {"name": "tokenjuice-doctor", "version": "1"}}},
        {"method": "initialized"},
        {"id": 2, "method": "hooks/list", "params": {"cwds": [cwd]}},
    ]
    result = None
    try:
        for request in requests:
            process.stdin.write(json.dumps(request).encode() + b"\n")
        process.stdin.flush()
        deadline = time.monotonic() + DEADLINE
        buffer = b""
        while result is None and time.monotonic() < deadline:
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
                if isinstance(message, dict) and message.get("id") == 2:
                    data = (message.get("result") or {}).get("data")
                    result = data[0] if isinstance(data, list) and data and isinstance(data[0], dict) else {}
    except OSError:
        result = None
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
    return result


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
