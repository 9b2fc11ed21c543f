"""Shared fixtures: every test runs with its own HOME, config, cache and data dirs,
so nothing reads or writes the developer's real tokenjuice state."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

#: Programs the tests expect the hooks to wrap. The rewrite leaves alone a command whose
#: name is neither a builtin nor on PATH (probably a function or alias of the agent's
#: shell: docs/never-wrapped.md), so each must be a program on PATH: any this machine
#: lacks gets a stub (exit 127, as "not found") in a folder appended to PATH for the
#: session — installed programs still come first.
STUBBED_PROGRAMS = [
    "git",
    "npm",
    "pnpm",
    "yarn",
    "npx",
    "pytest",
    "make",
    "env",
    "sort",
    "sleep",
    "python",
    "python3",
    "sh",
    "ls",
    "tail",
    "docker",
    "head",
    "cat",
    "touch",
    "stat",
    "curl",
    "server",
    "node",
    "vite",
    "vitest",
    "mytool",
    "jest",
    "tsc",
    "cargo",
    "go",
]


def _stub_missing_programs() -> None:
    import shutil
    import tempfile

    missing = [name for name in STUBBED_PROGRAMS if shutil.which(name) is None]
    if not missing:
        return
    import atexit

    folder = tempfile.mkdtemp(prefix="tokenjuice-test-bin-")
    atexit.register(shutil.rmtree, folder, True)  # also after Ctrl-C: nothing left in /tmp
    for name in missing:
        path = os.path.join(folder, name)
        with open(path, "w") as handle:
            handle.write(f"#!/bin/sh\necho '{name}: not installed (a tokenjuice test stub)' >&2\nexit 127\n")
        os.chmod(path, 0o755)
    os.environ["PATH"] = os.environ.get("PATH", os.defpath) + os.pathsep + folder


_stub_missing_programs()


def _interruptible_capture() -> None:
    """Ctrl-C stops the run, also during a test that runs `capture.run` in this process.

    capture forwards SIGINT to its command and carries on once the command ended:
    right for `wrap`, which then exits with the command's code, but in the test
    process it swallowed the Ctrl-C (the run went on). Here a SIGINT forwarded during
    a test is raised as KeyboardInterrupt once capture has put its handlers back."""
    import signal

    from tokenjuice import capture

    forward, restore = capture._Forwarder._forward, capture._Forwarder.restore

    def forwarding(self, signum, frame):
        if signum == signal.SIGINT:
            self.interrupted = True
        forward(self, signum, frame)

    def restoring(self):
        restore(self)
        if getattr(self, "interrupted", False):
            raise KeyboardInterrupt

    capture._Forwarder._forward = forwarding
    capture._Forwarder.restore = restoring


_interruptible_capture()


def _terminate_like_ctrl_c() -> None:
    """SIGTERM (a CI runner's timeout, `kill`) ends the run as Ctrl-C does, through
    every fixture's teardown, so no temporary user, folder or process is left behind
    (by default SIGTERM killed pytest on the spot)."""
    import signal

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, interrupt)
    # A shell without job control starts a background command (`sh script &`, a CI
    # step's `cmd &`) with SIGINT and SIGQUIT ignored; inherited, that made pytest
    # deaf to Ctrl-C and every wrap it starts keep them ignored (as it must: wrap
    # keeps what its parent ignored), failing the tests of signal forwarding.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGQUIT) == signal.SIG_IGN:
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)


_terminate_like_ctrl_c()


# -- the layers: what a plain `pytest` runs, and what it leaves to the full suite ---------
#
# `pyproject.toml` deselects `slow` by default. Besides the tests marked `slow` by hand,
# a test is slow (and carries a marker saying why) when it needs what a fresh machine
# lacks: a real host CLI (`hostclis.need…`, installed from npm on first use) or a
# throwaway second local user (the `intruder` fixture: root, useradd). The run ends
# with one line on what was left out and the command that runs it.

FULL_COMMAND = "python -m pytest -n auto -m 'slow or not slow'"
_LAYERS = {
    "hostcli": "real host CLIs from npm",
    "seconduser": "a second local user (root)",
}
_left_out: dict = {"count": 0, "kinds": set()}


_NEED = {"need", "need_codex", "need_gemini", "program", "codex_program", "gemini_script"}


def _needs_host_cli(item: pytest.Item) -> bool:
    """The test, a fixture it uses, or a function of its module calls
    `hostclis.need…` (which installs the host CLI from npm on first use)."""
    functions = [getattr(item, "function", None)]
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        for definition in info.name2fixturedefs.get(name, ()) if info else ():
            functions.append(definition.func)
    seen: set[object] = set()
    return any(_calls_host_cli(getattr(f, "__code__", None), getattr(f, "__globals__", {}), seen) for f in functions)


def _calls_host_cli(code, namespace: dict, seen: set[object]) -> bool:
    if code is None or code in seen:
        return False
    seen.add(code)
    names = set(code.co_names)
    if "hostclis" in names and names & _NEED:
        return True
    inner = [c for c in code.co_consts if hasattr(c, "co_names")]  # lambdas, nested functions
    called = [namespace[n].__code__ for n in names if callable(namespace.get(n)) and hasattr(namespace[n], "__code__")]
    return any(_calls_host_cli(c, namespace, seen) for c in inner + called)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    for item in items:
        layers = []
        if _needs_host_cli(item):
            layers.append("hostcli")
        if "intruder" in getattr(item, "fixturenames", ()):
            layers.append("seconduser")
        for layer in layers:
            item.add_marker(layer)
        if layers:
            item.add_marker("slow")


def pytest_keyboard_interrupt(excinfo):
    """Ctrl-C reaches pytest-xdist's workers at once, also when it was sent to pytest
    alone (not to its process group): otherwise each ran its test on, and xdist waited
    10 s for them before killing them."""
    if os.environ.get("PYTEST_XDIST_WORKER"):  # a worker: its own children are the tests'
        return
    import signal

    try:
        with open(f"/proc/self/task/{os.getpid()}/children") as handle:
            workers = [int(pid) for pid in handle.read().split()]
    except OSError:  # not Linux: xdist's own shutdown
        return
    for pid in workers:
        try:
            os.kill(pid, signal.SIGINT)
        except OSError:
            pass


def pytest_deselected(items):
    for item in items:
        if item.get_closest_marker("slow"):
            _left_out["count"] += 1
            _left_out["kinds"].update(layer for layer in _LAYERS if item.get_closest_marker(layer))


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: the controller prints the line
        workeroutput["left_out"] = {"count": _left_out["count"], "kinds": sorted(_left_out["kinds"])}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    left_out = getattr(node, "workeroutput", {}).get("left_out")
    if left_out and left_out["count"] > _left_out["count"]:  # every worker collects the same
        _left_out["count"] = left_out["count"]
        _left_out["kinds"].update(left_out["kinds"])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _left_out["count"] or hasattr(config, "workerinput"):
        return
    what = ", ".join(
        ["real shells, wheel builds, hostile outputs for every rule"] + [_LAYERS[k] for k in sorted(_left_out["kinds"])]
    )
    terminalreporter.write_line(
        f"not run: {_left_out['count']} tests of the slow layer ({what}; several minutes more): "
        f"{FULL_COMMAND} runs them, as CI does"
    )


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("home")
    for variable, sub in (
        ("HOME", ""),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_DATA_HOME", ".local/share"),
    ):
        monkeypatch.setenv(variable, str(home / sub) if sub else str(home))
    # tokenjuice's fallback store lives in $TMPDIR/tokenjuice-<uid>: one per test, not one per machine
    temp = home / "tmp"
    temp.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp))
    for variable in (
        "TOKENJUICE_HOME",
        "TOKENJUICE_CONFIG",
        "TOKENJUICE_NO_OMISSION",
        "TOKENJUICE_DEBUG",
        "TOKENJUICE_CURSOR",
        "TOKENJUICE_CURSOR_SKIP",
        "TOKENJUICE_CURSOR_SHELL",
        "CURSOR_HOME",
        "CLAUDE_CONFIG_DIR",
        "CLAUDE_PROJECT_DIR",
        "TOKENJUICE_TRUST_ALL",
        "TOKENJUICE_ARTIFACT_DIR",
        "TOKENJUICE_STATS",
        "TOKENJUICE_MAX_CAPTURE_BYTES",
    ):
        monkeypatch.delenv(variable, raising=False)
    return home


@pytest.fixture
def trust_all(monkeypatch):
    """Project layers apply without `tokenjuice trust` (what TOKENJUICE_TRUST_ALL=1 is for)."""
    monkeypatch.setenv("TOKENJUICE_TRUST_ALL", "1")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A clean current directory (not inside this repository)."""
    path = tmp_path / "work"
    path.mkdir()
    monkeypatch.chdir(path)
    return path


@pytest.fixture
def home(tmp_path, monkeypatch, workdir):
    """tokenjuice's data folder (TOKENJUICE_HOME) for this test: ledger, spool, output store."""
    path = tmp_path / "tjhome"
    monkeypatch.setenv("TOKENJUICE_HOME", str(path))
    return path


def tokenjuice(
    *args: str, input: bytes | str | None = None, cwd=None, env=None, timeout: float = 60
) -> subprocess.CompletedProcess:
    """Run the real CLI (`python -m tokenjuice`) in a subprocess."""
    if isinstance(input, str):
        input = input.encode()
    return subprocess.run(
        [sys.executable, "-m", "tokenjuice", *args],
        input=input,
        capture_output=True,
        cwd=cwd,
        env=env if env is not None else os.environ.copy(),
        timeout=timeout,
    )


def wrap_json(*command: str, options: tuple[str, ...] = (), **kwargs) -> tuple[dict, int]:
    """`tokenjuice wrap --format json [options] -- command…` → (payload, exit code)."""
    done = tokenjuice("wrap", "--format", "json", *options, "--", *command, **kwargs)
    assert done.stdout, done.stderr
    return json.loads(done.stdout), done.returncode


def git(*args: str, cwd) -> str:
    env = os.environ.copy()
    env.update(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.com",
    )
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    """A real git repository with staged, modified, deleted and untracked files."""
    path = tmp_path / "repo"
    path.mkdir()
    git("init", "-q", "-b", "main", cwd=path)
    for name in ("f1.txt", "f2.txt", "f3.txt"):
        (path / name).write_text(name + "\n")
    git("add", ".", cwd=path)
    git("commit", "-qm", "init", cwd=path)
    (path / "f1.txt").write_text("changed\n")
    (path / "f3.txt").unlink()
    (path / "n1.txt").write_text("new\n")
    git("add", "n1.txt", cwd=path)
    (path / "u1.txt").write_text("untracked\n")
    return path


def make_rule(root: Path, rule_id: str, body: str, suffix: str = ".toml") -> Path:
    path = root / (rule_id + suffix)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)
    return path


