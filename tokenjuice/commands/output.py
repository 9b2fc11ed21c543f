"""What a command hands back to the CLI, and how JSON is printed.

Every command returns an `Output`: the text it prints, the data its `--format json`
form prints, its exit code and any notes for stderr. The CLI renders it; commands
never print.
"""

from __future__ import annotations

from ..fast.fastjson import pretty
from ..fast.record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@record
class Output:
    text: str = ""  # printed in text mode
    data: Any = None  # printed as JSON in json mode (None: the command has only text)
    exit_code: int = 0
    notes: str = ""  # printed on stderr in text mode (JSON carries the same facts)
    warnings: str = ""  # printed on stderr in every mode (stdout stays the answer scripts read)
    raw: bytes | None = None  # written to stdout exactly as it is, in both modes


def json_text(value: object) -> str:
    """Pretty, UTF-8 as is, one trailing newline. A lone surrogate (from input that
    was not valid UTF-8, or a JSON payload that carried one) is written as its
    `\\udXXX` escape, so the output is always valid UTF-8 and valid JSON."""
    text = pretty(value) + "\n"  # json.dumps(value, indent=2, ensure_ascii=False), without importing json
    if not text.isascii():
        from ..fast.lazyre import compiled

        text = compiled("[\ud800-\udfff]").sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    return text


#: The widest line of tokenjuice's own messages (a path or a command longer than that
#: stays whole on a line of its own).
WIDTH = 100


def fold(line: str, indent: str = "  ") -> str:
    """`line` folded between words to at most WIDTH columns, continuation lines
    indented by `indent` past the line's own indent; words are never broken."""
    if len(line) <= WIDTH:
        return line
    import textwrap

    lead = line[: len(line) - len(line.lstrip(" "))]
    return "\n".join(
        textwrap.wrap(
            line.strip(" "),
            WIDTH,
            initial_indent=lead,
            subsequent_indent=lead + indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
    )
