"""The source of a resource's dashboard metrics (``metrics = (Metric(...),)``)."""

from __future__ import annotations

from ..model import ir
from .pysource import call, literal, tuple_assignment


def metric_calls(resource: ir.Resource) -> list[str]:
    """``Metric("open_value", "Open orders", "sum", "total", {"status": "open"})``,
    one per metric; the field and the filter only when given."""
    calls = []
    for metric in resource.metrics:
        args = [literal(metric.name), literal(metric.label), literal(metric.aggregate)]
        if metric.field or metric.filter:
            args.append(literal(metric.field))
        if metric.filter:
            args.append(literal(dict(metric.filter)))
        calls.append(call("Metric", args, indent=2, suffix=","))
    return calls


def metric_lines(resource: ir.Resource) -> list[str]:
    """``metrics = (...)``, when the resource declares metrics."""
    if not resource.metrics:
        return []
    return [tuple_assignment("metrics", metric_calls(resource), indent=1)]
