"""Local state: the savings ledger, raw-output artifacts, secret redaction."""
