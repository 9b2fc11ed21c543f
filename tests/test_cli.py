import json
import os
import shutil
import subprocess
import sys
import tomllib

import pytest

from conftest import REPO, tokenjuice
from tokenjuice import __version__


def test_version(workdir):
    done = tokenjuice("--version")
    assert done.returncode == 0 and done.stdout.decode() == f"tokenjuice {__version__}\n"
    verbose = tokenjuice("--version", "-v").stdout.decode().splitlines()
    assert verbose[0] == f"tokenjuice {__version__}" and verbose[1].startswith("Python 3.")


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
    done = tokenjuice(
        "reduce",
        "--command",
        "git status",
        "--exit-code",
        "128",
        "--format",
        "json",
        input="fatal: not a git repository (or any of the parent directories): .git\n",
    )
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "git/status"
    assert result["inlineText"].startswith("exit 128\nfatal: not a git repository")


def test_reduce_missing_file_is_one_sentence(workdir):
    done = tokenjuice("reduce", "nope.txt")
    assert done.returncode == 2
    assert done.stderr == b"tokenjuice reduce: cannot read nope.txt: No such file or directory\n"


@pytest.mark.parametrize(
    "payload",
    [
        {"toolName": "exec", "command": "git status", "combinedText": "On branch main\n", "exitCode": 0},
        {
            "input": {"toolName": "exec", "argv": ["git", "status"], "stdout": "On branch main\n"},
            "options": {"trace": True, "maxInlineChars": 500},
        },
    ],
)
def test_reduce_json_direct_and_envelope(workdir, payload):
    done = tokenjuice("reduce-json", input=json.dumps(payload))
    assert done.returncode == 0
    result = json.loads(done.stdout)
    assert result["classification"]["matchedReducer"] == "git/status"
    assert result["inlineText"] == "On branch main"


@pytest.mark.parametrize(
    "raw, message",
    [
        ("", "reduce-json needs a JSON payload"),
        ("{not json", "the payload is not valid JSON"),
        ("[1, 2]", "the payload must be a JSON object"),
        ("null", "the payload must be a JSON object"),
        ('{"command": "x"}', "toolName must be a non-empty string"),
        ('{"toolName": "exec", "exitCode": "1"}', "exitCode must be a finite number"),
        ('{"toolName": "exec", "argv": "git status"}', "argv must be a list of strings"),
        ('{"input": {"toolName": "exec"}, "options": {"maxInlineChars": 0}}', "options.maxInlineChars must be"),
    ],
)
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


def test_unknown_command(workdir):
    done = tokenjuice("frobnicate")
    assert done.returncode == 2 and b"No such command" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("--version",),
        ("-V", "-v"),
        ("doctor",),
        ("stats",),
        ("config", "get", "artifacts.mode"),
        ("config", "list", "--show-origin"),
        ("paths",),
        ("ls",),
        ("discover",),
        ("schema", "rule"),
        ("completion", "bash"),
    ],
)
def test_read_only_commands_create_no_file_or_folder(workdir, isolated_home, args):
    before = sorted(p for p in isolated_home.rglob("*"))
    done = tokenjuice(*args)
    assert done.returncode in (0, 1), done.stderr
    assert sorted(p for p in isolated_home.rglob("*")) == before
    assert not list(workdir.iterdir())


@pytest.mark.parametrize(
    "args, message",
    [
        (("reduce", "nope.txt", "--format", "json"), "cannot read nope.txt"),
        (("config", "get", "no.such", "--json"), "unknown setting no.such"),
        (("reduce", "--classifier", "no/such", "--json", "nope.txt"), "--classifier no/such: no such rule"),
        (("stats", "--since", "yesterday", "--json"), "--since 'yesterday'"),
        (("verify", "--json", "--bogus"), "No such option '--bogus'"),
    ],
)
def test_errors_in_json_mode_are_a_json_object(workdir, args, message):
    done = tokenjuice(*args)
    assert done.returncode == 2, done.stderr
    error = json.loads(done.stdout)["error"]
    assert message in error["message"] and error["kind"] == "usage" and error["exitCode"] == 2
    assert b"Traceback" not in done.stderr


def test_unknown_classifier_and_only_are_usage_errors(workdir):
    done = tokenjuice("reduce", "--classifier", "no/such-rule", input="x\n")
    assert done.returncode == 2 and done.stderr.startswith(b"tokenjuice reduce: --classifier no/such-rule: no such")
    done = tokenjuice("verify", "--only", "zzz/")
    assert done.returncode == 2 and b"no rule id starts with 'zzz/'" in done.stderr


