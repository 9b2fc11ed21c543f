"""Just enough shell syntax to classify commands and to quote them back safely.

This is not a shell: it never expands anything. It splits a command line into
words, operators and redirections the way a POSIX shell (or fish) would, so that
`git log --grep 'a && b'` stays one command and a here-doc body is not mistaken
for commands. Kept free of heavy imports: the Cursor hook and `wrap` load it.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

WORD = "word"
OP = "op"
REDIRECT = "redirect"

#: Operators that separate commands, longest first so `&&` wins over `&`.
_POSIX_OPERATORS = ("&&", "||", ";;", "|&", ";", "|", "&", "(", ")", "\n")
_FISH_OPERATORS = ("&&", "||", ";", "|", "&", "\n")
_REDIRECT_OPS = ("&>>", "&>", ">>", ">|", ">&", "<<<", "<<-", "<<", "<&", "<>", ">", "<")

#: Characters that may stay unquoted in a POSIX word (the reference's safe set).
_SAFE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./:-=+,@%")


#: Escapes inside fish's single quotes.
_FISH_QUOTE_ESCAPES = {"'": "'", "\\": "\\"}
#: Escapes inside bash's $'…' that stand for one character; others (a hex or unicode
#: escape) stay as written.
_ANSI_C_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}


class Token:
    """A lexed unit: a word (quotes removed), an operator, or a redirection."""

    __slots__ = ("end", "kind", "start", "target", "value")

    def __init__(self, kind: str, value: str, start: int, end: int, target: str | None = None) -> None:
        self.kind = kind
        self.value = value
        self.start = start
        self.end = end
        self.target = target  # the redirection's target word, if any

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        extra = f" -> {self.target!r}" if self.target is not None else ""
        return f"Token({self.kind}, {self.value!r}{extra})"


class Lexed:
    """The tokens of one command line plus whether the line was complete."""

    __slots__ = ("bodies", "complete", "source", "tokens")

    def __init__(self, tokens: list[Token], complete: bool, source: str) -> None:
        self.tokens = tokens
        self.complete = complete
        self.source = source
        self.bodies: list[tuple[int, int, bool]] = []  # here-document bodies, and whether they expand `$`


def lex(source: str, dialect: str = "posix", *, compound: bool = False, bounded: bool = False) -> Lexed:
    """Split `source` into tokens; `dialect` is "posix" or "fish". With `compound`
    (what `parse_tree` needs), `((…))` and `[[ … ]]` where a command starts are one
    word each, as bash and zsh read them, and `Lexed.bodies` holds the spans of
    here-document bodies that expand `$` (an unquoted delimiter). `compound` and
    `bounded` read at most MAX_TOKENS tokens (the rest leaves the line incomplete).
    The result is shared by every caller that lexes the same line the same way: read
    it, never change it."""
    key = (source, dialect == "fish", compound, compound or bounded)
    found = _LEXED.get(key)
    if found is None:
        found = _Lexer(source, key[1], compound, key[3]).run()
        if len(_LEXED) >= _LEXED_KEPT:
            del _LEXED[next(iter(_LEXED))]
        _LEXED[key] = found
    return found


#: The lines lexed last: a hook call reads one command line several times (the rewrite's
#: grammar, the never-wrap catalogue, the host's own checks) and the launcher twice.
_LEXED: dict[tuple[str, bool, bool, bool], Lexed] = {}
_LEXED_KEPT = 4


#: The most words, operators and redirections `parse_tree` (and a `bounded` `parse`)
#: reads: beyond, the line is refused (incomplete) rather than read for seconds (a line
#: of 64,000 `:;` took ~20 s; `parse` alone took 7 s and 340 MB for 500,000).
MAX_TOKENS = 4096
#: The deepest nesting of compound commands `parse_tree` reads.
MAX_NESTING = 64
#: Words after which a command starts (so `((` and `[[` open arithmetic and tests there).
_COMMAND_STARTERS = frozenset({"if", "then", "elif", "else", "while", "until", "do", "!", "{", "time"})


#: The tokens every line lexed from now on may still take together (None: no bound), and
#: whether a line was cut short by that bound: a hook call bounds its whole work this way
#: (`bound_work`), however many times its adapters, the rewrite engine and the host's
#: permission readers read a command and the scripts inside it. (Module globals, not a
#: class holding them: a class costs the hook ~0.1 M instructions to create.)
_work_left: int | None = None
_work_exceeded = False


def bound_work(tokens: int | None) -> None:
    """Let every line lexed from now on take `tokens` tokens in all (None: no bound),
    and forget what was lexed before (it was not counted)."""
    global _work_left, _work_exceeded  # the one bound of this process's hook call
    _work_left, _work_exceeded = tokens, False
    _LEXED.clear()


def work_exceeded() -> bool:
    """Was a line cut short by `bound_work`'s bound (its readers saw it incomplete)?"""
    return _work_exceeded


