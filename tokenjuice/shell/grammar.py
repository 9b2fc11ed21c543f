"""The compound commands of the shell grammar (`if`, loops, `case`, `{ …; }`, fish's
blocks), for `syntax.parse_tree`: most command lines an agent sends have none, so a hook
call reads them only when a line does. The parser hands itself (`syntax._TreeParser`,
with the node and error classes it builds and raises): importing syntax.py here would
close a cycle."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .syntax import CommandList, Node, Token, _TreeParser


def _expect_word(parser: _TreeParser, names: tuple[str, ...]) -> Token:
    parser.skip_newlines()
    token = parser.peek()
    if not parser.keyword(token, names):
        raise parser.error(f"expected {names[0]}")
    assert token is not None
    parser.index += 1
    return token


def _header(parser: _TreeParser) -> list[Token]:
    """The words up to a `;` or newline (`for x in a b`, fish's `switch $x`)."""
    words: list[Token] = []
    while True:
        token = parser.peek()
        if token is None or token.kind == parser.op_kind:
            break
        if not parser.fish and words and parser.keyword(token, ("do",)):
            break
        if token.kind != parser.word_kind:
            raise parser.error("a redirection in a header")
        words.append(token)
        parser.index += 1
    if parser.is_op(parser.peek(), ";", "\n"):
        parser.index += 1
    elif parser.peek() is not None and not parser.keyword(parser.peek(), ("do",)):
        raise parser.error("unexpected operator in a header")
    return words


def posix_compound(parser: _TreeParser) -> Node:
    """`{ …; }`, `if`, `while`/`until`, `for`/`select` and `case` (the opener at the parser's position)."""
    token = parser.tokens[parser.index]
    name = token.value
    parser.index += 1
    if name == "{":
        body = parser.parse_body(frozenset({"}"}))
        _expect_word(parser, ("}",))
        return parser.node_type("brace", [], [body], [])
    if name == "if":
        lists = [parser.parse_body(frozenset({"then"}))]
        _expect_word(parser, ("then",))
        while True:
            lists.append(parser.parse_body(frozenset({"elif", "else", "fi"})))
            closing = _expect_word(parser, ("fi", "elif", "else"))
            if closing.value == "fi":
                break
            if closing.value == "elif":
                lists.append(parser.parse_body(frozenset({"then"})))
                _expect_word(parser, ("then",))
            else:
                lists.append(parser.parse_body(frozenset({"fi"})))
                _expect_word(parser, ("fi",))
                break
        return parser.node_type("if", [token], lists, [])
    if name in ("while", "until"):
        condition = parser.parse_body(frozenset({"do"}))
        _expect_word(parser, ("do",))
        body = parser.parse_body(frozenset({"done"}))
        _expect_word(parser, ("done",))
        return parser.node_type("loop", [token], [condition, body], [])
    if name in ("for", "select"):
        words = [token, *_header(parser)]
        _expect_word(parser, ("do",))
        body = parser.parse_body(frozenset({"done"}))
        _expect_word(parser, ("done",))
        return parser.node_type("loop", words, [body], [])
    if name == "case":
        return _case(parser, token)
    raise parser.error(parser.function_definition)  # `function f …`: lives in the shell that reads it


def _case(parser: _TreeParser, token: Token) -> Node:
    subject = parser.peek()
    if subject is None or subject.kind != parser.word_kind:
        raise parser.error("case without a word")
    parser.index += 1
    _expect_word(parser, ("in",))
    lists: list[CommandList] = []
    while True:
        parser.skip_newlines()
        if parser.keyword(parser.peek(), ("esac",)):
            parser.index += 1
            break
        if parser.is_op(parser.peek(), "("):
            parser.index += 1
        while True:  # the patterns: words joined by `|`, closed by `)`
            pattern = parser.peek()
            if pattern is None or pattern.kind != parser.word_kind:
                raise parser.error("a case pattern")
            parser.index += 1
            if parser.is_op(parser.peek(), "|"):
                parser.index += 1
                continue
            break
        parser.close_op(")")
        lists.append(parser.parse_list(frozenset({"esac"})))
        if parser.is_op(parser.peek(), ";;"):
            parser.index += 1
        elif not parser.keyword(parser.peek(), ("esac",)):
            raise parser.error("case item not closed")
    return parser.node_type("case", [token, subject], lists, [])


def fish_block(parser: _TreeParser) -> Node:
    """fish's `begin`, `if`, `while`, `for` and `switch` blocks, up to their `end`."""
    token = parser.tokens[parser.index]
    parser.index += 1
    if token.value == "function":
        raise parser.error(parser.function_definition)
    words = [token]
    if token.value in ("for", "switch"):
        words += _header(parser)
    lists: list[CommandList] = []
    if token.value == "begin" and parser.is_op(parser.peek(), ";"):
        parser.index += 1  # `begin; …`
    while True:
        lists.append(parser.parse_list(frozenset({"end", "else", "case"})))
        closing = _expect_word(parser, ("end", "else", "case"))
        if closing.value == "end":
            break
        if closing.value == "case":
            _header(parser)
        elif parser.keyword(parser.peek(), ("if",)):
            parser.index += 1  # `else if cond`: the condition is the next list's first command
        elif parser.is_op(parser.peek(), ";"):
            parser.index += 1  # `else; …`
    return parser.node_type("block", words, lists, [])
