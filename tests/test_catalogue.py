"""The built-in catalogue proves itself: every rule loads and every example passes."""

from tokenjuice.rules import loader
from tokenjuice.verify import verify


def test_every_builtin_rule_is_valid_and_every_example_passes(workdir):
    report = verify(str(workdir))
    problems = [str(p) for p in report.errors]
    failures = [f"{e.path} :: {e.name}: {error}" for e in report.examples for error in e.errors]
    assert not problems, "\n".join(problems)
    assert not failures, "\n".join(failures)
    assert report.examples


def test_the_catalogue_has_the_rules_every_command_falls_back_to(workdir):
    ids = {r.rule["id"] for r in loader.load_layer(loader.BUILTIN, loader.builtin_root())[0]}
    assert {"generic/fallback", "generic/help", "git/status"} <= ids
