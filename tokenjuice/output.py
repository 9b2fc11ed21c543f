"""How tokenjuice prints JSON: pretty, UTF-8 as is, one trailing newline."""

from __future__ import annotations

import json


def json_text(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"
