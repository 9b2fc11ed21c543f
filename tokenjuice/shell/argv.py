"""What the words of a command line mean: the wrappers (`sudo`, `env`, `time`), the
runners that start a tool by name (`npx`, `uv run`, `pnpm exec`), shell launchers
(`bash -lc '…'`), the global options before a subcommand, and the commands pnpm
and yarn run themselves.

The host hooks decide from these what to wrap and what to leave alone, before
every shell command an agent runs; `command.analyze` uses the same knowledge to
find which command produced an output. Tables and small functions only: nothing
here parses a script, builds a record or compiles a pattern.
"""

from __future__ import annotations

TYPE_CHECKING = False  # collections.abc costs ~1.4 ms to import on the hook's path
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence


SHELLS = frozenset({"bash", "sh", "zsh", "fish", "dash", "ksh", "mksh", "ash", "yash", "busybox"})

#: Wrappers that run the rest of the line unchanged: name -> options that take a value.
WRAPPERS: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}),
    "sudo": frozenset(
        {
            "-u",
            "--user",
            "-g",
            "--group",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-C",
            "--close-from",
            "-D",
            "--chdir",
            "-r",
            "--role",
            "-t",
            "--type",
            "-T",
            "--command-timeout",
            "-U",
            "--other-user",
        }
    ),
    "doas": frozenset({"-u", "-C"}),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "command": frozenset(),
    "exec": frozenset({"-a"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "ionice": frozenset({"-c", "--class", "-n", "--classdata", "-p", "--pid"}),
    "stdbuf": frozenset({"-i", "--input", "-o", "--output", "-e", "--error"}),
    "timeout": frozenset({"-k", "--kill-after", "-s", "--signal"}),
    "caffeinate": frozenset({"-t", "-w"}),
    "chronic": frozenset(),
    "unbuffer": frozenset(),
}
#: Shell keywords that prefix a command: `! cmd`, fish's `and cmd` / `or cmd` / `not cmd`.
_KEYWORD_PREFIXES = frozenset({"!", "and", "or", "not"})
#: Wrappers that take positional arguments of their own before the command.
_WRAPPER_POSITIONALS = {"timeout": 1}

#: Runners that execute a tool by name: (argv prefix) -> options that take a value.
RUNNERS: dict[tuple[str, ...], frozenset[str]] = {
    ("npx",): frozenset({"-p", "--package", "--cache", "--userconfig"}),
    ("pnpx",): frozenset({"-p", "--package"}),
    ("bunx",): frozenset({"-p", "--package"}),
    ("bun", "x"): frozenset({"-p", "--package"}),
    ("pnpm", "exec"): frozenset({"-C", "--dir", "--filter", "-F"}),
    ("pnpm", "dlx"): frozenset({"--package"}),
    ("npm", "exec"): frozenset({"-p", "--package", "-w", "--workspace"}),
    ("npm", "x"): frozenset({"-p", "--package"}),
    ("yarn", "exec"): frozenset(),
    ("yarn", "dlx"): frozenset({"-p", "--package"}),
    # `pnpm <binary>` / `yarn <binary>` run a package's binary like `pnpm exec`,
    # unless the word is one of their own commands (OWN_COMMANDS below).
    ("pnpm",): frozenset({"-C", "--dir", "--filter", "-F", "--reporter", "--loglevel", "--workspace-concurrency"}),
    ("yarn",): frozenset({"--cwd", "--modules-folder", "--cache-folder", "--global-folder", "--mutex"}),
    ("uv", "run"): frozenset(
        {
            "--with",
            "--with-editable",
            "--with-requirements",
            "--python",
            "-p",
            "--project",
            "--directory",
            "--package",
            "--extra",
            "--group",
            "--env-file",
            "--index",
            "--index-url",
            "--extra-index-url",
            "-C",
            "--config-setting",
            "--only-group",
            "--no-group",
        }
    ),
    ("uv", "tool", "run"): frozenset({"--from", "--with", "--python", "-p"}),
    ("uvx",): frozenset({"--from", "--with", "--python", "-p"}),
    ("poetry", "run"): frozenset({"-C", "--directory", "-P", "--project"}),
    ("pdm", "run"): frozenset({"-p", "--project"}),
    ("pipx", "run"): frozenset({"--spec", "--python", "--pip-args"}),
    ("hatch", "run"): frozenset(),
    ("rye", "run"): frozenset(),
    ("bundle", "exec"): frozenset(),
}
_PYTHON_VALUE_OPTIONS = frozenset({"-X", "-W", "-Q"})

#: The commands pnpm and yarn run themselves: `pnpm install`, `yarn add` are the
#: package manager at work, not a package's binary, and are never stripped. A word
#: not listed (`pnpm esbuild`, `yarn jest`) runs a script or binary of that name.
OWN_COMMANDS: dict[str, frozenset[str]] = {
    "pnpm": frozenset(
        # pnpm 9/10 `pnpm help --all`, their aliases, and the npm commands pnpm passes on
        [
            "add",
            "i",
            "install",
            "it",
            "install-test",
            "ln",
            "link",
            "prune",
            "rb",
            "rebuild",
            "rm",
            "remove",
            "uninstall",
            "un",
            "unlink",
            "up",
            "update",
            "upgrade",
            "audit",
            "licenses",
            "ls",
            "list",
            "ll",
            "la",
            "outdated",
            "why",
            "exec",
            "run",
            "run-script",
            "start",
            "t",
            "test",
            "tst",
            "restart",
            "stop",
            "cat-file",
            "cat-index",
            "find-hash",
            "pack",
            "publish",
            "root",
            "store",
            "import",
            "dlx",
            "create",
            "init",
            "setup",
            "server",
            "recursive",
            "multi",
            "m",
            "deploy",
            "doctor",
            "config",
            "c",
            "get",
            "set",
            "env",
            "bin",
            "self-update",
            "dedupe",
            "patch",
            "patch-commit",
            "patch-remove",
            "fetch",
            "approve-builds",
            "ignored-builds",
            "help",
            "completion",
            "install-completion",
            "catalog",
            "sbom",
            "version",
            "view",
            "info",
            "show",
            "access",
            "adduser",
            "login",
            "logout",
            "whoami",
            "owner",
            "dist-tag",
            "deprecate",
            "docs",
            "bugs",
            "repo",
            "search",
            "star",
            "unstar",
            "stars",
            "team",
            "token",
            "unpublish",
            "pkg",
            "profile",
            "ping",
            "prefix",
            "edit",
            "cache",
        ]
    ),
    "yarn": frozenset(
        # yarn 1 (classic) and yarn 2+ (berry) commands
        [
            "access",
            "add",
            "audit",
            "autoclean",
            "bin",
            "cache",
            "check",
            "config",
            "constraints",
            "create",
            "dedupe",
            "dlx",
            "exec",
            "explain",
            "generate-lock-entry",
            "global",
            "help",
            "import",
            "info",
            "init",
            "install",
            "licenses",
            "link",
            "list",
            "login",
            "logout",
            "node",
            "npm",
            "outdated",
            "owner",
            "pack",
            "patch",
            "patch-commit",
            "plugin",
            "policies",
            "publish",
            "rebuild",
            "remove",
            "run",
            "search",
            "set",
            "stage",
            "tag",
            "team",
            "test",
            "unlink",
            "unplug",
            "up",
            "upgrade",
            "upgrade-interactive",
            "version",
            "versions",
            "why",
            "workspace",
            "workspaces",
        ]
    ),
}


def basename(word: str) -> str:
    """`/usr/bin/git` -> `git`, `C:\\bin\\git.exe` -> `git`."""
    name = word.rstrip("/").rsplit("/", 1)[-1].rsplit("\\", 1)[-1]
    return name[:-4] if name.lower().endswith(".exe") else name


def unwrap_shell(words: list[str]) -> tuple[str, str] | None:
    """The body and dialect of `bash -lc '<body>'` style launchers, else None."""
    found = launcher_body(words)
    if found is None:
        return None
    position, dialect, _ = found
    body = words[position].strip()
    return (body, dialect) if body else None


def launcher_body(words: list[str]) -> tuple[int, str, bool] | None:
    """(index of the inline command, dialect, is a login shell) for a shell launcher
    such as `bash -lc '<body>'`, or None when `words` is not one."""
    login = False
    index = 0
    while index < len(words) and basename(words[index]) in ("env", "exec", "command"):
        index += 1
        while index < len(words) and (words[index].startswith("-") or "=" in words[index]):
            index += 1
    if index >= len(words):
        return None
    shell = basename(words[index]).lower()
    if shell not in SHELLS:
        return None
    if shell == "busybox":
        index += 1
        if index >= len(words) or basename(words[index]) not in ("sh", "ash"):
            return None
    dialect = "fish" if shell == "fish" else "posix"
    position = index + 1
    while position < len(words):
        word = words[position]
        if word in ("-o", "+o", "-O", "+O", "--init-file", "--rcfile"):
            position += 2
            continue
        if word.startswith("--"):
            login = login or word == "--login"
            if word == "--command" and position + 1 < len(words):
                return position + 1, dialect, login
            position += 1
            continue
        if word.startswith(("-", "+")) and len(word) > 1 and word[1:].isalpha():
            login = login or (word.startswith("-") and "l" in word[1:])
            if "c" in word[1:]:
                return (position + 1, dialect, login) if position + 1 < len(words) else None
            position += 1
            continue
        return None  # a script path or other operand: not an inline command
    return None


def strip_wrappers(argv: list[str]) -> list[str]:
    """Drop `FOO=1`, `env`, `sudo`, `time`, `nice`, `timeout 10`, … from the front.
    A wrapper with no command after it (`env`, `sudo -l`) is itself the command."""
    index = 0
    while index < len(argv):
        word = argv[index]
        if _is_assignment(word) or (index == 0 and word in _KEYWORD_PREFIXES):
            index += 1
            continue
        name = basename(word)
        if name not in WRAPPERS:
            break
        if name == "command" and index + 1 < len(argv) and argv[index + 1] in ("-v", "-V"):
            break  # a probe, not a wrapper
        after = _skip_options(argv, index + 1, WRAPPERS[name], allow_assignments=name == "env")
        after += _WRAPPER_POSITIONALS.get(name, 0)
        if after >= len(argv):
            break
        index = after
    return argv[index:]


def strip_runner(argv: list[str]) -> list[str] | None:
    """`npx jest` -> `jest`, `uv run pytest` -> `pytest`, `python -m pip` -> `pip`."""
    if not argv:
        return None
    name = basename(argv[0])
    if is_python(name):
        index = 1
        while index < len(argv) and argv[index].startswith("-") and argv[index] != "-m":
            index += 2 if argv[index] in _PYTHON_VALUE_OPTIONS else 1
        if index + 1 < len(argv) and argv[index] == "-m":
            return argv[index + 1 :]
        return None
    for prefix, value_options in RUNNERS.items():
        if name == prefix[0] and tuple(argv[1 : len(prefix)]) == prefix[1:]:
            index = _skip_options(argv, len(prefix), value_options, allow_assignments=False)
            rest = argv[index:]
            if len(prefix) == 1 and rest and rest[0] in OWN_COMMANDS.get(name, ()):
                return None  # `pnpm install`, `yarn add`: the package manager itself
            return rest or None
    return None


def variants(argv: list[str], behind: Callable[[list[str]], list[list[str]]]) -> Iterator[list[str]]:
    """`argv` and every command `behind` finds behind it, and behind those in turn,
    each once (at most 65): the forms of a command a permission check (Claude Code's,
    Cursor's) tries its deny rules against. `behind(words)` says what one form hides
    (after a control word, a wrapper, a path); each host reads that differently."""
    seen: set[tuple[str, ...]] = set()
    pending = [argv]
    while pending:
        words = pending.pop()
        key = tuple(words)
        if not words or key in seen or len(seen) > 64:
            continue
        seen.add(key)
        yield words
        pending += behind(words)


def shell_scripts(argv: list[str]) -> list[str]:
    """Scripts run by `sh -c '…'`, `bash -lc '…'` or `eval …` anywhere in argv: what a
    permission check (Claude Code's, Cursor's) must look into as well."""
    scripts = []
    for index, word in enumerate(argv):
        name = basename(word)
        if name == "eval" and index + 1 < len(argv):
            scripts.append(" ".join(argv[index + 1 :]))
        if name not in SHELLS:
            continue
        rest = argv[index + 1 :]
        for position, option in enumerate(rest):
            if option.startswith("-") and not option.startswith("--") and "c" in option[1:]:
                operands = [w for w in rest[position + 1 :] if not w.startswith("-")]
                if operands:
                    scripts.append(operands[0])
                break
    return scripts


def substitutions(word: str) -> list[str]:
    """Bodies of `$( … )`, `<( … )`, `>( … )` and backticks in one raw word (as written,
    unparsed): commands a permission check must look into as well."""
    found = []
    index = 0
    while index < len(word):
        ch = word[index]
        if ch == "`":
            end = word.find("`", index + 1)
            end = len(word) if end < 0 else end
            found.append(word[index + 1 : end])
            index = end + 1
            continue
        if ch in "$<>" and word.startswith("(", index + 1):
            depth, cursor = 1, index + 2
            while cursor < len(word) and depth:
                if word[cursor] == "(":
                    depth += 1
                elif word[cursor] == ")":
                    depth -= 1
                cursor += 1
            found.append(word[index + 2 : cursor - 1 if depth == 0 else cursor])
            index = cursor
            continue
        index += 1
    return found


def is_python(name: str) -> bool:
    return name == "python" or (name.startswith("python") and name[6:].replace(".", "").isdigit())


def _skip_options(argv: list[str], index: int, value_options: frozenset[str], allow_assignments: bool) -> int:
    while index < len(argv):
        word = argv[index]
        if word == "--":
            return index + 1
        if allow_assignments and _is_assignment(word):
            index += 1
            continue
        if not word.startswith("-") or word == "-":
            return index
        index += 2 if word in value_options else 1
    return index


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return (
        bool(sep)
        and bool(name)
        and (name[0].isalpha() or name[0] == "_")
        and name.replace("_", "a").isalnum()
        and name.isascii()
    )


#: Global options that take a value, per tool, so the subcommand after them can be
#: found (`git -C repo status`, `kubectl -n prod get pods`, `docker --context x ps`).
GLOBAL_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "git": frozenset(
        {
            "-C",
            "-c",
            "--git-dir",
            "--work-tree",
            "--namespace",
            "--exec-path",
            "--super-prefix",
            "--config-env",
            "--list-cmds",
        }
    ),
    "kubectl": frozenset(
        {
            "-n",
            "--namespace",
            "--context",
            "--kubeconfig",
            "--cluster",
            "--user",
            "-s",
            "--server",
            "--token",
            "--as",
            "--as-group",
            "--cache-dir",
            "--request-timeout",
            "-v",
            "--v",
            "--certificate-authority",
            "--client-certificate",
            "--client-key",
        }
    ),
    "docker": frozenset(
        {"-c", "--context", "-H", "--host", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"}
    ),
    "helm": frozenset(
        {
            "-n",
            "--namespace",
            "--kube-context",
            "--kubeconfig",
            "--kube-apiserver",
            "--kube-token",
            "--registry-config",
            "--repository-config",
            "--repository-cache",
        }
    ),
    "npm": frozenset({"--prefix", "-C", "-w", "--workspace", "--registry", "--cache", "--userconfig"}),
    "pnpm": frozenset({"-C", "--dir", "-F", "--filter"}),
    "yarn": frozenset({"--cwd"}),
    "cargo": frozenset({"-C", "--config", "-Z", "--color"}),
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url", "--query", "--cli-read-timeout"}),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--verbosity", "--format"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
}


#: Tools whose second word names what they were asked to do: for any other program
#: that word may be an argument value (`psql mydb`, `mysql -p hunter2`), so the
#: ledger never records it.
SUBCOMMAND_TOOLS = frozenset(GLOBAL_VALUE_OPTIONS) | frozenset(
    {
        "go",
        "pip",
        "pip3",
        "uv",
        "poetry",
        "pdm",
        "hatch",
        "gh",
        "glab",
        "terraform",
        "terragrunt",
        "pulumi",
        "tofu",
        "dotnet",
        "brew",
        "apt",
        "apt-get",
        "dnf",
        "yum",
        "apk",
        "systemctl",
        "bun",
        "deno",
        "rustup",
        "conda",
        "mamba",
        "mvn",
        "gradle",
        "flyctl",
        "fly",
        "vercel",
        "netlify",
        "composer",
        "gem",
        "bundle",
        "swift",
        "mise",
        "nix",
    }
)


def subcommand(argv: Sequence[str]) -> str | None:
    """The word naming what a tool was asked to do: `git -C repo status` -> `status`.
    For tools whose global options are known, options (and their values) before it
    are skipped; for any other tool it must be the word right after the command."""
    if len(argv) < 2:
        return None
    options = GLOBAL_VALUE_OPTIONS.get(basename(argv[0]))
    if options is None:
        return None if argv[1].startswith("-") else argv[1]
    index = 1
    while index < len(argv):
        word = argv[index]
        if word in options:
            index += 2
        elif word.startswith("-"):
            index += 1
        else:
            return word
    return None


def git_subcommand(argv: Sequence[str]) -> str | None:
    """`git -C repo -c a=b --no-pager log` -> `log`; None when it is not git."""
    return subcommand(argv) if argv and basename(argv[0]) == "git" else None
