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
    assert len(cache_files) == 2 and cache_files[0].endswith(".bodies")  # bodies + match index
    time.sleep(0.01)
    path.write_text(MINIMAL.replace('"demo"', '"demo-two"'))
    assert entry(index.load(str(tmp_path)), "demo/tool").family == "demo-two"
    path.unlink()
    assert entry(index.load(str(tmp_path)), "demo/tool") is None


def test_rule_bodies_are_read_on_demand_and_rebuilt_when_lost(tmp_path, isolated_home):
    index.load(str(tmp_path))
    catalogue = index.load(str(tmp_path))  # from the cache: match entries only
    assert not catalogue._built and entry(catalogue, "git/status").family == "git-status"
    bodies = next((isolated_home / ".cache" / "tokenjuice" / "index").glob("*.bodies"))
    bodies.unlink()
    assert catalogue.body("git/status").summarize.head > 0
    assert bodies.exists()  # rewritten for the next run
    bodies.write_text('{"git/status": null}')
    assert index.load(str(tmp_path)).body("git/diff").family == "git-diff"
    bodies.write_text('{"git/status": null}')
    assert index.load(str(tmp_path)).body("git/status").family == "git-status"


def test_a_rule_body_is_read_alone_from_the_bodies_file(tmp_path, isolated_home, monkeypatch):
    """Only the asked rule's JSON is parsed: another rule's broken bytes do not
    matter, and nothing is rebuilt from the rule files."""
    import json

    from tokenjuice.rules import loader

    index.load(str(tmp_path))
    bodies = next((isolated_home / ".cache" / "tokenjuice" / "index").glob("*.bodies"))
    header, _, rest = bodies.read_bytes().partition(b"\n")
    spans = json.loads(header)
    start, end = spans["git/diff"]
    bodies.write_bytes(header + b"\n" + rest[:start] + b"!" * (end - start) + rest[end:])
    monkeypatch.setattr(loader, "load_catalogue", lambda *a, **k: (_ for _ in ()).throw(AssertionError("rebuilt")))
    catalogue = index.load(str(tmp_path))
    assert catalogue.body("git/status").family == "git-status"


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


def test_the_shipped_builtin_layer_is_current():
    """tokenjuice/rules/builtin.json is what `python -m tokenjuice.rules.index` builds from reducers/."""
    import json
    from pathlib import Path

    from tokenjuice.rules import loader

    want = index.shipped(loader.builtin_root())
    have = json.loads(Path(index.SHIPPED).read_text(encoding="utf-8"))
    assert have == want, "run: python -m tokenjuice.rules.index"


def _files_read(monkeypatch):
    from tokenjuice.rules import loader

    read: list[str] = []
    real = loader.load_file

    def counting(layer, rule_id, path):
        read.append(f"{layer}:{rule_id}")
        return real(layer, rule_id, path)

    monkeypatch.setattr(loader, "load_file", counting)
    return read


def _as_built_from_files(cwd):
    from tokenjuice.rules import loader

    loaded, _problems = loader.load_catalogue(loader.layer_roots(cwd))
    return [index._rows([index.entry_of(r.rule) for r in loaded], index._bodies(loaded)), index._bodies(loaded)]


def test_a_fresh_home_builds_the_index_without_reading_a_rule_file(tmp_path, monkeypatch):
    """The first command in a fresh HOME paid ~3 s of CPU parsing the built-in rules
    and checking their patterns; the shipped layer makes it a read and a hash."""
    read = _files_read(monkeypatch)
    catalogue = index.load(str(tmp_path))
    assert read == []
    rows, bodies = _as_built_from_files(str(tmp_path))
    assert index._rows(catalogue.entries, catalogue._bodies) == rows
    assert catalogue._bodies == {rule_id: index.compact(body) for rule_id, body in bodies.items()}
    assert catalogue.body("git/status") == index.from_canonical(index.Rule, bodies["git/status"])
    assert catalogue.body("git/status").path.endswith("/git/status.toml")


def test_with_user_rules_only_their_files_are_read(tmp_path, isolated_home, monkeypatch):
    make_rule(isolated_home / ".config" / "tokenjuice" / "rules", "demo/tool", MINIMAL)
    read = _files_read(monkeypatch)
    catalogue = index.load(str(tmp_path))
    assert read == ["user:demo/tool"]
    assert entry(catalogue, "demo/tool").family == "demo" and entry(catalogue, "git/status") is not None
    rows, _ = _as_built_from_files(str(tmp_path))
    assert [r["id"] for r in index._rows(catalogue.entries, catalogue._bodies)] == [r["id"] for r in rows]


def test_an_edited_builtin_rule_is_read_from_its_file(tmp_path, monkeypatch):
    """The shipped layer is used only while the digest of the rule files is its own."""
    import shutil

    from tokenjuice.rules import loader

    root = tmp_path / "reducers"
    shutil.copytree(loader.builtin_root(), root)
    status = root / "git" / "status.toml"
    status.write_text(status.read_text().replace('family = "git-status"', 'family = "edited-status"', 1))
    monkeypatch.setattr(loader, "builtin_root", lambda: str(root))
    read = _files_read(monkeypatch)
    assert entry(index.load(str(tmp_path)), "git/status").family == "edited-status"
    assert "builtin:git/status" in read


def test_the_first_catalogue_in_a_fresh_home_parses_and_compiles_nothing():
    """What made the first command in a fresh HOME cost ~3 s of CPU (TOML parsing,
    rule validation, ~2,400 patterns compiled) is not loaded at all: counted in
    modules, not timed."""
    from helpers import modules_loaded_by

    loaded = modules_loaded_by("index.load('/')", setup="from tokenjuice.rules import index")
    assert not loaded & {"tomllib", "regex", "re", "tokenjuice.rules.schema", "tokenjuice.rules.patterns"}, loaded
