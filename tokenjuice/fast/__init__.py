"""Stand-ins for standard-library modules on the hot path (`record` for dataclasses,
`fastjson` for json, `lazyre` for compiling patterns at import); docs/performance.md
states what each saves and how to measure it."""
