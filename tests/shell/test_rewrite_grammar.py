"""The rewrite never breaks a command's syntax, its functions or its shell state
(issue 21): named regression cases, the generated brace-group set, and the shell
itself. Each case that the rewrite wraps is run twice through the real shell — as
typed, and rewritten — followed by a probe of the shell's state (exit status, cwd,
variables, umask, the directory stack), and both runs must print the same.

The wrapper here is `fakewrap` (drops everything up to `--`, then execs the rest):
the same line structure as the real `tokenjuice wrap`, at a shell's start-up cost,
so hundreds of commands run in a few seconds. tests/e2e/test_rewrite_property.py
runs generated lines through the real wrap in bash, dash, zsh and fish.
"""

from __future__ import annotations

import itertools
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import cost_ratio

from tokenjuice.hosts import hook as host_hook
from tokenjuice.settings import defaults
from tokenjuice.shell import rewrite

BASH = shutil.which("bash") or "/bin/bash"
FAKEWRAP = '#!/bin/sh\nwhile [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done\nshift\nexec "$@"\n'
PROBE = {
    "posix": '\nprintf "rc=%s pwd=%s X=%s Y=%s umask=%s\\n" "$?" "$PWD" "${X-unset}" "${Y-unset}" "$(umask)"',
    "fish": '\nprintf "rc=%s pwd=%s X=%s umask=%s\\n" $status $PWD "$X" (umask)',
}


def plan(command, shell=BASH, launcher="tokenjuice", env=None, cwd=None):
    return rewrite.plan(command, host="cursor", shell=shell, launcher=launcher, settings=defaults(), env=env, cwd=cwd)


@pytest.fixture
def stage(tmp_path):
    """A working folder with `sub/`, `env.sh` (sets Y, defines `myfn`), a fake
    launcher, and an environment whose HOME has no profile."""
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    (work / "sub" / "inside").write_text("")
    (work / "env.sh").write_text("Y=from-env\nmyfn() { echo myfn-ran; }\nalias ll='ls -1'\n")
    launcher = tmp_path / "fakewrap"
    launcher.write_text(FAKEWRAP)
    launcher.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("X", "Y", "PWD", "OLDPWD")}
    env |= {"HOME": str(home), "TOKENJUICE_HOOK_SHELL": ""}
    return work, str(launcher), env


def run_both(command, work, launcher, env, shell=BASH):
    """(plan, direct run, rewritten run): the runs are None when left alone."""
    result = plan(command, shell=shell, launcher=launcher, env=env, cwd=str(work))
    if not result.wrapped:
        assert result.command == command
        return result, None, None
    probe = PROBE["fish" if shell.endswith("fish") else "posix"]
    runs = []
    for line in (command, result.command):
        for made in work.glob("out.txt"):
            made.unlink()
        argv = [shell, "--no-config", "-c", line + probe] if shell.endswith("fish") else [shell, "-c", line + probe]
        runs.append(subprocess.run(argv, capture_output=True, text=True, cwd=work, env=env | {"PWD": str(work)}))
    return result, runs[0], runs[1]


def assert_same(command, work, launcher, env, shell=BASH):
    result, direct, wrapped = run_both(command, work, launcher, env, shell)
    if direct is not None:
        assert (wrapped.stdout, wrapped.stderr, wrapped.returncode) == (
            direct.stdout,
            direct.stderr,
            direct.returncode,
        ), (command, result.command)
    return result


# -- named regression cases (issue 21) ---------------------------------------------------------

