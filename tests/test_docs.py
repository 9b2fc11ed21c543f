"""Generated documentation (tokenjuice.rules.docs)."""

from conftest import REPO


def test_the_state_doc_settings_table_is_generated():
    from tokenjuice.rules.docs import SETTINGS_END, SETTINGS_START, settings_markdown

    text = (REPO / "docs" / "state.md").read_text()
    assert SETTINGS_START in text and SETTINGS_END in text
    assert text.split(SETTINGS_START)[1].split(SETTINGS_END)[0] == settings_markdown(), (
        "docs/state.md's settings table is stale: python -m tokenjuice.rules.docs"
    )


# -- every command a doc shows ------------------------------------------------------------

import os  # noqa: E402
import re  # noqa: E402
import shlex  # noqa: E402
import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import click  # noqa: E402
import pytest  # noqa: E402
from conftest import git, tokenjuice  # noqa: E402

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), *sorted((REPO / "docs" / "hosts").glob("*.md"))]
#: Placeholders the docs write for a value of the reader's.
PLACEHOLDERS = {"<host>": "cursor", "<HOST>": "cursor", "HOST": "cursor", "<mode>": "pre", "ID": "7f3a2c1d"}


def documented_blocks() -> list[tuple[str, list[str]]]:
    """(where, command lines) for every fenced block of the README and docs/ that shows
    `tokenjuice …` lines: each line's comment cut off, placeholders filled in,
    [optional] parts kept."""
    found = []
    for doc in DOCS:
        text = doc.read_text()
        for block in re.finditer(r"```[a-z]*\n(.*?)```", text, re.S):
            lines = []
            for line in block.group(1).splitlines():
                line = line.strip().removeprefix("$ ")
                if not line.startswith("tokenjuice "):
                    continue
                words = shlex.split(line.replace("[", "").replace("]", ""), comments=True)
                lines.append(shlex.join([PLACEHOLDERS.get(word, word) for word in words]))
            if lines:
                where = f"{doc.relative_to(REPO)}:{text[: block.start()].count(chr(10)) + 1}"
                found.append((where, lines))
    return found


BLOCKS = documented_blocks()
#: Commands that reach beyond this machine or run a program the test may not have.
NOT_OFFLINE = re.compile(r" --deep| -- (pytest|make|npm|cargo)\b|^tokenjuice example ")
COMMANDS = [(f"{where} {line}", line) for where, lines in BLOCKS for line in lines]


def parses(words: list[str]) -> None:
    """Parse `tokenjuice WORDS` with the real CLI without running any command."""
    from tokenjuice import cli

    def no_op(**_: object) -> None:
        return None

    def silence(group: click.Group) -> None:
        for command in group.commands.values():
            if isinstance(command, click.Group):
                silence(command)
            else:
                command.callback = no_op

    silence(cli.cli)
    cli.cli.main(args=words, prog_name="tokenjuice", standalone_mode=False)


def test_the_docs_show_commands():
    assert len(COMMANDS) > 50, COMMANDS  # the extraction itself works


@pytest.mark.parametrize(("where", "line"), COMMANDS, ids=[w for w, _ in COMMANDS])
def test_every_documented_command_parses(where, line):
    words = shlex.split(line)[1:]
    try:
        parses(words)
    except click.exceptions.Exit:
        pass
    except click.ClickException as error:
        pytest.fail(f"{where}: {line}: {error.format_message()}")


