"""What the Copilot CLI's own permission rules say about one shell command.

Copilot's tool rules are command-line flags of the running `copilot` process
(`--allow-all-tools`, `--allow-tool`, `--deny-tool`, `--allow-all-paths`,
`--deny-url`, `--yolo`, …), plus `deniedUrls` in its config files; a hook is
not told them. Copilot checks them on the command it is about to run, which
after a rewrite is `tokenjuice wrap … -- bash -lc '<original>'`: a deny rule on
the original no longer matches, and the absolute paths of the launcher and the
shell need path approval of their own (docs/hosts/copilot.md has the runs).

So the hook reads the flags of the `copilot` process that started it (its
parent or grandparent, through /proc on Linux) and answers:

- "deny" when a `--deny-tool shell(…)` rule, a bare `--deny-tool shell`, or a
  denied URL/domain (`--deny-url`, `--deny-tool url(…)`, `deniedUrls`) may
  match any part of the original (looked through wrappers, paths, `sh -c` and
  `$( … )`, which Copilot itself does not do);
- "allow" only when every shell command AND every path is approved without a
  prompt (`--allow-all`/`--yolo`, or `--allow-all-tools` or `--allow-tool shell`
  with `--allow-all-paths`) and nothing above denies;
- "ask" otherwise: Copilot would prompt for the rewritten command (in `-p` mode it
  denies it), and so would it whenever the process cannot be found or its flags
  cannot be read with certainty (an option this module does not know, another
  OS, Copilot started by an IDE or the SDK). The command then runs unchanged.

Never "none": Copilot's default (manual) mode asks about every command that is not
read-only, so "nothing readable" is itself an answer. `hook.rewrite_unruled`
therefore changes nothing for Copilot.
"""

from __future__ import annotations

import os

from ... import paths
from ...fast import fastjson
from .. import ALLOW, ASK, DENY
from ..jsonc import strip_jsonc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

#: Ancestors looked at for the copilot process (the hook runs under `bash -c`).
MAX_ANCESTORS = 6
MAX_CONFIG_BYTES = 1024 * 1024
_TRUE = ("true", "1", "yes", "on", "y")

#: Copilot 1.0.102's options (`copilot --help`) by how they take values.
BOOLEAN = frozenset(
    {
        "-v",
        "--version",
        "--fleet",
        "--trust-folder",
        "-s",
        "--silent",
        "--disable-client-telemetry",
        "--enable-memory",
        "--continue",
        "--allow-all-tools",
        "--allow-all-paths",
        "--disallow-temp-dir",
        "--banner",
        "--screen-reader",
        "--plain-diff",
        "--share-gist",
        "--disable-builtin-mcps",
        "--enable-all-github-mcp-tools",
        "--allow-all-mcp-server-instructions",
        "--allow-all-urls",
        "--allow-all",
        "--yolo",
        "--autopilot",
        "--plan",
        "--experimental",
        "--acp",
        "--remote",
        "--remote-export",
        "--no-custom-instructions",
        "--no-auto-update",
        "--no-ask-user",
        "--no-color",
        "--no-experimental",
        "--no-bash-env",
        "--no-mouse",
        "--no-remote",
        "--no-remote-export",
        "--no-eager-powershell-resolution",
        "-h",
        "--help",
    }
)
#: Options that always take the next word as their value.
REQUIRED = frozenset(
    {
        "-i",
        "--interactive",
        "-p",
        "--prompt",
        "--model",
        "--reasoning-effort",
        "--context",
        "--auto-tier",
        "--agent",
        "-n",
        "--name",
        "--session-id",
        "--log-dir",
        "--extension-sdk-path",
        "--log-level",
        "--stream",
        "--output-format",
        "--add-dir",
        "--attachment",
        "--disable-mcp-server",
        "--add-github-mcp-toolset",
        "--add-github-mcp-tool",
        "--plugin-dir",
        "--additional-mcp-config",
        "--mcp-github-auth",
        "--max-autopilot-continues",
        "--mode",
        "--environment-host",
        "--environment-compute-id",
        "--dynamic-retrieval",
        "--enable-mcp-server",
        "--max-ai-credits",
        "--usage-output-file",
    }
)
#: Options whose value is optional (taken when the next word is not an option).
OPTIONAL = frozenset({"-r", "--resume", "--connect", "--share", "--bash-env", "--mouse"})
#: Options taking every following word up to the next option.
VARIADIC = frozenset(
    {
        "--allow-tool",
        "--deny-tool",
        "--available-tools",
        "--excluded-tools",
        "--secret-env-vars",
        "--allow-url",
        "--deny-url",
    }
)
#: Options that put another party in charge of approvals: what it decides cannot be read.
DELEGATED = frozenset({"--acp", "--assisted-approval"})


