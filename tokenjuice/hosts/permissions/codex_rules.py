"""What the user's Codex exec-policy rules say about one shell command.

Codex checks its exec policy on the command it is about to run, which after a
rewrite is `tokenjuice wrap … -- <shell> -lc '<command>'`: a rule such as
`prefix_rule(pattern=["rm"], decision="forbidden")` no longer matches, and a
forbidden command would run (measured with codex 0.169.0, docs/hosts-research.md).
The same holds for Codex's own heuristic: a forced `rm` (`rm -f`, `rm -rf`,
`sudo rm --force …`) asks first (on-request) or is refused (never, sandboxed),
while the wrapper around it runs without a word (measured). So `decision()`
answers, for the *original* command:

- ``"deny"``  — a `forbidden` rule matches (or might match) some part of it;
- ``"ask"``   — a `prompt` rule matches, Codex's forced-`rm` heuristic fires, or the
  rule files cannot be read exactly as Codex reads them;
- ``"allow"`` — an `allow` rule matches some part of it and nothing stronger does
  (Codex runs a command all of whose parts are allowed outside the sandbox, so
  the wrapper must then be allowed too);
- ``"none"``  — no rule speaks to it.

Rule files: `*.rules` in the `rules/` folder of every Codex config layer —
`$CODEX_HOME` (default `~/.codex`), `/etc/codex`, and `.codex/` in the project
directory and each folder above it up to the git root (Codex reads a project's
only when the project is trusted; tokenjuice reads them whether or not, which can
only make it leave more commands alone). They are Starlark:
`prefix_rule(pattern=[…], decision="allow"|"prompt"|"forbidden", justification=…,
match=[…], not_match=[…])`, `host_executable(name=…, paths=[…])`,
`network_rule(…)` (codex-rs/execpolicy/README.md). A file holding anything but
such calls with literal arguments (variables, loops, f-strings, `load`) is not
evaluated: the answer is at least "ask". Codex itself drops *every* rule when one
file fails to parse; "ask" leaves those commands to Codex either way.

Matching follows `PrefixPattern::matches_prefix`: the pattern's tokens, in order,
equal the command's first words (a list in the pattern is a set of alternatives);
a rule for `git` also matches `/usr/bin/git` (host-executable fallback). Codex
splits `bash -lc` scripts into their plain commands; tokenjuice tries every simple
command it finds, including those behind wrappers (`sudo`, `env`, `timeout 5`),
in `sh -c` scripts and in `$( … )` — more than Codex looks at, so a deny rule is
never missed.
"""

from __future__ import annotations

import os

from ... import paths
from ...shell.argv import basename
from ...shell.syntax import parse
from .. import ALLOW, ASK, DENY, NONE
from ..base import config_home

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_RULES_BYTES = 1024 * 1024
#: More rule files than this (a repository can hold any number): not read, the answer is "ask".
MAX_RULE_FILES = 100
MAX_DEPTH = 6
_DECISIONS = {"allow": ALLOW, "prompt": ASK, "forbidden": DENY}
_STRENGTH = {NONE: 0, ALLOW: 1, ASK: 2, DENY: 3}
_PREFIX_RULE_ARGS = ("pattern", "decision", "match", "not_match", "justification")


class Rule:
    """One `prefix_rule`: alternatives per position, and what it decides."""

    __slots__ = ("decision", "tokens")

    def __init__(self, tokens: list[tuple[str, ...]], decision: str) -> None:
        self.tokens = tokens
        self.decision = decision

    def matches(self, argv: list[str]) -> bool:
        if len(argv) < len(self.tokens) or not argv:
            return False
        if argv[0] not in self.tokens[0] and basename(argv[0]) not in self.tokens[0]:
            return False
        return all(word in alternatives for word, alternatives in zip(argv[1:], self.tokens[1:], strict=False))


class Rules:
    """Every prefix rule in force, and whether some file could not be read exactly."""

    __slots__ = ("files", "rules", "uncertain")

    def __init__(self) -> None:
        self.rules: list[Rule] = []
        self.uncertain: list[str] = []  # files (with why) tokenjuice could not evaluate
        self.files: list[str] = []


# -- where the rules are -------------------------------------------------------------


def codex_home(env: Mapping[str, str]) -> str:
    return config_home(env, "CODEX_HOME", ".codex")


