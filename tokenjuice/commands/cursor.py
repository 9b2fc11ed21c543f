"""`tokenjuice install|uninstall cursor` and `tokenjuice doctor cursor|hooks`."""

from __future__ import annotations

import os

from ..hosts import cursor
from ..output import Output
from ..paths import git_root


def _flags(project: bool, local: bool) -> str:
    return (" --project" if project else "") + (" --local" if local else "")


def _json(result: cursor.Result, dry_run: bool) -> dict[str, object]:
    return result.to_dict() | ({"diff": result.diff} if dry_run else {})


def install(*, project: bool, local: bool, dry_run: bool) -> Output:
    path = cursor.hooks_path(project)
    result = cursor.install(path, cursor.hook_command(cursor.launcher(local)), dry_run=dry_run)
    data = _json(result, dry_run)
    if dry_run:
        return Output(text=result.diff or f"{path} already has this entry; nothing to change\n", data=data)
    lines = {
        "installed": f"installed the Cursor hook in {path}",
        "updated": f"updated the Cursor hook in {path}",
        "unchanged": f"the Cursor hook in {path} is already up to date",
    }[result.action]
    out = [lines, f"  command: {result.command}"]
    if result.backup:
        out.append(f"  backup:  {result.backup}")
    out.append(f"  check:   tokenjuice doctor cursor --deep{_flags(project, local)}")
    out.append("  see any command's full output: tokenjuice wrap --raw -- <command>")
    out += [f"warning: {w}" for w in result.warnings]
    return Output(text="\n".join(out) + "\n", data=data)


def uninstall(*, project: bool, dry_run: bool) -> Output:
    path = cursor.hooks_path(project)
    result = cursor.uninstall(path, dry_run=dry_run)
    data = _json(result, dry_run)
    if result.action == "absent":
        return Output(text=f"no tokenjuice hook in {path}; nothing to remove\n", data=data)
    if dry_run:
        return Output(text=result.diff, data=data)
    out = [f"removed the Cursor hook from {path}"]
    if result.backup:
        out.append(f"  backup: {result.backup}")
    out.append(f"  reinstall: tokenjuice install cursor{_flags(project, False)}")
    return Output(text="\n".join(out) + "\n", data=data)


def _report(project: bool, local: bool, deep: bool) -> cursor.Report:
    path = cursor.hooks_path(project)
    try:
        expected = cursor.hook_command(cursor.launcher(local))
    except cursor.HostError:
        expected = None  # tokenjuice not on PATH: the entry is judged on its own
    return cursor.doctor(path, expected, f"tokenjuice install cursor{_flags(project, local)}", deep=deep)


def doctor_cursor(*, project: bool, local: bool, deep: bool) -> Output:
    report = _report(project, local, deep)
    code = 1 if report.status == cursor.BROKEN else 0
    return Output(text=_render(report, ""), data=report.to_dict(), exit_code=code)


def _render(report: cursor.Report, indent: str) -> str:
    out = [f"hooks file: {report.path}", f"health: {report.status}"]
    if report.expected:
        out.append(f"expected command:   {report.expected}")
    if report.detected:
        out.append(f"configured command: {report.detected}")
    if report.issues:
        out.append("issues:")
        out += [f"  - {issue}" for issue in report.issues]
    if report.deep:
        deep = report.deep
        out.append(
            f"deep check: {'passed' if deep['ok'] else 'failed'}; hook answered in {deep.get('hookLatencyMs', '?')} ms"
        )
    if report.fix:
        out.append(f"fix: {report.fix}")
    return "".join(indent + line + "\n" for line in out)


NOTHING_INSTALLED = "no tokenjuice hooks installed; enable one with: tokenjuice install cursor"


def hook_reports(*, local: bool, deep: bool) -> tuple[str, dict[str, cursor.Report]]:
    """(overall status, report per integration) for every integration tokenjuice
    manages, user and project level. The overall status ignores disabled ones."""
    reports = {"cursor": _report(False, local, deep)}
    if git_root(os.getcwd()):
        project_path = cursor.hooks_path(True)
        if os.path.exists(project_path):
            reports["cursor (project)"] = _report(True, local, deep)
    overall = cursor.worst(r.status for r in reports.values() if r.status != cursor.DISABLED)
    return overall, reports


def doctor_hooks(*, local: bool, deep: bool) -> Output:
    """Every integration in one table."""
    overall, reports = hook_reports(local=local, deep=deep)
    code = 1 if overall == cursor.BROKEN else 0
    data = {"status": overall, "integrations": {k: r.to_dict() for k, r in reports.items()}}
    width = max(len(name) for name in reports)
    out = [f"hook health: {overall}", ""]
    out += [f"{name:<{width}}  {report.status:<8}  {report.path}" for name, report in reports.items()]
    for name, report in reports.items():
        if report.status != cursor.DISABLED or report.issues:
            out += ["", f"{name}:", _render(report, "  ").rstrip("\n")]
    if overall == cursor.DISABLED:
        out += ["", NOTHING_INSTALLED]
    return Output(text="\n".join(out) + "\n", data=data, exit_code=code)
