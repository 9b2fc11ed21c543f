"""`doctor --deep`: run the installed hook exactly as the host would, on a probe
command of tokenjuice's own (never one taken from a project's files), then run
what it answered and check the output and exit code. Probe runs are not counted
in the stats."""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .base import Host

PROBE_COMMAND = "sh -c 'echo tokenjuice-doctor-probe; exit 7'"
PROBE_MARK = b"tokenjuice-doctor-probe"


def probe(host: Host, hook_command: str) -> dict[str, Any]:
    """`doctor --deep`'s proof: run the installed hook command on a probe payload,
    then run what it answered, and report both. (Its imports are here because a
    host's hook reads PROBE_COMMAND on every call; only doctor runs a probe.)"""
    import json
    import subprocess
    import time

    payload = host.probe_payload(PROBE_COMMAND, os.getcwd())
    env = os.environ | {"TOKENJUICE_STATS": "off"}
    started = time.monotonic()
    try:
        hook = subprocess.run(
            host.probe_argv(hook_command),
            check=False,
            input=json.dumps(payload).encode(),
            capture_output=True,
            timeout=20,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "problem": "the hook did not answer within 20 s"}
    latency_ms = round((time.monotonic() - started) * 1000, 1)
    result: dict[str, Any] = {"ok": False, "hookLatencyMs": latency_ms, "hookExitCode": hook.returncode}
    try:
        answer = json.loads(hook.stdout)
    except ValueError:
        result["problem"] = (
            f"the hook answered {hook.stdout[:200]!r} (exit {hook.returncode}), not JSON; stderr: "
            + hook.stderr.decode(errors="replace")[:200]
        )
        return result
    rewritten = host.rewritten(answer) if isinstance(answer, dict) else None
    if rewritten is None:
        result["problem"] = (
            f"the hook left the probe command unchanged (answer {hook.stdout[:200]!r}); "
            "tokenjuice config list shows whether hook.enabled is off; your host's permission rules may ask about echo"
        )
        return result
    result["rewrittenCommand"] = rewritten
    try:
        ran = subprocess.run(
            ["/bin/sh", "-c", rewritten],
            check=False,
            capture_output=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            env=env,
        )
    except subprocess.TimeoutExpired:
        result["problem"] = "the rewritten command did not finish within 60 s"
        return result
    result["commandExitCode"] = ran.returncode
    if ran.returncode != 7 or PROBE_MARK not in ran.stdout:
        result["problem"] = (
            f"the rewritten probe command exited {ran.returncode} with output {ran.stdout[:200]!r}; "
            "expected exit 7 and tokenjuice-doctor-probe"
        )
        return result
    result["ok"] = True
    return result
