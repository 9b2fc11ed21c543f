"""`python -m tokenjuice.bench`: how fast are the paths paid on every command?

Absolute times drift on shared machines, so every figure is also given as a ratio
to `floor_ms`: the same interpreter running `-c pass`, measured in the same run,
interleaved with the other measurements. Medians over several runs after a
warm-up; the start-up figures (floor, hook, wrap -- true) over at least
STARTUP_RUNS. `--quick` (used by CI) shrinks sizes and runs so the script cannot
rot; it asserts nothing.

Figures:
- floor_ms: `python -c pass`
- hook_ms: the hook as `install cursor` writes it (the `tokenjuice-hook` launcher
  whose shebang starts the venv's interpreter on the entry point, see
  hosts/launch.py) answering one Shell payload;
  hook_script_ms: the same through the console script, for comparison
- wrap_true_ms: `tokenjuice wrap -- true`
- reduce_<size>: `tokenjuice reduce-json` on a real-shaped log (test runner, compiler
  and download lines with ANSI colour) — wall time and peak memory
- linearity: (time of the largest ÷ time of the second largest) ÷ (size ratio)
- wrap_flood: `wrap` of a command writing 100 MiB, against the same command
  writing to /dev/null — wall time ratio and wrap's peak memory. Two producers:
  `yes | head` (the worst case: ~2 GB/s, so wrap's fixed start-up and reduction
  costs alone exceed half of the baseline) and a Python program printing log
  lines (a chatty build or test run). `| cat > /dev/null` is measured alongside:
  what any reader of a pipe costs on the machine, a floor wrap cannot go below
- raw_flood: `tokenjuice wrap --raw -- cat FILE > /dev/null` against
  `cat FILE > /dev/null`, FILE holding 1 GiB (`--quick`: 64 MiB, where wrap's
  start-up alone exceeds the baseline) of random bytes, in the page cache. --raw
  pipes nothing: the child writes to wrap's own stdout, so all wrap may add is
  its start-up and the wait
- stand-ins (`--stand-ins`, alone): what each hot-path stand-in for a standard-library
  module saves (docs/performance.md), as fresh `python -S -P` processes each doing
  one thing, interleaved with `-c pass`: `import json` against `fast/fastjson.py`
  loading a payload; `dataclasses` against `fast/record.py` declaring 20 frozen
  5-field records; `import re` against `fast/lazyre.py`, and compiling every
  pattern the reducer declares (what compiling them at import would cost every
  wrap, against the few one output uses); and which of json, re and dataclasses
  the hook and `wrap` load anyway
- against (with `--against PYTHON`): the hook and `wrap -- true` of another
  installation (an older checkout's venv, say), measured in the same interleaved
  loop with its own floor, so "no latency regression" is a comparison made under
  the same load, not two numbers from different hours. The other installation's
  hook is started as its installer writes it, through the `cursor-pre-tool-use`
  name every version answers to
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

from .hosts import launch, manage
from .shell.syntax import join

KIB = 1024
MIB = 1024 * KIB
TARGETS = {
    "hook": 2.0,
    "wrap_true": 3.0,
    "reduce_seconds": 1.0,
    "linearity": 1.25,
    "reduce_peak_mib": 150,
    "flood_ratio": 1.5,
    "flood_peak_mib": 100,
    "raw_flood_ratio": 1.3,
}


def tokenjuice_command() -> list[str]:
    """The installed console script next to this interpreter (what Cursor runs),
    else `python -m tokenjuice`."""
    script = os.path.join(os.path.dirname(sys.executable), "tokenjuice")
    if os.path.isfile(script) and os.access(script, os.X_OK):
        return [script]
    found = shutil.which("tokenjuice")
    return [found] if found else [sys.executable, "-m", "tokenjuice"]


#: Spawns the measured command and reports its time and peak memory. On Linux a
#: child's ru_maxrss starts from the resident size of the process that spawned it
#: (the high-water mark survives vfork and exec), so measuring from a big parent,
#: such as a long pytest run, would report the parent; this small runner is the
#: parent instead.
_RUNNER = """
import os, sys, time
devnull = os.open(os.devnull, os.O_WRONLY)
started = time.perf_counter()
pid = os.posix_spawnp(sys.argv[1], sys.argv[1:], os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 2)])
_, status, usage = os.wait4(pid, 0)
elapsed = (time.perf_counter() - started) * 1000
os.write(2, f"{elapsed} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}".encode())
"""


def run_once(argv: list[str], stdin: bytes | None = None, capture: bool = False) -> tuple[float, int, int, bytes]:
    """(wall ms, peak RSS in KiB, exit code, stdout if `capture`) of one run of `argv`
    (stderr discarded)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _RUNNER, *argv],
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    out, report = proc.communicate(stdin)
    try:
        elapsed, peak, code = report.split()
        return float(elapsed), int(peak), int(code), out or b""
    except ValueError:
        raise RuntimeError(f"could not measure {argv[0]}: {report.decode(errors='replace')}") from None


