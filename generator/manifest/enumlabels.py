"""An enum field's ``enum_labels``: what pages show for each value.

``enum_labels`` maps values of the field's ``enum`` to labels (``{paper: Paperback}``);
mapping keys keep their text as written, so an integer enum's ``1`` is the text "1".
The schema has checked that labels are strings (M010); the rest is checked here (M070,
M071) and turned into (value, label) pairs for the IR.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .hints import shown, suggestion_hint
from .yamlnodes import Document


def enum_label_issues(document: Document, resources: dict[str, Any]) -> Iterator[Issue]:
    """Problems of every field's ``enum_labels``."""
    for name, spec in resources.items():
        fields = spec.get("fields") if isinstance(spec, dict) else None
        for field, options in fields.items() if isinstance(fields, dict) else ():
            if isinstance(options, dict) and "enum_labels" in options:
                path = ("resources", name, "fields", field, "enum_labels")
                yield from _issues(document, path, options)


def _issues(
    document: Document, path: tuple[str, ...], options: dict[str, Any]
) -> Iterator[Issue]:
    enum, labels = options.get("enum"), options.get("enum_labels")
    if not isinstance(labels, dict):
        return  # the schema has said what is wrong
    if not isinstance(enum, list):
        message = "enum_labels needs an enum field"
        hint = "add 'enum: [...]' with the values to label, or remove it"
        yield document.issue(path, message, "M071", hint)
        return
    values = [str(value) for value in enum]
    for key, label in labels.items():
        if key not in values:
            message = f"{shown(key)} is not a value of the enum"
            hint = suggestion_hint(key, values, "the enum's values are")
            yield document.issue((*path, key), message, "M070", hint, key=True)
        elif isinstance(label, str) and not label.strip():
            message = f"the label of {shown(key)} is empty"
            hint = "write the text pages show for the value, like 'Paperback'"
            yield document.issue((*path, key), message, "M070", hint)


def enum_labels(enum: Any, labels: Any) -> tuple[tuple[Any, str], ...]:
    """(value, label) pairs in the enum's order, for a checked manifest."""
    if not isinstance(enum, list) or not isinstance(labels, dict):
        return ()
    return tuple((value, labels[str(value)]) for value in enum if str(value) in labels)