class _Lexer:
    def __init__(self, source: str, fish: bool, compound: bool = False, bounded: bool = False) -> None:
        self.limit = MAX_TOKENS if compound or bounded else -1
        self.by_work = _work_left is not None and (self.limit < 0 or _work_left < self.limit)
        if self.by_work:
            self.limit = max(0, _work_left or 0)
        self.src = source
        self.fish = fish
        self.compound = compound and not fish
        self.pos = 0
        self.complete = True
        self.tokens: list[Token] = []
        self.pending_heredocs: list[tuple[str, bool, bool]] = []
        self.bodies: list[tuple[int, int, bool]] = []
        self.operators = _FISH_OPERATORS if fish else _POSIX_OPERATORS

    def run(self) -> Lexed:
        global _work_left, _work_exceeded  # what this line took of the call's bound
        src = self.src
        n = len(src)
        while self.pos < n:
            if len(self.tokens) == self.limit:
                self.complete = False  # more than a hook can read in its time: see MAX_TOKENS
                _work_exceeded = _work_exceeded or self.by_work
                break
            ch = src[self.pos]
            if ch in " \t\r":
                self.pos += 1
                continue
            if ch == "\\" and src.startswith("\\\n", self.pos):
                self.pos += 2
                continue
            if ch == "#":
                end = src.find("\n", self.pos)
                self.pos = n if end < 0 else end
                continue
            if ch == "\n":
                self.tokens.append(Token(OP, "\n", self.pos, self.pos + 1))
                self.pos += 1
                if self.pending_heredocs:
                    self._skip_heredoc_bodies()
                continue
            if self.compound and ch in "([" and self._compound_word():
                continue
            redirect = self._match_redirect()
            if redirect:
                self._read_redirect(redirect)
                continue
            op = self._match_operator()
            if op:
                self.tokens.append(Token(OP, op, self.pos, self.pos + len(op)))
                self.pos += len(op)
                continue
            start = self.pos
            value = self._read_word()
            self.tokens.append(Token(WORD, value, start, self.pos))
        if self.pending_heredocs:
            self.complete = False
        if _work_left is not None:
            _work_left = max(0, _work_left - len(self.tokens))
        lexed = Lexed(self.tokens, self.complete, src)
        lexed.bodies = self.bodies
        return lexed

    def _compound_word(self) -> bool:
        """`((…))` or `[[ … ]]` where a command starts (or `for ((…))`): one word, so
        that its `<`, `&&` and `;` are not read as redirections and operators."""
        src, pos = self.src, self.pos
        previous = self.tokens[-1] if self.tokens else None
        starts = (
            previous is None
            or (previous.kind == OP and previous.value != ")")
            or (previous.kind == WORD and previous.value in _COMMAND_STARTERS)
        )
        if src.startswith("((", pos) and (starts or (previous is not None and previous.value == "for")):
            self._skip_balanced()
            self.tokens.append(Token(WORD, src[pos : self.pos], pos, self.pos))
            return True
        if starts and src.startswith("[[", pos) and src[pos + 2 : pos + 3] in (" ", "\t", "\n"):
            self.pos += 2
            while self.pos < len(src):
                ch = src[self.pos]
                if ch in " \t\n" and src.startswith("]]", self.pos + 1):
                    after = src[self.pos + 3 : self.pos + 4]
                    if after in ("", " ", "\t", "\n", ";", "&", "|", ")"):
                        self.pos += 3
                        self.tokens.append(Token(WORD, src[pos : self.pos], pos, self.pos))
                        return True
                if ch == "\\":
                    self.pos += 2
                elif ch == "'":
                    self._single_quoted()
                elif ch == '"':
                    self._double_quoted()
                elif ch == "`":
                    self._skip_backticks()
                elif ch == "$" and src[self.pos + 1 : self.pos + 2] in ("(", "{"):
                    self.pos += 1
                    self._skip_balanced()
                else:
                    self.pos += 1
            self.complete = False
            self.tokens.append(Token(WORD, src[pos:], pos, len(src)))
            return True
        return False

    # -- operators and redirections -------------------------------------------------

    def _match_operator(self) -> str | None:
        src, pos = self.src, self.pos
        for op in self.operators:
            if src.startswith(op, pos):
                return op
        return None

    def _match_redirect(self) -> tuple[int, str] | None:
        """Return (length of fd prefix, operator) when a redirection starts here."""
        src, pos = self.src, self.pos
        digits = pos
        while digits < len(src) and src[digits].isdigit():
            digits += 1
        if digits > pos and (digits >= len(src) or src[digits] not in "<>"):
            return None
        # `&>` only starts a redirect at a word boundary, not inside `a&>b`.
        for op in _REDIRECT_OPS:
            if src.startswith(op, digits):
                if op.startswith("&") and digits != pos:
                    continue
                if self.fish and op in ("<<", "<<-", "<<<", "<>"):
                    continue
                if op in ("<", ">") and src.startswith("(", digits + 1):
                    return None  # process substitution <( ) / >( ) is a word
                return (digits - pos, op)
        return None

    def _read_redirect(self, found: tuple[int, str]) -> None:
        prefix_len, op = found
        start = self.pos
        self.pos += prefix_len + len(op)
        while self.pos < len(self.src) and self.src[self.pos] in " \t":
            self.pos += 1
        target: str | None = None
        if op in (">&", "<&") and self.pos < len(self.src) and self.src[self.pos] == "-":
            target = "-"
            self.pos += 1
        elif self.pos < len(self.src) and self.src[self.pos] not in "\n;&|()<>":
            target_start = self.pos
            target = self._read_word()
            if op in ("<<", "<<-"):
                quoted = any(c in "'\"\\" for c in self.src[target_start : self.pos])
                self.pending_heredocs.append((target, op == "<<-", not quoted))
        value = self.src[start : start + prefix_len] + op
        self.tokens.append(Token(REDIRECT, value, start, self.pos, target))

    def _skip_heredoc_bodies(self) -> None:
        src = self.src
        for delimiter, strip_tabs, expands in self.pending_heredocs:
            body_start = self.pos
            while True:
                if self.pos >= len(src):
                    self.complete = False
                    break
                end = src.find("\n", self.pos)
                line = src[self.pos :] if end < 0 else src[self.pos : end]
                self.pos = len(src) if end < 0 else end + 1
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    break
            self.bodies.append((body_start, self.pos, expands))
        self.pending_heredocs = []

    # -- words --------------------------------------------------------------------

    def _read_word(self) -> str:
        src = self.src
        n = len(src)
        out: list[str] = []
        word_start = self.pos
        while self.pos < n:
            ch = src[self.pos]
            if ch in " \t\r\n":
                break
            if ch in "<>" and src.startswith("(", self.pos + 1):
                start = self.pos
                self.pos += 1
                self._skip_balanced()
                out.append(src[start : self.pos])
                continue
            if ch in ";&|<>":
                break
            if ch == "\\":
                if self.pos + 1 >= n:
                    out.append("\\")
                    self.pos += 1
                    continue
                nxt = src[self.pos + 1]
                self.pos += 2
                if nxt != "\n":
                    out.append(nxt)
                continue
            if ch == "'":
                out.append(self._single_quoted())
                continue
            if ch == '"':
                out.append(self._double_quoted())
                continue
            if ch == "$" and self.pos + 1 < n:
                nxt = src[self.pos + 1]
                if nxt == "'" and not self.fish:
                    out.append(self._ansi_c_quoted())
                    continue
                if nxt in "({":
                    start = self.pos
                    self.pos += 1
                    self._skip_balanced()
                    out.append(src[start : self.pos])
                    continue
            if ch == "`":
                start = self.pos
                self._skip_backticks()
                out.append(src[start : self.pos])
                continue
            if ch == "(" and (self.fish or (self.pos > word_start and src[self.pos - 1] == "=")):
                start = self.pos  # fish command substitution, or a POSIX array assignment
                self._skip_balanced()
                out.append(src[start : self.pos])
                continue
            if ch in "()" and not self.fish:
                break
            out.append(ch)
            self.pos += 1
        return "".join(out)

    def _single_quoted(self) -> str:
        src = self.src
        self.pos += 1
        if not self.fish:
            end = src.find("'", self.pos)
            if end < 0:
                self.complete = False
                text, self.pos = src[self.pos :], len(src)
                return text
            text, self.pos = src[self.pos : end], end + 1
            return text
        return self._escaped_until_quote(_FISH_QUOTE_ESCAPES)

    def _double_quoted(self) -> str:
        src = self.src
        escapable = '$"\\\n' if self.fish else '$`"\\\n'
        self.pos += 1
        out: list[str] = []
        while self.pos < len(src):
            ch = src[self.pos]
            if ch == "\\" and self.pos + 1 < len(src) and src[self.pos + 1] in escapable:
                if src[self.pos + 1] != "\n":
                    out.append(src[self.pos + 1])
                self.pos += 2
                continue
            if ch == '"':
                self.pos += 1
                return "".join(out)
            if ch == "$" and src.startswith("$(", self.pos):
                start = self.pos
                self.pos += 1
                self._skip_balanced()
                out.append(src[start : self.pos])
                continue
            if ch == "`" and not self.fish:
                start = self.pos
                self._skip_backticks()
                out.append(src[start : self.pos])
                continue
            out.append(ch)
            self.pos += 1
        self.complete = False
        return "".join(out)

    def _ansi_c_quoted(self) -> str:
        self.pos += 2
        return self._escaped_until_quote(_ANSI_C_ESCAPES)

    def _escaped_until_quote(self, escapes: dict[str, str]) -> str:
        """The rest of a single-quoted string with backslash escapes (fish's '…', where
        only \\' and \\\\ are escapes; bash's $'…'): `escapes` translates the character
        after a backslash, and any other escape stays as written. An unclosed quote
        marks the source incomplete."""
        src = self.src
        out: list[str] = []
        while self.pos < len(src):
            ch = src[self.pos]
            if ch == "\\" and self.pos + 1 < len(src):
                nxt = src[self.pos + 1]
                out.append(escapes.get(nxt, "\\" + nxt))
                self.pos += 2
                continue
            if ch == "'":
                self.pos += 1
                return "".join(out)
            out.append(ch)
            self.pos += 1
        self.complete = False
        return "".join(out)

    def _skip_backticks(self) -> None:
        src = self.src
        self.pos += 1
        while self.pos < len(src):
            ch = src[self.pos]
            if ch == "\\":
                self.pos += 2
                continue
            self.pos += 1
            if ch == "`":
                return
        self.complete = False

    def _skip_balanced(self) -> None:
        """Skip a `( … )` or `{ … }` group starting at self.pos, quotes respected."""
        src = self.src
        stack = [src[self.pos]]
        closers = {"(": ")", "{": "}"}
        self.pos += 1
        while self.pos < len(src) and stack:
            ch = src[self.pos]
            if ch == "\\":
                self.pos += 2
                continue
            if ch == "'":
                end = src.find("'", self.pos + 1)
                self.pos = len(src) if end < 0 else end + 1
                continue
            if ch == '"':
                self._double_quoted()
                continue
            if ch == "`" and not self.fish:
                self._skip_backticks()
                continue
            if ch in closers:
                stack.append(ch)
            elif ch == closers[stack[-1]]:
                stack.pop()
            self.pos += 1
        if stack:
            self.complete = False


