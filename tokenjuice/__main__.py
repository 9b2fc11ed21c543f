"""`python -m tokenjuice`."""

from tokenjuice.entry import run

run()