class Flags:
    """What the copilot process's command line says about permissions."""

    __slots__ = ("allow_paths", "allow_tools", "deny_tools", "deny_urls", "shell_allowed", "uncertain")

    def __init__(self) -> None:
        self.shell_allowed = False  # every shell command runs without a prompt
        self.allow_paths = False  # every path is approved
        self.deny_tools: list[str] = []
        self.deny_urls: list[str] = []
        self.allow_tools: list[str] = []
        self.uncertain = False


def parse_flags(args: list[str], env: Mapping[str, str]) -> Flags:
    """Copilot's options as its parser (commander) reads them; anything unknown
    makes the result uncertain."""
    flags = Flags()
    values: dict[str, list[str]] = {}
    seen: set[str] = set()
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            if args[index:]:
                flags.uncertain = True
            break
        if not word.startswith("-") or word == "-":
            flags.uncertain = True  # a positional word: not a form this module knows
            continue
        name, eq, inline = word.partition("=")
        if name in DELEGATED:
            flags.uncertain = True
        if name in BOOLEAN and not eq:
            seen.add(name)
        elif name in REQUIRED:
            if not eq:
                index += 1
        elif name in OPTIONAL:
            if not eq and index < len(args) and not args[index].startswith("-"):
                index += 1
        elif name in VARIADIC:
            taken = values.setdefault(name, [])
            if eq:
                taken.append(inline)
            while index < len(args) and not args[index].startswith("-"):
                taken.append(args[index])
                index += 1
        else:
            flags.uncertain = True  # an option this module does not know: its arity is unknown
    everything = bool(seen & {"--allow-all", "--yolo"})
    allow_env = env.get("COPILOT_ALLOW_ALL", "").strip().lower() in _TRUE
    flags.allow_tools = _split_rules(values.get("--allow-tool", []))
    flags.deny_tools = _split_rules(values.get("--deny-tool", []))
    flags.deny_urls = _split_rules(values.get("--deny-url", []))
    flags.shell_allowed = everything or "--allow-all-tools" in seen or allow_env or "shell" in flags.allow_tools
    flags.allow_paths = everything or "--allow-all-paths" in seen
    return flags


def _split_rules(values: list[str]) -> list[str]:
    """Copilot splits each value at commas outside parentheses."""
    rules = []
    for value in values:
        depth, current = 0, ""
        for char in value:
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            if char == "," and depth == 0:
                if current.strip():
                    rules.append(current.strip())
                current = ""
            else:
                current += char
        if current.strip():
            rules.append(current.strip())
    return rules


# -- the copilot process ---------------------------------------------------------------------


