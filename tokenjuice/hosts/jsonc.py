"""JSON with comments (JSONC), as Copilot's `config.json` and OpenCode's
`opencode.jsonc` are written: `//` and `/* */` comments and trailing commas are
dropped, strings are kept as they are, and the result is parsed as plain JSON.
Standard library only (it runs in the hook)."""

from __future__ import annotations


def strip_jsonc(text: str) -> str:
    """JSON from JSONC: comments and trailing commas removed, strings untouched."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i : j + 1])
            i = j + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif ch in "]}":
            k = len(out) - 1
            while k >= 0 and out[k].isspace():
                k -= 1
            if k >= 0 and out[k] == ",":
                out[k] = ""
            out.append(ch)
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)
