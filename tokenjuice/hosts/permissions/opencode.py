"""What the user's OpenCode permission rules say about one shell command.

OpenCode (1.18.33) asks its rules about the command its bash tool is about to
run, which after our plugin's rewrite is `tokenjuice wrap … -- bash -lc '<original>'`:
a rule like `"rm *": "deny"` no longer matches, and neither does the
`external_directory` check on `cat /etc/…` (the paths now sit inside a quoted
string). `decision()` answers for the *original* so such commands stay as typed.

How OpenCode evaluates (read from its 1.18.33 bundle): every config layer is
merged, `permission` maps a tool (itself a wildcard: `bash`, `*`) to one action
or to `{pattern: action}`; each command of the line (tree-sitter `command`
nodes, their source text) is matched with `Wildcard.match` (`*` any run, `?` one
character, a trailing ` *` also matches nothing, whole text, `.` across lines),
the last matching rule wins, no match asks. Agents (`agent.<name>.permission`,
`mode.<name>.permission`, agent Markdown files) add rules of their own, and the
plugin is not told which agent runs.

So, erring towards leaving a command alone:
- "deny"  — some deny rule (any layer, any agent) matches some part of the
  command, also behind wrappers, paths, `sh -c` and `$( … )`;
- "ask"   — some ask rule matches it, or the rewritten command would be denied
  or asked about, or a path argument of `cd`/`rm`/`cp`/`mv`/`mkdir`/`touch`/
  `chmod`/`chown`/`cat` lies outside the project (`external_directory`), or a
  config layer cannot be read exactly (JSONC we cannot parse, `{file:…}`,
  agent Markdown with permissions, an unexpected shape);
- "allow" — a user rule allows every part and nothing above applies;
- "none"  — no user rule speaks to the command (OpenCode's default allows bash;
  `hook.rewrite_unruled` decides).

Runs on the hook's hot path: standard library only, no `re` or `json`.
"""

from __future__ import annotations

import os

from ... import paths
from ...fast import fastjson
from .. import ALLOW, ASK, DENY, NONE
from ..jsonc import strip_jsonc

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

