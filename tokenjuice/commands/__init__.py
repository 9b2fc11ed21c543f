"""One module per CLI command; `cli.py` only declares them."""
