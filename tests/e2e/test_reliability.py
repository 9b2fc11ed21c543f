"""The adversarial layer: random commands, hostile payloads, mutated outputs, faults.

The slowest tests carry the `slow` marker: plain `pytest` skips them, the README's
full-suite command and CI run them.
"""

import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys

import pytest
from conftest import REPO, make_rule, reduce_wire, tokenjuice
from helpers import HANG, children_cpu_seconds, cost_ratio, signalled_wrap
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tokenjuice.hosts import cursor
from tokenjuice.hosts import hook as host_hook
from tokenjuice.reduce.render import shown
from tokenjuice.rules import loader
from tokenjuice.rules.index import Catalogue
from tokenjuice.rules.verify import unexplained_lines

# -- random shell commands behave the same through the hook and wrap --raw -------------

SHELLS = [s for s in ("bash", "dash", "zsh", "fish") if shutil.which(s)]
SAFE_TEXT = st.lists(
    st.sampled_from(
        list("abc XYZ-_.,:/=+%@") + ["é", "日本", "🎉", "\t", "'", '"', "\\", "$", "*", "?", "!", "#", "&&", ";", "|"]
    ),
    max_size=12,
).map("".join)


def _posix_word(draw, text: str) -> str:
    style = draw(st.sampled_from(["single", "double", "escaped"]))
    if style == "single":
        return "'" + text.replace("'", "'\\''") + "'"
    if style == "double":
        return '"' + "".join("\\" + c if c in '"$`\\' else c for c in text) + '"'
    return "".join("\\" + c if not c.isalnum() else c for c in text) or "''"


def _fish_word(draw, text: str) -> str:
    if draw(st.booleans()):
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return "".join("\\" + c if not c.isalnum() else c for c in text) or "''"


@st.composite
def commands(draw, shell: str):
    fish = shell == "fish"
    word = (lambda t: _fish_word(draw, t)) if fish else (lambda t: _posix_word(draw, t))
    pieces = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(
            st.sampled_from(
                [
                    "echo",
                    "printf",
                    "subst",
                    "var",
                    "pipe",
                    "stderr",
                    "glob",
                    "heredoc",
                    "status",
                    "multiline",
                    "unicode",
                ]
            )
        )
        text = draw(SAFE_TEXT)
        if kind == "echo":
            piece = f"echo {word(text)} {word(draw(SAFE_TEXT))}"
        elif kind == "printf":
            piece = f"printf '%s|%s\\n' {word(text)} {word(draw(SAFE_TEXT))}"
        elif kind == "subst":
            piece = f"echo ({'echo ' + word(text)})" if fish else f'echo "$(echo {word(text)})" `echo x`'
        elif kind == "var":
            piece = f"set X {word(text)}; echo $X" if fish else f'X={word(text)}; echo "$X" $HOME'
        elif kind == "pipe":
            piece = f"printf '%s\\n' {word(text)} b a | sort | tr a-z A-Z"
        elif kind == "stderr":
            piece = f"echo {word(text)} >&2; echo out"
        elif kind == "glob":
            piece = (
                "echo /definitely-missing-dir/*.nothing"
                if not fish
                else "echo /definitely-missing-dir/*.nothing 2>/dev/null; true"
            )
        elif kind == "heredoc" and not fish:
            piece = f"cat <<'EOF'\n{text.replace(chr(10), ' ')} $HOME `x`\nEOF"
        elif kind == "status":
            piece = draw(st.sampled_from(["true", "false || echo recovered", "true && echo ok"]))
        elif kind == "multiline":
            piece = f"echo one\necho {word(text)}"
        else:
            piece = "echo héllo wörld 日本語 🎉"
        pieces.append(piece)
    connector = draw(st.sampled_from(["; ", " && ", "\n"]))
    command = connector.join(pieces)
    if draw(st.booleans()):
        command += f"; sh -c 'exit {draw(st.integers(0, 7))}'"
    return command


def _hook_rewrite(command: str, shell_path: str, env: dict) -> str | None:
    answer = host_hook.respond(
        cursor.Cursor(),
        {"tool_name": "Shell", "tool_input": {"command": command, "shell": shell_path}},
        f"{sys.executable} -m tokenjuice",
        env,
    )
    if "updated_input" not in answer:
        return None  # left alone (it changes the shell's state): it runs exactly as written
    return answer["updated_input"]["command"].replace(" wrap --source cursor", " wrap --raw --source cursor", 1)


