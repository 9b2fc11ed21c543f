"""What the user's Claude Code permission rules say about one Bash command — for the
PreToolUse rewrite (Claude Code older than 2.1.121, or `--mode pre`) only.

Claude Code evaluates its permission rules on the command it is about to run,
which after a rewrite is the `tokenjuice wrap …` line (measured on 2.1.197 and
2.1.331, docs/hosts-research.md): an allow rule for the original no longer
applies, a deny rule for the original is bypassed, and a hook's `allow` decision
skips the prompt Claude would have shown (its deny and ask rules still apply to
the rewrite; before 2.1.77 a hook's `allow` even bypassed deny rules). So a
rewrite is only safe when it cannot change whether the command runs, is refused
or is asked about. `decision()` answers, for the *original* command:

- ``"deny"`` — a `permissions.deny` rule matches, or might match, some form of it;
- ``"ask"``  — an `ask` rule might match; or the answer cannot be known exactly (a
  settings file tokenjuice cannot read as Claude does, a launch flag that adds
  rules, a permission mode whose outcome depends on more than rules); or Claude
  would prompt for it, refuse it, or auto-approve it as read-only — which a
  rewrite without `allow` would turn into a prompt for the wrapper;
- ``"allow"`` — the command is plain (see `plain()`) and every simple command in it
  matches an exact rule or a `:*` prefix rule of `permissions.allow`: Claude would
  run it without asking, and the hook's `allow` reproduces exactly that;
- ``"none"`` — no rule speaks to it and the session runs in `bypassPermissions`
  mode, where Claude runs the rewrite as it would have run the original.

Rule matching follows Claude Code's own (documented at
https://code.claude.com/docs/en/permissions and read in 2.1.120's shipped code):
`Bash` / `Bash(*)` match every command, `Bash(cmd args)` one command exactly,
`Bash(prefix:*)` the prefix alone or followed by a space, `*` anywhere else any run
of characters (a single trailing ` *` may also match nothing). Claude checks each
simple command of a compound one, strips leading variable assignments and process
wrappers (`timeout`, `nice`, `nohup`, …) and skips global options (`git -C dir
log` matches `Bash(git log:*)`). Every doubt errs towards a match for deny and ask
rules (case, whitespace, word boundaries, wrappers, paths, `sh -c` scripts and
`$( … )` substitutions are all looked through, and the words of a rule found in
order in a command count as a match) and away from a match for allow rules (the
literal text, case-sensitive; `*` rules other than `:*` never allow, since before
2.1.0 they matched only themselves).

Files read: managed settings (`/etc/claude-code/managed-settings.json` and
`managed-settings.d/*.json`; on macOS under `/Library/Application Support/ClaudeCode`,
where a managed-preferences plist makes the answer uncertain), the cached remote
policy (`remote-settings.json`), the user's `settings.json` (and
`settings.local.json`) in `$CLAUDE_CONFIG_DIR` or `~/.claude`, and the project's
`.claude/settings.json` and `.claude/settings.local.json` in `$CLAUDE_PROJECT_DIR`
(the payload's cwd otherwise) and at its git root. Allow rules count only from the
files Claude Code 2.1.120 reads (managed, user settings.json, the project
directory's two files; only the policy's when it sets `allowManagedPermissionRulesOnly`);
deny and ask rules from all of them. A file that exists but cannot be read exactly makes
the answer at least "ask". The command lines of the
hook's parent processes are read for `--disallowedTools`, `--settings`,
`--setting-sources` and `--permission-prompt-tool`, which add rules tokenjuice
cannot see: any of them makes the answer at least "ask".

Runs on the hook's hot path, only once the rewrite engine has decided to wrap:
standard library only, no `re`.
"""

from __future__ import annotations

import os
import sys

from ... import paths
from ...fast import fastjson
from ...shell.argv import basename, shell_scripts, substitutions, variants
from ...shell.syntax import parse, star_match
from .. import ALLOW, ASK, DENY, NONE
from ..base import config_home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

