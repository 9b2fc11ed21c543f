"""Where `wrap` records each run: one JSON line appended to a spool file.

Opening SQLite costs ~5 ms of imports per wrap, so the hot path only appends a
line (under a shared lock, so the ledger can take the file over safely). Readers
(stats, discover, doctor) read the database and the spool without changing
either; the wrap that finds the spool past `INGEST_AT_BYTES` folds it into the
database, as does `tokenjuice prune`.
Recording never fails a wrap: any error means the run is not recorded, with one
line on stderr when TOKENJUICE_DEBUG=1.
"""

from __future__ import annotations

import os
import sys

from .. import paths
from ..fast import fastjson

SPOOL_NAME = "ledger-spool.jsonl"
#: About 4,000 runs: the spool is folded into the database once it is this big.
INGEST_AT_BYTES = 1 << 20


def spool_path() -> str:
    return os.path.join(paths.data_dir(), SPOOL_NAME)


def record(run: dict[str, object], *, debug: bool = False) -> bool:
    """Append `run` to the spool; True when it was written."""
    import fcntl

    line = (fastjson.dumps(run) + "\n").encode()
    try:
        paths.private_dir(paths.data_dir())
        while True:
            fd = os.open(spool_path(), os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)
                # An ingest may have taken this file and deleted it while we waited
                # for the lock: the line would be lost, so open the new spool.
                if os.fstat(fd).st_nlink:
                    os.write(fd, line)
                    size = os.fstat(fd).st_size
                    break
            finally:
                os.close(fd)
        if size >= INGEST_AT_BYTES:
            from . import ledger

            ledger.ingest_now()
        return True
    except Exception as error:  # noqa: BLE001 - recording must never fail a wrap
        if debug:
            sys.stderr.write(f"tokenjuice: run not recorded ({getattr(error, 'strerror', None) or error})\n")
        return False