@pytest.mark.parametrize(("where", "lines"), BLOCKS, ids=[w for w, _ in BLOCKS])
def test_every_documented_block_runs(where, lines, tmp_path):
    """In a fresh HOME and a git repository of its own (with a project layer and a
    saved log), each block's commands run in order without a traceback or a usage
    error; a command may fail as the doc's context allows (exit 1)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    (repo / "build.log").write_text("building\nerror: it broke\n")
    (repo / ".tokenjuice").mkdir()  # a project layer, for the trust commands
    (repo / ".tokenjuice" / "config.toml").write_text("[output]\nmax_chars = 3000\n")
    for folder in (".cursor", ".claude", ".codex", ".gemini"):
        Path(os.environ["HOME"], folder).mkdir(exist_ok=True)
    ran = 0
    for line in lines:
        if NOT_OFFLINE.search(line):
            continue
        words = shlex.split(line)[1:]
        if "7f3a2c1d" in words:  # the docs' example id: one that exists here
            from helpers import stored_id

            words[words.index("7f3a2c1d")] = stored_id(tokenjuice("wrap", "--", "seq", "1", "3000", cwd=repo).stdout)
        done = tokenjuice(*words, cwd=repo, timeout=120)
        assert b"Traceback" not in done.stderr, (where, line, done.stderr)
        assert done.returncode in (0, 1), (where, line, done.returncode, done.stdout[-400:], done.stderr[-400:])
        ran += 1
    if not ran:
        pytest.skip("every command of this block needs a program or a host beyond this machine")


def _quantity(text: str, key: str) -> int | float | str:
    number = re.match(r"([\d.,]+)\s*(KiB|MiB|GiB)?", text)
    if not number:
        return text.strip('`"')
    value = float(number.group(1).replace(",", ""))
    if key.endswith("_bytes"):
        value *= {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}.get(number.group(2) or "", 1)
    return int(value) if value == int(value) else value


def test_every_default_the_docs_quote_is_the_default():
    """`key` (default VALUE) anywhere in the docs, and the defaults wrap --help quotes,
    against the settings themselves (the table in docs/state.md is generated from them)."""
    from tokenjuice.settings import BY_KEY, defaults

    settings = defaults()
    checked = 0
    for doc in DOCS:
        for found in re.finditer(r"`([a-z_]+\.[a-z_]+)` \(default ([^)]+)\)", doc.read_text()):
            key, value = found.groups()
            if key in BY_KEY:
                assert _quantity(value, key) == settings[key], f"{doc.name}: {found.group(0)}"
                checked += 1
    help_text = tokenjuice("wrap", "--help").stdout.decode()
    quoted = re.search(r"--max-capture-bytes N\s+.*?\(default (\d+)", help_text, re.S)
    assert quoted and int(quoted.group(1)) == settings["capture.max_bytes"]
    assert checked >= 1


def test_help_names_hosts_whole_and_every_command_has_help():
    from tokenjuice.hosts.hook import HOSTS

    for command in ("install", "uninstall", "doctor"):
        text = tokenjuice(command, "--help").stdout.decode()
        assert "HOST" in text.splitlines()[0] and ", ".join(HOSTS) in " ".join(text.split()), text
    done = tokenjuice("hook", "--help")
    assert done.returncode == 0 and done.stdout.startswith(b"Usage: tokenjuice hook HOST") and not done.stderr


def test_the_rule_schema_describes_a_rule_in_whole_sentences():
    import json

    schema = json.loads(tokenjuice("schema", "rule").stdout)
    assert schema["description"].endswith(".")


def test_a_path_in_the_docs_that_tokenjuice_writes_is_one_tokenjuice_paths_lists():
    """docs/state.md's table of locations and `tokenjuice paths` say the same."""
    import json

    listed = json.loads(tokenjuice("paths", "--format", "json").stdout)
    home = os.environ["HOME"]
    shown = {entry["path"].replace(home, "~") for entry in listed.values() if isinstance(entry, dict) and entry["path"]}
    table = (REPO / "docs" / "state.md").read_text().split("## Where everything lives")[1].split("##")[0]
    rows = "\n".join(line for line in table.splitlines() if line.startswith("|"))
    for location in re.findall(r"`(~/[^`<]+?)/?`", rows):
        assert any(location.rstrip("/") == s or location.startswith(s + "/") for s in shown), location
    assert shutil.which("sh")