MAX_CONFIG_BYTES = 1024 * 1024
#: Permission modes in which a rule-allowed command runs without a prompt and
#: anything else is asked about, refused, or auto-approved by Claude's own judgement.
RULE_MODES = frozenset({"default", "acceptEdits", "dontAsk"})
#: Launch flags that add rules or settings a hook cannot read.
UNCERTAIN_FLAGS = frozenset(
    {
        "--disallowedTools",
        "--disallowed-tools",
        "--settings",
        "--setting-sources",
        "--permission-prompt-tool",
    }
)
#: Launch flags that add allow rules for the session (`claude -p … --allowedTools Bash`).
ALLOW_FLAGS = frozenset({"--allowedTools", "--allowed-tools"})
#: Programs whose runs Claude checks beyond its rules (paths they write, `-i`, `-exec`):
#: a hook's `allow` would skip those checks, so they are never "allow".
CHECKED_PROGRAMS = frozenset(
    {
        "rm",
        "rmdir",
        "mv",
        "cp",
        "mkdir",
        "touch",
        "chmod",
        "chown",
        "chgrp",
        "ln",
        "dd",
        "tee",
        "truncate",
        "install",
        "rsync",
        "unlink",
        "shred",
        "sed",
        "find",
        "xargs",
        "cd",
        "pushd",
        "popd",
        "eval",
        "exec",
        "source",
        ".",
        "sudo",
        "doas",
        "env",
        "command",
        "builtin",
        "export",
        "unset",
        "alias",
        "set",
        "trap",
    }
)
#: Options that make an otherwise plain command run other commands or change config.
CHECKED_OPTIONS = frozenset(
    {
        "-c",
        "-e",
        "--eval",
        "-exec",
        "-execdir",
        "-ok",
        "-okdir",
        "-delete",
        "--exec",
        "--exec-path",
        "--upload-pack",
        "--receive-pack",
        "--config-env",
        "-C",
    }
)
#: Characters a plain command may hold: what a shell word needs no quoting for, and
#: spaces, quotes and the operators that join simple commands.
_PLAIN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:-=+,@% '\"&|;")
_CONTROL_WORDS = frozenset(
    {"!", "if", "then", "elif", "else", "fi", "for", "while", "until", "do", "done", "case", "esac", "select"}
    | {"function", "time", "coproc", "[[", "]]", "{", "}", "in"}
)
#: Process wrappers Claude strips before matching (and more: deny look-through only).
_WRAPPERS = frozenset(
    {"timeout", "time", "nice", "nohup", "stdbuf", "xargs", "env", "sudo", "doas", "command", "builtin", "exec"}
    | {"ionice", "setsid", "chrt", "taskset", "unbuffer", "caffeinate", "flock", "watch", "gtimeout", "busybox"}
)
#: How deep `sh -c` scripts and substitutions are looked through for deny and ask rules.
MAX_DEPTH = 6


# -- rules ----------------------------------------------------------------------------


class Rule:
    """One Bash permission rule: `all`, `exact`, `prefix`, `wildcard`, or `unknown`
    (it names Bash but is not written the way Claude reads rules: for deny and ask it
    may match anything)."""

    __slots__ = ("content", "kind", "text")

    def __init__(self, text: str, kind: str, content: str = "") -> None:
        self.text = text
        self.kind = kind
        self.content = content

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Rule({self.text!r}, {self.kind})"


def parse_rule(entry: object) -> Rule | None:
    """`Bash(git status:*)` → Rule; an entry for another tool → None."""
    if not isinstance(entry, str):
        return None
    text = entry
    if text == "Bash":
        return Rule(text, "all")
    if not text.strip().startswith("Bash"):
        return None
    if not text.startswith("Bash(") or not text.endswith(")"):
        rest = text.strip()[4:].lstrip()
        if rest.startswith("(") or not rest:
            return Rule(text, "unknown")  # ` Bash (x)`, `Bash ` — near misses
        return None  # `BashOutput`, another tool
    content = text[5:-1].replace("\\(", "(").replace("\\)", ")")
    if content in ("", "*"):
        return Rule(text, "all" if content == "*" else "unknown", content)
    if content.endswith(":*"):
        return Rule(text, "prefix", content[:-2])
    if _has_star(content):
        return Rule(text, "wildcard", content)
    return Rule(text, "exact", content)