MAX_CONFIG_BYTES = 1024 * 1024
#: Commands whose path arguments OpenCode checks against the project (`external_directory`).
PATH_COMMANDS = frozenset({"cd", "chdir", "popd", "pushd", "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "cat"})
ACTIONS = ("allow", "ask", "deny")


class Rules:
    """Every bash rule found, in no particular order (every doubt counts)."""

    __slots__ = ("rules", "sources", "uncertain")

    def __init__(self) -> None:
        self.rules: list[tuple[str, str]] = []  # (pattern, action)
        self.uncertain: list[str] = []  # why some layer could not be read exactly
        self.sources: list[str] = []


# -- OpenCode's wildcard -------------------------------------------------------------------


def wildcard(text: str, pattern: str) -> bool:
    """OpenCode's `Wildcard.match(text, pattern)`."""
    text = text.replace("\\", "/")
    pattern = pattern.replace("\\", "/")
    if pattern.endswith(" *") and _glob(text, pattern[:-2]):
        return True
    return _glob(text, pattern)


def _glob(text: str, pattern: str) -> bool:
    """`*` any run (newlines too), `?` one character, the rest literal, whole text."""
    t = p = 0
    star = -1
    mark = 0
    while t < len(text):
        if p < len(pattern) and (pattern[p] == "?" or pattern[p] == text[t]) and pattern[p] != "*":
            t += 1
            p += 1
        elif p < len(pattern) and pattern[p] == "*":
            star, mark = p, t
            p += 1
        elif star >= 0:
            p = star + 1
            mark += 1
            t = mark
        else:
            return False
    while p < len(pattern) and pattern[p] == "*":
        p += 1
    return p == len(pattern)


# -- config layers -------------------------------------------------------------------------


def _substitute_env(text: str, env: Mapping[str, str]) -> str:
    out = []
    position = 0
    while True:
        start = text.find("{env:", position)
        end = text.find("}", start) if start >= 0 else -1
        if start < 0 or end < 0:
            out.append(text[position:])
            return "".join(out)
        out.append(text[position:start])
        out.append(env.get(text[start + 5 : end], ""))
        position = end + 1


def _read(path: str) -> str | None:
    try:
        with open(path, "rb", opener=paths.regular_only) as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError:
        return "\0unreadable"
    if len(data) > MAX_CONFIG_BYTES:
        return "\0too big"
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return "\0not UTF-8"


def _add_layer(rules: Rules, text: str | None, where: str, env: Mapping[str, str]) -> None:
    if text is None:
        return
    rules.sources.append(where)
    if text.startswith("\0"):
        rules.uncertain.append(f"{where}: {text[1:]}")
        return
    if "{file:" in text:
        rules.uncertain.append(f"{where}: uses {{file:…}}")
        return
    try:
        data = fastjson.loads(strip_jsonc(_substitute_env(text, env)))
    except ValueError:
        rules.uncertain.append(f"{where}: not JSON(C) tokenjuice can read")
        return
    if not isinstance(data, dict):
        rules.uncertain.append(f"{where}: not an object")
        return
    _add_permission(rules, data.get("permission"), where)
    for group in ("agent", "mode"):
        agents = data.get(group)
        if agents is None:
            continue
        if not isinstance(agents, dict):
            rules.uncertain.append(f"{where}: {group} is not an object")
            continue
        for agent in agents.values():
            if isinstance(agent, dict):
                _add_permission(rules, agent.get("permission"), where)
            else:
                rules.uncertain.append(f"{where}: an {group} entry is not an object")


def _add_permission(rules: Rules, permission: object, where: str) -> None:
    if permission is None:
        return
    if isinstance(permission, str):
        permission = {"*": permission}
    if not isinstance(permission, dict):
        rules.uncertain.append(f"{where}: permission is not an object")
        return
    for tool, value in permission.items():
        if not isinstance(tool, str) or not wildcard("bash", tool):
            continue
        patterns = {"*": value} if isinstance(value, str) else value
        if not isinstance(patterns, dict):
            rules.uncertain.append(f"{where}: permission.{tool} is not an object")
            continue
        for pattern, action in patterns.items():
            if action not in ACTIONS:
                rules.uncertain.append(f"{where}: permission.{tool} has an unknown action")
                continue
            rules.rules.append((_expand(pattern), action))


def _expand(pattern: str) -> str:
    home = os.path.expanduser("~")
    if pattern.startswith("~/"):
        return home + pattern[1:]
    if pattern == "~":
        return home
    if pattern.startswith("$HOME"):
        return home + pattern[5:]
    return pattern


def global_dir(env: Mapping[str, str]) -> str:
    base = env.get("XDG_CONFIG_HOME", "").strip() or os.path.join(env.get("HOME") or os.path.expanduser("~"), ".config")
    return os.path.join(base, "opencode")


def _project_dirs(project_dir: str | None, env: Mapping[str, str]) -> list[str]:
    """From the project directory up to its git root (or the directory alone)."""
    if not project_dir or env.get("OPENCODE_DISABLE_PROJECT_CONFIG", "").strip().lower() in ("1", "true"):
        return []
    from ...paths import up_to_git_root

    return up_to_git_root(project_dir)


def _add_folder(rules: Rules, folder: str, env: Mapping[str, str]) -> None:
    """The layers of `opencode.json` and then `opencode.jsonc` in `folder`, as OpenCode
    reads every config folder but the global one."""
    for name in ("opencode.json", "opencode.jsonc"):
        path = os.path.join(folder, name)
        _add_layer(rules, _read(path), path, env)


def load_rules(project_dir: str | None, env: Mapping[str, str]) -> Rules:
    rules = Rules()
    directories = [global_dir(env)]
    for name in ("config.json", "opencode.json", "opencode.jsonc"):
        _add_layer(rules, _read(os.path.join(directories[0], name)), name, env)
    managed = "/Library/Application Support/opencode" if os.uname().sysname == "Darwin" else "/etc/opencode"
    _add_folder(rules, managed, env)
    for folder in _project_dirs(project_dir, env):
        _add_folder(rules, folder, env)
        dot = os.path.join(folder, ".opencode")
        directories.append(dot)
        _add_folder(rules, dot, env)
    config_dir = env.get("OPENCODE_CONFIG_DIR", "").strip()
    if config_dir:
        directories.append(config_dir)
        _add_folder(rules, config_dir, env)
    config_file = env.get("OPENCODE_CONFIG", "").strip()
    if config_file:
        _add_layer(rules, _read(config_file), config_file, env)
    content = env.get("OPENCODE_CONFIG_CONTENT")
    if content:
        _add_layer(rules, content, "OPENCODE_CONFIG_CONTENT", env)
    permission = env.get("OPENCODE_PERMISSION")
    if permission:
        try:
            _add_permission(rules, fastjson.loads(permission), "OPENCODE_PERMISSION")
        except ValueError:
            pass  # OpenCode skips invalid JSON here with a warning
    for directory in directories:
        for sub in ("agent", "agents", "mode", "modes"):
            _check_agent_files(rules, os.path.join(directory, sub))
    return rules


def _check_agent_files(rules: Rules, folder: str) -> None:
    """Agent Markdown files may carry permissions in YAML front matter, which this
    module does not parse: any that mentions `permission` makes the answer uncertain."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.endswith(".md"):
            continue
        text = _read(os.path.join(folder, name)) or ""
        if not text.startswith("---"):
            continue
        end = text.find("\n---", 3)
        front = text[: end if end >= 0 else len(text)]
        if "permission" in front or "tools" in front:
            rules.uncertain.append(f"{os.path.join(folder, name)}: an agent with its own permissions")


# -- the answer ------------------------------------------------------------------------------


def _command_texts(command: str) -> tuple[list[str], list[list[str]], bool]:
    """(texts rules are tried against, argv of each top-level command, complete)."""
    from ...shell.syntax import parse
    from .cursor import analyze

    analysis = analyze(command)
    texts = [command.strip(), *analysis.deny_texts]
    pipelines, complete = parse(command)
    argvs = []
    for pipeline in pipelines:
        for simple in pipeline.commands:
            texts.append(simple.text)
            argvs.append(simple.argv)
    return texts, argvs, complete and analysis.complete and not analysis.too_deep


def _outside(argvs: list[list[str]], cwd: str | None, root: str | None) -> bool:
    """Would OpenCode's `external_directory` check ask about a path argument?"""
    if not root:
        return any(argv and os.path.basename(argv[0]) in PATH_COMMANDS and len(argv) > 1 for argv in argvs)
    root = os.path.realpath(root)
    for argv in argvs:
        if not argv or argv[0] not in PATH_COMMANDS:
            continue
        for arg in argv[1:]:
            if arg.startswith("-") or (argv[0] == "chmod" and arg.startswith("+")):
                continue
            path = os.path.expanduser(arg)
            path = os.path.realpath(os.path.join(cwd or root, path))
            if path != root and not path.startswith(root + os.sep):
                return True
    return False


def _actions(rules: Rules, texts: list[str]) -> Iterator[str]:
    for pattern, action in rules.rules:
        if any(wildcard(text, pattern) for text in texts):
            yield action


def decision(
    command: str,
    rewritten: str | None,
    cwd: str | None,
    project_dir: str | None,
    env: Mapping[str, str],
    rules: Rules | None = None,
) -> str:
    """deny, ask, allow or none for `command` (see the module doc); `rewritten`,
    when given, must not be denied or asked about either."""
    rules = rules if rules is not None else load_rules(project_dir, env)
    texts, argvs, complete = _command_texts(command)
    actions = set(_actions(rules, texts))
    if "deny" in actions or (not complete and any(a == "deny" for _, a in rules.rules)):
        return DENY
    if "ask" in actions or rules.uncertain or not complete:
        return ASK
    if _outside(argvs, cwd, project_dir):
        return ASK
    if rewritten is not None:
        rewritten_texts, _, _ = _command_texts(rewritten)
        if {"deny", "ask"} & set(_actions(rules, rewritten_texts)):
            return ASK
    return ALLOW if actions else NONE
