"""Render a reduction as the text an agent reads.

The reduction decided what survives; this module only phrases it: the header
lines, the body with its omission markers, and — when anything was cut — one
trailer line saying exactly how much and where the whole output is
(`(tokenjuice: 1,204 of 1,300 lines omitted — full output: tokenjuice cat 7f3a2c1d)`,
which names `[--grep RE|--lines A:B]` after the id of an output of 1,000 lines or more).
It never suggests re-running the command. Everything shown passes through
`sanitize` (no control character or bidi override can hide text) and, unless
turned off, redaction.
"""

from __future__ import annotations

from ..model import EXACT_PASSTHROUGH, Reduction
from ..text import sanitize
from .lines import render

#: Room kept in the size budget for the trailer line.
TRAILER_RESERVE = 160


def text_of(reduction: Reduction) -> str:
    """The inline text: the exact output, or header, body and trailer; safe to show."""
    if reduction.exact is not None:
        if reduction.passthrough == "raw":
            return reduction.exact  # asked for byte for byte: nothing escaped, nothing redacted
        text = reduction.exact
    else:
        lines = list(reduction.header) + render(reduction.body)
        trailer = trailer_of(reduction)
        if trailer:
            lines.append(trailer)
        text = "\n".join(lines)
    return shown(text, reduction.redact)


def shown(text: str, redact: bool = True) -> str:
    """`text` as it may be shown: secrets redacted, controls escaped. Redacted first:
    an escaped control (a CRLF key's `\\x0d`) would hide the shape of a secret."""
    if redact and text.strip():
        from ..state import redact as redaction

        if redaction.might_hold_secrets(text):
            text = redaction.redact(text)[0]
    return sanitize(text)


def trailer_of(reduction: Reduction) -> str | None:
    notes = [reduction.note] if reduction.note else []
    if reduction.omitted_lines > 0:
        notes.append(f"{reduction.omitted_lines:,} of {reduction.total_lines:,} lines omitted")
    if reduction.clipped_lines:
        notes.append(f"{reduction.clipped_lines:,} long line{'s' if reduction.clipped_lines != 1 else ''} clipped")
    if reduction.capture_note:
        notes.append(reduction.capture_note)
    if not notes:
        return None
    rule = reduction.rule
    if rule is not None and rule.layer != "builtin":  # a human can see when their own or a project's rule cut
        notes.append(f"cut by the {rule.layer} rule {rule.id} ({rule.path})")
    hint = reduction.hint
    where = f" — {hint}" if hint else ""
    if hint and hint.startswith(_STORED) and reduction.total_lines >= LARGE_LINES:
        where += _PART  # a large output: the part the agent needs, the command's own options
    return f"(tokenjuice: {'; '.join(notes)}{where})"


_STORED = "full output: tokenjuice cat "
#: After a large stored output's `tokenjuice cat ID`: how to read a part of it, in the
#: usage line's own notation (the trailer stays near 100 columns).
_PART = " [--grep RE|--lines A:B]"
#: A stored output this many lines long or more: the trailer says how to read a part of it.
LARGE_LINES = 1000


def shown_chars(reduction: Reduction, text: str) -> int:
    """How much of the output the reader was shown, for the stats: the whole of it
    when it was left exact by policy (it says nothing about compaction)."""
    return reduction.raw_chars if reduction.passthrough in EXACT_PASSTHROUGH else len(text)