def rule_dirs(project_dir: str | None, env: Mapping[str, str]) -> list[str]:
    """The `rules/` folders of every layer Codex may load, lowest precedence first."""
    dirs = ["/etc/codex/rules", os.path.join(codex_home(env), "rules")]
    if project_dir and os.path.isabs(project_dir):
        from ...paths import up_to_git_root

        dirs += [os.path.join(d, ".codex", "rules") for d in reversed(up_to_git_root(project_dir))]
    return list(dict.fromkeys(dirs))


def rule_files(project_dir: str | None, env: Mapping[str, str]) -> list[str]:
    files = []
    for directory in rule_dirs(project_dir, env):
        try:
            names = sorted(os.listdir(directory))
        except OSError:
            continue
        files += [os.path.join(directory, n) for n in names if n.endswith(".rules")]
    return files


def load(project_dir: str | None, env: Mapping[str, str]) -> Rules:
    rules = Rules()
    files = rule_files(project_dir, env)
    if len(files) > MAX_RULE_FILES:
        rules.uncertain.append(f"more than {MAX_RULE_FILES} rule files")
        return rules
    for path in files:
        rules.files.append(path)
        found, problem = read_rules(path)
        if problem:
            rules.uncertain.append(f"{path}: {problem}")
        else:
            rules.rules += found
    return rules


def read_rules(path: str) -> tuple[list[Rule], str | None]:
    """(the file's prefix rules, None) or ([], why it cannot be evaluated). What a
    file holds is cached by its mtime and size: `ast` costs the hook ~5 ms."""
    from ...files import cachefile

    try:
        status = os.stat(path)
    except OSError as error:
        return [], f"unreadable ({type(error).__name__})"
    signature = [status.st_mtime_ns, status.st_size]
    cache = cachefile.stem("codex-rules", os.path.abspath(path)) + ".json"
    hit = cachefile.read_current(cache, signature)
    if hit is not None and isinstance(hit.get("rules"), list):
        try:
            cached = [Rule([tuple(t) for t in tokens], decision) for tokens, decision in hit["rules"]]
            if all(r.decision in (ALLOW, ASK, DENY) and r.tokens for r in cached):
                return cached, hit.get("problem")
        except (TypeError, ValueError):
            pass
    found: list[Rule] = []
    problem = _parse_file(path, found)
    entry = {"rules": [[[list(t) for t in r.tokens], r.decision] for r in found], "problem": problem}
    cachefile.write_current(cache, signature, entry)
    return found, problem


def _parse_file(path: str, into: list[Rule]) -> str | None:
    try:
        with open(path, "rb", opener=paths.regular_only) as handle:
            data = handle.read(MAX_RULES_BYTES + 1)
    except OSError as error:
        return f"unreadable ({type(error).__name__})"
    if len(data) > MAX_RULES_BYTES:
        return "larger than 1 MiB"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "not UTF-8"
    return parse_rules(text, into)


# -- the Starlark subset ---------------------------------------------------------------


