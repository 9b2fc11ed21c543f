"""Reduction: apply a rule to output, then fit and mark the result."""
