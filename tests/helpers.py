"""Plain helpers shared by test modules in several folders (`from helpers import …`).

Fixtures live in conftest.py; this module holds what is imported by name.
"""

import sqlite3

from conftest import reduce_wire, rule_of, tokenjuice

# -- reducing with one rule (tests/reduce) ---------------------------------------------


def make(rule_id="tool/x", layer="builtin", json_style=False, **fields):
    """A rule from TOML-shaped fields; filter lists may be given flat for brevity."""
    filters = {k: fields.pop(k) for k in ("skip_patterns", "keep_patterns", "pin_patterns") if k in fields}
    data = {"family": "tool-output", "match": {"argv0": ["tool"]}} | {k: v for k, v in fields.items() if v is not None}
    if filters:
        data["filters"] = filters
    return rule_of(rule_id, layer, json_style, **data)


FALLBACK = make(
    "generic/fallback", match={}, family="generic", counters=[{"name": "error", "pattern": r"\berror\b", "flags": "i"}]
)


def run(output, rule=None, exit_code=0, command="tool run", trace=False, **options):
    rules = [r for r in (rule, FALLBACK) if r]
    return reduce_wire(
        rules, hint="full output: RAW", trace=trace, command=command, combined=output, exit_code=exit_code, **options
    )


def lines(n, prefix="line"):
    return "\n".join(f"{prefix} {i:04d} with some padding to look like real output" for i in range(n)) + "\n"


# -- rule files (tests/rules, tests/commands) -----------------------------------------

MINIMAL = 'family = "demo"\n\n[match]\nargv0 = ["demo-tool"]\n'


def entry(catalogue, rule_id):
    """The match entry classification sees for `rule_id`, or None."""
    return next((rule for rule in catalogue.entries if rule.id == rule_id), None)


# -- the data folder: ledger and output store (tests/state, tests/commands) -----------

NOISY_FAILURE = ("sh", "-c", "seq 1 2000; echo 'token=ghp_abcdefghijklmnopqrstuvwxyz0123456789'; exit 3")


def runs(home):
    tokenjuice("prune", "--format", "json")  # folds the spool into the ledger
    connection = sqlite3.connect(home / "tokenjuice.db")
    connection.row_factory = sqlite3.Row
    return connection.execute("SELECT * FROM runs ORDER BY created_at").fetchall()


def stored_id(stdout: bytes) -> str:
    trailer = stdout.decode().splitlines()[-1]
    assert " — full output: tokenjuice cat " in trailer, trailer
    return trailer.split("tokenjuice cat ")[1].rstrip(")")