#: (id, command, wrapped?, outside or reason fragment)
REGRESSIONS = [
    # 1. syntax: brace groups, precedence, $?
    ("brace-group-piped", "{ cd sub && ls; } 2>&1 | tail -5", True, ""),
    ("brace-group-then-command", "{ cd sub; }; ls", False, "changes the shell's state (cd)"),
    ("brace-group-export", "{ export X=1; ls; }", False, "changes the shell's state (export)"),
    ("brace-group-multiline", "{ cd sub\nls\n}", False, "changes the shell's state (cd)"),
    ("brace-group-redirected", "{ cd sub && ls; } > out.txt; cat out.txt", False, "changes the shell's state (cd)"),
    ("brace-group-after-prefix", "cd sub && { ls; } 2>&1", True, "cd sub &&"),
    ("precedence-and-then-list", 'cd nowhere && echo never; echo "rc=$?"', False, "changes the shell's state (cd)"),
    ("precedence-and-then-or", "cd nowhere && ls || echo fallback", False, "changes the shell's state (cd)"),
    ("precedence-and-chain", "cd sub && ls && pwd", True, "cd sub &&"),
    ("precedence-whole-prefix-list", "cd sub && cd ..; ls", True, "cd sub && cd ..;"),
    ("status-after-prefix", "cd sub; echo rc=$?", False, "reads $? of the command that ran before it"),
    ("status-in-a-condition", "cd sub; if [ $? = 0 ]; then ls; fi", False, "reads $?"),
    ("status-after-a-command", "cd sub; ls; echo rc=$?", True, "cd sub;"),
    ("status-first-thing", "echo $?", False, "reads $?"),
    ("line-numbers-kept", "cd sub\nls\nnot-a-program-xyz 2>&1 | sed 's/^[^:]*: //'", False, "not-a-program-xyz"),
    # 2. functions, aliases, sourcing, state the analysis did not see
    ("sourced-function", "source ./env.sh && myfn", False, "sources a file"),
    ("dot-sourced-function", ". ./env.sh && myfn", False, "sources a file"),
    ("agent-function-or-alias", "ll", False, "runs ll, which is neither a builtin nor a program on PATH"),
    ("alias-in-a-pipeline", "ls | myfn", False, "runs myfn"),
    ("function-in-a-subshell", "(myfn)", False, "runs myfn"),
    ("printf-v", "printf -v X %s 1", False, "changes the shell's state (printf -v)"),
    ("default-assignment", 'echo "${X:=v}"', False, "assigns X"),
    ("plain-default-assignment", "echo ${X=v}", False, "assigns X"),
    ("arithmetic-expansion-assignment", "echo $((X=1))", False, "assigns X"),
    ("arithmetic-increment", "echo $((X++))", False, "assigns X"),
    ("arithmetic-command", "((X=1))", False, "changes the shell's state (((…=…)))"),
    ("arithmetic-command-reads", "(( X > 1 )) && ls", False, "reads $X"),
    ("command-p-cd", "ls && command -p cd sub", False, "changes the shell's state (cd)"),
    ("coproc", "coproc cat", False, "changes the shell's state (coproc)"),
    ("read", "read -r X < env.sh", False, "changes the shell's state (read)"),
    ("mapfile", "mapfile -t lines < env.sh", False, "changes the shell's state (mapfile)"),
    ("unexported-variable", 'echo "$NOT_EXPORTED_XYZ"', False, "reads $NOT_EXPORTED_XYZ"),
    ("positional-parameter", "echo $1", False, "reads $1"),
    ("all-parameters", 'printf "%s\\n" "$@"', False, "reads $@"),
    ("shell-pid", "echo $$ > out.txt", False, "reads $$"),
    ("shell-options", "echo $-", False, "reads $-"),
    ("last-background-job", "echo $!", False, "reads $!"),
    ("shopt-earlier", "shopt -s nullglob; ls *.none", False, "changes the shell's state (shopt)"),
    ("set-o-earlier", "set -o pipefail; false | true", False, "changes the shell's state (set)"),
    # what stays wrapped: these read nothing of the agent's shell
    ("own-loop-variable", "for f in sub/*; do echo $f; done", True, ""),
    ("own-assignment", "X=1 env | grep -c '^X=1$'", True, ""),
    ("environment-variable", 'echo "$HOME"', True, ""),
    ("single-quoted-dollar", "awk '{print $1}' env.sh", True, ""),
    ("quoted-here-document", "cat <<'EOF'\n$1 ${X:=v}\nEOF", True, ""),
    ("background-then-its-pid", "sleep 0 & wait $!", True, ""),
    ("exported-by-the-prefix", 'export X=1 && echo "$X"', True, "export X=1 &&"),
    # issue 29: what a sourced file sets (an option, a function) would not reach a wrapped rest;
    # a virtualenv's own activate script (exports, `deactivate`) stays outside, as the agent typed it
    ("virtualenv-activate", "source ./venv/bin/activate && mytool-in-venv", True, "source ./venv/bin/activate &&"),
    (
        "virtualenv-after-cd",
        "cd sub && . ../venv/bin/activate && mytool-in-venv",
        True,
        "cd sub && . ../venv/bin/activate &&",
    ),
    ("virtualenv-elsewhere", "cd sub && . venv/bin/activate && mytool-in-venv", False, "sources a file"),
    ("activate-then-its-function", "source ./venv/bin/activate && deactivate && ls", False, "calls deactivate"),
    ("activate-that-sets-options", "source ./optvenv/bin/activate && false | true", False, "sources a file"),
    ("activate-then-a-variable", "source ./venv/bin/activate && echo $_OLD_VIRTUAL_PATH", False, "sources"),
]


