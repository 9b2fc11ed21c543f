"""`tokenjuice verify`: validate every rule layer and run every rule's examples."""

from __future__ import annotations

import os

from ..output import json_text
from ..verify import Report, verify


def run(*, fixtures: bool, output_format: str, only: str | None = None, show: bool = False,
        coverage: bool = False, reducers_doc: str | None = None) -> tuple[str, str, int]:
    """Returns (stdout text, stderr text, exit code)."""
    run_examples = fixtures or show or coverage or bool(reducers_doc)
    report = verify(os.getcwd(), run_examples=run_examples, only=only)
    code = 0 if report.ok else 1
    if reducers_doc:
        from ..coverage import reducers_markdown

        with open(reducers_doc, "w", encoding="utf-8") as handle:
            handle.write(reducers_markdown(report))
    if coverage:
        from ..coverage import summary, summary_text

        data = summary(report)
        out = json_text(data) if output_format == "json" else summary_text(data)
        _, err, _ = _as_text(report, True, code)
        return out, err if code else "", code
    if output_format == "json":
        return json_text(_as_json(report, run_examples)), "", code
    out, err, code = _as_text(report, fixtures or show, code)
    if show:
        out = "".join(_shown(e) for e in report.examples) + out
    return out, err, code


def _shown(example) -> str:
    body = "\n".join("  | " + line for line in example.text.splitlines())
    status = "ok" if example.ok else "FAIL"
    return (f"== {example.rule_id} :: {example.name} [{status}] "
            f"{example.raw_chars} -> {example.reduced_chars} chars (ratio {example.ratio:.2f})\n{body}\n\n")


def _as_json(report: Report, fixtures: bool) -> dict:
    data: dict = {
        "ok": report.ok,
        "rules": [{"id": r.rule["id"], "layer": r.layer, "path": r.path, "examples": len(r.examples)}
                  for r in report.rules],
        "problems": [p.to_dict() for p in report.problems],
    }
    if fixtures:
        data["examples"] = [e.to_dict() for e in report.examples]
    return data


def _as_text(report: Report, fixtures: bool, code: int) -> tuple[str, str, int]:
    err = []
    for problem in report.problems:
        label = "error" if problem.severity == "error" else "note"
        err.append(f"{label}: {problem.path}: {problem.message}")
    for example in report.examples:
        for error in example.errors:
            err.append(f"fail: {example.path}: example {example.name!r}: {error}")
    summary = f"{len(report.rules)} rule files validated"
    if fixtures:
        passed = sum(1 for e in report.examples if e.ok)
        summary += f", {passed}/{len(report.examples)} examples passed"
    errors = len(report.errors)
    if code:
        summary = f"verify failed: {summary}, {errors} problems" if errors else f"verify failed: {summary}"
        return "", "\n".join(err + [summary]) + "\n", code
    return f"ok: {summary}\n", ("\n".join(err) + "\n") if err else "", 0
