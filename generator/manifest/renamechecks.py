"""Semantic checks of declared renames: resources' ``renamed_from`` and enum fields'
``renamed_values``.

A resource may continue one that no longer exists under its old name; an enum field
may send rows of values it no longer has to values it has.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .hints import shown
from .yamlnodes import Document


def rename_issues(document: Document, resources: dict[str, Any]) -> Iterator[Issue]:
    """Problems of every resource's ``renamed_from`` and fields' ``renamed_values``."""
    claimed: dict[str, str] = {}
    for name, spec in resources.items():
        if not isinstance(spec, dict):
            continue
        old = spec.get("renamed_from")
        where = ("resources", name, "renamed_from")
        if isinstance(old, str):
            if old in resources:
                message = f"{shown(old)} is still a resource of the manifest"
                hint = "rename from a name no longer in use"
                yield document.issue(where, message, "M020", hint)
            elif old in claimed:
                message = f"{shown(old)} is already renamed to '{claimed[old]}'"
                yield document.issue(where, message, "M020")
            claimed.setdefault(old, name)
        fields = spec.get("fields")
        for field, options in (fields.items() if isinstance(fields, dict) else ()):
            if isinstance(options, dict) and "renamed_values" in options:
                path = ("resources", name, "fields", field, "renamed_values")
                yield from _value_issues(document, path, options)


def _value_issues(
    document: Document, path: tuple[str, ...], options: dict[str, Any]
) -> Iterator[Issue]:
    enum, mapping = options.get("enum"), options.get("renamed_values")
    if not isinstance(mapping, dict):
        return
    if not isinstance(enum, list):
        message = "renamed_values needs an enum field"
        hint = "add 'enum: [...]' with the values rows move to, or remove it"
        yield document.issue(path, message, "M033", hint)
        return
    for old, new in mapping.items():
        if old in enum or _as_value(old, enum) is not None:
            message = f"{shown(old)} is still a value of the enum"
            hint = "rename from a value no longer in the enum"
            yield document.issue((*path, old), message, "M033", hint, key=True)
        elif new not in enum:
            listed = ", ".join(repr(v) for v in enum)
            message = f"moves rows to {new!r}, which is not a value of the enum"
            yield document.issue((*path, old), message, "M033", f"use one of {listed}")


def _as_value(old: str, enum: list[Any]) -> Any:
    """A non-string enum value that the YAML key ``old`` spells (keys are strings)."""
    return next((v for v in enum if not isinstance(v, str) and str(v) == old), None)
