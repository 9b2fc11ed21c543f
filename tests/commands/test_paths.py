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


def test_purge_needs_all_and_keeps_a_moved_data_folder_that_is_not_ours_by_name(workdir, tmp_path):
    assert tokenjuice("uninstall", "cursor", "--purge").returncode == 2
    moved = tmp_path / "mine"
    moved.mkdir()
    (moved / "notes.txt").write_text("keep me")
    env = os.environ | {"TOKENJUICE_HOME": str(moved)}
    assert tokenjuice("wrap", "--", "seq", "1", "3000", env=env).returncode == 0
    assert tokenjuice("uninstall", "--all", "--purge", env=env).returncode == 0
    assert sorted(p.name for p in moved.iterdir()) == ["notes.txt"]  # only tokenjuice's own files went
