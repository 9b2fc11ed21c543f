"""`tokenjuice discover`: which commands still pour out noise, and what to do."""

from __future__ import annotations

import os

from ..errors import TokenjuiceError, UsageError
from ..state import ledger, report
from .output import Output


def run(*, since: str | None) -> Output:
    try:
        start = report.since_timestamp(since, None)
    except report.ReportError as error:
        raise UsageError(str(error)) from None
    try:
        found = report.discoveries(ledger.snapshot(), start)
    except ledger.LedgerError as error:
        raise TokenjuiceError(str(error)) from None
    from ..shell.command import is_file_read

    # an exact read (cat, head, sed -n …) is shown as the file holds it whatever a rule says: no advice to write one
    found["fallbackCommands"] = [c for c in found["fallbackCommands"] if not is_file_read([c["argv0"]])]
    for command in found["fallbackCommands"]:
        command["advice"] = _rule_advice(command["argv0"], command["subcommand"])
    for rule in found["weakRules"]:
        rule["advice"] = _override_advice(rule["name"])
    for rule in found["cutsTooMuch"]:
        rule["advice"] = _read_back_advice(rule["name"], rule["readBackIds"])
    lines = []
    if found["fallbackCommands"]:
        lines.append("Commands no rule knows (they fell back to generic/fallback):")
        for c in found["fallbackCommands"][:15]:
            name = " ".join(filter(None, (c["argv0"], c["subcommand"])))
            lines.append(
                f"  {name:<28} {c['runs']:>5} runs  {report.compact(c['rawChars']):>7} chars raw, "
                f"{c['savedPercent']}% saved"
            )
            lines.append(f"      -> {c['advice']}")
    if found["weakRules"]:
        lines.append("Rules that save little on your commands:")
        for r in found["weakRules"][:15]:
            lines.append(
                f"  {r['name']:<28} {r['runs']:>5} runs  {report.compact(r['rawChars']):>7} chars raw, "
                f"keeps {round(r['ratio'] * 100)}%"
            )
            lines.append(f"      -> {r['advice']}")
    if found["cutsTooMuch"]:
        lines.append(
            f"Rules that cut too much (their cut output was read back with tokenjuice cat after more than "
            f"1 run in {round(1 / report.READBACK_MAX_RATE)}):"
        )
        for r in found["cutsTooMuch"][:15]:
            lines.append(
                f"  {r['name']:<28} {r['readBackRuns']:>5} of {r['cutRuns']} cut runs read back "
                f"({round(100 * r['readBackRate'])}%)"
            )
            lines.append(f"      -> {r['advice']}")
    if not lines:
        lines = ["nothing to discover: every recorded command with real output was compacted well"]
    return Output(text="\n".join(lines) + "\n", data=found)


def one_file(path: str, *, source_command: str, exit_code: int) -> Output:
    """How the catalogue handles one saved log, and what would make it better."""
    from ..model import Execution
    from ..reduce.engine import reduce
    from ..rules import index
    from .reduce import read_input
    from .wire import result_to_wire

    text = read_input(path, "a log").decode("utf-8", errors="replace")
    reduction = reduce(Execution(command=source_command, combined=text, exit_code=exit_code), index.load(os.getcwd()))
    result = result_to_wire(reduction)
    rule_id = reduction.classification.rule.id
    argv = reduction.command.normalized_argv
    advice = []
    if reduction.passthrough in report.WHOLE_ON_PURPOSE:
        pass  # left whole by policy, not for want of a rule
    elif rule_id == "generic/fallback" and len(text) >= report.FALLBACK_MIN_RAW:
        advice.append(_rule_advice(argv[0] if argv else source_command, argv[1] if len(argv) > 1 else None))
    elif result["stats"]["ratio"] >= report.WEAK_RATIO and len(text) >= report.WEAK_MIN_RAW:
        advice.append(_override_advice(rule_id))
    data = {
        "classification": result["classification"],
        "stats": result["stats"],
        "passthrough": reduction.passthrough,
        "advice": advice,
    }
    stats = result["stats"]
    lines = [
        f"classified as {rule_id} (via {result['classification'].get('matchedVia', 'forced')})",
        f"{stats['rawChars']} chars -> {stats['reducedChars']} (ratio {stats['ratio']:.2f})",
    ]
    if reduction.passthrough:
        lines.append(f"left whole: {reduction.passthrough}")
    lines += [f"-> {a}" for a in advice] or ["-> this rule already compacts this output well"]
    return Output(text="\n".join(lines) + "\n", data=data)


def _rule_advice(argv0: str, subcommand: str | None) -> str:
    command = " ".join(filter(None, (argv0, subcommand)))
    name = (subcommand or argv0).replace("/", "-")
    return (
        f"write a rule: tokenjuice example --append .tokenjuice/rules/custom/{name}.toml -- {command} ..., "
        "then fill in match, filters and keep/drop (docs/rules.md)"
    )


def _override_advice(rule_id: str) -> str:
    return (
        f"override it for this project in .tokenjuice/rules/{rule_id}.toml (copy the built-in rule, add "
        "skip_patterns for the noise you see; tokenjuice verify --show checks it)"
    )


def _read_back_advice(rule_id: str, artifact_ids: list[str]) -> str:
    compare = (
        f"compare what the agent was shown with what it read back (tokenjuice cat {artifact_ids[0]} --shown, "
        f"then tokenjuice cat {artifact_ids[0]}), then "
        if artifact_ids
        else ""
    )
    return (
        f"{compare}keep what it needed: override {rule_id} for this project in .tokenjuice/rules/{rule_id}.toml "
        "(pin_patterns for the lines it needed, a larger summarize.max_chars; tokenjuice verify --show checks it)"
    )
