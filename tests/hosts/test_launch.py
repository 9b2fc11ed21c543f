"""How install starts the hook (hosts/launch.py): this installation's interpreter
with `-S` and its own folder on sys.path, through a real shell, answering exactly
as a normal start does; `site` after all when that folder no longer holds
tokenjuice or when a dependency is needed."""

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO, make_rule
from helpers import HOOK_LAUNCHER

from hosts.test_hook import PAYLOADS
from tokenjuice.hosts import launch, manage
from tokenjuice.shellsyntax import join

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
