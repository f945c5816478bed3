"""Exact decimal fields (``type: number, format: decimal``): their digits and values.

YAML reads ``12.30`` as the float 12.3, so a decimal field's values (default, limits,
query tag filters) are read from the text the manifest gives, never from the float:
``12.345`` is refused for two decimal places instead of being rounded.
"""

from __future__ import annotations

import decimal
from collections.abc import Mapping
from typing import Any

from .yamlnodes import Document, Node, Path

# Without precision and scale: 15 digits, which every database (SQLite's REAL too)
# holds exactly, 2 of them after the point.
DEFAULT_PRECISION = 15
DEFAULT_SCALE = 2
_VALUE_KEYS = ("default", "minimum", "maximum")


def is_decimal(spec: Any) -> bool:
    """Whether a field's options declare an exact decimal."""
    options = spec if isinstance(spec, Mapping) else {}
    return options.get("type") == "number" and options.get("format") == "decimal"


def digits(spec: Mapping[str, Any]) -> tuple[int, int]:
    """``(precision, scale)`` of a decimal field, defaults filled in."""
    precision = spec.get("precision")
    scale = spec.get("scale")
    if not isinstance(precision, int) or isinstance(precision, bool):
        precision = DEFAULT_PRECISION
    if not isinstance(scale, int) or isinstance(scale, bool):
        scale = DEFAULT_SCALE
    return precision, scale


def exact(node: Node | None, value: Any) -> decimal.Decimal | None:
    """The value as written (``12.30`` stays 12.30), or None when not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    text = node.raw if node is not None and node.raw is not None else repr(value)
    try:
        found = decimal.Decimal(text.replace("_", ""))
    except decimal.InvalidOperation:
        found = decimal.Decimal(repr(value))
    return found if found.is_finite() else None


def fit_problem(value: decimal.Decimal, precision: int, scale: int) -> str | None:
    """Why ``value`` does not fit NUMERIC(precision, scale), or None (also when
    the scale exceeds the precision: that is reported on its own)."""
    if scale > precision:
        return None
    _, found, exponent = value.as_tuple()
    zeros = len(found) - len("".join(map(str, found)).rstrip("0"))
    places = max(-(int(exponent) + zeros), 0) if value else 0
    if places > scale:
        return f"'{value}' has more than {scale} decimal places (scale {scale})"
    whole = max(value.adjusted() + 1, 0) if value else 0
    if whole > precision - scale:
        return (
            f"'{value}' has more than {precision - scale} digits before the point "
            f"(precision {precision}, scale {scale})"
        )
    return None


def exact_values(document: Document) -> dict[str, Any]:
    """The manifest's values, with the default and limits of each decimal field as
    :class:`decimal.Decimal` read from their text (run on a checked manifest)."""
    manifest = dict(document.value)
    resources = {}
    for name, resource in manifest["resources"].items():
        fields = {}
        for field_name, spec in resource["fields"].items():
            if is_decimal(spec):
                path: Path = ("resources", name, "fields", field_name)
                spec = {
                    **spec,
                    **{
                        key: exact(document.node((*path, key)), spec[key])
                        for key in _VALUE_KEYS
                        if spec.get(key) is not None
                    },
                }
            fields[field_name] = spec
        resources[name] = {**resource, "fields": fields}
        if resource.get("query_tags"):
            resources[name]["query_tags"] = _exact_filters(
                document, name, fields, "query_tags"
            )
        if resource.get("metrics"):
            resources[name]["metrics"] = _exact_filters(
                document, name, fields, "metrics"
            )
    manifest["resources"] = resources
    return manifest


def _exact_filters(
    document: Document, name: str, fields: Mapping[str, Any], kind: str
) -> dict[str, Any]:
    """Query tags (or metrics: ``kind``) whose filter values on decimal fields are
    exact text (``"9.90"``), which the panel reads as a Decimal."""
    tags = {}
    for uri, tag in document.value["resources"][name][kind].items():
        where: Path = ("resources", name, kind, uri, "filter")
        found = {}
        for field_name, value in tag.get("filter", {}).items():
            number = exact(document.node((*where, field_name)), value)
            if is_decimal(fields.get(field_name)) and number is not None:
                value = str(number)
            found[field_name] = value
        tags[uri] = {**tag, "filter": found}
    return tags
