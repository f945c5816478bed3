"""The source of a resource's has-many declarations (``has_many = (HasMany(...),)``)."""

from __future__ import annotations

from ..model import ir
from ..model.naming import humanize
from .pysource import call, literal


def has_many_calls(resource: ir.Resource, project: ir.Project) -> list[str]:
    """``HasMany("tracks", resource="track-resource", inverse="album")``, one per
    has-many field; the label only when it is not the humanized name."""
    calls = []
    for many in resource.has_many:
        args = [
            literal(many.name),
            f"resource={literal(project.resource(many.target).uri)}",
            f"inverse={literal(many.inverse)}",
        ]
        if many.label != humanize(many.name):
            args.append(f"label={literal(many.label)}")
        if many.description:
            args.append(f"description={literal(many.description)}")
        calls.append(call("HasMany", args, indent=2, suffix=","))
    return calls
