"""The one error type a command raises for the person at the keyboard.

The message is one sentence saying what is wrong and what to do next; the CLI's
top-level handler prints it (`tokenjuice <command>: <message>`, or a JSON error
object with --format json) and exits with `exit_code`: 1 when something failed,
2 when the command was used wrongly. Any other exception is a bug and keeps its
traceback.
"""

from __future__ import annotations


class TokenjuiceError(Exception):
    """Something failed; the message says what to do about it (exit 1)."""

    exit_code = 1
    kind = "error"


class UsageError(TokenjuiceError):
    """Bad arguments or input (exit 2)."""

    exit_code = 2
    kind = "usage"