# -- structure -------------------------------------------------------------------------

SEQUENCE_OPS = frozenset({"&&", "||", ";", "\n", "&", ";;"})
PIPE_OPS = frozenset({"|", "|&"})


class SimpleCommand:
    """One command of a pipeline: its words and redirections, and where it sits."""

    __slots__ = ("depth", "end", "redirects", "source", "start", "words")

    def __init__(self, words: list[Token], redirects: list[Token], source: str, depth: int = 0) -> None:
        self.words = words
        self.redirects = redirects
        self.source = source
        self.depth = depth  # how many `( … )` subshells enclose it: 0 runs in the shell itself
        spans = words + redirects
        self.start = min(t.start for t in spans) if spans else 0
        self.end = max(t.end for t in spans) if spans else 0

    @property
    def argv(self) -> list[str]:
        return [w.value for w in self.words]

    def text_from(self, word_index: int) -> str:
        """The original text of this command starting at its `word_index`-th word."""
        if word_index >= len(self.words):
            return ""
        return self.source[self.words[word_index].start : self.end].strip()

    @property
    def text(self) -> str:
        return self.source[self.start : self.end].strip()


class Pipeline:
    """Commands joined by `|`; `op` is the operator that ends it (`&&`, `;`, …), and
    `op_end` where that operator ends in the source (the next pipeline's text,
    with any `(`, `{` or `!` it opens with, starts after it)."""

    __slots__ = ("commands", "op", "op_depth", "op_end")

    def __init__(self, commands: list[SimpleCommand], op: str | None, op_end: int = -1, op_depth: int = 0) -> None:
        self.commands = commands
        self.op = op
        self.op_end = op_end
        self.op_depth = op_depth  # inside how many subshells the operator sits (0: it joins top-level steps)

    @property
    def text(self) -> str:
        first, last = self.commands[0], self.commands[-1]
        return first.source[first.start : last.end].strip()


def parse(source: str, dialect: str = "posix", *, bounded: bool = False) -> tuple[list[Pipeline], bool]:
    """Parse into pipelines; returns (pipelines, complete). `bounded` reads at most
    MAX_TOKENS tokens: a longer line is incomplete, its pipelines only a beginning."""
    lexed = lex(source, dialect, bounded=bounded)
    pipelines: list[Pipeline] = []
    commands: list[SimpleCommand] = []
    words: list[Token] = []
    redirects: list[Token] = []
    depth = 0

    def end_command() -> None:
        nonlocal words, redirects
        if words or redirects:
            commands.append(SimpleCommand(words, redirects, source, depth))
        words, redirects = [], []

    def end_pipeline(op: str | None, op_end: int = -1) -> None:
        nonlocal commands
        end_command()
        if commands:
            pipelines.append(Pipeline(commands, op, op_end, depth))
        elif pipelines and op and op != "\n" and pipelines[-1].op in (None, "\n"):
            pipelines[-1].op, pipelines[-1].op_end, pipelines[-1].op_depth = op, op_end, depth
        commands = []

    for token in lexed.tokens:
        if token.kind == WORD:
            if not words and token.value in ("{", "}") and dialect != "fish":
                continue  # brace groups only group; their commands are what runs
            words.append(token)
        elif token.kind == REDIRECT:
            redirects.append(token)
        elif token.value in PIPE_OPS:
            end_command()
        elif token.value in ("(", ")"):
            end_command()  # a subshell's commands are classified like any others
            depth = max(0, depth + (1 if token.value == "(" else -1))
        else:
            end_pipeline(token.value, token.end)
    end_pipeline(None)
    return pipelines, lexed.complete


# -- the grammar: lists, and-or lists, pipelines, compound commands ---------------------

#: Words that open a compound command where a command starts.
_POSIX_OPENERS = frozenset({"{", "if", "while", "until", "for", "select", "case", "function"})
_FISH_OPENERS = frozenset({"begin", "if", "while", "for", "switch", "function"})
#: Words that only continue or close a compound command: a command cannot start with one.
_POSIX_RESERVED = frozenset({"}", "then", "elif", "else", "fi", "do", "done", "esac", "in"})
_FISH_RESERVED = frozenset({"end", "else", "case"})


#: What `Unreadable` says for a function definition (`f() { …; }`, `function f`): it
#: lives in the shell that reads it.
FUNCTION_DEFINITION = "a function definition"


class Unreadable(Exception):
    """The command line is not one `parse_tree` can read with certainty."""


class Node:
    """A command in the grammar. `kind` is "simple", "brace" (`{ …; }`), "subshell"
    (`( … )`), "if", "loop" (`while`/`until`/`for`/`select`), "case", "arith"
    (`((…))`), "block" (fish's `begin`/`if`/`while`/`for`/`switch`), or "function"
    (a definition). `words` are a simple command's words (a compound's header
    words: `for x in a b`); `body` the lists a compound runs; `redirects` the
    redirections that apply to it; `start`/`end` its span in the source."""

    __slots__ = ("body", "end", "kind", "redirects", "start", "words")

    def __init__(self, kind: str, words: list[Token], body: list[CommandList], redirects: list[Token]) -> None:
        self.kind = kind
        self.words = words
        self.body = body
        self.redirects = redirects
        self.start = 0
        self.end = 0

    @property
    def argv(self) -> list[str]:
        return [word.value for word in self.words]


class PipelineNode:
    """`[!|time|and|or|not] a | b | …`: `prefix` holds those leading words."""

    __slots__ = ("end", "prefix", "stages", "start")

    def __init__(self, prefix: list[Token], stages: list[Node]) -> None:
        self.prefix = prefix
        self.stages = stages
        self.start = prefix[0].start if prefix else stages[0].start
        self.end = stages[-1].end


class AndOr:
    """Pipelines joined by `&&` and `||` (left-associative, equal precedence);
    `ops[i]` joins `pipelines[i]` and `pipelines[i + 1]` and ends at `op_ends[i]`.
    `sep` is the separator that ends it in its list (`;`, newline, `&`, or None)
    and `sep_end` where that ends in the source. A list of them is a command list."""

    __slots__ = ("op_ends", "ops", "pipelines", "sep", "sep_end")

    def __init__(self, pipelines: list[PipelineNode], ops: list[str], op_ends: list[int]) -> None:
        self.pipelines = pipelines
        self.ops = ops
        self.op_ends = op_ends
        self.sep: str | None = None
        self.sep_end = 0

    @property
    def start(self) -> int:
        return self.pipelines[0].start

    @property
    def end(self) -> int:
        return self.pipelines[-1].end


#: A list: and-or lists, each ended by its `sep`.
CommandList = list[AndOr]


class Tree:
    """A parsed command line: its top-level list, and the spans of its here-document
    bodies with whether each expands `$`."""

    __slots__ = ("bodies", "dialect", "root", "source")

    def __init__(self, root: CommandList, source: str, dialect: str, bodies: list[tuple[int, int, bool]]) -> None:
        self.root = root
        self.source = source
        self.dialect = dialect
        self.bodies = bodies

    def walk(self, pipes: str = "last") -> list[tuple[Node, bool]]:
        """Every command in source order, with whether it runs in the shell that
        reads the line: False inside `( … )`, after `&`, and in a pipeline stage
        that runs in a subshell. `pipes` says which stages run in the shell itself:
        "none" (bash, dash), "last" (zsh, ksh) or "all" (fish runs builtins in it)."""
        found: list[tuple[Node, bool]] = []
        _walk(self.root, True, pipes, found)
        return found


def _walk(commands: CommandList, in_shell: bool, pipes: str, found: list[tuple[Node, bool]]) -> None:
    for item in commands:
        here = in_shell and item.sep != "&"
        for pipeline in item.pipelines:
            last = len(pipeline.stages) - 1
            for index, stage in enumerate(pipeline.stages):
                alone = last == 0
                stage_here = here and (alone or pipes == "all" or (pipes == "last" and index == last))
                found.append((stage, stage_here))
                inner = stage_here and stage.kind != "subshell"
                for body in stage.body:
                    _walk(body, inner, pipes, found)


def parse_tree(source: str, dialect: str = "posix") -> Tree:
    """Parse `source` into the shell grammar: lists of and-or lists of pipelines of
    simple and compound commands. Raises `Unreadable` for anything it cannot read
    with certainty (an incomplete line, a syntax error, a construct it does not
    model): the caller must then leave the command alone."""
    lexed = lex(source, dialect, compound=True)
    if not lexed.complete:
        raise Unreadable("incomplete")
    parser = _TreeParser(lexed.tokens, source, dialect == "fish")
    try:
        root = parser.parse_list(frozenset())
    except RecursionError:
        raise Unreadable("nested too deeply") from None
    if parser.index != len(parser.tokens):
        raise Unreadable("unexpected token")
    return Tree(root, source, dialect, lexed.bodies)


def bash_execs_last(source: str) -> bool:
    """Might `bash -c source` run its last command in its own place (exec, no fork)?
    bash does so for a last simple command without redirections, `!` or `time`
    (evalstring.c `should_suppress_fork`, `can_optimize_connection`), and `eval`
    never does: what `wrap` must know before it hands a command to bash's `eval`.
    True also for anything unreadable."""
    try:
        root = parse_tree(source, "posix").root
    except Unreadable:
        return True
    if not root:
        return True
    last = root[-1]
    if last.sep == "&":
        return False
    pipeline = last.pipelines[-1]
    node = pipeline.stages[-1]
    return not pipeline.prefix and len(pipeline.stages) == 1 and node.kind == "simple" and not node.redirects


class _TreeParser:
    #: For the compound commands' grammar (grammar.py), which is handed the parser: importing
    #: this module there would close a cycle.
    node_type = Node
    error = Unreadable
    function_definition = FUNCTION_DEFINITION
    word_kind, op_kind = WORD, OP

    def __init__(self, tokens: list[Token], source: str, fish: bool) -> None:
        self.tokens = tokens
        self.source = source
        self.fish = fish
        self.index = 0
        self.depth = 0
        self.openers = _FISH_OPENERS if fish else _POSIX_OPENERS
        self.reserved = _FISH_RESERVED if fish else _POSIX_RESERVED

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def keyword(self, token: Token | None, names: frozenset[str] | tuple[str, ...]) -> bool:
        """An unquoted word among `names` (a quoted `'if'` is a command name)."""
        return (
            token is not None
            and token.kind == WORD
            and token.value in names
            and self.source[token.start : token.end] == token.value
        )

    def is_op(self, token: Token | None, *values: str) -> bool:
        return token is not None and token.kind == OP and token.value in values

    def skip_newlines(self) -> None:
        while self.is_op(self.peek(), "\n"):
            self.index += 1

    def parse_body(self, closers: frozenset[str]) -> CommandList:
        """A compound command's list: a POSIX shell refuses an empty one (`( )`, `{ ; }`)."""
        body = self.parse_list(closers)
        if not body and not self.fish:
            raise Unreadable("an empty compound command")
        return body

    def parse_list(self, closers: frozenset[str]) -> CommandList:
        items: list[AndOr] = []
        while True:
            self.skip_newlines()
            token = self.peek()
            if token is None or self.is_op(token, ")", ";;") or self.keyword(token, closers):
                break
            and_or = self.parse_and_or()
            token = self.peek()
            if self.is_op(token, ";", "\n", "&"):
                assert token is not None
                self.index += 1
                and_or.sep, and_or.sep_end = token.value, token.end
                items.append(and_or)
                continue
            and_or.sep_end = and_or.end
            items.append(and_or)
            if not (token is None or self.is_op(token, ")", ";;") or self.keyword(token, closers)):
                raise Unreadable("unexpected token after a command")
            break
        return items

    def parse_and_or(self) -> AndOr:
        pipelines = [self.parse_pipeline()]
        ops: list[str] = []
        op_ends: list[int] = []
        while self.is_op(self.peek(), "&&", "||"):
            ops.append(self.tokens[self.index].value)
            op_ends.append(self.tokens[self.index].end)
            self.index += 1
            self.skip_newlines()
            pipelines.append(self.parse_pipeline())
        return AndOr(pipelines, ops, op_ends)

    def parse_pipeline(self) -> PipelineNode:
        prefix: list[Token] = []
        names = ("and", "or", "not", "time", "!") if self.fish else ("!", "time")
        while self.keyword(self.peek(), names):
            if not self.fish and self.tokens[self.index].value == "!" and any(t.value == "!" for t in prefix):
                raise Unreadable("`! !`")  # dash and zsh refuse it: nothing would run as typed
            prefix.append(self.tokens[self.index])
            self.index += 1
            if prefix[-1].value == "time" and not self.fish:
                while self.peek() is not None and self.tokens[self.index].value in ("-p", "--"):
                    prefix.append(self.tokens[self.index])
                    self.index += 1
        stages = [self.parse_command()]
        while self.is_op(self.peek(), "|", "|&"):
            self.index += 1
            self.skip_newlines()
            stages.append(self.parse_command())
        return PipelineNode(prefix, stages)

    def parse_command(self) -> Node:
        token = self.peek()
        if token is None:
            raise Unreadable("a command is missing")
        self.depth += 1  # how many commands enclose this one
        if self.depth > MAX_NESTING:
            raise Unreadable("nested too deeply")
        try:
            return self.compound(token)
        finally:
            self.depth -= 1

    def compound(self, token: Token) -> Node:
        start = token.start
        if self.is_op(token, "("):
            self.index += 1
            body = self.parse_body(frozenset())
            self.close_op(")")
            node = Node("subshell", [], [body], [])
        elif token.kind == OP or self.keyword(token, self.reserved):
            raise Unreadable(f"unexpected {token.value!r}")
        elif self.keyword(token, self.openers):
            from . import grammar  # `if`, loops, `case`, `{ … }`, fish blocks: loaded when a line has one

            node = grammar.fish_block(self) if self.fish else grammar.posix_compound(self)
        elif not self.fish and token.kind == WORD and token.value.startswith("((") and token.value.endswith("))"):
            self.index += 1
            node = Node("arith", [token], [], [])
        else:
            return self.parse_simple()
        node.start = start
        node.end = self.tokens[self.index - 1].end
        while self.peek() is not None and self.tokens[self.index].kind == REDIRECT:
            node.redirects.append(self.tokens[self.index])
            node.end = self.tokens[self.index].end
            self.index += 1
        following = self.peek()
        if following is not None and following.kind == WORD:
            raise Unreadable("a word after a compound command")
        return node

    def close_op(self, value: str) -> None:
        self.skip_newlines()
        if not self.is_op(self.peek(), value):
            raise Unreadable(f"expected {value!r}")
        self.index += 1

    def parse_simple(self) -> Node:
        words: list[Token] = []
        redirects: list[Token] = []
        while True:
            token = self.peek()
            if token is None or token.kind == OP:
                break
            if token.kind == REDIRECT:
                redirects.append(token)
            else:
                words.append(token)
            self.index += 1
        if words and not self.fish and self.is_op(self.peek(), "("):
            raise Unreadable(FUNCTION_DEFINITION)  # `f() { …; }`
        if not words and not redirects:
            raise Unreadable("a command is missing")
        node = Node("simple", words, [], redirects)
        spans = words + redirects
        node.start = min(t.start for t in spans)
        node.end = max(t.end for t in spans)
        return node


