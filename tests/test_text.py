"""Text helpers (tokenjuice.text): escape stripping and plurals."""


import pytest


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
