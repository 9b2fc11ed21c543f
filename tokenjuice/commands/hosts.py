"""`tokenjuice install|uninstall|doctor [HOST]`: the same three verbs for every host.

With no host, `install` lists the hosts found on this machine and what it would
do for each; `--all` acts on every one found (install) or every one holding our
entry (uninstall). `doctor hooks` reports every host.
"""

from __future__ import annotations

import os

from ..errors import UsageError
from ..hosts import base, manage
from ..hosts.hook import HOSTS, load
from ..output import Output
from ..paths import git_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _flags(project: bool, local: bool) -> str:
    return (" --project" if project else "") + (" --local" if local else "")


def _host(name: str) -> base.Host:
    try:
        return load(name)
    except KeyError:
        raise UsageError(f"unknown host {name}; one of: {', '.join(HOSTS)}") from None


def install(
    name: str | None, *, every: bool, project: bool, local: bool, dry_run: bool, mode: str | None = None
) -> Output:
    if name is None and not every:
        return detected_hosts(project=project)
    names = [name] if name else [n for n in HOSTS if load(n).detected()]
    if not names:
        return Output(text="no agent host found on this machine; name one: tokenjuice install <host>\n", data=[])
    if mode is not None:
        if name is None:
            raise UsageError("--mode needs the host it is for: tokenjuice install <host> --mode <mode>")
        modes = _host(name).modes
        if mode not in modes:
            known = f"one of: {', '.join(modes)}" if modes else "it has only one way to be hooked"
            raise UsageError(f"{name} has no mode {mode!r}; {known}")
    outputs = [_install_one(_host(n), project=project, local=local, dry_run=dry_run, mode=mode) for n in names]
    if not dry_run:
        manage.compile_bytecode()
    return _joined(outputs)


def _install_one(host: base.Host, *, project: bool, local: bool, dry_run: bool, mode: str | None = None) -> Output:
    host.mode = mode
    path = host.config_path(project)
    command = host.hook_command(manage.launcher(local))
    result = host.install(path, command, dry_run=dry_run)
    data = _result_data(host, result, dry_run)
    if dry_run:
        return Output(text=result.diff or f"{path} already has this entry; nothing to change\n", data=data)
    what = "rule" if host.advisory else "hook"
    said = {
        "installed": f"installed the {host.title} {what} in {path}",
        "updated": f"updated the {host.title} {what} in {path}",
        "unchanged": f"the {host.title} {what} in {path} is already up to date",
    }.get(result.action, f"{result.action}: {path}")
    out = [said]
    if result.command:
        out.append(f"  command: {result.command}")
    if result.backup:
        out.append(f"  backup:  {result.backup}")
    out.append(f"  check:   tokenjuice doctor {host.name} --deep{_flags(project, local)}")
    out.append(f"  remove:  tokenjuice uninstall {host.name}{_flags(project, False)}")
    out += [f"  next:    {note}" for note in result.notes]
    out += [f"warning: {w}" for w in result.warnings]
    return Output(text="\n".join(out) + "\n", data=data)


def uninstall(name: str | None, *, every: bool, project: bool, dry_run: bool) -> Output:
    if name is None and not every:
        raise UsageError("name the host to remove (tokenjuice uninstall <host>) or use --all")
    names = [name] if name else list(HOSTS)
    outputs = []
    for host_name in names:
        host = _host(host_name)
        try:
            path = host.config_path(project)
        except manage.HostError:
            if every:
                continue
            raise
        result = host.uninstall(path, dry_run=dry_run)
        if every and result.action == "absent":
            continue
        outputs.append(_uninstall_output(host, result, project, dry_run))
    if not outputs:
        return Output(text="no tokenjuice hook installed anywhere; nothing to remove\n", data=[])
    return _joined(outputs)


def _uninstall_output(host: base.Host, result: manage.Result, project: bool, dry_run: bool) -> Output:
    data = _result_data(host, result, dry_run)
    if result.action == "absent":
        return Output(text=f"no tokenjuice hook in {result.path}; nothing to remove\n", data=data)
    if dry_run:
        return Output(text=result.diff, data=data)
    said = {
        "restored": f"removed the {host.title} hook: {result.path} is back to its bytes from before install",
        "removed": f"removed the {host.title} hook from {result.path}",
    }.get(result.action, f"{result.action}: {result.path}")
    out = [said]
    if result.backup:
        out.append(f"  backup: {result.backup}")
    out.append(f"  reinstall: tokenjuice install {host.name}{_flags(project, False)}")
    return Output(text="\n".join(out) + "\n", data=data)


def _result_data(host: base.Host, result: manage.Result, dry_run: bool) -> dict[str, Any]:
    """install's and uninstall's JSON: the result, the host, and with --dry-run the diff."""
    return result.to_dict() | {"host": host.name} | ({"diff": result.diff} if dry_run else {})


