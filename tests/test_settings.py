"""Settings (tokenjuice.settings): layers, origins, the cache, old names, and a broken
config that never breaks a wrap."""

import json
import os

from conftest import tokenjuice


def test_a_broken_config_never_breaks_wrap(home, isolated_home):
    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[capture\nmax_bytes = ")
    done = tokenjuice("wrap", "--", "seq", "1", "300")
    assert done.returncode == 0 and b"300" in done.stdout
    assert b"not readable TOML" in done.stderr
    path.write_text("[capture]\nmax_bytes = -5\n[artifacts]\nmode = 3\n")
    done = tokenjuice("wrap", "--", "seq", "1", "300")
    assert done.returncode == 0 and b"capture.max_bytes must be a non-negative integer" in done.stderr
    assert tokenjuice("config", "set", "stats.enabled", "false").returncode == 0  # fixable from the CLI
    done = tokenjuice("config", "set", "stats.enabled", "false", env=os.environ)
    assert done.returncode == 0


def test_the_settings_cache_is_one_file_per_config_and_this_versions_own(home, isolated_home, workdir):
    from tokenjuice.settings import resolve

    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    for days in (3, 4, 5):
        path.write_text(f"[artifacts]\nretention_days = {days}\n")
        os.utime(path, ns=(days * 10**9, days * 10**9))
        assert resolve(str(workdir))["artifacts.retention_days"] == days
    caches = list((isolated_home / ".cache" / "tokenjuice" / "settings").iterdir())
    assert len(caches) == 1  # rewritten in place, not one file per edit
    cached = json.loads(caches[0].read_text())
    # What an older or newer tokenjuice left: another version, fewer settings.
    cached["values"] = {"artifacts.retention_days": 99}
    caches[0].write_text(json.dumps(cached | {"version": "0.0.1"}))
    assert resolve(str(workdir))["artifacts.retention_days"] == 5
    caches[0].write_text(json.dumps(cached))  # this version, but a setting it does not hold
    settings = resolve(str(workdir))
    assert settings["artifacts.retention_days"] == 99 and settings["redaction.enabled"] is True


def test_project_settings_are_laid_over_the_users_key_by_key(home, isolated_home, workdir, trust_all):
    from tokenjuice.settings import resolve

    user = isolated_home / ".config" / "tokenjuice" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[artifacts]\nmode = "always"\nretention_days = 3\n')
    project = workdir / ".tokenjuice" / "config.toml"
    project.parent.mkdir()
    project.write_text("[artifacts]\nretention_days = 2\n")
    settings = resolve(str(workdir))
    assert settings["artifacts.mode"] == "always" and settings["artifacts.retention_days"] == 2
    assert settings.origins["artifacts.mode"] == f"user:{user}"
    assert settings.origins["artifacts.retention_days"] == f"project:{project}"
    project.write_text("[artifacts]\nretention_days = 5\n")  # a project may lower a limit, never raise it
    settings = resolve(str(workdir))
    assert settings["artifacts.retention_days"] == 3
    assert any("retention_days = 5 would raise your limit (3)" in w for w in settings.warnings)
    flagged = resolve(
        str(workdir),
        flags={"artifacts.mode": ("--store", "never")},
        env={"TOKENJUICE_STATS": "off", "TOKENJUICE_CURSOR": "maybe"},
    )
    assert flagged["artifacts.mode"] == "never" and flagged.origins["artifacts.mode"] == "flag:--store"
    assert flagged["stats.enabled"] is False and flagged.origins["stats.enabled"] == "env:TOKENJUICE_STATS"
    assert flagged["hook.enabled"] is True and any("TOKENJUICE_CURSOR='maybe'" in w for w in flagged.warnings)


def test_a_project_adds_to_the_users_skips_and_never_removes_one(home, isolated_home, workdir, trust_all):
    """A repository may leave more commands alone; the commands the user's list leaves
    alone stay so (an empty list or another list in the project does not replace it)."""
    from tokenjuice.settings import resolve

    user = isolated_home / ".config" / "tokenjuice" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text('[hook]\nskip = ["make deploy*", "terraform apply*"]\n')
    project = workdir / ".tokenjuice" / "config.toml"
    project.parent.mkdir()
    project.write_text("[hook]\nskip = []\n")
    assert resolve(str(workdir))["hook.skip"] == ["make deploy*", "terraform apply*"]
    project.write_text('[hook]\nskip = ["./serve*", "make deploy*"]\n')
    assert resolve(str(workdir))["hook.skip"] == ["make deploy*", "terraform apply*", "./serve*"]


def test_settings_named_before_hooks_served_every_host_are_still_read(isolated_home, tmp_path):
    from tokenjuice.settings import resolve

    config = isolated_home / ".config" / "tokenjuice" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text('[cursor]\nskip = ["make deploy*"]\nenabled = false\n')
    settings = resolve(str(tmp_path), env={"TOKENJUICE_CURSOR_SHELL": "/bin/zsh"})
    assert settings["hook.skip"] == ["make deploy*"] and settings["hook.enabled"] is False
    assert settings["hook.shell"] == "/bin/zsh" and not settings.warnings
    done = tokenjuice("config", "set", "cursor.skip", "x")
    assert done.returncode == 2 and b"cursor.skip is now called hook.skip" in done.stderr
