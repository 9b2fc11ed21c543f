"""What the user's Cursor CLI permission rules say about one shell command.

The Cursor hook rewrites `cmd` into `tokenjuice wrap … -- <shell> -lc 'cmd'`, and
Cursor checks its permission rules against the command it is about to run, which
after the rewrite is the wrapper: a rule such as `Shell(rm)` no longer matches, so
a rewrite could launder a denied command into a runnable one
(docs/cursor-permissions.md has the evidence). `decision()` answers, for the
*original* command, what the user's rules say, so the hook can leave alone what it
must not rewrite:

- ``"deny"``  — some sub-command matches (or might match) a `permissions.deny` entry;
- ``"allow"`` — every sub-command matches the `permissions.allow` lists, nothing is
  uncertain;
- ``"ask"``   — the rules hold an allowlist this command is not fully on, a config
  file could not be read exactly, or the command could not be analysed;
- ``"none"``  — no readable rule speaks to this command (Cursor's run mode decides).

Files read: the user's `cli-config.json` (`$CURSOR_CONFIG_DIR/cli-config.json` when
that is set, else `$XDG_CONFIG_HOME/cursor/cli-config.json` and
`~/.cursor/cli-config.json`) and each `.cursor/cli.json` from the project's git root
down to the project directory. Entries are matched the way Cursor's own matcher does
(`Shell(cmd)`, `Shell(cmd args*)`, `Shell(cmd:args-glob)`, `*` the only wildcard),
against each simple command of a compound command. Every doubt errs towards "deny"
for deny rules and away from "allow" for allow rules:

- deny rules are the union of every readable file, and are also tried against the
  command behind wrappers (`sudo`, `env`, `timeout 5`, …), control keywords, paths
  (`/bin/rm`), `sh -c` scripts and `$( … )` substitutions, none of which Cursor
  itself looks through;
- a command is "allow" only if it is on the user-level allow list *and* on the allow
  list of the deepest project `cli.json` that has a `permissions` object (the docs
  leave open whether project lists add to or replace the user's), with no command
  substitution, no redirection other than to /dev/null or between stdout and stderr,
  no control structure and no newline;
- a file that exists but is not plain JSON of the documented shape (malformed JSON,
  a UTF-8 BOM, a wrong type, unreadable, over 1 MiB) makes the answer at least
  "ask": its deny entries still count, its allow entries do not.

Runs on the hook's hot path: standard library only, no `re`, `json` or `fnmatch`.
"""

from __future__ import annotations

import os

from ...fast import fastjson
from ...paths import regular_only
from ...shell.argv import basename, shell_scripts, substitutions, variants
from ...shell.syntax import SimpleCommand, Token, parse, split_words, star_match
from .. import ALLOW, ASK, DENY, NONE, project_config_paths, user_config_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


MAX_CONFIG_BYTES = 1024 * 1024
#: Nested `sh -c` / `$( )` levels looked through for deny rules; deeper is a possible deny.
MAX_DEPTH = 6
#: Words after a wrapper tried as the wrapped command (`nice -n 10 rm` → `rm`).
_WRAPPER_LOOKAHEAD = 4

#: Commands that run the rest of their words as a command (deny look-through only).
WRAPPERS = frozenset(
    {
        "sudo",
        "doas",
        "env",
        "command",
        "builtin",
        "exec",
        "nohup",
        "nice",
        "time",
        "timeout",
        "xargs",
        "stdbuf",
        "ionice",
        "setsid",
        "chrt",
        "taskset",
        "unbuffer",
        "caffeinate",
        "chronic",
        "flock",
        "watch",
        "strace",
        "ltrace",
        "gtimeout",
        "busybox",
    }
)
#: Words that start a control structure; a command beginning with one is never "allow".
CONTROL_WORDS = frozenset(
    {
        "!",
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "for",
        "while",
        "until",
        "do",
        "done",
        "case",
        "esac",
        "select",
        "function",
        "time",
        "coproc",
        "[[",
        "]]",
        "{",
        "}",
        "in",
    }
)
#: JavaScript's `.` does not match these, so Cursor's `*` and entry syntax stop at them.
_LINE_BREAKS = ("\n", "\r", "\u2028", "\u2029")