@pytest.mark.parametrize("name, command, wrapped, detail", REGRESSIONS, ids=[case[0] for case in REGRESSIONS])
def test_issue_21_regressions(name, command, wrapped, detail, stage):
    import venv as venvs

    work, launcher, env = stage
    venvs.EnvBuilder(with_pip=False).create(work / "venv")  # a real activate script
    tool = work / "venv" / "bin" / "mytool-in-venv"
    tool.write_text("#!/bin/sh\necho venv-tool\n")
    tool.chmod(0o755)
    options = work / "optvenv" / "bin"  # an activate that also sets a shell option
    options.mkdir(parents=True)
    (options / "activate").write_text((work / "venv" / "bin" / "activate").read_text() + "set -o pipefail\n")
    if "activate" in command:  # PATH set by activate: only the real wrap keeps it over a login shell's profile
        launcher = f"{shlex.quote(sys.executable)} -m tokenjuice"
    result = assert_same(command, work, launcher, env)
    assert result.wrapped is wrapped, result
    if wrapped:
        assert result.outside == detail
    else:
        assert detail in result.reason, result.reason


def test_a_prefix_split_at_a_newline_keeps_the_line_numbers(stage):
    """`cd sub\\nnot-a-program` says "line 2" as typed; the wrapped body keeps it on line 2."""
    work, launcher, env = stage
    command = "cd sub\n( not-a-program-xyz )"
    result = plan(command, launcher=launcher, env=env | {"PATH": env["PATH"]}, cwd=str(work))
    assert not result.wrapped  # a name not on PATH: left alone
    command = "cd sub\ncommand not-a-program-xyz"
    result = assert_same(command, work, launcher, env)
    assert result.wrapped and result.outside == "cd sub\n"  # the newline ends the cd


# -- the generated brace-group set ------------------------------------------------------------

PREFIXES = ["cd sub", "cd nowhere", "export X=1", "X=2", "pushd sub >/dev/null", "umask 077"]
COMMANDS = ["ls", "pwd", "echo err >&2"]
SHAPES = [
    "{{ {p} && {c}; }} 2>&1 | tail -5",
    "{{ {p}; {c}; }}",
    "{{ {p} && {c}; }}",
    "{{ {p}\n{c}\n}}",
    "{{ {p}; }}; {c}",
    "{{ {p}; }} && {c}",
    "{{ {p} && {c}; }} > out.txt; cat out.txt",
    "{{ {c}; {p}; }}",
    "{p} && {{ {c}; }}",
    "{p}; {{ {c}; }} 2>&1",
    "{p} && {{ {c}; }} | cat",
    "{p} && {{ {c}; {c}; }} 2>&1 | tail -1",
    "{{ {p} && {c}; }} || {c}",
    "{{ {{ {p}; }}; {c}; }}",
    "{p} && {c}; {c}",
    "{p} && {c} || {c}",
    "{p}; {c}; echo rc=$?",
    "{p}; {c} | cat; echo rc=$?",
    "( {p} && {c} ); {c}",
    "{p} && ( {c} )",
    "{{ {p} && {c}\n}} 2>/dev/null",
    "if {p}; then {c}; fi",
]
BRACE_SET = [shape.format(p=p, c=c) for shape in SHAPES for p in PREFIXES for c in COMMANDS]


