"""Real host CLIs for the tests that run them, when they are installed (npm into
/work/host-clis/<host>, or on PATH; TOKENJUICE_TEST_<HOST> names a program).
Tests that need one skip with a visible reason when it is missing; none needs an
account or the network (a stand-in model server on 127.0.0.1 or Gemini's own
fake-responses mode)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

HOST_CLIS = Path(os.environ.get("TOKENJUICE_HOST_CLIS", "/work/host-clis"))
TOOLS = Path(__file__).resolve().parent / "fixtures" / "hosts" / "tools"


def codex_program() -> str | None:
    named = os.environ.get("TOKENJUICE_TEST_CODEX")
    candidates = [named, str(HOST_CLIS / "codex" / "node_modules" / ".bin" / "codex"), shutil.which("codex")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


def gemini_script() -> str | None:
    named = os.environ.get("TOKENJUICE_TEST_GEMINI")
    candidates = [named, str(HOST_CLIS / "gemini" / "node_modules" / "@google" / "gemini-cli" / "bundle" / "gemini.js")]
    found = next((c for c in candidates if c and os.path.isfile(c)), None)
    return found if found and shutil.which("node") else None


def need_codex() -> str:
    program = codex_program()
    if program is None:
        pytest.skip("Codex CLI not installed (npm install --prefix /work/host-clis/codex @openai/codex@0.169.0)")
    return program


def need_gemini() -> str:
    script = gemini_script()
    if script is None:
        pytest.skip(
            "Gemini CLI not installed (npm install --prefix /work/host-clis/gemini @google/gemini-cli@0.61.0) or no node"
        )
    return script


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class MockModel:
    """A stand-in model server from tests/fixtures/hosts/tools on a free port
    (mock_openai.py, a Responses-API and chat-completions stand-in, unless another
    script is named): it answers `RUN:<command>` with one shell call and logs
    every request to log, from which the tests read what the model was sent back.
    env adds variables (MOCK_BASH_DESCRIPTION=1 for hosts whose bash tool needs a
    description). Usable as a context manager."""

    def __init__(self, log: Path, script: str = "mock_openai.py", **env: str) -> None:
        self.port = free_port()
        self.log = log
        self.process = subprocess.Popen(
            [sys.executable, str(TOOLS / script), str(self.port)],
            env=os.environ | env | {"MOCK_LOG": str(log)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        self.close()
        raise RuntimeError("the stand-in model server did not start")

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(5)

    def __enter__(self) -> MockModel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def chat_tool_messages(log: Path) -> list[str]:
    """The contents of the `role: tool` messages (what the model read back from each
    command) in the chat-completions requests logged by mock_openai.py, each once:
    a client resends the whole history with every request."""
    seen: list[str] = []
    for line in log.read_text().splitlines():
        for message in (json.loads(line).get("body") or {}).get("messages") or []:
            if message.get("role") == "tool" and message["content"] not in seen:
                seen.append(message["content"])
    return seen


def codex_config(port: int) -> str:
    return f"""model = "mock-model"
model_provider = "mock"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.mock]
name = "mock"
base_url = "http://127.0.0.1:{port}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
supports_websockets = false
"""


def codex_exec(program: str, codex_home: Path, cwd: Path, prompt: str, env: dict[str, str]) -> list[dict]:
    """`codex exec --json` (hooks run without approval for this invocation); the
    completed command items."""
    done = subprocess.run(
        [program, "exec", "--skip-git-repo-check", "--json", "--dangerously-bypass-hook-trust", prompt],
        cwd=cwd,
        env=env | {"CODEX_HOME": str(codex_home), "MOCK_API_KEY": "x"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
    )
    items = []
    for line in done.stdout.decode(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        item = event.get("item") or {}
        if event.get("type") == "item.completed" and item.get("type") == "command_execution":
            items.append(item)
    return items


def codex_rpc(program: str, codex_home: Path, cwd: Path, requests: list[dict], env: dict[str, str]) -> dict:
    """Answers (by id) of `codex app-server` to JSON-RPC requests after initialize
    (tokenjuice's own client, the one `doctor codex --deep` uses)."""
    from tokenjuice.hosts.codex_trust import app_server

    return app_server(program, str(cwd), requests, env | {"CODEX_HOME": str(codex_home)}) or {}


def hooks_list(program: str, codex_home: Path, cwd: Path, env: dict[str, str]) -> dict:
    """What Codex itself lists for `cwd`, through the client `doctor codex --deep` uses."""
    from tokenjuice.hosts.codex_trust import hooks_list as listed_by_codex

    listed = listed_by_codex(program, str(cwd), env | {"CODEX_HOME": str(codex_home)})
    assert listed is not None, "codex app-server did not answer hooks/list"
    return listed