@pytest.mark.slow
@pytest.mark.parametrize("shell", SHELLS)
def test_random_commands_run_identically_through_the_hook(shell, tmp_path):
    shell_path = shutil.which(shell)
    env = os.environ | {"HOME": str(tmp_path), "SHELL": shell_path, "TOKENJUICE_CURSOR_SHELL": ""}

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(commands(shell))
    def check(command):
        rewritten = _hook_rewrite(command, shell_path, env)
        if rewritten is None:
            return

        def run(line):
            return subprocess.run(
                [shell_path, "-c", line],
                capture_output=True,
                env=env,
                cwd=tmp_path,
                stdin=subprocess.DEVNULL,
                timeout=30,
            )

        direct, wrapped = run(command), run(rewritten)
        assert (wrapped.stdout, wrapped.stderr, wrapped.returncode) == (
            direct.stdout,
            direct.stderr,
            direct.returncode,
        ), command

    check()


# -- the hook answers valid JSON whatever it is fed -------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
payloads = st.one_of(
    st.binary(max_size=300),
    json_values.map(lambda v: json.dumps(v).encode()),
    st.fixed_dictionaries(
        {
            "tool_name": st.sampled_from(["Shell", "Read", 7, None]),
            "tool_input": st.one_of(
                json_values,
                st.fixed_dictionaries(
                    {
                        "command": st.one_of(st.text(max_size=200), json_values),
                        "shell": st.one_of(st.text(max_size=10), st.none()),
                        "cwd": st.one_of(st.text(max_size=10), st.integers()),
                    }
                ),
            ),
        }
    ).map(lambda v: json.dumps(v).encode()),
)


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(payloads)
def test_hook_always_answers_one_json_object(payload):
    stdout = io.StringIO()

    class Stdin:
        buffer = io.BytesIO(payload)

        @staticmethod
        def isatty():
            return False

    original = (host_hook.sys.stdin, host_hook.sys.stdout)
    host_hook.sys.stdin, host_hook.sys.stdout = Stdin, stdout
    try:
        assert host_hook.main(["cursor", "--wrap-launcher", "tokenjuice"]) == 0
    finally:
        host_hook.sys.stdin, host_hook.sys.stdout = original
    answer = json.loads(stdout.getvalue())
    assert isinstance(answer, dict) and stdout.getvalue().count("\n") == 1


@pytest.mark.parametrize(
    "payload",
    [
        b"",
        b"\xff" * 1000,
        b"null",
        b"[" * 100_000,
        b'{"tool_name":"Shell"}',
        json.dumps({"tool_name": "Shell", "tool_input": {"command": "x" * 2_000_000}}).encode(),
    ],
)
def test_the_real_hook_process_never_fails(workdir, payload):
    done = tokenjuice("cursor-pre-tool-use", input=payload)
    assert done.returncode == 0 and json.loads(done.stdout) == {} and not done.stderr
    # and costs about what an empty payload costs (measured: ≤ 1.6× its CPU), on any machine
    hostile = children_cpu_seconds(lambda: tokenjuice("cursor-pre-tool-use", input=payload))
    plain = min(children_cpu_seconds(lambda: tokenjuice("cursor-pre-tool-use", input=b"{}")) for _ in range(2))
    assert hostile < 5 * plain, (hostile, plain)


# -- every rule survives hostile output and invents nothing ----------------------------

BUILTIN = sorted(loader.load_layer(loader.BUILTIN, loader.builtin_root())[0], key=lambda r: r.rule.id)
ALL_RULES = Catalogue.of(sorted([r.rule for r in BUILTIN], key=lambda r: (r.id == "generic/fallback", r.id)))