# -- entries and Cursor's matcher ---------------------------------------------------


class Entry:
    """One `Shell(...)` / `Bash(...)` permission entry, split the way Cursor splits it."""

    __slots__ = ("args", "command", "full")

    def __init__(self, full: str, command: str, args: str | None) -> None:
        self.full = full
        self.command = command
        self.args = args

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Entry({self.full!r})"


def parse_entry(entry: object) -> Entry | None:
    """`Shell(git push)` → Entry; anything that is not a Shell/Bash entry → None.

    Mirrors Cursor's `^\\s*(Shell|Bash)\\s*\\((.*)\\)\\s*$`: case-sensitive, the inner
    text trimmed, split at its first `:` into a command and an argument pattern."""
    if not isinstance(entry, str):
        return None
    text = entry.strip()
    for tool in ("Shell", "Bash"):
        if text.startswith(tool):
            rest = text[len(tool) :].lstrip()
            break
    else:
        return None
    if not rest.startswith("(") or not rest.endswith(")") or len(rest) < 2:
        return None
    inner = rest[1:-1]
    if any(mark in inner for mark in _LINE_BREAKS):
        return None
    inner = inner.strip()
    colon = inner.find(":")
    if colon < 0:
        return Entry(inner, inner, None)
    return Entry(inner, inner[:colon].strip(), inner[colon + 1 :].strip())


def glob(pattern: str, text: str, dotall: bool = False) -> bool:
    """Cursor's glob: the whole (trimmed) pattern against the whole text, `*` any run
    of characters, everything else literal and case-sensitive. With `dotall` False a
    `*` does not cross a line break, as in Cursor's JavaScript regex."""
    return star_match(text, pattern.strip().split("*"), None if dotall else _no_break)


def _no_break(text: str, start: int, end: int) -> bool:
    return not any(text.find(mark, start, end) >= 0 for mark in _LINE_BREAKS)


def entry_matches(entry: Entry, text: str, dotall: bool = False) -> bool:
    """Does Cursor's `matchesShell` match `entry` against one command's text?"""
    text = text.strip()
    space = text.find(" ")
    base = text if space < 0 else text[:space]
    if entry.args is not None:
        args = "" if space < 0 else text[space + 1 :].strip()
        if (glob(entry.command, base, dotall) or glob(entry.command, text, dotall)) and glob(entry.args, args, dotall):
            return True
    full = entry.full
    return glob(full, text, dotall) or text.startswith(full + " ") or glob(full, base, dotall) or base == full


# -- config files --------------------------------------------------------------------


class Rules:
    """The Shell entries in force, from every config file that was looked at."""

    __slots__ = ("allow_lists", "deny", "files", "has_rules", "uncertain")

    def __init__(self) -> None:
        self.deny: list[Entry] = []
        #: A command is allowed only if it matches some entry of every list here.
        self.allow_lists: list[list[Entry]] = []
        #: Some file exists but could not be read exactly as Cursor reads it.
        self.uncertain = False
        self.has_rules = False
        #: (path, status) for each file looked at: "ok", "missing" or why it is uncertain.
        self.files: list[tuple[str, str]] = []


def _read_permissions(path: str) -> tuple[str, dict[str, Any] | None]:
    """(status, permissions object or None). Status "ok" means read exactly."""
    try:
        with open(path, "rb", opener=regular_only) as handle:
            data = handle.read(MAX_CONFIG_BYTES + 1)
    except FileNotFoundError:
        return "missing", None
    except OSError as error:
        return f"unreadable ({type(error).__name__})", None
    if len(data) > MAX_CONFIG_BYTES:
        return "too large", None
    status = "ok"
    if data.startswith(b"\xef\xbb\xbf"):
        status, data = "byte order mark", data[3:]  # Cursor's JSON.parse rejects it
    try:
        value = fastjson.loads(data)
    except ValueError:
        return "not valid JSON", None
    if not isinstance(value, dict):
        return "not a JSON object", None
    if "permissions" not in value:
        return status, None  # Cursor fills in defaults; this file sets no rules
    permissions = value["permissions"]
    if not isinstance(permissions, dict):
        return "permissions is not an object", None
    for key in ("allow", "deny"):
        if key in permissions and not isinstance(permissions[key], list):
            return f"permissions.{key} is not a list", None
    return status, permissions


