"""Python source fragments laid out exactly as black lays them out.

Every target writes its code with these, so rendered templates need no reformatting
(STYLE.md §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

LINE_LENGTH = 88
INDENT = "    "


def literal(value: Any) -> str:
    """Python source of a plain value, quoted the way black quotes it."""
    if isinstance(value, str):
        text = repr(value)
        if '"' not in value:
            text = '"' + text[1:-1] + '"'
        return text
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items())
        return "{" + items + "}"
    return repr(value)


def call(
    callee: str,
    args: Sequence[str],
    *,
    indent: int,
    prefix: str = "",
    suffix: str = "",
) -> str:
    """``prefix + callee(args) + suffix`` laid out as black lays it out at ``indent``.

    One line when it fits; else the arguments on one line of their own; else one
    argument per line with a trailing comma. The first line carries no indentation
    (the template places it), the following lines carry all of theirs.
    """
    pad = INDENT * indent
    one_line = f"{prefix}{callee}({', '.join(args)}){suffix}"
    if len(pad) + len(one_line) <= LINE_LENGTH:
        return one_line
    inner = pad + INDENT
    joined = inner + ", ".join(args)
    if args and len(joined) <= LINE_LENGTH:
        return f"{prefix}{callee}(\n{joined}\n{pad}){suffix}"
    lines = "".join(f"{inner}{arg},\n" for arg in args)
    return f"{prefix}{callee}(\n{lines}{pad}){suffix}"


def exploded(opening: str, items: Sequence[str], closing: str, *, indent: int) -> str:
    """A bracketed collection one item per line, with black's magic trailing comma.

    Items may already end with their comma (``call(..., suffix=",")`` does, so that
    its line-length check counts it).
    """
    if not items:
        return opening + closing
    pad = INDENT * indent
    lines = "".join(f"{pad}{INDENT}{item.removesuffix(',')},\n" for item in items)
    return f"{opening}\n{lines}{pad}{closing}"


def tuple_assignment(name: str, items: Sequence[str], *, indent: int) -> str:
    """``name = (items)``: one line for a single short item, else one item per line.

    A one-item tuple's comma is not a "magic" trailing comma to black, so black joins
    such a tuple onto one line whenever it fits.
    """
    single = f"{name} = ({items[0].removesuffix(',')},)" if len(items) == 1 else None
    if single and "\n" not in single and len(INDENT * indent + single) <= LINE_LENGTH:
        return single
    return exploded(f"{name} = (", items, ")", indent=indent)


def laid_out(value: Any, *, indent: int, prefix: str = "", suffix: str = "") -> str:
    """``prefix + value + suffix``, a literal of nested dicts, tuples and lists, laid
    out as black lays it out at ``indent``.

    One line when it fits; else the collection exploded, one item per line with a
    trailing comma, each item laid out the same way one level deeper. As with
    :func:`call`, the first line carries no indentation.
    """
    pad = INDENT * indent
    one_line = f"{prefix}{literal(value)}{suffix}"
    brackets = {dict: "{}", tuple: "()", list: "[]"}.get(type(value))
    if brackets is None or not value or len(pad + one_line) <= LINE_LENGTH:
        return one_line
    if isinstance(value, dict):
        items = [
            laid_out(v, indent=indent + 1, prefix=f"{literal(k)}: ", suffix=",")
            for k, v in value.items()
        ]
    else:
        items = [laid_out(v, indent=indent + 1, suffix=",") for v in value]
    lines = "".join(f"{pad}{INDENT}{item}\n" for item in items)
    return f"{prefix}{brackets[0]}\n{lines}{pad}{brackets[1]}{suffix}"


def comment_lines(text: str) -> list[str]:
    """``# text`` wrapped at the line length (ruff's E501 counts comments too)."""
    lines: list[str] = []
    line = "#"
    for word in text.split():
        if len(line) + 1 + len(word) > LINE_LENGTH and line != "#":
            lines.append(line)
            line = "#"
        line += " " + word
    lines.append(line)
    return lines
