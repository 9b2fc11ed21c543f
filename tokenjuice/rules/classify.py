"""Choose the most specific rule for a command.

Every (candidate, rule) pair that matches gets a score:
`priority × 1000 + specificity`, where specificity rewards what the rule pinned
down, with the weights declared beside each `[match]` key in `rules/model.py`:
argv0 (100), a subcommand (60), each required argv token (40), the matched
`argv_includes_any` group's tokens (35 each), each required command-text word
(25), a `command_includes_any` hit (20), a tool name (10). Unlike the
TypeScript original, a list of alternatives counts once: a rule accepting six
argv0 spellings is no more specific than one accepting one. Ties go to the more
derived candidate (effective > shell-body > original, deeper runner stripping
first), then to the rule id in alphabetical order. `generic/fallback` only wins
when nothing else matches.
"""

from __future__ import annotations

from ..fast.record import fields, record
from ..shell.argv import basename, subcommand
from ..shell.command import ORIGINAL, SOURCE_PRIORITY, Candidate, CommandInfo
from .model import Match, MatchEntry, Rule

FALLBACK_ID = "generic/fallback"
#: The specificity each [match] key adds, as declared in rules/model.py.
WEIGHTS = {field.name: field.metadata["score"] for field in fields(Match)}


@record
class Classification:
    """The chosen rule and why."""

    rule: MatchEntry
    candidate: Candidate | None
    confidence: float


def classify(
    info: CommandInfo, entries: list[MatchEntry], tool_name: str = "exec", forced: str | None = None
) -> Classification:
    by_id = {entry.id: entry for entry in entries}
    if forced and forced in by_id:
        return Classification(by_id[forced], None, 1.0)
    fallback = by_id.get(FALLBACK_ID) or IMPLICIT_FALLBACK
    if info.multiple:
        return Classification(fallback, None, 0.2)

    top_source = max((SOURCE_PRIORITY[c.source] for c in info.candidates), default=0)
    best: tuple[float, tuple[int, int]] | None = None
    chosen: Classification | None = None
    fallback_candidate = info.candidates[0] if info.candidates else None
    # A host tool that runs no command (OpenClaw's sessions_history) is told by its
    # tool name alone: rules are tested against an empty command.
    for candidate in info.candidates or (_NO_COMMAND,):
        context = _Context(candidate, tool_name, SOURCE_PRIORITY[candidate.source] == top_source)
        for entry in entries:
            if entry.id == FALLBACK_ID or entry.tool or (entry.argv0 and entry.argv0.isdisjoint(context.argv0)):
                continue  # a rule for another program or a host tool (its match table is not even built)
            specificity = context.specificity(entry.match)
            if specificity is None:
                continue
            key = (entry.priority * 1000 + specificity, candidate.rank)
            if best is None or key > best or (key == best and chosen is not None and entry.id < chosen.rule.id):
                best = key
                chosen = Classification(entry, candidate, 0.9)
    if chosen is not None:
        return chosen
    return Classification(fallback, fallback_candidate, 0.2)


_NO_COMMAND = Candidate(ORIGINAL, "", ())


def classify_tool(tool_name: str, entries: list[MatchEntry], output: str) -> Classification | None:
    """The rule for the result of a host tool that runs no shell command (an MCP tool,
    Claude Code's `Grep`), told by its name: among the rules whose `match.tool` globs
    take the name, the one with the higher priority, then the glob with the most
    characters besides wildcards (`mcp__git__git_diff` over `mcp__git__*` over `*`),
    then one whose `output` patterns match a line among the first or the last 40 of
    the result (a JSON document's first line) over one without, then the alphabetically
    first id. A rule with `output` patterns none of which matches does not apply.
    None when no rule takes the name."""
    from fnmatch import fnmatchcase

    lines: list[str] | None = None
    best: tuple[float, int, int] | None = None
    chosen: MatchEntry | None = None
    for entry in entries:
        if not entry.tool:
            continue
        named = [len(glob) - glob.count("*") - glob.count("?") for glob in entry.tool if fnmatchcase(tool_name, glob)]
        if not named:
            continue
        seen = 0
        if entry.output:
            if lines is None:
                lines = output.strip("\n").split("\n")
                if len(lines) > 2 * _SNIFF_LINES:
                    lines = lines[:_SNIFF_LINES] + lines[-_SNIFF_LINES:]
            if not _output_matches(entry, lines):
                continue
            seen = 1
        key = (entry.priority, max(named), seen)
        if best is None or key > best or (key == best and chosen is not None and entry.id < chosen.id):
            best, chosen = key, entry
    if chosen is None:
        return None
    return Classification(chosen, Candidate("tool", tool_name, ()), 0.9)


def _output_matches(entry: MatchEntry, lines: list[str]) -> bool:
    from .patterns import Budget, Matcher, PatternTimeout

    try:
        search = Matcher(list(entry.output), trusted=entry.trusted, budget=Budget()).search
        return any(search(line) for line in lines)
    except PatternTimeout:
        return False


#: Rules whose commands name no tool of their own: what runs is told by the output.
_RUNNER_RULES = frozenset(
    {
        FALLBACK_ID,
        "task/make",
        "task/just",
        "task/mise",
        "task/node",
        "task/python",
        "task/uv",
        "task/ruby",
        "task/php",
        "task/env",
    }
)
# `npm test`, `pnpm test` and `yarn test` are not sniffed: their rules are made for the
# JS test runners' output behind the package manager's banner (jest's own rule would
# keep `> shop@1.0.0 test` and yarn's `Done in 3.2s.`).
_SNIFF_LINES = 40


def sniffable(classification: Classification) -> bool:
    """Did the command say nothing about the tool that produced the output?"""
    return classification.rule.id in _RUNNER_RULES or classification.rule.family == "generic"


