"""Write tests/data/neverwrap_oracle.json: the never-wrap decision of many commands, as the
implementation in force decides them (the regression pin of the never-wrap catalogue).

    .venv/bin/python tests/tools/make_neverwrap_oracle.py

Commands: every string literal of the tests that names a command, every command in
docs/never-wrapped.md's tables, and a generated set: each tool of the catalogue alone and
with each word its rules name (subcommands, flags), pairs of them, an operand, `-y`,
behind wrappers and runners. Each command is kept with three decisions: the whole line
(`why_not_wrapped_script`), its words (`why_not_wrapped`), and its words with stdin supplied.

The pin was made from the Python rules (tokenjuice/interactive*.py before the catalogue
became data), and the data reproduces it exactly; rerun this only to pin a deliberate
change, and review the diff (the generated part now takes its words from the catalogue).
"""

from __future__ import annotations

import ast
import json
import random
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tokenjuice.shell.neverwrap.engine import why_not_wrapped, why_not_wrapped_script  # noqa: E402
from tokenjuice.shell.syntax import split_words  # noqa: E402

OUT = REPO / "tests" / "data" / "neverwrap_oracle.json"


def strings_of(path: Path) -> list[str]:
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError):
        return []
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def from_tests() -> set[str]:
    found = set()
    for path in (REPO / "tests").rglob("test_*.py"):
        for text in strings_of(path):
            if (
                0 < len(text) <= 200
                and "\x00" not in text
                and text.strip() == text
                and text.isprintable()
                and text.encode("utf-8", "ignore").decode() == text
            ):
                found.add(text)
    return found


def from_docs() -> set[str]:
    found = set()
    for line in (REPO / "docs" / "never-wrapped.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") and "`" not in line:
            continue
        for span in re.findall(r"`([^`]+)`", line):
            span = span.replace("…", "x").replace("\\|", "|")
            found.add(span)
            words = span.split()
            for i, word in enumerate(words):  # `npm run dev|start|serve` -> each alternative
                if "|" in word and "'" not in span:
                    for alt in word.split("|"):
                        found.add(" ".join([*words[:i], alt, *words[i + 1 :]]))
    return found


def tool_vocabulary() -> dict[str, set[str]]:
    """Each program of the catalogue -> the words its entry mentions (subcommands, options),
    and the generic tables' programs. (The pin of 2026-11 was made the same way from the Python
    rules, interactive*.py, before they became tokenjuice/shell/neverwrap/*.toml.)"""
    from tokenjuice.shell.neverwrap import schema as neverwrap_schema

    generic, tools = neverwrap_schema.load()

    def words_of(value: object) -> set[str]:
        if isinstance(value, str):
            return {value} if value and " " not in value and "{" not in value and len(value) < 30 else set()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, (list, tuple)):
            return set().union(*(words_of(item) for item in value)) if value else set()
        return set()

    vocab: dict[str, set[str]] = {}
    for tool, entry in zip(tools, neverwrap_schema.compiled(generic, tools)["ENTRIES"], strict=True):
        for name in tool.names:
            if not name.endswith(":"):
                vocab.setdefault(name, set()).update(words_of(entry) - {name})
    for group in generic.start_subcommands:
        vocab.setdefault(group[0], set()).update(group[1:])
    for name in (*generic.server_subcommand, *generic.short_w_watch):
        vocab.setdefault(name, set()).update({"server", "s", "-w", "--watch"})
    for name in generic.operand_tools:
        vocab.setdefault(name, set())
    for name in ("python", "python3", "bash", "sh", "zsh", "fish", "pwsh", "dash", "tcsh", "nu", "create-vite"):
        vocab.setdefault(name, set())
    for name in ("make", "just", "wrangler", "mkdocs", "tailscale", "openstack", "jest", "eslint", "glab", "vercel"):
        vocab.setdefault(name, set())
    return vocab


GENERIC = [
    "",
    "dev",
    "serve",
    "watch",
    "start",
    "run",
    "login",
    "auth login",
    "server",
    "-w",
    "--watch",
    "--watch=false",
    "--help",
    "--version",
    "-h",
    "x",
    "-y",
    "-i",
    "-it",
    "-d",
    "-f",
    "-c x",
    "-e x",
    "--",
    "-- x",
    "serve status",
    "shell",
    "repl",
    "console",
    "init",
    "create x",
    "exec x",
    "logs -f",
    "-p",
    "--yes",
    "1",
    "1 2",
    "x.py",
    "x y",
    "-n",
    "-l",
]
PREFIXES = [
    "",
    "sudo ",
    "timeout 5 ",
    "env A=1 ",
    "nohup ",
    "npx ",
    "uv run ",
    "bash -c ",
    "ssh host ",
    "docker exec c ",
    "CI=1 ",
    "time ",
    "pnpm exec ",
    "python -m ",
    "strace ",
    "GIT_EDITOR=true ",
]


def generated(vocab: dict[str, set[str]]) -> set[str]:
    rng = random.Random(24)
    found = set()
    for tool in sorted(vocab):
        words = sorted(vocab[tool])
        found.add(tool)
        for g in GENERIC:
            found.add(f"{tool} {g}".strip())
        for w in words:
            found.add(f"{tool} {w}")
            found.add(f"{tool} {w} x")
        if words:
            for _ in range(min(15, len(words) * len(words))):
                a, b = rng.choice(words), rng.choice(words)
                found.add(f"{tool} {a} {b}")
                c = rng.choice(words)
                found.add(f"{tool} {a} {b} {c} x")
    samples = sorted(found)
    for prefix in PREFIXES[1:]:
        for command in rng.sample(samples, 300):
            if prefix in ("bash -c ", "ssh host "):
                found.add(prefix + "'" + command.replace("'", "") + "'")
            else:
                found.add(prefix + command)
    for command in rng.sample(samples, 250):
        found.add(command + " | cat")
        found.add("cat x | " + command)
        found.add(command + " < x")
        found.add(command + " &")
    return found


def decide(command: str) -> list[str | None] | None:
    try:
        words = split_words(command)
    except Exception:  # noqa: BLE001 - a literal that is not a command
        words = None
    try:
        script = why_not_wrapped_script(command)
        waited = why_not_wrapped_script(command, waited=True)
        fish = why_not_wrapped_script(command, "fish")
    except Exception:  # noqa: BLE001
        return None
    if words is None:
        return [script, waited, fish, "!", "!"]
    return [script, waited, fish, why_not_wrapped(words), why_not_wrapped(words, stdin_supplied=True)]


def main() -> None:
    commands = from_tests() | from_docs() | generated(tool_vocabulary())
    pins = {}
    for command in sorted(commands):
        decision = decide(command)
        if decision is not None:
            pins[command] = decision
    reasons: list[str | None] = [None]
    index: dict[str | None, int] = {None: 0}

    def code(decision: list[str | None]) -> int | list[int]:
        codes = [index.setdefault(d, len(index)) for d in decision]
        return codes[0] if len(set(codes)) == 1 else codes

    lines = [f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(code(v))}" for k, v in pins.items()]
    reasons = sorted(index, key=index.__getitem__)
    OUT.write_text(
        '{"reasons": '
        + json.dumps(reasons, ensure_ascii=False, indent=0)
        + ',\n"pins": {\n'
        + ",\n".join(lines)
        + "\n}}\n",
        encoding="utf-8",
    )
    never = sum(1 for v in pins.values() if any(v))
    print(f"{len(pins)} commands, {never} with a never-wrap decision -> {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
