"""Plain helpers shared by test modules in several folders (`from helpers import …`).

Fixtures live in conftest.py; this module holds what is imported by name.
"""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from conftest import REPO, reduce_wire, rule_of, tokenjuice

from tokenjuice.hosts import launch

#: What install writes to start the hook of the installation under test
#: (hosts/launch.py): this interpreter without `site`, this checkout on sys.path.
HOOK_LAUNCHER = f"{sys.executable} -S -P -c '{launch.entry_without_site(str(REPO))}'"
#: What install writes into a host's config for it: the `tokenjuice-hook` launcher beside
#: this interpreter, whose shebang starts it the same way (`tokenjuice-hook <host> …`).
HOOK_SCRIPT = os.path.join(os.path.dirname(sys.executable), launch.HOOK_SCRIPT)

# -- reducing with one rule (tests/reduce) ---------------------------------------------


def make(rule_id="tool/x", layer="builtin", json_style=False, **fields):
    """A rule from TOML-shaped fields; filter lists may be given flat for brevity."""
    filters = {k: fields.pop(k) for k in ("skip_patterns", "keep_patterns", "pin_patterns") if k in fields}
    data = {"family": "tool-output", "match": {"argv0": ["tool"]}} | {k: v for k, v in fields.items() if v is not None}
    if filters:
        data["filters"] = filters
    return rule_of(rule_id, layer, json_style, **data)


FALLBACK = make(
    "generic/fallback", match={}, family="generic", counters=[{"name": "error", "pattern": r"\berror\b", "flags": "i"}]
)


def run(output, rule=None, exit_code=0, command="tool run", trace=False, **options):
    rules = [r for r in (rule, FALLBACK) if r]
    return reduce_wire(
        rules, hint="full output: RAW", trace=trace, command=command, combined=output, exit_code=exit_code, **options
    )


def lines(n, prefix="line"):
    return "\n".join(f"{prefix} {i:04d} with some padding to look like real output" for i in range(n)) + "\n"


# -- rule files (tests/rules, tests/commands) -----------------------------------------

MINIMAL = 'family = "demo"\n\n[match]\nargv0 = ["demo-tool"]\n'


def entry(catalogue, rule_id):
    """The match entry classification sees for `rule_id`, or None."""
    return next((rule for rule in catalogue.entries if rule.id == rule_id), None)


# -- the data folder: ledger and output store (tests/state, tests/commands) -----------

NOISY_FAILURE = ("sh", "-c", "seq 1 2000; echo 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'; exit 3")


def runs(home):
    tokenjuice("prune", "--format", "json")  # folds the spool into the ledger
    connection = sqlite3.connect(home / "tokenjuice.db")
    connection.row_factory = sqlite3.Row
    return connection.execute("SELECT * FROM runs ORDER BY created_at").fetchall()


def stored_id(stdout: bytes) -> str:
    trailer = stdout.decode().splitlines()[-1]
    assert " — full output: tokenjuice cat " in trailer, trailer
    return trailer.split("tokenjuice cat ")[1].split()[0].rstrip(")")  # a large output's `[--grep RE|…]` after


# -- signals to a real wrap process (tests/e2e) ------------------------------------------


#: How long a test waits for what must come (a line, an exit, a file) before it fails:
#: a guard against a hang, never a performance limit, so generous enough for a
#: machine many times slower than CI's.
HANG = 120


def signalled_wrap(command: list[str], signum: signal.Signals, timeout: float = HANG, ready=None) -> tuple[int, bytes]:
    """`tokenjuice wrap -- COMMAND` in a real process, sent signum once its command
    runs (wrap forwards signals from before it starts the command), or once the
    command created the file `ready` (after setting its trap): its exit code and
    stdout. A wrap that does not end on the signal fails the test by timing out."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tokenjuice", "wrap", "--", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if (ready is not None and os.path.exists(ready)) or (ready is None and _children(proc.pid)):
            break
        time.sleep(0.02)
    proc.send_signal(signum)
    out, _ = proc.communicate(timeout=timeout)
    return proc.returncode, out


def _children(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return handle.read().split()
    except OSError:  # not Linux: give it the second this helper always gave
        time.sleep(1.0)
        return ["?"]


# -- what an import costs (the hook's hot path) ------------------------------------------


def modules_loaded_by(code: str, setup: str = "") -> set[str]:
    """The modules a fresh interpreter loads while it runs code, not counting those
    setup (run first) already loaded."""
    script = (
        f"import sys; {setup or 'pass'}; before = set(sys.modules); {code}; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    return set(done.stdout.split())


#: What a hook answering for a tool tokenjuice never compacts must not load.
HEAVY_MODULES = frozenset(
    {
        "tokenjuice.settings",
        "tokenjuice.compact",
        "tokenjuice.rules.index",
        "tokenjuice.reduce.engine",
        "tokenjuice.shell.syntax",
        "tokenjuice.shell.rewrite",
    }
)


def hook_modules(host: str, payload: dict, cwd) -> tuple[object, set[str]]:
    """`tokenjuice hook HOST`'s answer to `payload`, and the tokenjuice modules it loaded."""
    probe = (
        "import sys\n"
        "from tokenjuice.entry import main\n"
        f"main(['hook', {host!r}])\n"
        "sys.stdout.flush()\n"
        "sys.stderr.write('LOADED ' + ' '.join(m for m in sys.modules if m.startswith('tokenjuice')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], input=json.dumps(payload).encode(), capture_output=True, cwd=cwd, check=False
    )
    return json.loads(done.stdout), set(done.stderr.decode().split("LOADED ", 1)[1].split())


def on_a_terminal(argv: list[str], *, env=None, cwd=None, timeout: float = 120) -> tuple[int, str]:
    """Run `argv` with stdin, stdout and stderr on a pseudo-terminal, as a person at a
    terminal runs it: (exit code, everything it wrote, CRs and escapes included)."""
    import os
    import pty
    import select
    import signal

    pid, fd = pty.fork()
    if pid == 0:  # the child: its stdio is the terminal
        try:
            if cwd is not None:
                os.chdir(cwd)
            os.execvpe(argv[0], argv, env if env is not None else os.environ)
        finally:
            os._exit(127)
    out = b""
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], timeout)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                break
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            out += data
    finally:
        os.close(fd)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode("utf-8", errors="replace")


# -- cost without a clock limit -------------------------------------------------------
#
# No test asserts an absolute time: a machine 10× slower than CI's, or one shared with
# other work, must pass every test. A limit that guards against super-linear work is
# asserted on the work done (calls, bytes read, a budget tokenjuice reports) or, where
# no count fits, on the ratio of two CPU costs measured in the same test, which a slow
# or loaded machine scales alike. Absolute times belong in `python -m tokenjuice.bench`.


def cost_ratio(work, baseline, runs: int = 3) -> float:
    """The CPU time `work()` takes over the CPU time `baseline()` takes, each the
    best of `runs`, measured in turn (this process's CPU time, not the wall clock)."""
    spent = [float("inf"), float("inf")]
    for _ in range(runs):
        for which, call in enumerate((work, baseline)):
            started = time.process_time()
            call()
            spent[which] = min(spent[which], time.process_time() - started)
    return spent[0] / max(spent[1], 1e-6)


def children_cpu_seconds(call) -> float:
    """The CPU time (user + system) of the child processes `call()` starts and waits
    for: what a subprocess cost, which does not grow when the machine is busy."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    call()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
