"""The shared rewrite engine: what is wrapped, what stays outside, what is left
alone — and proof through real shells that the shell the agent keeps sees the
same state and output either way."""

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

from tokenjuice.commands import wrap as wrap_command
from tokenjuice.settings import defaults
from tokenjuice.shell import rewrite, syntax

LAUNCHER = f"{sys.executable} -m tokenjuice"


def plan(command, shell="/bin/bash", **settings):
    values = defaults()
    for key, value in settings.items():
        values.values[key.replace("__", ".")] = value
    return rewrite.plan(command, host="cursor", shell=shell, launcher=LAUNCHER, settings=values)


WRAPPED = [
    "git status",
    "npm test",
    "pytest -q tests/",
    "make -j4 && make test",
    "printf '%s\\n' a b | sort",
    "(cd sub && make)",
    "sleep 1 & wait",
    "a=1 b=2 env | sort",  # assignments before a command only reach that command
    "FOO=1 make",
    'for f in *.py; do python -m py_compile "$f"; done',
    "if [ -f x ]; then cat x; fi",
    "echo $(cd /tmp && pwd)",  # inside a substitution: a subshell
    "cat <<'EOF'\ncd /tmp\nexport X=1\nEOF",  # the words are data in a here-document
    "git log --oneline | head -5",
    "sh -c 'exit 3'",
    "echo unicode héllo 日本語 🎉",
    "ls /definitely/missing",
    "npm run build 2>&1 | tail -20",
    "docker compose up -d",
    "tail -n 50 app.log",
    "git commit -m 'fix: x'",
]

LEFT_ALONE = {
    "cd /tmp": "only changes the shell's state",
    "export X=1": "only changes the shell's state",
    "cd api && export X=1": "only changes the shell's state",
    "source ./env.sh": "sources a file into the agent's shell (source)",
    ". ./env.sh": "sources a file into the agent's shell (.)",
    "alias ll='ls -l'": "changes the shell's state (alias)",
    "unset X": "only changes the shell's state",
    "set -o pipefail": "changes the shell's state (set)",
    "ulimit -n 4096": "only changes the shell's state",
    "umask 022": "only changes the shell's state",
    "pushd /tmp": "only changes the shell's state",
    "popd": "only changes the shell's state",
    "exec bash": "changes the shell's state (exec)",
    "X=1": "only changes the shell's state",
    "make && cd dist": "changes the shell's state (cd)",
    "npm test; export DONE=1": "changes the shell's state (export)",
    "set -e; make": "changes the shell's state (set)",
    "shopt -s globstar && ls **/*.py": "changes the shell's state (shopt)",
    "f() { echo hi; }; f": "defines a shell function",
    "function g { echo; }": "defines a shell function",
    "nvm use 18 && node -v": "changes the shell's state (nvm use)",
    "conda activate ml && python train.py": "changes the shell's state (conda activate)",
    "X=1; echo $X": "changes the shell's state (=)",
    "sleep 100 &": "runs in the background (trailing &)",
    "server & curl localhost": "leaves a background job running",
    "jobs": "reads the agent's shell (jobs)",
    "wait": "changes the shell's state (wait)",
    "read -r answer": "changes the shell's state (read)",
    "exit 3": "changes the shell's state (exit)",
    "make || exit 1": "changes the shell's state (exit)",
    'eval "$(direnv export bash)"': "changes the shell's state (eval)",
    "trap 'echo bye' EXIT; make": "changes the shell's state (trap)",
    "kill %1": "changes the shell's state (kill %job)",
    "tokenjuice wrap -- ls": "already runs tokenjuice",
    "/opt/bin/tokenjuice stats": "already runs tokenjuice",
    "cd x && python3 -m tokenjuice wrap -- ls": "already runs tokenjuice",
    "FOO=1 sudo tokenjuice wrap -- make": "already runs tokenjuice",
    f"{LAUNCHER} wrap --source cursor -- /bin/bash -lc 'ls'": "already runs tokenjuice",
    "/usr/bin/python3 -P -c 'import sys;from tokenjuice.entry import main;sys.exit(main())' hook cursor": (
        "already runs tokenjuice"
    ),
    "echo 'unterminated": "incomplete or unreadable shell syntax",
    "ls \udc80": "not a command a shell can receive (NUL or invalid text)",
    "echo a\0b": "not a command a shell can receive (NUL or invalid text)",
    "   ": "empty",
}

