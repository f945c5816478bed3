"""The index page's filter bar, its chips and its per-page choice.

Each filterable field gets the control its type asks for (``panel_core.filters``): a
"contains" input for text, a select for an enum, a boolean or a relation that fits one
(else the relation's picker), a from–to pair for numbers, dates and date-times. Each
filter applied is a chip linking to the same list without it, so removing one needs
no JavaScript; the per-page choice keeps every other parameter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import fields as kernel
from .choices import Related
from .filters import (
    CONTAINS,
    EQUALS,
    FROM,
    TEXT_MATCHES,
    TO,
    WORDS,
    matched_as_text,
    parameter,
    ranged,
)
from .forms import Option, Options, Widget, choice, input_attrs
from .resource import Resource
from .translation import gettext, gettext_noop
from .urls import page_url

Params = Sequence[tuple[str, str]]
# What the per-page selector offers, within the resource's ``max_per_page``.
PER_PAGE_CHOICES = (10, 25, 50, 100)
_YES, _NO = gettext_noop("Yes"), gettext_noop("No")
# How a chip names each value a boolean filter takes (``panel_core.query``).
_BOOLEAN_WORDS = {"true": _YES, "1": _YES, "false": _NO, "0": _NO}
_NOTHING = Related()


@dataclass(frozen=True)
class FilterControl:
    """One field's place in the bar: a label and one input, or a from–to pair."""

    label: str
    widgets: list[Widget]

    @property
    def ranged(self) -> bool:
        """Whether the control is a from–to pair."""
        return len(self.widgets) == 2


@dataclass(frozen=True)
class Chip:
    """A filter applied now, and the list without it."""

    text: str
    remove_url: str


@dataclass(frozen=True)
class PerPage:
    """The per-page selector: its choices and the parameters it keeps."""

    options: list[Option]
    kept: list[tuple[str, str]]


def _split(name: str) -> tuple[str, str] | None:
    """``filter[pages][from]`` → ``("pages", "from")``; ``None`` if no filter."""
    if not name.startswith("filter[") or not name.endswith("]"):
        return None
    field, _, operator = name[len("filter[") : -1].partition("][")
    return field, operator


def filter_controls(
    resource: type[Resource], params: Params, options: Options
) -> list[FilterControl]:
    """The bar's controls, holding the filters applied now."""
    current = dict(params)
    controls = []
    for name in resource.filterable_fields:
        field = resource.field_map[name]
        if field.key:
            continue  # a record is opened by its key, not filtered by it
        related = options.get(name, _NOTHING)
        if isinstance(field, kernel.Boolean):
            related = Related(
                options=(("true", gettext(_YES)), ("false", gettext(_NO)))
            )
        if ranged(field):
            pair = [_input(field, FROM, current), _input(field, TO, current)]
            controls.append(FilterControl(field.label, pair))
        elif matched_as_text(field):
            label = f"{field.label} {gettext(WORDS[CONTAINS])}"
            controls.append(FilterControl(label, [_input(field, CONTAINS, current)]))
        else:
            controls.append(
                FilterControl(field.label, [_equals(field, related, current)])
            )
    return controls


def _input(field: kernel.Field, operator: str, current: dict[str, str]) -> Widget:
    """The input of ``filter[field][operator]``, labelled by its operator."""
    name = parameter(field.name, operator)
    kind = "text" if operator in TEXT_MATCHES else field.input_type
    attrs = [] if operator in TEXT_MATCHES else input_attrs(field)
    label = gettext(WORDS[operator])
    return Widget(name, label, kind, current.get(name, ""), attrs=attrs)


def _equals(field: kernel.Field, related: Related, current: dict[str, str]) -> Widget:
    """The input of ``filter[field]``: a select, a relation's picker or a text box."""
    name = parameter(field.name)
    value = current.get(name, "")
    if isinstance(field, kernel.BelongsTo) and related.picker is not None:
        kind = "picker"
    elif isinstance(field, kernel.Boolean | kernel.Select | kernel.BelongsTo):
        kind = "select"
    else:
        kind = "text"
    return Widget(name, field.label, kind, value, **choice(field, kind, value, related))


def kept_filters(
    controls: Sequence[FilterControl], params: Params
) -> list[tuple[str, str]]:
    """The filters applied now that no control of the bar holds (``[starts_with]``,
    a key): the bar's form sends them again, with the per-page choice."""
    shown = {widget.name for control in controls for widget in control.widgets}
    return [
        (name, value)
        for name, value in params
        if name == "per_page" or (_split(name) is not None and name not in shown)
    ]


def chips(resource: type[Resource], params: Params, options: Options) -> list[Chip]:
    """One chip per filter applied now, linking to the list without it."""
    found = []
    for index, (name, value) in enumerate(params):
        split = _split(name)
        if split is None or split[0] not in resource.filterable_fields:
            continue
        field = resource.field_map[split[0]]
        operator = split[1] or EQUALS
        if operator not in WORDS:
            continue
        others = [p for i, p in enumerate(params) if i != index and p[0] != "page"]
        shown = _shown(field, operator, value, options)
        text = f"{field.label} {gettext(WORDS[operator])} {shown}"
        found.append(Chip(text, page_url(resource.uri, "index-page", query=others)))
    return found


def _shown(field: kernel.Field, operator: str, value: str, options: Options) -> str:
    """A filter's value as its chip names it: a choice's label, quoted text."""
    if operator in TEXT_MATCHES:
        return f"“{value}”"
    if isinstance(field, kernel.Boolean):
        word = _BOOLEAN_WORDS.get(value.lower())
        return value if word is None else gettext(word)
    if isinstance(field, kernel.BelongsTo):
        related = options.get(field.name, _NOTHING)
        labels = {str(key): label for key, label in related.options}
        return labels.get(value) or related.current.get(value) or f"#{value}"
    if isinstance(field, kernel.Select):
        named = {str(option): field.label_of(option) for option in field.options}
        return named.get(value, value)
    return value


def per_page(params: Params, current: int, max_per_page: int) -> PerPage:
    """The per-page choices up to ``max_per_page`` (and ``current``), keeping the
    other parameters but the page (the first page of the new size is shown)."""
    sizes = sorted({n for n in PER_PAGE_CHOICES if n <= max_per_page} | {current})
    return PerPage(
        options=[Option(str(n), str(n), n == current) for n in sizes],
        kept=[(k, v) for k, v in params if k not in ("page", "per_page")],
    )