def _has_star(content: str) -> bool:
    """An unescaped `*` (`\\*` is a literal star)."""
    index = 0
    while index < len(content):
        if content[index] == "\\":
            index += 2
            continue
        if content[index] == "*":
            return True
        index += 1
    return False


def _collapse(text: str) -> str:
    return " ".join(text.split())


def wildcard(pattern: str, text: str, *, fold: bool = False) -> bool:
    """Claude's wildcard match: the whole text, `*` any run of characters (newlines
    too), `\\*` a literal star; a pattern ending in ` *` with no other star also
    matches without the ` *`."""
    parts: list[str] = [""]
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern) and pattern[index + 1] in "*\\":
            parts[-1] += pattern[index + 1]
            index += 2
            continue
        if char == "*":
            parts.append("")
        else:
            parts[-1] += char
        index += 1
    if fold:
        parts, text = [p.casefold() for p in parts], text.casefold()
    if len(parts) == 2 and parts[1] == "" and parts[0].endswith(" ") and text == parts[0][:-1]:
        return True
    return star_match(text, parts)


def matches_strictly(rule: Rule, text: str) -> bool:
    """Does `rule` certainly allow the simple command `text` (as Claude reads it)?"""
    if rule.kind == "all" and rule.text == "Bash":
        return True
    if rule.kind == "exact":
        return text == rule.content
    if rule.kind == "prefix":
        prefix = rule.content
        return bool(prefix) and (text == prefix or text.startswith(prefix + " "))
    return False  # `Bash(*)` and wildcards: not in every version; unknown forms: never


def matches_loosely(rule: Rule, text: str) -> bool:
    """Might `rule` match `text` in any version, under any normalisation Claude applies?"""
    if rule.kind in ("all", "unknown"):
        return True
    text = _collapse(text).casefold()
    content = _collapse(rule.content).casefold()
    if not content:
        return True
    if rule.kind == "wildcard":
        if wildcard(content, text) or text == content:
            return True
        words = [w for w in content.replace("*", " ").split()]
        return bool(words) and not content.startswith("*") and _in_order(words, text.split())
    if rule.kind == "prefix" and text.startswith(content):
        return True
    if text == content:
        return True
    return _in_order(content.split(), text.split())


def _in_order(words: list[str], text_words: list[str]) -> bool:
    """The rule's words found in order among the command's, the first one first
    (`git push` in `git -C dir push origin`)."""
    if not words or not text_words or basename(words[0]) != basename(text_words[0]):
        return False
    position = 1
    for word in words[1:]:
        try:
            position = text_words.index(word, position) + 1
        except ValueError:
            return False
    return True


# -- settings files -----------------------------------------------------------------


class Rules:
    """The Bash rules in force, from every file and flag looked at."""

    __slots__ = ("allow", "ask", "deny", "files", "uncertain")

    def __init__(self) -> None:
        self.deny: list[Rule] = []
        self.ask: list[Rule] = []
        self.allow: list[Rule] = []
        #: Something could not be read exactly as Claude reads it.
        self.uncertain = False
        #: (path, status): "ok", "missing", or why it is uncertain.
        self.files: list[tuple[str, str]] = []


def config_dir(env: Mapping[str, str]) -> str:
    return config_home(env, "CLAUDE_CONFIG_DIR", ".claude")


def managed_dir() -> str:
    if sys.platform == "darwin":
        return "/Library/Application Support/ClaudeCode"
    return "/etc/claude-code"


#: Where a settings file sits: managed (policy), user, project, or a file whose allow
#: rules may not be read by every version (its deny and ask rules count all the same).
MANAGED, USER, PROJECT, EXTRA = "managed", "user", "project", "extra"