OUTSIDE = [
    ("cd api && npm test", "cd api &&", "npm test"),
    ("cd api && export X=1 && npm test", "cd api && export X=1 &&", "npm test"),
    ("cd /tmp; ls -la", "cd /tmp;", "ls -la"),
    ("export NODE_ENV=test\nnpm test", "export NODE_ENV=test\n", "\nnpm test"),  # npm test stays on line 2
    ("pushd web && pnpm build", "pushd web &&", "pnpm build"),
    ("X=1 && make", "X=1 &&", "make"),  # make sees no $X: an unexported X cannot reach it anyway
    ("cd a && (cd b && make)", "cd a &&", "(cd b && make)"),
    ("umask 077 && touch f", "umask 077 &&", "touch f"),
]


@pytest.mark.parametrize("command", WRAPPED)
def test_ordinary_commands_are_wrapped_whole(command):
    result = plan(command)
    assert result.wrapped and result.outside == "", result
    assert result.command.startswith(f"{LAUNCHER} wrap --source cursor --keep-path -- /bin/bash -lc ")


@pytest.mark.parametrize("command, reason", LEFT_ALONE.items())
def test_commands_left_alone_and_why(command, reason):
    result = plan(command)
    assert (result.wrapped, result.command, result.reason) == (False, command, reason)


@pytest.mark.parametrize("command, outside, body", OUTSIDE)
def test_leading_state_changes_stay_outside_the_wrap(command, outside, body):
    from tokenjuice.shell.syntax import quote

    result = plan(command)
    assert result.wrapped and result.outside == outside
    assert result.command == f"{outside} {LAUNCHER} wrap --source cursor --keep-path -- /bin/bash -lc {quote(body)}"


def test_a_virtualenv_activate_stays_outside_and_any_other_sourced_file_keeps_the_line_whole(tmp_path):
    """`source .venv/bin/activate && pytest -q`: a virtualenv's own activate script
    (read from the folder the command runs in) exports what a wrapped child inherits,
    so it runs outside the wrap and pytest is compacted; a file of another shape, or an
    activate script that also sets a shell option, may change what the rest means."""
    import venv

    venv.EnvBuilder(with_pip=False).create(tmp_path / ".venv")
    activate = tmp_path / ".venv" / "bin" / "activate"
    (tmp_path / "env.sh").write_text("export X=1\n")
    values = defaults()

    def planned(command):
        return rewrite.plan(
            command, host="cursor", shell="/bin/bash", launcher=LAUNCHER, settings=values, cwd=str(tmp_path)
        )

    result = planned("source .venv/bin/activate && pytest -q")
    assert result.wrapped and result.outside == "source .venv/bin/activate &&"
    assert planned(". ./env.sh && pytest -q").reason == "sources a file into the agent's shell (.)"
    activate.write_text(activate.read_text() + "shopt -s nullglob\n")
    assert planned("source .venv/bin/activate && pytest -q").reason == "sources a file into the agent's shell (source)"
    activate.unlink()
    os.mkfifo(activate)  # never opened for a blocking read: the hook must answer
    assert planned("source .venv/bin/activate && pytest -q").reason == "sources a file into the agent's shell (source)"


def test_a_variable_prefix_is_not_split_off_when_the_rest_expands_variables():
    """`declare X=1 && echo $X`: outside the wrap, an unexported X would not reach the
    echo; inside, the outer shell would not keep it. Left alone."""
    assert plan("declare API_URL=x && echo $API_URL").reason == "changes the shell's state (declare)"
    assert plan("X=1; echo `date`").reason == "changes the shell's state (=)"


