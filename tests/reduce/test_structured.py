"""Exact reads of structured files too big to show (reduce/structured.py `exact_cut`),
through real `tokenjuice wrap -- cat FILE` processes on real files (tests/data/structured
says which tool made each): cut between elements, every kept element byte for byte, the
first and last ones of a cut collection kept, a marker naming each omitted range."""

import csv
import io
import itertools
import json
import re
import shutil
import tomllib

import pytest
from conftest import REPO, tokenjuice
from hypothesis import given
from hypothesis import strategies as st

from tokenjuice.reduce.engine import EXACT_BUDGET, EXACT_LIMIT
from tokenjuice.rules.verify import unexplained_lines

DATA = REPO / "tests" / "data" / "structured"
MARKER = re.compile(
    r"^\.\.\. (?:(items|keys|rows|tables) (\d+)–(\d+)|(item|key|row|table) (\d+)) of (\d+)(?: in (\S+))?"
)


def read(path, *command):
    """What the agent sees of `cat path` (or `command`): the body's lines and the trailer."""
    done = tokenjuice("wrap", "--", *(command or ("cat",)), str(path))
    shown = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    # the budget of an exact read too big to show, or what names every element of a
    # long collection, up to the size an exact read is shown whole
    assert len(shown) <= EXACT_LIMIT
    lines = shown.rstrip("\n").split("\n")
    assert lines[-1].startswith("(tokenjuice: ") and "full output: tokenjuice cat " in lines[-1]
    return lines[:-1], lines[-1]


def markers(lines):
    return [line for line in lines if line.startswith("... ") and line.endswith(" omitted ...")]


def left_out(lines):
    """The markers of elements left out (not those heading the elements shown one line each)."""
    return [marker for marker in markers(lines) if ONE_LINE_EACH not in marker]


ONE_LINE_EACH = " (one line each below): the rest of each"
#: An object shown in one line (`_outline`): its key, and the members that name it.
NAMED = re.compile(r'^\s*(?:("(?:[^"\\]|\\.)*"): ?)?\{(.*?)(, …)?\},?$')


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


def assert_accounted(shown, gaps, total):
    """The 1-based positions shown and the ranges left out cover 1..total once, in order."""
    covered = sorted([(k, k) for k in shown] + gaps)
    assert covered[0][0] == 1 and covered[-1][1] == total, covered[:3]
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(covered)), covered


def named_members(line):
    """The key of an object shown in one line, and its members (`"version": "1.2.0"`) parsed."""
    found = NAMED.match(line)
    assert found, line
    key = json.loads(found.group(1)) if found.group(1) else None
    return key, json.loads("{" + found.group(2) + "}")


@pytest.fixture
def lock(tmp_path):
    path = tmp_path / "package-lock.json"
    shutil.copy(DATA / "package-lock.json", path)
    return path


