"""`tokenjuice install|uninstall|doctor [HOST]`: the same three verbs for every host.

With no host, `install` lists the hosts found on this machine and what it would
do for each; `--all` acts on every one found (install) or every one holding our
entry (uninstall). `doctor hooks` reports every host.
"""

from __future__ import annotations

import os

from ..errors import TokenjuiceError, UsageError
from ..fast.record import replace
from ..hosts import BROKEN, DISABLED, OK, WARN, base, manage
from ..hosts import launch as launch_module
from ..hosts.hook import HOSTS, load
from ..paths import git_root
from .output import Output, fold

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


#: install's exit codes, one per outcome (docs/hosts.md#exit-codes; 2 is a usage error, as everywhere).
EXIT_FAILED = 1  # a host failed: nothing was written for it (the others were done)
EXIT_NO_HOST = 3  # install --all found no agent host on this machine: nothing was installed
EXIT_NOT_APPROVED = 4  # install codex --approve: the hook is installed, but its approval was not recorded


def _flags(project: bool, local: bool) -> str:
    return (" --project" if project else "") + (" --local" if local else "")


def _host(name: str) -> base.Host:
    try:
        return load(name)
    except KeyError:
        raise UsageError(f"unknown host {name}; one of: {', '.join(HOSTS)}") from None


def install(
    name: str | None,
    *,
    every: bool,
    project: bool,
    local: bool,
    dry_run: bool,
    mode: str | None = None,
    approve: bool = False,
    tools: str | None = None,
) -> Output:
    if name is None and not every:
        return detected_hosts(project=project)
    if approve and name != "codex":
        raise UsageError("--approve is for codex only: tokenjuice install codex --approve")
    if mode is not None:
        if name is None:
            raise UsageError("--mode needs the host it is for: tokenjuice install <host> --mode <mode>")
        modes = _host(name).modes
        if mode not in modes:
            known = f"one of: {', '.join(modes)}" if modes else "it has only one way to be hooked"
            raise UsageError(f"{name} has no mode {mode!r}; {known}")
    if tools is not None and (name is None or tools not in _host(name).tool_sets):
        choosing = [host_name for host_name in HOSTS if _host(host_name).tool_sets]
        raise UsageError(
            f"--tools is for {', '.join(choosing)} (other hosts compact the shell alone): "
            f"tokenjuice install {choosing[0]} --tools {tools}"
        )
    if name is not None:
        output = _install_one(
            _host(name), project=project, local=local, dry_run=dry_run, mode=mode, approve=approve, tools=tools
        )
        if not dry_run:
            _after_install()
        return output
    rows: list[Row] = []
    for host_name in HOSTS:
        host = _host(host_name)
        why = host.detected() or _installed_here(host, project)  # an upgrade renews every hook of ours
        if not why:
            rows.append(
                Row(
                    host_name,
                    "skipped",
                    "",
                    f"not found on this machine (tokenjuice install {host_name} installs it anyway)",
                )
            )
            continue
        try:
            path = host.config_path(project)
            launch = _launcher(project, local, dry_run)
            result = host.install(path, host.hook_command(launch), dry_run=dry_run)
            _note_project(host, result, project=project, local=local)
        except (TokenjuiceError, OSError) as error:
            rows.append(Row(host_name, "failed", "", _error_text(error)))
            continue
        rows.append(Row(host_name, result.action, path, "", result, host))
    if not dry_run and any(row.result is not None and row.result.action != "unchanged" for row in rows):
        _after_install()
    return _batch("install", rows, project=project, dry_run=dry_run)


def _installed_here(host: base.Host, project: bool) -> bool:
    """Did tokenjuice's install write this host's config (its record is there)?"""
    try:
        return manage.text_before_install(host.config_path(project))[0]
    except manage.HostError:
        return False


def _launcher(project: bool, local: bool, dry_run: bool) -> str:
    """What the hook starts tokenjuice with: for a project's config (a file teams
    commit) plain `tokenjuice`, found on PATH; otherwise this installation
    (manage.launcher), whose `tokenjuice-hook` launcher a real install writes."""
    if project and not local:
        return "tokenjuice"
    launch = manage.launcher(local)
    if not dry_run:
        launch_module.write_hook_script(launch)
    return launch


def _note_project(host: base.Host, result: manage.Result, *, project: bool, local: bool) -> None:
    if project and not local and not host.advisory:
        result.notes.append(
            "the entry runs tokenjuice from PATH, so it names no one's folders and works for everyone on the "
            "team who installed tokenjuice; where it is missing the host runs commands unchanged"
        )


