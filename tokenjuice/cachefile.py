"""Best-effort JSON cache files: read if valid, write atomically, never fail.

A cache that cannot be read or written only costs speed, so errors are swallowed.
"""

from __future__ import annotations

import os

from . import fastjson


def read(path: str):
    """The JSON value stored at `path`, or None if missing or unreadable."""
    try:
        with open(path, "rb") as handle:
            return fastjson.loads(handle.read())
    except (OSError, ValueError):
        return None


def write(path: str, data) -> None:
    """Write `data` as JSON via a temporary file and an atomic rename."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(temporary, "w", encoding="utf-8") as handle:
            handle.write(fastjson.dumps(data))
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass
