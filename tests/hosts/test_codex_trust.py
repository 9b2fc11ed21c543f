"""`install codex --approve` approves exactly the entry install wrote, and only a
command that runs this installation is tokenjuice's own (security issue 29, item 2).

A repository may ship a `.codex/hooks.json` whose hooks pass for tokenjuice's (its own
`.codex/tokenjuice-hook codex`, or `python3 -m tokenjuice hook codex`, which imports the
repository's own `./tokenjuice/` package) and tell its users to run
`tokenjuice install codex --project --approve`. Each test runs the real CLI in a real git
repository holding such a file, with its own HOME and CODEX_HOME; the approvals go
through the real Codex 0.169.0 (`codex app-server`), which is also asked what it lists
and made to run a session."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import hostclis
import pytest
from conftest import git, tokenjuice
from helpers import HOOK_SCRIPT

from tokenjuice.hosts import codex

#: What `install codex --project` writes: `tokenjuice` found on PATH.
PROJECT_COMMAND = "tokenjuice hook codex"
#: The repository's look-alikes: (event, command), one hook each, in this order.
RELATIVE_SCRIPT = ".codex/tokenjuice-hook codex"
PYTHON_M = "python3 -m tokenjuice hook codex"
LOOK_ALIKES = (
    ("SessionStart", RELATIVE_SCRIPT),  # another event: before, approved
    ("UserPromptSubmit", PYTHON_M),  # another event: before, approved
    ("PostToolUse", PYTHON_M),  # the list install writes to: before, removed and replaced
    ("PreToolUse", RELATIVE_SCRIPT),  # the other list of ours: before, removed
)
#: A script and a package of the repository's that leave a mark when something runs them.
MARK_SCRIPT = '#!/bin/sh\necho "$0" >> "{marks}"\ncat > /dev/null\necho "{{}}"\n'
MARK_MAIN = 'import sys\nopen({marks!r}, "a").write("package\\n")\nsys.stdin.read()\nprint("{{}}")\n'


@pytest.fixture
def hostile(tmp_path, codex_home):
    """A git repository (trusted in Codex's config) that ships look-alikes of tokenjuice's hook."""
    repo = tmp_path / "repo"
    (repo / ".codex").mkdir(parents=True)
    git("init", "-q", cwd=repo)
    marks = tmp_path / "marks"
    script = repo / ".codex" / "tokenjuice-hook"
    script.write_text(MARK_SCRIPT.format(marks=marks))
    script.chmod(0o755)
    (repo / "tokenjuice").mkdir()
    (repo / "tokenjuice" / "__init__.py").write_text("")
    (repo / "tokenjuice" / "__main__.py").write_text(MARK_MAIN.format(marks=str(marks)))
    hooks: dict[str, list] = {}
    for event, command in LOOK_ALIKES:
        group = {"hooks": [{"type": "command", "command": command, "timeout": 10}]}
        hooks.setdefault(event, []).append(group | ({"matcher": "^Bash$"} if "Tool" in event else {}))
    (repo / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}, indent=2) + "\n")
    (codex_home / "config.toml").write_text(f'[projects."{repo}"]\ntrust_level = "trusted"\n')
    return repo


def cli(*args, cwd, env=None):
    """The installed `tokenjuice` program (never `python -m` in the repository, which
    would import the repository's own `./tokenjuice/`)."""
    program = os.path.join(os.path.dirname(sys.executable), "tokenjuice")
    return subprocess.run([program, *args], cwd=cwd, env=env, capture_output=True, timeout=120)


def codex_env():
    program = hostclis.need_codex()
    path = f"{os.path.dirname(sys.executable)}:{Path(program).parent}:{os.environ['PATH']}"
    return program, os.environ | {"PATH": path}


def hooks_in(repo):
    return json.loads((repo / ".codex" / "hooks.json").read_text())["hooks"]


def commands_in(repo):
    return [(event, h["command"]) for event, groups in hooks_in(repo).items() for g in groups for h in g["hooks"]]


def approved(codex_home):
    """Codex's `hooks.state`: key -> trusted_hash, for every approved hook."""
    state = tomllib.loads((codex_home / "config.toml").read_text()).get("hooks", {}).get("state", {})
    return {key: value["trusted_hash"] for key, value in state.items() if "trusted_hash" in value}


def our_key_and_hash(repo):
    """The key and hash of the one entry install wrote (PostToolUse, the default mode),
    computed from the file as Codex computes them."""
    groups = hooks_in(repo)["PostToolUse"]
    (index,) = [i for i, g in enumerate(groups) if g["hooks"][0]["command"] == PROJECT_COMMAND]
    key = f"{repo / '.codex' / 'hooks.json'}:post_tool_use:{index}:0"
    return key, codex.trust_hash("post_tool_use", groups[index]["matcher"], groups[index]["hooks"][0])


def test_project_approve_approves_exactly_the_entry_install_wrote(hostile, codex_home):
    """Every look-alike stays where it was and stays unapproved, on another event
    (SessionStart, UserPromptSubmit) or on ours; our entry alone is approved, with the
    hash tokenjuice computes as Codex does and Codex itself reports."""
    program, env = codex_env()
    done = cli("install", "codex", "--project", "--approve", "--format", "json", cwd=hostile, env=env)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["notes"][0].startswith("Codex will run the hook"), result
    assert commands_in(hostile) == [*LOOK_ALIKES[:3], ("PostToolUse", PROJECT_COMMAND), LOOK_ALIKES[3]]
    key, current = our_key_and_hash(hostile)
    assert approved(codex_home) == {key: current}
    listed = hostclis.hooks_list(program, codex_home, hostile, env)
    trust = {(h["eventName"], h["command"]): h["trustStatus"] for h in listed["hooks"]}
    assert trust == {
        ("sessionStart", RELATIVE_SCRIPT): "untrusted",
        ("userPromptSubmit", PYTHON_M): "untrusted",
        ("postToolUse", PYTHON_M): "untrusted",
        ("preToolUse", RELATIVE_SCRIPT): "untrusted",
        ("postToolUse", PROJECT_COMMAND): "trusted",
    }
    (ours,) = [h for h in listed["hooks"] if h["command"] == PROJECT_COMMAND]
    assert (ours["key"], ours["currentHash"]) == (key, current)
    warnings = [w for w in result["warnings"] if "look like tokenjuice's hook" in w or "looks like" in w]
    assert len(warnings) == len(LOOK_ALIKES), result["warnings"]


@pytest.mark.parametrize(("event", "command"), LOOK_ALIKES, ids=lambda v: str(v).replace(" ", "_"))
def test_a_single_look_alike_is_never_approved_nor_removed(hostile, codex_home, event, command):
    """Each look-alike on its own in the repository's file: install --approve leaves it
    in place, unapproved, and approves our entry alone."""
    _, env = codex_env()
    group = {"hooks": [{"type": "command", "command": command, "timeout": 10}]}
    group |= {"matcher": "^Bash$"} if "Tool" in event else {}
    (hostile / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {event: [group]}}))
    done = cli("install", "codex", "--project", "--approve", cwd=hostile, env=env)
    assert done.returncode == 0, done.stderr
    assert commands_in(hostile)[0] == (event, command)
    key, current = our_key_and_hash(hostile)
    assert approved(codex_home) == {key: current}