def _after_install() -> None:
    """What every install leaves behind besides the hook: byte code for the hook's
    modules, and the rule index (built here, not by the first shell command after
    an install or an upgrade, which would pay 1-2 s for it; every folder without a
    project layer of rules uses this one). Best effort: a cache that cannot be
    written costs the first call that time, nothing else."""
    manage.compile_bytecode()
    from ..rules import index

    try:
        index.load(os.path.abspath(os.sep))
    except (TokenjuiceError, OSError):
        pass


class Row:
    """One host's line in a batch (install/uninstall --all)."""

    __slots__ = ("action", "host", "name", "path", "result", "why")

    def __init__(
        self,
        name: str,
        action: str,
        path: str,
        why: str = "",
        result: manage.Result | None = None,
        host: base.Host | None = None,
    ) -> None:
        self.name, self.action, self.path, self.why, self.result, self.host = name, action, path, why, result, host

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"host": self.name, "action": self.action, "path": self.path or None}
        if self.why:
            data["reason"] = self.why
        if self.result is not None:
            data |= self.result.to_dict() | {"host": self.name}
        return data


def _error_text(error: BaseException) -> str:
    if isinstance(error, OSError) and not isinstance(error, TokenjuiceError):
        where = f" {error.filename}" if error.filename else ""
        return f"cannot write{where}: {error.strerror}; make it writable and try again"
    return str(error)


def _batch(verb: str, rows: list[Row], *, project: bool, dry_run: bool) -> Output:
    """Every host's line, what the changed ones still need, and an exit code that is
    non-zero only when some host failed. A dry run prints each diff first."""
    width = max(len(row.name) for row in rows)
    action_width = max(len(row.action) for row in rows)
    out: list[str] = []
    if dry_run:
        out += [row.result.diff.rstrip("\n") for row in rows if row.result is not None and row.result.diff]
        if out:
            out.append("")
    for row in rows:
        shown = row.path + (f": {row.why}" if row.why and row.path else row.why)
        out.append(f"{row.name:<{width}}  {row.action:<{action_width}}  {shown}")
    head = len(out)  # the diffs and one line per host, whole (scripts read them); what follows is folded
    notes = [
        f"  {row.name}: {note}"
        for row in rows
        if row.result is not None and not dry_run
        for note in [*row.result.notes, *row.result.warnings]
    ]
    if notes:
        out += ["next:", *notes]
    failed = [row.name for row in rows if row.action == "failed"]
    changed = [row.name for row in rows if row.result is not None and row.result.diff]
    none_found = verb == "install" and all(row.action == "skipped" for row in rows)
    none_installed = verb == "uninstall" and all(row.action in ("nothing to remove", "skipped") for row in rows)
    if none_installed:
        out.append(f"nothing to remove: no host has tokenjuice installed{' in this project' if project else ''}")
    elif none_found:
        out.append(
            "no agent host found on this machine, so nothing was installed: install one by name "
            "(tokenjuice install <host>)"
        )
    elif failed:
        done = f"; {', '.join(changed)} {'would be' if dry_run else 'were'} changed all the same" if changed else ""
        out.append(
            f"{len(failed)} of {len(rows)} hosts failed ({', '.join(failed)}){done}; fix what the line says "
            f"and run tokenjuice {verb} --all{' --project' if project else ''} again"
        )
    elif verb == "install" and not dry_run and any(row.result is not None for row in rows):
        out.append("check: tokenjuice doctor hooks --deep")
    data = [row.to_dict() for row in rows]
    if dry_run:
        data = [d | ({"diff": row.result.diff} if row.result else {}) for d, row in zip(data, rows, strict=True)]
    code = EXIT_NO_HOST if none_found else EXIT_FAILED if failed else 0
    text = "\n".join([*out[:head], *(fold(line, "    ") for line in out[head:])])
    return Output(text=text + "\n", data=data, exit_code=code)


def _install_one(
    host: base.Host,
    *,
    project: bool,
    local: bool,
    dry_run: bool,
    mode: str | None = None,
    approve: bool = False,
    tools: str | None = None,
) -> Output:
    host.mode = mode
    host.tools = tools
    host.approve = approve
    path = host.config_path(project)
    command = host.hook_command(_launcher(project, local, dry_run))
    result = host.install(path, command, dry_run=dry_run)
    _note_project(host, result, project=project, local=local)
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
    text = "\n".join(line if _is_data(line) else fold(line, "           ") for line in out) + "\n"
    return Output(text=text, data=data, exit_code=EXIT_NOT_APPROVED if result.undone else 0)