def star_match(text: str, parts: Sequence[str], gap_ok: Callable[[str, int, int], bool] | None = None) -> bool:
    """Does `text` match a pattern whose literal pieces are `parts` (the pattern split
    at its `*`s: each `*` any run of characters)? The one wildcard matcher behind
    `interactive`'s configured patterns and Claude Code's and Cursor's permission
    rules, which differ only in how they split a pattern into `parts` and in what a
    run may hold: `gap_ok(text, start, end)`, when given, judges each run a `*` took.
    Leftmost matching with no backtracking is exact here, since the pieces between
    stars are literals. (fnmatch would compile a regex per pattern.)"""
    if len(parts) == 1:
        return text == parts[0]
    first, last = parts[0], parts[-1]
    if len(text) < len(first) + len(last) or not text.startswith(first) or not text.endswith(last):
        return False
    position, end = len(first), len(text) - len(last)
    for part in parts[1:-1]:
        found = text.find(part, position, end)
        if found < 0 or (gap_ok is not None and not gap_ok(text, position, found)):
            return False
        position = found + len(part)
    return gap_ok is None or gap_ok(text, position, end)


def split_words(source: str, dialect: str = "posix") -> list[str]:
    """All words of `source` in order (operators and redirections dropped)."""
    return [t.value for t in lex(source, dialect).tokens if t.kind == WORD]


# -- quoting ---------------------------------------------------------------------------

#: First words a shell reads as a keyword rather than a command name (bash, zsh, dash,
#: ksh): join quotes them. (zsh's precommand modifiers `-`, `noglob`, `builtin`… act
#: even quoted: no quoting runs a program of that name.)
_KEYWORDS = frozenset(
    {"case", "coproc", "do", "done", "elif", "else", "end", "esac", "fi", "for", "foreach", "function", "if", "in"}
    | {"nocorrect", "repeat", "select", "then", "time", "until", "while"}
)


def quote(word: str) -> str:
    """Quote one word for a POSIX shell (bash, sh, zsh, dash, ksh).

    A word is left bare only when no shell option can expand it: zsh expands `=cmd`
    to a path (EQUALS, on by default), and with MAGIC_EQUAL_SUBST also after `=` or
    `:` in `a==cmd` or `a=b:=cmd`. Anything else goes in single quotes, which every
    POSIX shell keeps byte for byte, with `'` as `'\\''`, and `^` opening a line as
    `'\\^'`: an interactive bash reading the line expands `^a^b` at the start of a
    line (quick substitution) even inside quotes. A NUL cannot be carried by
    an argument (exec takes C strings): it is kept as is here, and `fits_in_argv`
    refuses the line — a command holding one must be left alone, not rewritten.
    """
    if word and _SAFE_CHARS.issuperset(word) and word[0] != "=" and "==" not in word and ":=" not in word:
        return word
    quoted = word.replace("'", "'\\''")
    if "\n^" in quoted:
        quoted = quoted.replace("\n^", "\n'\\^'")
    return "'" + quoted + "'"


def quote_fish(word: str) -> str:
    """Quote one word for fish, whose single quotes honour `\\\\` and `\\'` escapes (and
    nothing else). `%self` unquoted is fish's PID, so a word starting with `%` is
    quoted; NUL as for `quote`."""
    if word and _SAFE_CHARS.issuperset(word) and word[0] not in "=%":
        return word
    return "'" + word.replace("\\", "\\\\").replace("'", "\\'") + "'"


def join(argv: list[str]) -> str:
    """Join argv into one POSIX command line that parses back to the same argv and
    runs the program argv[0] names: a first word that would be read as an
    assignment (`NAME=value`) or a keyword (`time`, `if`) is quoted."""
    words = [quote(word) for word in argv]
    if words and words[0] == argv[0] and ("=" in argv[0] or argv[0] in _KEYWORDS):
        words[0] = "'" + argv[0] + "'"
    return " ".join(words)


#: Shells whose words `quote` quotes: the POSIX family (busybox runs ash).
_POSIX_SHELLS = frozenset(
    {"sh", "bash", "dash", "zsh", "ksh", "mksh", "pdksh", "oksh", "ash", "yash", "busybox", "posh"}
)