def real_shaped_log(size: int, seed: int = 7) -> str:
    """Deterministic output mixing a test run, a compiler and a package download."""
    rng = random.Random(seed)  # noqa: S311 - a repeatable benchmark input, not a secret
    green, red, bold, reset = "\x1b[32m", "\x1b[31m", "\x1b[1m", "\x1b[0m"
    lines: list[str] = []
    total = 0
    i = 0
    while total < size:
        i += 1
        kind = rng.random()
        if kind < 0.45:
            line = (
                f"tests/test_module_{i % 97}.py::test_case_{i} {green}PASSED{reset}"
                f"{' ' * rng.randint(1, 20)}[{i % 100:3d}%]"
            )
        elif kind < 0.65:
            line = (
                f"{bold}src/module_{i % 53}.c:{rng.randint(1, 900)}:{rng.randint(1, 80)}:{reset} "
                f"\x1b[35mwarning:\x1b[0m unused variable 'tmp_{i}' [-Wunused-variable]"
            )
        elif kind < 0.85:
            done = rng.randint(1, 100)
            line = (
                f"  Downloading package_{i}-{rng.randint(1, 9)}.{rng.randint(0, 20)}.0-py3-none-any.whl "
                f"({rng.randint(10, 999)} kB)\r  {'━' * (done // 4)} {done}%"
            )
        elif kind < 0.995:
            line = f"   Compiling crate_{i % 211} v0.{rng.randint(1, 30)}.{rng.randint(0, 9)}"
        else:
            line = f"{red}E       AssertionError: assert {rng.randint(1, 9)} == {rng.randint(10, 99)}{reset}"
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines) + "\n"


def other_installation(python: str) -> dict[str, list[str]]:
    """The floor, hook and `wrap -- true` commands of the installation whose
    interpreter is `python` (a venv with a `tokenjuice` script beside it)."""
    script = os.path.join(os.path.dirname(python), "tokenjuice")
    if not (os.path.isfile(script) and os.access(script, os.X_OK)):
        raise SystemExit(f"bench: no tokenjuice script beside {python}; pass the python of a venv tokenjuice is in")
    hook_args = ["cursor-pre-tool-use", "--wrap-launcher", join([script])]
    return {
        "floor": [python, "-c", "pass"],
        "hook": (launch.direct_argv(join([script])) or [script]) + hook_args,
        "wrap_true": [script, "wrap", "--", "true"],
    }


#: Runs at least for the start-up figures (floor, hook, wrap -- true), --quick too: at 3
#: the hook's ratio swung from 1.12x to 1.38x between runs of one commit on a busy machine.
STARTUP_RUNS = 25