def test_colour_only_for_terminals_or_when_forced(workdir):
    plain = tokenjuice("config", "get", "no.such").stderr
    assert b"\x1b[" not in plain and plain.startswith(b"tokenjuice config get: unknown setting")
    forced = tokenjuice("config", "get", "no.such", env=os.environ | {"FORCE_COLOR": "1"}).stderr
    assert forced.startswith(b"\x1b[31mtokenjuice config get: \x1b[0m")
    both = tokenjuice("config", "get", "no.such", env=os.environ | {"FORCE_COLOR": "1", "NO_COLOR": "1"}).stderr
    assert b"\x1b[" not in both


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(workdir, shell):
    done = tokenjuice("completion", shell)
    assert done.returncode == 0 and b"_TOKENJUICE_COMPLETE" in done.stdout
    if shutil.which(shell):  # the script is valid in its own shell
        check = ["-n"] if shell != "fish" else ["--no-execute"]
        parsed = subprocess.run([shell, *check, "-c", done.stdout.decode()], capture_output=True)
        assert parsed.returncode == 0, parsed.stderr


def test_completion_completes_commands(workdir):
    env = os.environ | {"_TOKENJUICE_COMPLETE": "bash_complete", "COMP_WORDS": "tokenjuice ver", "COMP_CWORD": "1"}
    done = subprocess.run([sys.executable, "-m", "tokenjuice"], env=env, capture_output=True)
    assert b"plain,verify" in done.stdout


def test_example_append_creates_a_rule_that_verify_accepts(workdir):
    (workdir / ".git").mkdir()
    rule = workdir / ".tokenjuice" / "rules" / "custom" / "greeting.toml"
    done = tokenjuice("example", "--append", str(rule), "--source", "t", "--", "sh", "-c", "printf 'hello\\n'")
    assert done.returncode == 0, done.stderr
    assert b"created" in done.stderr and tomllib.loads(rule.read_text())["match"] == {"argv0": ["printf"]}
    done = tokenjuice("verify", "--fixtures", "--only", "custom/")
    assert done.returncode == 0, done.stderr
    assert b"1/1 examples passed" in done.stdout


def test_schema_rule_is_the_published_schema(workdir):
    from tokenjuice.rules.schema import json_schema

    done = tokenjuice("schema", "rule")
    assert json.loads(done.stdout) == json_schema()
    published = json.loads((REPO / "docs" / "rule.schema.json").read_text())
    assert published == json_schema(), "docs/rule.schema.json is stale: python -m tokenjuice.docs"


def test_every_builtin_rule_file_validates_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from tokenjuice.rules.schema import json_schema

    validator = jsonschema.Draft202012Validator(json_schema())
    files = sorted((REPO / "reducers").rglob("*.toml"))
    assert files
    for path in files:
        errors = [e.message for e in validator.iter_errors(tomllib.loads(path.read_text()))]
        assert not errors, (path, errors[:3])
    bad = {"family": "x", "match": {"argv0": "git"}, "colour": 1}
    assert len(list(validator.iter_errors(bad))) == 2


def test_the_rules_doc_field_reference_is_generated():
    from tokenjuice.rules.schema import fields_markdown

    text = (REPO / "docs" / "rules.md").read_text()
    start, end = "<!-- fields:start -->\n", "<!-- fields:end -->"
    assert start in text and end in text
    assert text.split(start)[1].split(end)[0] == fields_markdown(), (
        "docs/rules.md's field reference is stale: python -m tokenjuice.docs"
    )


def test_the_state_doc_settings_table_is_generated():
    from tokenjuice.docs import SETTINGS_END, SETTINGS_START, settings_markdown

    text = (REPO / "docs" / "state.md").read_text()
    assert SETTINGS_START in text and SETTINGS_END in text
    assert text.split(SETTINGS_START)[1].split(SETTINGS_END)[0] == settings_markdown(), (
        "docs/state.md's settings table is stale: python -m tokenjuice.docs"
    )


def test_reduce_json_takes_any_output_text(workdir):
    for output in ("a\u0000b\n" * 200, "lone \udc80 surrogate\n" * 200, "\ud83d broken pair\n"):
        payload = json.dumps({"toolName": "exec", "command": "tool", "combinedText": output})
        done = tokenjuice("reduce-json", input=payload)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout.decode("utf-8"))  # valid UTF-8, valid JSON
        assert result["stats"]["rawChars"] == len(output)
    done = tokenjuice("reduce-json", input=json.dumps({"toolName": "exec", "stdout": 5}))
    assert done.returncode == 2 and "stdout must be a string" in json.loads(done.stdout)["error"]["message"]
