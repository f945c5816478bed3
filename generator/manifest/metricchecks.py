"""A resource's dashboard ``metrics`` (M062, M063).

A metric is ``count`` of the records, or ``sum`` / ``avg`` of a field, over those
its ``filter`` keeps. Its aggregate is one of the three and names a field exactly when
it sums or averages (M062, with a "did you mean" for a misspelt aggregate or field);
that field is a number: integer, number or decimal, not a relation (M063). The filter
is checked as a query tag's: existing, filterable fields (M022, M030) and values that
fit them (M031).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Issue
from .hints import did_you_mean, listing_hint, shown, suggestion_hint
from .identifiers import snake_problem
from .resourcechecks import CheckedResource, filter_issues
from .yamlnodes import Document

METRIC_CODE = "M062"
NUMBER_CODE = "M063"
AGGREGATES = ("count", "sum", "avg")
_NUMBER_TYPES = ("integer", "number")


def is_number_field(spec: Any) -> bool:
    """Whether a field holds numbers ``sum`` and ``avg`` take (not a relation)."""
    options = spec if isinstance(spec, Mapping) else {}
    return options.get("type") in _NUMBER_TYPES and not options.get("relation")


def metric_issues(
    document: Document, name: str, spec: Any, key_types: dict[str, str | None]
) -> Iterator[Issue]:
    """Every problem of the resource's ``metrics``."""
    metrics = spec.get("metrics") if isinstance(spec, dict) else None
    if not isinstance(metrics, dict):
        return
    resource = CheckedResource(document, name, spec, key_types)
    for metric_name, metric in metrics.items():
        where = ("metrics", metric_name)
        problem = snake_problem(str(metric_name))
        if problem:
            yield resource.issue(where, problem[0], METRIC_CODE, problem[1], key=True)
        if not isinstance(metric, dict):
            continue
        yield from _aggregate_issues(resource, where, metric)
        conditions = metric.get("filter")
        for field, value in (
            conditions if isinstance(conditions, dict) else {}
        ).items():
            yield from filter_issues(resource, (*where, "filter", field), value)


def _aggregate_issues(
    resource: CheckedResource, where: tuple[Any, ...], metric: dict[str, Any]
) -> Iterator[Issue]:
    aggregate = metric.get("aggregate")
    if not isinstance(aggregate, str):
        return
    if aggregate not in AGGREGATES:
        message = f"{shown(aggregate)} is not an aggregate: use count, sum or avg"
        hint = did_you_mean(aggregate, AGGREGATES)
        yield resource.issue((*where, "aggregate"), message, METRIC_CODE, hint)
        return
    field = metric.get("field")
    if aggregate == "count":
        if field is not None:
            message = "'count' counts records and takes no 'field'"
            hint = "remove 'field', or use sum or avg"
            yield resource.issue((*where, "field"), message, METRIC_CODE, hint)
        return
    if field is None:
        message = f"{shown(aggregate)} needs the 'field' it adds up"
        yield resource.issue(where, message, METRIC_CODE, _numbers_hint(resource))
        return
    if isinstance(field, str):
        yield from _field_issues(resource, (*where, "field"), aggregate, field)


def _field_issues(
    resource: CheckedResource, where: tuple[Any, ...], aggregate: str, field: str
) -> Iterator[Issue]:
    fields = resource.fields
    if fields is None:
        return
    if field not in fields:
        message = f"refers to {shown(field)}, which is not a field of '{resource.name}'"
        hint = suggestion_hint(field, list(fields), f"fields of '{resource.name}' are")
        yield resource.issue(where, message, METRIC_CODE, hint)
        return
    if not is_number_field(fields[field]):
        message = (
            f"{shown(aggregate)} needs a number field (integer, number or decimal), "
            f"and {shown(field)} is not one"
        )
        yield resource.issue(where, message, NUMBER_CODE, _numbers_hint(resource))


def _numbers_hint(resource: CheckedResource) -> str | None:
    fields = resource.fields or {}
    numbers = [name for name, spec in fields.items() if is_number_field(spec)]
    if not numbers:
        return f"'{resource.name}' has no number field to add up; use count"
    return listing_hint(f"number fields of '{resource.name}' are", numbers)
