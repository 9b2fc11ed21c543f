"""How install starts the hook (hosts/launch.py): this installation's interpreter
with `-S` and its own folder on sys.path, through a real shell, answering exactly
as a normal start does; `site` after all when that folder no longer holds
tokenjuice or when a dependency is needed."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, make_rule
from helpers import HOOK_LAUNCHER

from hosts.test_hook import PAYLOADS
from tokenjuice.hosts import launch, manage
from tokenjuice.shell.syntax import join

LAUNCHER = f"{sys.executable} -m tokenjuice"


def through_shell(command, payload, cwd, env=None):
    done = subprocess.run(
        ["/bin/sh", "-c", command], input=json.dumps(payload).encode(), capture_output=True, cwd=cwd, env=env
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    return json.loads(done.stdout)


def hook_payload(host, cwd):
    payload = json.loads(json.dumps(PAYLOADS[host]))
    if "tool_input" in payload or "args" in payload:
        payload["cwd"] = payload["directory"] = str(cwd)
    if "tool_input" in payload:
        payload["tool_input"]["cwd"] = str(cwd)
    return payload


def test_this_installation_starts_without_site_and_another_with_the_portable_entry(tmp_path):
    assert launch.direct(LAUNCHER) == HOOK_LAUNCHER
    argv = launch.direct_argv(LAUNCHER)
    assert argv[1:3] == ["-S", "-P"] and f'p="{REPO}"' in argv[-1]
    other = tmp_path / "venv" / "bin"
    other.mkdir(parents=True)
    os.symlink(sys.executable, other / "python")  # another folder: its site-packages are not known here
    assert launch.direct(f"{other / 'python'} -m tokenjuice") == f"{other / 'python'} -P -c '{launch.ENTRY}'"
    assert manage.is_our_command(f"{HOOK_LAUNCHER} hook cursor --wrap-launcher '{LAUNCHER}'", "cursor")


@pytest.mark.parametrize("host", sorted(PAYLOADS))
def test_every_hosts_hook_answers_the_same_without_site(host, workdir):
    payload = hook_payload(host, workdir)
    fast = through_shell(f"{HOOK_LAUNCHER} hook {host} --wrap-launcher '{LAUNCHER}'", payload, workdir)
    normal = through_shell(f"{LAUNCHER} hook {host} --wrap-launcher '{LAUNCHER}'", payload, workdir)
    assert fast == normal


def test_a_folder_that_no_longer_holds_tokenjuice_falls_back_to_site(workdir, tmp_path):
    """Reinstalled for another Python (pipx keeps the venv's path, not its
    site-packages): the hook still answers, through `site`."""
    gone = tmp_path / "lib" / "python3.99" / "site-packages"
    command = join([sys.executable, "-S", "-P", "-c", launch.entry_without_site(str(gone))])
    payload = hook_payload("cursor", workdir)
    answer = through_shell(f"{command} hook cursor --wrap-launcher '{LAUNCHER}'", payload, workdir)
    assert answer == through_shell(f"{LAUNCHER} hook cursor --wrap-launcher '{LAUNCHER}'", payload, workdir)
    assert answer["permission"] == "allow"


@pytest.mark.parametrize(
    "name",
    ["plain", "with space", "it's", 'say "hi"', "back\\slash", "ünïcødé", "new\nline", "$HOME `x`"],
)
def test_the_installed_folder_reaches_python_exactly(tmp_path, name):
    folder = tmp_path / name
    package = folder / "tokenjuice"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "entry.py").write_text("import sys\ndef run():\n    print(repr(sys.path[-1]), 'site' in sys.modules)\n")
    command = join([sys.executable, "-S", "-P", "-c", launch.entry_without_site(str(folder))])
    done = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout == f"{str(folder)!r} False\n", done.stderr


def test_a_folder_name_that_is_not_utf8_reaches_python_exactly(tmp_path):
    folder = os.path.join(os.fsencode(tmp_path), b"caf\xe9")
    os.makedirs(os.path.join(folder, b"tokenjuice"))
    with open(os.path.join(folder, b"tokenjuice", b"__init__.py"), "w") as handle:
        handle.write("")
    with open(os.path.join(folder, b"tokenjuice", b"entry.py"), "w") as handle:
        handle.write("import os, sys\ndef run():\n    print(os.fsencode(sys.path[-1]))\n")
    code = launch.entry_without_site(os.fsdecode(folder))
    assert code.isascii()
    done = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout == f"{folder!r}\n", done.stderr


def test_a_dependency_is_found_through_site_on_demand(tmp_path):
    """Without $SHELL and with a login shell tokenjuice cannot drive, the hook asks
    shellingham, which lives in site-packages, not beside tokenjuice in a checkout."""
    code = (
        f"import sys;sys.path.append({str(REPO)!r});from tokenjuice import entry;"
        "finder=entry._site_on_demand();sys.meta_path.append(finder);import shellingham;"
        "print('site' in sys.modules, finder in sys.meta_path)"
    )
    done = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert done.stdout == "True False\n", done.stderr


def test_claude_codes_compaction_with_a_users_rule_runs_without_site(workdir, isolated_home):
    """The PostToolUse path reduces the output itself; a user's rule is matched with
    `regex`, a dependency: found through site on demand, same answer."""
    rule = 'family = "demo"\n\n[match]\nargv0 = ["seq"]\n\n[filters]\nskip_patterns = ["^1[0-9]*$"]\n'
    make_rule(isolated_home / ".config" / "tokenjuice" / "rules", "demo/seq", rule)
    payload = json.loads((REPO / "tests/fixtures/hosts/claude-code/payloads/posttooluse.bash.input.json").read_text())
    payload["cwd"] = str(workdir)
    payload["tool_input"]["command"] = "seq 1 3000"
    payload["tool_response"]["stdout"] = "\n".join(str(i) for i in range(1, 3001))
    fast = through_shell(f"{HOOK_LAUNCHER} hook claude-code --wrap-launcher '{LAUNCHER}'", payload, workdir)
    normal = through_shell(f"{LAUNCHER} hook claude-code --wrap-launcher '{LAUNCHER}'", payload, workdir)
    strip = lambda answer: json.dumps(answer).split("tokenjuice cat")[0]  # noqa: E731 - the stored ids differ
    assert strip(fast) == strip(normal)
    shown = fast["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert "\n2999\n" in f"\n{shown}\n" and "\n1999\n" not in f"\n{shown}\n"  # the user's rule shaped it


# -- the tokenjuice-hook launcher install writes -------------------------------------------


def test_the_launcher_carries_the_flags_in_its_shebang_and_answers_like_the_direct_start(workdir):
    path = launch.write_hook_script(LAUNCHER)
    assert path == os.path.join(os.path.dirname(sys.executable), "tokenjuice-hook")
    first = Path(path).read_text().splitlines()[0]
    assert first == f"#!{sys.executable} -SP"  # -S: no site on every shell command; -P: no project folder
    assert os.access(path, os.X_OK)
    entry = launch.hook_entry(LAUNCHER, "cursor")
    assert entry == f"{path} cursor --wrap-launcher '{LAUNCHER}'"
    assert manage.is_our_command(entry, "cursor") and not manage.is_our_command(entry, "codex")
    for host in sorted(PAYLOADS):
        payload = hook_payload(host, workdir)
        via_launcher = through_shell(launch.hook_entry(LAUNCHER, host), payload, workdir)
        assert via_launcher == through_shell(
            f"{HOOK_LAUNCHER} hook {host} --wrap-launcher '{LAUNCHER}'", payload, workdir
        )


def test_the_launcher_runs_without_site_and_without_the_project_folder(workdir):
    path = launch.write_hook_script(LAUNCHER)
    (workdir / "tokenjuice").mkdir()  # a project's own folder of that name must not shadow the package
    (workdir / "tokenjuice" / "__init__.py").write_text("raise SystemExit('shadowed')\n")
    probe = "import sys;print('site' in sys.modules, sys.flags.no_site, sys.flags.safe_path)"
    code = Path(path).read_text().replace('sys.argv[1:1] = ["hook"]\nrun()\n', f"{probe}\n")
    script = workdir / "probe-hook"
    script.write_text(code)
    script.chmod(0o755)
    done = subprocess.run([str(script)], capture_output=True, text=True, cwd=workdir)
    assert done.stdout == "False 1 True\n", done.stderr


def test_no_launcher_where_its_folder_cannot_be_written_or_the_shebang_is_too_long(tmp_path):
    other = tmp_path / ("v" * 120) / "bin"
    other.mkdir(parents=True)
    os.symlink(sys.executable, other / "python")
    assert launch.hook_script(f"{other / 'python'} -m tokenjuice") is None  # another installation: no -S start
    assert launch.hook_entry("tokenjuice", "cursor") == "tokenjuice hook cursor"  # PATH-relative: as it is


def test_a_project_install_writes_a_path_relative_entry_that_fails_open(workdir, tmp_path):
    import conftest

    conftest.git("init", "-q", cwd=workdir)
    done = conftest.tokenjuice("install", "cursor", "--project")
    assert done.returncode == 0, done.stderr
    assert b"tokenjuice from PATH" in done.stdout
    entry = json.loads((workdir / ".cursor" / "hooks.json").read_text())["hooks"]["preToolUse"][0]["command"]
    assert entry == "tokenjuice hook cursor"  # nobody's home folder in a file the team commits
    gemini = conftest.tokenjuice("install", "gemini", "--project")
    assert gemini.returncode == 0
    events = json.loads((workdir / ".gemini" / "settings.json").read_text())["hooks"]
    command = next(group["hooks"][0] for groups in events.values() for group in groups)  # BeforeTool or AfterTool
    assert command["command"] == "tokenjuice hook gemini 2>/dev/null || true"
    # where tokenjuice is not installed the entry fails open: no output, exit 0 (Gemini) or 127 (Cursor: runs it)
    empty = {"PATH": str(tmp_path / "nothing"), "HOME": os.environ["HOME"]}
    ran = subprocess.run(["/bin/sh", "-c", command["command"]], capture_output=True, env=empty, input=b"{}")
    assert ran.returncode == 0 and ran.stdout == b""
    doctor = conftest.tokenjuice("doctor", "cursor", "--project")
    assert b"differs from what install would write" not in doctor.stdout
