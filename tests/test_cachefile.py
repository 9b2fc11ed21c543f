"""files/cachefile.py and files/cacheprune.py: a cache folder does not grow with every
upgrade and rule edit. A new entry prunes its folder of entries nobody wrote for
STALE_DAYS and of temporary files a killed write left; nothing else in the folder is
touched. No test reads the clock: files are dated far in the past or the future, or
pruned at a given `now`."""

import os

from tokenjuice import paths
from tokenjuice.files import cachefile, cacheprune

DAY = 86400
LONG_AGO = 2 * DAY  # 1970: stale whatever today is
FAR_AHEAD = 4_102_444_800  # 2100: fresh whatever today is


def dated(path, when):
    os.utime(path, (when, when), follow_symlinks=False)


def test_a_new_entry_prunes_stale_entries_and_stray_temporaries_and_leaves_the_rest():
    old = cachefile.stem("sieve", ["old patterns"]) + ".json"
    recent = cachefile.stem("sieve", ["recent patterns"]) + ".json"
    cachefile.write(old, {"facts": 1})
    cachefile.write(recent, {"facts": 2})
    folder = os.path.dirname(old)
    dated(old, LONG_AGO)
    dated(recent, FAR_AHEAD)
    stray_temporary = os.path.join(folder, os.path.basename(old) + ".4242.tmp")
    fresh_temporary = os.path.join(folder, os.path.basename(old) + ".4243.tmp")
    for temporary in (stray_temporary, fresh_temporary):
        with open(temporary, "w") as handle:
            handle.write("{")
    dated(stray_temporary, LONG_AGO)
    dated(fresh_temporary, FAR_AHEAD)
    not_ours = os.path.join(folder, "notes.txt")  # not an entry's name: left alone, however old
    with open(not_ours, "w") as handle:
        handle.write("mine")
    dated(not_ours, LONG_AGO)
    target = os.path.join(folder, "0badc0de.json")
    with open(os.path.join(folder, "elsewhere.json"), "w") as handle:
        handle.write("{}")
    os.symlink(os.path.join(folder, "elsewhere.json"), target)  # a link is never followed nor removed
    dated(target, LONG_AGO)

    new = cachefile.stem("sieve", ["new patterns"]) + ".json"
    cachefile.write(new, {"facts": 3})

    left = set(os.listdir(folder))
    assert os.path.basename(old) not in left and os.path.basename(stray_temporary) not in left
    assert {os.path.basename(p) for p in (recent, new, fresh_temporary, not_ours, target)} <= left
    assert cachefile.read(new) == {"facts": 3} and cachefile.read(recent) == {"facts": 2}


def test_entries_go_once_stale_days_have_passed_and_temporaries_once_an_hour_has():
    folder = os.path.dirname(cachefile.stem("settings", "x"))
    now = 1_000 * DAY
    ages = {
        "0000000a.json": cacheprune.STALE_DAYS * DAY - 1,
        "0000000b.json": cacheprune.STALE_DAYS * DAY + 1,
        "0000000c.json.7.tmp": 3600 - 1,
        "0000000d.json.7.tmp": 3600 + 1,
    }
    cachefile.write(os.path.join(folder, "00000001.json"), {})  # the folder, made as a write makes it
    for name, age in ages.items():
        with open(os.path.join(folder, name), "w") as handle:
            handle.write("{}")
        dated(os.path.join(folder, name), now - age)
    assert cacheprune.prune(folder, now=now) == 2
    assert {"0000000a.json", "0000000c.json.7.tmp"} <= set(os.listdir(folder))
    assert not {"0000000b.json", "0000000d.json.7.tmp"} & set(os.listdir(folder))


def test_rewriting_an_entry_prunes_nothing():
    """Only a new entry (a cache miss for a new key) looks at its folder: an entry
    rebuilt in place (a settings file edited) costs no listing."""
    old = cachefile.stem("settings", "a") + ".json"
    kept = cachefile.stem("settings", "b") + ".json"
    cachefile.write(old, {"v": 1})
    cachefile.write(kept, {"v": 1})
    dated(old, LONG_AGO)
    cachefile.write(kept, {"v": 2})
    assert os.path.exists(old)
    cachefile.write(cachefile.stem("settings", "c") + ".json", {"v": 1})
    assert not os.path.exists(old)


def test_a_folder_another_user_could_replace_is_never_pruned(monkeypatch):
    entry = cachefile.stem("index", ["x"]) + ".json"
    cachefile.write(entry, {"v": 1})
    dated(entry, LONG_AGO)
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