def load_rules(project_dir: str | None = None, env: Mapping[str, str] | None = None) -> Rules:
    """Read the user's and the project's Cursor CLI permission rules."""
    rules = Rules()
    user_allows: list[list[Entry]] = []
    project_allow: list[Entry] | None = None
    user_paths = user_config_paths(env)
    for scope, paths in (("user", user_paths), ("project", project_config_paths(project_dir))):
        for path in paths:
            status, permissions = _read_permissions(path)
            rules.files.append((path, status))
            if status == "missing":
                continue
            exact = status == "ok"
            rules.uncertain |= not exact
            if permissions is None:
                continue
            deny = [e for e in map(parse_entry, permissions.get("deny") or ()) if e]
            allow = [e for e in map(parse_entry, permissions.get("allow") or ()) if e]
            rules.deny += deny
            rules.has_rules |= bool(deny or allow)
            if not exact:
                allow = []
            if scope == "user":
                user_allows.append(allow)
            else:
                project_allow = allow  # the deepest project file with permissions wins
    user_allow = user_allows[0] if user_allows else []
    if len(user_allows) > 1:
        # Which of several user-level files the CLI reads is not documented: an entry
        # counts only if every one of them has it.
        shared = set.intersection(*({entry.full for entry in allow} for allow in user_allows))
        user_allow = [entry for entry in user_allow if entry.full in shared]
    rules.allow_lists.append(user_allow)
    if project_allow is not None:
        rules.allow_lists.append(project_allow)
    return rules


# -- the command -------------------------------------------------------------------


class Analysis:
    """The command split into simple commands, as Cursor's matcher sees them."""

    __slots__ = ("allowable", "complete", "deny_texts", "exact", "too_deep")

    def __init__(self) -> None:
        #: Per simple command, the texts that must all match an allow entry.
        self.exact: list[list[str]] = []
        #: Every text a deny entry is tried against (a superset of what Cursor tries).
        self.deny_texts: list[str] = []
        #: False when something rules "allow" out (substitution, redirect, keyword…).
        self.allowable = True
        self.complete = True
        self.too_deep = False


def analyze(command: str) -> Analysis:
    analysis = Analysis()
    _analyze(command, analysis, 0, top=True)
    if not analysis.exact:
        analysis.allowable = False
    return analysis


def _analyze(script: str, analysis: Analysis, depth: int, top: bool) -> None:
    if depth > MAX_DEPTH:
        analysis.too_deep = True
        analysis.allowable = False
        return
    pipelines, complete = parse(script)
    if not complete:
        analysis.complete = False
        analysis.allowable = False
    for pipeline in pipelines:
        for simple in pipeline.commands:
            _simple(simple, analysis, depth, top)


def _simple(simple: SimpleCommand, analysis: Analysis, depth: int, top: bool) -> None:
    source = simple.source
    words = simple.words
    start = 0
    while start < len(words) and _is_assignment(words[start].value):
        start += 1
    words = words[start:]
    if top and not _redirects_safe(simple.redirects):
        analysis.allowable = False
    if not words:
        return
    raw = [source[w.start : w.end] for w in words]
    argv = [w.value for w in words]
    texts = [" ".join(raw), " ".join(argv)]
    if top:
        analysis.exact.append(texts)
        if argv[0] in CONTROL_WORDS:
            analysis.allowable = False
    analysis.deny_texts += texts
    for variant in variants(argv, _behind):
        analysis.deny_texts.append(" ".join(variant))
    for word in raw:
        for inner in substitutions(word):
            if top:
                analysis.allowable = False
            _analyze(inner, analysis, depth + 1, top=False)
    for inner in shell_scripts(argv):
        _analyze(inner, analysis, depth + 1, top=False)


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return (
        bool(sep)
        and bool(name)
        and not name[0].isdigit()
        and all(c == "_" or (c.isascii() and c.isalnum()) for c in name)
    )