def test_the_brace_group_set_has_396_commands():
    assert len(BRACE_SET) == len(set(BRACE_SET)) == 396


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh"])
def test_every_generated_brace_group_command_keeps_its_meaning(shell, stage):
    """The issue's 396 generated commands (72 of which the old rewrite broke in bash):
    each is left alone or, rewritten, prints the same, exits the same and leaves the
    shell in the same state."""
    path = shutil.which(shell)
    if path is None:
        pytest.skip(f"{shell} is not installed")
    work, launcher, env = stage
    wrapped = 0
    failures = []
    for command in BRACE_SET:
        result, direct, rewritten = run_both(command, work, launcher, env, shell=path)
        if direct is None:
            continue
        wrapped += 1
        if (rewritten.stdout, rewritten.stderr, rewritten.returncode) != (
            direct.stdout,
            direct.stderr,
            direct.returncode,
        ):
            failures.append((command, result.command, direct.stdout, rewritten.stdout, rewritten.stderr))
    assert not failures, failures[:3]
    assert wrapped >= 100, wrapped  # the set exercises the rewrite, not only the refusals


# -- the shell itself -----------------------------------------------------------------------


@pytest.mark.parametrize("shell", ["nu", "/usr/bin/pwsh", "xonsh", "/opt/elvish", "/bin/tcsh", "powershell.exe"])
def test_a_shell_variable_naming_a_shell_tokenjuice_cannot_drive_leaves_commands_alone(shell):
    env = {"PATH": os.environ.get("PATH", ""), "SHELL": shell}
    assert host_hook.resolve_shell(None, "", env) is None
    assert host_hook.resolve_shell(None, shell, {"PATH": env["PATH"], "SHELL": BASH}) is None


def test_a_shell_variable_naming_a_usable_shell_is_used():
    assert host_hook.resolve_shell(None, "", {"PATH": os.environ.get("PATH", ""), "SHELL": BASH}) == BASH


@pytest.mark.parametrize("shell", ["/usr/sbin/nologin", "/bin/false"])
def test_an_account_without_a_shell_falls_back_to_the_next_candidate(shell):
    found = host_hook.resolve_shell(None, "", {"PATH": os.environ.get("PATH", ""), "SHELL": shell})
    assert found is not None and os.path.basename(found) in rewrite.LOGIN_SHELLS


def test_the_cursor_hook_leaves_a_command_alone_under_nu(tmp_path):
    import json

    payload = {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "git status"}}
    env = os.environ | {"SHELL": "/usr/bin/nu", "TOKENJUICE_HOOK_SHELL": ""}
    done = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "hook", "cursor"],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout) == {}


def test_a_one_megabyte_command_is_refused_before_it_is_read(monkeypatch):
    def read(*args, **kwargs):
        raise AssertionError("the command was read")

    monkeypatch.setattr(rewrite, "_encodable", read)  # the first look at its text, before any lexing
    result = plan("echo " + "x" * (1 << 20))
    assert result.reason == "too long to pass as one argument"  # constant time: no lexing, no encoding