def settings_files(project_dir: str | None, env: Mapping[str, str]) -> list[tuple[str, str]]:
    """(path, scope) for every file whose settings may be in force, policy first."""
    from ...paths import git_root

    files: list[tuple[str, str]] = []
    managed = managed_dir()
    files.append((os.path.join(managed, "managed-settings.json"), MANAGED))
    try:
        drop_ins = sorted(n for n in os.listdir(os.path.join(managed, "managed-settings.d")) if n.endswith(".json"))
    except OSError:
        drop_ins = []
    files += [(os.path.join(managed, "managed-settings.d", name), MANAGED) for name in drop_ins]
    user = config_dir(env)
    files += [
        (os.path.join(user, "remote-settings.json"), MANAGED),
        (os.path.join(user, "settings.json"), USER),
        (os.path.join(user, "settings.local.json"), EXTRA),
    ]
    if project_dir:
        project = os.path.abspath(project_dir)
        files += [
            (os.path.join(project, ".claude", "settings.json"), PROJECT),
            (os.path.join(project, ".claude", "settings.local.json"), PROJECT),
        ]
        root = git_root(project)
        if root and os.path.abspath(root) != project:
            files += [
                (os.path.join(root, ".claude", "settings.json"), EXTRA),
                (os.path.join(root, ".claude", "settings.local.json"), EXTRA),
            ]
    return files


def read_settings(path: str) -> tuple[str, dict[str, Any] | None]:
    """(status, the file's object or None); status "ok" means read exactly, "missing"
    that there is no file."""
    try:
        with open(path, "rb", opener=paths.regular_only) as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return "missing", None
    except OSError as error:
        return f"unreadable ({type(error).__name__})", None
    if len(data) > MAX_CONFIG_BYTES:
        return "too large", None
    try:
        value = fastjson.loads(data)
    except ValueError:
        return "not valid JSON", None
    if not isinstance(value, dict):
        return "not a JSON object", None
    return "ok", value