def uninstall(name: str | None, *, every: bool, project: bool, dry_run: bool, purge: bool = False) -> Output:
    if name is None and not every:
        raise UsageError("name the host to remove (tokenjuice uninstall <host>) or use --all")
    if purge and (name is not None or project):
        raise UsageError("--purge removes everything of tokenjuice's: use it as tokenjuice uninstall --all --purge")
    if name is not None:
        host = _host(name)
        result = host.uninstall(host.config_path(project), dry_run=dry_run)
        return _uninstall_output(host, result, project, dry_run)
    rows: list[Row] = []
    for host_name in HOSTS:
        host = _host(host_name)
        try:
            path = host.config_path(project)
        except manage.HostError as error:
            rows.append(Row(host_name, "skipped", "", str(error)))
            continue
        try:
            result = host.uninstall(path, dry_run=dry_run)
        except (TokenjuiceError, OSError) as error:
            rows.append(Row(host_name, "failed", path, _error_text(error)))
            continue
        if result.action == "absent":
            rows.append(Row(host_name, "nothing to remove", path))
        else:
            rows.append(Row(host_name, result.action, path, "", result, host))
    output = _batch("uninstall", rows, project=project, dry_run=dry_run)
    if not purge:
        return output
    if output.exit_code:  # a hook left behind would still run a tokenjuice without its folders
        return replace(output, text=output.text + "nothing purged: remove every hook first\n")
    return _purged(output, dry_run=dry_run)


def _purged(output: Output, *, dry_run: bool) -> Output:
    """`output` followed by the purge: the list of what goes, first, then the removal."""
    from . import paths as locations

    targets = locations.purge_targets()
    lines = [f"{'would remove' if dry_run else 'removing'} what tokenjuice wrote for you:"]
    lines += [f"  {target}" for target in targets] or ["  (nothing: no config, data, cache or temporary store)"]
    others = locations.temp_outputs()[1]
    if others:
        lines.append(
            f"kept: {others} output{'' if others == 1 else 's'} in {locations.temp_store()} that another "
            "home's tokenjuice wrote (or a version that did not say whose)"
        )
    done, failed = locations.purge(dry_run=dry_run)
    lines += [f"failed: {problem}; remove it yourself" for problem in failed]
    if not dry_run and not failed:
        lines.append("purged: tokenjuice kept nothing else (remove the program with pipx, uv or install.sh)")
    data = (
        {"hosts": output.data, "purged": done, "failed": failed}
        if not dry_run
        else {
            "hosts": output.data,
            "wouldRemove": done,
        }
    )
    return Output(text=output.text + "\n".join(lines) + "\n", data=data, exit_code=1 if failed else 0)


def _uninstall_output(host: base.Host, result: manage.Result, project: bool, dry_run: bool) -> Output:
    data = _result_data(host, result, dry_run)
    warned = "".join(fold(f"warning: {w}") + "\n" for w in result.warnings)
    if result.action == "absent":
        return Output(text=f"no tokenjuice hook in {result.path}; nothing to remove\n" + warned, data=data)
    if dry_run:
        return Output(text=result.diff + warned, data=data)
    said = {
        "restored": f"removed the {host.title} hook: {result.path} is back to its bytes from before install",
        "removed": f"removed the {host.title} hook from {result.path}",
        "removed the file install created": f"removed the {host.title} hook: {result.path}, which install "
        "created, is gone",
    }.get(result.action, f"{result.action}: {result.path}")
    out = [said]
    if result.backup:
        out.append(f"  backup: {result.backup}")
    out.append(f"  reinstall: tokenjuice install {host.name}{_flags(project, False)}")
    return Output(text="\n".join(out) + "\n" + warned, data=data)


def _result_data(host: base.Host, result: manage.Result, dry_run: bool) -> dict[str, Any]:
    """install's and uninstall's JSON: the result, the host, and with --dry-run the diff."""
    return result.to_dict() | {"host": host.name} | ({"diff": result.diff} if dry_run else {})


