"""Exact reads of structured files too big to show (reduce/structured.py `exact_cut`),
through real `tokenjuice wrap -- cat FILE` processes on real files (tests/data/structured
says which tool made each): cut between elements, every kept element byte for byte, the
first and last ones of a cut collection kept, a marker naming each omitted range."""

import csv
import io
import json
import re
import shutil
import tomllib

import pytest
from conftest import REPO, tokenjuice

from tokenjuice.reduce.engine import EXACT_BUDGET, EXACT_LIMIT

DATA = REPO / "tests" / "data" / "structured"
MARKER = re.compile(
    r"^\.\.\. (?:(items|keys|rows|tables) (\d+)–(\d+)|(item|key|row|table) (\d+)) of (\d+)(?: in (\S+))?"
)


def read(path, *command):
    """What the agent sees of `cat path` (or `command`): the body's lines and the trailer."""
    done = tokenjuice("wrap", "--", *(command or ("cat",)), str(path))
    shown = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert len(shown) <= EXACT_BUDGET  # the budget of an exact read too big to show
    lines = shown.rstrip("\n").split("\n")
    assert lines[-1].startswith("(tokenjuice: ") and "full output: tokenjuice cat " in lines[-1]
    return lines[:-1], lines[-1]


def markers(lines):
    return [line for line in lines if line.startswith("... ") and line.endswith(" omitted ...")]


def without_markers(lines):
    return [line for line in lines if line not in markers(lines)]


def span(marker):
    """(first, last, total, path) of the 1-based range a marker names."""
    found = MARKER.match(marker)
    assert found, marker
    first = int(found.group(2) or found.group(5))
    last = int(found.group(3) or found.group(5))
    return first, last, int(found.group(6)), found.group(7)


def assert_lines_of(lines, source, commas=False):
    """Every shown line is a line of the file, byte for byte (a JSON element shown last
    before a marker or a closing bracket loses the comma that followed it)."""
    originals = set(source.split("\n"))
    for line in without_markers(lines):
        assert line in originals or (commas and line + "," in originals), line


@pytest.fixture
def lock(tmp_path):
    path = tmp_path / "package-lock.json"
    shutil.copy(DATA / "package-lock.json", path)
    return path


def test_a_package_lock_is_cut_between_packages_and_stays_json(lock):
    source = lock.read_text()
    assert len(source) > EXACT_LIMIT
    lines, trailer = read(lock)
    assert_lines_of(lines, source, commas=True)
    shown = json.loads("\n".join(without_markers(lines)))  # valid JSON but for the markers
    whole = json.loads(source)
    # every top-level key, in order, and the brackets that close them
    assert list(shown) == list(whole) and lines[-1] == "}" and lines[-2] == "  }"
    for key in ("name", "version", "lockfileVersion", "requires"):
        assert shown[key] == whole[key]
    [marker] = markers(lines)
    first, last, total, path = span(marker)
    names = list(whole["packages"])
    assert (total, path) == (len(names), ".packages")
    assert f'("{names[first - 1]}" to "{names[last - 1]}")' in marker
    # the first and the last packages, whole, around the range the marker names
    assert list(shown["packages"]) == names[: first - 1] + names[last:]
    assert all(shown["packages"][name] == whole["packages"][name] for name in shown["packages"])
    assert names[0] in shown["packages"] and names[-1] in shown["packages"]
    assert "lines omitted" in trailer


def test_a_one_line_document_is_cut_inside_its_line(tmp_path):
    whole = json.loads((DATA / "package-lock.json").read_text())
    path = tmp_path / "lock.min.json"
    path.write_text(json.dumps(whole, separators=(",", ":")))
    source = path.read_text()
    lines, trailer = read(path)
    assert all(line in source for line in without_markers(lines))  # pieces of the one line
    shown = json.loads("".join(without_markers(lines)))
    [marker] = markers(lines)
    first, last, total, path_ = span(marker)
    assert (total, path_) == (len(whole["packages"]), ".packages")
    assert list(shown["packages"]) == list(whole["packages"])[: first - 1] + list(whole["packages"])[last:]
    assert "long line clipped" in trailer


def test_an_array_keeps_its_first_and_last_items_whole(tmp_path):
    whole = json.loads((DATA / "package-lock.json").read_text())
    items = [{"name": name} | package for name, package in whole["packages"].items()]
    path = tmp_path / "packages.json"
    path.write_text(json.dumps(items, indent=2) + "\n")
    lines, _ = read(path)
    assert_lines_of(lines, path.read_text(), commas=True)
    shown = json.loads("\n".join(without_markers(lines)))
    [marker] = markers(lines)
    first, last, total, where = span(marker)
    assert marker.startswith("... items ") and (total, where) == (len(items), None)
    assert shown == items[: first - 1] + items[last:]
    assert shown[0] == items[0] and shown[-1] == items[-1] and lines[-1] == "]"


def test_an_element_too_big_for_the_room_is_cut_inside_at_the_deepest_level(tmp_path):
    whole = json.loads((DATA / "package-lock.json").read_text())
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"before": whole, "after": whole}, indent=2))
    lines, _ = read(path)
    shown = json.loads("\n".join(without_markers(lines)))
    assert list(shown) == ["before", "after"]  # both halves, each cut inside its packages
    assert [span(m)[3] for m in markers(lines)] == [".before.packages", ".after.packages"]
    assert shown["after"]["lockfileVersion"] == 3


