"""Rewrite the golden pins from the current code: `python tests/golden/regenerate.py`."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import PINS, cases, pin

pins = {name: pin(execution, options) for name, execution, options in cases()}
PINS.write_text(
    "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(pins.items())) + "\n}\n", encoding="utf-8"
)
print(f"{len(pins)} cases pinned in {PINS}")