def test_the_exec_size_counts_the_environment_the_command_runs_with(tmp_path):
    """A PATH of 60 KiB (twice in the wrapped body: `wrap --keep-path` puts it back)
    and a large environment, plus a command that alone would fit."""
    long_path = os.pathsep.join([str(tmp_path / f"d{index:05d}") for index in range(1500)] + ["/usr/bin", "/bin"])
    command = "echo " + "y" * 20_000
    assert plan(command, env={"PATH": "/usr/bin:/bin"}).wrapped
    assert plan(command, env={"PATH": long_path}).reason == "too long to pass as one argument"
    huge = {"PATH": "/usr/bin:/bin"} | {f"V{index}": "z" * 4000 for index in range(1000)}  # ~4 MB of environment
    assert plan("echo hi", env=huge).reason == "too long to pass as one argument"


def test_a_symlinked_working_directory_keeps_its_logical_path_inside_the_wrap(tmp_path):
    real = tmp_path / "real"
    (real / "sub").mkdir(parents=True)
    link = tmp_path / "link"
    link.symlink_to(real)
    launcher = f"{sys.executable} -m tokenjuice"
    result = plan('pwd; echo "$PWD"', launcher=launcher)
    assert result.wrapped
    raw = result.command.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    env = os.environ | {"PWD": str(link), "HOME": str(tmp_path)}
    direct, wrapped = (
        subprocess.run([BASH, "-c", line], capture_output=True, text=True, cwd=link, env=env, timeout=60)
        for line in ('pwd; echo "$PWD"', raw)
    )
    assert direct.stdout == f"{link}\n{link}\n"
    assert wrapped.stdout == direct.stdout, wrapped.stderr
    # and after a `cd` kept outside the wrap
    result = plan("cd sub && pwd", launcher=launcher)
    raw = result.command.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    done = subprocess.run([BASH, "-c", raw], capture_output=True, text=True, cwd=link, env=env, timeout=60)
    assert done.stdout == f"{link}/sub\n", done.stderr


# -- functions from real files: nvm's nvm.sh and hand-written ones ---------------------------

FUNCTION_FILES = {
    "funcs.sh": 'greet() { echo "hello $1"; }\nbuild() { echo building; }\n',
    "aliases.sh": "alias gs='git status'\n",
}


@pytest.mark.parametrize(
    "command",
    [
        "source ./funcs.sh && greet world",
        ". ./funcs.sh; build",
        "source ./funcs.sh\ngreet x | tr a-z A-Z",
        "source ./aliases.sh && gs",
        "greet world",  # defined earlier in the agent's shell
    ],
)
def test_functions_and_aliases_from_sourced_files_are_left_alone(command, stage):
    work, launcher, env = stage
    for name, text in FUNCTION_FILES.items():
        (work / name).write_text(text)
    result = plan(command, launcher=launcher, env=env, cwd=str(work))
    assert not result.wrapped, result
    assert result.reason.startswith("sources a file" if "source" in command or ". " in command else "runs greet")


#: The agent's session before the command: a function of its own, a program it ran (hashed).
SESSION = "greet() { echo hello; }; ls >/dev/null; "