def test_fish_keeps_and_or_with_the_step_they_test():
    fish = shutil.which("fish") or "/usr/bin/fish"
    if not os.path.exists(fish):
        pytest.skip("fish is not installed")
    result = plan("cd /tmp; and ls", shell=fish)
    assert result.wrapped and result.outside == "cd /tmp; and"
    assert plan("set -x FOO 1", shell=fish).reason == "only changes the shell's state"
    assert plan("set -gx FOO 1; and make", shell=fish).outside == "set -gx FOO 1; and"  # exported: make sees it
    assert plan("set FOO 1; echo $FOO", shell=fish).reason == "changes the shell's state (set)"  # not exported
    assert plan("cd /tmp; and make; echo done", shell=fish).reason == "changes the shell's state (cd)"


@pytest.mark.parametrize("shell", ["nu", "pwsh", "xonsh", "elvish", "/usr/bin/powershell"])
def test_shells_tokenjuice_cannot_drive_leave_the_command_alone(shell):
    assert plan("git status", shell=shell).reason.startswith("unsupported shell")


def test_a_command_too_long_for_one_argument_is_left_alone():
    assert plan("echo " + "x" * 140_000).reason == "too long to pass as one argument"
    assert plan("echo " + "x" * 100_000).wrapped
    assert plan("echo " + "中" * 50_000).reason == "too long to pass as one argument"  # 150 KB in UTF-8
    assert plan("echo " + "'" * 40_000).reason == "too long to pass as one argument"  # quoting grows it fourfold


def test_a_command_starting_with_a_dash_is_left_alone():
    assert plan("-x foo").reason == "starts with '-' (a shell would read it as an option)"


def test_the_launcher_is_quoted_for_the_shell_that_parses_the_rewrite(tmp_path):
    from tokenjuice.shell.syntax import quote

    fish = shutil.which("fish")
    if fish is None:
        pytest.skip("fish is not installed")
    odd = "/opt/it's here/tokenjuice"
    result = rewrite.plan("ls", host="cursor", shell=fish, launcher=quote(odd), settings=defaults())
    assert result.wrapped
    done = subprocess.run(
        [fish, "--no-config", "-c", f"printf '%s\\n' {result.command.split(' wrap ')[0]}"],
        capture_output=True,
        text=True,
    )
    assert done.stdout == odd + "\n"


def test_user_skip_patterns_and_turning_the_defaults_off():
    assert plan("make deploy prod", hook__skip=["make deploy*"]).reason == "hook.skip pattern 'make deploy*'"
    assert plan("tail -f log").reason.startswith("interactive or long-running")
    assert plan("tail -f log", hook__skip_defaults=False).wrapped


# -- the shell the agent keeps sees the same state --------------------------------------

STATEFUL = [
    "cd sub && echo in-sub",
    "cd sub && export MARK=set && printenv MARK",
    "cd sub; ls",
    "pushd sub >/dev/null && pwd",
    "X=1 && echo plain",
    "umask 077 && touch made && stat -c %a made",
]


@pytest.mark.parametrize("command", STATEFUL)
def test_the_outer_shell_ends_in_the_same_state(command, tmp_path):
    """Run `<command>; pwd; echo $MARK; umask` in one bash, first as typed, then
    rewritten: the output, and the state printed after it, are the same."""
    (tmp_path / "sub").mkdir()
    result = plan(command)
    assert result.wrapped
    raw = result.command.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    probe = '; echo "pwd=$PWD mark=${MARK-unset} x=${X-unset} umask=$(umask)"'
    env = os.environ | {"HOME": str(tmp_path), "TOKENJUICE_HOOK_SHELL": ""}
    runs = []
    for line in (command, raw):
        for leftover in tmp_path.glob("sub/made"):
            leftover.unlink()
        runs.append(
            subprocess.run(
                ["/bin/bash", "-c", line + probe], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=30
            )
        )
    direct, wrapped = runs
    assert (wrapped.stdout, wrapped.stderr, wrapped.returncode) == (direct.stdout, direct.stderr, direct.returncode)


# -- whitespace a backslash escapes is the command's ------------------------------------