def copilot_args(env: Mapping[str, str]) -> list[str] | None:
    """The command-line arguments of the `copilot` process running this hook, or
    None when it cannot be found and read exactly (only Linux's /proc gives argv
    word by word)."""
    if env.get("COPILOT_CLI") != "1" or not os.path.isdir("/proc/self"):
        return None
    pid = os.getppid()
    for _ in range(MAX_ANCESTORS):
        if pid <= 1:
            return None
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                raw = handle.read()
            with open(f"/proc/{pid}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            return None
        argv = [w.decode("utf-8", "surrogateescape") for w in raw.split(b"\0")[:-1]]
        found = _copilot_arguments(argv)
        if found is not None:
            return found
        try:
            pid = int(stat.rpartition(b")")[2].split()[1])
        except (IndexError, ValueError):
            return None
    return None


def _copilot_arguments(argv: list[str]) -> list[str] | None:
    if not argv:
        return None
    if os.path.basename(argv[0]) == "copilot":
        return argv[1:]
    if os.path.basename(argv[0]).startswith("node") and len(argv) > 1 and "/@github/copilot/" in argv[1]:
        return argv[2:]
    return None


# -- rules -----------------------------------------------------------------------------------


def config_denied_urls(project_dir: str | None, env: Mapping[str, str]) -> tuple[list[str], bool]:
    """(`deniedUrls` from Copilot's user config and the repository's settings,
    uncertain): a file that exists but cannot be read exactly makes it uncertain."""
    home = env.get("COPILOT_HOME", "").strip() or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".copilot")
    files = [os.path.join(home, "config.json"), os.path.join(home, "settings.json")]
    if project_dir:
        from ...paths import git_root

        root = git_root(project_dir)
        if root:
            files += [os.path.join(root, ".github", "copilot", n) for n in ("settings.json", "settings.local.json")]
    denied: list[str] = []
    uncertain = False
    for path in files:
        try:
            with open(path, "rb", opener=paths.regular_only) as handle:
                data = handle.read(MAX_CONFIG_BYTES + 1)
        except FileNotFoundError:
            continue
        except OSError:
            uncertain = True
            continue
        try:
            text = data.decode("utf-8").removeprefix("\ufeff")
            parsed = fastjson.loads(strip_jsonc(text)) if len(data) <= MAX_CONFIG_BYTES else None
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict):
            uncertain = True
            continue
        value = parsed.get("deniedUrls", [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            uncertain = True
            continue
        denied += value
    return denied, uncertain


def _shell_rule(rule: str) -> str | None:
    """`shell(git push)` → "git push", `shell` → "" (every command); None for other kinds."""
    rule = rule.strip()
    if rule == "shell":
        return ""
    if rule.startswith("shell(") and rule.endswith(")"):
        inner = rule[6:-1].strip()
        return inner.removesuffix(":*").strip()
    return None


def _domain(rule: str) -> str:
    """The host part of a URL rule (`https://*.example.com/x` → `example.com`)."""
    text = rule.strip()
    if text.startswith("url(") and text.endswith(")"):
        text = text[4:-1]
    text = text.partition("://")[2] or text
    text = text.split("/", 1)[0].lower()
    return text.removeprefix("*.").strip(".")


def _matches_words(rule: str, text: str) -> bool:
    """Does the rule's command (words) start `text`? Copilot matches the command
    name, or its first subcommand, or (with `:*`) the stem; a prefix of words is
    the widest of these, which is what a deny rule should err towards."""
    words = rule.split()
    have = text.split()
    return bool(words) and have[: len(words)] == words


def decision(command: str, project_dir: str | None, env: Mapping[str, str]) -> str:
    """What Copilot's rules say about `command`: deny, allow or ask (see the module doc)."""
    args = copilot_args(env)
    if args is None:
        return ASK
    flags = parse_flags(args, env)
    denied_urls, config_uncertain = config_denied_urls(project_dir, env)
    shell_denies = [r for r in (_shell_rule(rule) for rule in flags.deny_tools) if r is not None]
    url_rules = flags.deny_urls + denied_urls + [r for r in flags.deny_tools if r.strip().startswith("url(")]
    if "" in shell_denies:
        return DENY
    if shell_denies or url_rules:
        from .cursor import analyze

        analysis = analyze(command)
        if shell_denies and (not analysis.complete or analysis.too_deep):
            return DENY  # part of the command could not be looked at: a possible deny
        for text in analysis.deny_texts:
            if any(_matches_words(rule, text) for rule in shell_denies):
                return DENY
        lowered = command.lower()
        if any(_domain(rule) and _domain(rule) in lowered for rule in url_rules):
            return DENY
    if flags.uncertain or config_uncertain:
        return ASK
    if flags.shell_allowed and flags.allow_paths:
        return ALLOW
    return ASK