def test_a_pnpm_lock_is_cut_between_its_packages_by_indentation(tmp_path):
    path = tmp_path / "pnpm-lock.yaml"
    shutil.copy(DATA / "pnpm-lock.yaml", path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)
    top = [line.split(":")[0] for line in source.split("\n") if line[:1].isalpha()]
    assert [line.split(":")[0] for line in without_markers(lines) if line[:1].isalpha()] == top
    paths = [span(marker)[3] for marker in markers(lines)]
    assert paths == [".packages", ".snapshots"]
    packages = [line for line in source.split("\n") if re.match(r"^  \S.*:$", line)]
    assert packages[0] in lines and packages[-1] in lines  # the first and the last entries


def test_a_uv_lock_is_cut_between_its_package_tables_and_stays_toml(tmp_path):
    path = tmp_path / "uv.lock"
    shutil.copy(DATA / "uv.lock", path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)
    shown = tomllib.loads("\n".join(without_markers(lines)))
    whole = tomllib.loads(source)
    assert shown["version"] == whole["version"]
    names = [package["name"] for package in shown["package"]]
    assert names[0] == whole["package"][0]["name"] and names[-1] == whole["package"][-1]["name"]
    tables = [m for m in markers(lines) if m.startswith("... tables ")]
    assert len(tables) == 1 and span(tables[0])[2:] == (len(whole["package"]), "[[package]]")


@pytest.mark.parametrize(("name", "delimiter"), [("packages.csv", ","), ("commits.tsv", "\t")])
def test_a_table_keeps_its_header_and_its_first_and_last_rows(tmp_path, name, delimiter):
    path = tmp_path / name
    shutil.copy(DATA / name, path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)
    rows = list(csv.reader(io.StringIO(source), delimiter=delimiter))
    shown = list(csv.reader(io.StringIO("\n".join(without_markers(lines))), delimiter=delimiter))
    [marker] = markers(lines)
    first, last, total, _ = span(marker)
    data = [row for row in rows[1:] if row]
    assert shown[0] == rows[0] and total == len(data)
    assert shown[1:] == data[: first - 1] + data[last:]


def test_what_is_not_a_whole_document_keeps_the_line_cut(lock):
    lines, _ = read(lock, "head", "-c", "100000")  # cut off inside an object: not JSON
    assert not any(MARKER.match(line) for line in lines)
    assert re.search(r"^\.\.\. \d+ lines omitted \.\.\.$", "\n".join(lines), re.M)


def test_a_one_line_list_literal_is_cut_between_its_elements_spread_over_it():
    from tokenjuice.reduce.lines import Omission
    from tokenjuice.reduce.structured import fit_long_line, literal_items, spread

    rows = [{"id": i, "name": f"it's, {i}", "tags": [i, i + 1]} for i in range(1, 301)]
    line = repr(rows)  # a database server's rows as Python prints them
    assert literal_items(line) == [repr(row) for row in rows]
    assert literal_items("[1, 2]") is None and literal_items("[1, [2, 3]") is None
    cut = fit_long_line(["Rows:", line], 3000)
    assert cut is not None
    items, total = cut
    assert items[0] == "Rows:" and total == 301
    shown = [item for item in items if isinstance(item, str)][1:]
    assert shown[0] == "[" + repr(rows[0]) + "," and shown[-1] == " " + repr(rows[-1]) + "]"
    assert " " + repr(rows[149]) + "," in shown and " " + repr(rows[150]) + "," in shown  # both middles
    hidden = sum(item.count for item in items if isinstance(item, Omission))
    assert hidden + len(shown) == 300 and sum(map(len, map(str, items))) <= 3000
    assert spread(10, 20) == list(range(10)) and spread(400, 10)[:3] == [0, 1, 2]


def test_spread_keeps_two_fifths_of_what_it_shows_at_each_end():
    """A release list or a log: its first and newest entries are what an agent reads
    (PyPI's simple JSON of pytest kept only three of each end and lost
    `pytest-9.1.1-py3-none-any.whl`); the middle gets what is left."""
    from tokenjuice.reduce.structured import spread

    kept = spread(400, 10)
    assert kept[:4] == [0, 1, 2, 3] and kept[-4:] == [396, 397, 398, 399]
    assert len(kept) == 10 and any(150 <= index <= 250 for index in kept)


def test_a_tree_keeps_its_top_folders_and_cuts_its_long_file_lists_first():
    """A directory tree (an MCP filesystem server's directory_tree): the long file lists
    deep inside are cut before a top-level folder is; a document whose inner arrays are
    never cut is cut as before, its record lists alike."""
    from tokenjuice.reduce.structured import fit_document

    def folder(name, children):
        return {"name": name, "type": "directory", "children": children}

    apps = ("billing", "catalog", "checkout", "inventory", "shipping", "users")
    tree = [{"name": "README.md", "type": "file"}] + [
        folder(
            app,
            [
                folder(sub, [{"name": f"{app}_{sub}_{i:02d}.py", "type": "file"} for i in range(16)])
                for sub in ("api", "models", "services", "tests")
            ],
        )
        for app in apps
    ]
    shown = "\n".join(fit_document(tree, 12000))
    assert len(shown) <= 12000 and all(f'"name": "{app}"' in shown for app in apps)
    assert '"name": "billing_api_00.py"' in shown and '"name": "users_tests_15.py"' in shown
    graph = {
        "entities": [{"name": f"m{i}", "observations": [f"o{i}", "x"]} for i in range(150)],
        "relations": [{"from": f"m{i}", "to": f"m{i + 1}"} for i in range(200)],
    }
    kept = fit_document(graph, 4000)
    assert sum('"from"' in line for line in kept) == sum('"observations"' in line for line in kept)  # as before
