"""Manifest values with their positions: what the YAML composer hands on.

A :class:`Document` holds the plain values of a manifest (dicts, lists, strings,
numbers, booleans, None) and, for every node, where it starts and how it was written,
so any later check can place its message at the exact line and column, and tell ``no``
written plainly (YAML 1.1 reads it as false) from ``"no"``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..errors import Issue
from .hints import shown

Path = tuple[str | int, ...]

_LINE_BREAK = re.compile("\r\n|[\n\r\x85\u2028\u2029]")

_PLAIN_KEY = re.compile(r"[A-Za-z0-9_-]+")


class Node(NamedTuple):
    """Where a node starts (1-based) and, for a scalar, its text as written."""

    line: int
    column: int
    raw: str | None = None
    plain: bool = False  # an unquoted scalar, so YAML 1.1 resolved its type


def dotted(path: Path) -> str:
    """Render a manifest path: ``resources.Book.fields.pages.type``, ``required[1]``."""
    text = ""
    for part in path:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            name = part if _PLAIN_KEY.fullmatch(part) else json.dumps(part)
            text += f".{name}" if text else name
    return text


@dataclass
class Document:
    """A composed manifest: plain values plus the position of every node and key."""

    file: str
    value: Any = None
    nodes: dict[Path, Node] = field(default_factory=dict)
    keys: dict[Path, Node] = field(default_factory=dict)
    issues: list[Issue] = field(default_factory=list)
    failed: bool = False  # the parser gave up: the text is not YAML

    def node(self, path: Path) -> Node | None:
        """The node at ``path``, or None when the manifest does not spell it out."""
        return self.nodes.get(path)

    def position(self, path: Path, *, key: bool = False) -> tuple[int, int]:
        """Line and column of ``path`` (its key with ``key``), else of a parent."""
        # A path the manifest leaves out (a default) is placed at the key of its
        # nearest parent: a missing ``resources.Book.uri`` points at ``Book:``.
        found = (key and self.keys.get(path)) or self.nodes.get(path)
        while not found and path:
            path = path[:-1]
            found = self.keys.get(path) or self.nodes.get(path)
        return (found.line, found.column) if found else (1, 1)

    def issue(
        self,
        path: Path,
        message: str,
        code: str,
        hint: str | None = None,
        *,
        key: bool = False,
    ) -> Issue:
        """An Issue about ``path``, placed at its value (or at its key with ``key``)."""
        line, column = self.position(path, key=key)
        return Issue(line, column, dotted(path), message, code, hint, self.file)


def line_column(text: str, index: int) -> tuple[int, int]:
    """1-based line and column of ``text[index]``, counting line breaks as YAML does."""
    line, start = 1, 0
    for match in _LINE_BREAK.finditer(text, 0, index):
        line, start = line + 1, match.end()
    return line, index - start + 1


def json_type(value: Any) -> str:
    """The JSON-Schema type name of a plain value, with ``float`` for floats."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "string"
    return "object" if isinstance(value, dict) else "array"


def _as_yaml(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else repr(value)


def yaml_trap(node: Node | None, value: Any) -> str | None:
    """Where a string was meant, the YAML 1.1 surprise: ``YAML reads 'no' as false``."""
    if quote_hint(node, value) is None or node is None or node.raw is None:
        return None
    if _as_yaml(value) == node.raw:
        return None  # "2024" is plainly a number: an ordinary type mismatch
    read_as = f"YAML reads {shown(node.raw)} as {_as_yaml(value)}"
    return f"{read_as}; quote it: {json.dumps(node.raw)}"


def quote_hint(node: Node | None, value: Any) -> str | None:
    """``quote it: "2024"`` for an unquoted scalar YAML read as a boolean or number."""
    if node is None or not node.plain or node.raw is None:
        return None
    if value is None or isinstance(value, (str, dict, list)):
        return None
    return f"quote it: {json.dumps(node.raw)}"
