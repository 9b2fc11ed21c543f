"""The real host CLIs (tests/hostclis.py): one line at the end of the run saying
which ran and which were skipped, and why."""

from __future__ import annotations

import hostclis


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    line = hostclis.summary()
    if line:
        terminalreporter.write_line(line)
