"""What Gemini CLI's policy engine would make of one shell call, as far as it can be
read from outside.

Gemini CLI checks its policy on the call its BeforeTool hook hands back (0.61.0:
`checkPolicy` runs on the rewritten call, docs/hosts-research.md), so a rewrite
into `tokenjuice wrap … -- bash -lc '<command>'` would slip past a rule such as
`commandPrefix = "rm"`. Worse, outside YOLO mode Gemini asks the user about every
shell command no rule allows — and about the rewritten one it would show the
wrapper, and its "allow always" saves a rule for the wrapper's first word
(`getPolicyUpdateOptions`: `commandPrefix = getCommandRoots(command)`), which would
then let every later wrapped command — and any `tokenjuice …` the model types —
run without asking. So tokenjuice rewrites only when Gemini runs shell commands
without asking anyway:

1. YOLO mode, read from the Gemini process that started the hook (its command
   line: `--yolo`, `-y`, `--approval-mode yolo`; settings cannot turn YOLO on) in
   a folder Gemini trusts (Gemini falls back to the default mode in an untrusted
   folder): `--skip-trust`/`GEMINI_CLI_TRUST_WORKSPACE=true` in the environment it
   passes on, `security.folderTrust.enabled = false`, or the folder trusted in
   `trustedFolders.json`. When any of this cannot be read (no /proc, an IDE
   companion deciding trust) the answer is "ask": the command is left alone.
2. No policy rule of the user's (user, admin, workspace and extension policy
   files, `--policy`/`--admin-policy` files, and the `tools.exclude`,
   `tools.allowed`, `tools.core`, `tools.confirmationRequired` settings) denies or
   asks about the command, any part of it, or the rewritten command. Rules are
   matched the way Gemini matches them (`buildArgsPatterns`: `commandPrefix` and
   `commandRegex` become a regular expression over the call's arguments as
   `stableStringify` writes them) against the whole command, each simple command
   in it (also behind wrappers, in `sh -c` scripts and `$( … )`), with every mode,
   interactivity and subagent restriction assumed to apply. A rule whose regular
   expression Python cannot compile counts as matching. Priorities are ignored: a
   deny or ask rule anywhere is enough to leave the command alone. Policy files that
   come from the project (`.gemini/policies`, the project settings' `policyPaths`)
   are untrusted input: their regular expressions are never run, and any deny or
   ask rule in them leaves every command alone.

`decision()` answers "deny", "ask" or "allow" (YOLO allows what no rule stops).
"""

from __future__ import annotations

import os

from ... import paths
from ...fast import fastjson
from .. import ALLOW, ASK, DENY, NONE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

SHELL_TOOLS = ("run_shell_command", "ShellTool")
MAX_FILE_BYTES = 1024 * 1024
#: More policy files than this: tokenjuice does not read them all (the command is left alone).
MAX_POLICY_FILES = 100
MAX_DEPTH = 6
#: How far up the process tree the Gemini process is looked for (hook ← bash ← node).
MAX_ANCESTORS = 6


# -- where things are ------------------------------------------------------------------


def gemini_home(env: Mapping[str, str]) -> str:
    """Gemini's `homedir()`: GEMINI_CLI_HOME, else the user's home."""
    home = (env.get("GEMINI_CLI_HOME") or "").strip()
    if home:
        return os.path.abspath(os.path.expanduser(home))
    return (env.get("HOME") or "").strip() or os.path.expanduser("~")


def system_dir() -> str:
    import sys

    if sys.platform == "darwin":
        return "/Library/Application Support/GeminiCli"
    return "/etc/gemini-cli"


def settings_files(project_dir: str | None, env: Mapping[str, str]) -> list[str]:
    system = (env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or "").strip() or os.path.join(system_dir(), "settings.json")
    files = [
        os.path.join(system_dir(), "system-defaults.json"),
        os.path.join(gemini_home(env), ".gemini", "settings.json"),
        system,
    ]
    if project_dir:
        files.append(os.path.join(project_dir, ".gemini", "settings.json"))
    return files


def policy_locations(
    project_dir: str | None, env: Mapping[str, str], settings: list[dict[str, Any]]
) -> list[tuple[str, bool]]:
    """(file or folder of policy TOML, whether it comes from the project). The last
    settings object is the project's: policy paths it names count as the project's."""
    home = gemini_home(env)
    places = [(os.path.join(home, ".gemini", "policies"), False), (os.path.join(system_dir(), "policies"), False)]
    if project_dir:
        places.append((os.path.join(project_dir, ".gemini", "policies"), True))
    extensions = os.path.join(home, ".gemini", "extensions")
    try:
        places += [(os.path.join(extensions, name, "policies"), False) for name in sorted(os.listdir(extensions))]
    except OSError:
        pass
    for index, data in enumerate(settings):
        from_project = bool(project_dir) and index == len(settings) - 1
        for key in ("policyPaths", "adminPolicyPaths"):
            value = data.get(key)
            if isinstance(value, list):
                places += [(os.path.expanduser(p), from_project) for p in value if isinstance(p, str)]
    return places


