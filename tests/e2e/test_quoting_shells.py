"""Quoting through the real shells.

The hosts' hooks hand back `<launcher> wrap … -- <shell> -lc <quoted command>`, and the
user's shell parses that line: a quoting mistake changes what runs. These tests take
seeded random strings (reproducible: set TOKENJUICE_QUOTING_SEED to explore other
seeds, and every failure names its input) and check, through bash, dash, zsh and
fish themselves, that

* `<shell> -c "printf '%s' " + quote_for(shell)(s)` prints exactly the bytes of s;
* the line the hook builds, run by an *outer* shell with a stand-in launcher
  (`fakewrap`: records its argv, then execs what follows `--`), hands the *inner*
  shell exactly the command, and prints what the command prints when the inner shell
  runs it directly, for every (outer, inner) pair.

The fast layer runs ~50 strings per shell and a few commands per pair; the `slow`
layer runs 500 per shell and shell variant (zsh options, bash --posix, interactive
shells reading the line from stdin, the C locale) and 40 commands per pair.

Strings may hold any character but NUL, and any byte: bytes that are not UTF-8 are
the surrogate escapes Python uses for them (os.fsencode gives the bytes back). NUL
cannot be in an argument at all (exec takes C strings), so a command holding one
cannot be rewritten: `quote` keeps it inside the quotes (it never raises) and
`fits_in_argv` refuses the result — the rewrite must leave such a command alone.
"""

from __future__ import annotations

import errno
import os
import random
import shutil
import subprocess
import sys

import pytest
from helpers import modules_loaded_by

from tokenjuice.shell.syntax import MAX_ARG_STRLEN, fits_in_argv, join, quote, quote_fish, quote_for

SEED = int(os.environ.get("TOKENJUICE_QUOTING_SEED", "20240917"))
FAST_CASES = 50
SLOW_CASES = 500
FAST_COMMANDS = 3
SLOW_COMMANDS = 40
TIMEOUT = 30

SHELLS = {name: shutil.which(name) for name in ("bash", "dash", "zsh", "fish")}


def _path(name: str) -> str:
    path = SHELLS[name]
    if path is None:
        pytest.skip(f"{name} is not installed")
    return os.path.realpath(path)


# -- random strings --------------------------------------------------------------------

_PIECES: dict[str, list[str]] = {
    "quotes": ["'", '"', "''", "'\\''", '\\"', "\\'", "`", '"\'"'],
    "shell": list("\\$`!#~*?[]{}();&|<>%^=:,@+-./_")
    + ["$(", "${", "$((", "$'", '$"', "$x", "$1", "$@", "$*", "$#", "$?", "$$", "$!", "$0", "${x:-y}"]
    + ["!!", "!$", "!-1", "!x", "^x^y", "2>&1", "<<", "<<-", "<(", ">(", "&&", "||", ";;", "&>", "|&"]
    + ["=ls", "==", ":=", "~/", "~root", "{a,b}", "{1..3}", "**", "[!a]", "?(a)", "@(a)", "*(a)", "#q"]
    + ["\\\n", "\\\r\n", "\\\\", "\\$", "\\`", "EOF", "\nEOF\n"]
    + ["\n^x^y", "\n^", "\n!!", "\n!-1", "\n#", "\n~", "\n-", "\n=ls", "\n%self"],  # what a line may start with
    "space": [" ", "\t", "\n", "\r", "\r\n", "\v", "\f", "  "],
    "fish": ["\\n", "\\'", "\\\\", "\\x41", "\\X41", "\\101", "\\u00e9", "\\U0001F600", "\\e", "\\cA", "\\$"]
    + ["\\ ", "\\*", "\\#", "\\(", "\\0", "%self", "%1", "(", ")", "$(", "{", "}", "$status", "$argv", "(ls)"],
    "unicode": ["é", "中", "😀", "\u200f", "\u200e", "\u202e", "\u2066", "\u2028", "\u2029", "\u00a0", "\ufeff"]
    + ["\u0301", "\u00ad", "\x85", "\U0010ffff", "\ufffd", "\uf600", "\uf6ff", "\ufdd0", "\ufdef", "\ufffe", "ß"]
    + ["İ", "\u3000", "\uff07", "\u2019", "\u02bc", "\uff02", "\u2215", "\U0001f1fa\U0001f1f8", "👍🏽", "Ω", "ǅ"],
    "control": [chr(c) for c in range(1, 32)] + ["\x7f"],
    "bytes": [chr(0xDC00 + b) for b in range(0x80, 0x100)],  # os.fsencode turns these into the raw bytes
    "alnum": ["a", "Z", "0", "9", "x_y", "abc", "-", "--", ".", "-n", "-e", "--help", "%s", "%b", "%%"],
}
_WEIGHTS = {"quotes": 4, "shell": 6, "space": 3, "fish": 3, "unicode": 3, "control": 1, "bytes": 1, "alnum": 4}
_KINDS = list(_WEIGHTS)
_KIND_WEIGHTS = [_WEIGHTS[k] for k in _KINDS]

