"""What a command hands back to the CLI, and how JSON is printed.

Every command returns an `Output`: the text it prints, the data its `--format json`
form prints, its exit code and any notes for stderr. The CLI renders it; commands
never print.
"""

from __future__ import annotations

from ..fast.fastjson import dumps
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


def pretty(value: object) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)`, byte for byte, without
    importing `json` (CPython's C encoder ignores `indent`, so `json` writes an
    indented document in Python too; its import compiles six patterns). Strings,
    numbers and constants are written by `fastjson.dumps`, as `json` writes them."""
    pieces: list[str] = []
    _indented(value, "\n", pieces)
    return "".join(pieces)


def _indented(value: object, newline: str, out: list[str]) -> None:
    """`value` written as `json` writes it with `indent=2` into `out`; `newline` is the
    newline and indent of the level `value` stands at."""
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        out.append("{")
        for index, (key, item) in enumerate(value.items()):
            out.append("," + inner if index else inner)
            # a key that is no string is written as its JSON text, quoted
            named = key if isinstance(key, str) else dumps(_plain(key, _KEY_REFUSAL))
            out.append(dumps(named) + ": ")
            _indented(item, inner, out)
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        out.append("[")
        for index, item in enumerate(value):
            out.append("," + inner if index else inner)
            _indented(item, inner, out)
        out.append(newline + "]")
    else:
        out.append(dumps(_plain(value, "Object of type {} is not JSON serializable")))


#: What `json` says of a key it cannot write (`_plain`).
_KEY_REFUSAL = "keys must be str, int, float, bool or None, not {}"


def _plain(value: object, refusal: str) -> object:
    """`value`, when `json` writes it as it is (a string, a number, a constant); else
    the TypeError `json` raises, `refusal` saying it with the value's type."""
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(refusal.format(type(value).__name__))


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