def parse_rules(text: str, into: list[Rule]) -> str | None:
    """Append the file's prefix rules to `into`; a reason when the file is not made of
    literal `prefix_rule`/`host_executable`/`network_rule` calls only (then nothing
    of it is appended)."""
    import ast

    try:
        module = ast.parse(text, mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return "not Starlark tokenjuice can read"
    found: list[Rule] = []
    for statement in module.body:
        call = statement.value if isinstance(statement, ast.Expr) else None
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
            return f"line {statement.lineno} is not a rule call"
        name = call.func.id
        try:
            args = [ast.literal_eval(a) for a in call.args]
            kwargs = {k.arg: ast.literal_eval(k.value) for k in call.keywords if k.arg is not None}
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return f"line {statement.lineno} has an argument that is not a literal"
        if any(k.arg is None for k in call.keywords):
            return f"line {statement.lineno} unpacks arguments"
        if name in ("host_executable", "network_rule"):
            continue  # neither changes which command a rule names (fallback is assumed)
        if name != "prefix_rule":
            return f"line {statement.lineno} calls {name}"
        if len(args) > len(_PREFIX_RULE_ARGS):
            return f"line {statement.lineno} has too many arguments"
        values = dict(zip(_PREFIX_RULE_ARGS, args, strict=False))
        for key, value in kwargs.items():
            if key not in _PREFIX_RULE_ARGS or key in values:
                return f"line {statement.lineno} has an unknown or repeated argument {key}"
            values[key] = value
        rule = _prefix_rule(values.get("pattern"), values.get("decision", "allow"))
        if rule is None:
            return f"line {statement.lineno} is not a valid prefix_rule"
        found.append(rule)
    into += found
    return None


def _prefix_rule(pattern: object, decision: object) -> Rule | None:
    if not isinstance(pattern, list) or not pattern or decision not in _DECISIONS:
        return None
    tokens: list[tuple[str, ...]] = []
    for token in pattern:
        if isinstance(token, str):
            tokens.append((token,))
        elif isinstance(token, list) and token and all(isinstance(t, str) for t in token):
            tokens.append(tuple(token))
        else:
            return None
    assert isinstance(decision, str)
    return Rule(tokens, _DECISIONS[decision])


# -- the command -----------------------------------------------------------------------


def command_argvs(command: str) -> tuple[list[list[str]], bool]:
    """(every simple command's words, looked through wrappers, `sh -c` scripts and
    substitutions; whether the whole command was read completely)."""
    from ...shell.argv import shell_scripts, substitutions, variants
    from .cursor import _behind

    found: list[list[str]] = []
    complete = True

    def walk(script: str, depth: int) -> None:
        nonlocal complete
        if depth > MAX_DEPTH:
            complete = False
            return
        pipelines, whole = parse(script)
        complete = complete and whole
        for pipeline in pipelines:
            for simple in pipeline.commands:
                argv = simple.argv
                while argv and _is_assignment(argv[0]):
                    argv = argv[1:]
                if argv:
                    found.extend(variants(argv, _behind))
                for word in simple.words:
                    for inner in substitutions(simple.source[word.start : word.end]):
                        walk(inner, depth + 1)
                for inner in shell_scripts(argv):
                    walk(inner, depth + 1)

    walk(command, 0)
    return found, complete


def _is_assignment(word: str) -> bool:
    name, sep, _ = word.partition("=")
    return bool(sep) and bool(name) and not name[0].isdigit() and name.replace("_", "a").isalnum()


def forced_rm(argv: list[str]) -> bool:
    """Codex's `dangerous_command_match_for_exec`: `rm` with a force option, also
    behind `sudo` (the variants cover other wrappers)."""
    if argv and basename(argv[0]) == "sudo":
        return forced_rm(argv[1:])
    if not argv or basename(argv[0]) != "rm":
        return False
    for word in argv[1:]:
        if word == "--":
            break
        if word == "--force" or (word.startswith("-") and not word.startswith("--") and "f" in word[1:]):
            return True
    return False


# -- the answer ------------------------------------------------------------------------


def decision(command: str, project_dir: str | None = None, env: Mapping[str, str] | None = None) -> str:
    return decide(command, load(project_dir, os.environ if env is None else env))


def decide(command: str, rules: Rules) -> str:
    """`decision` for rules already loaded. Any `allow` match counts: Codex runs a
    command every part of which is allowed outside the sandbox, and tokenjuice does
    not try to tell that case from a partial match (the wrapper would have to be
    allowed too, see `Codex.answer`)."""
    argvs, complete = command_argvs(command)
    verdict = NONE
    for argv in argvs:
        for rule in rules.rules:
            if _STRENGTH[rule.decision] > _STRENGTH[verdict] and rule.matches(argv):
                verdict = rule.decision
        if forced_rm(argv) and _STRENGTH[ASK] > _STRENGTH[verdict]:
            verdict = ASK
    if verdict == DENY:
        return DENY
    if rules.uncertain or (not complete and rules.rules):
        return ASK  # part of the command or of the rules could not be looked at
    return verdict


def decide_rewritten(command: str, rules: Rules) -> str:
    """What Codex's policy makes of a command tokenjuice rewrote: only its top-level
    plain commands count (the wrapped body is one argument to Codex). "allow" when a
    rule allows every one of them, "none" when no rule matches any, otherwise the
    strongest decision ("ask" for a mix of allowed and unmatched parts)."""
    pipelines, complete = parse(command)
    if not complete:
        return ASK
    seen: set[str] = set()
    for pipeline in pipelines:
        for simple in pipeline.commands:
            argv = simple.argv
            while argv and _is_assignment(argv[0]):
                argv = argv[1:]
            strongest = NONE
            for rule in rules.rules:
                if _STRENGTH[rule.decision] > _STRENGTH[strongest] and rule.matches(argv):
                    strongest = rule.decision
            seen.add(strongest)
    for verdict in (DENY, ASK):
        if verdict in seen:
            return verdict
    if seen == {ALLOW}:
        return ALLOW
    return ASK if ALLOW in seen else NONE