def sniff(classification: Classification, entries: list[MatchEntry], output: str) -> Classification | None:
    """The rule whose `output` patterns match a line among the first or the last 40
    of `output` (a pytest session header or a cargo `test result:` line behind `make
    test`), if any. A pattern is compiled only when the text it requires is in those
    lines, so sniffing an output no rule knows costs a few substring searches; user
    and project patterns run under the usual time budget.

    When several rules recognise the output, the higher priority wins, then a test
    runner (a test run builds first: `cargo test` prints cargo build's lines, `mvn
    test` Maven's), then the rule recognised on the earliest line, then the
    alphabetically first id."""
    lines = output.strip("\n").split("\n")
    if len(lines) > 2 * _SNIFF_LINES:
        lines = lines[:_SNIFF_LINES] + lines[-_SNIFF_LINES:]
    text = "\n".join(lines)
    if not text.strip():
        return None
    from .patterns import Budget, Matcher, PatternTimeout

    budget = Budget()
    best: tuple[float, bool, int] | None = None
    chosen: MatchEntry | None = None
    for entry in entries:
        if not entry.output or entry.id == classification.rule.id or entry.tool:
            continue  # a host tool's rule recognises a tool's result, never a command's output
        literals = entry.output_literals or ("",) * len(entry.output)
        candidates = [p for p, literal in zip(entry.output, literals, strict=False) if literal in text]
        if not candidates:
            continue
        try:
            search = Matcher(candidates, trusted=entry.trusted, budget=budget).search
            first = next((i for i, line in enumerate(lines) if search(line)), None)
        except PatternTimeout:
            continue
        if first is None:
            continue
        key = (entry.priority, entry.family == "test-results", -first)
        if best is None or key > best or (key == best and chosen is not None and entry.id < chosen.id):
            best, chosen = key, entry
    if chosen is None:
        return None
    via = Candidate("output", classification.candidate.command if classification.candidate else "", ())
    return Classification(chosen, via, 0.6)


#: A pass-through fallback for a catalogue without one (a broken install).
IMPLICIT_FALLBACK = MatchEntry(FALLBACK_ID, "generic", 0, Match())
IMPLICIT_FALLBACK_RULE = Rule(family="generic", id=FALLBACK_ID)


class _Context:
    """One candidate, prepared for testing many rules against it."""

    __slots__ = ("argv0", "candidate", "git", "subcommand", "text_allowed", "tokens", "tool_name")

    def __init__(self, candidate: Candidate, tool_name: str, text_allowed: bool) -> None:
        argv = candidate.argv
        self.candidate = candidate
        self.tool_name = tool_name
        # Command-text words are only trusted on the most derived reading, so that
        # `cd pytest-demo && make` is not taken for pytest.
        self.text_allowed = text_allowed
        # An option given with its value (`--help=optimizers`, `--namespace=prod`) is
        # given: `argv_includes = [["--help"]]` holds for it too.
        self.tokens = set(argv) | {token.partition("=")[0] for token in argv if token[:2] == "--" and "=" in token}
        self.argv0: tuple[str, ...] = (argv[0], basename(argv[0])) if argv else ()
        self.subcommand = subcommand(argv)
        self.git = self.subcommand if argv and basename(argv[0]) == "git" else None

    def specificity(self, match: Match) -> int | None:
        if match.tool:
            return None  # a rule for a host tool's result, never for a command (classify_tool)
        score = 0
        if match.tool_names:
            if self.tool_name not in match.tool_names:
                return None
            score += WEIGHTS["tool_names"]
        if match.argv0:
            if not any(name in match.argv0 for name in self.argv0):
                return None
            score += WEIGHTS["argv0"]
        if match.git_subcommands:
            if self.git is None or self.git not in match.git_subcommands:
                return None
            score += WEIGHTS["git_subcommands"]
        if match.subcommands:
            if self.subcommand is None or self.subcommand not in match.subcommands:
                return None
            score += WEIGHTS["subcommands"]
        if match.argv_includes:
            if not all(self.tokens.issuperset(group) for group in match.argv_includes):
                return None
            score += WEIGHTS["argv_includes"] * sum(len(group) for group in match.argv_includes)
        if match.argv_includes_any:
            matched = [len(g) for g in match.argv_includes_any if self.tokens.issuperset(g)]
            if not matched:
                return None
            score += WEIGHTS["argv_includes_any"] * max(matched)
        if match.command_includes or match.command_includes_any:
            if not self.text_allowed:
                return None
            text = self.candidate.command
            if match.command_includes:
                if not all(contains_word(text, part) for part in match.command_includes):
                    return None
                score += WEIGHTS["command_includes"] * len(match.command_includes)
            if match.command_includes_any:
                if not any(contains_word(text, part) for part in match.command_includes_any):
                    return None
                score += WEIGHTS["command_includes_any"]
        if match.any_of:
            scores = [s for s in (self.specificity(alt) for alt in match.any_of) if s is not None]
            if not scores:
                return None
            score += max(scores)
        if match.output and score == 0:
            return None  # told by its output alone: see sniff()
        return score


def _is_word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def contains_word(text: str, part: str) -> bool:
    """Substring test with word boundaries where `part` starts or ends with a word char:
    `tsc` is found in `pnpm tsc --noEmit` but not in `tscx`."""
    start = text.find(part)
    while start >= 0:
        end = start + len(part)
        left_ok = not _is_word_char(part[0]) or start == 0 or not _is_word_char(text[start - 1])
        right_ok = not _is_word_char(part[-1]) or end == len(text) or not _is_word_char(text[end])
        if left_ok and right_ok:
            return True
        start = text.find(part, start + 1)
    return False