# -- YOLO and trust ----------------------------------------------------------------------


def gemini_argv(env: Mapping[str, str]) -> tuple[list[str], str] | None:
    """(the Gemini process's arguments after its script, its working directory), from
    the nearest ancestor process that is Gemini; None when it cannot be read."""
    pid = os.getpid()
    for _ in range(MAX_ANCESTORS):
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                stat = handle.read()
            pid = int(stat.rsplit(b")", 1)[1].split()[1])
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                argv = [a.decode("utf-8", "surrogateescape") for a in handle.read().split(b"\0")[:-1]]
        except (OSError, ValueError, IndexError):
            return None
        if pid <= 1:
            return None
        for index, word in enumerate(argv[:4]):
            name = os.path.basename(word)
            if name == "gemini" or (name.startswith("gemini") and name.endswith((".js", ".mjs", ".cjs"))):
                try:
                    cwd = os.readlink(f"/proc/{pid}/cwd")
                except OSError:
                    cwd = ""
                return argv[index + 1 :], cwd
    return None


def option_values(argv: list[str], names: tuple[str, ...]) -> list[str]:
    """Every value given to one of the long options `names` (`--x v` or `--x=v`)."""
    values = []
    for index, word in enumerate(argv):
        if word == "--":
            break
        for name in names:
            if word == name and index + 1 < len(argv):
                values.append(argv[index + 1])
            elif word.startswith(name + "="):
                values.append(word[len(name) + 1 :])
    return values


def yolo_flag(argv: list[str]) -> bool:
    """Does this command line start Gemini in YOLO mode? (`--approval-mode` wins over
    `--yolo`, as in Gemini's `loadCliConfig`.)"""
    modes = option_values(argv, ("--approval-mode",))
    if modes:
        return modes[-1] == "yolo"
    yolo = False
    for word in argv:
        if word == "--":
            break
        if word in ("--yolo", "-y", "--yolo=true"):
            yolo = True
        elif word in ("--no-yolo", "--yolo=false"):
            yolo = False
    return yolo