def test_a_package_lock_names_every_package_with_its_version(lock):
    source = lock.read_text()
    assert len(source) > EXACT_LIMIT
    lines, trailer = read(lock)
    whole = json.loads(source)
    names = list(whole["packages"])
    # the top-level keys, in order, and the brackets that close them
    assert [line.split(":")[0].strip() for line in lines if re.match(r'^  "', line)] == [f'"{k}"' for k in whole]
    assert lines[-1] == "}" and lines[-2] == "  }"
    [heading] = [m for m in markers(lines) if ONE_LINE_EACH in m]
    low, high, total, where = span(heading)
    assert low > 1 and high < total == len(names) and where == ".packages"
    # the first and the last packages whole, every other one in a line of its name and version
    at = lines.index(heading)
    first = json.loads("{" + "\n".join(lines[lines.index('  "packages": {') + 1 : at]).rstrip(",") + "}")
    assert first == {name: whole["packages"][name] for name in names[: low - 1]}
    shown = [k for k, line in enumerate(lines) if NAMED.match(line) and line.startswith('    "')]
    for k in shown:
        key, members = named_members(lines[k])
        assert "version" in members and members.items() <= whole["packages"][key].items(), lines[k]
    # the room left after naming every package shows the middle ones whole too
    middle = names[(len(names) - 1) // 2]
    opened = [k for k in range(at, len(lines)) if re.match(r'^    "[^"]+": \{$', lines[k])]
    assert f'    "{middle}": {{' in lines[at:]
    keys = [
        lines[k].strip()[1:].split('"')[0] if k in opened else named_members(lines[k])[0]
        for k in sorted(shown + opened)
    ]
    keys = [key for key in keys if names.index(key) + 1 in range(low, high + 1)]
    ends = [*range(1, low), *range(high + 1, total + 1)]
    gaps = [span(m)[:2] for m in left_out(lines)]
    assert_accounted(sorted([*ends, *(names.index(key) + 1 for key in keys)]), gaps, total)
    assert all(f'    "{name}": {{' in lines for name in names[high:])
    assert not gaps and len(EXACT_BUDGET * "x") < len("\n".join(lines))  # every package named: more room taken
    assert unexplained_lines(source, "\n".join(lines)) == []  # nothing shown that the file does not say
    assert "lines omitted" in trailer


def test_a_one_line_document_is_cut_inside_its_line(tmp_path):
    whole = json.loads((DATA / "package-lock.json").read_text())
    path = tmp_path / "lock.min.json"
    path.write_text(json.dumps(whole, separators=(",", ":")))
    source = path.read_text()
    lines, trailer = read(path)
    for line in without_markers(lines):
        if line not in source:  # a package in one line: its name and version as the file has them
            key, members = named_members(line)
            assert f'"{key}":' in source and members.items() <= whole["packages"][key].items()
    assert {span(m)[3] for m in markers(lines)} == {".packages"}
    assert "long line clipped" in trailer


def test_an_array_keeps_its_first_and_last_items_whole_and_names_the_others(tmp_path):
    whole = json.loads((DATA / "package-lock.json").read_text())
    items = [{"name": name} | package for name, package in whole["packages"].items()]
    path = tmp_path / "packages.json"
    path.write_text(json.dumps(items, indent=2) + "\n")
    lines, _ = read(path)
    heading = next(m for m in markers(lines) if ONE_LINE_EACH in m)
    low, high, total, where = span(heading)
    assert low > 1 and high < total == len(items) and where is None
    assert json.loads("\n".join(lines[: lines.index(heading)]).rstrip(",") + "]") == items[: low - 1]
    assert json.loads("[" + "\n".join(lines[len(lines) - 1 - lines[::-1].index("  {") :])) == items[-1:]
    # each element shown whole or in one line of the members that name it (valid JSON but for the `…`)
    shown = json.loads("\n".join(without_markers(lines)).replace(", …}", "}"))
    names = [item["name"] for item in items]
    assert all(item.items() <= items[names.index(item["name"])].items() for item in shown)
    positions = [names.index(item["name"]) + 1 for item in shown]
    assert positions == sorted(positions) and positions[: low - 1] == list(range(1, low))
    assert_accounted(positions, [span(m)[:2] for m in left_out(lines)], total)


def test_an_element_too_big_for_the_room_is_cut_inside_at_the_deepest_level(tmp_path):
    whole = json.loads((DATA / "package-lock.json").read_text())
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"before": whole, "after": whole}, indent=2))
    lines, _ = read(path)
    assert [line for line in lines if re.match(r'^  "', line)] == ['  "before": {', '  "after": {']
    assert {span(m)[3] for m in markers(lines)} == {".before.packages", ".after.packages"}
    assert lines.count('    "lockfileVersion": 3,') == 2  # each half's own keys, whole


def test_a_pnpm_lock_is_cut_between_its_packages_by_indentation(tmp_path):
    path = tmp_path / "pnpm-lock.yaml"
    shutil.copy(DATA / "pnpm-lock.yaml", path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)  # a package in one line is its first line
    top = [line.split(":")[0] for line in source.split("\n") if line[:1].isalpha()]
    assert [line.split(":")[0] for line in without_markers(lines) if line[:1].isalpha()] == top
    assert {span(marker)[3] for marker in markers(lines)} == {".packages", ".snapshots"}
    packages = [line for line in source.split("\n") if re.match(r"^  \S.*:$", line)]
    assert packages[0] in lines and packages[-1] in lines  # the first and the last entries


def test_a_uv_lock_keeps_every_package_table_and_stays_toml(tmp_path):
    path = tmp_path / "uv.lock"
    shutil.copy(DATA / "uv.lock", path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)
    shown = tomllib.loads("\n".join(without_markers(lines)))
    whole = tomllib.loads(source)
    assert shown["version"] == whole["version"]
    # every package, cut inside (its wheels first) rather than left out
    assert [p["name"] for p in shown["package"]] == [p["name"] for p in whole["package"]]
    assert all(p["version"] == q["version"] for p, q in zip(shown["package"], whole["package"], strict=True))
    assert not any(m.startswith("... tables ") for m in markers(lines))


