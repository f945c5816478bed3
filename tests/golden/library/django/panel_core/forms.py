"""Form inputs for a resource's fields: the create/edit form, and the inputs the list
filters share with it (``panel_core.filter_bar``).

Values travel as the strings an HTML form holds. A checkbox is preceded by a hidden
``false``, so an unticked box still says so (the last value of a name wins).
"""

from __future__ import annotations

import datetime
import decimal
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from . import decimals
from . import fields as kernel
from .choices import Picker, Related, option_text
from .files import StoredFile, from_column
from .inputs import link_keys
from .resource import Resource
from .translation import gettext

# What each belongs-to input offers, by field name (``panel_core.choices``).
Options = Mapping[str, Related]
_NOTHING = Related()
_LIMITS = (("minimum", "min"), ("maximum", "max"))
_LENGTHS = (("min_length", "minlength"), ("max_length", "maxlength"))


@dataclass(frozen=True)
class Option:
    """One choice of a select box."""

    value: str
    label: str
    selected: bool = False


@dataclass(frozen=True)
class Widget:
    """One input: which kind, its current value, its constraints and its errors."""

    name: str
    label: str
    input: str
    value: str = ""
    required: bool = False
    options: list[Option] = field(default_factory=list)
    attrs: list[tuple[str, str]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    description: str | None = None
    # Too many related records for a select box: the picker, and the current value's
    # name (empty when it names no record the user may reach).
    picker: Picker | None = None
    picked: str = ""
    # After a save refused because someone else changed the record meanwhile: what
    # the record holds now, where it differs from this input's value.
    theirs: str | None = None
    # A file input's current file (the edit form shows a link and "Remove").
    file: StoredFile | None = None

    @property
    def checked(self) -> bool:
        """Whether a checkbox is ticked."""
        return self.value == "true"

    def shown(self, value: str) -> str:
        """``value`` of this input as its user sees it: a choice's label."""
        if self.input == "checkbox":
            return gettext("Yes") if value == "true" else gettext("No")
        for option in self.options:
            if option.value == value:
                return option.label
        if self.picker is not None and value:
            return f"#{value}"
        return value or "—"


def form_text(value: Any) -> str:
    """A stored value as an input holds it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return decimals.text(value)
    return str(value)


def record_values(
    resource: type[Resource], record: Mapping[str, Any]
) -> dict[str, str]:
    """An existing record's values, for its edit form (never a password)."""
    values = {
        f.name: form_text(record.get(f.name))
        for f in resource.writable_fields
        if not f.write_only and not isinstance(f, kernel.File)
    }
    for link in resource.many_to_many:
        values[link.name] = ", ".join(form_text(k) for k in record.get(link.name, ()))
    return values


def default_values(resource: type[Resource]) -> dict[str, str]:
    """The values a new record starts with."""
    return {
        f.name: form_text(f.default) for f in resource.writable_fields if f.has_default
    }


def form_values(
    resource: type[Resource],
    record: Mapping[str, Any] | None,
    values: Mapping[str, str] | None = None,
) -> Mapping[str, str]:
    """What the form shows: the ``values`` a user sent, else the record's, else a
    new record's defaults."""
    if values is not None:
        return values
    return record_values(resource, record) if record else default_values(resource)


def submitted_values(
    resource: type[Resource], pairs: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """A submitted form's values by name (the form's own ``_`` fields aside); the
    keys of a many-to-many field, sent once each, joined with commas."""
    values = {name: value for name, value in pairs if not name.startswith("_")}
    for name in resource.many_to_many_map:
        if name in values:
            keys = link_keys(value for key, value in pairs if key == name)
            values[name] = ", ".join(keys)
    return values


def filter_values(params: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The equality filters applied now (``filter[field]=value``), by field name."""
    return {
        name[len("filter[") : -1]: value
        for name, value in params
        if name.startswith("filter[") and name.endswith("]") and "][" not in name
    }


def _input(field_: kernel.Field, related: Related) -> str:
    if isinstance(field_, kernel.BelongsTo) and related.picker is not None:
        return "picker"
    if isinstance(field_, kernel.BelongsTo | kernel.Select):
        return "select"
    return field_.input_type


def input_attrs(field_: kernel.Field) -> list[tuple[str, str]]:
    attrs = [
        (attr, str(getattr(field_, name)))
        for name, attr in (*_LIMITS, *_LENGTHS)
        if getattr(field_, name, None) is not None
    ]
    if isinstance(field_, kernel.Number):
        attrs.append(("step", "any"))
    elif isinstance(field_, kernel.Decimal):
        attrs.append(("step", decimals.text(decimals.quantum(field_.scale))))
    elif isinstance(field_, kernel.DateTime):
        attrs.append(("step", "1"))
    elif isinstance(field_, kernel.File):
        accept = field_.accept or (
            ("image/*",) if isinstance(field_, kernel.Image) else ()
        )
        if accept:
            attrs.append(("accept", ",".join(accept)))
    return attrs


def with_files(
    widgets: Sequence[Widget], resource: type[Resource], record: Mapping[str, Any]
) -> list[Widget]:
    """``widgets`` with each file input's current file (from ``record``)."""
    files = {f.name for f in kernel.file_fields(resource.fields)}
    return [
        (
            replace(widget, file=from_column(record.get(widget.name)))
            if widget.name in files
            else widget
        )
        for widget in widgets
    ]


def _options(
    field_: kernel.Field, value: str, related: Sequence[tuple[Any, str]]
) -> list[Option]:
    if isinstance(field_, kernel.Select):
        choices = [(str(option), field_.label_of(option)) for option in field_.options]
    elif isinstance(field_, kernel.BelongsTo):
        choices = [(str(v), option_text(v, label)) for v, label in related]
    else:
        choices = [(str(v), str(label)) for v, label in related]
    options = [Option("", "—", value == "")]
    options += [Option(v, label, v == value) for v, label in choices]
    return options


def choice(
    field_: kernel.Field, kind: str, value: str, related: Related
) -> dict[str, Any]:
    """The options, or the picker, of an input of ``kind``."""
    if kind == "picker":
        return {"picker": related.picker, "picked": related.current.get(value, "")}
    if kind == "select":
        return {"options": _options(field_, value, related.options)}
    return {}


def form_widgets(
    resource: type[Resource],
    values: Mapping[str, str],
    errors: Mapping[str, Sequence[str]],
    options: Options,
    *,
    creating: bool,
) -> list[Widget]:
    """The inputs of the create (``creating``) or edit form."""
    widgets = []
    fields = resource.form_field_list
    key = resource.key_field
    if creating and key.client_key and key not in fields:
        fields = (key, *fields)  # a string key is given once, on create
    for field_ in fields:
        related = options.get(field_.name, _NOTHING)
        kind = _input(field_, related)
        value = "" if field_.write_only else values.get(field_.name, "")
        required = field_.needed_on_create and kind != "checkbox"
        widgets.append(
            Widget(
                name=field_.name,
                label=field_.label,
                input=kind,
                value=value,
                required=required and (creating or not field_.write_only),
                attrs=input_attrs(field_),
                errors=list(errors.get(field_.name, ())),
                description=field_.description,
                **choice(field_, kind, value, related),
            )
        )
    return widgets + link_widgets(resource, values, errors, options)


def link_widgets(
    resource: type[Resource],
    values: Mapping[str, str],
    errors: Mapping[str, Sequence[str]],
    options: Options,
) -> list[Widget]:
    """The inputs of the many-to-many fields: a multiple select of every record
    when they fit one (``choices.SELECT_LIMIT``), else a text input of keys beside a
    "find…" link; either a search-as-you-type picker with ``static/panel/picker.js``."""
    widgets = []
    for link in resource.many_to_many:
        related = options.get(link.name, _NOTHING)
        value = values.get(link.name, "")
        chosen = set(link_keys([value]))
        kind = "keys" if related.picker is not None else "multiselect"
        choices = [
            Option(str(key), option_text(key, label), str(key) in chosen)
            for key, label in related.options
        ]
        widgets.append(
            Widget(
                name=link.name,
                label=link.label,
                input=kind,
                value=value,
                options=choices,
                errors=list(errors.get(link.name, ())),
                description=link.description,
                picker=related.picker or related.finder,
            )
        )
    return widgets


def beside_theirs(
    widgets: Sequence[Widget], resource: type[Resource], record: Mapping[str, Any]
) -> list[Widget]:
    """``widgets`` with ``theirs`` set where ``record`` (saved by someone else since
    the form was loaded) holds another value than the input."""
    saved = record_values(resource, record)
    return [
        (
            replace(widget, theirs=widget.shown(saved[widget.name]))
            if widget.name in saved and saved[widget.name] != widget.value
            else widget
        )
        for widget in widgets
    ]
