"""Errors meant for the person at the keyboard: one sentence, what to do next."""


class UsageError(Exception):
    """Bad arguments or input; printed as `tokenjuice <command>: <message>`, exit 2."""

    exit_code = 2
