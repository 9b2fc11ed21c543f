"""`tokenjuice cat` (tokenjuice.commands.artifacts): line ranges, grep, and ids checked
before any lookup."""


import pytest
from conftest import tokenjuice
from helpers import NOISY_FAILURE, stored_id


def test_cat_lines_and_grep_for_big_outputs(home):
    artifact_id = stored_id(tokenjuice("wrap", "--", *NOISY_FAILURE).stdout)
    assert tokenjuice("cat", artifact_id, "--lines", "2:4").stdout == b"2\n3\n4\n"
    assert tokenjuice("cat", artifact_id, "--lines", "1999:").stdout == b"1999\n2000\ntoken=[REDACTED:github-token]\n"
    assert tokenjuice("cat", artifact_id, "--lines", "7").stdout == b"7\n"
    assert tokenjuice("cat", artifact_id, "--grep", "^199[89]$").stdout == b"1998:1998\n1999:1999\n"
    nothing = tokenjuice("cat", artifact_id, "--grep", "no such line")
    assert nothing.returncode == 1 and nothing.stdout == b""
    for bad in (("--lines", "5:2"), ("--lines", "x"), ("--grep", "("), ("--lines", "1:2", "--grep", "a")):
        done = tokenjuice("cat", artifact_id, *bad)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, bad


@pytest.mark.parametrize(
    "bad_id",
    ["../../etc/passwd", "0123abc", "0123abcdX", "0123ABCD", "0123abcd/../x", "0123abcd\n", "tj_0123456789ab", ""],
)
def test_output_ids_are_validated_before_any_lookup(home, bad_id):
    done = tokenjuice("cat", bad_id)
    assert done.returncode == 2 and b"is not an output id" in done.stderr


def test_missing_output(home):
    done = tokenjuice("cat", "0123abcd")
    assert done.returncode == 2 and b"no stored output 0123abcd" in done.stderr
