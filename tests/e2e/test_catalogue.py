"""The built-in catalogue proves itself: every rule loads, every example passes,
and docs/reducers.md is the table the catalogue generates."""

import os

import pytest
from conftest import REPO

from tokenjuice.rules import loader
from tokenjuice.rules.coverage import reducers_markdown
from tokenjuice.rules.verify import verify


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    previous = os.getcwd()
    os.chdir(tmp_path_factory.mktemp("catalogue"))  # no project rules
    try:
        return verify(os.getcwd())
    finally:
        os.chdir(previous)


def test_every_builtin_rule_is_valid_and_every_example_passes(report):
    problems = [str(p) for p in report.errors]
    failures = [f"{e.path} :: {e.name}: {error}" for e in report.examples for error in e.errors]
    assert not problems, "\n".join(problems)
    assert not failures, "\n".join(failures)
    assert report.examples


#: Tools that cannot run here whose only real output reachable from here is small
#: (published fixtures and issue pastes); a large real run cannot be captured on this
#: platform. launchctl is macOS-only; no .NET SDK or fnm binary installs from the
#: registries reachable here, and the published dotnet build/fnm outputs found are
#: short (a progress-bar fnm paste could not be copied byte for byte).
#: golangci-lint's only real output here is a small published run; traceroute's real
#: runs stop at this sandbox's edge (tens of hops, no network beyond); nox's captured
#: sessions are short. Their examples fit the budget, so they are shown whole by
#: policy and measure nothing about the rule.


def test_every_example_bigger_than_the_information_budget_shrinks(report):
    """Content within the information budget is shown whole (only noise goes); an
    example bigger than the budget must come out meaningfully smaller, unless the
    preservation guard widened the budget to keep what a failure is made of, or the
    agent bounded the output itself (`git log -p -n 10`: shown whole up to its cap).
    The budget is the rule's own: a rule whose every line is what the agent asked for
    (a search, `--help` text) takes a failure's, scaled."""
    from tokenjuice.reduce.budget import SUCCESS_CHARS
    from tokenjuice.reduce.engine import Options, _rule_budget
    from tokenjuice.shell.command import analyze

    loaded_rules = loader.load_layer(loader.BUILTIN, loader.builtin_root())[0]
    examples = {
        (loaded.rule.id, example.name or example.command): (loaded.rule, example)
        for loaded in loaded_rules
        for example in loaded.examples
    }
    bounded = {key for key, (_, example) in examples.items() if analyze(example.command).bounded}

    def budget(result):
        rule, example = examples[(result.rule_id, result.name)]
        info = analyze(example.command)
        return _rule_budget(rule, rule.family, info, example.exit_code != 0, Options())

    weak = sorted(
        f"{example.rule_id} :: {example.name} ({example.ratio:.2f})"
        for example in report.examples
        if example.raw_chars > 2 * budget(example)
        and example.ratio > 0.9
        and example.passthrough is None
        and not example.widened
        and (example.rule_id, example.name) not in bounded
    )
    assert not weak, "examples bigger than the budget that barely shrink: " + ", ".join(weak)
    assert sum(1 for example in report.examples if example.raw_chars > 2 * budget(example)) > 30
    assert sum(1 for example in report.examples if example.raw_chars > 2 * SUCCESS_CHARS) > 40


def test_reducers_doc_is_current(report):
    expected = reducers_markdown(report)
    actual = (REPO / "docs" / "reducers.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/reducers.md is stale: run tokenjuice verify --reducers-doc docs/reducers.md"


def test_the_catalogue_has_the_rules_every_command_falls_back_to():
    ids = {r.rule.id for r in loader.load_layer(loader.BUILTIN, loader.builtin_root())[0]}
    assert {"generic/fallback", "generic/help", "git/status"} <= ids


def test_every_output_signature_is_seen_in_its_rules_real_examples():
    """`match.output` patterns classify wrapper scripts by what they print: each one
    must recognise a line of a real output of its own rule."""
    import re

    from tokenjuice.text import strip_ansi

    unseen = []
    for loaded in loader.load_layer(loader.BUILTIN, loader.builtin_root())[0]:
        lines = [line for e in loaded.examples for line in strip_ansi(e.output).split("\n")]
        unseen += [
            f"{loaded.rule.id}: {p}" for p in loaded.rule.match.output if not any(re.search(p, line) for line in lines)
        ]
    assert not unseen, "output signatures no real example shows:\n" + "\n".join(unseen)
