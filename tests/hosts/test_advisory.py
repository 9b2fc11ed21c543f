"""Windsurf and Cline: advisory rule files (a file of our own, or a marked block
in Windsurf's single global rules file), byte-identical round trips, doctor."""

import json
import sys

import pytest
from conftest import git, tokenjuice

from tokenjuice.hosts import advisory, ownfile

LAUNCHER = f"{sys.executable} -m tokenjuice"


def test_the_hook_is_meaningless_and_neutral(workdir):
    for host in ("windsurf", "cline"):
        done = tokenjuice("hook", host, input=json.dumps({"tool_input": {"command": "git status"}}))
        assert done.returncode == 0 and json.loads(done.stdout) == {}
        assert advisory.Windsurf().call({"command": "ls"}) is None


def test_windsurf_global_block_round_trip_is_byte_identical(workdir, isolated_home):
    path = isolated_home / ".codeium" / "windsurf" / "memories" / "global_rules.md"
    path.parent.mkdir(parents=True)
    original = b"# mine\r\n- keep \xc3\xa9 exactly"  # CRLF, no final newline
    path.write_bytes(original)
    done = tokenjuice("install", "windsurf", "--local")
    assert done.returncode == 0 and b"installed the Windsurf rule" in done.stdout
    text = path.read_bytes().decode()
    assert text.startswith("# mine\r\n- keep é exactly\n\n<!-- tokenjuice:begin") and f"{LAUNCHER} wrap --" in text
    assert b"already up to date" in tokenjuice("install", "windsurf", "--local").stdout
    result = json.loads(tokenjuice("doctor", "windsurf", "--local", "--deep", "--format", "json").stdout)
    assert result["advisory"] and result["status"] in ("ok", "warn") and result["deep"]["ok"], result
    assert tokenjuice("uninstall", "windsurf").returncode == 0
    assert path.read_bytes() == original


def test_windsurf_block_after_the_user_edited_the_file(workdir, isolated_home):
    path = isolated_home / ".codeium" / "windsurf" / "memories" / "global_rules.md"
    path.parent.mkdir(parents=True)
    path.write_text("# mine\n")
    tokenjuice("install", "windsurf", "--local")
    path.write_text("# mine, edited\n" + path.read_text().split("\n", 1)[1] + "- added later\n")
    assert tokenjuice("uninstall", "windsurf").returncode == 0
    assert path.read_text() == "# mine, edited\n\n- added later\n"
    assert b"nothing to remove" in tokenjuice("uninstall", "windsurf").stdout


def test_a_broken_block_is_never_edited(workdir, isolated_home):
    path = isolated_home / ".codeium" / "windsurf" / "memories" / "global_rules.md"
    path.parent.mkdir(parents=True)
    broken = ownfile.BEGIN.format(host="windsurf") + "\nhalf a block\n"
    path.write_text(broken)
    for command in (("install", "windsurf", "--local"), ("uninstall", "windsurf")):
        done = tokenjuice(*command)
        assert done.returncode == 2 and b"broken" in done.stderr
    assert path.read_text() == broken


@pytest.mark.parametrize(
    "host, relative",
    [("windsurf", ".windsurf/rules/tokenjuice.md"), ("cline", ".clinerules/tokenjuice.md")],
)
def test_project_rule_files_of_our_own(tmp_path, host, relative):
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    assert tokenjuice("install", host, "--project", "--local", cwd=repo).returncode == 0
    text = (repo / relative).read_text()
    assert ownfile.has_marker(text) and "wrap --" in text
    if host == "windsurf":
        assert text.startswith("---\ntrigger: always_on\n---\n")
    assert tokenjuice("uninstall", host, "--project", cwd=repo).returncode == 0
    assert not (repo / relative).exists()


def test_cline_global_file_and_refusals(workdir, isolated_home):
    path = isolated_home / "Documents" / "Cline" / "Rules" / "tokenjuice.md"
    assert tokenjuice("install", "cline", "--local").returncode == 0
    result = json.loads(tokenjuice("doctor", "cline", "--local", "--deep", "--format", "json").stdout)
    assert result["advisory"] and result["deep"]["ok"]
    path.write_text(path.read_text() + "my addition\n")
    done = tokenjuice("uninstall", "cline")
    assert done.returncode == 2 and b"changed since tokenjuice wrote it" in done.stderr and path.exists()
    path.write_text("# my own rule\n")
    assert b"nothing to remove" in tokenjuice("uninstall", "cline").stdout
    done = tokenjuice("install", "cline", "--local")
    assert done.returncode == 2 and b"not written by tokenjuice" in done.stderr


def test_a_single_clinerules_file_is_refused(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    (repo / ".clinerules").write_text("rules\n")
    done = tokenjuice("install", "cline", "--project", "--local", cwd=repo)
    assert done.returncode == 2 and b"single rules file" in done.stderr


def test_install_lists_the_advisory_hosts(workdir):
    out = tokenjuice("install").stdout.decode()
    assert "install adds our rule to" in out and "copilot" in out and "opencode" in out
