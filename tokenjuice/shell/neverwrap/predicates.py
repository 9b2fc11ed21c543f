"""The named predicates of the never-wrap catalogue: what a declaration cannot say, for
the cases that `call` one or name a `test` (`unless`) (`npm run SCRIPT`, `ssh host cmd`, `docker run … cmd`, `terraform
apply`…). engine.py loads this module the first time a case names one, so the hook's common
commands (`git status`, `ls`, `pytest`) never unmarshal it. The engine's evaluation of the
case (`_Eval`) is handed to each: they read the command and reach back into the engine (a
command inside a command) through it, since importing the engine here would close a cycle.
"""

from __future__ import annotations

from ..argv import GLOBAL_VALUE_OPTIONS, OWN_COMMANDS, basename
from . import DETACHED, ENDLESS, TERMINAL
from . import data as _data

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from .engine import Entry, Reason, _Eval


def _script_reason(ev: _Eval, runner: str, script: str | None) -> Reason | None:
    """'dev server' / 'watch mode' for package.json script names that run until stopped:
    `dev`, `start:prod`, `web:dev`, `docs:serve`, `test:watch`; not `build:dev`, `db:start`."""
    if script is None:
        return None
    parts = script.lower().replace("-", ":").replace("_", ":").split(":")
    if "watch" in parts:
        return ENDLESS, f"watch mode ({runner} {script})"
    if any(part in ev.generic("one_shot_heads") for part in parts[1:]):
        return None  # `dev:setup`, `start-db`
    if parts[0] in ev.generic("dev_script_heads") or (
        parts[0] not in ev.generic("one_shot_heads") and {"dev", "serve", "server", "start"} & set(parts[1:])
    ):
        return ENDLESS, f"dev server ({runner} {script})"
    return None


def _passthrough_watch(ev: _Eval, runner: str, rest: list[str]) -> Reason | None:
    """`npm test -- --watch`, `yarn test --watchAll`: the test runner's watch mode."""
    args = ev.scan_argv([w for w in rest if w != "--"], 0)  # after `--` or not, they reach the script
    for flag in ("--watch", "--watchAll"):
        if args.on(flag):
            return ENDLESS, f"watch mode ({runner} {flag})"
    return None


def _run_script(ev: _Eval, case: Entry) -> Reason | None:
    """`<tool> run SCRIPT …`: what the script is known to do, else a watch flag passed to it."""
    rest = ev.rest()
    position, script = ev.first_operand(rest, 0, ev.option_values(ev.entry))
    if script is None:
        return None
    found = _script_reason(ev, f"{ev.name} run", script)
    return found or _passthrough_watch(ev, f"{ev.name} run {script}", rest[position + 1 :])


def _after_options(ev: _Eval, case: Entry) -> Reason | None:
    """`npm exec`, `pnpm dlx`, `yarn dlx`…: the command after the runner's options (`values`)."""
    rest = ev.rest()
    position, _ = ev.first_operand(rest, 0, case.get("values", ()))
    return ev.check(rest[position:]) if position < len(rest) else None


def _script_or_bin(ev: _Eval, case: Entry) -> Reason | None:
    """`pnpm dev`: a script of that name; `pnpm vite`: a package's binary."""
    return _script_reason(ev, ev.name, ev.sub) or ev.check([str(ev.sub), *ev.rest()])


def _check_rest(ev: _Eval, case: Entry) -> Reason | None:
    """`yarn workspace web dev` is `yarn dev`: the tool again, `skip` words (and then options
    taking `values`, when given) later."""
    rest, position = ev.rest(), case.get("skip", 0)
    if "values" in case:
        position = ev.first_operand(rest, position, case["values"])[0]
    return ev.check([ev.name, *rest[position:]]) if position < len(rest) else None


def _bun_run(ev: _Eval, case: Entry) -> Reason | None:
    rest = ev.rest()
    position, script = ev.first_operand(rest, 0)
    if script is None:
        return None
    return _script_reason(ev, "bun run", script) or ev.check(rest[position:])


