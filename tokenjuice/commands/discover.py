"""`tokenjuice discover`: which commands still pour out noise, and what to do."""

from __future__ import annotations

import os

from ..errors import UsageError
from ..output import json_text
from ..reduce.engine import Options, reduce
from ..rules import index
from ..state import ledger, report


def run(*, since: str | None, output_format: str) -> str:
    try:
        connection = ledger.open_for_reading()
        found = report.discoveries(connection, report.since_timestamp(since, None))
    except (report.ReportError, ledger.LedgerError) as error:
        raise UsageError(str(error)) from None
    for command in found["fallbackCommands"]:
        command["advice"] = _rule_advice(command["argv0"], command["subcommand"])
    for rule in found["weakRules"]:
        rule["advice"] = _override_advice(rule["name"])
    if output_format == "json":
        return json_text(found)
    lines = []
    if found["fallbackCommands"]:
        lines.append("Commands no rule knows (they fell back to generic/fallback):")
        for c in found["fallbackCommands"][:15]:
            name = " ".join(filter(None, (c["argv0"], c["subcommand"])))
            lines.append(f"  {name:<28} {c['runs']:>5} runs  {report.compact(c['rawChars']):>7} chars raw, "
                         f"{c['savedPercent']}% saved")
            lines.append(f"      -> {c['advice']}")
    if found["weakRules"]:
        lines.append("Rules that save little on your commands:")
        for r in found["weakRules"][:15]:
            lines.append(f"  {r['name']:<28} {r['runs']:>5} runs  {report.compact(r['rawChars']):>7} chars raw, "
                         f"keeps {round(r['ratio'] * 100)}%")
            lines.append(f"      -> {r['advice']}")
    if not lines:
        return "nothing to discover: every recorded command with real output was compacted well\n"
    return "\n".join(lines) + "\n"


def one_file(path: str, *, source_command: str, exit_code: int, output_format: str) -> str:
    """How the catalogue handles one saved log, and what would make it better."""
    from .reduce import read_input

    text = read_input(path, "a log").decode("utf-8", errors="replace")
    catalogue = index.load(os.getcwd())
    reduction = reduce({"toolName": "exec", "command": source_command, "combinedText": text,
                        "exitCode": exit_code}, catalogue, Options(trace=True))
    result = reduction.result
    rule_id = result["classification"]["matchedReducer"]
    argv = reduction.info.normalized_argv
    advice = []
    if result.get("passthrough") in report.WHOLE_ON_PURPOSE:
        pass  # left whole by policy, not for want of a rule
    elif rule_id == "generic/fallback" and len(text) >= report.FALLBACK_MIN_RAW:
        advice.append(_rule_advice(argv[0] if argv else source_command, argv[1] if len(argv) > 1 else None))
    elif result["stats"]["ratio"] >= report.WEAK_RATIO and len(text) >= report.WEAK_MIN_RAW:
        advice.append(_override_advice(rule_id))
    data = {"classification": result["classification"], "stats": result["stats"],
            "passthrough": result.get("passthrough"), "advice": advice}
    if output_format == "json":
        return json_text(data)
    stats = result["stats"]
    lines = [f"classified as {rule_id} (via {result['classification'].get('matchedVia', 'forced')})",
             f"{stats['rawChars']} chars -> {stats['reducedChars']} (ratio {stats['ratio']:.2f})"]
    if result.get("passthrough"):
        lines.append(f"left whole: {result['passthrough']}")
    lines += [f"-> {a}" for a in advice] or ["-> this rule already compacts this output well"]
    return "\n".join(lines) + "\n"


def _rule_advice(argv0: str, subcommand: str | None) -> str:
    command = " ".join(filter(None, (argv0, subcommand)))
    name = (subcommand or argv0).replace("/", "-")
    return (f"write a rule: tokenjuice example --append .tokenjuice/rules/custom/{name}.toml -- {command} ..., "
            "then fill in match, filters and keep/drop (docs/rules.md)")


def _override_advice(rule_id: str) -> str:
    return (f"override it for this project in .tokenjuice/rules/{rule_id}.toml (copy the built-in rule, add "
            "skip_patterns for the noise you see; tokenjuice verify --show checks it)")
