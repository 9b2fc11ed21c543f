"""`tokenjuice paths` names every location tokenjuice writes, and
`uninstall --all --purge` lists them, then removes them: the HOME holds exactly
what it held before tokenjuice (real processes, real files)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import tokenjuice


def tree(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def test_paths_names_every_location_tokenjuice_writes(workdir):
    Path(os.environ["HOME"], ".cursor").mkdir()
    Path(os.environ["HOME"], ".cursor", "hooks.json").write_text('{"version": 1}\n')
    assert tokenjuice("install", "cursor", "--local").returncode == 0
    data = json.loads(tokenjuice("paths", "--format", "json").stdout)
    for name in (
        "config",
        "cache",
        "data",
        "ledger",
        "spool",
        "artifacts",
        "temp-store",
        "trust",
        "notices",
        "installs",
        "debug-log",
    ):
        assert data[name]["path"], name
    assert data["temp-store"]["path"] == os.path.join(os.environ["TMPDIR"], f"tokenjuice-{os.getuid()}")
    assert [b["path"] for b in data["backups"]] == [os.path.join(os.environ["HOME"], ".cursor", "hooks.json.bak")]
    assert data["installs"]["exists"]


def test_uninstall_all_purge_lists_then_leaves_the_home_as_it_was(workdir):
    home = Path(os.environ["HOME"])
    for folder in (".cursor", ".codex", ".copilot", ".config/opencode"):
        (home / folder).mkdir(parents=True)
    (home / ".codex" / "hooks.json").write_text('{"hooks": {}}\n')
    before = tree(home)
    assert tokenjuice("install", "--all", "--local").returncode == 0
    assert tokenjuice("config", "set", "artifacts.mode", "always").returncode == 0
    assert tokenjuice("wrap", "--", "seq", "1", "3000").returncode == 0  # ledger, spool, stored output, cache
    dry = tokenjuice("uninstall", "--all", "--purge", "--dry-run")
    assert dry.returncode == 0 and b"would remove what tokenjuice wrote" in dry.stdout
    assert tree(home) != before  # a dry run removes nothing
    done = tokenjuice("uninstall", "--all", "--purge")
    out = done.stdout.decode()
    assert done.returncode == 0, out
    assert out.index("removing what tokenjuice wrote") < out.index("purged:")
    assert os.path.join(home, ".local", "share", "tokenjuice") in out
    assert tree(home) == before


def test_purge_takes_the_backups_of_files_the_user_edited_after_install(workdir):
    """Issue 31: when the user edited a host's settings after install, uninstall takes
    out only our entry and keeps backups (install's `.bak`, its own `.bak.1`) as the way
    back; `uninstall --all --purge` then left them, the hook still inside, while saying
    it kept nothing else. Purge lists and removes every backup tokenjuice made, and a
    backup of the user's own beside it stays."""
    home = Path(os.environ["HOME"])
    files = {home / ".claude" / "settings.json": '{"theme": "dark"}\n', home / ".gemini" / "settings.json": "{}\n"}
    for path, text in files.items():
        path.parent.mkdir(parents=True)
        path.write_text(text)
    mine = home / ".claude" / "settings.json.bak"
    mine.write_text("the user's own backup\n")
    for host in ("claude-code", "gemini"):
        assert tokenjuice("install", host).returncode == 0
    for path in files:
        data = json.loads(path.read_text())
        path.write_text(json.dumps(data | {"edited": True}, indent=2) + "\n")
    made = sorted(str(p) for p in home.rglob("settings.json.bak*") if p != mine)
    assert len(made) == 2  # install's, one each (uninstall makes one more of each edited file)
    done = tokenjuice("uninstall", "--all", "--purge")
    out = done.stdout.decode()
    assert done.returncode == 0, out
    left = sorted(str(p) for p in home.rglob("settings.json.bak*"))
    assert left == [str(mine)], (left, out)
    for backup in made:
        assert backup in out
    for path in files:
        data = json.loads(path.read_text())
        assert data.get("edited") is True and "tokenjuice" not in path.read_text()


def test_purge_needs_all_and_keeps_a_moved_data_folder_that_is_not_ours_by_name(workdir, tmp_path):
    assert tokenjuice("uninstall", "cursor", "--purge").returncode == 2
    moved = tmp_path / "mine"
    moved.mkdir()
    (moved / "notes.txt").write_text("keep me")
    env = os.environ | {"TOKENJUICE_HOME": str(moved)}
    assert tokenjuice("wrap", "--", "seq", "1", "3000", env=env).returncode == 0
    assert tokenjuice("uninstall", "--all", "--purge", env=env).returncode == 0
    assert sorted(p.name for p in moved.iterdir()) == ["notes.txt"]  # only tokenjuice's own files went


def test_purge_takes_this_homes_outputs_from_the_shared_temp_store_and_geminis_copies(workdir, tmp_path):
    """Issue 29: `uninstall --all --purge` removed `$TMPDIR/tokenjuice-<uid>` whole, though
    every HOME of the user shares it (a second HOME's outputs went too), and left the
    compacted outputs the Gemini hook writes into `~/.gemini/tmp/<project>/`. Now it
    lists and removes exactly what this HOME's tokenjuice wrote, and says what it kept."""
    homes = {"mine": Path(os.environ["HOME"]), "other": tmp_path / "other-home"}
    envs = {}
    for name, home in homes.items():
        env = os.environ | {"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
        env |= {"XDG_CACHE_HOME": str(home / ".cache"), "XDG_DATA_HOME": str(home / ".local" / "share")}
        envs[name] = env
        data = home / ".local" / "share" / "tokenjuice"
        data.mkdir(parents=True)
        data.chmod(0o500)  # read-only on purpose (an agent's sandbox): outputs go to the temp store
        done = tokenjuice("wrap", "--store", "--", "seq", "1", "3000", env=env)
        assert done.returncode == 0 and b"tokenjuice cat " in done.stdout
    temp = Path(os.environ["TMPDIR"], f"tokenjuice-{os.getuid()}", "artifacts")
    stored = {p.name for p in temp.iterdir()}
    assert len({name.split(".")[0] for name in stored}) == 2
    other_id = json.loads(tokenjuice("ls", "--format", "json", env=envs["other"]).stdout)[0]["id"]

    project = homes["mine"] / ".gemini" / "tmp" / "project-hash"
    (project / "chats").mkdir(parents=True)
    (project / "chats" / "session.jsonl").write_text("{}\n")
    (project / "tokenjuice-output-notours.txt").write_text("not a name the hook writes\n")
    output = "\n".join(str(n) for n in range(1, 3001))
    payload = {
        "session_id": "s",
        "transcript_path": str(project / "chats" / "session.jsonl"),
        "cwd": str(workdir),
        "hook_event_name": "AfterTool",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "seq 1 3000"},
        "tool_response": {"llmContent": f"Output: {output}\nProcess Group PGID: 7", "returnDisplay": output},
    }
    answer = tokenjuice("hook", "gemini", input=json.dumps(payload), env=envs["mine"])
    copy = json.loads(answer.stdout)["hookSpecificOutput"]["tailToolCallRequest"]["args"]["file_path"]
    assert Path(copy).parent == project and Path(copy).is_file()

    done = tokenjuice("uninstall", "--all", "--purge", env=envs["mine"])
    out = done.stdout.decode()
    assert done.returncode == 0, out
    assert copy in out and not Path(copy).exists()
    assert sorted(p.name for p in project.iterdir()) == ["chats", "tokenjuice-output-notours.txt"]
    left = {p.name for p in temp.iterdir()}
    assert left and left < stored and {name.split(".")[0] for name in left} == {other_id}
    for name in stored - left:
        assert str(temp / name) in out  # every file that went is named
    assert f"kept: 1 output in {temp.parent}" in out
    assert tokenjuice("cat", other_id, env=envs["other"]).returncode == 0  # the other HOME's output is whole
    assert not (homes["mine"] / ".local").exists()
