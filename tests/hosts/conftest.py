"""The real host CLIs (tests/hostclis.py): one line at the end of the run saying
which ran and which were skipped, and why (under pytest-xdist, each worker hands
what it found to the controller, which prints the line)."""

from __future__ import annotations

import hostclis
import pytest


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # an xdist worker
        workeroutput["hostclis"] = {"found": dict(hostclis.FOUND), "missing": dict(hostclis.MISSING)}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    found = getattr(node, "workeroutput", {}).get("hostclis")
    if found:
        hostclis.FOUND.update(found["found"])
        hostclis.MISSING.update({h: why for h, why in found["missing"].items() if h not in hostclis.FOUND})


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    line = hostclis.summary()
    if line:
        terminalreporter.write_line(line)


@pytest.fixture
def codex_home(tmp_path, monkeypatch):
    """A Codex home of the test's own (CODEX_HOME); test_codex.py's also sets SHELL."""
    home = tmp_path / "codex-home"
    home.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(home))
    return home


@pytest.fixture
def gemini_home(tmp_path, monkeypatch):
    home = tmp_path / "gemini-home"
    (home / ".gemini").mkdir(parents=True)
    monkeypatch.setenv("GEMINI_CLI_HOME", str(home))
    for name in ("GEMINI_CLI_TRUST_WORKSPACE", "GEMINI_RESTRICTED_MODE", "GEMINI_CLI_TRUSTED_FOLDERS_PATH"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def codex_model(tmp_path):
    """The stand-in model server Codex talks to (tests/fixtures/hosts/tools/mock_openai.py),
    logging its requests to model.jsonl in the test's directory."""
    server = hostclis.MockModel(tmp_path / "model.jsonl")
    yield server
    server.close()
