"""Surgical edits of JSON text: change one member, keep every other byte.

Re-serialising a user's settings file would reformat it (`2.50` becomes `2.5`,
inline arrays explode over lines). Instead, the text is scanned for the spans of
the values to change and only those spans are rewritten, following the
indentation around them. Kept array elements keep their exact text.
"""

from __future__ import annotations

import json


class Node:
    """A JSON value's span in the text; containers know their children."""

    __slots__ = ("end", "items", "kind", "members", "start")

    def __init__(self, kind: str, start: int) -> None:
        self.kind = kind
        self.start = start
        self.end = start
        self.members: list[tuple[str, int, Node]] = []  # (key, key start, value) for objects
        self.items: list[Node] = []  # for arrays


def scan(text: str) -> Node:
    """Spans of the (already validated) JSON document in `text`."""
    decoder = json.JSONDecoder()
    position = _skip_space(text, 0)
    root, _ = _value(text, position, decoder)
    return root


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n":
        position += 1
    return position


def _value(text: str, position: int, decoder: json.JSONDecoder) -> tuple[Node, int]:
    char = text[position]
    if char == "{":
        node = Node("object", position)
        position = _skip_space(text, position + 1)
        while text[position] != "}":
            key_start = position
            key, position = decoder.raw_decode(text, position)
            position = _skip_space(text, position)
            position = _skip_space(text, position + 1)  # the colon
            child, position = _value(text, position, decoder)
            node.members.append((key, key_start, child))
            position = _skip_space(text, position)
            if text[position] == ",":
                position = _skip_space(text, position + 1)
        node.end = position + 1
        return node, position + 1
    if char == "[":
        node = Node("array", position)
        position = _skip_space(text, position + 1)
        while text[position] != "]":
            child, position = _value(text, position, decoder)
            node.items.append(child)
            position = _skip_space(text, position)
            if text[position] == ",":
                position = _skip_space(text, position + 1)
        node.end = position + 1
        return node, position + 1
    _, end = decoder.raw_decode(text, position)
    node = Node("scalar", position)
    node.end = end
    return node, end


def indent_unit(text: str) -> str:
    """The file's indentation step (two spaces when it cannot tell)."""
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and len(stripped) < len(line):
            return line[: len(line) - len(stripped)]
    return "  "


def _line_indent(text: str, position: int) -> str:
    line_start = text.rfind("\n", 0, position) + 1
    prefix = text[line_start:position]
    return prefix[: len(prefix) - len(prefix.lstrip(" \t"))]


def _alone_on_line(text: str, position: int) -> bool:
    """Is only whitespace between the start of its line and `position`?"""
    line_start = text.rfind("\n", 0, position) + 1
    return not text[line_start:position].strip()


def _render(value: object, indent: str, unit: str, multiline: bool) -> str:
    if not multiline:
        return json.dumps(value, ensure_ascii=False)
    rendered = json.dumps(value, ensure_ascii=False, indent=unit if "\t" not in unit else "\t")
    return rendered.replace("\n", "\n" + indent)


def set_member(text: str, path: tuple[str, ...], value: object) -> str:
    """Set the member at `path` (creating parent objects) and return the new text.

    Replacing an array keeps the exact text of elements that survive (matched by
    value, in order); any other value is rewritten in the style of its neighbours.
    """
    root = scan(text)
    unit = indent_unit(text)
    node = root
    for depth, key in enumerate(path):
        found = next(((k, s, v) for k, s, v in node.members if k == key), None)
        if found is None:
            nested = value
            for outer in reversed(path[depth + 1 :]):
                nested = {outer: nested}
            return _insert_member(text, node, key, nested, unit)
        node = found[2]
        if depth < len(path) - 1 and node.kind != "object":
            raise ValueError(f"{'.'.join(path[: depth + 1])} is not an object")
    if node.kind == "array" and isinstance(value, list):
        return _replace_array(text, node, value, unit)
    indent = _line_indent(text, node.start)
    multiline = "\n" in text[node.start : node.end] or node.kind != "scalar"
    return text[: node.start] + _render(value, indent, unit, multiline) + text[node.end :]


def delete_member(text: str, path: tuple[str, ...]) -> str:
    root = scan(text)
    node = root
    for key in path[:-1]:
        node = next(v for k, _, v in node.members if k == key)
    members = node.members
    index = next(i for i, (k, _, _) in enumerate(members) if k == path[-1])
    _, key_start, value = members[index]
    if len(members) == 1:
        inner_start, inner_end = node.start + 1, node.end - 1
        return text[:inner_start] + text[inner_end:]
    if index > 0:
        cut_start = members[index - 1][2].end
        return text[:cut_start] + text[value.end :]
    next_key_start = members[1][1]
    return text[:key_start] + text[next_key_start:]


def _insert_member(text: str, obj: Node, key: str, value: object, unit: str) -> str:
    member_key = json.dumps(key, ensure_ascii=False)
    if not obj.members:
        outer = _line_indent(text, obj.start)
        multiline = "\n" in text
        if not multiline:
            return text[: obj.start] + "{" + f"{member_key}: {_render(value, '', unit, False)}" + "}" + text[obj.end :]
        inner = outer + unit
        body = f"\n{inner}{member_key}: {_render(value, inner, unit, True)}\n{outer}"
        return text[: obj.start] + "{" + body + "}" + text[obj.end :]
    last_key_start, last_value = obj.members[-1][1], obj.members[-1][2]
    if "\n" in text[obj.start : obj.members[0][1]]:
        indent = _line_indent(text, last_key_start)
        addition = f",\n{indent}{member_key}: {_render(value, indent, unit, True)}"
    else:
        addition = f", {member_key}: {_render(value, '', unit, False)}"
    return text[: last_value.end] + addition + text[last_value.end :]


def _replace_array(text: str, array: Node, values: list[object], unit: str) -> str:
    originals = [(json.loads(text[item.start : item.end]), item) for item in array.items]
    pieces: list[tuple[str, object]] = []
    for value in values:
        match = next((i for i, (old, _) in enumerate(originals) if old == value), None)
        if match is not None:
            item = originals.pop(match)[1]
            pieces.append(("keep", text[item.start : item.end]))
        else:
            pieces.append(("new", value))
    multiline = "\n" in text[array.start : array.end] or (not array.items and "\n" in text)
    if not pieces:
        return text[: array.start] + "[]" + text[array.end :]
    if not multiline:
        rendered = ", ".join(str(p) if kind == "keep" else _render(p, "", unit, False) for kind, p in pieces)
        return text[: array.start] + "[" + rendered + "]" + text[array.end :]
    if array.items:
        element_indent = _line_indent(text, array.items[0].start)
    else:
        element_indent = _line_indent(text, array.start) + unit
    closing_indent = (
        _line_indent(text, array.end - 1) if _alone_on_line(text, array.end - 1) else _line_indent(text, array.start)
    )
    rendered = (",\n" + element_indent).join(
        str(p) if kind == "keep" else _render(p, element_indent, unit, True) for kind, p in pieces
    )
    return text[: array.start] + "[\n" + element_indent + rendered + "\n" + closing_indent + "]" + text[array.end :]
