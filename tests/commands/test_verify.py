"""`tokenjuice verify` (tokenjuice.commands.verify): the catalogue's layers and examples."""

import json

from conftest import make_rule, tokenjuice
from helpers import MINIMAL


def test_verify_json(workdir):
    done = tokenjuice("verify", "--format", "json", "--only", "git/status", "--fixtures")
    data = json.loads(done.stdout)
    assert {"ok", "rules", "problems", "examples"} <= set(data)
    assert all(e["ruleId"] == "git/status" for e in data["examples"]) and data["examples"]


def test_verify_reports_broken_layers_and_fails(repo):
    make_rule(repo / ".tokenjuice" / "rules", "demo/bad", 'family = "x"\n[match]\nargv0 = "git"\n')
    done = tokenjuice("verify", cwd=repo)
    assert done.returncode == 1
    assert "demo/bad.toml:3: match.argv0: expected a list of non-empty strings" in done.stderr.decode()


def test_project_examples_run_against_the_project_catalogue(repo):
    rule = MINIMAL + ('\n[[examples]]\ncommand = "demo-tool"\nsource = "test"\noutput = "hello"\nkeep = ["hello"]\n')
    make_rule(repo / ".tokenjuice" / "rules", "demo/tool", rule)
    done = tokenjuice("verify", "--fixtures", "--only", "demo/", cwd=repo)
    assert done.returncode == 0, done.stderr
    assert b"1/1 examples passed" in done.stdout


def test_verify_fixtures_shows_its_progress_on_a_terminal_and_nothing_more_in_a_pipe(workdir):
    """Issue 31: verify --fixtures ran for seconds in silence: on a terminal a progress
    bar counts the examples (on stderr); in a pipe nothing is added."""
    import sys

    from helpers import on_a_terminal

    args = ["verify", "--fixtures", "--only", "git/"]
    code, shown = on_a_terminal([sys.executable, "-m", "tokenjuice", *args])
    assert code == 0 and "running every rule's examples" in shown and "100%" in shown, shown
    piped = tokenjuice(*args)
    assert piped.returncode == 0 and b"running every rule's examples" not in piped.stdout + piped.stderr