def _permissions(value: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    permissions = value.get("permissions")
    if permissions is None:
        return "ok", None
    if not isinstance(permissions, dict):
        return "permissions is not an object", None
    for key in ("allow", "deny", "ask"):
        if key in permissions and not isinstance(permissions[key], list):
            return f"permissions.{key} is not a list", None
    return "ok", permissions


def load_rules(project_dir: str | None, env: Mapping[str, str], *, launch_flags: bool = True) -> Rules:
    """Every Bash rule in force. A policy with `allowManagedPermissionRulesOnly` makes
    only its own allow rules count (everyone's deny and ask rules still do)."""
    rules = Rules()
    allow_by_scope: dict[str, list[Rule]] = {MANAGED: [], USER: [], PROJECT: []}
    managed_only = False
    for path, scope in settings_files(project_dir, env):
        status, value = read_settings(path)
        permissions = None
        if value is not None:
            status, permissions = _permissions(value)
            managed_only |= scope == MANAGED and value.get("allowManagedPermissionRulesOnly") is True
        rules.files.append((path, status))
        if status == "missing":
            continue
        rules.uncertain |= status != "ok"
        if permissions is None:
            continue
        rules.deny += _rules(permissions.get("deny"))
        rules.ask += _rules(permissions.get("ask"))
        if scope in allow_by_scope:
            allow_by_scope[scope] += _rules(permissions.get("allow"))
    rules.allow = allow_by_scope[MANAGED] + ([] if managed_only else allow_by_scope[USER] + allow_by_scope[PROJECT])
    if sys.platform == "darwin" and os.path.exists("/Library/Managed Preferences/com.anthropic.claudecode.plist"):
        rules.files.append(("/Library/Managed Preferences/com.anthropic.claudecode.plist", "not read"))
        rules.uncertain = True
    if launch_flags:
        flag = uncertain_launch_flag()
        if flag:
            rules.files.append(("the launch command line", f"uses {flag}"))
            rules.uncertain = True
        elif not managed_only:
            rules.allow += _rules(launch_allow_rules())
    return rules


def _rules(entries: object) -> list[Rule]:
    return [rule for rule in map(parse_rule, entries if isinstance(entries, list) else ()) if rule]


# -- launch flags ------------------------------------------------------------------------


def uncertain_launch_flag(start: int | None = None, levels: int = 4) -> str | None:
    """The first flag of UNCERTAIN_FLAGS on the command line of the hook's ancestors
    up to Claude Code itself; "unreadable" when a command line cannot be read."""
    pid = os.getppid() if start is None else start
    for _ in range(levels):
        if pid <= 1:
            return None
        found = _process(pid)
        if found is None:
            return "unreadable"
        args, parent = found
        for arg in args:
            if arg in UNCERTAIN_FLAGS or arg.partition("=")[0] in UNCERTAIN_FLAGS:
                return arg.partition("=")[0]
        if any(basename(arg).startswith("claude") for arg in args[:2]):
            return None  # Claude Code itself: its parents do not decide its rules
        pid = parent
    return None


def launch_allow_rules(start: int | None = None, levels: int = 4) -> list[str]:
    """The rules `--allowedTools` gave the Claude Code process running this hook
    (values after the flag up to the next option, each split at commas and spaces
    outside parentheses, as Claude reads them); [] when it cannot be told."""
    pid = os.getppid() if start is None else start
    for _ in range(levels):
        if pid <= 1:
            return []
        found = _process(pid)
        if found is None:
            return []
        args, parent = found
        if any(basename(arg).startswith("claude") for arg in args[:2]):
            return allowed_in(args)
        pid = parent
    return []


def allowed_in(args: list[str]) -> list[str]:
    """The `--allowedTools` entries of a Claude Code command line."""
    values: list[str] = []
    index = 0
    while index < len(args):
        name, equals, value = args[index].partition("=")
        index += 1
        if name not in ALLOW_FLAGS:
            continue
        if equals:
            values.append(value)
            continue
        while index < len(args) and not args[index].startswith("-"):
            values.append(args[index])
            index += 1
    entries: list[str] = []
    for value in values:
        depth, current = 0, ""
        for char in value:
            if char in ", " and depth == 0:
                if current:
                    entries.append(current)
                current = ""
                continue
            depth += (char == "(") - (char == ")")
            current += char
        if current:
            entries.append(current)
    return entries


def _process(pid: int) -> tuple[list[str], int] | None:
    """(argv, parent pid) of a process, or None when it cannot be read."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            args = handle.read().split(b"\0")
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
        parent = int(stat[stat.rindex(b")") + 2 :].split()[1])
        if args == [b""]:
            return None  # no command line (yet, or any more): nothing can be told
        return [a.decode("utf-8", "replace") for a in args if a], parent
    except (OSError, ValueError, IndexError):
        pass
    if os.path.isdir("/proc/self"):
        return None
    import subprocess  # not Linux: ask ps (a few ms, only on this rare path)

    try:
        done = subprocess.run(
            ["ps", "-o", "ppid=", "-o", "args=", "-p", str(pid)],
            capture_output=True,
            timeout=2,
            check=False,
            stdin=subprocess.DEVNULL,
        )
        line = done.stdout.decode("utf-8", "replace").strip()
        parent_text, _, command = line.partition(" ")
        return command.split(), int(parent_text)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None


# -- the command -------------------------------------------------------------------


def plain(command: str) -> bool:
    """A command whose run Claude decides by its rules alone: one line of simple
    commands joined by `&&`, `||`, `;` or `|`, words of safe characters (quotes only
    around values, never in an option), no redirection, substitution, expansion,
    subshell, control structure, variable assignment, path outside the project
    (`/…`, `~`, `..`), and no program or option Claude checks beyond its rules
    (CHECKED_PROGRAMS, CHECKED_OPTIONS)."""
    if not command.strip() or any(c not in _PLAIN_CHARS for c in command):
        return False
    pipelines, complete = parse(command)
    if not complete or not pipelines:
        return False
    for pipeline in pipelines:
        if pipeline.op not in ("&&", "||", ";", None):
            return False
        for simple in pipeline.commands:
            if simple.depth or simple.redirects or not simple.words:
                return False
            argv = simple.argv
            raw = [command[w.start : w.end] for w in simple.words]
            if "=" in argv[0] or argv[0] in _CONTROL_WORDS or basename(argv[0]) in CHECKED_PROGRAMS:
                return False
            for word, text in zip(argv, raw, strict=True):
                if word in CHECKED_OPTIONS or word.startswith(("/", "~")) or ".." in word.split("/"):
                    return False
                if ("'" in text or '"' in text) and (text.startswith("-") or not word):
                    return False
    return True


def _allowed(command: str, allow: list[Rule]) -> bool:
    """Every simple command matches an allow rule, in its written and unquoted forms."""
    pipelines, _ = parse(command)
    for pipeline in pipelines:
        for simple in pipeline.commands:
            raw = " ".join(command[w.start : w.end] for w in simple.words)
            unquoted = " ".join(simple.argv)
            for text in {raw, unquoted}:
                if not any(matches_strictly(rule, text) for rule in allow):
                    return False
    return True


def texts_for_rules(command: str) -> tuple[list[str], bool]:
    """Every form of `command` a deny or ask rule is tried against (a superset of
    Claude's), and whether all of it could be looked at."""
    texts: list[str] = [command]
    complete = _collect(command, texts, 0)
    return texts, complete


def _collect(script: str, texts: list[str], depth: int) -> bool:
    if depth > MAX_DEPTH:
        return False
    pipelines, complete = parse(script)
    for pipeline in pipelines:
        texts.append(pipeline.text)
        for simple in pipeline.commands:
            words = simple.words
            argv = simple.argv
            texts.append(simple.text)
            texts.append(" ".join(script[w.start : w.end] for w in words))
            for variant in variants(argv, _behind):
                texts.append(" ".join(variant))
            for word in words:
                for inner in substitutions(script[word.start : word.end]):
                    complete &= _collect(inner, texts, depth + 1)
            for inner in shell_scripts(argv):
                complete &= _collect(inner, texts, depth + 1)
    return complete


def _behind(words: list[str]) -> list[list[str]]:
    """The command behind an assignment, a control word, a wrapper or a path."""
    found = []
    head = words[0]
    if head in _CONTROL_WORDS or ("=" in head and not head.startswith(("=", "-"))):
        found.append(words[1:])
    name = basename(head)
    if name != head:
        found.append([name, *words[1:]])
    if name in _WRAPPERS:
        for index in range(1, min(len(words), 6)):
            found.append(words[index:])
    return found


# -- the answer ----------------------------------------------------------------------


def ruled(command: str, rules: Rules) -> str | None:
    """DENY or ASK when a deny or ask rule might match `command`, else None."""
    if not (rules.deny or rules.ask):
        return None
    texts, complete = texts_for_rules(command)
    for kind, found in ((DENY, rules.deny), (ASK, rules.ask)):
        if any(matches_loosely(rule, text) for rule in found for text in texts):
            return kind
    if not complete:
        return DENY if rules.deny else ASK  # part of it could not be looked at
    return None


def decide(command: str, rules: Rules, mode: object) -> str:
    """`decision` for rules already loaded."""
    if not command.strip():
        return NONE
    verdict = ruled(command, rules)
    if verdict:
        return verdict
    if rules.uncertain:
        return ASK
    if mode == "bypassPermissions":
        return ALLOW if plain(command) and _allowed(command, rules.allow) else NONE
    if mode not in RULE_MODES:
        return ASK  # plan, auto, or a mode this version does not know: Claude's judgement, not rules
    if rules.allow and plain(command) and _allowed(command, rules.allow):
        return ALLOW
    return ASK


def decision(command: str, project_dir: str | None, mode: object, env: Mapping[str, str] | None = None) -> str:
    """What the user's Claude Code rules say about `command` in permission `mode`."""
    return decide(command, load_rules(project_dir, os.environ if env is None else env), mode)
