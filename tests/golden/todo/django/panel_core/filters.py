"""List filters: which operators each field takes, and one filter as the list applies it.

``filter[field]=value`` keeps only the records holding exactly that value. Beside it,
a number, integer, decimal, date or date-time field takes an inclusive range,
``filter[field][from]=…`` and ``filter[field][to]=…``; a text field takes
``filter[field][contains]=…`` and ``filter[field][starts_with]=…``, case folded as
``search`` folds it (``panel_core.search``), ``%`` and ``_`` meaning themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import fields as kernel
from .translation import gettext_noop

EQUALS = ""  # ``filter[field]=value``: no operator written
FROM = "from"
TO = "to"
CONTAINS = "contains"
STARTS_WITH = "starts_with"
RANGE = (FROM, TO)
TEXT_MATCHES = (CONTAINS, STARTS_WITH)
# How each operator reads, after the field's label (the chips of the index page).
# (Translated where shown: ``gettext(WORDS[operator])``.)
WORDS = {
    EQUALS: gettext_noop("is"),
    FROM: gettext_noop("from"),
    TO: gettext_noop("to"),
    CONTAINS: gettext_noop("contains"),
    STARTS_WITH: gettext_noop("starts with"),
}
_RANGED = (kernel.Integer, kernel.Number, kernel.Decimal, kernel.Date, kernel.DateTime)
_TEXT = (kernel.Text, kernel.Textarea, kernel.Email, kernel.Url)


@dataclass(frozen=True)
class Filter:
    """One filter of a list request: the field, the operator, the value in the
    field's type."""

    name: str
    operator: str
    value: Any

    @property
    def parameter(self) -> str:
        """The query parameter that asked for it: ``filter[pages][from]``."""
        return parameter(self.name, self.operator)


def parameter(name: str, operator: str = EQUALS) -> str:
    """``filter[name]``, or ``filter[name][operator]``."""
    return f"filter[{name}][{operator}]" if operator else f"filter[{name}]"


def ranged(field: kernel.Field) -> bool:
    """Whether ``field`` takes ``[from]`` and ``[to]``: numbers, dates, instants
    (not a relation's key, nor a choice among options)."""
    return isinstance(field, _RANGED) and not isinstance(field, kernel.BelongsTo)


def matched_as_text(field: kernel.Field) -> bool:
    """Whether ``field`` takes ``[contains]`` and ``[starts_with]``: free text."""
    return isinstance(field, _TEXT)


def operators(field: kernel.Field) -> tuple[str, ...]:
    """The operators ``filter[<field>][…]`` takes, besides plain equality."""
    if ranged(field):
        return RANGE
    if matched_as_text(field):
        return TEXT_MATCHES
    return ()


def usage(field: kernel.Field) -> str:
    """The parameters a field's filters are written with, for an error message."""
    names = [parameter(field.name)]
    names += [parameter(field.name, op) for op in operators(field)]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]
