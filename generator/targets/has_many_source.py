"""The source of a resource's has-many and many-to-many declarations
(``has_many = (HasMany(...),)``, ``many_to_many = (ManyToMany(...),)``)."""

from __future__ import annotations

from ..model import ir
from ..model.kernel_fields import link_key_type
from ..model.naming import humanize
from .pysource import call, literal, tuple_assignment


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


def many_to_many_calls(resource: ir.Resource, project: ir.Project) -> list[str]:
    """``ManyToMany("tracks", resource="track-resource", through=..., ...)``, one
    per many-to-many field."""
    calls = []
    for link in resource.many_to_many:
        target = project.resource(link.target)
        args = [
            literal(link.name),
            f"resource={literal(target.uri)}",
            f"through={literal(link.through)}",
            f"owner_column={literal(link.owner_column)}",
            f"target_column={literal(link.target_column)}",
        ]
        key_type = link_key_type(target)
        if key_type != "integer":
            args.append(f"key_type={literal(key_type)}")
        if link.label != humanize(link.name):
            args.append(f"label={literal(link.label)}")
        if link.description:
            args.append(f"description={literal(link.description)}")
        calls.append(call("ManyToMany", args, indent=2, suffix=","))
    return calls


def relation_lines(resource: ir.Resource, project: ir.Project) -> list[str]:
    """``has_many = (...)`` and ``many_to_many = (...)``, when declared."""
    lines = []
    if resource.has_many:
        calls = has_many_calls(resource, project)
        lines.append(tuple_assignment("has_many", calls, indent=1))
    if resource.many_to_many:
        calls = many_to_many_calls(resource, project)
        lines.append(tuple_assignment("many_to_many", calls, indent=1))
    return lines