UV_LOCK = REPO / "tests" / "scenarios" / "cat-uv-lock.out"  # 26 packages, 87 kB, wheels most of it


def test_a_lock_leaves_the_same_heavy_member_out_of_every_package(tmp_path):
    """A uv.lock whose `wheels` lists take most of it: every package keeps what a
    wheels list does not say (its sdist, its dependencies) and loses its wheels, rather
    than the packages with long dependency lists losing their sdist line to the fair
    share; the room left gives the first packages their wheels back."""
    path = tmp_path / "uv.lock"
    shutil.copy(UV_LOCK, path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)
    shown, whole = tomllib.loads("\n".join(without_markers(lines))), tomllib.loads(source)
    assert [p["name"] for p in shown["package"]] == [p["name"] for p in whole["package"]]
    for package, original in zip(shown["package"], whole["package"], strict=True):
        assert {key: value for key, value in original.items() if key != "wheels"}.items() <= package.items()
    left = [m for m in markers(lines) if m.endswith('("wheels") omitted ...')]
    gone = sum("wheels" in q and "wheels" not in p for p, q in zip(shown["package"], whole["package"], strict=True))
    assert len(left) == gone >= 10
    assert "wheels" in shown["package"][0] and "wheels" not in shown["package"][-2]


@pytest.mark.parametrize(("name", "delimiter"), [("packages.csv", ","), ("commits.tsv", "\t")])
def test_a_table_keeps_its_header_and_rows_spread_over_it(tmp_path, name, delimiter):
    path = tmp_path / name
    shutil.copy(DATA / name, path)
    source = path.read_text()
    lines, _ = read(path)
    assert_lines_of(lines, source)
    rows = list(csv.reader(io.StringIO(source), delimiter=delimiter))
    data = [row for row in rows[1:] if row]
    shown = list(csv.reader(io.StringIO("\n".join(without_markers(lines))), delimiter=delimiter))
    assert shown[0] == rows[0] and shown[1] == data[0] and shown[-1] == data[-1]
    positions = [data.index(row) + 1 for row in shown[1:]]
    assert_accounted(positions, [span(m)[:2] for m in markers(lines)], len(data))
    assert any(len(data) // 3 < k < 2 * len(data) // 3 for k in positions)  # from the middle too


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
    deep inside are cut before a top-level folder is; a document of two record lists
    keeps the first and last records of each."""
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
    shown = "\n".join(line if isinstance(line, str) else line.render() for line in fit_document(tree, 12000))
    assert len(shown) <= 12000 and all(f'"name": "{app}"' in shown for app in apps)
    assert '"name": "billing_api_00.py"' in shown and '"name": "users_tests_15.py"' in shown
    graph = {
        "entities": [{"name": f"m{i}", "observations": [f"o{i}", "x"]} for i in range(150)],
        "relations": [{"from": f"m{i}", "to": f"m{i + 1}"} for i in range(200)],
    }
    kept = [line if isinstance(line, str) else line.render() for line in fit_document(graph, 4000)]
    text = "\n".join(kept)
    assert (
        len(text) <= 4000 and sum('"from"' in line for line in kept) and sum('"observations"' in line for line in kept)
    )
    assert '"m0"' in text and '"m149"' in text and '"m200"' in text  # each list's first and last records


NPM_TREE = REPO / "tests" / "scenarios" / "json-npm-ls-jest.out"  # npm ls --all --json, 663 packages


def test_a_dependency_tree_is_named_level_by_level():
    """`npm ls --all --json` of jest: a tree of `dependencies` 10 levels deep, 88 kB, in
    a failure's budget (npm-ls declares twice that: the test below).
    Every package shown is its name and version, indented under the package that needs
    it, those that hold none several a line; the levels go whole from the top while they
    fit, and a package shows all of its dependencies or none of them (its line's `…` says
    so) but for the repeats: a package npm deduplicated (its name and version met higher
    in the tree, nothing under it) is left out, and counted, while others are not shown."""
    from tokenjuice.reduce.budget import FAILURE_CHARS

    source = NPM_TREE.read_text()
    done = tokenjuice(
        "reduce", "--command", "npm ls --all --json", "--max-inline-chars", str(FAILURE_CHARS), input=source
    )
    shown = done.stdout.decode().rstrip("\n").split("\n")
    assert done.returncode == 0 and len("\n".join(shown)) <= FAILURE_CHARS
    assert unexplained_lines(source, "\n".join(shown)) == []
    [heading] = [line for line in markers(shown) if " as a tree, " in line]
    assert heading.startswith("... keys in .dependencies as a tree, ") and '"dependencies" indented' in heading
    whole = json.loads(source)
    repeats = _repeats(whole)
    assert f"and {len(repeats)} that repeat an element higher in the tree, omitted ..." in heading
    body = shown[shown.index(heading) + 1 : shown.index("  }")]
    # the shown tree, rebuilt from the indentation: (depth, name, members, path of names)
    stack: list[dict] = [whole]
    depths = []
    for line in body:
        depth = (len(line) - len(line.lstrip(" ")) - 4) // 2
        pieces = re.split(r'(?<=\}), (?=")', line.strip())
        del stack[depth + 1 :]
        parent = stack[depth]
        for piece in pieces:
            name, members = named_members(piece)
            package = parent["dependencies"][name]
            assert members.items() <= package.items(), piece
            assert id(package) not in repeats, piece
            depths.append((depth, name, id(parent)))
        stack.append(package)
    children: dict[int, list[str]] = {}
    for _, name, parent in depths:
        children.setdefault(parent, []).append(name)
    packages = {id(p): p for p in _packages(whole)}
    for parent, names in children.items():  # all of a package's dependencies but the repeats, in order, or none
        deps = packages[parent]["dependencies"]
        assert names == [name for name, package in deps.items() if id(package) not in repeats], names
    deepest = max(depth for depth, _, _ in depths)
    by_depth: dict[int, int] = {}
    for depth, package in _depths(whole):
        if id(package) not in repeats:
            by_depth[depth] = by_depth.get(depth, 0) + 1
    assert all(sum(1 for d, _, _ in depths if d == k) == by_depth[k] for k in range(deepest))  # whole levels
    assert sum(1 for d, _, _ in depths if d == deepest) < by_depth[deepest]
    assert len(depths) > 175  # 115 lines named 83 packages, repeats among them, in 6,000 characters


def test_a_dependency_tree_in_its_own_budget_names_every_package_but_repeats():
    """In the budget npm-ls declares (twice a failure's: every package is what the agent
    asked for), jest's tree names every package npm did not deduplicate, and spends what
    is left on repeats."""
    from tokenjuice.reduce.budget import FAILURE_CHARS

    source = NPM_TREE.read_text()
    done = tokenjuice("reduce", "--command", "npm ls --all --json", input=source)
    shown = done.stdout.decode().rstrip("\n").split("\n")
    assert done.returncode == 0 and FAILURE_CHARS < len("\n".join(shown)) <= 2 * FAILURE_CHARS
    whole = json.loads(source)
    repeats = _repeats(whole)
    others = [id(p) for p in _packages(whole) if p is not whole and id(p) not in repeats]
    [heading] = [line for line in markers(shown) if " as a tree, " in line]
    omitted = int(re.search(r"and (\d+) that repeat an element higher", heading)[1])
    assert 0 < omitted < len(repeats)  # some repeats shown too
    assert f" as a tree, {len(others) + len(repeats) - omitted} named below, " in heading


def _repeats(whole):
    """The ids of the packages of an `npm ls --json` tree that hold none and whose name
    and version were met before, level by level from the top."""
    seen, repeats = set(), set()
    level = list(whole["dependencies"].items())
    while level:
        following = []
        for name, package in level:
            met = (name, package.get("version"), not package)
            if met in seen and not package.get("dependencies"):
                repeats.add(id(package))
            seen.add(met)
            following += list((package.get("dependencies") or {}).items())
        level = following
    return repeats


def _packages(node):
    yield node
    for package in (node.get("dependencies") or {}).values():
        yield from _packages(package)


def _depths(node, depth=-1):
    """The depth of every package of an `npm ls --json` tree (its direct dependencies: 0), and the package."""
    if depth >= 0:
        yield depth, node
    for package in (node.get("dependencies") or {}).values():
        yield from _depths(package, depth + 1)


def test_a_directory_tree_that_fits_one_line_an_entry_names_every_entry():
    """An MCP directory_tree result too big whole but not for a line an entry: every file
    is named under its folder (the spread of whole entries lost files of each folder)."""
    from tokenjuice.reduce.structured import compact, fit_document

    def folder(name, children):
        return {"name": name, "type": "directory", "children": children}

    apps, subs = ("billing", "catalog", "users", "orders"), ("api", "models", "tests")
    files = [[[f"{app}_{sub}_{i:02d}.py" for i in range(12)] for sub in subs] for app in apps]
    tree = [
        folder(
            app,
            [
                folder(sub, [{"name": name, "type": "file"} for name in names])
                for sub, names in zip(subs, group, strict=True)
            ],
        )
        for app, group in zip(apps, files, strict=True)
    ]
    shown = [line if isinstance(line, str) else line.render() for line in fit_document(tree, 9000)]
    assert len("\n".join(shown)) <= 9000 < sum(len(line) + 1 for line in compact(tree))
    assert shown[1].startswith("... items as a tree, 160 named below")
    assert shown[2] == '  {"name": "billing", "type": "directory", …}'
    assert shown[3] == '    {"name": "api", "type": "directory", …}'
    # a folder's files several a line, in order, each whole
    assert shown[4].startswith('      {"name": "billing_api_00.py", "type": "file"}, {"name": "billing_api_01.py"')
    listed = [piece for line in shown[2:] for piece in re.split(r"(?<=\}), (?=\{)", line.strip())]
    assert listed.count('{"name": "billing", "type": "directory", …}') == 1
    assert all(f'{{"name": "{name}", "type": "file"}}' in listed for g in files for names in g for name in names)
    assert all(len(line) <= 160 for line in shown[2:])


def test_a_record_tree_whose_records_say_more_than_their_names_is_cut_as_records():
    """Modules holding their resources (terraform's child_modules): a line per module
    would hide the resources, so the records are cut as any are."""
    from tokenjuice.reduce.structured import fit_document

    def module(name, depth):
        resources = [
            {"address": f"{name}.aws_s3_bucket.b{i}", "values": {"acl": "private", "tags": {"n": i}}} for i in range(6)
        ]
        return {
            "address": name,
            "resources": resources,
            "child_modules": [module(f"{name}.m{k}", depth - 1) for k in range(3)] if depth else [],
        }

    shown = "\n".join(
        line if isinstance(line, str) else line.render() for line in fit_document(module("root", 3), 6000)
    )
    assert " as a tree, " not in shown and '"values": {' in shown


def test_the_records_shown_whole_show_the_values_the_ends_do_not():
    """A table of cars as a JSON array (vega's cars.json) whose first and last rows are
    made in the USA: once every car is named, the room left shows whole the cars made
    in Europe and in Japan, not only the neighbours of the first and last rows."""
    from tokenjuice.reduce.structured import exact_cut

    cars = [
        {
            "Name": f"car {i}",
            "Cylinders": 8 if i % 2 else 6,
            "Horsepower": 100 + i,
            "Weight": 3000 + 7 * i,
            "Origin": "Europe" if i in (41, 97) else "Japan" if i == 70 else "USA",
        }
        for i in range(120)
    ]
    text = json.dumps(cars, indent=3)
    for room in (5000, 7000):
        body, _, _ = exact_cut(text, "cars.json", room)
        shown = "\n".join(line if isinstance(line, str) else line.render() for line in body)
        assert len(shown) <= room and all(f'"Name": "car {i}"' in shown for i in range(120))
        assert '"Origin": "Europe"' in shown and '"Origin": "Japan"' in shown
        assert unexplained_lines(text, shown) == []


def test_an_outline_names_the_newest_records_first_when_they_are_not_at_the_end():
    """PyPI's simple JSON lists a project's files by name: boto3's newest release sits in
    the middle of 4,318 files ("1.44.8" sorts before "1.9.0"). The files' upload times
    tell the newest, which an agent reading an index wants."""
    from tokenjuice.reduce.structured import fit_document

    versions = sorted((f"1.{minor}.{patch}" for minor in range(45) for patch in range(40)), key=str)
    released = sorted(versions, key=lambda v: tuple(map(int, v.split("."))))
    files = [
        {
            "filename": f"boto3-{v}.tar.gz",
            "hashes": {"sha256": "ab" * 32},
            "upload-time": f"{2014 + released.index(v) // 200}-01-01T00:00:{released.index(v) % 60:02d}Z",
            "yanked": False,
        }
        for v in versions
    ]
    index = {"files": files, "meta": {"api-version": "1.1"}, "name": "boto3"}
    text = "\n".join(line if isinstance(line, str) else line.render() for line in fit_document(index, 6000))
    newest = sorted(files, key=lambda f: f["upload-time"])[-5:]
    assert all(f'"filename": "{f["filename"]}"' in text for f in newest)
    assert versions.index("1.44.39") not in (0, len(versions) - 1)  # not at an end


def test_a_long_line_is_looked_for_only_where_the_other_lines_could_leave_it_room():
    from tokenjuice.reduce.lines import render
    from tokenjuice.reduce.structured import fit_long_line

    def shown(cut):
        return cut and (render(cut[0]), cut[1])

    line = repr([{"id": i, "name": f"n{i}"} for i in range(300)])
    for others in (0, 5, 333, 334, 400):
        lines = ["Rows:"] * others + [line]
        asked: list[int] = []
        cut = fit_long_line(lines, 1000, lambda lines=lines, asked=asked: asked.append(1) or max(map(len, lines)))
        assert shown(cut) == shown(fit_long_line(lines, 1000))
        # their line ends alone would take more than a third of the room: the lines are not measured
        assert bool(asked) == (others <= 1000 // 3)


_TIMES = st.builds(
    lambda y, mo, d, sep, h, mi, tail: f"{y:04d}-{mo:02d}-{d:02d}{sep}{h:02d}:{mi:02d}{tail}",
    st.integers(0, 9999),
    st.integers(0, 99),
    st.integers(0, 99),
    st.sampled_from("T x"),
    st.integers(0, 99),
    st.integers(0, 99),
    st.sampled_from(["", ":12", ":12.5", ":1", "0", "12-01-01T00:00"]),  # the last: times that overlap
)


@given(
    st.lists(st.one_of(_TIMES, st.text('0123456789-T :.x٣\n"a_{}', max_size=12)), max_size=8),
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(-2, 17)), max_size=8),
)
def test_an_elements_time_is_the_one_a_search_of_its_whole_text_finds(parts, picks):
    """An element is searched for its time only where one may start (`_Tree.times`): the
    same time as a search of the element's whole text, on any text (elements start where
    a time or other text does and end at, before or past one's end)."""
    from tokenjuice.reduce.structured import _Node, _time_in, _Tree

    time = re.compile(r"\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?")
    text = "".join(parts)
    bounds = list(itertools.accumulate(map(len, parts), initial=0))
    starts = _Tree(text).times()
    for a, b, shift in picks:
        start, end = bounds[a % len(bounds)], max(0, min(len(text), bounds[b % len(bounds)] + shift))
        node = _Node(min(start, end), max(start, end), min(start, end), None, 0, "")
        found = time.search(text, node.start, node.end)
        assert _time_in(text, node, starts) == (found.group() if found else None)


@pytest.mark.parametrize("budget", [6000, 9000, 13500, 20000])
def test_more_room_never_names_fewer_records_for_a_list_of_plain_values_emptied(budget):
    """pip inspect's 11 packages (real output): a cut that empties one package's
    `classifier` list (plain strings, a detail of its record) still names every
    package; at 13,500 characters the spread of whole records took its place and named
    6 of 11, where 9,000 named all. A collection of records emptied (a folder's files)
    still gives way to the spread (test_tool_rules: the directory tree)."""
    from tokenjuice.reduce.structured import _empties_records

    text = (REPO / "tests" / "scenarios" / "json-pip-inspect.out").read_text()
    names = [package["metadata"]["name"] for package in json.loads(text)["installed"]]
    done = tokenjuice("reduce", "--command", "./bin/pip inspect", "--max-inline-chars", str(budget), input=text)
    shown = done.stdout.decode()
    assert len(shown) <= budget and all(f'"name": "{name}"' in shown for name in names), budget
    value = {"a": [{"b": ["x", "y"]}, {"c": [{"d": 1}]}]}
    assert not _empties_records(value, "... items 1–2 of 2 in .a[0].b omitted ...")
    assert _empties_records(value, "... items 1–1 of 1 in .a[1].c omitted ...")
    assert _empties_records(value, "... items 1–2 of 2 omitted ...")  # the top: records
