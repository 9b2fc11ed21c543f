"""Fidelity end to end: cut between units, never lose what a reader needs.

One scenario repository, as an agent meets it: 40 changed files, 50 commits, 50
directories, 30 files matching a search, 25 failing tests. Each command goes
through a real `tokenjuice wrap`; every path, commit subject, directory, matching
file and failing test name must survive in the compacted output, and the whole
output must be one `tokenjuice cat` away.
"""

import re
import sys

import pytest
from conftest import git, tokenjuice
from helpers import stored_id


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    root = tmp_path_factory.mktemp("scenario")
    git("init", "-q", "-b", "main", cwd=root)
    for i in range(1, 51):
        (root / f"c{i}.txt").write_text(f"v{i}\n")
        git("add", ".", cwd=root)
        git("commit", "-qm", f"Feature number {i}: improve the widget {i} handling", cwd=root)
    for i in range(1, 41):
        (root / f"changed_{i:02d}.txt").write_text(f"changed {i}\n")
    for d in range(1, 51):
        folder = root / "src" / f"package_{d:02d}"
        folder.mkdir(parents=True)
        for f in range(1, 9):
            text = "needle = True\n" * 3 if d <= 30 and f == 1 else "hay = 1\n"
            (folder / f"module_{f}.py").write_text(text)
    tests = root / "tests"
    tests.mkdir()
    body = ["import pytest", ""]
    for i in range(1, 26):
        body += [f"def test_failing_case_{i:02d}():", f"    assert {i} == {i} + 1, 'widget {i} broke'", ""]
    for i in range(1, 101):
        body += [f"def test_passing_case_{i:03d}():", "    assert True", ""]
    (tests / "test_widgets.py").write_text("\n".join(body))
    return root


def wrapped(*command, cwd):
    done = tokenjuice("wrap", "--", *command, cwd=cwd)
    return done.returncode, done.stdout.decode()


def test_every_changed_path_survives_git_status(scenario):
    _, text = wrapped("git", "status", cwd=scenario)
    assert all(f"changed_{i:02d}.txt" in text for i in range(1, 41)), text
    assert '(use "git add' not in text


def test_every_commit_subject_survives_git_log(scenario):
    _, text = wrapped("git", "log", cwd=scenario)
    assert all(f"Feature number {i}: improve the widget {i} handling" in text for i in range(1, 51)), text
    assert len(text) < 12000 and " lines omitted" in text  # git log's budget: twice the default (budget_scale)


def test_every_directory_survives_find(scenario):
    from tokenjuice.reduce.reencode import decoded

    _, text = wrapped("find", "src", "-type", "f", cwd=scenario)
    readable = decoded(text)  # the folder they share said once over them (`src/:` then `  package_01/{…}`)
    assert all(f"src/package_{d:02d}/module_" in readable for d in range(1, 51)), text


def test_every_matching_file_is_named_with_its_count(scenario):
    _, text = wrapped("grep", "-rn", "needle", "src", cwd=scenario)
    for d in range(1, 31):
        assert f"src/package_{d:02d}/module_1.py" in text, text
    assert "src/package_31" not in text


def test_every_failing_test_name_survives(scenario):
    code, text = wrapped(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=scenario)
    assert code == 1
    names = set(re.findall(r"test_failing_case_\d\d", text))
    assert names == {f"test_failing_case_{i:02d}" for i in range(1, 26)}, text
    assert "25 failed, 100 passed" in text
    artifact = stored_id(text.encode())
    whole = tokenjuice("cat", artifact, cwd=scenario).stdout.decode()
    assert all(f"widget {i} broke" in whole for i in range(1, 26))  # nothing is lost: all of it one cat away


@pytest.mark.parametrize("flags", [["-q"], ["-v"], ["-q", "-rN"], ["-v", "-rA"]])
def test_pytests_facts_are_its_own_counts_however_it_was_run(scenario, flags):
    """Facts come from pytest's closing line, not from result lines: `-v` and `-rA`
    print each result twice, and `-rN` prints no short summary at all."""
    from conftest import wrap_json

    payload, code = wrap_json(sys.executable, "-m", "pytest", *flags, "-p", "no:cacheprovider", "tests", cwd=scenario)
    assert code == 1
    assert payload["result"]["facts"] == {"failed test": 25, "passed test": 100, "error": 0}
