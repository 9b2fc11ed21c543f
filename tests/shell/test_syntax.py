import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokenjuice.shell.syntax import join, parse, quote, quote_fish, split_words


def structure(source, dialect="posix"):
    pipelines, complete = parse(source, dialect)
    return [([c.argv for c in p.commands], p.op) for p in pipelines], complete


@pytest.mark.parametrize(
    "source, expected",
    [
        ('git log --grep "a && b"', [([["git", "log", "--grep", "a && b"]], None)]),
        (
            "cd repo && git status --short | head -5",
            [([["cd", "repo"]], "&&"), ([["git", "status", "--short"], ["head", "-5"]], None)],
        ),
        ("a && b || c; d & e", [([["a"]], "&&"), ([["b"]], "||"), ([["c"]], ";"), ([["d"]], "&"), ([["e"]], None)]),
        ("echo hi # comment && rm -rf /", [([["echo", "hi"]], None)]),
        ("FOO=1 bar >/dev/null 2>&1", [([["FOO=1", "bar"]], None)]),
        ("cat <<EOF\nrm -rf /\nEOF\necho done", [([["cat"]], "\n"), ([["echo", "done"]], None)]),
        ("cat <<-'X'\n\tls; ls\n\tX\npwd", [([["cat"]], "\n"), ([["pwd"]], None)]),
        (
            'echo "x$(echo a | b)" $(c && d) `e | f` ${x:-a b}',
            [([["echo", "x$(echo a | b)", "$(c && d)", "`e | f`", "${x:-a b}"]], None)],
        ),
        ("diff <(ls a) <(ls b)", [([["diff", "<(ls a)", "<(ls b)"]], None)]),
        ("(cd x && pytest)", [([["cd", "x"]], "&&"), ([["pytest"]], None)]),
        ("{ make; make test; }", [([["make"]], ";"), ([["make", "test"]], ";")]),
        ("echo 'it''s' \"a\\\"b\" c\\ d", [([["echo", "its", 'a"b', "c d"]], None)]),
        ("echo $'a\\tb'", [([["echo", "a\tb"]], None)]),
        ("a \\\n  b", [([["a", "b"]], None)]),
    ],
)
def test_posix_structure(source, expected):
    assert structure(source) == (expected, True)


def test_here_doc_inside_command_substitution_is_one_word():
    source = "git commit -m \"$(cat <<'EOF'\nfix: a; b && c\nEOF\n)\""
    (pipelines, complete) = structure(source)
    assert complete
    assert len(pipelines) == 1 and pipelines[0][0][0][:3] == ["git", "commit", "-m"]


@pytest.mark.parametrize("source", ["echo 'unterminated", 'echo "open', "cat <<EOF\nno end", "echo $(open"])
def test_incomplete_input_is_reported_not_raised(source):
    _, complete = parse(source)
    assert complete is False


def test_fish_dialect():
    assert split_words("echo 'it\\'s' (ls) \"$x\"", "fish") == ["echo", "it's", "(ls)", "$x"]
    assert structure("cd x; and git status", "fish")[0] == [([["cd", "x"]], ";"), ([["and", "git", "status"]], None)]


def test_redirections_are_not_words():
    (pipelines, _) = structure("pytest -q 2>&1 >out.log <in.txt &>/dev/null 3>&-")
    assert pipelines == [([["pytest", "-q"]], None)]


@pytest.mark.parametrize(
    "word, quoted",
    [
        ("simple", "simple"),
        ("--format=json", "--format=json"),
        ("a b", "'a b'"),
        ("it's", "'it'\\''s'"),
        ("", "''"),
        ("$HOME", "'$HOME'"),
        ("~/x", "'~/x'"),
        ("*.py", "'*.py'"),
    ],
)
def test_quote(word, quoted):
    assert quote(word) == quoted


def test_join_quotes_an_assignment_looking_command_word():
    assert join(["FOO=1", "x"]) == "'FOO=1' x"


