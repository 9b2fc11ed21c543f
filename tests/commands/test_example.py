"""`tokenjuice example` (tokenjuice.commands.example): a real run captured as a rule example."""

import tomllib

from conftest import tokenjuice


def test_example_captures_real_output_as_valid_toml(workdir):
    done = tokenjuice(
        "example",
        "--name",
        "demo",
        "--source",
        "test",
        "--",
        "sh",
        "-c",
        "printf 'a\\033[1mb\\n\"quoted\" '\"'''\"'\\n'; exit 4",
    )
    assert done.returncode == 0, done.stderr
    table = tomllib.loads(done.stdout.decode())["examples"][0]
    assert table["exit_code"] == 4 and table["name"] == "demo"
    assert table["output"] == "a\x1b[1mb\n\"quoted\" '''\n"
    assert b"currently classified as" in done.stderr


def test_example_records_the_shell_body_as_the_command(workdir):
    done = tokenjuice("example", "--source", "t", "--", "bash", "-c", "echo hi")
    assert tomllib.loads(done.stdout.decode())["examples"][0]["command"] == "echo hi"


def test_example_append(workdir):
    rule = workdir / "demo.toml"
    rule.write_text('family = "demo"\n\n[match]\nargv0 = ["echo"]\n')
    done = tokenjuice("example", "--append", str(rule), "--source", "t", "--", "echo", "hi")
    assert done.returncode == 0
    assert tomllib.loads(rule.read_text())["examples"][0]["output"] == "hi\n"


def test_example_append_creates_a_rule_that_verify_accepts(workdir):
    (workdir / ".git").mkdir()
    rule = workdir / ".tokenjuice" / "rules" / "custom" / "greeting.toml"
    done = tokenjuice("example", "--append", str(rule), "--source", "t", "--", "sh", "-c", "printf 'hello\\n'")
    assert done.returncode == 0, done.stderr
    assert b"created" in done.stderr and tomllib.loads(rule.read_text())["match"] == {"argv0": ["printf"]}
    done = tokenjuice("verify", "--fixtures", "--only", "custom/")
    assert done.returncode == 0, done.stderr
    assert b"1/1 examples passed" in done.stdout
