"""Text helpers (tokenjuice.text): escape stripping and plurals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


@pytest.mark.parametrize(
    "escape",
    [
        "\x1b(B",
        "\x1b)0",
        "\x1b=",
        "\x1b>",
        "\x1b7",
        "\x1b8",
        "\x1bc",
        "\x1bM",
        "\x1b[38;5;208m",
        "\x1b]8;;http://x\x1b\\",
        "\x1b]0;title\x07",
        "\x1b[?25l",
    ],
)
def test_every_escape_sequence_is_stripped(escape):
    from tokenjuice.text import strip_ansi

    assert strip_ansi(f"ok{escape} done") == "ok done"


def test_plurals_of_counter_names():
    from tokenjuice.text import pluralize

    assert [
        pluralize(2, n)
        for n in (
            "error",
            "match",
            "dependency",
            "file to reformat",
            "warning",
            "permission denied",
            "not fixable automatically",
            "box",
        )
    ] == [
        "2 errors",
        "2 matches",
        "2 dependencies",
        "2 files to reformat",
        "2 warnings",
        "2 permission denied",
        "2 not fixable automatically",
        "2 boxes",
    ]


def test_a_cut_never_leaves_part_of_a_secret_like_token_in_view():
    from tokenjuice.text import clip_line

    token = "ghp_" + "Zq7" * 12
    line = " ".join([token] * 40)
    clipped = clip_line(line, 200)
    kept = clipped.replace(" …[", "\n").replace("]… ", "\n").split("\n")
    assert all(word == token for part in (kept[0], kept[2]) for word in part.split())
    assert int(kept[1].split()[0]) == len(line) - len(kept[0]) - len(kept[2])  # the count stays exact


def test_a_cut_through_words_or_a_long_blob_stays_where_it_was():
    from tokenjuice.text import clip_line

    assert clip_line("word " * 40, 40) == "word word word word word …[156 chars omitted]… word word word word "
    blob = "QUFB" * 200  # base64 data, not a secret: longer than any token
    assert clip_line(blob, 40) == f"{blob[:24]} …[{len(blob) - 44} chars omitted]… {blob[-20:]}"


def test_one_line_escapes_newlines_as_well():
    from tokenjuice.text import one_line

    assert one_line("evil\x1b[2J\u202e\n(tokenjuice: ok)") == "evil\\x1b[2J\\u202e\\n(tokenjuice: ok)"


def _holding_reference(lines, hints):
    return {k for k, line in enumerate(lines) if any(hint in line for hint in hints)}


_HINT_PIECES = ["err", "error", "warn", "✗", "× ", "@@ ", "not ok", "e", "r", " ", "é", "İ", "x"]


@pytest.mark.parametrize("seed", range(40))
def test_lines_holding_finds_exactly_the_lines_that_hold_a_hint(seed):
    import random

    from tokenjuice.text import holding, lines_holding, lowered_text

    rng = random.Random(seed)
    pieces = [*_HINT_PIECES, "ok", "━", "\t", "ERROR", "Warn", "✓", "K", "@"]
    lines = ["".join(rng.choices(pieces, k=rng.randint(0, 6))) for _ in range(rng.randint(1, 30))]
    hints = tuple(rng.sample([h.lower() for h in _HINT_PIECES] + ["", "ok", "✗x"], rng.randint(1, 6)))
    lowered = [line.lower() for line in lines]
    assert lines_holding(lines, hints) == _holding_reference(lowered, hints)
    assert holding(lowered_text("\n".join(lines)), hints) == _holding_reference(lowered, hints)


def _split_reference(text):
    """The display lines line by line: CRLF a newline, a bare CR the only line ending
    of classic Mac files, every other line redrawn in place its final states."""
    from tokenjuice.text import _final_states

    text = text.replace("\r\n", "\n")
    if "\n" not in text:
        text = text.replace("\r", "\n")
    shown = []
    for line in text.split("\n"):
        shown += _final_states(line) if "\r" in line else [line]
    return [line.rstrip() for line in shown]


@pytest.mark.parametrize("seed", range(300))
def test_split_lines_shows_each_line_as_a_terminal_would(seed):
    import random

    from tokenjuice.text import split_lines

    rng = random.Random(seed)
    pieces = ["a", "ok ", "error", "Warn", " ", "\t", "━", "42%", "\r", "\r", "\n", "\n", "\r\n", "\r\r\n", "İ"]
    text = "".join(rng.choices(pieces, k=rng.randint(0, 25)))
    assert split_lines(text) == _split_reference(text)


def test_a_crlf_line_ending_is_no_redraw(monkeypatch):
    from tokenjuice import text

    def frame_by_frame(line):
        raise AssertionError(f"looked at frame by frame: {line!r}")

    monkeypatch.setattr(text, "_final_states", frame_by_frame)
    windows = "".join(f"line {i}\r\n" for i in range(50)) + "  fetch\r  ━━ 100%\r\nend\r\n"
    assert text.split_lines(windows) == [*(f"line {i}" for i in range(50)), "  ━━ 100%", "end", ""]


@pytest.mark.parametrize("seed", range(200))
def test_strip_ansi_removes_what_the_escape_pattern_matches_and_nothing_else(seed):
    import random
    import re

    from tokenjuice.text import _ANSI, strip_ansi

    rng = random.Random(seed)
    pieces = ["\x1b", "\x1b[", "\x1b]", "[", "]", "0", "31", ";", "m", "?", " ", "(", "B", "\x07", "\\", "\n"]
    pieces += ["ok", "━"]
    text = "".join(rng.choices(pieces, k=rng.randint(0, 30)))
    assert strip_ansi(text) == re.sub(_ANSI, "", text)


#: The escape pattern as it was written before its runs were made possessive.
_ANSI_BACKTRACKING = r"\x1b(?:\][^\x07\x1b\n]*(?:\x07|\x1b\\)|\[[0-?]*[ -/]*(?:[@-~]|\Z)|[ -/]*[0-~]|)"


#: Text around escape sequences: characters at the edges of each class of the pattern.
_EDGES = st.sampled_from(["0", "?", ";", " ", "/", "@", "m", "~", "\x7f", "\x07", "\\", "\n", "\x1f", "━", "é", "ok"])
_ESCAPED = st.tuples(st.sampled_from(["\x1b", "\x1b[", "\x1b]", "\x1b\x1b"]), st.lists(_EDGES, max_size=6).map("".join))


@settings(max_examples=1000, deadline=None)
@given(st.lists(_ESCAPED.map("".join), max_size=5).map("".join))
def test_the_possessive_escape_pattern_finds_the_sequences_the_backtracking_one_finds(text):
    import re

    from tokenjuice.text import _ANSI

    assert [m.span() for m in re.finditer(_ANSI, text)] == [m.span() for m in re.finditer(_ANSI_BACKTRACKING, text)]


@pytest.mark.parametrize("chunk", [1, 3, 8])
@pytest.mark.parametrize("seed", range(100))
def test_strip_ansi_a_part_at_a_time_removes_what_the_pattern_removes_from_the_whole(monkeypatch, chunk, seed):
    import random
    import re

    from tokenjuice import text

    monkeypatch.setattr(text, "_STRIP_CHUNK", chunk)  # parts end after a newline: every place a part can end
    rng = random.Random(seed)
    pieces = ["\x1b", "\x1b[", "\x1b]", "[", "]", "0", "31", ";", "m", "?", " ", "(", "B", "\x07", "\\", "\n", "\n\n"]
    pieces += ["ok", "━", "\x1b[12", "\x1b]0;t"]
    whole = "".join(rng.choices(pieces, k=rng.randint(0, 60)))
    assert text.strip_ansi(whole) == re.sub(text._ANSI, "", whole)


def test_colour_is_stripped_a_part_of_a_long_output_at_a_time(monkeypatch):
    """The pieces between escape sequences are held for one part of the text at a
    time (a 4 MiB log's ~200,000 pieces were ~8 MB of fresh memory at once)."""
    from tokenjuice import text
    from tokenjuice.bench import real_shaped_log

    log = real_shaped_log(1024 * 1024)
    pattern = text.compiled(text._ANSI)
    parts: list[int] = []

    class Recorded:
        def split(self, part):
            parts.append(len(part))
            return pattern.split(part)

    monkeypatch.setattr(text, "compiled", lambda source: Recorded())
    assert text.strip_ansi(log) == "".join(pattern.split(log))
    longest = max(map(len, log.split("\n")))
    assert len(parts) > 1 and max(parts) <= text._STRIP_CHUNK + longest + 1