def _bash_argv(line: str) -> list[str]:
    script = f'set -- {line}; for a in "$@"; do printf "%s\\0" "$a"; done'
    out = subprocess.run(["bash", "-c", script], capture_output=True, check=True).stdout
    return out.decode("utf-8", "surrogateescape").split("\0")[:-1]


words = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=12)


@settings(max_examples=150, deadline=None)
@given(st.lists(words, min_size=1, max_size=4))
def test_join_round_trips_through_real_bash(argv):
    assert _bash_argv(join(argv)) == argv


@settings(max_examples=150, deadline=None)
@given(st.lists(words, min_size=1, max_size=4))
def test_join_round_trips_through_our_lexer(argv):
    assert split_words(join(argv)) == argv


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
@settings(max_examples=100, deadline=None)
@given(words)
def test_fish_quote_round_trips_through_real_fish(word):
    out = subprocess.run(["fish", "-c", f"printf '%s\\0' {quote_fish(word)}"], capture_output=True, check=True).stdout
    assert out.decode("utf-8", "surrogateescape") == word + "\0"


# -- the grammar (parse_tree) and expansions (shellexpand) ---------------------------------

from tokenjuice.shell.expand import arithmetic_names, expansions  # noqa: E402
from tokenjuice.shell.syntax import Unreadable, parse_tree  # noqa: E402


def shape(source, dialect="posix"):
    """Each top-level item as (separator, and-or operators, [(kind, argv) per stage])."""
    tree = parse_tree(source, dialect)
    return [
        (item.sep, item.ops, [[(st.kind, st.argv) for st in p.stages] for p in item.pipelines]) for item in tree.root
    ]


@pytest.mark.parametrize(
    "source, expected",
    [
        (
            "cd x && a; b",
            [(";", ["&&"], [[("simple", ["cd", "x"])], [("simple", ["a"])]]), (None, [], [[("simple", ["b"])]])],
        ),
        ("{ cd sub && ls; } 2>&1 | tail -5", [(None, [], [[("brace", []), ("simple", ["tail", "-5"])]])]),
        ("( a ) > f &", [("&", [], [[("subshell", [])]])]),
        ("if a; then b; elif c; then d; else e; fi", [(None, [], [[("if", ["if"])]])]),
        (
            "for i in 1 2; do a; done | cat",
            [(None, [], [[("loop", ["for", "i", "in", "1", "2"]), ("simple", ["cat"])]])],
        ),
        ("case $x in a|b) c;; (d) ;; esac", [(None, [], [[("case", ["case", "$x"])]])]),
        ("((x > 1)) && [[ a && b ]]", [(None, ["&&"], [[("arith", ["((x > 1))"])], [("simple", ["[[ a && b ]]"])]])]),
        ("echo {a,b} } 'if'", [(None, [], [[("simple", ["echo", "{a,b}", "}", "if"])]])]),
        ("a\nb", [("\n", [], [[("simple", ["a"])]]), (None, [], [[("simple", ["b"])]])]),
    ],
)
def test_parse_tree_models_lists_precedence_and_compound_commands(source, expected):
    assert shape(source) == expected


def test_parse_tree_fish_blocks_and_joiners():
    assert shape("begin; cd x; end 2>&1 | tail", "fish") == [(None, [], [[("block", ["begin"]), ("simple", ["tail"])]])]
    tree = parse_tree("cd x; and make", "fish")
    assert [item.pipelines[0].prefix[:1] and item.pipelines[0].prefix[0].value for item in tree.root] == [
        [],
        "and",
    ]


@pytest.mark.parametrize(
    "source",
    [
        "{ a }",
        "{ ; }",
        "( )",
        "if a; then fi",
        "a &&",
        "f() { a; }",
        "function f { a; }",
        "! ! a",
        "echo 'x",
        "}",
        "a; ; b",
    ],
)
def test_parse_tree_refuses_what_it_cannot_read_with_certainty(source):
    with pytest.raises(Unreadable):
        parse_tree(source)