def _task_script(ev: _Eval, case: Entry) -> Reason | None:
    """`deno task dev`: the task after the subcommand's options (`values`), by its name."""
    _, script = ev.first_operand(ev.argv, (ev.index or 0) + 1, case.get("values", ()))
    return _script_reason(ev, f"{ev.name} {ev.sub}", script)


def _task_runner(ev: _Eval, case: Entry) -> Reason | None:
    """turbo run dev, turbo dev, nx serve web, nx run web:serve, nx run-many -t serve, lerna run dev."""
    name, argv, sub = ev.name, ev.argv, ev.sub
    if sub == "run" or (sub == "run-many" and name == "nx"):
        values = ("--filter", "-F", "--scope", "-t", "--target")
        _, task = ev.first_operand(argv, (ev.index or 0) + 1, values)
        if task is None and sub == "run-many":
            given = [w.partition("=")[2] for w in argv if w.startswith(("--target=", "-t="))]
            task = given[0] if given else (argv[argv.index("-t") + 1] if "-t" in argv[:-1] else None)
        found = _script_reason(ev, f"{name} {sub}", task.rpartition(":")[2]) if task else None
        return (found[0], f"{found[1].rpartition('(')[0]}({name} {sub} {task})") if found else None
    return None if name == "lerna" else _script_reason(ev, name, sub)


def _run_after(ev: _Eval, case: Entry, skip: int) -> Reason | None:
    """The command after the options (and `skip` operands) is checked as any command."""
    command = ev.argv[ev.scan(case).stop + skip :]
    return ev.check(command) if command else None


def _as_tool(ev: _Eval, case: Entry) -> Reason | None:
    """`clickhouse client …` is `clickhouse-client …`; `php artisan …` is `artisan …`."""
    tool = case["values"][0]
    if case.get("base") and basename(str(ev.sub)) != tool:
        return None
    return ev.decide(ev.catalogue[tool], [tool, *ev.rest()], tool)


def _interval(ev: _Eval, case: Entry) -> Reason | None:
    """vmstat/iostat/sar [interval [count]]: an interval alone repeats forever."""
    numbers = [w for w in ev.args.operands if w.isdigit()]
    return (ENDLESS, f"repeats forever ({ev.name} {numbers[0]} without a count)") if len(numbers) == 1 else None


def _man(ev: _Eval, case: Entry) -> Reason | None:
    pager = (
        ev.args.flags.get("-P", ev.args.flags.get("--pager")) or ev.ctx.env.get("MANPAGER") or ev.ctx.env.get("PAGER")
    )
    if pager and ev.tool(pager.split()[0]) not in ev.generic("pagers"):
        return None
    return TERMINAL, "opens a pager (man)"


def _sqlite(ev: _Eval, case: Entry) -> Reason | None:
    """sqlite3/duckdb [options] [DB [SQL]]: a SQL argument (or duckdb -c) runs and exits."""
    name, argv, operands, index = ev.name, ev.argv, 0, 1
    while index < len(argv):
        word = argv[index]
        option = word.lstrip("-")
        if word.startswith("-") and word != "-":
            if option in ("version", "help", "c", "f", "s") and (option != "c" or name == "duckdb"):
                return None  # duckdb -c/-f/-s SQL, -version, -help
            index += 2 if option in case["values"] else 1
            continue
        operands += 1
        index += 1
    return None if operands >= 2 or ev.ctx.stdin else (TERMINAL, f"interactive REPL ({name} without SQL)")


_SSH_VALUES = "BbcDEeFIiJLlmOoPpQRSWw"