@pytest.mark.parametrize(
    "command",
    [
        "type -t greet",
        "command -v greet",
        "declare -f greet | head -1",
        "hash | cat",
        "echo $(type -t greet)",
        "source ./setopts.sh && false | true",
        ". ./setopts.sh; false | true",
    ],
)
def test_queries_of_the_agents_shell_and_sourcing_keep_their_meaning(command, tmp_path):
    """Issue 29: `type -t <session function>` was wrapped (rc 0 → 1: a fresh shell has no
    such function), and so were `declare -f`, `hash` or `command -v` in a pipeline or
    `$( … )`; `source ./setopts.sh && false | true` kept the source outside and wrapped
    the rest, which lost its `set -o pipefail` (rc 1 → 0). Through the real hook and
    the real wrap, in a bash session that has a function and a hashed program: as typed
    and as the hook answers, the same output and exit status."""
    import json

    work = tmp_path / "work"
    work.mkdir()
    (work / "setopts.sh").write_text("set -o pipefail\n")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PWD", "OLDPWD")}
    env |= {"HOME": str(home), "SHELL": BASH, "TOKENJUICE_HOOK_SHELL": "", "TOKENJUICE_HOME": str(tmp_path / "tj")}
    payload = {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": command}}
    launcher = f"{sys.executable} -m tokenjuice"
    hook = subprocess.run(
        [sys.executable, "-m", "tokenjuice", "hook", "cursor", "--wrap-launcher", launcher],
        input=json.dumps(payload).encode(),
        capture_output=True,
        env=env,
        cwd=work,
        timeout=60,
    )
    answer = json.loads(hook.stdout)
    rewritten = answer.get("updated_input", {}).get("command", command)
    runs = [
        subprocess.run([BASH, "-c", SESSION + line], capture_output=True, text=True, cwd=work, env=env, timeout=60)
        for line in (command, rewritten)
    ]
    direct, hooked = ((run.returncode, run.stdout, run.stderr) for run in runs)
    assert hooked == direct, rewritten
    assert rewritten == command


#: nvm's real nvm.sh (0.40.6, unchanged; tests/data/nvm/README.md says where from)
NVM_SH = Path(__file__).resolve().parents[1] / "data" / "nvm" / "nvm.sh"


def test_nvm_from_its_real_nvm_sh_is_left_alone(stage):
    """`. nvm.sh && nvm …`: nvm is a function nvm.sh defines. As typed, bash runs it;
    wrapped, a fresh login shell would say `nvm: command not found` (exit 127)."""
    work, launcher, env = stage
    path = shlex.quote(str(NVM_SH))
    direct = subprocess.run(
        [BASH, "-c", f". {path} && nvm --version"], capture_output=True, text=True, cwd=work, env=env, timeout=60
    )
    assert direct.returncode == 0, direct.stderr  # the real nvm.sh defines nvm
    for command in (f". {path} && nvm --version", f"source {path}; nvm ls", "nvm install 20", "nvm use 20 && node -v"):
        result = plan(command, launcher=launcher, env=env, cwd=str(work))
        assert not result.wrapped, (command, result)


def test_the_largest_command_the_rewrite_accepts_under_a_long_path_really_runs(tmp_path):
    """With a 40 KiB PATH (wrap --keep-path puts it back inside the body), find the
    longest `echo` the rewrite still wraps: run for real, it must exec (not 126)."""
    long_path = os.pathsep.join([str(tmp_path / f"missing{index:04d}") for index in range(1000)] + ["/usr/bin", "/bin"])
    env = os.environ | {"PATH": os.path.dirname(sys.executable) + os.pathsep + long_path, "HOME": str(tmp_path)}
    launcher = f"{sys.executable} -m tokenjuice"
    low, high = 1_000, 130_000
    while high - low > 1_000:
        middle = (low + high) // 2
        if plan("echo " + "x" * middle, launcher=launcher, env=env).wrapped:
            low = middle
        else:
            high = middle
    command = "echo " + "x" * low
    result = plan(command, launcher=launcher, env=env)
    raw = result.command.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    done = subprocess.run([BASH, "-c", raw], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert done.returncode == 0 and done.stdout == "x" * low + "\n", (low, done.returncode, done.stderr[-300:])


@pytest.mark.parametrize(
    "command, shell",
    [("echo $(myfn)", "bash"), ("echo `ll`", "bash"), ('echo "$(greet x)"', "bash"), ("echo (myfn)", "fish")],
)
def test_a_function_inside_a_command_substitution_is_left_alone(command, shell, stage):
    path = shutil.which(shell)
    if path is None:
        pytest.skip(f"{shell} is not installed")
    work, launcher, env = stage
    result = plan(command, shell=path, launcher=launcher, env=env, cwd=str(work))
    assert not result.wrapped and result.reason.startswith("runs "), result
    assert plan("echo $(git --version)", launcher=launcher, env=env, cwd=str(work)).wrapped


@pytest.mark.parametrize(
    "command",
    [
        ":;" * 65_000,  # 130,000 characters of separate commands: ~20 s to read before the cap
        "echo " + "x " * 65_000,
        "{ " * 30_000 + ":;" + " }" * 30_000,
        "$(" * 40_000 + ")" * 40_000,
        "echo " + "$(echo " * 30 + "x" + ")" * 30,
    ],
    ids=["many-commands", "many-words", "deep-braces", "deep-substitutions", "nested-substitutions"],
)
def test_hostile_lines_under_the_size_limit_are_answered_quickly(command):
    """Each costs at most 40× the CPU of planning a plain `echo` line as long (measured:
    0.3–7×), however slow or busy the machine; a quadratic reading would cost thousands."""
    letters = itertools.cycle("abcdefghijklmnopqrstuvwxyz")  # a new line each time: plans are cached
    spaces = itertools.count()
    result = plan(command)
    assert not result.wrapped and result.reason == "incomplete or unreadable shell syntax"
    ratio = cost_ratio(
        lambda: plan(command + " " * (1 + next(spaces))),
        lambda: plan("echo " + next(letters) * max(len(command) - 5, 1)),
        runs=1,
    )
    assert ratio < 40, ratio


def test_the_hook_looks_programs_up_from_the_hosts_working_directory(tmp_path):
    """A program in the project's `.venv/bin` (which a session that activated it has on
    its PATH): the project is the folder the host runs the command in
    (tool_input.cwd), not the hook's own."""
    import json

    project = tmp_path / "project"
    bin_dir = project / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "activate").write_text("VIRTUAL_ENV=x\n")
    (bin_dir / "tool-only-in-venv").write_text("#!/bin/sh\necho ok\n")
    (bin_dir / "tool-only-in-venv").chmod(0o755)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    command = "tool-only-in-venv --check"
    env = os.environ | {"SHELL": BASH, "TOKENJUICE_HOOK_SHELL": ""}

    def answer(cwd):
        payload = {
            "hook_event_name": "preToolUse",
            "tool_name": "Shell",
            "tool_input": {"command": command, "cwd": str(cwd)},
        }
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "tokenjuice",
                "hook",
                "cursor",
                "--wrap-launcher",
                f"{sys.executable} -m tokenjuice",
            ],
            input=json.dumps(payload).encode(),
            capture_output=True,
            env=env,
            cwd=elsewhere,
            timeout=60,
        )
        return json.loads(done.stdout)

    assert " wrap --source cursor --keep-path -- " in answer(project)["updated_input"]["command"]
    assert answer(elsewhere) == {}  # no such virtualenv there: the name is no program