def _mutations(text: str, rng: random.Random) -> list[str]:
    lines = text.splitlines() or [""]
    long_line = rng.choice(lines) * (100_000 // max(1, len(rng.choice(lines)) or 1) + 1)
    binary = bytes(rng.randrange(256) for _ in range(2000)).decode("utf-8", errors="replace")
    return [
        "",
        text.replace("\n", "\r"),
        text.replace("\n", "\r\n"),
        long_line[:100_000] + "\n" + text,
        "".join(f"\x1b[{rng.randrange(0, 108)}m{c}" for c in text[:3000]) + "\x1b[",
        binary + text[: len(text) // 2],
        "\n".join(rng.sample(lines, len(lines))),
        "\x00".join(lines[:200]),
        text * 3,
    ]


@pytest.mark.slow
@pytest.mark.parametrize("loaded", BUILTIN, ids=lambda r: r.rule.id)
def test_every_rule_survives_hostile_output(loaded):
    rng = random.Random(loaded.rule.id)
    rule = loaded.rule
    for example in loaded.examples[:2]:
        for output in _mutations(example.output, rng):
            for exit_code in (0, 1):
                result = reduce_wire(
                    ALL_RULES,
                    hint="RAW",
                    command=example.command,
                    combined=output,
                    exit_code=exit_code,
                    classifier=rule.id,
                )
                text = result["inlineText"]
                assert unexplained_lines(output, text, rule) == [], (rule.id, output[:200])
                # never longer than the input as it would be shown (control bytes escaped)
                printed = max(result["stats"]["rawChars"], len(shown(output)))
                assert len(text) <= printed + 400, (rule.id, len(text), printed)


@pytest.mark.parametrize("loaded", BUILTIN, ids=lambda r: r.rule.id)
def test_every_rule_handles_a_100k_char_line_quickly(loaded):
    """Two lines of 128,000 characters cost at most 50× the CPU of the same text in
    lines of 128 (measured: 0.15–10×); a pattern that backtracks over a long line
    would cost thousands of times more, on any machine."""
    part = "x" * 99 + " error: FAIL at src/a.c:12:4 "
    line = part * 1000

    def reduce(text: str):
        return lambda: reduce_wire(
            ALL_RULES,
            command=loaded.examples[0].command if loaded.examples else "x",
            combined=text,
            exit_code=1,
            classifier=loaded.rule.id,
        )

    short = "\n".join([part] * 1000)
    ratio = cost_ratio(reduce(line + "\n" + line), reduce(short + "\n" + short), runs=2)
    assert ratio < 50, (loaded.rule.id, ratio)


# -- wrap under faults -----------------------------------------------------------------


def test_child_closing_stdout_early(workdir):
    done = tokenjuice("wrap", "--", "sh", "-c", "echo before; exec 1>&-; sleep 0.3; echo after-on-stderr >&2; exit 4")
    assert done.returncode == 4
    assert b"before" in done.stdout and b"after-on-stderr" in done.stdout


def test_a_child_that_never_ends_is_interrupted_promptly(workdir):
    code, out = signalled_wrap(["sleep", "300"], signal.SIGINT)  # promptly: not after 300 s
    assert code == 128 + signal.SIGINT
    assert b"killed by SIGINT" in out


@pytest.mark.slow
def test_a_gigabyte_of_output_is_drained_with_bounded_memory(workdir):
    from tokenjuice.bench import run_once  # measures from a small parent: see its _RUNNER

    _, peak_kib, code, out = run_once(
        [
            sys.executable,
            "-m",
            "tokenjuice",
            "wrap",
            "--",
            "sh",
            "-c",
            "yes 'line of output from a chatty build step' | head -c 1073741824; echo END; exit 9",
        ],
        capture=True,
    )
    assert code == 9
    assert b"END" in out and b"of output skipped here" in out
    assert peak_kib < 150 * 1024, f"peak {peak_kib // 1024} MiB"  # its speed is the benchmark's (docs/performance.md)


def test_tee_streams_output_while_the_command_runs(workdir):
    """`first` is read while the command waits for the test to let it go on."""
    gate = workdir / "gate"
    script = f"echo first; while [ ! -e {gate} ]; do sleep 0.02; done; echo second"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tokenjuice", "wrap", "--tee", "--", "sh", "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        first = proc.stderr.readline()  # a wrap that did not stream would never answer: the guard below
    finally:
        gate.touch()
    assert first == b"first\n"
    out, _ = proc.communicate(timeout=HANG)
    assert out == b"first\nsecond\n"


def test_a_catastrophic_project_pattern_cannot_hang_wrap(repo, trust_all):
    make_rule(
        repo / ".tokenjuice" / "rules",
        "demo/slow",
        'family = "demo"\npriority = 1\n[match]\nargv0 = ["python3"]\n[filters]\nskip_patterns = ["^(a|aa)+$"]\n',
    )
    done = tokenjuice(
        "wrap", "--", "python3", "-c", "print(('a' * 34 + 'b\\n') * 60 + '\\n'.join(map(str, range(100))))", cwd=repo
    )
    assert done.returncode == 0  # and the budget tokenjuice enforces is reported:
    assert b"demo/slow" in done.stdout and b"timed out; output left unreduced" in done.stdout


def test_the_readme_test_commands_are_the_fast_loop_and_what_ci_runs():
    """The README shows two: the fast default (no -m: pyproject.toml deselects the slow
    layer) and the full suite, which .ci/run runs verbatim."""
    from conftest import FULL_COMMAND

    readme = (REPO / "README.md").read_text()
    ci = (REPO / ".ci" / "run").read_text()
    commands = [line for line in readme.splitlines() if "pytest" in line and line.startswith("python3")]
    fast, full = commands[:2]
    assert "-m '" not in fast and fast.endswith("pytest -n auto")
    assert "slow or not slow" in full and full in ci and FULL_COMMAND in full