def _ssh(ev: _Eval, case: Entry) -> Reason | None:
    argv, ctx = ev.argv, ev.ctx
    args = ev.scan_argv(argv, 1, _SSH_VALUES, stop_at_operand=True)
    if args.has("-G", "-Q", "-V", "-O"):
        return None  # print config, query, version, control an existing master
    if args.has("-f"):
        return DETACHED, "goes to the background (ssh -f)"
    if args.has("-N"):
        return ENDLESS, "forwards ports until stopped (ssh -N)"
    if args.has("-W"):
        return ENDLESS, "forwards stdio until stopped (ssh -W)"
    if args.stop >= len(argv):
        return None  # no host: a usage error
    after = ev.scan_argv(
        argv, args.stop + 1, _SSH_VALUES, stop_at_operand=True
    )  # OpenSSH reads options after the host too
    flags = {**args.flags, **after.flags}
    if "-N" in flags:
        return ENDLESS, "forwards ports until stopped (ssh -N)"
    remote = argv[after.stop :]
    if not remote:
        return None if ctx.stdin or "-n" in flags else (TERMINAL, "interactive session (ssh without a remote command)")
    # the remote command reads this side's stdin unless -n; ssh joins its words for the remote shell
    return ev.script(" ".join(remote), stdin=ctx.stdin or "-n" in flags)


def _docker(ev: _Eval, case: Entry) -> Reason | None:
    """docker/podman/nerdctl: groups (`docker container run`), `run`, `exec`, then the data."""
    name, ctx = ev.name, ev.ctx
    if ev.index is None:
        return None
    sub, rest = ev.argv[ev.index], ev.argv[ev.index + 1 :]
    if sub in ev.generic("docker_groups") and rest:
        group, sub, rest = sub, rest[0], rest[1:]
        if sub == "prune" and not ev.scan_argv(rest, 0, "", ("--filter",)).has("-f", "--force") and not ctx.stdin:
            return TERMINAL, f"asks for confirmation ({name} {group} prune without -f)"
        if group not in ("container", "system"):
            return None
    if sub == "compose":
        return _compose(ev, f"{name} compose", rest)
    if sub in ("run", "exec"):
        values = case["values"] if sub == "run" else ("--env", "--env-file", "--user", "--workdir", "--detach-keys")
        args = ev.scan_argv(rest, 0, "evpwulhmca" if sub == "run" else "euw", values, stop_at_operand=True)
        if args.on("-d", "--detach"):
            return None
        interactive = args.has("-i", "--interactive")
        if interactive and args.has("-t", "--tty"):
            return TERMINAL, f"interactive container ({name} {sub} -it)"
        command = rest[args.stop + 1 :]
        found = ev.check(command, stdin=not interactive or (sub == "exec" and ctx.stdin)) if command else None
        if found or sub == "exec" or not args.has("-p", "--publish", "-P", "--publish-all"):
            return found
        return ENDLESS, f"server container in the foreground ({name} run -p without -d)"
    return ev.decide(_data.PARTS["docker:"], [sub, *rest], name, parent=ev)


def _compose(ev: _Eval, label: str, argv: list[str]) -> Reason | None:
    return ev.decide(_data.PARTS["compose:"], ["compose", *argv], label)


def _compose_command(ev: _Eval, case: Entry) -> Reason | None:
    """`docker compose exec|run SERVICE CMD…`: CMD decides; it reads stdin with -T."""
    command = ev.argv[ev.args.stop + 1 :]
    stdin = ev.args.has("-T", "--no-TTY", "--no-tty") or ev.ctx.stdin
    return ev.check(command, stdin=stdin) if command else None


def _gcloud(ev: _Eval, case: Entry) -> Reason | None:
    words, has = ev.words, ev.args.has
    if words[:1] == ["init"]:
        return TERMINAL, "prompts for answers (gcloud init)"
    login = words[:2] == ["auth", "login"] or words[:3] == ["auth", "application-default", "login"]
    if login and not has("--cred-file"):
        return TERMINAL, "logs in through a browser (gcloud auth login)"
    if "ssh" in words[:3] and not has("--command"):
        return TERMINAL, "interactive session (gcloud compute ssh without --command)"
    if ("tail" in words and ("logs" in words or "logging" in words)) or ("emulators" in words and "start" in words):
        return ENDLESS, f"runs until stopped (gcloud {' '.join(words)})"
    if words[:1] == ["interactive"] or words[1:2] == ["interactive"]:
        return TERMINAL, "interactive shell (gcloud interactive)"
    return None


