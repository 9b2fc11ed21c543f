"""Real host CLIs for the tests that run them, at pinned versions.

Each CLI is installed from npm, once, into a cache folder the tests own
(`.cache/hostclis/<package>-<version>/` in the repository, ignored by git;
`TOKENJUICE_HOST_CLIS=<folder>` moves it, `TOKENJUICE_HOST_CLIS=off` turns
installing off), so the tests run on any machine that reaches npm.
`TOKENJUICE_TEST_<HOST>` (CLAUDE, CLAUDE_OLD, CODEX, GEMINI, COPILOT, OPENCODE)
names a program to use instead. A test that needs a CLI that cannot be installed
skips with the reason; `python tests/hostclis.py` installs them all (what .ci/run
does before the suite) and prints one line per CLI. None needs an account or the
network once installed (a stand-in model server on 127.0.0.1, or Gemini's own
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

REPO = Path(__file__).resolve().parent.parent
TOOLS = Path(__file__).resolve().parent / "fixtures" / "hosts" / "tools"
#: host -> (npm package, pinned version, the program in node_modules/.bin)
PINS: dict[str, tuple[str, str, str]] = {
    "claude": ("@anthropic-ai/claude-code", "2.1.331", "claude"),
    "claude-old": ("@anthropic-ai/claude-code", "2.1.120", "claude"),  # the last one without updatedToolOutput
    "codex": ("@openai/codex", "0.169.0", "codex"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
    "copilot": ("@github/copilot", "1.0.102", "copilot"),
    "opencode": ("opencode-ai", "1.18.33", "opencode"),
    # the reference MCP servers the hosts' non-shell tool tests call (issue 32)
    "mcp-filesystem": ("@modelcontextprotocol/server-filesystem", "2026.8.31", "mcp-server-filesystem"),
    "mcp-everything": ("@modelcontextprotocol/server-everything", "2026.8.31", "mcp-server-everything"),
}
#: Seconds one `npm install` may take.
INSTALL_TIMEOUT = 600
#: Why a CLI is missing, by host (filled as the tests ask; reported once at the end).
MISSING: dict[str, str] = {}
FOUND: dict[str, str] = {}


def cache_dir() -> Path | None:
    """Where the CLIs are installed, or None when installing is turned off."""
    setting = os.environ.get("TOKENJUICE_HOST_CLIS", "").strip()
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    return Path(setting) if setting else REPO / ".cache" / "hostclis"


def folder(host: str) -> Path | None:
    base = cache_dir()
    if base is None:
        return None
    package, version, _ = PINS[host]
    return base / f"{package.rpartition('/')[2]}-{version}"


def program(host: str) -> str | None:
    """The pinned CLI for `host` (installed now if it is not yet), or None with the
    reason in MISSING[host]."""
    variable = "TOKENJUICE_TEST_" + host.upper().replace("-", "_")
    named = os.environ.get(variable)
    if named:
        if os.access(named, os.X_OK) and os.path.isfile(named):
            FOUND[host] = named
            return named
        MISSING[host] = f"{variable}={named} is not an executable file"
        return None
    if host in MISSING:
        return None
    path = install(host)
    if path is not None:
        FOUND[host] = path
    return path


def install(host: str) -> str | None:
    """npm install the pinned package into its own cache folder (once: a finished
    install leaves a `.installed` mark; a lock keeps two processes from racing)."""
    package, version, name = PINS[host]
    target = folder(host)
    if target is None:
        MISSING[host] = "TOKENJUICE_HOST_CLIS=off"
        return None
    binary = target / "node_modules" / ".bin" / name
    mark = target / ".installed"
    if mark.exists() and os.access(binary, os.X_OK):
        return str(binary)
    npm = shutil.which("npm")
    if npm is None:
        MISSING[host] = "npm is not installed"
        return None
    import fcntl

    target.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if mark.exists() and os.access(binary, os.X_OK):
            return str(binary)
        try:
            done = subprocess.run(
                [
                    npm,
                    "install",
                    "--prefix",
                    str(target),
                    "--no-audit",
                    "--no-fund",
                    "--loglevel=error",
                    f"{package}@{version}",
                ],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=INSTALL_TIMEOUT,
                env=os.environ | {"npm_config_cache": str(target.parent / "npm-cache")},  # not the test's own HOME
                check=False,
            )
        except subprocess.TimeoutExpired:
            MISSING[host] = f"npm install {package}@{version} took over {INSTALL_TIMEOUT} s"
            return None
        if done.returncode != 0 or not os.access(binary, os.X_OK):
            last = (done.stderr.strip().splitlines() or ["no output"])[-1][:160]
            MISSING[host] = f"npm install {package}@{version} failed ({last})"
            return None
        mark.write_text(f"{package}@{version}\n")
    return str(binary)


def need(host: str) -> str:
    """The CLI's path, or skip the test saying why it is missing."""
    import pytest

    found = program(host)
    if found is None:
        package, version, _ = PINS[host]
        pytest.skip(f"{package}@{version} not available: {MISSING.get(host, 'not installed')}")
    return found


def codex_program() -> str | None:
    return program("codex")


def gemini_script() -> str | None:
    """Gemini's bundled script (run with node)."""
    found = program("gemini")
    if found is None or not shutil.which("node"):
        return None
    return os.path.realpath(found)


def need_codex() -> str:
    return need("codex")


def need_gemini() -> str:
    import pytest

    if not shutil.which("node"):
        pytest.skip("node is not installed: the Gemini CLI cannot run")
    need("gemini")
    script = gemini_script()
    assert script is not None
    return script


def summary() -> str | None:
    """One line on the real CLIs this run asked for: which ran, which were skipped and why."""
    if not FOUND and not MISSING:
        return None
    ran = ", ".join(f"{h} {PINS[h][1]}" for h in sorted(FOUND))
    skipped = "; ".join(f"{h}: {why}" for h, why in sorted(MISSING.items()))
    return f"host CLIs: ran {ran or 'none'}" + (f"; SKIPPED {skipped}" if skipped else "")


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
        deadline = time.monotonic() + 120  # a guard against a server that never starts, not a limit
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


if __name__ == "__main__":
    # Install every pinned CLI, in parallel; one line each (what .ci/run prints).
    from concurrent.futures import ThreadPoolExecutor

    started = time.monotonic()
    with ThreadPoolExecutor(len(PINS)) as pool:
        paths = dict(zip(PINS, pool.map(program, PINS), strict=True))
    for host, path in paths.items():
        package, version, _ = PINS[host]
        state = f"ready at {path}" if path else f"SKIPPED in the tests: {MISSING.get(host)}"
        print(f"host CLI {package}@{version}: {state}")
    print(f"host CLIs: {sum(1 for p in paths.values() if p)}/{len(PINS)} ready in {time.monotonic() - started:.0f} s")
