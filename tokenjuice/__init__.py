"""tokenjuice: compact noisy shell output for AI coding agents."""

__version__ = "0.1.0"
