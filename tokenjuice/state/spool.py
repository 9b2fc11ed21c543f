"""Where `wrap` records each run: one JSON line appended to a spool file.

Opening SQLite costs ~5 ms of imports per wrap, so the hot path only appends a
line (under a shared lock, so the ledger can take the file over safely) and the
ledger ingests the spool the next time stats, discover or doctor read it.
Recording never fails a wrap: any error means the run is not recorded, with one
line on stderr when TOKENJUICE_DEBUG=1.
"""

from __future__ import annotations

import os
import sys

from .. import fastjson, paths

SPOOL_NAME = "ledger-spool.jsonl"


def enabled(settings_enabled: bool) -> bool:
    value = os.environ.get("TOKENJUICE_STATS", "").strip().lower()
    return settings_enabled and value not in ("0", "false", "no", "off")


def spool_path() -> str:
    return os.path.join(paths.data_dir(), SPOOL_NAME)


def record(run: dict) -> bool:
    """Append `run` to the spool; True when it was written."""
    import fcntl

    line = (fastjson.dumps(run) + "\n").encode()
    try:
        paths.private_dir(paths.data_dir())
        while True:
            fd = os.open(spool_path(), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)
                # An ingest may have taken this file and deleted it while we waited
                # for the lock: the line would be lost, so open the new spool.
                if os.fstat(fd).st_nlink:
                    os.write(fd, line)
                    return True
            finally:
                os.close(fd)
    except OSError as error:
        if os.environ.get("TOKENJUICE_DEBUG") == "1":
            sys.stderr.write(f"tokenjuice: run not recorded ({error.strerror or error})\n")
        return False