def _terraform(ev: _Eval, case: Entry) -> Reason | None:
    rest = ev.rest()
    options = {w.lstrip("-") for w in rest if w.startswith("-")}
    no_input = {"input=false", "input=0"} & options or ev.ctx.env.get("TF_INPUT", "").lower() in ("0", "false")
    if "auto-approve" in options or "auto-approve=true" in options or no_input or ev.ctx.stdin:
        return None
    if ev.sub == "apply" and any(not w.startswith("-") for w in rest):
        return None  # a saved plan is applied without asking
    return TERMINAL, f"asks for confirmation ({ev.name} {ev.sub} without -auto-approve)"


def _kubectl_exec(ev: _Eval, case: Entry) -> Reason | None:
    rest = ev.argv[1:]
    if "--" not in rest:
        return None
    command = rest[rest.index("--") + 1 :]
    return ev.check(command, stdin=not ev.args.has("-i", "--stdin")) if command else None


def _login_call(ev: _Eval, case: Entry) -> Reason | None:
    start = ev.index + 1 if ev.index is not None else ev.argv.index(str(ev.sub)) + 1
    return ev.login(start)


CALLS: dict[str, Callable[[_Eval, Entry], Reason | None]] = {
    "run-script": _run_script,
    "test-watch": lambda ev, case: _passthrough_watch(ev, f"{ev.name} test", ev.rest()),
    "after-options": _after_options,
    "script-or-bin": _script_or_bin,
    "script-name": lambda ev, case: _script_reason(ev, ev.name, ev.sub),
    "bun-run": _bun_run,
    "task-script": _task_script,
    "task-runner": _task_runner,
    "check-rest": _check_rest,
    "run-after-options": lambda ev, case: _run_after(ev, case, 0),
    "run-after-operand": lambda ev, case: _run_after(ev, case, 1),
    "as-tool": _as_tool,
    "interval": _interval,
    "man": _man,
    "sqlite": _sqlite,
    "ssh": _ssh,
    "docker": _docker,
    "compose": lambda ev, case: _compose(ev, ev.name, ev.argv[1:]),
    "compose-command": _compose_command,
    "gcloud": _gcloud,
    "terraform": _terraform,
    "kubectl-exec": _kubectl_exec,
    "login": _login_call,
    "subcommand": lambda ev, case: ev.subcommand(),
}


# -- named tests (`test`, `unless`): read only by the cases that name one ---------------------


def _git_config(ev: _Eval) -> dict[str, str]:
    """`git -c key=value` given before the subcommand."""
    while ev.parent is not None:
        ev = ev.parent
    config: dict[str, str] = {}
    argv, index, values = ev.argv, 1, GLOBAL_VALUE_OPTIONS["git"]
    while index < len(argv) and argv[index].startswith("-"):
        if argv[index] == "-c" and index + 1 < len(argv):
            key, _, value = argv[index + 1].partition("=")
            config[key.lower()] = value
        index += 2 if argv[index] in values else 1
    return config


def _scripted_editor(ev: _Eval, value: str | None) -> bool:
    """An editor variable set to a command that needs no terminal (`true`, `sed -i …`)."""
    return bool(value and value.strip()) and ev.tool(str(value).split()[0]) not in ev.generic("editors")


def _editor(ev: _Eval, variable: str, key: str) -> str | None:
    return ev.ctx.env.get(variable, _git_config(ev).get(key))


def _scripted(ev: _Eval) -> bool:
    return _scripted_editor(ev, _editor(ev, "GIT_EDITOR", "core.editor"))


def _sequence_scripted(ev: _Eval) -> bool:
    sequence = _editor(ev, "GIT_SEQUENCE_EDITOR", "sequence.editor")
    return _scripted_editor(ev, sequence) or (sequence is None and _scripted(ev))


def _yes(ev: _Eval) -> bool:
    return ev.yes(ev.argv)


def _own_command(ev: _Eval) -> bool:
    return ev.sub in OWN_COMMANDS.get(ev.name, ())


TESTS: dict[str, Callable[[_Eval], bool]] = {
    "scripted-editor": _scripted,
    "scripted-sequence-editor": _sequence_scripted,
    "yes": _yes,
    "own-command": _own_command,
}
