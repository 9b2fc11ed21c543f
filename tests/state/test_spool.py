"""The spool (tokenjuice.state.spool): what a wrap appends before the ledger folds it in."""

import os
import time


def test_recording_is_one_append_and_no_ledger_work(home, monkeypatch):
    """What a wrap pays to record a run, counted (not timed): one open, one write of
    one line, no SQLite (the ledger folds the spool in later, in other commands)."""
    from tokenjuice import state
    from tokenjuice.state import ledger

    state.record({"record_id": "warm", "created_at": 0, "rule_id": "x"})
    opened, written = [], []
    real_open, real_write = os.open, os.write
    monkeypatch.setattr(os, "open", lambda path, *args, **kw: opened.append(path) or real_open(path, *args, **kw))
    monkeypatch.setattr(os, "write", lambda fd, data: written.append(data) or real_write(fd, data))
    monkeypatch.setattr(ledger, "ingest_now", lambda: (_ for _ in ()).throw(AssertionError("folded")))
    for i in range(50):
        assert state.record(
            {
                "record_id": f"r{i}",
                "created_at": time.time(),
                "source": "cli",
                "rule_id": "x",
                "family": "y",
                "raw_chars": 1,
                "reduced_chars": 1,
            }
        )
    assert len(opened) == 50 and len(written) == 50
    assert all(data.endswith(b"\n") and data.count(b"\n") == 1 for data in written)