def rule_of(rule_id: str = "tool/x", layer: str = "builtin", json_style: bool = False, **data):
    """A validated Rule from TOML-shaped (or, with json_style, camelCase) fields."""
    from tokenjuice.fast.record import replace
    from tokenjuice.rules.patterns import compile_checked
    from tokenjuice.rules.schema import parse_rule

    rule, _ = parse_rule(
        data, rule_id, json_style=json_style, compile_pattern=lambda p, f: compile_checked(p, f, json_style)
    )
    return replace(rule, layer=layer, path=f"{rule_id}.toml")


def reduce_wire(rules, hint=None, trace=False, **execution_and_options):
    """Reduce with these rules (a Catalogue of them) and return the camelCase result."""
    from tokenjuice.commands.wire import result_to_wire
    from tokenjuice.model import Execution
    from tokenjuice.reduce.engine import Options, reduce
    from tokenjuice.rules.index import Catalogue

    option_names = {"classifier", "max_inline_chars", "raw", "no_omit", "facts"}
    options = {k: v for k, v in execution_and_options.items() if k in option_names}
    fields = {k: v for k, v in execution_and_options.items() if k not in option_names}
    if fields.get("argv") is not None:
        fields["argv"] = tuple(fields["argv"])
    catalogue = rules if isinstance(rules, Catalogue) else Catalogue.of(list(rules))
    return result_to_wire(reduce(Execution(**fields), catalogue, Options(hint=hint, **options)), trace=trace)
