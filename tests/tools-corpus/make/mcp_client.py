#!/usr/bin/env python3
"""A minimal MCP client over stdio (newline-delimited JSON-RPC 2.0), for capturing
real `tools/call` results. Standard library only: it does not import the `mcp` SDK
nor anything of tokenjuice.

    with Server(["npx", "@modelcontextprotocol/server-memory"], env={...}) as s:
        s.tools()                       # the tools/list result
        result = s.call("read_graph", {})   # the whole tools/call `result` object

`save(result, path)` writes the result object as JSON (key order and every string
exactly as the server sent them; ensure_ascii off, two-space indent)."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import threading
from pathlib import Path

PROTOCOL = "2025-06-18"


class Server:
    def __init__(
        self, argv: list[str], env: dict[str, str] | None = None, cwd: str | None = None, stderr_log: str | None = None
    ) -> None:
        self.argv = argv
        self.env = os.environ | (env or {})
        self.cwd = cwd
        self.stderr_log = stderr_log
        self.next_id = 1
        self.info: dict = {}

    def __enter__(self) -> Server:
        err = open(self.stderr_log, "ab") if self.stderr_log else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, env=self.env, cwd=self.cwd
        )
        self.info = self.request(
            "initialize",
            {
                "protocolVersion": PROTOCOL,
                "capabilities": {},
                "clientInfo": {"name": "tools-corpus-capture", "version": "1"},
            },
        )
        self.notify("notifications/initialized")
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.terminate()
            self.proc.wait(5)

    def send(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict | None = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, **({"params": params} if params else {})})

    def request(self, method: str, params: dict, timeout: float = 120) -> dict:
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        box: dict = {}

        def read() -> None:
            while True:
                line = self.proc.stdout.readline()
                if not line:
                    box["eof"] = True
                    return
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue  # a server that logs to stdout
                if msg.get("id") == rid and ("result" in msg or "error" in msg):
                    box["msg"] = msg
                    return
                if "method" in msg and "id" in msg:  # a request from the server (roots/list, ...)
                    self.send(
                        {
                            "jsonrpc": "2.0",
                            "id": msg["id"],
                            "result": {"roots": []} if msg["method"] == "roots/list" else {},
                        }
                    )

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout)
        if "msg" not in box:
            raise RuntimeError(f"{self.argv[0]}: no answer to {method} ({'EOF' if box.get('eof') else 'timeout'})")
        if "error" in box["msg"]:
            raise RuntimeError(f"{method}: {box['msg']['error']}")
        return box["msg"]["result"]

    def tools(self) -> dict:
        return self.request("tools/list", {})

    def call(self, name: str, arguments: dict) -> dict:
        return self.request("tools/call", {"name": name, "arguments": arguments})


def dumps(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False, indent=2) + "\n"


def save(result: dict, path: Path, gzip_over: int = 200_000) -> Path:
    """Write the result; over `gzip_over` bytes as `<path>.gz` (what the corpus stores)."""
    data = dumps(result).encode()
    if len(data) > gzip_over:
        path = path.with_name(path.name + ".gz")
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
            out.write(data)
    else:
        path.write_bytes(data)
    return path
