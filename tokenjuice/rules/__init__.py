"""The reducer catalogue: rule files, their schema, layers and the compiled index."""
