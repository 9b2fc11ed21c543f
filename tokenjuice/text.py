"""Text primitives shared by the reducer: ANSI stripping, line splitting, counting.

"chars" everywhere in tokenjuice are Unicode code points of ANSI-stripped text.
The TypeScript original counted grapheme clusters, which made every length check
super-linear; code points cost O(1) (`len`) and agree with it on ASCII text.
"""

from __future__ import annotations

from itertools import compress, count, repeat
from operator import contains

from .fast.lazyre import compiled

# `re` is imported where a pattern is needed: most outputs have no escape sequence
# and no control character, and a command that prints nothing needs none at all.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import re
    from typing import Any

# OSC (terminated by BEL or ST, never spanning lines), CSI (terminated, or cut off at
# the end of the text), any other escape sequence (ECMA-48: intermediate bytes, then
# one final byte — `ESC ( B`, `ESC =`, `ESC 7`, `ESC c`), and finally a lone ESC.
# Compiled on first use (re caches it): most outputs have no ESC at all. Each run is
# possessive (`*+`): what follows it is never a character of its class (parameters
# 0x30-0x3F, intermediates 0x20-0x2F, a final 0x40-0x7E), so giving one back could
# never make a match, and the engine keeps no place to come back to (~7 % of the
# instructions of stripping 98,600 sequences). A colour (SGR: `ESC [ 1;31 m`), most
# sequences of most outputs, is tried first as what it is, one run and a letter: where
# it matches, the CSI alternative would match the same characters (its parameters stop
# at the same `m`, which is a final byte), and where it does not, the alternatives
# after it are tried as before (~250 instructions a sequence, the CSI's second run and
# its branch between a final byte and the end).
_ANSI = r"\x1b(?:\[[0-9;]*+m|\][^\x07\x1b\n]*+(?:\x07|\x1b\\)|\[[0-?]*+[ -/]*+(?:[@-~]|\Z)|[ -/]*+[0-~]|)"


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences (colours, cursor moves, titles, hyperlinks)."""
    if "\x1b" not in text:
        return text
    # the pieces between sequences, joined: what `re.sub(_ANSI, "", text)` gives (no
    # sequence is empty), without appending an empty replacement after each of them
    split = compiled(_ANSI).split
    if len(text) <= _STRIP_CHUNK:
        return "".join(split(text))
    # A part at a time, each ending after a newline: no sequence holds a newline or
    # looks past one (a CSI cut off at `\Z` ends at the text's end, which a part's end
    # after a newline is not), so each part is stripped as it is in the whole. The
    # pieces of one part are freed before the next part's are made: a 4 MiB log's
    # ~200,000 pieces at once were ~8 MB of fresh memory, ~2,000 page faults (~7 ms).
    parts = []
    start, size = 0, len(text)
    while start < size:
        end = text.find("\n", start + _STRIP_CHUNK) + 1 or size
        parts.append("".join(split(text[start:end])))
        start = end
    return "".join(parts)


#: `strip_ansi` strips a longer text this many characters at a time (to the next newline).
_STRIP_CHUNK = 1 << 16


#: C0 and C1 controls but newline and tab, DEL, and the Unicode bidi controls
#: (embeddings, overrides, isolates and marks) that can make text read in another
#: order than it is ("Trojan Source").
_HIDING = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"


def sanitize(text: str) -> str:
    """Text safe to show: every character that could hide or reorder text is
    written as a visible escape (`\\x08`, `\\u202e`); newlines and tabs stay."""
    if text.isascii() and text.replace("\n", "").replace("\t", "").isprintable():
        return text  # ASCII without controls (most output) is safe: no pattern needed
    hiding = compiled(_HIDING)
    if not hiding.search(text):
        return text
    return hiding.sub(_escape, text)


def one_line(text: str) -> str:
    """`text` safe inside one line of tokenjuice's own messages: escaped like
    `sanitize`, and a newline too (a folder's name must not start a line of its own
    that reads like a trailer)."""
    return sanitize(text).replace("\n", "\\n").replace("\t", "\\t")


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def split_lines(text: str) -> list[str]:
    """Split into display lines, each right-trimmed.

    A line redrawn in place with carriage returns (progress bars, spinners) keeps
    only its final state, as a terminal would show it. Text that uses bare CR as
    its only line ending (classic Mac files) is split on CR instead, so no content
    is dropped.
    """
    if "\r" not in text:
        return list(map(str.rstrip, text.split("\n")))
    if "\n" not in text:
        return list(map(str.rstrip, text.replace("\r", "\n").split("\n")))
    return list(map(str.rstrip, _redrawn(text.split("\n"))))


#: Words that make an overwritten frame of a redrawn line worth keeping.
_ALARM = ("error", "warn", "fail", "fatal", "panic", "denied", "refused", "exception", "traceback")


def _redrawn(lines: list[str]) -> list[str]:
    """`lines` (split at newlines, a CR before each newline still there) with each line
    redrawn in place by carriage returns as its final state (`_final_states`). The
    usual redraw, a progress bar, is its last frame: the frames before the last of all
    redrawn lines are searched for an alarm word at once. Only when one holds such a
    word, or a last frame is blank, is every redrawn line looked at frame by frame."""
    closing = len(lines) - 1  # the last line: no newline after it
    at = []
    # the lines holding a CR, told in C (`"\r" in line` for each, no loop of bytecode a line)
    for index in compress(count(), map(contains, lines, repeat("\r"))):
        line = lines[index]
        if index < closing and line[-1] == "\r":  # CRLF: the CR ends the line, it redraws nothing
            line = lines[index] = line[:-1]
            if "\r" not in line:
                continue
        at.append(index)
    if not at:
        return lines
    parts = [lines[index].rpartition("\r") for index in at]
    finals = [last for _, _, last in parts]
    if all(map(str.strip, finals)) and not holding(lowered_text("\n".join([b for b, _, _ in parts])), _ALARM):
        for index, final in zip(at, finals, strict=True):
            lines[index] = final
        return lines
    redrawn: list[str] = []
    for line in lines:
        if "\r" in line:
            redrawn += _final_states(line)
        else:
            redrawn.append(line)
    return redrawn


def _final_states(line: str) -> list[str]:
    """A line redrawn in place: its final state, preceded by any overwritten frame
    that said something alarming (a warning flashed under a progress bar)."""
    before, _, last = line.rpartition("\r")
    lowered = before.lower()
    if last.strip() and not any(word in lowered for word in _ALARM):
        return [last]  # the usual redraw: no frame before the last said anything alarming
    segments = [segment for segment in line.split("\r") if segment.strip()]
    if not segments:
        return [""]
    final = segments[-1]
    flashed = []
    for segment in segments[:-1]:
        lowered = segment.lower()
        if (
            any(word in lowered for word in _ALARM)
            and segment.strip() not in flashed
            and segment.strip() != final.strip()
        ):
            flashed.append(segment.strip())
    return [*flashed, final]


def lines_holding(lines: list[str], hints: tuple[str, ...]) -> set[int]:
    """The indexes of the lines that hold any of `hints` (lowercase), in any case."""
    return holding(lowered_text("\n".join(lines)), hints)


def lowered_text(text: str) -> str | bytes:
    """`text` lowered, to look for lowercase hints in. As UTF-8 bytes, whose `lower`
    touches ASCII letters only (several times faster than `str.lower` on text that is
    not all ASCII), unless the text holds one of the two characters `str.lower` turns
    into an ASCII letter (`İ` → `i̇`, the Kelvin sign → `k`)."""
    if text.isascii() or "\u0130" in text or "\u212a" in text:
        return text.lower()
    return text.encode("utf-8", "surrogatepass").lower()


def holding(text: str | bytes, hints: tuple[str, ...]) -> set[int]:
    """The indexes of the lines of `text` (lowered) that hold any of `hints`."""
    newline: Any = "\n" if isinstance(text, str) else b"\n"
    positions: list[int] = []
    units: dict[Any, bool] = {}  # whether the text holds each character (each byte of bytes)
    for hint in hints:
        needle: Any = hint if isinstance(text, str) else hint.encode()
        if _lacks_a_unit(text, needle, units):
            continue  # a character it lacks: one `memchr` pass, not a search for the whole hint
        at = text.find(needle)
        while at >= 0:
            positions.append(at)
            end = text.find(newline, at)  # one hit a line is enough: on to the next line
            at = text.find(needle, end + 1) if end >= 0 else -1
    return lines_at(text, positions)


def _lacks_a_unit(text: Any, needle: Any, known: dict[Any, bool]) -> bool:
    """Whether `text` lacks one of the characters (the bytes, for bytes) of a `needle`
    longer than one, each looked for once (`known`) with a one-unit search (`memchr`),
    a fraction of the cost of a search for the whole needle."""
    if len(needle) < 2:
        return False
    for at in range(len(needle)):
        unit = needle[at : at + 1]
        held = known.get(unit)
        if held is None:
            held = known[unit] = unit in text
        if not held:
            return True
    return False


def holds(text: str, literal: str, known: dict[str, bool]) -> bool:
    """`literal in text`, remembered in `known` (what was looked for in `text`). A
    literal one of whose characters the text lacks is not searched for."""
    if not literal:
        return True
    held = known.get(literal)
    if held is None:
        held = known[literal] = not _lacks_a_unit(text, literal, known) and literal in text
    return held


def lines_at(text: str | bytes, positions: list[int]) -> set[int]:
    """The indexes of the lines of `text` these offsets fall in."""
    newline: Any = "\n" if isinstance(text, str) else b"\n"
    found: set[int] = set()
    line = offset = 0
    for at in sorted(positions):
        line += text.count(newline, offset, at)
        offset = at
        found.add(line)
    return found


def trim_empty_edges(lines: list[str]) -> list[str]:
    """Drop blank lines at the start and the end."""
    start, end = 0, len(lines)
    while start < end and not lines[start].strip():
        start += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return lines[start:end] if (start, end) != (0, len(lines)) else lines


_PREPOSITIONS = (" to ", " from ", " in ", " of ", " for ", " by ", " with ", " on ")


def pluralize(count: int, noun: str) -> str:
    """`3 errors`, `2 matches`, `2 dependencies`, `3 files to reformat`; participles
    and adverbs (`4 passed`, `2 permission denied`, `2 not fixable automatically`)
    stay as they are. Counter names should be nouns: `busy` cannot be told apart."""
    if count == 1:
        return f"{count} {noun}"
    head, tail = noun, ""
    for preposition in _PREPOSITIONS:
        if preposition in noun:
            head, tail = noun.split(preposition, 1)
            tail = preposition + tail
            break
    return f"{count} {_plural(head)}{tail}"


def _plural(phrase: str) -> str:
    last = phrase.rsplit(" ", 1)[-1]
    if not last.isalpha() or last.endswith(("ed", "ly")):
        return phrase
    if last.endswith(("s", "x", "z", "sh", "ch")):
        return phrase + "es"
    if len(last) > 1 and last.endswith("y") and last[-2] not in "aeiou":
        return phrase[:-1] + "ies"
    return phrase + "s"


#: What a token (a key, a password, base64) is made of: a cut never leaves part of one
#: in view, where redaction, which needs the whole token, would not recognise it.
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=.%")


def clip_line(line: str, limit: int) -> str:
    """Shorten one overlong line, keeping its start and end and saying how much went.
    A token the cut would split is left out whole, on either side of the cut, when
    it may be a secret (redaction, which needs the whole token, could not see it)."""
    if len(line) <= limit:
        return line
    head = max(20, int(limit * 0.6))
    tail_start = len(line) - max(20, limit - head)
    if head < tail_start:
        head = _token_start(line, head)
        tail_start = _token_end(line, tail_start)
    omitted = tail_start - head
    return f"{line[:head]} …[{omitted} chars omitted]… {line[tail_start:]}"


#: A run of token characters longer than this is a blob (base64 data, minified
#: code), not a secret: a cut through it stays where it is.
_LONGEST_TOKEN = 256


def _token_run(line: str, cut: int) -> tuple[int, int] | None:
    """The token `cut` would split (start, end), or None: no token there, or a run
    longer than `_LONGEST_TOKEN` (a blob)."""
    if not (0 < cut < len(line) and line[cut] in _TOKEN_CHARS and line[cut - 1] in _TOKEN_CHARS):
        return None
    start, end = cut, cut
    while start > 0 and line[start - 1] in _TOKEN_CHARS and end - start <= _LONGEST_TOKEN:
        start -= 1
    while end < len(line) and line[end] in _TOKEN_CHARS and end - start <= _LONGEST_TOKEN:
        end += 1
    return None if end - start > _LONGEST_TOKEN else (start, end)


def _secret_run(line: str, cut: int) -> tuple[int, int] | None:
    """The token `cut` would split, when it (with what precedes it: `KEY=`) may hold a secret."""
    run = _token_run(line, cut)
    if run is None:
        return None
    from .state.redact import might_hold_secrets

    return run if might_hold_secrets(line[max(0, run[0] - 64) : run[1]]) else None


def _token_start(line: str, cut: int) -> int:
    """`cut`, or the start of the secret-like token it would split."""
    run = _secret_run(line, cut)
    return cut if run is None else run[0]


def _token_end(line: str, cut: int) -> int:
    """`cut`, or the end of the secret-like token it would split."""
    run = _secret_run(line, cut)
    return cut if run is None else run[1]
