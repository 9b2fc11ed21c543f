"""`tokenjuice discover` (tokenjuice.commands.discover): commands no rule knows, rules that
save too little, one saved log."""

import json

from conftest import tokenjuice


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
