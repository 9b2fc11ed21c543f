"""Readers of each host's own permission settings: whether the host would allow, ask
about or deny a command, so a rewrite never changes that answer."""