@pytest.mark.parametrize(
    "folder",
    ["node_modules/.bin", ".venv/bin", "HOME/.nvm/versions/node/v20.11.0/bin", "HOME/.local/bin", "HOME/.cargo/bin"],
)
def test_a_program_the_agents_shell_may_have_on_its_path_is_still_a_program(folder, stage):
    """A session that ran `source .venv/bin/activate` or `nvm use` earlier has those
    folders on its PATH, the host's environment (and so the hook's) may not: a name
    found there is a program, not a function, and the wrapped command (whose PATH
    is the agent shell's) finds it as the original would."""
    work, launcher, env = stage
    home = env["HOME"]
    place = os.path.join(home, folder[5:]) if folder.startswith("HOME/") else os.path.join(work, folder)
    os.makedirs(place)
    tool = os.path.join(place, "tool-elsewhere-xyz")
    with open(tool, "w") as handle:
        handle.write("#!/bin/sh\necho ok\n")
    os.chmod(tool, 0o755)
    env = env | {"PATH": "/usr/bin:/bin"}
    assert plan("tool-elsewhere-xyz --version", launcher=launcher, env=env, cwd=str(work)).wrapped
    os.unlink(tool)
    assert not plan("tool-elsewhere-xyz --version", launcher=launcher, env=env, cwd=str(work)).wrapped
