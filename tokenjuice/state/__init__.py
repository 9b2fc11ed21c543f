"""Local state: the savings ledger, raw-output artifacts, secret redaction."""

from __future__ import annotations


def record(run: dict[str, object], *, debug: bool = False) -> bool:
    """Append `run` to the ledger's spool, folding the spool into the ledger once it
    is past `spool.INGEST_AT_BYTES`; True when it was written. Never raises: recording
    must never fail a wrap (with `debug`, one line on stderr says why it was not)."""
    from . import spool

    try:
        if spool.append(run) >= spool.INGEST_AT_BYTES:
            from . import ledger

            ledger.ingest_now()
        return True
    except Exception as error:  # noqa: BLE001 - recording must never fail a wrap
        if debug:
            import sys

            sys.stderr.write(f"tokenjuice: run not recorded ({getattr(error, 'strerror', None) or error})\n")
        return False