ESCAPED_WHITESPACE = ["echo one\necho \\\t", "printf '[%s]' a\\ ", "printf '[%s]' \\\n"]


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh", "fish"])
@pytest.mark.parametrize("command", ESCAPED_WHITESPACE)
def test_escaped_whitespace_at_the_end_survives_the_rewrite(command, shell, tmp_path):
    """Found by the hypothesis layer: trimming `echo \\<tab>` left `echo \\`, which
    bash prints as a backslash, zsh as nothing and fish refuses."""
    path = shutil.which(shell)
    if path is None:
        pytest.skip(f"{shell} is not installed")
    result = plan(command, shell=path)
    assert result.wrapped, result
    raw = result.command.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    env = os.environ | {"HOME": str(tmp_path)}
    direct, wrapped = (
        subprocess.run([path, "-c", line], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=30)
        for line in (command, raw)
    )
    assert (wrapped.stdout, wrapped.returncode) == (direct.stdout, direct.returncode)


# -- a hostile login profile changes nothing -------------------------------------------

PROFILES = {
    "bash": (
        ".bash_profile",
        "echo 'Welcome!'; echo 'profile warning' >&2; cd /; cd() { echo hooked-cd; }\n"
        "eval() { echo hooked-eval; }; unset() { echo hooked-unset; }\n",
    ),
    "zsh": (".zprofile", "echo 'Welcome!'; echo 'profile warning' >&2; cd /; cd() { echo hooked-cd; }\n"),
    "dash": (".profile", "echo 'Welcome!'; echo 'profile warning' >&2; cd /; cd() { echo hooked-cd; }\n"),
    "fish": (
        ".config/fish/config.fish",
        "echo 'Welcome!'; echo 'profile warning' >&2; cd /; function cd; echo hooked-cd; end\n",
    ),
}