def detected_hosts(*, project: bool) -> Output:
    """What `install` would do on this machine, host by host."""
    rows: list[dict[str, str]] = []
    advisory: dict[str, bool] = {}
    for name in HOSTS:
        host = load(name)
        why = host.detected()
        try:
            path = host.config_path(project)
        except manage.HostError:
            path = ""
        rows.append({"host": name, "title": host.title, "detected": why or "", "path": path})
        advisory[name] = host.advisory
    width = max(len(r["host"]) for r in rows)
    lines = ["hosts tokenjuice can hook into:"]
    for row in rows:
        found = f"found ({row['detected']})" if row["detected"] else "not found"
        what = "writes advisory instructions to" if advisory[row["host"]] else "adds its hook to"
        lines.append(f"  {row['host']:<{width}}  {found}; install {what} {row['path']}")
    lines.append("install one: tokenjuice install <host>; every host found: tokenjuice install --all")
    return Output(text="\n".join(lines) + "\n", data=rows)


def _joined(outputs: list[Output]) -> Output:
    if len(outputs) == 1:
        return outputs[0]
    return Output(text="\n".join(o.text.rstrip("\n") for o in outputs) + "\n", data=[o.data for o in outputs])


# -- doctor ------------------------------------------------------------------------------


def report(host: base.Host, *, project: bool, local: bool, deep: bool) -> manage.Report:
    path = host.config_path(project)
    try:
        expected: str | None = host.hook_command(manage.launcher(local))
    except manage.HostError:
        expected = None  # tokenjuice not found: the entry is judged on its own
    return host.doctor(path, expected, f"tokenjuice install {host.name}{_flags(project, local)}", deep=deep)


def doctor_host(name: str, *, project: bool, local: bool, deep: bool) -> Output:
    found = report(_host(name), project=project, local=local, deep=deep)
    return Output(text=render(found, ""), data=found.to_dict(), exit_code=1 if found.status == base.BROKEN else 0)


def render(found: manage.Report, indent: str) -> str:
    out = [f"config: {found.path}", f"health: {found.status}" + (" (advisory only)" if found.advisory else "")]
    if found.expected:
        out.append(f"expected command:   {found.expected}")
    if found.detected:
        out.append(f"configured command: {found.detected}")
    problems = [c for c in found.checks if c["status"] in (base.WARN, base.BROKEN)]
    if problems:
        out.append("issues:")
        out += [f"  - [{c['name']}] {c['message']}" for c in problems]
    notes = [c for c in found.checks if c["name"] == "path" and c["message"]]
    out += [f"note: {c['message']}" for c in notes]
    if found.deep:
        deep = found.deep
        verdict = "passed" if deep["ok"] else "failed"
        if "hookLatencyMs" in deep:
            out.append(f"deep check: {verdict}; hook answered in {deep['hookLatencyMs']} ms")
        else:
            out.append(f"deep check: {verdict}")
    if found.fix:
        out.append(f"fix: {found.fix}")
    return "".join(indent + line + "\n" for line in out)


NOTHING_INSTALLED = "no tokenjuice hooks installed; tokenjuice install lists the hosts found on this machine"


def hook_reports(*, local: bool, deep: bool) -> tuple[str, dict[str, manage.Report]]:
    """(overall status, report per integration) for every host, user and project
    level. The overall status ignores disabled ones."""
    reports: dict[str, manage.Report] = {}
    in_repo = git_root(os.getcwd()) is not None
    for name in HOSTS:
        host = load(name)
        reports[name] = report(host, project=False, local=local, deep=deep)
        if in_repo:
            try:
                project_path = host.config_path(True)
            except manage.HostError:
                continue
            if os.path.exists(project_path):
                reports[f"{name} (project)"] = report(host, project=True, local=local, deep=deep)
    overall = manage.worst(r.status for r in reports.values() if r.status != base.DISABLED)
    return overall, reports


def doctor_hooks(*, local: bool, deep: bool) -> Output:
    """Every host in one table."""
    overall, reports = hook_reports(local=local, deep=deep)
    data = {"status": overall, "integrations": {k: r.to_dict() for k, r in reports.items()}}
    width = max(len(name) for name in reports)
    out = [f"hook health: {overall}", ""]
    out += [f"{name:<{width}}  {found.status:<8}  {found.path}" for name, found in reports.items()]
    for name, found in reports.items():
        if found.status != base.DISABLED:
            out += ["", f"{name}:", render(found, "  ").rstrip("\n")]
    if overall == base.DISABLED:
        out += ["", NOTHING_INSTALLED]
    return Output(text="\n".join(out) + "\n", data=data, exit_code=1 if overall == base.BROKEN else 0)
