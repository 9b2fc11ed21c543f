"""Text primitives shared by the reducer: ANSI stripping, line splitting, counting.

"chars" everywhere in tokenjuice are Unicode code points of ANSI-stripped text.
The TypeScript original counted grapheme clusters, which made every length check
super-linear; code points cost O(1) (`len`) and agree with it on ASCII text.
"""

from __future__ import annotations

import re

# OSC (terminated by BEL or ST, never spanning lines), CSI (terminated, or cut off at
# the end of the text), any other escape sequence (ECMA-48: intermediate bytes, then
# one final byte — `ESC ( B`, `ESC =`, `ESC 7`, `ESC c`), and finally a lone ESC.
_ANSI = re.compile(
    r"\x1b(?:\][^\x07\x1b\n]*(?:\x07|\x1b\\)|\[[0-?]*[ -/]*(?:[@-~]|\Z)|[ -/]*[0-~]|)"
)


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences (colours, cursor moves, titles, hyperlinks)."""
    if "\x1b" not in text:
        return text
    return _ANSI.sub("", text)


def split_lines(text: str) -> list[str]:
    """Split into display lines, each right-trimmed.

    A line redrawn in place with carriage returns (progress bars, spinners) keeps
    only its final state, as a terminal would show it. Text that uses bare CR as
    its only line ending (classic Mac files) is split on CR instead, so no content
    is dropped.
    """
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\n" not in text:
            text = text.replace("\r", "\n")
    lines = text.split("\n")
    if "\r" in text:
        lines = [_final_state(line) if "\r" in line else line for line in lines]
    return [line.rstrip() for line in lines]


def _final_state(line: str) -> str:
    segments = [segment for segment in line.split("\r") if segment.strip()]
    return segments[-1] if segments else ""


def trim_empty_edges(lines: list[str]) -> list[str]:
    """Drop blank lines at the start and the end."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end] if (start, end) != (0, len(lines)) else lines


def pluralize(count: int, noun: str) -> str:
    """`3 errors`, `1 error`, `2 matches`, `2 dependencies`; participles such as
    `4 passed` or `2 permission denied` stay as they are."""
    if count == 1 or noun.endswith("ed"):
        return f"{count} {noun}"
    if noun.endswith(("s", "x", "z", "sh", "ch")):
        return f"{count} {noun}es"
    if len(noun) > 1 and noun.endswith("y") and noun[-2] not in "aeiou":
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}s"


def clip_line(line: str, limit: int) -> str:
    """Shorten one overlong line, keeping its start and end and saying how much went."""
    if len(line) <= limit:
        return line
    head = max(20, int(limit * 0.6))
    tail = max(20, limit - head)
    omitted = len(line) - head - tail
    return f"{line[:head]} …[{omitted} chars omitted]… {line[-tail:]}"