@pytest.mark.parametrize("shell", list(PROFILES))
def test_a_chatty_profile_that_moves_and_shadows_cd_changes_nothing(shell, tmp_path):
    """The command runs where the host ran it, and what the profile printed is not
    shown as the command's output (the full output store has the same view)."""
    shell_path = shutil.which(shell)
    if shell_path is None:
        pytest.skip(f"{shell} is not installed")
    home = tmp_path / "home"
    name, text = PROFILES[shell]
    (home / name).parent.mkdir(parents=True, exist_ok=True)
    (home / name).write_text(text)
    work = tmp_path / "work dir"
    work.mkdir()
    env = os.environ | {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), "TOKENJUICE_HOOK_SHELL": ""}
    env.pop("TOKENJUICE_HOME", None)
    env["TOKENJUICE_HOME"] = str(tmp_path / "tj")
    result = plan("pwd; echo out; echo err >&2", shell=shell_path)
    assert result.wrapped
    # the host's own shell (fish reads config.fish even for -c: the host's shell is not the point here)
    runner = [shell_path, "--no-config"] if shell == "fish" else ["/bin/sh"]
    done = subprocess.run(
        [*runner, "-c", result.command], capture_output=True, text=True, cwd=work, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{work}\nout\nerr\n", (done.stdout, done.stderr)
    assert "Welcome" not in done.stderr and "hooked" not in done.stdout


# -- a hook's command reaches bash outside every process's arguments (issue 22) -------


SHOW_PARENTS = """import os
def args(pid):
    with open(f"/proc/{pid}/cmdline", "rb") as file:
        return file.read().replace(b"\\0", b" ").decode()
shell = os.getppid()
with open(f"/proc/{shell}/stat") as file:
    wrap = int(file.read().rsplit(")", 1)[1].split()[1])
print(args(shell))
print(args(wrap))
"""


def wrapped_and_direct(command, cwd, shell="/bin/bash"):
    """`command` through the hook's rewrite (wrap --raw, run by /bin/sh as a host's
    shell) and as typed (`<shell> -c`): both finished processes."""
    result = plan(command, shell=shell)
    assert result.wrapped, result
    raw = result.command.replace(" wrap --source cursor", " wrap --raw --source cursor", 1)
    return tuple(
        subprocess.run(argv, capture_output=True, text=True, cwd=cwd, timeout=60)
        for argv in (["/bin/sh", "-c", raw], [shell, "-c", command])
    )


def test_bash_runs_the_command_from_its_environment_as_bash_c_would(tmp_path):
    """Inside the wrap, bash's error messages and line numbers are what `bash -c`
    gives, the hand-over variable is gone from the command's environment, and neither
    bash's arguments nor `wrap`'s (what `ps` shows other users) hold the command."""
    (tmp_path / "show.py").write_text(SHOW_PARENTS)
    command = f"echo secret-word-41; env | grep -c TOKENJUICE_COMMAND\ncat < /no/such/x\n{sys.executable} show.py 2>&1"
    wrapped, direct = wrapped_and_direct(command, tmp_path)
    assert wrapped.stdout.splitlines()[:2] == ["secret-word-41", "0"] == direct.stdout.splitlines()[:2]
    assert wrapped.stderr == direct.stderr == "/bin/bash: line 2: /no/such/x: No such file or directory\n"
    bash_args, wrap_args = wrapped.stdout.splitlines()[2:4]
    assert " wrap --raw --source cursor --keep-path -- /bin/bash -lc" in wrap_args
    assert "secret-word" not in wrap_args and "secret-word" not in bash_args, (wrap_args, bash_args)
    assert (
        bash_args.startswith("/bin/bash -lc ") and '\\builtin eval "\\builtin unset -v TOKENJUICE_COMMAND' in bash_args
    )


@pytest.mark.parametrize(
    "profile",
    [
        "builtin() { :; }; export -f builtin",  # `\\builtin eval …` then runs the function
        "unset TOKENJUICE_COMMAND",  # `eval` then runs an empty string
        "exit 0",
    ],
)
@pytest.mark.parametrize("options", ["", "--format json ", "--raw "])
def test_a_hand_over_the_profile_stops_fails_loudly(profile, options, tmp_path):
    """Issue 29: a login profile that defines (and exports) a function named `builtin`,
    unsets TOKENJUICE_COMMAND or exits made a handed-over command a silent no-op with
    exit 0. The command's first step now signals that it started; without it, wrap
    says so and exits non-zero — and a profile's pass-through `builtin` still runs it."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".bash_profile").write_text(profile + "\n")
    ran = tmp_path / "ran"
    command = f"echo ran > {shlex.quote(str(ran))} | cat"
    result = plan(command)
    assert result.wrapped
    rewritten = result.command.replace(" wrap --source", f" wrap {options}--source", 1)
    env = os.environ | {"HOME": str(home), "TOKENJUICE_HOME": str(tmp_path / "tj")}
    done = subprocess.run(["/bin/sh", "-c", rewritten], capture_output=True, text=True, env=env, timeout=60)
    assert not ran.exists()
    assert done.returncode == 1, (done.returncode, done.stdout, done.stderr)
    assert "the command never started" in done.stdout + done.stderr

    (home / ".bash_profile").write_text('builtin() { command builtin "$@"; }; export -f builtin\n')
    done = subprocess.run(["/bin/sh", "-c", rewritten], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0 and ran.exists(), (done.stdout, done.stderr)
    assert "never started" not in done.stdout + done.stderr


def test_the_wipe_takes_the_commands_own_argument_by_its_place(tmp_path):
    """Issue 29: the wipe overwrote the last argument equal to the command, so a `$0`
    after it with the same text was wiped and the command itself stayed readable.
    Read from /proc/PID/cmdline of the running wrap: the command's place holds NULs,
    and the same text as an earlier argument (`--source`) and a later one (`$0`) is
    left as it was."""
    body = "sleep 5 | cat"
    argv = [sys.executable, "-m", "tokenjuice", "wrap", "--source", body, "--keep-path", "--"]
    argv += ["/bin/bash", "-lc", body, body]
    env = os.environ | {"TOKENJUICE_HOME": str(tmp_path / "tj")}
    running = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not _children(running.pid) and time.monotonic() < deadline:  # wrap wipes before it forks
            time.sleep(0.05)
        assert _children(running.pid), "wrap never started bash"
        with open(f"/proc/{running.pid}/cmdline", "rb") as file:
            seen = file.read().split(b"\0")[:-1]
    finally:
        running.kill()
        running.communicate(timeout=30)
    expected = [os.fsencode(word) for word in argv]
    expected[-2] = b"\0" * len(body)  # split on NULs: the wiped argument reads as empty ones
    assert b"\0".join(seen) == b"\0".join(expected), seen
    assert seen[5] == seen[-1] == body.encode()


def _children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return file.read().split()
    except OSError:
        return []


@pytest.mark.parametrize("shell", ["dash", "zsh"])
def test_other_shells_keep_the_command_in_their_arguments(shell, tmp_path):
    """`eval` in dash and zsh names itself in error messages (and zsh's line numbers
    change with it), so there the command stays what `-lc` runs, as the docs say."""
    path = shutil.which(shell)
    if path is None:
        pytest.skip(f"{shell} is not installed")
    (tmp_path / "show.py").write_text(SHOW_PARENTS)
    done, _ = wrapped_and_direct(f"echo secret-word-41; {sys.executable} show.py | cat", tmp_path, shell=path)
    shell_args, wrap_args = done.stdout.splitlines()[1:3]
    assert shell_args.startswith(f"{path} -lc ") and "echo secret-word-41" in shell_args, done.stdout
    assert "secret-word" not in wrap_args  # wrap's own copy is wiped all the same


KILLED_LAST = "sh -c 'kill -TERM $$'"


@pytest.mark.parametrize(
    "command, hidden",
    [
        (KILLED_LAST, False),  # bash -c execs it: bash says nothing of the signal
        (f"echo a\n{KILLED_LAST}", False),
        (f"true; {KILLED_LAST}", False),
        (f"{KILLED_LAST} 2>&1", True),  # redirected: bash -c forks, and says `Terminated`
        (f"{KILLED_LAST} | cat", True),
        (f"{{ {KILLED_LAST}; }}", True),
        (f"cat <<'EOF'\nsecret\nEOF\n{KILLED_LAST} >&2", True),
    ],
)
def test_a_last_command_bash_c_would_exec_keeps_the_command_in_argv(command, hidden, tmp_path):
    """`eval` never execs its last command in bash's place, `bash -c` does for a last
    simple command without redirections: handed over, bash would stay and print
    `Terminated` when a signal ends that command. So those bodies stay in argv, and
    the output is the same either way."""
    assert syntax.bash_execs_last(command) is not hidden
    wrapped, direct = wrapped_and_direct(command, tmp_path)
    status = direct.returncode if direct.returncode >= 0 else 128 - direct.returncode  # wrap hands back 128+N
    assert (wrapped.stdout, wrapped.stderr, wrapped.returncode) == (direct.stdout, direct.stderr, status)


def test_a_body_too_long_for_one_variable_stays_in_argv(monkeypatch):
    """An environment string is bounded like an argument (MAX_ARG_STRLEN, name and `=`
    included): a body that only fits as an argument stays one; dash, zsh and fish keep
    theirs, and a body bash would exec at its end too."""
    monkeypatch.delenv(wrap_command.COMMAND_VARIABLE, raising=False)
    fits = "echo " + "x" * (syntax.MAX_ARG_STRLEN - 100) + " | cat"
    too_long = "echo " + "x" * (syntax.MAX_ARG_STRLEN - 20) + " | cat"
    for argv in (
        ["/bin/bash", "-lc", too_long],
        ["/usr/bin/zsh", "-lc", "echo x | cat"],
        ["/bin/dash", "-lc", "echo x | cat"],
        ["/usr/bin/fish", "-lc", "echo x | cat"],
        ["/bin/bash", "-lc", "make"],
        ["/bin/bash", "-c", "echo x | cat"],  # not a login shell: not a hook's wrap
    ):
        assert wrap_command.out_of_sight(list(argv)) == (argv, None)
        assert wrap_command.COMMAND_VARIABLE not in os.environ
    handed, started = wrap_command.out_of_sight(["/bin/bash", "-lc", fits])
    assert handed == ["/bin/bash", "-lc", wrap_command.FROM_VARIABLE] and started is not None
    assert os.environ[wrap_command.COMMAND_VARIABLE].endswith(f">&-;{fits}")
    assert not wrap_command._started(started)  # nothing ran: nothing was written into the pipe