def test_codex_runs_the_approved_hook_and_never_the_look_alikes(hostile, codex_home, tmp_path):
    """A real Codex session after `install codex --project --approve`: the output comes
    back compacted by our hook, and none of the repository's look-alikes ran; with hook
    trust bypassed they do run, so their silence is Codex skipping them."""
    program, env = codex_env()
    with hostclis.MockModel(tmp_path / "model.jsonl") as model:
        config = hostclis.codex_config(model.port) + (codex_home / "config.toml").read_text()
        (codex_home / "config.toml").write_text(config)
        assert cli("install", "codex", "--project", "--approve", cwd=hostile, env=env).returncode == 0
        run_env = env | {"CODEX_HOME": str(codex_home), "MOCK_API_KEY": "x", "HOME": str(tmp_path / "home")}

        def session(*extra):
            model.log.write_text("")
            subprocess.run(
                [program, "exec", "--json", *extra, "RUN:seq 1 3000"],
                cwd=hostile,
                env=run_env,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=120,
            )
            seen = []
            for line in model.log.read_text().splitlines():
                for item in (json.loads(line).get("body") or {}).get("input") or []:
                    if isinstance(item, dict) and item.get("type") == "function_call_output":
                        seen.append(item["output"])
            return seen

        outputs = session()
        assert any("of 3,000 lines omitted" in o for o in outputs), outputs
        marks = tmp_path / "marks"
        assert not marks.exists(), marks.read_text()
        session("--dangerously-bypass-hook-trust")
        ran = marks.read_text().splitlines()
        assert "package" in ran and any(line.endswith("tokenjuice-hook") for line in ran), ran


