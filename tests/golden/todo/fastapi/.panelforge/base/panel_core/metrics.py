"""The dashboard's value cards: a resource's ``metrics``, computed and formatted.

A metric counts the records holding its ``filter``'s exact values (as
``filter[field]=value`` keeps them, ``panel_core.filters``), or sums or averages a
number field over them. Each store reads every metric of a resource in one query,
within the user's scope, as ``(sum, count)`` pairs: the sum of the field (nothing for
``count``) and how many values it added (records, for ``count``). The average is
worked out here, so both frameworks and every database give the same value: exact
for a decimal field (its own decimals), else rounded to ``AVERAGE_DECIMALS``.
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from typing import Any

from . import fields as kernel
from .cell_text import decimal_text, float_text, integer_text
from .decimals import quantum
from .filters import EQUALS, Filter
from .query import NO_TOTAL, ListQuery, coerce_value
from .resource import Metric, Resource

COUNT = "count"
SUM = "sum"
AVG = "avg"
AGGREGATES = (COUNT, SUM, AVG)
# The number fields ``sum`` and ``avg`` take (not a relation's key).
NUMBER_FIELDS = (kernel.Integer, kernel.Number, kernel.Decimal)
AVERAGE_DECIMALS = 2
NO_VALUE = "—"
# More digits than any column holds: dividing a decimal sum never rounds it early.
_EXACT = decimal.Context(prec=100)

Value = int | float | decimal.Decimal | None


def metric_filters(resource: type[Resource], metric: Metric) -> tuple[Filter, ...]:
    """The metric's filter as the list's ``filter[field]=value`` filters."""
    return tuple(
        Filter(name, EQUALS, coerce_value(resource.field_map[name], value))
        for name, value in metric.filter.items()
    )


def metric_query(resource: type[Resource], metric: Metric) -> ListQuery:
    """A list query holding the metric's filters, for the store's conditions."""
    key = resource.key_name()
    filters = metric_filters(resource, metric)
    return ListQuery(1, 1, (), filters, total=NO_TOTAL, key=key)


def metric_value(
    resource: type[Resource], metric: Metric, total: Any, counted: int
) -> Value:
    """The metric's value from the store's ``(sum, count)`` (``None``: the average
    of nothing)."""
    if metric.aggregate == COUNT:
        return int(counted)
    field = resource.field_map[str(metric.field)]
    if metric.aggregate == AVG and not counted:
        return None
    divisor = counted if metric.aggregate == AVG else 1
    if isinstance(field, kernel.Decimal):
        # SQLite sums a decimal column as doubles: its own decimals make it exact.
        exact = decimal.Decimal(str(total or 0))
        value = _EXACT.divide(exact, decimal.Decimal(divisor))
        return value.quantize(quantum(field.scale), context=_EXACT)
    if isinstance(field, kernel.Integer) and metric.aggregate == SUM:
        return int(total or 0)
    return round(float(total or 0) / divisor, AVERAGE_DECIMALS)


def metric_json(value: Value) -> int | float | str | None:
    """A value as JSON gives it: a decimal as exact text, as decimal fields are."""
    return str(value) if isinstance(value, decimal.Decimal) else value


def metric_text(value: Value) -> str:
    """A value for people, as a list cell of a number field shows it
    (``panel_core.cell_text``): 12,345 (a count or integer sum; 2024 below five
    digits), 1,234.5 and 120 (a float), a decimal with its field's decimals."""
    if value is None:
        return NO_VALUE
    if isinstance(value, int):
        return integer_text(value)
    if isinstance(value, decimal.Decimal):
        return decimal_text(value)
    return float_text(value)


def metric_cards(
    resource: type[Resource], found: Sequence[tuple[Any, int]]
) -> list[dict[str, Any]]:
    """The resource's metrics with their values, from the store's pairs (in order)."""
    cards = []
    for metric, (total, counted) in zip(resource.metrics, found, strict=True):
        value = metric_value(resource, metric, total, counted)
        cards.append(
            {
                "name": metric.name,
                "label": metric.label,
                "aggregate": metric.aggregate,
                "field": metric.field,
                "value": metric_json(value),
                "display": metric_text(value),
            }
        )
    return cards
