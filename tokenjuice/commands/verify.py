"""`tokenjuice verify`: validate every rule layer and run every rule's examples."""

from __future__ import annotations

import os

from ..errors import UsageError
from ..rules.verify import ExampleResult, Report, verify
from .output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any


def run(
    *,
    fixtures: bool,
    only: str | None = None,
    show: bool = False,
    coverage: bool = False,
    reducers_doc: str | None = None,
    progress: Callable[[list[Any]], Iterable[Any]] | None = None,
) -> Output:
    """`progress`, when given, shows how far running the examples got."""
    run_examples = fixtures or show or coverage or bool(reducers_doc)
    report = verify(os.getcwd(), run_examples=run_examples, only=only, progress=progress)
    if only and not any(r.rule.id.startswith(only) for r in report.rules):
        raise UsageError(f"no rule id starts with {only!r}; tokenjuice verify --format json lists them")
    code = 0 if report.ok else 1
    if reducers_doc:
        from ..files.atomic import write_atomically
        from ..rules.coverage import reducers_markdown

        try:
            write_atomically(reducers_doc, reducers_markdown(report).encode("utf-8"))
        except OSError as error:
            raise UsageError(f"cannot write {reducers_doc}: {error.strerror}") from None
    if coverage:
        from ..rules.coverage import summary, summary_text

        data = summary(report)
        _, err, _ = _as_text(report, True, code)
        return Output(text=summary_text(data), data=data, exit_code=code, notes=err if code else "")
    out, err, code = _as_text(report, fixtures or show, code)
    if show:
        out = "".join(_shown(e) for e in report.examples) + out
    return Output(text=out, data=_as_json(report, run_examples), exit_code=code, notes=err)


def _shown(example: ExampleResult) -> str:
    body = "\n".join("  | " + line for line in example.text.splitlines())
    status = "ok" if example.ok else "FAIL"
    return (
        f"== {example.rule_id} :: {example.name} [{status}] "
        f"{example.raw_chars} -> {example.reduced_chars} chars (ratio {example.ratio:.2f})\n{body}\n\n"
    )


def _as_json(report: Report, fixtures: bool) -> dict[str, object]:
    data: dict[str, object] = {
        "ok": report.ok,
        "rules": [
            {"id": r.rule.id, "layer": r.layer, "path": r.path, "examples": len(r.examples)} for r in report.rules
        ],
        "problems": [p.to_dict() for p in report.problems],
    }
    if fixtures:
        data["examples"] = [e.to_dict() for e in report.examples]
    return data


def _as_text(report: Report, fixtures: bool, code: int) -> tuple[str, str, int]:
    err = []
    for problem in report.problems:
        label = "error" if problem.severity == "error" else "note"
        err.append(f"{label}: {problem}")
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
