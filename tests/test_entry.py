"""The process entry (entry.run): the hook, wrap and reduce-json exit as soon as their output is
flushed, without tearing the interpreter down, and lose nothing by it; every other
command exits normally."""

import json
import subprocess
import sys

import pytest

#: Runs `tokenjuice ARGS` through entry.run with an exit handler that reports
#: whether the interpreter was finalized.
_RUN = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('finalized\\n'))\n"
    "sys.argv = ['tokenjuice', *sys.argv[1:]]\n"
    "from tokenjuice.entry import run\n"
    "run()\n"
)


def run(*args, stdin=b"", cwd=None):
    return subprocess.run([sys.executable, "-c", _RUN, *args], input=stdin, capture_output=True, cwd=cwd, timeout=60)


def test_the_hook_exits_at_once_with_its_whole_answer(workdir):
    payload = {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "git status"}}
    done = run(
        "hook", "cursor", "--wrap-launcher", f"{sys.executable} -m tokenjuice", stdin=json.dumps(payload).encode()
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["permission"] == "allow"
    assert b"finalized" not in done.stderr


@pytest.mark.parametrize("mode", [[], ["--raw"]])
def test_wrap_exits_at_once_with_every_byte_and_the_commands_code(workdir, mode):
    done = run("wrap", *mode, "--", "sh", "-c", "seq 1 200000; echo done >&2; exit 7", cwd=workdir)
    assert done.returncode == 7
    assert b"finalized" not in done.stderr
    if mode:
        assert done.stdout == b"".join(b"%d\n" % i for i in range(1, 200001))
        assert done.stderr == b"done\n"
    else:
        text = done.stdout.decode()
        assert text.startswith("exit 7\n1\n") and "\n200000\n" in text and "done" in text
        assert "tokenjuice cat" in text


def test_wrap_into_a_pipe_closed_early_keeps_the_commands_code(workdir):
    script = '"$0" -c "$1" wrap -- sh -c "seq 1 300000; exit 7" | head -c 10 >/dev/null; echo "${PIPESTATUS[0]}"'
    done = subprocess.run(
        ["/bin/bash", "-c", script, sys.executable, _RUN], capture_output=True, cwd=workdir, timeout=60
    )
    assert done.stdout == b"7\n", done.stderr


def test_reduce_json_exits_at_once_with_its_whole_answer(workdir):
    payload = {"toolName": "exec", "command": "seq 1 20000", "combinedText": "\n".join(map(str, range(20000)))}
    done = run("reduce-json", stdin=json.dumps(payload).encode(), cwd=workdir)
    assert done.returncode == 0
    assert "19999" in json.loads(done.stdout)["inlineText"]
    assert b"finalized" not in done.stderr
    done = run("reduce-json", "--trace", stdin=b"{", cwd=workdir)  # through click, an error answered as JSON
    assert done.returncode != 0 and "error" in json.loads(done.stdout)
    assert b"finalized" not in done.stderr


def test_other_commands_exit_normally(workdir):
    done = run("paths", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)
    assert done.stderr == b"finalized\n"


def test_the_hook_runs_without_the_cyclic_collector_and_wrap_with_it():
    """The hook's process skips the garbage collector's passes (~0.9 ms of its start-up,
    docs/performance.md); `wrap`, which holds outputs of any size, keeps it."""
    import subprocess
    import sys

    def collector_on(command, module, function):
        code = (
            f"import sys, gc; import tokenjuice.{module} as m; "
            f"m.{function} = lambda *a, **k: (print(gc.isenabled()), 0)[1]; "
            f"from tokenjuice.entry import run; sys.argv = ['tokenjuice', {command!r}, 'cursor']; run()"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
        return done.stdout.strip()

    assert collector_on("hook", "hosts.hook", "main") == "False"
    assert collector_on("cursor-pre-tool-use", "hosts.hook", "main") == "False"
    assert collector_on("reduce-json", "commands.reduce", "main_json") == "False"
    assert collector_on("wrap", "commands.wrap", "main") == "True"