def detected_hosts(*, project: bool) -> Output:
    """Host by host: found on this machine or not, whether our hook is there and
    healthy (doctor's verdict), and where install would write."""
    rows: list[dict[str, str]] = []
    advisory: dict[str, bool] = {}
    posing: set[str] = set()  # hosts whose file holds a look-alike of our hook and nothing of ours
    for name in HOSTS:
        host = load(name)
        why = host.detected()
        try:
            path = host.config_path(project)
            verdict = _safe_report(host, path, project=project, local=False, deep=False)
            status = verdict.status
            if verdict.detected is None and any(c["name"] == "look-alike" for c in verdict.checks):
                posing.add(name)
        except manage.HostError:
            path, status = "", ""
        rows.append({"host": name, "title": host.title, "detected": why or "", "path": path, "hook": status})
        advisory[name] = host.advisory
    width = max(len(r["host"]) for r in rows)
    lines = ["hosts tokenjuice can hook into:"]
    for row in rows:
        found = f"found ({row['detected']})" if row["detected"] else "not found"
        what = "rule" if advisory[row["host"]] else "hook"
        hook = {
            OK: f"our {what} is installed and healthy in {row['path']}",
            WARN: f"our {what} is installed in {row['path']} but needs attention (tokenjuice doctor {row['host']})",
            BROKEN: f"our {what} in {row['path']} is broken (tokenjuice doctor {row['host']})",
        }.get(row["hook"], f"install adds our {what} to {row['path']}" if row["path"] else "")
        if row["host"] in posing:
            hook = (
                f"install adds our {what} to {row['path']}, where a hook poses as tokenjuice's "
                f"(tokenjuice doctor {row['host']})"
            )
        lines.append(f"  {row['host']:<{width}}  {found}; {hook}")
    lines.append("install one: tokenjuice install <host>; every host found: tokenjuice install --all")
    return Output(text="\n".join(lines) + "\n", data=rows)


# -- doctor ------------------------------------------------------------------------------


def report(host: base.Host, *, project: bool, local: bool, deep: bool) -> manage.Report:
    return _safe_report(host, host.config_path(project), project=project, local=local, deep=deep)


def _safe_report(host: base.Host, path: str, *, project: bool, local: bool, deep: bool) -> manage.Report:
    """doctor's report; a config it cannot read is a broken check, never an abort."""
    try:
        return _report(host, path, project=project, local=local, deep=deep)
    except (TokenjuiceError, OSError) as error:
        found = manage.Report(host.name, path, None)
        found.check("file", BROKEN, _error_text(error))
        found.fix = f"fix or move {path}, then run tokenjuice install {host.name}{_flags(project, local)}"
        return found


def _report(host: base.Host, path: str, *, project: bool, local: bool, deep: bool) -> manage.Report:
    try:
        expected: str | None = host.hook_command(_launcher(project, local, True))
    except manage.HostError:
        expected = None  # tokenjuice not found: the entry is judged on its own
    return host.doctor(path, expected, f"tokenjuice install {host.name}{_flags(project, local)}", deep=deep)


def doctor_host(name: str, *, project: bool, local: bool, deep: bool) -> Output:
    found = report(_host(name), project=project, local=local, deep=deep)
    # --deep asks whether the hook works: a hook that is not there does not
    failed = found.status == BROKEN or (deep and found.status == DISABLED)
    return Output(text=render(found, ""), data=found.to_dict(), exit_code=1 if failed else 0)


def render(found: manage.Report, indent: str) -> str:
    out = [f"config: {found.path}", f"health: {found.status}" + (" (advisory only)" if found.advisory else "")]
    if found.expected:
        out.append(f"expected command:   {found.expected}")
    if found.detected:
        out.append(f"configured command: {found.detected}")
    out += [
        f"{c['name']}: {c['message']}"
        for c in found.checks
        if c["name"] in ("mode", "tools", "trust") and c["status"] == OK
    ]
    problems = [c for c in found.checks if c["status"] in (WARN, BROKEN)]
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
    return "".join((indent + line if _is_data(line) else fold(indent + line, "    ")) + "\n" for line in out)


def _is_data(line: str) -> bool:
    """A line naming a command or a file, printed whole (to copy), never folded."""
    return line.lstrip().startswith(("command:", "backup:", "config:", "expected command:", "configured command:"))


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
    overall = manage.worst(r.status for r in reports.values() if r.status != DISABLED)
    return overall, reports


def doctor_hooks(*, local: bool, deep: bool) -> Output:
    """Every host in one table."""
    overall, reports = hook_reports(local=local, deep=deep)
    data = {"status": overall, "integrations": {k: r.to_dict() for k, r in reports.items()}}
    width = max(len(name) for name in reports)
    out = [f"hook health: {overall}", ""]
    out += [f"{name:<{width}}  {found.status:<8}  {found.path}" for name, found in reports.items()]
    for name, found in reports.items():
        if found.status != DISABLED:
            out += ["", f"{name}:", render(found, "  ").rstrip("\n")]
    if overall == DISABLED:
        out += ["", NOTHING_INSTALLED]
    return Output(text="\n".join(out) + "\n", data=data, exit_code=1 if overall == BROKEN else 0)
