"""The reducer catalogue: rule files, their schema, layers and the compiled index."""

#: The file names a rule folder holds rules in (the loader reads them, trust fingerprints them).
RULE_SUFFIXES = (".toml", ".json")