def quote_for(shell: str) -> Callable[[str], str]:
    """The quoting function for the shell that will parse the line: `quote_fish` for
    fish, `quote` for the POSIX family. `shell` is a name or a path (`/bin/zsh`,
    `-bash` as a login shell's argv[0], `zsh-5.9`, `ksh93`). Raises ValueError for
    any other shell (csh, nushell, PowerShell…): its syntax is its own, and no
    rewrite is better than a wrong one."""
    name = shell.rstrip("/").rsplit("/", 1)[-1].lower().lstrip("-")
    if name.endswith(".exe"):
        name = name[:-4]
    name = name.rstrip("0123456789.").rstrip("-")
    if name == "fish":
        return quote_fish
    if name in _POSIX_SHELLS:
        return quote
    raise ValueError(f"no quoting known for the shell {shell!r}")


# -- argv limits ------------------------------------------------------------------------

#: Linux's limit on one argument (or environment string), its NUL included: PAGE_SIZE * 32
#: with 4 KiB pages (larger pages allow more; other systems bound only the total).
MAX_ARG_STRLEN = 131072
#: What exec needs besides the arguments and the environment we see: the program's
#: path, what a login shell's profile adds to the environment, pointer rounding.
_EXEC_HEADROOM = 64 * 1024
#: The `<shell> -c` around the rewritten line when the host runs it.
_HOST_SHELL_COST = 4096
_POINTER = 8
#: Linux takes at most 3/4 of _STK_LIM (8 MiB) whatever the stack limit; sysconf does not say so.
_ARG_MAX_CAP = 6 * 1024 * 1024
#: ARG_MAX when sysconf cannot tell: Linux's floor, 32 pages.
_ARG_MAX_FALLBACK = 128 * 1024


def fits_in_argv(rewritten: str, *, words: Sequence[str], environ: Mapping[str, str] | None = None) -> bool:
    """Can the rewritten line be run? The host hands it to a shell as one argument
    (`<shell> -c <rewritten>`), and that shell execs `words` (launcher, `wrap`, …,
    `<shell>`, `-lc`, the command): each argument must be under MAX_ARG_STRLEN bytes
    (NUL included) in UTF-8 (surrogate escapes are the bytes they stand for), and
    each exec's arguments and pointers, with the current environment and headroom,
    within ARG_MAX. False too for a NUL (no argument can carry one) or a character
    that has no bytes (a lone surrogate): such a command must be left alone.

    Pass as `words` every argv the line leads to, as it will be exec'd (if the
    launcher grows the command, as `wrap --keep-path` prefixes PATH, the grown one),
    and as `environ` the environment it runs with (ours when not given).
    """
    try:
        line = rewritten.encode("utf-8", "surrogateescape")
        argv = [word.encode("utf-8", "surrogateescape") for word in words]
    except UnicodeEncodeError:
        return False
    if len(line) >= MAX_ARG_STRLEN or b"\0" in line:
        return False
    argv_cost = _POINTER  # argv's NULL
    for arg in argv:
        if len(arg) >= MAX_ARG_STRLEN or b"\0" in arg:
            return False
        argv_cost += len(arg) + 1 + _POINTER
    line_cost = len(line) + 1 + _POINTER + _HOST_SHELL_COST
    return max(line_cost, argv_cost) + _environ_cost(environ) + _EXEC_HEADROOM <= _arg_max()


def _environ_cost(environ: Mapping[str, str] | None = None) -> int:
    """The bytes exec copies for an environment: `NAME=value` strings and pointers."""
    cost = _POINTER
    if (environ is None or environ is os.environ) and _ENVIRON_BYTES is not None:
        # the process's own: its bytes as they are (what the str form would encode back to),
        # without decoding and encoding each name and value
        return cost + sum(len(name) + len(value) + 2 + _POINTER for name, value in _ENVIRON_BYTES.items())
    for name, value in (os.environ if environ is None else environ).items():
        cost += len(name.encode("utf-8", "surrogateescape")) + len(value.encode("utf-8", "surrogateescape")) + 2
        cost += _POINTER
    return cost


#: os.environ's bytes (the same mapping underneath), where os.environ's strings are them
#: decoded as UTF-8 with surrogate escapes, which encode back to exactly these bytes: POSIX
#: with a UTF-8 file system encoding.
_ENVIRON_BYTES = getattr(os, "environb", None) if sys.getfilesystemencoding() == "utf-8" else None


def _arg_max() -> int:
    try:
        value = os.sysconf("SC_ARG_MAX")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows) or no such name
        value = -1
    return min(value, _ARG_MAX_CAP) if value > 0 else _ARG_MAX_FALLBACK


def is_assignment(word: str) -> bool:
    """Is this word a shell variable assignment (`NAME=value` or `NAME+=value`)?"""
    name, equals, _ = word.partition("=")
    name = name.removesuffix("+")
    return bool(equals) and bool(name) and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum()


def command_start(words: Sequence[str]) -> int:
    """The index of a simple command's name: past its leading `NAME=value` words
    (`len(words)` when the command is only assignments)."""
    index = 0
    while index < len(words) and is_assignment(words[index]):
        index += 1
    return index