def test_walk_says_which_commands_run_in_the_shell_itself():
    tree = parse_tree("{ cd a; } | cat; (cd b); cd c | cat; x & cd d")
    here = {
        node.argv[1] if len(node.argv) > 1 else node.argv[0]: inside
        for node, inside in tree.walk("none")
        if node.kind == "simple"
    }
    assert here == {"a": False, "cat": False, "b": False, "c": False, "x": False, "d": True}
    assert dict((n.argv[-1], h) for n, h in parse_tree("ls | cd z").walk("last") if n.kind == "simple")["z"] is True


def test_expansions_read_assign_and_skip_single_quotes():
    found = expansions("echo $X ${Y:-a} '$Z' \"$W $1\" $? ${Q:=v} $((a+b)) $((c=1)) $(echo $D) `echo $E` # $F")
    assert [text for kind, text, _ in found if kind == "command"] == ["echo $D", "echo $E"]
    assert [(kind, name) for kind, name, _ in found if kind != "command"] == [
        ("read", "X"),
        ("read", "Y"),
        ("read", "W"),
        ("read", "1"),
        ("read", "?"),
        ("assign", "Q"),
        ("read", "a"),
        ("read", "b"),
        ("assign", "c"),
        ("read", "D"),
        ("read", "E"),
    ]
    assert expansions("awk '{print $1}' f") == []
    assert [name for _, name, _ in expansions("$x\n'$y'", here_doc=True)] == ["x", "y"]  # quotes are literal there
    assert [(k, n) for k, n, _ in expansions("echo $x (echo $y) '$z'", "fish")] == [
        ("read", "x"),
        ("command", "echo $y"),
        ("read", "y"),
    ]
    assert [(k, n) for k, n, _ in arithmetic_names("i++ + j < n; k += 2; m == 3")] == [
        ("assign", "i"),
        ("read", "j"),
        ("read", "n"),
        ("assign", "k"),
        ("read", "m"),
    ]


def test_the_environment_is_weighed_the_same_from_its_bytes(monkeypatch):
    """fits_in_argv weighs the process's own environment from os.environb (no decoding and
    encoding of each name and value): the same bytes as the str form encodes to, also for a
    value that is not UTF-8 (a surrogate escape) and one that is not ASCII."""
    import os
    import sys

    from tokenjuice.shell import syntax

    monkeypatch.setenv("TOKENJUICE_TEST_RAW", "caf\udce9")
    monkeypatch.setenv("TOKENJUICE_TEST_WIDE", "café ☕")
    copy = dict(os.environ)
    assert syntax._environ_cost() == syntax._environ_cost(os.environ) == syntax._environ_cost(copy)
    if os.name == "posix" and sys.getfilesystemencoding() == "utf-8":
        assert syntax._ENVIRON_BYTES is os.environb  # the fast path is the one taken


def test_a_line_lexed_again_the_same_way_is_not_lexed_twice():
    """The hook reads one command line several times (the grammar, the never-wrap
    catalogue, the host's checks): the tokens are made once and shared, per dialect and
    mode, and only for the last few lines."""
    from tokenjuice.shell import syntax

    line = "git status --short | head -3"
    assert syntax.lex(line) is syntax.lex(line)
    assert syntax.lex(line, compound=True) is not syntax.lex(line)
    assert syntax.lex(line, "fish") is not syntax.lex(line)
    assert [t.value for t in syntax.lex(line, "fish").tokens] == [t.value for t in syntax.lex(line).tokens]
    first = syntax.lex(line)
    for other in range(syntax._LEXED_KEPT):
        syntax.lex(f"echo {other}")
    assert syntax.lex(line) is not first and len(syntax._LEXED) == syntax._LEXED_KEPT
