"""files/cachefile.py and files/cacheprune.py: a cache folder does not grow with every upgrade and rule edit.
A new entry prunes its folder of entries nobody wrote for STALE_DAYS and of temporary
files a killed write left; nothing else in the folder is touched."""

import os
import time

from tokenjuice import paths
from tokenjuice.files import cachefile, cacheprune

DAY = 86400


def aged(path, days):
    when = time.time() - days * DAY
    os.utime(path, (when, when), follow_symlinks=False)


def test_a_new_entry_prunes_entries_not_written_for_a_month_and_leaves_the_rest():
    old = cachefile.stem("sieve", ["old patterns"]) + ".json"
    recent = cachefile.stem("sieve", ["recent patterns"]) + ".json"
    cachefile.write(old, {"facts": 1})
    cachefile.write(recent, {"facts": 2})
    folder = os.path.dirname(old)
    aged(old, cacheprune.STALE_DAYS + 1)
    aged(recent, cacheprune.STALE_DAYS - 1)
    stray_temporary = os.path.join(folder, os.path.basename(old) + ".4242.tmp")
    fresh_temporary = os.path.join(folder, os.path.basename(old) + ".4243.tmp")
    for temporary in (stray_temporary, fresh_temporary):
        with open(temporary, "w") as handle:
            handle.write("{")
    aged(stray_temporary, 1)
    not_ours = os.path.join(folder, "notes.txt")  # not an entry's name: left alone, however old
    with open(not_ours, "w") as handle:
        handle.write("mine")
    aged(not_ours, 400)
    target = os.path.join(folder, "0badc0de.json")
    with open(os.path.join(folder, "elsewhere.json"), "w") as handle:
        handle.write("{}")
    os.symlink(os.path.join(folder, "elsewhere.json"), target)  # a link is never followed nor removed
    aged(target, 400)

    new = cachefile.stem("sieve", ["new patterns"]) + ".json"
    cachefile.write(new, {"facts": 3})

    left = set(os.listdir(folder))
    assert os.path.basename(old) not in left and os.path.basename(stray_temporary) not in left
    assert {os.path.basename(p) for p in (recent, new, fresh_temporary, not_ours, target)} <= left
    assert cachefile.read(new) == {"facts": 3} and cachefile.read(recent) == {"facts": 2}


def test_rewriting_an_entry_prunes_nothing():
    """Only a new entry (a cache miss for a new key) looks at its folder: an entry
    rebuilt in place (a settings file edited) costs no listing."""
    old = cachefile.stem("settings", "a") + ".json"
    kept = cachefile.stem("settings", "b") + ".json"
    cachefile.write(old, {"v": 1})
    cachefile.write(kept, {"v": 1})
    aged(old, cacheprune.STALE_DAYS + 5)
    cachefile.write(kept, {"v": 2})
    assert os.path.exists(old)
    cachefile.write(cachefile.stem("settings", "c") + ".json", {"v": 1})
    assert not os.path.exists(old)


def test_a_folder_another_user_could_replace_is_never_pruned(monkeypatch):
    entry = cachefile.stem("index", ["x"]) + ".json"
    cachefile.write(entry, {"v": 1})
    aged(entry, 400)
    monkeypatch.setattr(paths, "secure_root", lambda root: False)
    assert cacheprune.prune(os.path.dirname(entry)) == 0
    assert os.path.exists(entry)


def test_only_entry_names_of_stems_shape_are_pruned():
    assert all(map(cacheprune._is_entry, ["265ccd62.bodies", "265ccd62.json", "265ccd62.json.123.tmp"]))
    assert not any(
        map(
            cacheprune._is_entry,
            ["x.json", "265ccd6g.json", "265ccd62.json.tmp", "265ccd62", "265ccd62.JSON", "265ccd62.json.1a.tmp"],
        )
    )
