"""Hosts that cannot rewrite a command before it runs: Windsurf (Cascade) and Cline.

Neither offers a hook that can change a shell command, so `tokenjuice install
windsurf|cline` writes a rule the agent reads, asking it to prefix noisy
commands with `tokenjuice wrap --` itself. It is advice, not enforcement: the
agent may not follow it, nothing is rewritten, and no permission rule is
bypassed (the host sees and approves the wrapped command as typed).

Where the rule goes (sources in docs/hosts/windsurf.md and docs/hosts/cline.md):
- Windsurf: globally, a marked block in the single shared file
  `~/.codeium/windsurf/memories/global_rules.md`; with --project, a file of our
  own `<git root>/.windsurf/rules/tokenjuice.md` (`trigger: always_on`).
- Cline: a file of our own, globally `~/Documents/Cline/Rules/tokenjuice.md`,
  with --project `<git root>/.clinerules/tokenjuice.md`.
"""

from __future__ import annotations

import os

from . import BROKEN, OK
from .base import Call, Host

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .manage import Report, Result

PROBE_MARK = "tokenjuice-doctor-probe"

RULE = """\
# tokenjuice: keep long command output short

When a shell command may print a lot (test suites, builds, package installs, linters,
`git log`, `git diff`, searches over many files), run it as

    {wrap} <command>

instead of `<command>`. tokenjuice runs the command unchanged (same output order,
same exit code) and shows a compacted output; nothing is lost: when it cut lines,
its last line names `tokenjuice cat <ID>`, which prints the full output.

Do not wrap:
- commands that change the shell itself (`cd`, `export`, `source`, `alias`, `set`);
- commands that wait for input or never end (dev servers, watchers, editors, `tail -f`);
- commands that already start with `tokenjuice`.
"""


class Advisory(Host):
    """A rule file telling the agent to wrap noisy commands itself."""

    advisory = True
    #: The file's name in a rules folder of our own.
    file_name = "tokenjuice.md"
    #: Lines put before the rule in a file of our own (e.g. front matter).
    front = ""

    def call(self, payload: dict[str, Any]) -> Call | None:
        return None  # nothing to rewrite: `tokenjuice hook <advisory host>` answers the neutral {}

    def hook_command(self, launch: str) -> str:
        return f"{launch} wrap --"

    def content(self, command: str) -> str:
        from . import ownfile

        marker = (
            f"<!-- {ownfile.MARKER}: written by tokenjuice install {self.name}; "
            f"tokenjuice uninstall {self.name} removes it -->\n"
        )
        return self.front + marker + "\n" + RULE.format(wrap=command)

    def _ours(self, text: str) -> bool:
        command = wrap_command_of(text)
        return command is not None and text == self.content(command)

    def install(self, path: str, command: str, *, dry_run: bool = False) -> Result:
        from . import ownfile

        notes = [f"{self.title} cannot rewrite commands: this rule asks its agent to prefix noisy ones itself"]
        if self._is_block(path):
            result = ownfile.install_block(path, self.name, RULE.format(wrap=command), dry_run=dry_run, notes=notes)
            result.command = command
            return result
        return ownfile.install(path, self.content(command), self._ours, dry_run=dry_run, command=command, notes=notes)

    def uninstall(self, path: str, *, dry_run: bool = False) -> Result:
        from . import ownfile

        if self._is_block(path):
            return ownfile.uninstall_block(path, self.name, dry_run=dry_run)
        return ownfile.uninstall(path, self._ours, dry_run=dry_run)

    def _is_block(self, path: str) -> bool:
        return os.path.basename(path) != self.file_name

    def doctor(self, path: str, expected: str | None, install_hint: str, *, deep: bool = False) -> Report:
        from ..files.editfile import EditError
        from . import ownfile
        from .manage import Report

        report = Report(self.name, path, expected)
        report.advisory = True
        try:
            text = ownfile.read(path)
            if text is not None and self._is_block(path):
                found = ownfile.find_block(text, self.name)
                text = None if found is None else text[found[0] : found[1]]
        except EditError as error:
            report.check("file", BROKEN, str(error))
            report.fix = f"fix {path}, then run {install_hint}"
            return report
        if text is None or (not self._is_block(path) and not ownfile.has_marker(text)):
            return report.disabled("file", f"no tokenjuice rule in {path}", install_hint)
        report.detected = wrap_command_of(text)
        if report.detected is None or (not self._is_block(path) and not self._ours(text)):
            report.check("file", BROKEN, f"the tokenjuice rule in {path} was changed since tokenjuice wrote it")
            report.fix = f"remove it, then run {install_hint}"
            return report
        report.check("file", OK, f"{path} holds the tokenjuice rule (advice to the agent; nothing is rewritten)")
        report.check_launcher("tokenjuice is where the rule says")
        if report.status == BROKEN:
            report.fix = install_hint
        if deep and report.status != BROKEN:
            report.check_probe(_probe(report.detected), "wrap ran a probe")
        return report


def wrap_command_of(text: str) -> str | None:
    """The `… wrap --` prefix a rule of ours tells the agent to use."""
    for line in text.splitlines():
        stripped = line.strip()
        if line.startswith("    ") and stripped.endswith(" <command>"):
            return stripped[: -len(" <command>")]
    return None


def _probe(wrap: str) -> dict[str, Any]:
    """Run a probe through the wrap prefix the rule names, as the agent would."""
    import subprocess

    command = f"{wrap} sh -c 'echo {PROBE_MARK}; exit 7'"
    try:
        done = subprocess.run(
            ["/bin/sh", "-c", command],
            capture_output=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            env=os.environ | {"TOKENJUICE_STATS": "off"},
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "problem": "the wrapped probe did not finish within 60 s"}
    if done.returncode != 7 or PROBE_MARK.encode() not in done.stdout:
        return {
            "ok": False,
            "commandExitCode": done.returncode,
            "problem": f"{command} exited {done.returncode} with {done.stdout[:200]!r}; expected exit 7 and the probe",
        }
    return {"ok": True, "commandExitCode": 7, "rewrittenCommand": command}


class Windsurf(Advisory):
    name = "windsurf"
    title = "Windsurf"
    front = "---\ntrigger: always_on\n---\n"

    def config_path(self, project: bool, cwd: str | None = None) -> str:
        from .manage import project_config

        if project:
            return project_config(cwd, ".windsurf", "rules", self.file_name)
        return os.path.join(os.path.expanduser("~"), ".codeium", "windsurf", "memories", "global_rules.md")

    def detected(self) -> str | None:
        from .manage import in_use

        return in_use(os.path.join(os.path.expanduser("~"), ".codeium", "windsurf"), "windsurf")


class Cline(Advisory):
    name = "cline"
    title = "Cline"

    def config_path(self, project: bool, cwd: str | None = None) -> str:
        from .manage import HostError, project_config

        if project:
            folder = project_config(cwd, ".clinerules")
            if os.path.isfile(folder):
                raise HostError(
                    f"{folder} is a single rules file; turn it into a folder (move it to .clinerules/rules.md) "
                    "and try again"
                )
            return os.path.join(folder, self.file_name)
        return os.path.join(os.path.expanduser("~"), "Documents", "Cline", "Rules", self.file_name)

    def detected(self) -> str | None:
        from .manage import in_use

        home = os.path.expanduser("~")
        return in_use(os.path.join(home, "Documents", "Cline")) or in_use(os.path.join(home, ".cline"))
