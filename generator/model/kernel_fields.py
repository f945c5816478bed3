"""The one mapping from the manifest's fields to the panel kernel's field declarations.

Targets render it as code (``Text("title", max_length=200, required=True)``) and the
generation-time spec builder instantiates it, so the code and the spec cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import ir, naming

_STRING_CLASSES = {
    None: "Text",
    "text": "Textarea",
    "email": "Email",
    "uri": "Url",
    "uuid": "Uuid",
    "password": "Password",
    "date": "Date",
    "date-time": "DateTime",
    "file": "File",
    "image": "Image",
}
_LENGTH_CLASSES = {"Text", "Textarea", "Email", "Url", "Uuid", "Password"}
# Defaults of the kernel classes, so only deviations are written out.
_CLASS_DEFAULTS = {
    "Textarea": {"sortable": False},
    "Password": {"sortable": False, "filterable": False},
    "File": {"sortable": False, "filterable": False},
    "Image": {"sortable": False, "filterable": False},
}


@dataclass(frozen=True)
class KernelField:
    """A kernel field class name plus the arguments that differ from its defaults."""

    class_name: str
    name: str
    kwargs: tuple[tuple[str, Any], ...]

    def positional(self) -> tuple[Any, ...]:
        """Positional constructor arguments: the name, except for a plain ``ID()``."""
        return () if self.class_name == "ID" else (self.name,)


def class_name(field: ir.Field) -> str:
    """Kernel class for a manifest field."""
    if field.is_key and field.type == "integer" and field.name == "id":
        return "ID"
    if field.relation:
        return "BelongsTo"
    if field.enum is not None:
        return "Select"
    if field.type == "string":
        return _STRING_CLASSES[field.format]
    if field.is_decimal:
        return "Decimal"
    return {"integer": "Integer", "number": "Number", "boolean": "Boolean"}[field.type]


def link_key_type(target: ir.Resource) -> str:
    """The kernel's ``key_type`` of links to ``target``: integer, string or uuid."""
    return _key_type(target.key_field) or "integer"


def _key_type(key: ir.Field) -> str | None:
    """A relation's ``key_type``: None for an integer key (the default), else
    ``string`` or ``uuid``."""
    if key.type == "integer":
        return None
    return "uuid" if key.format == "uuid" else "string"


def kernel_field(field: ir.Field, project: ir.Project) -> KernelField:
    """Map one manifest field to its kernel declaration."""
    cls = class_name(field)
    if cls == "ID" and field.label == "ID" and field.description is None:
        return KernelField("ID", field.name, ())
    candidates: list[tuple[str, Any]] = []
    if field.label != naming.humanize(field.name):
        candidates.append(("label", field.label))
    candidates += _class_options(cls, field, project)
    candidates += [
        ("required", field.required or None),
        ("nullable", field.nullable or None),
        ("read_only", (field.read_only and not field.is_key) or None),
        ("key", (field.is_key and cls != "ID") or None),
        ("key_part", field.key_part or None),
        ("description", field.description),
        ("unique", field.unique or None),
        ("db_default", field.default_sql),
    ]
    if field.has_default:
        default = _text(field.default) if cls == "Decimal" else field.default
        candidates.append(("default", default))
    defaults = {"sortable": True, "filterable": True, **_CLASS_DEFAULTS.get(cls, {})}
    if field.sortable != defaults["sortable"]:
        candidates.append(("sortable", field.sortable))
    if field.filterable != defaults["filterable"]:
        candidates.append(("filterable", field.filterable))
    kwargs = tuple(
        (k, v)
        for k, v in candidates
        if v is not None or (k == "default" and field.has_default)
    )
    return KernelField(cls, field.name, kwargs)


def _class_options(
    cls: str, field: ir.Field, project: ir.Project
) -> list[tuple[str, Any]]:
    """The options only some kernel classes take."""
    options: list[tuple[str, Any]] = []
    if cls == "Select":
        options.append(("options", tuple(field.enum or ())))
        options.append(("option_labels", field.enum_labels or None))
    if cls == "BelongsTo" and field.relation:
        target = project.resource(field.relation)
        options.append(("resource", target.uri))
        options.append(("key_type", _key_type(target.key_field)))
        rule = field.delete_rule
        options.append(("on_delete", None if rule == "restrict" else rule))
    if cls in _LENGTH_CLASSES:
        options += [
            ("min_length", field.min_length),
            ("max_length", field.max_length),
            ("pattern", field.pattern),
        ]
    if cls in {"Integer", "Number", "BelongsTo"}:
        options += [("minimum", field.minimum), ("maximum", field.maximum)]
    if cls in {"File", "Image"}:
        options += [("accept", field.accept), ("max_bytes", field.max_bytes)]
    if cls == "Decimal":  # values as their text: Decimal("price", minimum="0.50")
        options += [
            ("precision", field.precision),
            ("scale", field.scale),
            ("minimum", _text(field.minimum)),
            ("maximum", _text(field.maximum)),
        ]
    return options


def _text(value: Any) -> Any:
    """A decimal's value as its text; None stays None."""
    return None if value is None else str(value)


def kernel_fields(
    resource: ir.Resource, project: ir.Project
) -> tuple[KernelField, ...]:
    """All fields of a resource, key first, as kernel declarations."""
    return tuple(kernel_field(f, project) for f in resource.fields)