def measure(sizes: list[int], runs: int, flood_mib: int, raw_mib: int, against: str | None = None) -> dict[str, Any]:
    manage.compile_bytecode()  # as an installed wheel has it, whatever PYTHONDONTWRITEBYTECODE says
    tj = tokenjuice_command()
    floor = [sys.executable, "-c", "pass"]
    payload = json.dumps(
        {
            "hook_event_name": "preToolUse",
            "tool_name": "Shell",
            "conversation_id": "bench",
            "tool_input": {"command": "git status --short", "cwd": os.getcwd()},
        }
    ).encode()
    hook_args = ["hook", "cursor", "--wrap-launcher", join(tj)]
    hook_script = tj + hook_args
    script = launch.write_hook_script(join(tj))  # the tokenjuice-hook launcher, as install writes it
    if script:
        hook = [script, "cursor", "--wrap-launcher", join(tj)]
    else:
        hook = (launch.direct_argv(join(tj)) or tj) + hook_args
    wrap_true = tj + ["wrap", "--", "true"]

    commands = {
        "floor": (floor, None),
        "hook": (hook, payload),
        "hook_script": (hook_script, payload),
        "wrap_true": (wrap_true, None),
    }
    if against:
        other = other_installation(against)
        commands |= {f"against_{name}": (argv, payload if name == "hook" else None) for name, argv in other.items()}
    samples: dict[str, list[float]] = {name: [] for name in commands}
    for argv, stdin in commands.values():  # warm-up, builds caches
        run_once(argv, stdin)
    for _ in range(max(runs, STARTUP_RUNS)):  # a few ms each: enough runs that the ratio holds still
        for name, (argv, stdin) in commands.items():
            samples[name].append(run_once(argv, stdin)[0])
    result: dict[str, Any] = {name: round(statistics.median(values), 2) for name, values in samples.items()}
    floor_ms = result["floor"]
    compared = None
    if against:
        other_floor = result["against_floor"]
        compared = {
            "python": against,
            "floor_ms": other_floor,
            "hook_ms": result["against_hook"],
            "hook_x": round(result["against_hook"] / other_floor, 2),
            "wrap_true_ms": result["against_wrap_true"],
            "wrap_true_x": round(result["against_wrap_true"] / other_floor, 2),
        }

    reduce: dict[str, dict[str, Any]] = {}
    reduce_runs = max(1, runs // 4)
    for size in sizes:
        log = real_shaped_log(size)
        body = json.dumps({"toolName": "exec", "command": "pytest -q", "combinedText": log, "exitCode": 1}).encode()
        timings, peaks = [], []
        for _ in range(reduce_runs):
            elapsed, peak, _, _ = run_once(tj + ["reduce-json"], body)
            timings.append(elapsed)
            peaks.append(peak)
        reduce[_label(size)] = {
            "ms": round(statistics.median(timings), 1),
            "peak_mib": round(max(peaks) / 1024, 1),
            "bytes": len(log.encode()),
        }
    largest, second = sizes[-1], sizes[-2]
    linearity = (reduce[_label(largest)]["ms"] / reduce[_label(second)]["ms"]) / (largest / second)

    producers = {
        "yes": f"yes 'INFO  [builder] compiling module 00042 of 00100 ... ok' | head -c {flood_mib * MIB}",
        "log": f'{sys.executable} -c "import sys\nw = sys.stdout.write\nfor i in range({flood_mib * MIB // 64}): '
        f"w('INFO  [builder] step %07d compiled module ok in 12ms ......\\n' % i)\"",
    }
    floods = {}
    for name, script in producers.items():
        timings, nulls, pipes, peaks = [], [], [], []
        for _ in range(max(1, runs // 4)):
            elapsed, peak, _, _ = run_once(tj + ["wrap", "--", "sh", "-c", script])
            timings.append(elapsed)
            peaks.append(peak)
            nulls.append(run_once(["sh", "-c", f"{script} > /dev/null"])[0])
            pipes.append(run_once(["sh", "-c", f"{script} | cat > /dev/null"])[0])
        measured = {
            "mib": flood_mib,
            "wrap_ms": round(statistics.median(timings), 1),
            "devnull_ms": round(statistics.median(nulls), 1),
            "pipe_ms": round(statistics.median(pipes), 1),
            "peak_mib": round(max(peaks) / 1024, 1),
        }
        measured["ratio"] = round(measured["wrap_ms"] / measured["devnull_ms"], 2)
        measured["pipe_ratio"] = round(measured["pipe_ms"] / measured["devnull_ms"], 2)
        floods[name] = measured
    flood = floods["yes"] | {"log": floods["log"]}
    raw_flood = measure_raw_flood(tj, raw_mib, max(3, runs // 4))

    return {
        "floor_ms": floor_ms,
        "hook_ms": result["hook"],
        "hook_x": round(result["hook"] / floor_ms, 2),
        "hook_script_ms": result["hook_script"],
        "hook_script_x": round(result["hook_script"] / floor_ms, 2),
        "wrap_true_ms": result["wrap_true"],
        "wrap_true_x": round(result["wrap_true"] / floor_ms, 2),
        "reduce": {k: v | {"x": round(v["ms"] / floor_ms, 1)} for k, v in reduce.items()},
        "linearity": round(linearity, 2),
        "wrap_flood": flood,
        "raw_flood": raw_flood,
        "against": compared,
        "runs": runs,
        "startup_runs": max(runs, STARTUP_RUNS),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}",
        "date": time.strftime("%Y-%m-%d"),
    }


_RECORDS = "\n".join(
    f"@R\nclass C{i}:\n    a: int\n    b: str = ''\n    c: int = 0\n    d: tuple = ()\n    e: bool = False"
    for i in range(20)
)
#: name -> (the standard library's way, the stand-in's way): one small program each.
STAND_INS = {
    "json": (
        "import json; json.loads('{\"a\": [1, 2]}')",
        "from tokenjuice.fast import fastjson; fastjson.loads('{\"a\": [1, 2]}')",
    ),
    "dataclasses": (
        "from dataclasses import dataclass\nR = dataclass(frozen=True, slots=True)\n" + _RECORDS,
        "from tokenjuice.fast.record import record as R\n" + _RECORDS,
    ),
    "re": ("import re", "import tokenjuice.fast.lazyre"),
}
#: Paths whose imports are checked: does any of them load the standard module anyway?
_PATHS = {
    "hook": "import sys; from tokenjuice.hosts import hook; sys.stdin = open({payload!r}); "
    "hook.main(['cursor', '--wrap-launcher', {launcher!r}])",
    "wrap -- true": "from tokenjuice.commands import wrap; wrap.main(['--', 'true'])",
    "wrap -- seq 1 20000": "from tokenjuice.commands import wrap; wrap.main(['--', 'seq', '1', '20000'])",
}


def measure_stand_ins(runs: int) -> dict[str, Any]:
    """Fresh-process cost of each standard-library module against its stand-in (medians,
    interleaved with the floor), the reducer's lazy patterns compiled all at once, and
    which standard modules the hook and `wrap` load anyway."""
    import re

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "PYTHONPATH": root}
    base = [sys.executable, "-S", "-P", "-c"]

    def once(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([*base, code], env=env, check=True, stdout=subprocess.DEVNULL)
        return (time.perf_counter() - started) * 1000

    programs = {"floor": "pass"}
    for name, (standard, stand_in) in STAND_INS.items():
        programs[f"{name}_standard"], programs[f"{name}_stand_in"] = standard, stand_in
    samples: dict[str, list[float]] = {name: [] for name in programs}
    for code in programs.values():
        once(code)
    for _ in range(runs):
        for name, code in programs.items():
            samples[name].append(once(code))
    ms = {name: statistics.median(values) for name, values in samples.items()}
    result: dict[str, Any] = {"floor_ms": round(ms["floor"], 2), "runs": runs}
    for name in STAND_INS:
        paid, paid_instead = ms[f"{name}_standard"] - ms["floor"], ms[f"{name}_stand_in"] - ms["floor"]
        result[name] = {
            "standard_ms": round(paid, 2),
            "stand_in_ms": round(paid_instead, 2),
            "saved_ms": round(paid - paid_instead, 2),
        }
    # Every lazy pattern the reducer declares, compiled as an eager module would at import.
    code = (
        "import pkgutil, importlib, time, re, tokenjuice.reduce as r\n"
        "from tokenjuice.fast.lazyre import LazyPattern\n"
        "mods = [importlib.import_module('tokenjuice.reduce.' + m.name) for m in pkgutil.iter_modules(r.__path__)]\n"
        "mods += [importlib.import_module(n) for n in ('tokenjuice.shell.command',)]\n"
        "found = {id(v): v for m in mods for v in vars(m).values() if isinstance(v, LazyPattern)}\n"
        "t = time.perf_counter(); [re.compile(*p._source) for p in found.values()]\n"
        "print(len(found), (time.perf_counter() - t) * 1000)"
    )
    compiles = []
    for _ in range(max(3, runs // 3)):
        out = subprocess.run([*base, code], env=env, check=True, capture_output=True, text=True).stdout.split()
        compiles.append(float(out[1]))
    result["re"]["patterns"] = int(out[0])
    result["re"]["compile_all_ms"] = round(statistics.median(compiles), 2)
    # Which of them each path loads anyway.
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        handle.write(
            json.dumps(
                {
                    "hook_event_name": "preToolUse",
                    "tool_name": "Shell",
                    "conversation_id": "bench",
                    "tool_input": {"command": "git status --short", "cwd": os.getcwd()},
                }
            )
        )
    loads: dict[str, list[str]] = {}
    try:
        for path, program in _PATHS.items():
            code = program.format(payload=handle.name, launcher=join(tokenjuice_command()))
            # warm: the first run in a new home builds the caches (rule index, settings)
            subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, check=False)
            done = subprocess.run(
                [sys.executable, "-P", "-X", "importtime", "-c", code],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if path == "hook" and "tokenjuice" not in done.stdout:
                raise RuntimeError(f"the hook did not rewrite the command: {done.stdout[-300:]}")
            if done.returncode or "internal error" in done.stderr:
                raise RuntimeError(f"{path} failed: {done.stderr[-300:]}")
            loaded = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
            loads[path] = sorted(name for name in STAND_INS if name in loaded)
    finally:
        os.unlink(handle.name)
    result["loaded_anyway"] = loads
    del re
    return result


def stand_ins_table(figures: dict[str, Any]) -> str:
    rows = [f"stand-ins (fresh `python -S -P` processes, medians of {figures['runs']}, floor {figures['floor_ms']} ms)"]
    what = {"json": "fast/fastjson.py", "dataclasses": "fast/record.py", "re": "fast/lazyre.py"}
    for name, module in what.items():
        item = figures[name]
        rows.append(
            f"  {name:<12} {item['standard_ms']:>6.2f} ms   {module:<17} {item['stand_in_ms']:>6.2f} ms"
            f"   saves {item['saved_ms']:.2f} ms"
        )
    patterns = figures["re"]
    rows.append(
        f"  the reducer's {patterns['patterns']} lazy patterns compiled at once: {patterns['compile_all_ms']:.2f} ms"
    )
    for path, names in figures["loaded_anyway"].items():
        rows.append(f"  {path} loads: {', '.join(names) or 'none of them'}")
    return "\n".join(rows) + "\n"


def measure_raw_flood(tj: list[str], mib: int, runs: int) -> dict[str, Any]:
    """`wrap --raw -- cat FILE` against `cat FILE`, both into /dev/null (see `run_once`),
    interleaved; FILE is written here (in the scratch folder) and read once first,
    so both read it from the page cache."""
    path = os.path.abspath("raw-flood.bin")
    block = os.urandom(MIB)
    with open(path, "wb") as handle:
        for _ in range(mib):
            handle.write(block)
    try:
        run_once(["cat", path])
        run_once(tj + ["wrap", "--raw", "--", "cat", path])
        wraps, cats, peaks = [], [], []
        for _ in range(runs):
            elapsed, peak, code, _ = run_once(tj + ["wrap", "--raw", "--", "cat", path])
            if code != 0:
                raise RuntimeError(f"wrap --raw -- cat exited {code}")
            wraps.append(elapsed)
            peaks.append(peak)
            cats.append(run_once(["cat", path])[0])
    finally:
        os.unlink(path)
    measured = {
        "mib": mib,
        "wrap_ms": round(statistics.median(wraps), 1),
        "cat_ms": round(statistics.median(cats), 1),
        "peak_mib": round(max(peaks) / 1024, 1),
    }
    measured["ratio"] = round(measured["wrap_ms"] / measured["cat_ms"], 2)
    return measured


def _label(size: int) -> str:
    if size >= 1024 * MIB:
        return f"{size // (1024 * MIB)} GiB"
    return f"{size // MIB} MiB" if size >= MIB else f"{size // KIB} KiB"


def verdicts(figures: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    """(figure, measured, target, met) for every target."""
    largest = list(figures["reduce"].values())[-1]
    flood = figures["wrap_flood"]
    return [
        ("hook", f"{figures['hook_x']}x floor", f"<= {TARGETS['hook']}x", figures["hook_x"] <= TARGETS["hook"]),
        (
            "wrap -- true",
            f"{figures['wrap_true_x']}x floor",
            f"<= {TARGETS['wrap_true']}x",
            figures["wrap_true_x"] <= TARGETS["wrap_true"],
        ),
        (
            "reduce-json largest",
            f"{largest['ms'] / 1000:.2f} s",
            f"<= {TARGETS['reduce_seconds']} s",
            largest["ms"] / 1000 <= TARGETS["reduce_seconds"],
        ),
        (
            "reduce-json peak memory",
            f"{largest['peak_mib']} MiB",
            f"<= {TARGETS['reduce_peak_mib']} MiB",
            largest["peak_mib"] <= TARGETS["reduce_peak_mib"],
        ),
        (
            "linearity",
            f"{figures['linearity']}",
            f"<= {TARGETS['linearity']}",
            figures["linearity"] <= TARGETS["linearity"],
        ),
        (
            "wrap flood time (yes | head)",
            f"{flood['ratio']}x /dev/null",
            f"<= {TARGETS['flood_ratio']}x",
            flood["ratio"] <= TARGETS["flood_ratio"],
        ),
        (
            "wrap flood time (log printer)",
            f"{flood['log']['ratio']}x /dev/null",
            f"<= {TARGETS['flood_ratio']}x",
            flood["log"]["ratio"] <= TARGETS["flood_ratio"],
        ),
        (
            "wrap flood peak memory",
            f"{max(flood['peak_mib'], flood['log']['peak_mib'])} MiB",
            f"<= {TARGETS['flood_peak_mib']} MiB",
            max(flood["peak_mib"], flood["log"]["peak_mib"]) <= TARGETS["flood_peak_mib"],
        ),
        (
            f"raw flood time ({_label(figures['raw_flood']['mib'] * MIB)} through --raw)",
            f"{figures['raw_flood']['ratio']}x cat",
            f"<= {TARGETS['raw_flood_ratio']}x",
            figures["raw_flood"]["ratio"] <= TARGETS["raw_flood_ratio"],
        ),
    ]


def table(figures: dict[str, Any]) -> str:
    floor = figures["floor_ms"]
    rows = [
        ("floor (python -c pass)", f"{floor:.1f} ms", "1.0x"),
        ("hook (as installed)", f"{figures['hook_ms']:.1f} ms", f"{figures['hook_x']}x"),
        ("hook via the console script", f"{figures['hook_script_ms']:.1f} ms", f"{figures['hook_script_x']}x"),
        ("wrap -- true", f"{figures['wrap_true_ms']:.1f} ms", f"{figures['wrap_true_x']}x"),
    ]
    for label, value in figures["reduce"].items():
        rows.append((f"reduce-json {label}", f"{value['ms']:.1f} ms, peak {value['peak_mib']} MiB", f"{value['x']}x"))
    rows.append(("linearity (largest two sizes)", f"{figures['linearity']}", ""))
    flood = figures["wrap_flood"]
    for label, measured in (
        (f"wrap flood {flood['mib']} MiB (yes | head)", flood),
        (f"wrap flood {flood['mib']} MiB (log printer)", flood["log"]),
    ):
        rows.append(
            (
                label,
                f"{measured['wrap_ms']:.0f} ms vs {measured['devnull_ms']:.0f} ms to /dev/null, "
                f"peak {measured['peak_mib']} MiB",
                f"{measured['ratio']}x /dev/null",
            )
        )
        rows.append(
            ("  the same through | cat", f"{measured['pipe_ms']:.0f} ms", f"{measured['pipe_ratio']}x /dev/null")
        )
    raw = figures["raw_flood"]
    rows.append(
        (
            f"raw flood {_label(raw['mib'] * MIB)} (wrap --raw -- cat)",
            f"{raw['wrap_ms']:.0f} ms vs {raw['cat_ms']:.0f} ms for cat alone, peak {raw['peak_mib']} MiB",
            f"{raw['ratio']}x cat",
        )
    )
    other = figures.get("against")
    if other:
        rows.append((f"against {other['python']}:", "", ""))
        rows.append(("  its floor", f"{other['floor_ms']:.1f} ms", "1.0x"))
        rows.append(("  its hook (as installed)", f"{other['hook_ms']:.1f} ms", f"{other['hook_x']}x"))
        rows.append(("  its wrap -- true", f"{other['wrap_true_ms']:.1f} ms", f"{other['wrap_true_x']}x"))
    width = max(len(r[0]) for r in rows)
    value_width = max(len(r[1]) for r in rows)
    lines = [f"{name:<{width}}  {value:<{value_width}}  {ratio}" for name, value, ratio in rows]
    lines.append("")
    lines += [
        f"{'met ' if met else 'MISS'}  {name}: {measured} (target {target})"
        for name, measured, target, met in verdicts(figures)
    ]
    lines.append(
        f"\n{figures['machine']}; medians of {figures['startup_runs']} interleaved runs for the floor, hook and"
        f" wrap -- true, of {figures['runs']} for the rest; {figures['date']}"
    )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tokenjuice.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--quick", action="store_true", help="small sizes and few runs (CI)")
    parser.add_argument("--runs", type=int, help="runs per figure (default 21, quick 3)")
    parser.add_argument(
        "--against",
        metavar="PYTHON",
        help="also time the hook and wrap of the tokenjuice installed beside PYTHON (e.g. an older venv), interleaved",
    )
    parser.add_argument(
        "--stand-ins", action="store_true", help="only what each hot-path stand-in for a standard module saves"
    )
    args = parser.parse_args(argv)
    runs = args.runs or (3 if args.quick else 21)
    if args.stand_ins:
        with tempfile.TemporaryDirectory() as scratch:
            previous = os.getcwd()
            os.chdir(scratch)
            try:
                stand_ins = measure_stand_ins(runs)
            finally:
                os.chdir(previous)
        sys.stdout.write(json.dumps(stand_ins, indent=2) + "\n" if args.json else stand_ins_table(stand_ins))
        return 0
    sizes = [16 * KIB, 64 * KIB, 128 * KIB] if args.quick else [64 * KIB, 512 * KIB, 4 * MIB]
    with tempfile.TemporaryDirectory() as scratch:
        previous = os.getcwd()
        os.chdir(scratch)  # no project rules or config from wherever this is run
        try:
            figures = measure(
                sizes,
                runs,
                flood_mib=8 if args.quick else 100,
                raw_mib=64 if args.quick else 1024,
                against=os.path.abspath(args.against) if args.against else None,
            )
        finally:
            os.chdir(previous)
    figures["verdicts"] = [{"figure": n, "measured": m, "target": t, "met": ok} for n, m, t, ok in verdicts(figures)]
    sys.stdout.write(json.dumps(figures, indent=2) + "\n" if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