def _redirects_safe(redirects: list[Token]) -> bool:
    """Only `>/dev/null` (any fd, `&>`) and stdout/stderr swaps (`2>&1`, `>&2`) are
    left to "allow"; anything else may write a file or read one."""
    for token in redirects:
        op = token.value.lstrip("0123456789")
        if op == ">&" and token.target in ("1", "2"):
            continue
        if "<" not in op and token.target == "/dev/null":
            continue
        return False
    return True


def _behind(words: list[str]) -> list[list[str]]:
    """The command behind a control word, a wrapper or a path (for deny rules only)."""
    found = []
    head = words[0]
    if head in CONTROL_WORDS:
        found.append(words[1:])
    name = basename(head)
    if name != head:
        found.append([name] + words[1:])
    if name in WRAPPERS:
        for index in range(1, min(len(words), 1 + _WRAPPER_LOOKAHEAD)):
            if not words[index].startswith("-") and not _is_assignment(words[index]):
                found.append(words[index:])
    return found


# -- the answer ----------------------------------------------------------------------


def decision(command: str, project_dir: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """What the user's Cursor CLI rules say about `command`: deny, ask, allow or none."""
    rules = load_rules(project_dir, env)
    return decide(command, rules)


def decide(command: str, rules: Rules) -> str:
    """`decision` for rules already loaded (several commands, one read of the files)."""
    if not command.strip():
        return NONE
    analysis = analyze(command)
    if rules.deny:
        for text in analysis.deny_texts:
            for entry in rules.deny:
                if entry_matches(entry, text, dotall=True):
                    return DENY
        if analysis.too_deep or not analysis.complete:
            return DENY  # part of the command could not be looked at: a possible deny
    if rules.uncertain:
        return ASK
    if not any(rules.allow_lists):
        return NONE
    if not analysis.allowable or not analysis.complete:
        return ASK
    for texts in analysis.exact:
        for allow in rules.allow_lists:
            for text in texts:
                if not any(entry_matches(entry, text) for entry in allow):
                    return ASK
    return ALLOW


def allowlist_gap(hook_command: str, env: Mapping[str, str], project_dir: str | None) -> str | None:
    """When the user's Cursor CLI allowlist is in force and does not allow the rewritten
    command, every command it allows would be left alone (a rewrite would bring a prompt
    for the wrapper): one sentence saying so and naming the entry to add; else None."""
    from ...settings import resolve
    from ...shell import rewrite

    rules = load_rules(project_dir, env)
    if not any(rules.allow_lists) or rules.uncertain:
        return None
    words = split_words(hook_command)
    launcher = words[words.index("--wrap-launcher") + 1] if "--wrap-launcher" in words[:-1] else "tokenjuice"
    settings = resolve(None, env=env)
    plan = rewrite.plan("git status", host="cursor", shell="/bin/sh", launcher=launcher, settings=settings)  # noqa: S604 - nothing runs
    if not plan.wrapped or decide(plan.command, rules) == ALLOW:
        return None
    first = split_words(plan.command)[0]
    where = next((f for f, status in rules.files if status == "ok"), "cli-config.json")
    for candidate in dict.fromkeys((f"Shell({os.path.basename(first)})", f"Shell({first})")):
        entry = parse_entry(candidate)
        if entry is None or not os.path.basename(first).startswith("tokenjuice"):
            continue  # never an entry that would allow another program (python -m tokenjuice: python)
        saved = [list(allowed) for allowed in rules.allow_lists]
        rules.allow_lists = [[*allowed, entry] for allowed in saved]
        allowed = decide(plan.command, rules) == ALLOW
        rules.allow_lists = saved
        if allowed:
            return (
                f"your Cursor allowlist ({where}) does not allow the rewritten command, so tokenjuice leaves every "
                f'command alone; add "{candidate}" to permissions.allow there to have them compacted (then every '
                "command run through tokenjuice wrap runs without a prompt, docs/cursor.md)"
            )
    return (
        f"your Cursor allowlist ({where}) does not allow the rewritten command, so tokenjuice leaves every command "
        "alone; a tokenjuice installed with its own tokenjuice program (not --local) can be allowlisted"
    )
