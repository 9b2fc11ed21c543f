"""`tokenjuice.interactive`'s rules for followers, monitors, editors, pagers, databases' REPLs and terminal sessions.

Imported only when a command names one of these tools (`interactive._MORE_RULES`), so the
hook's common case (git, npm, python, pytest, a shell) loads none of it.
"""

from __future__ import annotations

from .interactive import (
    _MONITOR,
    _PAGERS,
    _TUI,
    ENDLESS,
    TERMINAL,
    _check,
    _Context,
    _first_operand,
    _scan,
    _tool,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .interactive import Reason, Rule


def _journalctl(argv: list[str], ctx: _Context) -> Reason | None:
    long = frozenset({"--unit", "--user-unit", "--identifier", "--since", "--until", "--output", "--priority"})
    args = _scan(argv, 1, "uptSUDMogc", long)
    if args.has("-f", "--follow"):
        return ENDLESS, "follows output forever (journalctl -f)"
    return None


def _dmesg(argv: list[str], ctx: _Context) -> Reason | None:
    if _scan(argv, 1, "flnF").has("-w", "-W", "--follow", "--follow-new"):
        return ENDLESS, "follows output forever (dmesg -w)"
    return None


def _watch(argv: list[str], ctx: _Context) -> Reason | None:
    return TERMINAL, "reruns a command forever (watch)"


def _top(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "ndpuUoOwsl")
    if (args.has("-b") and args.has("-n")) or args.has("-l"):
        return None  # batch mode with an iteration count; macOS logging mode
    return TERMINAL, f"{_MONITOR} (top)"


def _ping(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "ciwWstIlpQMSTmbr", frozenset({"--count", "--deadline"}))
    if args.has("-c", "-w", "--count", "--deadline"):
        return None
    return ENDLESS, f"pings forever ({name} without -c)"


def _tcpdump(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "ciwrCFGmsTWyEBjMQVzZ", frozenset({"--count", "--interface", "--read"}))
    if args.has("-c", "-r", "--count", "--read") or (name == "tshark" and args.has("-a")):
        return None
    return ENDLESS, f"captures forever ({name} without -c)"


def _mtr(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "cisaBfmPQGZ")
    report = ("-r", "--report", "-w", "--report-wide", "-j", "--json", "-C", "--csv", "-x", "--xml", "-l", "--raw")
    return None if args.has(*report) else (TERMINAL, f"{_MONITOR} (mtr without --report)")


def _interval_stat(argv: list[str], ctx: _Context) -> Reason | None:
    """vmstat/iostat/mpstat/pidstat/sar [interval [count]]: an interval alone repeats forever."""
    name = _tool(argv[0])
    args = _scan(argv, 1, _STAT_VALUES.get(name, ""))
    numbers = [w for w in args.operands if w.isdigit()]
    if len(numbers) == 1:
        return ENDLESS, f"repeats forever ({name} {numbers[0]} without a count)"
    return None


_STAT_VALUES = {"vmstat": "SM", "iostat": "gp", "mpstat": "PIN", "pidstat": "pCGTel", "sar": "fioPnIqrs"}


def _free(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "sc", frozenset({"--seconds", "--count"}))
    if args.has("-s", "--seconds") and not args.has("-c", "--count"):
        return ENDLESS, "repeats forever (free -s without -c)"
    return None


def _sleep(argv: list[str], ctx: _Context) -> Reason | None:
    return (ENDLESS, "sleeps forever (sleep infinity)") if "infinity" in argv[1:] else None


def _read(argv: list[str], ctx: _Context) -> Reason | None:
    if ctx.stdin or _scan(argv, 1, "adeinNptu").has("-t", "-u"):
        return None
    return TERMINAL, "waits for input (read)"


def _inotifywait(argv: list[str], ctx: _Context) -> Reason | None:
    if _scan(argv, 1, "eotT", frozenset({"--event", "--outfile", "--timeout", "--format"})).has("-m", "--monitor"):
        return ENDLESS, "watches forever (inotifywait -m)"
    return None


def _nvidia_smi(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "ifdq")
    if args.has("-l", "--loop", "-lms", "--loop-ms") or (
        args.operands[:1] in (["dmon"], ["pmon"]) and not args.has("-c")
    ):
        return ENDLESS, "repeats forever (nvidia-smi -l)"
    return None


def _iotop(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "ndpu")
    return None if args.has("-b") and args.has("-n") else (TERMINAL, f"{_MONITOR} (iotop)")


def _log(argv: list[str], ctx: _Context) -> Reason | None:  # macOS unified log
    return (ENDLESS, "follows output forever (log stream)") if argv[1:2] == ["stream"] else None


def _stern(argv: list[str], ctx: _Context) -> Reason | None:
    if not _scan(argv).on("--no-follow"):
        return ENDLESS, "follows output forever (stern)"
    return None


def _adb(argv: list[str], ctx: _Context) -> Reason | None:
    index, sub = _first_operand(argv, 1, frozenset({"-s", "-t", "-H", "-P", "-L"}))
    if sub == "logcat":
        args = _scan(argv, index + 1, "bvfrntTeps")
        if not args.has("-d", "-c", "-g", "-t", "-T", "--clear", "--dump"):
            return ENDLESS, "follows output forever (adb logcat)"
    if sub == "shell" and index + 1 >= len(argv) and not ctx.stdin:
        return TERMINAL, "interactive shell (adb shell)"
    return None


# -- editors, pagers -------------------------------------------------------------------


def _vim(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    words = set(argv[1:])
    ex_mode = words & {"-e", "-E"} or name == "ex"
    if words & {"--headless", "-es", "-Es", "-se", "-l"} or (ex_mode and "-s" in words):
        return None  # Ex/batch mode, nvim --headless, nvim -l script.lua
    return TERMINAL, f"opens an editor ({name})"


def _emacs(argv: list[str], ctx: _Context) -> Reason | None:
    if {"--batch", "-batch", "--script", "-script"} & set(argv[1:]):
        return None
    return TERMINAL, "opens an editor (emacs)"


def _emacsclient(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "asfFTuw", frozenset({"--socket-name", "--server-file", "--alternate-editor"}))
    if args.has("-e", "--eval", "-n", "--no-wait"):
        return None
    return TERMINAL, "opens an editor (emacsclient)"


def _gui_editor(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if _scan(argv, 1, "g").has("-w", "--wait"):
        return TERMINAL, f"waits for the editor to close ({name} --wait)"
    return None


def _man(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "PCMSemLprRET", frozenset({"--pager", "--config-file", "--manpath", "--sections"}))
    if args.has("-k", "-f", "-w", "-W", "--where", "--path", "--apropos", "--whatis", "-K", "--global-apropos"):
        return None
    pager = args.flags.get("-P", args.flags.get("--pager")) or ctx.env.get("MANPAGER") or ctx.env.get("PAGER")
    if pager and _tool(pager.split()[0]) not in _PAGERS:
        return None
    return TERMINAL, "opens a pager (man)"


def _crontab(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "u")
    if args.has("-e"):
        return TERMINAL, "opens an editor (crontab -e)"
    if not args.operands and not args.has("-l", "-r", "-i", "-T") and not ctx.stdin:
        return TERMINAL, "reads a crontab from the terminal (crontab)"
    return None


def _visudo(argv: list[str], ctx: _Context) -> Reason | None:
    return None if _scan(argv, 1, "f").has("-c", "--check") else (TERMINAL, "opens an editor (visudo)")


# -- databases -------------------------------------------------------------------------


def _psql(argv: list[str], ctx: _Context) -> Reason | None:
    values = frozenset({"--command", "--dbname", "--file", "--host", "--port", "--username", "--set", "--variable"})
    values |= {"--output", "--log-file", "--field-separator", "--record-separator", "--pset", "--table-attr"}
    args = _scan(argv, 1, "cdfhpUvoLFRPT", values)
    if args.has("-W", "--password"):
        return TERMINAL, "asks for a password (psql -W)"
    if args.has("-c", "--command", "-f", "--file", "-l", "--list", "-V") or ctx.stdin:
        return None
    return TERMINAL, "interactive REPL (psql without -c or -f)"


def _mysql(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    values = frozenset({"--execute", "--user", "--host", "--port", "--database", "--socket", "--defaults-file"})
    args = _scan(argv, 1, "euhPDSC", values, attached="p")
    if args.flags.get("-p") == "" or args.flags.get("--password") == "":
        return TERMINAL, f"asks for a password ({name} -p)"
    if args.has("-e", "--execute", "-V") or ctx.stdin:
        return None
    return TERMINAL, f"interactive REPL ({name} without -e)"


_SQLITE_VALUES = frozenset(
    {"cmd", "init", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap", "lookaside", "pagecache", "heap"}
)


def _sqlite(argv: list[str], ctx: _Context) -> Reason | None:
    """sqlite3/duckdb [options] [DB [SQL]]: a SQL argument (or duckdb -c) runs and exits."""
    name = _tool(argv[0])
    operands = []
    index = 1
    while index < len(argv):
        word = argv[index]
        option = word.lstrip("-")
        if word.startswith("-") and word != "-":
            if option in ("version", "help", "c", "f", "s") and (option != "c" or name == "duckdb"):
                return None  # duckdb -c/-f/-s SQL, -version, -help
            index += 2 if option in _SQLITE_VALUES else 1
            continue
        operands.append(word)
        index += 1
    if len(operands) >= 2 or ctx.stdin:
        return None
    return TERMINAL, f"interactive REPL ({name} without SQL)"


def _redis_cli(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    values = frozenset({"--user", "--pass", "--tls", "--sni", "--cacert", "--cacertdir", "--cert", "--key", "--rdb"})
    values |= {"--pipe-timeout", "--memkeys-samples", "--pattern", "--count", "--quoted-pattern", "--eval"}
    values |= {"--intrinsic-latency", "--functions-rdb", "--replica"}
    args = _scan(argv, 1, "hpsanriduD", values)
    if args.has("--stat", "--latency", "--latency-history", "--latency-dist", "--intrinsic-latency", "--replica"):
        return ENDLESS, f"{_MONITOR} ({name} --stat)"
    if args.flags.get("-r", "").startswith("-"):
        return ENDLESS, f"repeats forever ({name} -r -1)"
    if args.has("--ldb", "--ldb-sync-mode"):
        return TERMINAL, f"interactive debugger ({name} --ldb)"
    command = args.operands[0].lower() if args.operands else None
    if command in ("monitor", "subscribe", "psubscribe", "ssubscribe"):
        return ENDLESS, f"streams forever ({name} {command})"
    if command or ctx.stdin or args.has("--eval", "--pipe", "--scan", "--bigkeys", "--memkeys", "--hotkeys", "--rdb"):
        return None
    return TERMINAL, f"interactive REPL ({name} without a command)"


def _mongosh(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "fupr", frozenset({"--eval", "--file", "--username", "--password", "--host", "--port"}))
    if args.has("--shell"):
        return TERMINAL, f"interactive REPL ({name} --shell)"
    scripts = [w for w in args.operands if w.endswith((".js", ".mongodb"))]
    if args.has("--eval", "-f", "--file") or scripts or ctx.stdin:
        return None
    return TERMINAL, f"interactive REPL ({name} without --eval)"


def _db_repl(ok: tuple[str, ...], short_values: str = "") -> Rule:
    def rule(argv: list[str], ctx: _Context) -> Reason | None:
        name = _tool(argv[0])
        if _scan(argv, 1, short_values).has(*ok) or ctx.stdin:
            return None
        return TERMINAL, f"interactive REPL ({name} without {ok[0]})"

    return rule


def _sqlplus(argv: list[str], ctx: _Context) -> Reason | None:
    if any(w.startswith("@") for w in argv[1:]) or "-V" in argv or ctx.stdin:
        return None
    return TERMINAL, "interactive REPL (sqlplus without @script)"


def _rm(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "St" if name in ("cp", "mv") else "", frozenset({"--target-directory", "--suffix"}))
    interactive = args.has("-i") or args.flags.get("--interactive", "x") in ("", "always", "once")
    if interactive and not args.has("-f", "--force") and not ctx.stdin:
        return TERMINAL, f"asks for confirmation ({name} -i)"
    return None


def _tmux(argv: list[str], ctx: _Context) -> Reason | None:
    """tmux alone, `new`, `attach` take over the terminal; `ls`, `send-keys`, `new -d` do not."""
    index, sub = _first_operand(argv, 1, frozenset({"-L", "-S", "-f", "-c", "-T"}))
    if sub is None:
        return TERMINAL, "interactive session (tmux)"
    if sub in ("new", "new-session", "attach", "attach-session", "a", "at", "switch-client"):
        if _scan(argv, index + 1, "sntcxyFEef").has("-d"):
            return None
        return TERMINAL, f"interactive session (tmux {sub})"
    return None


def _screen(argv: list[str], ctx: _Context) -> Reason | None:
    """screen alone, `-r`, `-x`, `-S name` take over the terminal; `-dm` (detached), `-ls`, `-X` do not."""
    if {"-ls", "-list", "-wipe", "-v", "-version"} & set(argv[1:]):
        return None
    args = _scan(argv, 1, "SpXcehLsQT")
    if args.has("-X", "-Q") or (args.has("-d", "-D") and args.has("-m")):
        return None
    return TERMINAL, "interactive session (screen)"


def _zellij(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(argv, 1, frozenset({"-s", "--session", "-l", "--layout", "-c", "--config"}))
    if sub in (None, "attach", "a", "options"):
        return TERMINAL, "interactive session (zellij)"
    return None


def _mosh(argv: list[str], ctx: _Context) -> Reason | None:
    return TERMINAL, "interactive session (mosh)"


def _fzf(argv: list[str], ctx: _Context) -> Reason | None:
    return None if _scan(argv, 1, "qd").has("-f", "--filter") else (TERMINAL, f"{_TUI} (fzf)")


def _ncdu(argv: list[str], ctx: _Context) -> Reason | None:
    return None if _scan(argv, 1, "oXf").has("-o") else (TERMINAL, f"{_TUI} (ncdu)")


def _browser(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    if {"-dump", "--dump", "-source", "-dump-width"} & set(argv[1:]):
        return None
    return TERMINAL, f"{_TUI} ({name})"


def _caffeinate(argv: list[str], ctx: _Context) -> Reason | None:
    if len(argv) == 1 or (not _scan(argv, 1, "tw").has("-t", "-w") and all(w.startswith("-") for w in argv[1:])):
        return ENDLESS, "runs until stopped (caffeinate)"
    return None


def _strace(argv: list[str], ctx: _Context) -> Reason | None:
    name = _tool(argv[0])
    args = _scan(argv, 1, "aeEIopPsSuUXb", stop_at_operand=True)
    if args.has("-p") and args.stop >= len(argv):
        return ENDLESS, f"traces a running process until stopped ({name} -p)"
    if args.stop < len(argv):
        return _check(argv[args.stop :], ctx.inner())
    return None


def _perf(argv: list[str], ctx: _Context) -> Reason | None:
    return (TERMINAL, f"{_MONITOR} (perf top)") if argv[1:2] == ["top"] else None


_SOPS_COMMANDS = frozenset({"exec-env", "exec-file", "publish", "keyservice", "decrypt", "encrypt", "rotate", "set"})
_SOPS_COMMANDS |= {"unset", "updatekeys", "filestatus"}


def _sops(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "kpg", frozenset({"--output", "--kms", "--pgp", "--age", "--config", "--input-type"}))
    actions = ("-d", "--decrypt", "-e", "--encrypt", "-i", "--in-place", "-r", "--rotate", "--set", "--extract")
    if args.has(*actions) or (args.operands[:1] and args.operands[0] in _SOPS_COMMANDS):
        return None
    return TERMINAL, "opens an editor (sops)"


def _ansible_vault(argv: list[str], ctx: _Context) -> Reason | None:
    if len(argv) > 1 and argv[1] in ("create", "edit"):
        return TERMINAL, f"opens an editor (ansible-vault {argv[1]})"
    return None


def _systemctl(argv: list[str], ctx: _Context) -> Reason | None:
    _, sub = _first_operand(argv, 1, frozenset({"-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property"}))
    if sub == "edit" and "--stdin" not in argv:
        return TERMINAL, "opens an editor (systemctl edit)"
    return None


def _passwd(argv: list[str], ctx: _Context) -> Reason | None:
    args = _scan(argv, 1, "nxwiQr")
    if args.has("-S", "--status", "-l", "--lock", "-u", "--unlock", "-d", "--delete", "-e", "--expire", "--stdin"):
        return None
    return TERMINAL, "asks for a password (passwd)"


def _clickhouse(argv: list[str], ctx: _Context) -> Reason | None:
    if argv[1:2] == ["client"]:
        return _CLICKHOUSE_CLIENT(["clickhouse-client", *argv[2:]], ctx)
    if argv[1:2] in (["server"], ["local"]) and argv[1] == "server":
        return ENDLESS, "server that runs until stopped (clickhouse server)"
    return None


RULES: dict[str, Rule] = {
    "journalctl": _journalctl,
    "dmesg": _dmesg,
    "watch": _watch,
    "top": _top,
    "ping": _ping,
    "ping6": _ping,
    "tcpdump": _tcpdump,
    "tshark": _tcpdump,
    "termshark": _tcpdump,
    "mtr": _mtr,
    "vmstat": _interval_stat,
    "iostat": _interval_stat,
    "mpstat": _interval_stat,
    "pidstat": _interval_stat,
    "sar": _interval_stat,
    "free": _free,
    "sleep": _sleep,
    "read": _read,
    "inotifywait": _inotifywait,
    "nvidia-smi": _nvidia_smi,
    "iotop": _iotop,
    "log": _log,
    "stern": _stern,
    "adb": _adb,
    "strace": _strace,
    "ltrace": _strace,
    "perf": _perf,
    "caffeinate": _caffeinate,
    "vi": _vim,
    "vim": _vim,
    "nvim": _vim,
    "ex": _vim,
    "gvim": _vim,
    "emacs": _emacs,
    "emacsclient": _emacsclient,
    "code": _gui_editor,
    "cursor": _gui_editor,
    "subl": _gui_editor,
    "mate": _gui_editor,
    "zed": _gui_editor,
    "man": _man,
    "crontab": _crontab,
    "visudo": _visudo,
    "sops": _sops,
    "ansible-vault": _ansible_vault,
    "systemctl": _systemctl,
    "psql": _psql,
    "mysql": _mysql,
    "mariadb": _mysql,
    "mycli": _db_repl(("-e", "--execute"), "euhPD"),
    "litecli": _db_repl(("-e", "--execute"), "e"),
    "usql": _db_repl(("-c", "--command", "-f", "--file"), "cf"),
    "cqlsh": _db_repl(("-e", "--execute", "-f", "--file"), "efuk"),
    "clickhouse-client": _db_repl(("-q", "--query", "--queries-file"), "qhud"),
    "clickhouse": _clickhouse,
    "beeline": _db_repl(("-e", "-f"), "efun"),
    "sqlcmd": _db_repl(("-Q", "-i"), "QiSUPdq"),
    "sqlplus": _sqlplus,
    "sqlite3": _sqlite,
    "sqlite": _sqlite,
    "duckdb": _sqlite,
    "redis-cli": _redis_cli,
    "valkey-cli": _redis_cli,
    "keydb-cli": _redis_cli,
    "mongosh": _mongosh,
    "mongo": _mongosh,
    "rm": _rm,
    "cp": _rm,
    "mv": _rm,
    "tmux": _tmux,
    "screen": _screen,
    "zellij": _zellij,
    "mosh": _mosh,
    "fzf": _fzf,
    "ncdu": _ncdu,
    "w3m": _browser,
    "lynx": _browser,
    "links": _browser,
    "elinks": _browser,
    "passwd": _passwd,
}
_CLICKHOUSE_CLIENT = RULES["clickhouse-client"]
