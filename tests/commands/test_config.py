"""`tokenjuice config` (tokenjuice.commands.config): set, get, unset, list."""

import json
import stat

import pytest
from conftest import tokenjuice


def test_config_set_get_unset_keeps_unrelated_keys(home, isolated_home):
    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text('[cursor]\nskip = ["make deploy*"]\n\n[custom]\nmine = 1\n')
    path.chmod(0o640)
    assert tokenjuice("config", "set", "artifacts.mode", "always").returncode == 0
    assert stat.S_IMODE(path.stat().st_mode) == 0o640  # replaced atomically, with the file's own mode
    assert sorted(p.name for p in path.parent.iterdir()) == ["config.toml", "config.toml.bak"]
    assert tokenjuice("config", "get", "artifacts.mode").stdout == b"always\n"
    assert tokenjuice("config", "get", "artifacts.mode", "--json").stdout == b'"always"\n'
    assert tokenjuice("config", "set", "hook.skip", "a*, b *").returncode == 0
    assert tokenjuice("config", "get", "hook.skip").stdout == b"a*, b *\n"
    assert json.loads(tokenjuice("config", "get", "hook.skip", "--format", "json").stdout) == ["a*", "b *"]
    assert tokenjuice("config", "unset", "artifacts.mode").returncode == 0
    assert "custom" in path.read_text() and "mine = 1" in path.read_text()
    listing = json.loads(tokenjuice("config", "list", "--format", "json").stdout)
    assert {s["key"]: s["origin"] for s in listing["settings"]}["hook.skip"] == f"user:{path}"
    assert any("unknown setting custom.mine" in w for w in listing["warnings"])


@pytest.mark.parametrize(
    "args, message",
    [
        (("set", "nope.key", "1"), b"unknown setting nope.key"),
        (("set", "stats.enabled", "maybe"), b"takes true or false"),
        (("set", "capture.max_bytes", "lots"), b"takes a whole number"),
        (("set", "artifacts.mode", "sometimes"), b"must be one of cut, always, never"),
        (("get", "x.y"), b"unknown setting x.y"),
    ],
)
def test_config_errors_are_one_sentence(home, args, message):
    done = tokenjuice("config", *args)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1


def test_every_config_command_shows_what_is_wrong_with_the_settings(home, isolated_home):
    """Issue 31: a broken config file (or a folder in its place) is named on stderr by
    every config subcommand, and `config get` of a key the broken file sets says that
    the value shown is not the file's."""
    path = isolated_home / ".config" / "tokenjuice" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text("[output]\nmax_chars = 50000\n[broken\n")
    for args in (
        ("config", "list"),
        ("config", "list", "--json"),
        ("config", "get", "artifacts.mode"),
        ("config", "get", "output.max_chars", "--json"),
        ("config", "unset", "artifacts.mode"),
        ("config", "set", "artifacts.mode", "always"),
    ):
        done = tokenjuice(*args)
        assert f"warning: {path}: ignored, it is not readable TOML" in done.stderr.decode(), args
    got = tokenjuice("config", "get", "output.max_chars")
    assert got.stdout == b"6000\n"
    assert f"{path} sets output.max_chars, but the file is ignored" in got.stderr.decode()
    assert "the value shown is the default" in got.stderr.decode()
    assert "sets artifacts.mode" not in tokenjuice("config", "get", "artifacts.mode").stderr.decode()
    path.unlink()
    path.mkdir()  # a folder where the file should be
    listed = tokenjuice("config", "list")
    assert f"warning: {path}: ignored, it is not a file" in listed.stderr.decode()
    assert f"{path}: ignored, it is not a file" in tokenjuice("wrap", "--", "echo", "hi").stderr.decode()
