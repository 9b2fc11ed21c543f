"""Where `wrap` records each run: one JSON line appended to a spool file.

Opening SQLite costs ~5 ms of imports per wrap, so the hot path only appends a
line (under a shared lock, so the ledger can take the file over safely). Readers
(stats, discover, doctor) read the database and the spool without changing
either; the wrap that finds the spool past `INGEST_AT_BYTES` folds it into the
database, as does `tokenjuice prune`.
`state.record` is what callers use: it never fails a wrap (any error means the run
is not recorded, with one line on stderr when TOKENJUICE_DEBUG=1) and it starts the
ingest, so this module never imports the ledger.
"""

from __future__ import annotations

import os

from .. import paths
from ..fast import fastjson

SPOOL_NAME = "ledger-spool.jsonl"
#: About 4,000 runs: the spool is folded into the database once it is this big.
INGEST_AT_BYTES = 1 << 20


def spool_path() -> str:
    return os.path.join(paths.data_dir(), SPOOL_NAME)


def append(run: dict[str, object]) -> int:
    """Append `run` to the spool (under a shared lock) and answer the spool's size;
    raises OSError when it cannot be written (`state.record` turns that into False)."""
    import fcntl

    line = (fastjson.dumps(run) + "\n").encode()
    paths.private_dir(paths.data_dir())
    while True:
        fd = os.open(spool_path(), os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_SH)
            # An ingest may have taken this file and deleted it while we waited
            # for the lock: the line would be lost, so open the new spool.
            if os.fstat(fd).st_nlink:
                os.write(fd, line)
                return os.fstat(fd).st_size
        finally:
            os.close(fd)
