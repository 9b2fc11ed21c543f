"""The catalogue index (tokenjuice.rules.index): cached, rebuilt when a rule file changes,
bodies read on demand, a broken cache survived."""

import time

from conftest import make_rule
from helpers import MINIMAL, entry

from tokenjuice.rules import index


def test_index_is_rebuilt_when_a_rule_file_changes(tmp_path, isolated_home):
    user_rules = isolated_home / ".config" / "tokenjuice" / "rules"
    path = make_rule(user_rules, "demo/tool", MINIMAL)
    assert entry(index.load(str(tmp_path)), "demo/tool").family == "demo"
    cache_files = sorted(p.name for p in (isolated_home / ".cache" / "tokenjuice" / "index").iterdir())
    assert len(cache_files) == 2 and cache_files[0].endswith(".bodies.json")  # bodies + match index
    time.sleep(0.01)
    path.write_text(MINIMAL.replace('"demo"', '"demo-two"'))
    assert entry(index.load(str(tmp_path)), "demo/tool").family == "demo-two"
    path.unlink()
    assert entry(index.load(str(tmp_path)), "demo/tool") is None


def test_rule_bodies_are_read_on_demand_and_rebuilt_when_lost(tmp_path, isolated_home):
    index.load(str(tmp_path))
    catalogue = index.load(str(tmp_path))  # from the cache: match entries only
    assert not catalogue._built and entry(catalogue, "git/status").family == "git-status"
    bodies = next((isolated_home / ".cache" / "tokenjuice" / "index").glob("*.bodies.json"))
    bodies.unlink()
    assert catalogue.body("git/status").summarize.head > 0
    assert bodies.exists()  # rewritten for the next run
    bodies.write_text('{"git/status": null}')
    assert index.load(str(tmp_path)).body("git/diff").family == "git-diff"
    bodies.write_text('{"git/status": null}')
    assert index.load(str(tmp_path)).body("git/status").family == "git-status"


def test_index_survives_a_corrupt_or_unwritable_cache(tmp_path, isolated_home):
    cache = isolated_home / ".cache" / "tokenjuice" / "index"
    index.load(str(tmp_path))
    for file in cache.iterdir():
        file.write_text("{not json")
    assert entry(index.load(str(tmp_path)), "git/status") is not None
    for file in cache.iterdir():
        file.unlink()
    cache.chmod(0o500)
    try:
        assert entry(index.load(str(tmp_path)), "git/status") is not None
    finally:
        cache.chmod(0o700)