def folder_trusted(folder: str, env: Mapping[str, str], settings: list[dict[str, Any]]) -> bool | None:
    """Gemini's `checkPathTrust` for `folder`: True, False, or None when unknown."""
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or env.get("GEMINI_CLI_TRUST_WORKSPACE") == "false":
        return False
    if env.get("GEMINI_CLI_TRUST_WORKSPACE") == "true":
        return True
    enabled = True
    for data in settings[:3]:  # a workspace cannot turn folder trust off
        security = data.get("security")
        folder_trust = security.get("folderTrust") if isinstance(security, dict) else None
        if isinstance(folder_trust, dict) and isinstance(folder_trust.get("enabled"), bool):
            enabled = folder_trust["enabled"]
    if not enabled:
        return True
    if any(key.startswith("GEMINI_CLI_IDE") for key in env):
        return None  # an IDE companion may decide trust; tokenjuice cannot see what it says
    path = (env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH") or "").strip()
    if not path:
        base = os.path.join(gemini_home(env), ".gemini")
        if env.get("SANDBOX") == "sandbox-exec":
            base = os.path.join(gemini_home(env), ".cache", ".gemini")
        path = os.path.join(base, "trustedFolders.json")
    data, problem = read_json(path)
    if problem == "missing":
        return False
    if problem or not isinstance(data, dict):
        return None
    target = os.path.realpath(folder)
    best, verdict = -1, None
    for rule_path, level in data.items():
        effective = os.path.dirname(rule_path) if level == "TRUST_PARENT" else rule_path
        real = os.path.realpath(effective)
        if (target == real or target.startswith(real.rstrip("/") + "/")) and len(rule_path) > best:
            best, verdict = len(rule_path), level
    if verdict == "DO_NOT_TRUST":
        return False
    return verdict in ("TRUST_FOLDER", "TRUST_PARENT")


# -- files -------------------------------------------------------------------------------


def read_json(path: str) -> tuple[Any, str | None]:
    """(value, None), or (None, "missing" / why it cannot be read). Gemini's settings
    allow comments (strip-json-comments): they are removed first."""
    try:
        with open(path, "rb", opener=paths.regular_only) as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        return None, "missing"
    except OSError as error:
        return None, f"unreadable ({type(error).__name__})"
    if len(raw) > MAX_FILE_BYTES:
        return None, "larger than 1 MiB"
    try:
        text = strip_comments(raw.decode("utf-8").removeprefix("\ufeff"))
        return fastjson.loads(text), None
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None, "not JSON tokenjuice can read"


def strip_comments(text: str) -> str:
    """`//` and `/* */` comments outside strings replaced by spaces (and trailing
    commas left for json to reject: then the file is "unreadable")."""
    out = []
    index, length = 0, len(text)
    in_string = False
    while index < length:
        char = text[index]
        if in_string:
            out.append(char)
            if char == "\\" and index + 1 < length:
                out.append(text[index + 1])
                index += 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
            out.append(char)
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = length if end < 0 else end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = length if end < 0 else end + 2
            out.append(" ")
            continue
        else:
            out.append(char)
        index += 1
    return "".join(out)


# -- rules -------------------------------------------------------------------------------


class Rule:
    """One rule that may apply to the shell tool; `patterns` None means it matches
    every shell call, a pattern None that Python cannot compile it (matches)."""

    __slots__ = ("decision", "patterns", "source")

    def __init__(self, decision: str, patterns: list[Any] | None, source: str) -> None:
        self.decision = decision
        self.patterns = patterns
        self.source = source

    def matches(self, stringified: str) -> bool:
        if self.patterns is None:
            return True
        return any(p is None or p.search(stringified) for p in self.patterns)


class Policy:
    __slots__ = ("rules", "uncertain")

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self.uncertain: list[str] = []


def load(
    project_dir: str | None,
    env: Mapping[str, str],
    extra: list[str] | None = None,
    settings: list[dict[str, Any]] | None = None,
) -> Policy:
    """Every deny/ask/allow rule for shell calls in the user's policy files and
    settings; `extra` are `--policy`/`--admin-policy` paths."""
    policy = Policy()
    if settings is None:
        settings = []
        for path in settings_files(project_dir, env):
            data, problem = read_json(path)
            if problem and problem != "missing":
                policy.uncertain.append(f"{path}: {problem}")
            settings.append(data if isinstance(data, dict) else {})
    for data in settings:
        _settings_rules(data, policy)
    files = [
        (path, from_project)
        for place, from_project in policy_locations(project_dir, env, settings) + [(e, False) for e in extra or []]
        for path in _toml_files(place)
    ]
    if len(files) > MAX_POLICY_FILES:
        policy.uncertain.append(f"more than {MAX_POLICY_FILES} policy files")
        return policy
    for path, from_project in files:
        _policy_file(path, policy, from_project)
    return policy


def load_settings(project_dir: str | None, env: Mapping[str, str]) -> tuple[list[dict[str, Any]], list[str]]:
    """(each settings file's object, {} when missing or unreadable; the unreadable ones)."""
    out, problems = [], []
    for path in settings_files(project_dir, env):
        data, problem = read_json(path)
        if problem and problem != "missing":
            problems.append(f"{path}: {problem}")
        out.append(data if isinstance(data, dict) else {})
    return out, problems


def _toml_files(place: str) -> list[str]:
    if place.endswith(".toml") and os.path.isfile(place):
        return [place]
    try:
        return [os.path.join(place, n) for n in sorted(os.listdir(place)) if n.endswith(".toml")]
    except OSError:
        return []


def _is_shell_tool(name: object) -> bool:
    if isinstance(name, list):
        return any(_is_shell_tool(n) for n in name)
    return name == "*" or name in SHELL_TOOLS


def _settings_rules(data: dict[str, Any], policy: Policy) -> None:
    tools = data.get("tools")
    if not isinstance(tools, dict):
        return
    for key, decision in (("exclude", DENY), ("confirmationRequired", ASK)):
        entries = tools.get(key)
        for entry in entries if isinstance(entries, list) else []:
            if isinstance(entry, str) and entry.split("(", 1)[0].strip() in (*SHELL_TOOLS, "*"):
                policy.rules.append(Rule(decision, None, f"settings tools.{key}"))
    for key in ("allowed", "core"):
        entries = tools.get(key)
        if not isinstance(entries, list):
            continue
        if key == "core" or any(
            isinstance(e, str) and e.startswith(tuple(f"{t}(" for t in SHELL_TOOLS)) for e in entries
        ):
            # Narrowing: every shell call but the listed ones is denied.
            policy.rules.append(Rule(DENY, None, f"settings tools.{key}"))


def _policy_file(path: str, policy: Policy, from_project: bool = False) -> None:
    data, problem = read_toml(path)
    if problem or not isinstance(data, dict):
        policy.uncertain.append(f"{path}: {problem}")
        return
    for key in ("rule", "rules"):
        rules = data.get(key)
        if rules is None:
            continue
        if not isinstance(rules, list):
            policy.uncertain.append(f"{path}: {key} is not an array of tables")
            continue
        for rule in rules:
            _policy_rule(rule, path, policy, from_project)
    checkers = data.get("safety_checker")
    for checker in checkers if isinstance(checkers, list) else []:
        if isinstance(checker, dict) and _is_shell_tool(checker.get("toolName")):
            policy.rules.append(Rule(ASK, None, f"{path}: a safety checker judges shell calls"))


def read_toml(path: str) -> tuple[Any, str | None]:
    """(the policy file's content, None) or (None, why it cannot be read). Parsed
    content is cached by the file's mtime and size: `tomllib` (and the `re` it
    imports) costs the hook ~9 ms otherwise."""
    from ...files import cachefile

    try:
        status = os.stat(path)
    except OSError as error:
        return None, f"unreadable ({type(error).__name__})"
    signature = [status.st_mtime_ns, status.st_size]
    cache = cachefile.stem("gemini-policy", os.path.abspath(path)) + ".json"
    hit = cachefile.read_current(cache, signature)
    if hit is not None:
        return hit.get("data"), hit.get("problem")
    import tomllib

    data, problem = None, None
    try:
        with open(path, "rb", opener=paths.regular_only) as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
        if len(raw) > MAX_FILE_BYTES:
            raise ValueError("larger than 1 MiB")
        data = tomllib.loads(raw.decode("utf-8"))
    except (OSError, ValueError, UnicodeDecodeError) as error:
        data, problem = None, f"not TOML tokenjuice can read ({type(error).__name__})"
    try:
        fastjson.dumps(data)
    except (TypeError, ValueError):
        return data, problem  # dates and times: not cached
    cachefile.write_current(cache, signature, {"data": data, "problem": problem})
    return data, problem


def _policy_rule(rule: object, path: str, policy: Policy, from_project: bool) -> None:
    if not isinstance(rule, dict):
        policy.uncertain.append(f"{path}: a rule is not a table")
        return
    decision = {"allow": ALLOW, "deny": DENY, "ask_user": ASK}.get(rule.get("decision"))  # type: ignore[arg-type]
    if decision is None:
        policy.uncertain.append(f"{path}: a rule has no valid decision")
        return
    prefix, regex, args = rule.get("commandPrefix"), rule.get("commandRegex"), rule.get("argsPattern")
    tool = rule.get("toolName")
    if prefix is None and regex is None and not _is_shell_tool(tool):
        return  # another tool (a missing toolName makes Gemini refuse the whole policy)
    if rule.get("mcpName") is not None:
        return  # MCP tools only
    if from_project:
        # A repository is untrusted input: its regular expressions are never run (one
        # could take the hook minutes). Its deny/ask rules count for every command;
        # its allow rules change nothing in YOLO mode.
        if decision != ALLOW:
            policy.rules.append(Rule(decision, None, path))
        return
    patterns = build_patterns(args, prefix, regex)
    if patterns == "invalid":
        policy.uncertain.append(f"{path}: a rule's commandPrefix/commandRegex/argsPattern is not a string")
        return
    policy.rules.append(Rule(decision, patterns if isinstance(patterns, list) else None, path))


def build_patterns(args: object, prefix: object, regex: object) -> list[Any] | str | None:
    """Gemini's `buildArgsPatterns`, compiled with Python's `re` (None entries: could
    not be compiled); None when the rule has no pattern; "invalid" for wrong types."""
    import re

    sources: list[str]
    if prefix is not None:
        prefixes = prefix if isinstance(prefix, list) else [prefix]
        if not prefixes or not all(isinstance(p, str) for p in prefixes):
            return "invalid"
        sources = []
        for item in prefixes:
            encoded = fastjson.dumps(item)[:-1]
            sources.append(_escape(f'"command":{encoded}') + '(?:[\\s"]|\\\\")')
    elif regex is not None:
        if not isinstance(regex, str):
            return "invalid"
        sources = [f'"command":"{regex}']
    elif args is not None:
        if not isinstance(args, str):
            return "invalid"
        sources = [args]
    else:
        return None
    compiled: list[Any] = []
    for source in sources:
        try:
            compiled.append(re.compile(source))
        except (re.error, RecursionError, OverflowError):
            compiled.append(None)
    return compiled


def _escape(text: str) -> str:
    """Gemini's `escapeRegex`: `[-[\\]{}()*+?.,\\\\^$|#\\s"]` get a backslash."""
    return "".join("\\" + c if c in '-[]{}()*+?.,\\^$|#"' or c.isspace() else c for c in text)


def stable_stringify(args: dict[str, Any]) -> str:
    """Gemini's `stableStringify` of a tool call's arguments: sorted keys, top-level
    pairs wrapped in NUL characters, JSON.stringify escaping."""
    pairs = []
    for key in sorted(args):
        text = fastjson.dumps(key) + ":" + _js(args[key])
        pairs.append("\0" + text + "\0")
    return "{" + ",".join(pairs) + "}"


def _js(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ",".join(fastjson.dumps(k) + ":" + _js(value[k]) for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_js(v) for v in value) + "]"
    return fastjson.dumps(value)


# -- the command -------------------------------------------------------------------------


def command_texts(command: str) -> Iterator[str]:
    """The command and every part of it a rule may see: each simple command's text,
    its words behind assignments and wrappers, and nested `sh -c` scripts and
    substitutions (more than Gemini looks at, never less)."""
    from ...shell.argv import shell_scripts, substitutions, variants
    from ...shell.syntax import parse
    from .cursor import _behind

    yield command
    yield command.strip()

    def walk(script: str, depth: int) -> Iterator[str]:
        if depth > MAX_DEPTH:
            return
        pipelines, _ = parse(script)
        for pipeline in pipelines:
            for simple in pipeline.commands:
                yield simple.text
                argv = simple.argv
                while argv and _is_assignment(argv[0]):
                    argv = argv[1:]
                    yield simple.text_from(len(simple.argv) - len(argv))
                for variant in variants(argv, _behind):
                    yield " ".join(variant)
                for word in simple.words:
                    for inner in substitutions(simple.source[word.start : word.end]):
                        yield from walk(inner, depth + 1)
                for inner in shell_scripts(argv):
                    yield inner
                    yield from walk(inner, depth + 1)

    yield from walk(command, 0)


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return bool(sep) and bool(name) and not name[0].isdigit() and name.replace("_", "a").isalnum()


def strongest(policy: Policy, command: str, tool_input: dict[str, Any]) -> str:
    """The strongest decision of a rule matching the command or a part of it."""
    order = {NONE: 0, ALLOW: 1, ASK: 2, DENY: 3}
    verdict = NONE
    dir_path = tool_input.get("dir_path")
    seen: set[str] = set()
    for text in command_texts(command):
        if text in seen:
            continue
        seen.add(text)
        candidates = [{**tool_input, "command": text}, {"command": text}]
        if isinstance(dir_path, str):
            candidates.append({"command": text, "dir_path": dir_path})
        strings = [stable_stringify(c) for c in candidates]
        for rule in policy.rules:
            if order[rule.decision] > order[verdict] and any(rule.matches(s) for s in strings):
                verdict = rule.decision
        if verdict == DENY:
            break
    return verdict


# -- the answer --------------------------------------------------------------------------


def decision(
    command: str, tool_input: dict[str, Any], project_dir: str | None, env: Mapping[str, str]
) -> tuple[str, Policy | None]:
    """What Gemini would do with the rewritten call, as far as it matters: "allow"
    only in YOLO mode, in a trusted folder, with no rule of the user's denying or
    asking about the command; and the rules read (to judge the rewrite itself)."""
    started = gemini_argv(env)
    if started is None:
        return ASK, None  # not started by a Gemini process tokenjuice can read
    argv, gemini_cwd = started
    if not yolo_flag(argv):
        return ASK, None  # Gemini asks about shell calls: it would show you the wrapper
    settings, problems = load_settings(project_dir, env)
    if problems:
        return ASK, None  # a settings file tokenjuice cannot read may hold rules
    if folder_trusted(gemini_cwd or project_dir or os.getcwd(), env, settings) is not True:
        return ASK, None  # an untrusted folder turns YOLO off
    extra = [
        os.path.join(gemini_cwd, p.strip()) if gemini_cwd else p.strip()
        for value in option_values(argv, ("--policy", "--admin-policy"))
        for p in value.split(",")
        if p.strip()
    ]
    policy = load(project_dir, env, extra, settings)
    verdict = strongest(policy, command, tool_input)
    if verdict in (DENY, ASK):
        return verdict, policy
    if policy.uncertain:
        return ASK, policy
    return ALLOW, policy
