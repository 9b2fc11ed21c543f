"""`tokenjuice discover` (tokenjuice.commands.discover): commands no rule knows, rules that
save too little, rules whose cuts are read back too often, one saved log."""

import json

from conftest import tokenjuice
from helpers import stored_id


def test_discover_finds_fallback_commands_and_weak_rules(home):
    for _ in range(3):
        tokenjuice("wrap", "--", "sh", "-c", "seq 1 2000")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    assert found["fallbackCommands"][0]["argv0"] == "seq" and found["fallbackCommands"][0]["runs"] == 3
    assert "tokenjuice example" in found["fallbackCommands"][0]["advice"]
    text = tokenjuice("discover").stdout.decode()
    assert "Commands no rule knows" in text and "seq" in text


def test_discover_finds_rules_that_save_too_little(home, isolated_home):
    rule = isolated_home / ".config" / "tokenjuice" / "rules" / "custom" / "seq.toml"
    rule.parent.mkdir(parents=True)
    rule.write_text(
        'family = "numbers"\n[match]\nargv0 = ["seq"]\n[summarize]\nhead = 5000\ntail = 0\nmax_chars = 100000\n'
    )
    tokenjuice("wrap", "--", "seq", "1", "2000")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    assert [w["name"] for w in found["weakRules"]] == ["custom/seq"] and found["weakRules"][0]["ratio"] >= 0.65
    assert found["fallbackCommands"] == []


def test_discover_one_saved_log(home, workdir):
    (workdir / "build.log").write_text("".join(f"step {i} ok\n" for i in range(800)))
    done = tokenjuice("discover", "build.log", "--source-command", "./build.sh --all", "--exit-code", "1")
    assert done.returncode == 0
    assert b"classified as generic/fallback" in done.stdout and b"write a rule" in done.stdout
    done = tokenjuice("discover", "build.log")
    assert done.returncode == 2 and b"--source-command" in done.stderr
    # An exact file read stays whole by policy: no rule would change that.
    done = tokenjuice("discover", "build.log", "--source-command", "cat build.log", "--format", "json")
    found = json.loads(done.stdout)
    assert found["passthrough"] == "file-content" and found["advice"] == []


def test_discover_flags_rules_whose_cuts_are_read_back_after_more_than_one_run_in_five(home):
    ids = [stored_id(tokenjuice("wrap", "--", "seq", "1", "40000").stdout) for _ in range(10)]
    for artifact_id in ids[:2]:
        tokenjuice("cat", artifact_id, "--lines", "100:120")
    for artifact_id in ids[2:6]:  # reading what was shown, or where it came from, is no sign of a cut that hurt
        tokenjuice("cat", artifact_id, "--shown")
        tokenjuice("cat", artifact_id, "--json")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    assert found["cutsTooMuch"] == []  # 2 of 10 is one in five: not more
    tokenjuice("cat", ids[9], "--grep", "^4000$")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    [rule] = found["cutsTooMuch"]
    assert (rule["name"], rule["cutRuns"], rule["readBackRuns"], rule["readBackRate"]) == (
        "generic/fallback",
        10,
        3,
        0.3,
    )
    assert rule["readBackIds"] == [ids[9], ids[1], ids[0]]  # the latest first, to compare both sides
    assert f"tokenjuice cat {ids[9]} --shown" in rule["advice"]
    text = tokenjuice("discover").stdout.decode()
    assert "Rules that cut too much" in text and "3 of 10 cut runs read back (30%)" in text


def test_discover_never_suggests_a_rule_for_an_exact_read(home, workdir):
    (workdir / "big.log").write_text("".join(f"line {i} of a log nobody wrote a rule for\n" for i in range(3000)))
    for _ in range(3):
        tokenjuice("wrap", "--", "cat", "big.log")
        tokenjuice("wrap", "--", "sh", "-c", "seq 1 2000")
    found = json.loads(tokenjuice("discover", "--format", "json").stdout)
    names = [c["argv0"] for c in found["fallbackCommands"]]
    assert "seq" in names and "cat" not in names  # rules never apply to what cat shows
