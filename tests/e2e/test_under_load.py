"""The tests that once asserted a wall-clock limit pass with every CPU busy: two CPU
hogs per core while they run, in a pytest of their own. Their limits are now work
done or CPU ratios measured in the same test (tests/README.md, "No clock in a
test"), so a machine ten times slower, or one shared with other work, passes them."""

import os
import subprocess
import sys

import pytest
from conftest import REPO

#: Every test whose limit was a duration, and the tests of waiting on events.
CLOCK_FREE = [
    "tests/state/test_redact.py::test_four_mib_of_build_output_without_secrets_is_fast_and_unchanged",
    "tests/state/test_redact.py::test_adversarial_input_is_redacted_in_linear_time",
    "tests/shell/test_rewrite_grammar.py::test_a_one_megabyte_command_is_refused_before_it_is_read",
    "tests/shell/test_rewrite_grammar.py::test_hostile_lines_under_the_size_limit_are_answered_quickly",
    "tests/rules/test_classify.py::test_a_project_output_pattern_that_backtracks_forever_costs_one_budget_not_a_hang",
    "tests/reduce/test_engine.py::test_catastrophic_user_pattern_is_bounded_and_marked",
    "tests/state/test_spool.py",
    "tests/state/test_artifacts.py::test_a_background_job_keeps_writing_and_its_later_output_joins_the_stored_one",
    "tests/test_capture.py",
    "tests/e2e/test_wrap.py",
    "tests/e2e/test_reliability.py::test_the_real_hook_process_never_fails",
    "tests/e2e/test_reliability.py::test_a_child_that_never_ends_is_interrupted_promptly",
    "tests/e2e/test_reliability.py::test_tee_streams_output_while_the_command_runs",
    "tests/e2e/test_reliability.py::test_a_catastrophic_project_pattern_cannot_hang_wrap",
    "tests/e2e/test_local_attacks.py::test_a_trusted_rule_of_20000_patterns_cannot_stall_wrap",
    "tests/e2e/test_local_attacks.py::test_a_huge_file_in_a_trusted_layer_is_never_read_whole",
]


@pytest.mark.slow
def test_the_tests_that_had_a_clock_pass_with_two_cpu_hogs_per_core():
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * cores)]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", *CLOCK_FREE],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=3600,
        )
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert done.returncode == 0, done.stdout[-4000:]
