import json
import tomllib

import pytest

from conftest import tokenjuice
from tokenjuice import __version__


def test_version(workdir):
    done = tokenjuice("--version")
    assert done.returncode == 0 and done.stdout.decode().strip() == __version__


def test_help_lists_each_command_on_one_line(workdir):
    text = tokenjuice("--help").stdout.decode()
    commands = text.split("Commands:\n")[1].strip().splitlines()
    names = [line.split()[0] for line in commands]
    assert {"wrap", "reduce", "reduce-json", "verify", "example"} <= set(names)
    assert all(len(line.split(None, 1)) == 2 and not line.rstrip().endswith("...") for line in commands)


def test_reduce_from_stdin_and_file(workdir):
    output = "".join(f"line {i}\n" for i in range(500))
    done = tokenjuice("reduce", "--command", "seq 500", input=output)
    assert done.returncode == 0
    assert "lines omitted" in done.stdout.decode()
    (workdir / "log.txt").write_text(output)
    done = tokenjuice("reduce", "log.txt", "--format", "json")
    assert json.loads(done.stdout)["stats"]["rawChars"] == len(output)
    done = tokenjuice("reduce", "--raw", "log.txt")
    assert done.stdout.decode() == output


def test_reduce_with_exit_code_and_classification(workdir):
    done = tokenjuice("reduce", "--command", "git status", "--exit-code", "128", "--format", "json",
                      input="fatal: not a git repository (or any of the parent directories): .git\n")
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "git/status"
    assert result["inlineText"].startswith("exit 128\nfatal: not a git repository")


def test_reduce_missing_file_is_one_sentence(workdir):
    done = tokenjuice("reduce", "nope.txt")
    assert done.returncode == 2
    assert done.stderr == b"tokenjuice reduce: cannot read nope.txt: No such file or directory\n"


@pytest.mark.parametrize("payload", [
    {"toolName": "exec", "command": "git status", "combinedText": "On branch main\n", "exitCode": 0},
    {"input": {"toolName": "exec", "argv": ["git", "status"], "stdout": "On branch main\n"},
     "options": {"trace": True, "maxInlineChars": 500}},
])
def test_reduce_json_direct_and_envelope(workdir, payload):
    done = tokenjuice("reduce-json", input=json.dumps(payload))
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "git/status"
    assert result["inlineText"] == "On branch main"


@pytest.mark.parametrize("raw, message", [
    ("", "reduce-json needs a JSON payload"),
    ("{not json", "the payload is not valid JSON"),
    ("[1, 2]", "the payload must be a JSON object"),
    ("null", "the payload must be a JSON object"),
    ('{"command": "x"}', "toolName must be a non-empty string"),
    ('{"toolName": "exec", "exitCode": "1"}', "exitCode must be a finite number"),
    ('{"toolName": "exec", "argv": "git status"}', "argv must be a list of strings"),
    ('{"input": {"toolName": "exec"}, "options": {"maxInlineChars": 0}}', "options.maxInlineChars must be"),
])
def test_reduce_json_errors_are_json(workdir, raw, message):
    done = tokenjuice("reduce-json", input=raw)
    assert done.returncode == 2
    assert message in json.loads(done.stdout)["error"]["message"]
    assert b"Traceback" not in done.stderr


def test_verify_json(workdir):
    done = tokenjuice("verify", "--format", "json", "--only", "git/status", "--fixtures")
    data = json.loads(done.stdout)
    assert {"ok", "rules", "problems", "examples"} <= set(data)
    assert all(e["ruleId"] == "git/status" for e in data["examples"]) and data["examples"]


def test_example_captures_real_output_as_valid_toml(workdir):
    done = tokenjuice("example", "--name", "demo", "--source", "test", "--", "sh", "-c",
                      "printf 'a\\033[1mb\\n\"quoted\" '\"'''\"'\\n'; exit 4")
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


def test_unknown_command(workdir):
    done = tokenjuice("frobnicate")
    assert done.returncode == 2 and b"No such command" in done.stderr
