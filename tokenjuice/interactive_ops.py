"""`tokenjuice.interactive`'s rules for remote sessions, containers, clusters, cloud CLIs,
logins and package managers' prompts.

Imported only when a command names one of these tools (`interactive._MORE_RULES`), so the
hook's common case (git, npm, python, pytest, a shell) loads none of it.
"""

from __future__ import annotations

from .argv import GLOBAL_VALUE_OPTIONS
from .interactive import (
    _MONITOR,
    _SERVER,
    _WATCH,
    DETACHED,
    ENDLESS,
    TERMINAL,
    _check,
    _Context,
    _first_operand,
    _login,
    _scan,
    _script,
    _subcommand,
    _tool,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .interactive import Reason, Rule


# -- remote sessions, containers, clusters ---------------------------------------------


_SSH_VALUES = "BbcDEeFIiJLlmOoPpQRSWw"


def _ssh(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, _SSH_VALUES, stop_at_operand=True)
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
    after = _scan(argv, args.stop + 1, _SSH_VALUES, stop_at_operand=True)  # OpenSSH reads options after the host too
    flags = {**args.flags, **after.flags}
    if "-N" in flags:
        return ENDLESS, "forwards ports until stopped (ssh -N)"
    remote = argv[after.stop :]
    if not remote:
        return None if ctx.stdin or "-n" in flags else (TERMINAL, "interactive session (ssh without a remote command)")
    # the remote command reads this side's stdin unless -n; ssh joins its words for the remote shell
    return _script(" ".join(remote), "posix", ctx.inner(stdin=ctx.stdin or "-n" in flags))


def _sftp(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "bBcDFiJloPRSsX")
    if args.has("-b") or any(":" in w for w in args.operands) or ctx.stdin:
        return None
    return TERMINAL, f"interactive session ({name} without -b)"


def _ftp(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if ctx.stdin or (name == "lftp" and _scan(argv, 1, "cefpu").has("-c", "-f")):
        return None
    return TERMINAL, f"interactive session ({name})"


def _netcat(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "wpsiqxXIOTeVMc", frozenset({"--wait", "--source-port", "--exec", "--sh-exec"}))
    if args.has("-l", "--listen"):
        return ENDLESS, f"listens until stopped ({name} -l)"
    if args.has("-z", "--zero", "-w", "--wait", "-q", "-N") or ctx.stdin or len(args.operands) < 2:
        return None
    return TERMINAL, f"interactive connection ({name} host port)"


def _ssh_keygen(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "abCDEFfGIJjKmNnOPrsSTtVwYzZ")
    if args.has("-R", "-F", "-l", "-y", "-e", "-i", "-D", "-H", "-L", "-Q", "-Y", "-r", "-B", "-A", "-k", "-K"):
        return None  # not generating a key (or host keys, which never ask)
    if args.has("-p"):
        return None if args.has("-P", "-N") and args.has("-f") else (TERMINAL, "asks for a passphrase (ssh-keygen -p)")
    if args.has("-f") and args.has("-N"):
        return None
    return TERMINAL, "prompts for a file and passphrase (ssh-keygen without -f and -N)"


def _gpg(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv)
    prompting = ("--gen-key", "--generate-key", "--full-gen-key", "--full-generate-key", "--edit-key", "--card-edit")
    if args.has("--batch"):
        return None
    for flag in prompting + ("--change-passphrase", "--passwd"):
        if flag in args.flags:
            return TERMINAL, f"prompts for input (gpg {flag})"
    return None


_DOCKER_RUN_SHORT = "evpwulhmca"
_DOCKER_RUN_LONG = frozenset(
    {"--env", "--volume", "--publish", "--workdir", "--user", "--label", "--hostname", "--memory", "--cpu-shares"}
    | {"--attach", "--name", "--network", "--net", "--entrypoint", "--env-file", "--mount", "--platform", "--cpus"}
    | {"--add-host", "--device", "--cap-add", "--cap-drop", "--restart", "--log-driver", "--log-opt", "--security-opt"}
    | {"--shm-size", "--ulimit", "--pull", "--gpus", "--ipc", "--pid", "--expose", "--link", "--dns", "--tmpfs"}
    | {"--label-file", "--cidfile", "--health-cmd", "--stop-signal", "--stop-timeout", "--runtime", "--userns"}
    | {"--volumes-from", "--group-add", "--network-alias", "--sysctl", "--ip", "--ip6", "--detach-keys", "--uts"}
    | {"--cgroupns", "--cpuset-cpus", "--memory-swap", "--pids-limit", "--annotation", "--isolation", "--domainname"}
)
_DOCKER_EXEC_LONG = frozenset({"--env", "--env-file", "--user", "--workdir", "--detach-keys"})


_DOCKER_GROUPS = frozenset({"container", "image", "system", "volume", "network", "builder", "buildx"})


def _docker(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    index = 1
    values = GLOBAL_VALUE_OPTIONS["docker"]
    while index < len(argv) and argv[index].startswith("-"):
        index += 2 if argv[index] in values else 1
    if index >= len(argv):
        return None
    sub, rest = argv[index], argv[index + 1 :]
    group = None
    if sub in _DOCKER_GROUPS and rest:
        group, sub, rest = sub, rest[0], rest[1:]
        if sub == "prune" and not _scan(rest, 0, "", frozenset({"--filter"})).has("-f", "--force") and not ctx.stdin:
            return TERMINAL, f"asks for confirmation ({name} {group} prune without -f)"
        if group not in ("container", "system"):
            return None
    if sub == "compose":
        return _compose(f"{name} compose", rest, ctx)
    if sub == "run":
        return _docker_run(name, rest, ctx)
    if sub == "exec":
        args = _scan(rest, 0, "euw", _DOCKER_EXEC_LONG, stop_at_operand=True)
        if args.on("-d", "--detach"):
            return None
        interactive = args.has("-i", "--interactive")
        if interactive and args.has("-t", "--tty"):
            return TERMINAL, f"interactive container ({name} exec -it)"
        command = rest[args.stop + 1 :]
        return _check(command, ctx.inner(stdin=not interactive or ctx.stdin)) if command else None
    if sub == "attach":
        return TERMINAL, f"attaches to a container ({name} attach)"
    if sub == "start":
        args = _scan(rest, 0)
        if args.has("-a", "--attach") and args.has("-i", "--interactive"):
            return TERMINAL, f"interactive container ({name} start -ai)"
    if sub == "logs" and _scan(rest, 0, "n", frozenset({"--tail", "--since", "--until"})).on("-f", "--follow"):
        return ENDLESS, f"follows output forever ({name} logs -f)"
    if sub == "events" and "--until" not in _scan(rest, 0, "f", frozenset({"--filter", "--format", "--since"})).flags:
        return ENDLESS, f"streams forever ({name} events)"
    if sub == "stats" and not _scan(rest, 0).has("--no-stream"):
        return ENDLESS, f"{_MONITOR} ({name} stats without --no-stream)"
    if sub == "login":
        args = _scan(rest, 0, "up", frozenset({"--username", "--password"}))
        if not args.has("-p", "--password", "--password-stdin"):
            return TERMINAL, f"logs in interactively ({name} login)"
    return None


def _docker_run(name: str, rest: list[str], ctx: _Context) -> Reason | None:
    args = _scan(rest, 0, _DOCKER_RUN_SHORT, _DOCKER_RUN_LONG, stop_at_operand=True)
    if args.on("-d", "--detach"):
        return None
    interactive = args.has("-i", "--interactive")
    if interactive and args.has("-t", "--tty"):
        return TERMINAL, f"interactive container ({name} run -it)"
    command = rest[args.stop + 1 :]
    if command:
        found = _check(command, ctx.inner(stdin=not interactive))
        if found:
            return found
    if args.has("-p", "--publish", "-P", "--publish-all"):
        return ENDLESS, f"server container in the foreground ({name} run -p without -d)"
    return None


_COMPOSE_VALUES = frozenset({"-f", "--file", "-p", "--project-name", "--profile", "--env-file", "--project-directory"})
_COMPOSE_VALUES |= {"--ansi", "--parallel", "--progress"}


def _compose(label: str, argv: list[str], ctx: _Context) -> Reason | None:
    index, sub = _first_operand(argv, 0, _COMPOSE_VALUES)
    if sub is None:
        return None
    rest = argv[index + 1 :]
    if sub == "up":
        args = _scan(rest, 0, "t", frozenset({"--timeout", "--scale", "--exit-code-from", "--attach", "--no-attach"}))
        if args.has("-d", "--detach", "--wait", "--abort-on-container-exit", "--exit-code-from", "--dry-run"):
            return None
        return ENDLESS, f"runs in the foreground until stopped ({label} up without -d)"
    if sub == "watch":
        return ENDLESS, f"{_WATCH} ({label} watch)"
    if sub == "logs" and _scan(rest, 0, "n", frozenset({"--tail", "--since", "--until"})).has("-f", "--follow"):
        return ENDLESS, f"follows output forever ({label} logs -f)"
    if sub == "events":
        return ENDLESS, f"streams forever ({label} events)"
    if sub == "attach":
        return TERMINAL, f"attaches to a container ({label} attach)"
    if sub in ("exec", "run"):
        long = frozenset({"--env", "--user", "--workdir", "--index", "--name", "--entrypoint", "--volume", "--publish"})
        args = _scan(rest, 0, "euwvpl", long, stop_at_operand=True)
        if args.has("-d", "--detach"):
            return None
        command = rest[args.stop + 1 :]
        if command:
            return _check(command, ctx.inner(stdin=args.has("-T", "--no-TTY", "--no-tty") or ctx.stdin))
        if sub == "run" and args.has("--service-ports"):
            return ENDLESS, f"server container in the foreground ({label} run --service-ports)"
    return None


def _docker_compose(argv: list[str], ctx: _Context) -> Reason | None:
    return _compose(_tool(argv[0]), argv[1:], ctx)


_KUBECTL_LONG = frozenset(
    {"--namespace", "--context", "--selector", "--output", "--container", "--since", "--tail", "--kubeconfig"}
    | {"--cluster", "--user", "--field-selector", "--sort-by", "--template", "--label-columns", "--since-time"}
    | {"--limit-bytes", "--max-log-requests", "--pod-running-timeout", "--filename", "--chunk-size", "--server"}
    | {"--token", "--as", "--request-timeout", "--for", "--timeout", "--image", "--port", "--address"}
)


def _kubectl(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    index, sub = _first_operand(argv, 1, GLOBAL_VALUE_OPTIONS["kubectl"])
    if sub is None:
        return None
    rest = argv[index + 1 :]
    short = "cnlLs" if sub in ("logs", "log") else "cnloLsf"  # `logs -f` follows, `logs -p` is previous
    args = _scan(rest, 0, short, _KUBECTL_LONG)
    if sub in ("port-forward", "proxy"):
        return ENDLESS, f"forwards until stopped ({name} {sub})"
    if sub in ("logs", "log") and args.on("-f", "--follow"):
        return ENDLESS, f"follows output forever ({name} logs -f)"
    if sub in ("get", "events", "top") and args.on("-w", "--watch", "--watch-only"):
        return ENDLESS, f"{_WATCH} ({name} {sub} --watch)"
    if sub in ("exec", "attach", "run", "debug"):
        tty = args.has("-t", "--tty") and args.has("-i", "--stdin")
        if tty:
            return TERMINAL, f"interactive container ({name} {sub} -it)"
        if sub == "attach":
            return ENDLESS, f"streams a container's output ({name} attach)"
        if sub == "exec" and "--" in rest:
            command = rest[rest.index("--") + 1 :]
            return _check(command, ctx.inner(stdin=not args.has("-i", "--stdin"))) if command else None
    if sub == "edit":
        return TERMINAL, f"opens an editor ({name} edit)"
    if sub == "rsh" and not args.operands[1:]:
        return TERMINAL, f"interactive shell ({name} rsh)"
    if sub == "login" and not args.has("--token", "-u", "--username", "-p", "--password", "--web"):
        return TERMINAL, f"logs in interactively ({name} login)"
    return None


def _minikube(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("tunnel", "mount"):
        return ENDLESS, f"runs until stopped (minikube {sub})"
    if sub == "dashboard" and "--url" not in argv:
        return ENDLESS, "runs until stopped (minikube dashboard)"
    return None


def _ngrok(argv: list[str], ctx: _Context) -> Reason | None:
    if len(argv) > 1 and argv[1] in ("http", "tcp", "tls", "start", "tunnel"):
        return ENDLESS, f"tunnel that runs until stopped (ngrok {argv[1]})"
    return None


def _cloudflared(argv: list[str], ctx: _Context) -> Reason | None:
    if argv[1:2] == ["tunnel"]:
        rest = argv[2:]
        _, sub = _first_operand(rest, 0, frozenset({"--config", "--url", "--hostname", "--loglevel", "--name"}))
        if sub in (None, "run") or "--url" in rest or any(w.startswith("--url=") for w in rest):
            return ENDLESS, "tunnel that runs until stopped (cloudflared tunnel)"
    return None


def _pm2(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "logs" and "--nostream" not in argv:
        return ENDLESS, "follows output forever (pm2 logs)"
    if sub in ("monit", "dashboard", "dash"):
        return TERMINAL, f"{_MONITOR} (pm2 {sub})"
    return None


def _heroku(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "logs" and _scan(argv, 2, "adns").has("-t", "--tail"):
        return ENDLESS, "follows output forever (heroku logs --tail)"
    if sub in ("run", "run:inside"):
        args = _scan(
            argv, 2, "asre", frozenset({"--app", "--size", "--remote", "--env", "--type"}), stop_at_operand=True
        )
        command = argv[args.stop :]
        return _check(command, ctx.inner()) if command else None
    if sub in ("local", "local:start"):
        return ENDLESS, "runs Procfile processes until stopped (heroku local)"
    return _subcommand("heroku", argv)


def _fly(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    sub = argv[1] if len(argv) > 1 else None
    if sub == "logs" and "--no-tail" not in argv and "-n" not in argv:
        return ENDLESS, f"follows output forever ({name} logs)"
    if sub == "ssh" and argv[2:3] == ["console"] and not _scan(argv, 3, "aCs").has("-C", "--command"):
        return TERMINAL, f"interactive shell ({name} ssh console)"
    if sub == "proxy":
        return ENDLESS, f"forwards until stopped ({name} proxy)"
    return _subcommand(name, argv)


def _gh(argv: list[str], ctx: _Context) -> Reason | None:
    words = [w for w in argv[1:3] if not w.startswith("-")]
    rest = argv[3:]
    args = _scan(rest, 0, "tbFBHalmprRTsAhcj")
    if words == ["auth", "login"] and not args.has("--with-token"):
        return TERMINAL, "logs in interactively (gh auth login)"
    if words == ["auth", "refresh"]:
        return TERMINAL, "logs in through a browser (gh auth refresh)"
    if words in (["codespace", "ssh"], ["cs", "ssh"]) and "--" not in rest:
        return TERMINAL, "interactive session (gh codespace ssh)"
    if words in (["pr", "create"], ["issue", "create"]):
        titled = args.has("-t", "--title") and args.has("-b", "--body", "-F", "--body-file", "-T", "--template")
        if not (titled or args.has("-f", "--fill", "--fill-first", "--fill-verbose", "-w", "--web")):
            return TERMINAL, f"prompts for a title and body (gh {' '.join(words)} without --title/--body or --fill)"
    if words == ["pr", "merge"] and not args.has("-m", "--merge", "-s", "--squash", "-r", "--rebase", "--auto"):
        return TERMINAL, "prompts for a merge method (gh pr merge without --merge/--squash/--rebase)"
    if words == ["repo", "create"] and not args.has("--public", "--private", "--internal"):
        return TERMINAL, "prompts for answers (gh repo create without --public/--private)"
    return None


def _leading_operands(argv: list[str], values: frozenset[str], most: int) -> list[str]:
    """The first `most` words after the program that are neither options nor the values
    of options in `values`: a cloud CLI's command group and command (`aws sso login`)."""
    words: list[str] = []
    index = 1
    while index < len(argv) and len(words) < most:
        word = argv[index]
        if word.startswith("-"):
            index += 2 if word in values else 1
            continue
        words.append(word)
        index += 1
    return words


def _aws(argv: list[str], ctx: _Context) -> Reason | None:
    words = _leading_operands(argv, GLOBAL_VALUE_OPTIONS["aws"], 3)
    if words[:1] == ["configure"] and (len(words) == 1 or words[1] in ("sso", "sso-session")):
        return TERMINAL, f"prompts for answers (aws {' '.join(words[:2])})"
    if words[:2] == ["sso", "login"]:
        return TERMINAL, "logs in through a browser (aws sso login)"
    if words[:2] == ["logs", "tail"] and _scan(argv).has("--follow"):
        return ENDLESS, "follows output forever (aws logs tail --follow)"
    if words[:2] == ["ssm", "start-session"] or (words[:2] == ["ecs", "execute-command"] and "--interactive" in argv):
        return TERMINAL, f"interactive session (aws {' '.join(words[:2])})"
    return None


def _gcloud(argv: list[str], ctx: _Context) -> Reason | None:
    values = GLOBAL_VALUE_OPTIONS["gcloud"] | {"--zone", "--region", "--command", "--ssh-flag"}
    words = _leading_operands(argv, values, 4)
    args = _scan(argv)
    if words[:1] == ["init"]:
        return TERMINAL, "prompts for answers (gcloud init)"
    login = words[:2] == ["auth", "login"] or words[:3] == ["auth", "application-default", "login"]
    if login and not args.has("--cred-file"):
        return TERMINAL, "logs in through a browser (gcloud auth login)"
    if "ssh" in words[:3] and not args.has("--command"):
        return TERMINAL, "interactive session (gcloud compute ssh without --command)"
    if ("tail" in words and ("logs" in words or "logging" in words)) or ("emulators" in words and "start" in words):
        return ENDLESS, f"runs until stopped (gcloud {' '.join(words)})"
    if words[:1] == ["interactive"] or words[1:2] == ["interactive"]:
        return TERMINAL, "interactive shell (gcloud interactive)"
    return None


def _az(argv: list[str], ctx: _Context) -> Reason | None:
    words = [w for w in argv[1:4] if not w.startswith("-")]
    args = _scan(argv, 1, "upt", frozenset({"--username", "--password", "--tenant", "--subscription"}))
    if words[:1] == ["login"]:
        if args.has("--service-principal", "--identity", "--federated-token") or (
            args.has("-u", "--username") and args.has("-p", "--password")
        ):
            return None
        return TERMINAL, "logs in through a browser (az login)"
    if words[:2] == ["ssh", "vm"] or words[:1] == ["interactive"]:
        return TERMINAL, f"interactive session (az {' '.join(words[:2])})"
    if words[-2:] == ["log", "tail"]:
        return ENDLESS, f"follows output forever (az {' '.join(words)})"
    return None


def _terraform(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    index, sub = _first_operand(argv, 1)
    if sub == "console" and not ctx.stdin:
        return TERMINAL, f"interactive REPL ({name} console)"
    if sub in ("apply", "destroy"):
        rest = argv[index + 1 :]
        options = {w.lstrip("-") for w in rest if w.startswith("-")}
        no_input = {"input=false", "input=0"} & options or ctx.env.get("TF_INPUT", "").lower() in ("0", "false")
        if "auto-approve" in options or "auto-approve=true" in options or no_input or ctx.stdin:
            return None
        if sub == "apply" and any(not w.startswith("-") for w in rest):
            return None  # a saved plan is applied without asking
        return TERMINAL, f"asks for confirmation ({name} {sub} without -auto-approve)"
    return None


def _pulumi(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub == "login":
        return _login("pulumi", argv, 2)
    if sub == "watch":
        return ENDLESS, f"{_WATCH} (pulumi watch)"
    return None


def _apt(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "oct", frozenset({"--option", "--config-file", "--target-release"}))
    sub = args.operands[0] if args.operands else None
    changing = ("install", "remove", "purge", "upgrade", "dist-upgrade", "full-upgrade", "autoremove", "autopurge")
    if sub not in changing + ("reinstall", "build-dep", "source"):
        return None
    quiet_two = any(w.startswith("-qq") or w in ("-q=2", "--quiet=2") for w in argv)
    if args.has("-y", "--yes", "--assume-yes") or quiet_two or sub == "source" or ctx.stdin:
        return None
    return TERMINAL, f"asks for confirmation ({name} {sub} without -y)"


def _dnf(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "cdexR", frozenset({"--repo", "--enablerepo", "--disablerepo", "--setopt", "--exclude"}))
    changing: tuple[str, ...] = (
        "install",
        "remove",
        "erase",
        "upgrade",
        "update",
        "downgrade",
        "reinstall",
        "autoremove",
    )
    changing += ("group", "groupinstall", "localinstall", "module", "distro-sync", "swap")
    if args.operands[:1] and args.operands[0] in changing and not args.has("-y", "--assumeyes", "--assumeno", "-q"):
        if ctx.stdin:
            return None
        return TERMINAL, f"asks for confirmation ({name} {args.operands[0]} without -y)"
    return None


def _pacman(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "bro", frozenset({"--root", "--dbpath", "--config", "--cachedir", "--overwrite"}))
    if args.has("--noconfirm") or ctx.stdin or not args.has("-S", "-R", "-U", "--sync", "--remove", "--upgrade"):
        return None
    if args.has("-S", "--sync") and args.has("-s", "-i", "-l", "-g", "-p", "-c", "--search", "--info", "--print"):
        return None  # queries
    if args.has("-S", "--sync") and not args.operands and not args.has("-u", "--sysupgrade"):
        return None  # `pacman -Sy` only refreshes the databases
    return TERMINAL, f"asks for confirmation ({name} without --noconfirm)"


def _zypper(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "", frozenset({"--root", "--config", "--repo"}))
    changing = ("in", "install", "rm", "remove", "up", "update", "dup", "dist-upgrade", "patch", "si")
    quiet = args.has("-n", "--non-interactive", "-y", "--no-confirm") or ctx.stdin
    if args.operands[:1] and args.operands[0] in changing and not quiet:
        return TERMINAL, f"asks for confirmation (zypper {args.operands[0]} without -n)"
    return None


def _init_prompt(flags: tuple[str, ...]) -> Rule:
    """`<tool> init` that asks questions unless given one of `flags`."""

    def rule(argv: list[str], ctx: _Context) -> Reason | None:
        name = _tool(argv[0])
        _, sub = _first_operand(argv, 1)
        if sub == "init" and not _scan(argv).has(*flags) and not ctx.stdin:
            return TERMINAL, f"prompts for answers ({name} init)"
        return _subcommand(name, argv)

    return rule


def _subshell_tool(words_needed: tuple[str, ...], command_flags: tuple[str, ...], label: str) -> Rule:
    """`poetry shell`, `nix develop`, `vagrant ssh`, …: an interactive shell unless given a command."""

    def rule(argv: list[str], ctx: _Context) -> Reason | None:
        name = _tool(argv[0])
        words = [w for w in argv[1:] if not w.startswith("-")][: len(words_needed)]
        if tuple(words) != words_needed:
            return None
        if "--" in argv[1:] or _scan(argv).has(*command_flags) or ctx.stdin:
            return None
        return TERMINAL, f"{label} ({' '.join([name, *words_needed])})"

    return rule


def _nix_shell(argv: list[str], ctx: _Context) -> Reason | None:
    if _scan(argv, 1, "pAIE", frozenset({"--run", "--command", "--arg", "--argstr", "--packages"})).has(
        "--run", "--command"
    ) or any(not w.startswith("-") and w.endswith(".sh") for w in argv[1:]):
        return None
    return None if ctx.stdin else (TERMINAL, "interactive shell (nix-shell without --run)")


def _chroot(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "", frozenset({"--userspec", "--groups"}), stop_at_operand=True)
    if args.stop >= len(argv):
        return None
    if args.stop + 1 >= len(argv):
        return None if ctx.stdin else (TERMINAL, "interactive shell (chroot without a command)")
    return _check(argv[args.stop + 1 :], ctx.inner())


def _vm_shell(argv: list[str], ctx: _Context) -> Reason | None:
    """`distrobox enter`, `toolbox enter`, `limactl shell`, `multipass shell`, `vagrant ssh`, `wsl`."""
    name = _tool(argv[0])
    words = [w for w in argv[1:] if not w.startswith("-")]
    if name == "vagrant":
        if words[:1] == ["ssh"] and not _scan(argv, 2, "c").has("-c", "--command") and not ctx.stdin:
            return TERMINAL, "interactive session (vagrant ssh without -c)"
        return None
    if name == "wsl":
        return None if len(argv) > 1 or ctx.stdin else (TERMINAL, "interactive shell (wsl)")
    if name == "limactl" and words[:1] == ["shell"] and len(words) < 3 and "--" not in argv and not ctx.stdin:
        return TERMINAL, "interactive shell (limactl shell)"
    if name == "multipass" and words[:1] == ["shell"]:
        return TERMINAL, "interactive shell (multipass shell)"
    if name in ("distrobox", "toolbox") and words[:1] == ["enter"] and "--" not in argv and not ctx.stdin:
        return TERMINAL, f"interactive shell ({name} enter)"
    return None


def _firebase(argv: list[str], ctx: _Context) -> Reason | None:
    sub = argv[1] if len(argv) > 1 else None
    if sub in ("serve", "emulators:start", "emulators:exec"):
        return (ENDLESS, f"{_SERVER} (firebase {sub})") if sub != "emulators:exec" else None
    if sub == "init":
        return TERMINAL, "prompts for answers (firebase init)"
    if sub == "login":
        return TERMINAL, "logs in interactively (firebase login)"
    return None


def _sam(argv: list[str], ctx: _Context) -> Reason | None:
    words = [w for w in argv[1:3] if not w.startswith("-")]
    if words[:1] == ["local"] and words[1:2] in (["start-api"], ["start-lambda"]):
        return ENDLESS, f"{_SERVER} (sam local {words[1]})"
    if words[:1] == ["init"] and "--no-interactive" not in argv:
        return TERMINAL, "prompts for answers (sam init)"
    if words[:1] == ["logs"] and _scan(argv, 2, "nst").has("-t", "--tail"):
        return ENDLESS, "follows output forever (sam logs --tail)"
    return None


def _nix(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(argv, 1, frozenset({"--option", "--extra-experimental-features"}))
    if sub in ("develop", "shell") and not _scan(argv).has("-c", "--command") and not ctx.stdin:
        return TERMINAL, f"interactive shell (nix {sub} without --command)"
    if sub == "repl" and not ctx.stdin:
        return TERMINAL, "interactive REPL (nix repl)"
    return None


RULES: dict[str, Rule] = {
    "ssh": _ssh,
    "autossh": _ssh,
    "sftp": _sftp,
    "ftp": _ftp,
    "lftp": _ftp,
    "nc": _netcat,
    "ncat": _netcat,
    "netcat": _netcat,
    "ssh-keygen": _ssh_keygen,
    "gpg": _gpg,
    "gpg2": _gpg,
    "docker": _docker,
    "podman": _docker,
    "nerdctl": _docker,
    "docker-compose": _docker_compose,
    "podman-compose": _docker_compose,
    "kubectl": _kubectl,
    "oc": _kubectl,
    "minikube": _minikube,
    "ngrok": _ngrok,
    "cloudflared": _cloudflared,
    "pm2": _pm2,
    "heroku": _heroku,
    "fly": _fly,
    "flyctl": _fly,
    "firebase": _firebase,
    "sam": _sam,
    "vagrant": _vm_shell,
    "wsl": _vm_shell,
    "limactl": _vm_shell,
    "multipass": _vm_shell,
    "distrobox": _vm_shell,
    "toolbox": _vm_shell,
    "chroot": _chroot,
    "gh": _gh,
    "aws": _aws,
    "gcloud": _gcloud,
    "az": _az,
    "terraform": _terraform,
    "tofu": _terraform,
    "pulumi": _pulumi,
    "apt": _apt,
    "apt-get": _apt,
    "aptitude": _apt,
    "dnf": _dnf,
    "yum": _dnf,
    "microdnf": _dnf,
    "pacman": _pacman,
    "yay": _pacman,
    "paru": _pacman,
    "zypper": _zypper,
    "composer": _init_prompt(("-n", "--no-interaction")),
    "eb": _init_prompt(("--platform",)),
    "amplify": _init_prompt(("--yes", "-y")),
    "pipenv": _subshell_tool(("shell",), (), "interactive shell"),
    "hatch": _subshell_tool(("shell",), (), "interactive shell"),
    "devbox": _subshell_tool(("shell",), (), "interactive shell"),
    "devenv": _subshell_tool(("shell",), (), "interactive shell"),
    "nix": _nix,
    "nix-shell": _nix_shell,
}
