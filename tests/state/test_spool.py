"""The spool (tokenjuice.state.spool): what a wrap appends before the ledger folds it in."""

import statistics
import time


def test_recording_costs_well_under_five_milliseconds(home, monkeypatch):
    from tokenjuice import state

    state.record({"record_id": "warm", "created_at": 0, "rule_id": "x"})
    timings = []
    for i in range(50):
        started = time.perf_counter()
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
        timings.append((time.perf_counter() - started) * 1000)
    assert statistics.median(timings) < 5
