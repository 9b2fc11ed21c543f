"""Render a reduction as the text an agent reads.

The reduction decided what survives; this module only phrases it: the header
lines, the body with its omission markers, and — when anything was cut — one
trailer line saying how much and where the full output is.
"""

from __future__ import annotations

from ..model import EXACT_PASSTHROUGH, Reduction
from .lines import render

#: Room kept in the size budget for the trailer line.
TRAILER_RESERVE = 160


def text_of(reduction: Reduction) -> str:
    """The inline text: the exact output, or header, body and trailer."""
    if reduction.exact is not None:
        return reduction.exact
    lines = list(reduction.header) + render(reduction.body)
    trailer = trailer_of(reduction)
    if trailer:
        lines.append(trailer)
    return "\n".join(lines)


def trailer_of(reduction: Reduction) -> str | None:
    notes = [reduction.note] if reduction.note else []
    if reduction.omitted_lines > 0:
        notes.append(f"{reduction.omitted_lines} of {reduction.total_lines} lines omitted")
    if reduction.clipped_lines:
        notes.append(f"{reduction.clipped_lines} long line{'s' if reduction.clipped_lines != 1 else ''} clipped")
    if not notes:
        return None
    if reduction.hint:
        notes.append(f"full output: {reduction.hint}")
    return f"(tokenjuice: {'; '.join(notes)})"


def shown_chars(reduction: Reduction, text: str) -> int:
    """How much of the output the reader was shown, for the stats: the whole of it
    when it was left exact by policy (it says nothing about compaction)."""
    return reduction.raw_chars if reduction.passthrough in EXACT_PASSTHROUGH else len(text)