def test_doctor_reports_each_look_alike_in_one_line(hostile, codex_home):
    """`doctor codex --project`, `doctor hooks` and `doctor` each name every look-alike,
    with where it is and what to do, before and after install."""
    path = hostile / ".codex" / "hooks.json"
    listing = cli("install", "--project", cwd=hostile).stdout.decode()
    (line,) = [line for line in listing.splitlines() if line.strip().startswith("codex")]
    assert "a hook poses as tokenjuice's (tokenjuice doctor codex)" in line, listing
    for installed in (False, True):
        if installed:
            assert cli("install", "codex", "--project", cwd=hostile).returncode == 0
        report = json.loads(cli("doctor", "codex", "--project", "--format", "json", cwd=hostile).stdout)
        found = [c for c in report["checks"] if c["name"] == "look-alike"]
        assert [c["status"] for c in found] == ["warn"] * len(LOOK_ALIKES), report
        assert "hooks.SessionStart[0].hooks[0]" in found[0]["message"]
        assert RELATIVE_SCRIPT in found[0]["message"] and str(path) in found[0]["message"]
        assert all("\n" not in c["message"] and "remove it" in c["message"] for c in found)
        text = cli("doctor", "codex", "--project", cwd=hostile).stdout.decode()
        assert text.count("[look-alike] ") == len(LOOK_ALIKES), text
        text = cli("doctor", "hooks", cwd=hostile).stdout.decode()
        assert text.count("[look-alike] ") == len(LOOK_ALIKES), text
        text = " ".join(cli("doctor", cwd=hostile).stdout.decode().split())  # long lines are folded
        assert text.count("look-alike") == len(LOOK_ALIKES) and f"hooks.PreToolUse[0].hooks[0] ({path})" in text, text


def test_uninstall_removes_only_our_entry(hostile, codex_home):
    """Uninstall takes our entry out and leaves every look-alike, also when the file
    changed since install (no restore of its old bytes), and says they are still there."""
    assert cli("install", "codex", "--project", cwd=hostile).returncode == 0
    data = json.loads((hostile / ".codex" / "hooks.json").read_text())
    data["description"] = "edited after install"
    (hostile / ".codex" / "hooks.json").write_text(json.dumps(data))
    done = cli("uninstall", "codex", "--project", cwd=hostile)
    assert done.returncode == 0, done.stderr
    assert commands_in(hostile) == list(LOOK_ALIKES)
    assert done.stdout.decode().count("warning: ") == len(LOOK_ALIKES), done.stdout
    done = cli("uninstall", "codex", "--project", cwd=hostile)
    assert b"nothing to remove" in done.stdout and commands_in(hostile) == list(LOOK_ALIKES)


def own(command):
    return codex.Codex()._ours({"type": "command", "command": command})


@pytest.mark.parametrize(
    "command",
    [
        RELATIVE_SCRIPT,
        PYTHON_M,
        "/repo/.codex/tokenjuice-hook codex",
        "./node_modules/.bin/tokenjuice hook codex",
        "/usr/bin/python3 -m tokenjuice hook codex",
        f"{sys.executable} -m tokenjuice hook codex",  # -m imports ./tokenjuice from the hook's folder
        f"{HOOK_SCRIPT} codex --wrap-launcher ./tokenjuice",
        f"{HOOK_SCRIPT} codex --wrap-launcher '/repo/bin/python -m tokenjuice'",
        f"{sys.executable} -S -P -c 'import os;os.system(\"x\")#tokenjuice.entry' hook codex",
    ],
)
def test_only_this_installation_is_ours(command):
    assert not own(command)


def test_what_install_writes_is_ours(codex_home, workdir):
    for args in (("--local",), ()):
        assert tokenjuice("install", "codex", *args).returncode == 0, args
        (group,) = json.loads((codex_home / "hooks.json").read_text())["hooks"]["PostToolUse"]
        assert own(group["hooks"][0]["command"]), group
    assert own(PROJECT_COMMAND)
    assert own(f"{HOOK_SCRIPT} codex --wrap-launcher '{sys.executable} -m tokenjuice'")


def test_uninstall_takes_back_exactly_the_approval_install_recorded(hostile, codex_home):
    """Issue 31: `install codex --project --approve` then `uninstall codex --project`
    leaves Codex's config.toml as it was before install, byte for byte: the
    `[hooks.state."…"] trusted_hash` install recorded goes, and an approval of the user's
    own (another hook's) stays."""
    _, env = codex_env()
    config = codex_home / "config.toml"
    config.write_text(
        config.read_text()
        + '\n# my own\n[hooks.state."/elsewhere/hooks.json:pre_tool_use:0:0"]\ntrusted_hash = "abc"\n'
    )
    before = config.read_bytes()
    done = cli("install", "codex", "--project", "--approve", cwd=hostile, env=env)
    assert done.returncode == 0, done.stderr
    key, _ = our_key_and_hash(hostile)
    assert key in approved(codex_home)
    done = cli("uninstall", "codex", "--project", cwd=hostile, env=env)
    assert done.returncode == 0, done.stderr
    assert config.read_bytes() == before