#: Words made only of characters a quote function may leave bare: each must still
#: reach the program as itself (zsh's `=cmd`, fish's `%self`, reserved words…).
BARE_WORDS = [
    "%self",
    "%1",
    "%",
    "%%",
    "=ls",
    "=",
    "==",
    "a==ls",
    "--opt==ls",
    "a=b:=ls",
    "PATH=a:=ls",
    "x=:=ls",
    "-",
    "--",
    "if",
    "time",
    "then",
    "a",
    "x=1",
    "@",
    ",",
    "+",
    ":",
    ".",
    "..",
    "-c",
    "a,b",
    "foo@bar:baz/qux.py",
]


def random_word(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.1:
        return rng.choice(BARE_WORDS)
    if roll < 0.13:
        return ""
    count = rng.randint(50, 600) if roll < 0.15 else rng.randint(1, 12)  # now and then a long one
    kinds = rng.choices(_KINDS, _KIND_WEIGHTS, k=count)
    return "".join(rng.choice(_PIECES[kind]) for kind in kinds)


def random_words(seed_tag: str, count: int) -> list[str]:
    rng = random.Random(f"{SEED}:{seed_tag}")
    return [random_word(rng) for _ in range(count)]


def as_bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# -- one string through one shell -----------------------------------------------------

#: (id, shell, extra options, interactive: the line is typed on stdin, environment changes).
#: Interactive bash runs with --noediting: under readline, TAB, ^V, ESC, CR… are editing
#: keys, for an original command typed in as for the rewrite; no quoting survives that
#: (zsh's line editor is off anyway when stdin is not a terminal).
VARIANTS = [
    ("bash", "bash", (), False, {}),
    ("dash", "dash", (), False, {}),
    ("zsh", "zsh", (), False, {}),
    ("fish", "fish", (), False, {}),
]
SLOW_VARIANTS = [
    ("bash-posix", "bash", ("--posix",), False, {}),
    ("bash-extglob-histexpand", "bash", ("-O", "extglob", "-H"), False, {}),
    ("bash-interactive", "bash", ("--norc", "--noediting", "-i"), True, {}),
    ("bash-C-locale", "bash", (), False, {"LC_ALL": "C"}),
    ("dash-C-locale", "dash", (), False, {"LC_ALL": "C"}),
    ("zsh-magic-equal-subst", "zsh", ("-f", "-o", "magicequalsubst"), False, {}),
    ("zsh-rc-quotes", "zsh", ("-f", "-o", "rcquotes"), False, {}),
    (
        "zsh-glob-options",
        "zsh",
        ("-f", "-o", "extendedglob", "-o", "kshglob", "-o", "braceccl", "-o", "globsubst", "-o", "shwordsplit"),
        False,
        {},
    ),
    ("zsh-emulate-sh", "zsh", ("--emulate", "sh"), False, {}),
    ("zsh-interactive", "zsh", ("-f", "-i"), True, {}),
    (
        "zsh-interactive-options",
        "zsh",
        ("-f", "-i", "-o", "rcquotes", "-o", "magicequalsubst", "-o", "extendedglob", "-o", "interactivecomments"),
        True,
        {},
    ),
    ("zsh-C-locale", "zsh", (), False, {"LC_ALL": "C"}),
    ("fish-no-config", "fish", ("--no-config",), False, {}),
    ("fish-all-features", "fish", ("--features", "all"), False, {}),
    ("fish-C-locale", "fish", (), False, {"LC_ALL": "C"}),
]


def shell_run(shell: str, options, interactive: bool, env: dict, line: str, cwd) -> subprocess.CompletedProcess:
    """line run by shell: typed into an interactive shell's stdin (where history
    expansion and the like apply), or given with -c."""
    if interactive:
        return subprocess.run(
            [_path(shell), *options],
            input=as_bytes(line) + b"\n",
            capture_output=True,
            env=env,
            cwd=cwd,
            timeout=TIMEOUT,
        )
    return subprocess.run(
        [_path(shell), *options, "-c", line],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=TIMEOUT,
    )


def run_line(shell: str, options: tuple[str, ...], interactive: bool, env_changes: dict, line: str, cwd) -> bytes:
    return shell_run(shell, options, interactive, {**os.environ, **env_changes}, line, cwd).stdout


def check_round_trips(variant, count: int, cwd) -> None:
    name, shell, options, interactive, env_changes = variant
    _path(shell)
    quote_word = quote_for(shell)
    failures = []
    words = random_words(f"word:{name}", count)
    for word in words:
        got = run_line(shell, options, interactive, env_changes, "printf '%s' " + quote_word(word), cwd)
        if got != as_bytes(word):
            failures.append(f"{word!r} -> {quote_word(word)!r} printed {got!r}")
    assert not failures, f"{len(failures)} of {len(words)} strings changed through {name}:\n" + "\n".join(failures[:20])


@pytest.mark.parametrize("variant", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_quoted_words_round_trip_through_the_shell(variant, tmp_path):
    check_round_trips(variant, FAST_CASES, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS + SLOW_VARIANTS, ids=[v[0] for v in VARIANTS + SLOW_VARIANTS])
def test_quoted_words_round_trip_through_the_shell_at_length(variant, tmp_path):
    check_round_trips(variant, SLOW_CASES, tmp_path)


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh", "fish"])
@pytest.mark.parametrize("word", BARE_WORDS)
def test_words_left_bare_reach_the_program_as_themselves(shell, word, tmp_path):
    """Every word a quote function may leave unquoted, with zsh's options that expand
    `=cmd` after `=` and `:` (MAGIC_EQUAL_SUBST) on, and fish's `%self`."""
    options = ("-f", "-o", "magicequalsubst") if shell == "zsh" else ()
    line = "printf '%s' " + quote_for(shell)(word)
    assert run_line(shell, options, False, {}, line, tmp_path) == as_bytes(word)


# -- the shells' own rules the quoting relies on ---------------------------------------


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_history_expansion_is_off_for_c_strings(shell, tmp_path):
    """`!` needs no quoting for `-c` (nor does quote leave it bare): history expansion
    is an interactive feature. Interactive shells do expand it, but not inside single
    quotes — the interactive variants of the slow layer type quoted words on stdin."""
    assert run_line(shell, (), False, {}, "echo a; printf '%s|' !! !$ a!b", tmp_path) == b"a\n!!|!$|a!b|"
    interactive = ("-f", "-i") if shell == "zsh" else ("--norc", "--noediting", "-i")
    typed = run_line(shell, interactive, True, {}, "printf '%s|' '!!' 'x\n!$'", tmp_path)
    assert typed == b"!!|x\n!$|"


@pytest.mark.xfail(strict=True, reason="known limitation: zsh's CSH_JUNKIE_QUOTES forbids newlines in single quotes")
def test_zsh_csh_junkie_quotes_rejects_a_quoted_newline(tmp_path):
    """With CSH_JUNKIE_QUOTES set (in a user's .zshrc) an interactive zsh rejects the
    rewritten line of a multi-line command (`unmatched '`): the command fails to run,
    it does not run differently. `-c` strings are not affected."""
    typed = run_line("zsh", ("-f", "-i", "-o", "cshjunkiequotes"), True, {}, "printf '%s' " + quote("a\nb"), tmp_path)
    assert typed == b"a\nb"


# -- the hook's line: outer shell -> launcher -> inner shell ---------------------------

FAKEWRAP = """#!/bin/sh
# Stand-in for `tokenjuice wrap …`: record the argv (NUL-terminated), exec what follows `--`.
printf '%s\\0' "$@" > "$FAKEWRAP_LOG"
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
[ "$#" -gt 0 ] || exit 125
shift
exec "$@"
"""

_GLOB_FILES = ["a.txt", "b c.txt", "é.txt", "-n", "x'y", "[z]"]


def _posix_dq(word: str) -> str:
    return '"' + "".join("\\" + c if c in '\\"$`' else c for c in word) + '"'


def _fish_dq(word: str) -> str:
    return '"' + "".join("\\" + c if c in '\\"$' else c for c in word) + '"'


def _heredoc_body(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 4)):
        line = " ".join(random_word(rng) for _ in range(rng.randint(0, 3)))
        lines.extend(part for part in line.split("\n") if part != "EOF")
    return "\n".join(lines)


_ANSI_PIECES = ["\\n", "\\t", "\\\\", "\\'", '\\"', "\\x41", "\\101", "\\u00e9", "\\U0001F600", "\\e", "\\a"]
_ANSI_PIECES += ["\\r", "\\?", "\\cA", "a", "é", "中", " ", "$", "`", '"', "!", "#", "\\x7f", "\\xff", "\\0101"]


def posix_command(rng: random.Random, shell: str) -> str:
    """A command for bash, dash or zsh from pieces whose output is deterministic."""
    q = quote

    def words(low: int = 1, high: int = 3) -> str:
        return " ".join(q(random_word(rng)) for _ in range(rng.randint(low, high)))

    kinds = ["printf", "printf", "dq", "heredoc", "var", "subst", "backtick", "subshell", "group", "status"]
    kinds += ["comment", "continuation", "glob", "pipe", "bang", "arith", "case", "heredoc_unquoted"]
    if shell != "dash":
        kinds += ["ansi", "ansi"]
    segments: list[tuple[str, bool]] = []  # (text, must be followed by a newline)
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(kinds)
        if kind == "printf":
            segment = f"printf '%s\\n' {words()}"
        elif kind == "dq":
            segment = f"printf '%s\\n' {_posix_dq(random_word(rng))}"
        elif kind == "heredoc":
            dash = rng.random() < 0.3
            body = _heredoc_body(rng)
            if dash:
                body = "\n".join("\t" + line for line in body.split("\n"))
            segments.append((f"cat <<{'-' if dash else ''}'EOF'\n{body}\n{chr(9) if dash else ''}EOF", True))
            continue
        elif kind == "heredoc_unquoted":
            body = "".join("\\" + c if c in "\\$`" else c for c in _heredoc_body(rng))
            segments.append((f"x=1; cat <<EOF\n{body} $x\nEOF", True))
            continue
        elif kind == "var":
            segment = f"x={q(random_word(rng))}; printf '%s\\n' \"$x\" ${{#x}}"
        elif kind == "subst":
            segment = f"printf '%s\\n' \"$(printf '%s' {words(1, 1)})\""
        elif kind == "backtick":
            segment = f"echo `printf '%s' {q(random_word(rng).replace(chr(96), ''))}`"
        elif kind == "subshell":
            segment = f"( printf '%s\\n' {words()}; exit {rng.randint(0, 3)} ); echo \"rc=$?\""
        elif kind == "group":
            segment = f"{{ printf '%s\\n' {words()}; }}"
        elif kind == "status":
            segment = rng.choice(["false", "true", 'echo "rc=$?"', "! false"])
        elif kind == "comment":
            segment = f"printf '%s\\n' {words()} # {random_word(rng).replace(chr(10), ' ').replace(chr(13), ' ')}"
        elif kind == "continuation":
            segment = f"printf '%s\\n' {words()} \\\n {words()}"
        elif kind == "glob":
            segment = rng.choice(["printf '%s\\n' *", "printf '%s\\n' *.txt", "printf '%s\\n' ?.txt"])
        elif kind == "pipe":
            segment = f"printf '%s\\n' {words()} | cat"
        elif kind == "bang":
            segment = "echo ! a!b !! '!x' \"c!\""
        elif kind == "arith":
            segment = f"echo $(({rng.randint(0, 99)} + {rng.randint(0, 99)}))"
        elif kind == "case":
            segment = f"case {q(random_word(rng))} in *) printf '%s\\n' matched;; esac"
        else:  # ansi
            body = "".join(rng.choice(_ANSI_PIECES) for _ in range(rng.randint(0, 10)))
            segment = f"printf '%s\\n' $'{body}'"
        segments.append((segment, False))
    if rng.random() < 0.2:
        segments.append((f"exit {rng.randint(0, 5)}", False))
    return _join_segments(rng, segments, ["; ", " && ", " || ", "\n", " ;\n"])


def fish_command(rng: random.Random) -> str:
    """A command for fish from pieces whose output is deterministic."""
    q = quote_fish

    def words(low: int = 1, high: int = 3) -> str:
        return " ".join(q(random_word(rng)) for _ in range(rng.randint(low, high)))

    escapes = ["\\x41", "\\u00e9", "\\n", "\\t", "\\$", "\\\\", "\\'", '\\"', "\\ ", "\\*", "\\#", "\\(", "\\)"]
    escapes += ["\\[", "\\]", "\\{", "\\}", "\\<", "\\>", "\\&", "\\|", "\\;", "\\~", "\\%", "\\?", "a", "é"]
    kinds = ["printf", "printf", "dq", "var", "subst", "dollar_subst", "escapes", "begin", "andor", "status"]
    kinds += ["comment", "continuation", "glob", "pipe", "brace", "math"]
    segments: list[tuple[str, bool]] = []
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(kinds)
        if kind == "printf":
            segment = f"printf '%s\\n' {words()}"
        elif kind == "dq":
            segment = f"printf '%s\\n' {_fish_dq(random_word(rng))}"
        elif kind == "var":
            segment = f"set x {words()}; printf '%s\\n' $x (count $x)"
        elif kind == "subst":
            segment = f"printf '%s\\n' (printf '%s' {words(1, 1)})"
        elif kind == "dollar_subst":
            segment = f"printf '%s\\n' \"$(printf '%s' {words(1, 1)})\""
        elif kind == "escapes":
            segment = "printf '%s\\n' " + "".join(rng.choice(escapes) for _ in range(rng.randint(1, 8)))
        elif kind == "begin":
            segment = f"begin; printf '%s\\n' {words()}; end"
        elif kind == "andor":
            segment = rng.choice(["false; or ", "true; and ", "false || ", "true && "]) + f"printf '%s\\n' {words()}"
        elif kind == "status":
            segment = rng.choice(["false", "true", 'echo "rc=$status"', "not false"])
        elif kind == "comment":
            segment = f"printf '%s\\n' {words()} # {random_word(rng).replace(chr(10), ' ').replace(chr(13), ' ')}"
        elif kind == "continuation":
            segment = f"printf '%s\\n' {words()} \\\n {words()}"
        elif kind == "glob":
            segment = rng.choice(["printf '%s\\n' *", "printf '%s\\n' *.txt"])
        elif kind == "pipe":
            segment = f"printf '%s\\n' {words()} | cat"
        elif kind == "brace":
            segment = "printf '%s\\n' {a,b}c x{1,2}"
        else:  # math
            segment = f"math {rng.randint(0, 99)} + {rng.randint(0, 99)}"
        segments.append((segment, False))
    if rng.random() < 0.2:
        segments.append((f"exit {rng.randint(0, 5)}", False))
    return _join_segments(rng, segments, ["; ", " && ", " || ", "\n", "; and ", "; or "])


def _join_segments(rng: random.Random, segments: list[tuple[str, bool]], separators: list[str]) -> str:
    out = ""
    for index, (text, needs_newline) in enumerate(segments):
        out += text
        if index + 1 < len(segments):
            out += "\n" if needs_newline else rng.choice(separators)
    return out


def hook_line(launcher: str, outer: str, inner_path: str, command: str) -> str:
    """What the Cursor hook hands back, quoted for the shell that parses it."""
    quote_word = quote_for(outer)
    return (
        f"{quote_word(launcher)} wrap --source cursor --keep-path -- {quote_word(inner_path)} -lc {quote_word(command)}"
    )


@pytest.fixture
def nest_dir(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fakewrap = bin_dir / "fakewrap"
    fakewrap.write_text(FAKEWRAP)
    fakewrap.chmod(0o755)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    for name in _GLOB_FILES:
        (cwd / name).write_text("")
    return fakewrap, cwd, tmp_path / "argv.log"


PAIRS = [(outer, inner) for outer in ("bash", "dash", "zsh", "fish") for inner in ("bash", "dash", "zsh", "fish")]


def check_nesting(outer: str, inner: str, count: int, nest_dir, interactive: bool = False) -> None:
    fakewrap, cwd, log = nest_dir
    inner_path = _path(inner)
    rng = random.Random(f"{SEED}:command:{outer}:{inner}:{interactive}")
    env = {**os.environ, "FAKEWRAP_LOG": str(log)}
    failures = []
    for _ in range(count):
        command = fish_command(rng) if inner == "fish" else posix_command(rng, inner)
        line = hook_line(str(fakewrap), outer, inner_path, command)
        direct = subprocess.run(
            [inner_path, "-lc", command],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            cwd=cwd,
            env=env,
            timeout=TIMEOUT,
        )
        if log.exists():
            log.unlink()
        options = (["--norc", "--noediting", "-i"] if outer == "bash" else ["-f", "-i"]) if interactive else []
        wrapped = shell_run(outer, options, interactive, env, line, cwd)
        argv = log.read_bytes().split(b"\0")[:-1] if log.exists() else None
        expected_argv = [
            as_bytes(w) for w in ["wrap", "--source", "cursor", "--keep-path", "--", inner_path, "-lc", command]
        ]
        if argv != expected_argv:
            failures.append(f"{command!r}: the launcher got {argv!r}")
        elif (wrapped.stdout, wrapped.returncode) != (direct.stdout, direct.returncode):
            failures.append(
                f"{command!r}: direct {direct.stdout!r} rc={direct.returncode}, "
                f"wrapped {wrapped.stdout!r} rc={wrapped.returncode} {wrapped.stderr[-300:]!r}"
            )
    assert not failures, f"{len(failures)} of {count} commands changed ({outer} -> {inner}):\n" + "\n".join(
        failures[:10]
    )


@pytest.mark.parametrize(("outer", "inner"), PAIRS, ids=[f"{o}-runs-{i}" for o, i in PAIRS])
def test_the_hook_line_runs_the_command_unchanged(outer, inner, nest_dir):
    check_nesting(outer, inner, FAST_COMMANDS, nest_dir)


@pytest.mark.slow
@pytest.mark.parametrize(("outer", "inner"), PAIRS, ids=[f"{o}-runs-{i}" for o, i in PAIRS])
def test_the_hook_line_runs_the_command_unchanged_at_length(outer, inner, nest_dir):
    check_nesting(outer, inner, SLOW_COMMANDS, nest_dir)


@pytest.mark.slow
@pytest.mark.parametrize(("outer", "inner"), [p for p in PAIRS if p[0] in ("bash", "zsh")])
def test_the_hook_line_typed_into_an_interactive_shell(outer, inner, nest_dir):
    check_nesting(outer, inner, SLOW_COMMANDS // 2, nest_dir, interactive=True)


def test_the_generators_cover_the_alphabet():
    """The random strings do hold what the brief lists: each class shows up."""
    text = "".join(random_words("coverage", 500))
    for needed in ["'", '"', "\\", "$", "`", "!", "#", "~", "*", "?", "[", "{", "}", "(", ";", "&", "|", "<", ">"]:
        assert needed in text, needed
    for needed in ["\n", "\r", "\t", " ", "%", "^", "é", "中", "😀", "\u200f", "\u2028", "\\n", "$("]:
        assert needed in text, repr(needed)
    assert any(0xDC80 <= ord(c) <= 0xDCFF for c in text)  # raw bytes that are not UTF-8


# -- quote_for --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shell", "expected"),
    [
        ("fish", quote_fish),
        ("/usr/bin/fish", quote_fish),
        ("/opt/homebrew/bin/fish", quote_fish),
        ("-fish", quote_fish),
        ("FISH", quote_fish),
        ("bash", quote),
        ("/bin/bash", quote),
        ("-bash", quote),
        ("sh", quote),
        ("dash", quote),
        ("/bin/zsh", quote),
        ("zsh-5.9", quote),
        ("ksh93", quote),
        ("mksh", quote),
        ("ash", quote),
        ("yash", quote),
        ("busybox", quote),
        ("bash.exe", quote),
    ],
)
def test_quote_for_maps_a_shell_to_its_quoting(shell, expected):
    assert quote_for(shell) is expected


@pytest.mark.parametrize("shell", ["csh", "tcsh", "nu", "pwsh", "xonsh", "elvish", "cmd.exe", "", "/"])
def test_quote_for_refuses_shells_it_cannot_quote_for(shell):
    """csh's single quotes end at a newline and let `!` through; nushell, PowerShell…
    have syntaxes of their own: no quoting is better than a wrong one."""
    with pytest.raises(ValueError):
        quote_for(shell)


def test_shellsyntax_imports_nothing_heavy():
    """The hook quotes every command: importing shellsyntax loads no regex module."""
    loaded = modules_loaded_by("import tokenjuice.shell.syntax")
    assert loaded == {"__future__", "tokenjuice", "tokenjuice.shell", "tokenjuice.shell.syntax"}


# -- NUL ------------------------------------------------------------------------------


@pytest.mark.parametrize("quote_word", [quote, quote_fish])
def test_a_nul_cannot_be_quoted_into_an_argument_so_the_rewrite_is_refused(quote_word):
    command = "printf '%s' a\0b"
    quoted = quote_word(command)
    assert "\0" in quoted  # quote does not raise nor drop it ...
    with pytest.raises(ValueError, match="null"):
        subprocess.run(["bash", "-c", quoted])  # ... but no exec can carry it
    rewritten = f"tokenjuice wrap --source cursor --keep-path -- /bin/bash -lc {quoted}"
    assert not fits_in_argv(rewritten, words=["tokenjuice", "wrap", "--", "/bin/bash", "-lc", command])
    assert not fits_in_argv("true", words=["a\0"])
    assert not fits_in_argv("a\0", words=["a"])


# -- argv limits ----------------------------------------------------------------------


def _exec_through_bash(word: str) -> bool:
    """bash reads the script on stdin (so only the exec it does carries `word`) and
    runs /usr/bin/printf with it: did the program get the word?"""
    script = f"/usr/bin/printf '%s' {quote(word)} | /usr/bin/wc -c\n"
    done = subprocess.run(["bash"], input=as_bytes(script), capture_output=True, timeout=TIMEOUT)
    if b"Argument list too long" in done.stderr:
        return False
    assert done.stdout.strip() == str(len(as_bytes(word))).encode(), done.stderr
    return True


LINUX_4K_PAGES = sys.platform.startswith("linux") and os.sysconf("SC_PAGE_SIZE") == 4096


@pytest.mark.skipif(not LINUX_4K_PAGES, reason="MAX_ARG_STRLEN is Linux's PAGE_SIZE * 32")
@pytest.mark.parametrize(("size", "runs"), [(MAX_ARG_STRLEN - 1, True), (MAX_ARG_STRLEN, False)])
def test_one_argument_over_max_arg_strlen_cannot_be_exec(size, runs):
    word = "x" * size
    assert _exec_through_bash(word) is runs
    assert fits_in_argv("true", words=["/usr/bin/printf", "%s", word]) is runs
    # the same boundary in bytes, not characters: 中 is 3 bytes in UTF-8
    wide = "中" * ((size - 1) // 3) + "x" * ((size - 1) % 3 + 1)
    assert len(as_bytes(wide)) == size and len(wide) < size // 2
    assert fits_in_argv("true", words=["/usr/bin/printf", "%s", wide]) is runs
    assert _exec_through_bash(wide) is runs


@pytest.mark.skipif(not LINUX_4K_PAGES, reason="MAX_ARG_STRLEN is Linux's PAGE_SIZE * 32")
@pytest.mark.parametrize(("size", "runs"), [(MAX_ARG_STRLEN - 1, True), (MAX_ARG_STRLEN, False)])
def test_the_rewritten_line_is_one_argument_too(size, runs):
    """The host hands the rewritten line to a shell (`sh -c <line>`): it is bound by
    the same limit as each word."""
    line = ": " + "y" * (size - 2)
    assert len(line) == size
    if runs:
        assert subprocess.run(["bash", "-c", line], timeout=TIMEOUT).returncode == 0
    else:
        with pytest.raises(OSError) as raised:
            subprocess.run(["bash", "-c", line], timeout=TIMEOUT)
        assert raised.value.errno == errno.E2BIG
    assert fits_in_argv(line, words=[":"]) is runs


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's ARG_MAX accounting is Linux's")
def test_the_total_of_the_arguments_is_bounded_too():
    arg_max = os.sysconf("SC_ARG_MAX")
    count = arg_max // (MAX_ARG_STRLEN - 1) + 2
    words = ["/bin/true"] + ["z" * (MAX_ARG_STRLEN - 2)] * count
    with pytest.raises(OSError) as raised:
        subprocess.run(words, timeout=TIMEOUT)
    assert raised.value.errno == errno.E2BIG
    assert not fits_in_argv("true", words=words)
    assert fits_in_argv("true", words=words[:4])


def test_a_large_environment_leaves_less_room(monkeypatch):
    words = ["/bin/true", "w" * 100_000]
    assert fits_in_argv("true", words=words)
    arg_max = os.sysconf("SC_ARG_MAX")
    for index in range(arg_max // 100_000 + 1):
        monkeypatch.setenv(f"TOKENJUICE_TEST_FILL_{index}", "v" * 99_000)
    assert not fits_in_argv("true", words=words)


def test_what_cannot_be_encoded_does_not_fit():
    assert not fits_in_argv("true", words=["\ud800"])  # a lone surrogate has no bytes
    assert fits_in_argv("true", words=["\udcff"])  # a surrogate escape is the byte 0xff


def test_ordinary_rewrites_fit():
    command = "git status && pytest -q\n" * 100
    line = hook_line("tokenjuice", "bash", "/bin/bash", command)
    assert fits_in_argv(
        line, words=["tokenjuice", "wrap", "--source", "cursor", "--keep-path", "--", "/bin/bash", "-lc", command]
    )


# -- join -------------------------------------------------------------------------------


@pytest.mark.parametrize("shell", ["bash", "dash", "zsh"])
@pytest.mark.parametrize(
    "name", ["time", "if", "then", "done", "!", "{", "foreach", "nocorrect", "repeat", "coproc", "function", "a=b"]
)
def test_join_runs_the_program_named_even_when_it_is_a_keyword(shell, name, tmp_path):
    """join(argv) is argv: a first word the shell reads as a keyword (`time`, `if`)
    is quoted, so the program of that name runs."""
    (tmp_path / name).write_text('#!/bin/sh\nprintf "%s|" ran "$@"\n')
    (tmp_path / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{tmp_path}:{os.environ['PATH']}"}
    line = join([name, "x y", "-"])
    # on stdin: `sh -c '- x'` would read the line's leading `-` as an option
    done = subprocess.run(
        [_path(shell)], input=as_bytes(line), capture_output=True, env=env, cwd=tmp_path, timeout=TIMEOUT
    )
    assert done.stdout == b"ran|x y|-|", (line, done.stderr)


# -- the bugs these tests found, pinned --------------------------------------------------


@pytest.mark.parametrize(
    ("quote_word", "word", "quoted"),
    [
        (quote_fish, "%self", "'%self'"),  # fish expanded a bare %self to its PID
        (quote_fish, "%1", "'%1'"),
        (quote, "a==ls", "'a==ls'"),  # zsh with MAGIC_EQUAL_SUBST: a=/usr/bin/ls
        (quote, "--opt==ls", "'--opt==ls'"),
        (quote, "a=b:=ls", "'a=b:=ls'"),  # ... and a=b:/usr/bin/ls
        (quote, "=ls", "'=ls'"),
        (quote, "a\n^x^y", "'a\n'\\^'x^y'"),  # interactive bash: a\n!!:s^x^y
        (quote, "^x^y", "'^x^y'"),
        (quote, "a=b", "a=b"),
        (quote, "--format=json", "--format=json"),
        (quote_fish, "a%b", "a%b"),
    ],
)
def test_quoting_of_words_that_were_left_bare_or_mangled(quote_word, word, quoted):
    assert quote_word(word) == quoted


def test_interactive_bash_keeps_a_quoted_line_starting_with_a_caret(tmp_path):
    line = "echo one; printf '%s|' " + quote("a\n^one^two\n^x")
    assert run_line("bash", ("--norc", "--noediting", "-i"), True, {}, line, tmp_path) == b"one\na\n^one^two\n^x|"


def test_join_still_quotes_assignment_words_only_in_first_place():
    assert join(["FOO=1", "x", "a=b"]) == "'FOO=1' x a=b"
    assert join(["time", "time"]) == "'time' time"
    assert join(["git", "status"]) == "git status"
