"""bench.py: `--against` times another installation's hook and wrap as its installer
writes them, so a before/after comparison runs in one interleaved loop."""

import json
import os
import subprocess
import sys

import pytest

from tokenjuice import bench


def test_the_other_installation_is_started_as_installed_and_answers():
    other = bench.other_installation(sys.executable)  # this venv stands in for an older one
    assert other["floor"] == [sys.executable, "-c", "pass"]
    assert other["wrap_true"][1:] == ["wrap", "--", "true"]
    assert other["hook"][-3] == "cursor-pre-tool-use"  # the name every version answers to
    payload = {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": "git status"}}
    done = subprocess.run(other["hook"], input=json.dumps(payload), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "wrap" in json.loads(done.stdout)["updated_input"]["command"]
    assert subprocess.run(other["wrap_true"], capture_output=True, timeout=60).returncode == 0


def test_a_python_without_tokenjuice_beside_it_is_refused(tmp_path):
    lonely = tmp_path / "python"
    os.symlink(sys.executable, lonely)
    with pytest.raises(SystemExit, match="no tokenjuice script beside"):
        bench.other_installation(str(lonely))


def test_stand_ins_are_measured_and_the_hot_paths_load_none_of_the_standard_modules():
    """`--stand-ins` (docs/performance.md's table) runs, and its claim holds: the hook and
    `wrap -- true` load none of json, re and dataclasses, so each stand-in saves its whole cost."""
    done = subprocess.run(
        [sys.executable, "-m", "tokenjuice.bench", "--stand-ins", "--runs", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) >= {"json", "dataclasses", "re", "loaded_anyway"}
    assert figures["re"]["patterns"] > 10
    assert figures["loaded_anyway"]["hook"] == [] and figures["loaded_anyway"]["wrap -- true"] == []
    assert figures["loaded_anyway"]["wrap -- seq 1 20000"] == ["re"]
