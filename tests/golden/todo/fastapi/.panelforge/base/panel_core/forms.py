"""Form inputs for a resource's fields: the create/edit form and the list filters.

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
from .resource import Resource

Options = Mapping[str, Sequence[tuple[Any, str]]]
_LIMITS = (("minimum", "min"), ("maximum", "max"))
_LENGTHS = (("min_length", "minlength"), ("max_length", "maxlength"))
_BOOLEAN_CHOICES = (("true", "Yes"), ("false", "No"))


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
    # After a save refused because someone else changed the record meanwhile: what
    # the record holds now, where it differs from this input's value.
    theirs: str | None = None

    @property
    def checked(self) -> bool:
        """Whether a checkbox is ticked."""
        return self.value == "true"

    def shown(self, value: str) -> str:
        """``value`` of this input as its user sees it: a choice's label."""
        if self.input == "checkbox":
            return "Yes" if value == "true" else "No"
        for option in self.options:
            if option.value == value:
                return option.label
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
    return {
        f.name: form_text(record.get(f.name))
        for f in resource.writable_fields
        if not f.write_only
    }


def default_values(resource: type[Resource]) -> dict[str, str]:
    """The values a new record starts with."""
    return {
        f.name: form_text(f.default) for f in resource.writable_fields if f.has_default
    }


def _input(field_: kernel.Field) -> str:
    if isinstance(field_, kernel.BelongsTo | kernel.Select):
        return "select"
    return field_.input_type


def _attrs(field_: kernel.Field) -> list[tuple[str, str]]:
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
    return attrs


def _options(
    field_: kernel.Field, value: str, related: Sequence[tuple[Any, str]]
) -> list[Option]:
    choices: Sequence[tuple[Any, Any]] = related
    if isinstance(field_, kernel.Select):
        choices = [(option, option) for option in field_.options]
    options = [Option("", "—", value == "")]
    options += [Option(str(v), str(label), str(v) == value) for v, label in choices]
    return options


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
        kind = _input(field_)
        value = "" if field_.write_only else values.get(field_.name, "")
        required = field_.needed_on_create and kind != "checkbox"
        widgets.append(
            Widget(
                name=field_.name,
                label=field_.label,
                input=kind,
                value=value,
                required=required and (creating or not field_.write_only),
                options=(
                    _options(field_, value, options.get(field_.name, ()))
                    if kind == "select"
                    else []
                ),
                attrs=_attrs(field_),
                errors=list(errors.get(field_.name, ())),
                description=field_.description,
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


def _filter_input(field_: kernel.Field) -> str | None:
    if isinstance(field_, kernel.Boolean | kernel.Select | kernel.BelongsTo):
        return "select"
    if isinstance(field_, kernel.Textarea | kernel.DateTime) or field_.key:
        return None  # equality on long text or instants helps nobody
    if isinstance(field_, kernel.Integer | kernel.Number | kernel.Decimal):
        return field_.input_type
    if isinstance(field_, kernel.Date):
        return field_.input_type
    return "text"


def filter_widgets(
    resource: type[Resource], params: Sequence[tuple[str, str]], options: Options
) -> list[Widget]:
    """The list's filter inputs, holding the filters applied now."""
    current = dict(params)
    widgets = []
    for name in resource.filterable_fields:
        field_ = resource.field_map[name]
        kind = _filter_input(field_)
        if kind is None:
            continue
        param = f"filter[{name}]"
        value = current.get(param, "")
        related = options.get(name, ())
        if isinstance(field_, kernel.Boolean):
            related = _BOOLEAN_CHOICES
        choices = _options(field_, value, related) if kind == "select" else []
        step = [("step", "any")] if kind == "number" else []
        widgets.append(
            Widget(param, field_.label, kind, value, options=choices, attrs=step)
        )
    return widgets
