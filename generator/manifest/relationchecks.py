"""Relations no record could ever satisfy: a cycle of required relations (M035);
and a field named like the key Django gives a relation (M020).

A relation whose column cannot be left empty (required or with a default, and not
nullable) needs its target record to exist first. When such relations lead from a
resource back to itself (``Employee.manager`` required, or ``A.b`` → B and ``B.a`` →
A both required), no first record can ever be created. One nullable relation on the
cycle breaks it: that record is made without the link, which is set later (the
migrations add its foreign key once both tables exist).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .yamlnodes import Document

CODE = "M035"
Edge = tuple[str, str, str]  # (resource, field, target resource)


def cycle_issues(document: Document, resources: dict[str, Any]) -> Iterator[Issue]:
    """One issue per cycle of required relations, at its first relation."""
    edges = [edge for name, spec in resources.items() for edge in _edges(name, spec)]
    edges = [edge for edge in edges if edge[2] in resources]
    reported: set[frozenset[str]] = set()
    for resource, field, target in edges:
        path = _path(edges, target, resource)
        if path is None:
            continue
        cycle = frozenset([resource, *(step[0] for step in path)])
        if cycle in reported:
            continue
        reported.add(cycle)
        yield document.issue(
            ("resources", resource, "fields", field, "relation"),
            _message(resource, field, path),
            CODE,
            _hint(field, path),
        )


def _edges(name: str, spec: Any) -> Iterator[Edge]:
    """The relations of resource ``name`` whose column cannot be left empty."""
    options = spec if isinstance(spec, dict) else {}
    fields, required = options.get("fields"), options.get("required")
    required = set(required) if isinstance(required, list) else set()
    for field, field_spec in (fields if isinstance(fields, dict) else {}).items():
        if not isinstance(field_spec, dict):
            continue
        target = field_spec.get("relation")
        needed = field in required or "default" in field_spec
        optional = field_spec.get("nullable") is True
        if isinstance(target, str) and needed and not optional:
            yield name, field, target


def _path(edges: list[Edge], start: str, goal: str) -> list[Edge] | None:
    """The required relations leading from ``start`` to ``goal`` (breadth first)."""
    if start == goal:
        return []
    came: dict[str, Edge] = {}
    frontier = [start]
    while frontier:
        following = []
        for current in frontier:
            for edge in edges:
                if edge[0] != current or edge[2] in came or edge[2] == start:
                    continue
                came[edge[2]] = edge
                if edge[2] == goal:
                    return _walk_back(came, start, goal)
                following.append(edge[2])
        frontier = following
    return None


def _walk_back(came: dict[str, Edge], start: str, goal: str) -> list[Edge]:
    path = [came[goal]]
    while path[-1][0] != start:
        path.append(came[path[-1][0]])
    return path[::-1]


def _message(resource: str, field: str, path: list[Edge]) -> str:
    if not path:
        return (
            f"'{resource}.{field}' is a required relation to its own resource, so "
            "no first record could ever be created"
        )
    links = " → ".join(
        [f"{resource}.{field}", *(f"{step[0]}.{step[1]}" for step in path), resource]
    )
    return (
        f"the required relations {links} form a cycle, so no record of them could "
        "ever be created"
    )


def _hint(field: str, path: list[Edge]) -> str:
    if not path:
        return f"make it optional: 'nullable: true' on '{field}'"
    return "make one of them optional: 'nullable: true' (its link is set afterwards)"


def relation_key_issues(
    document: Document, resources: dict[str, Any]
) -> Iterator[Issue]:
    """A field ``x_id`` beside a relation ``x``: Django names the relation's key so."""
    for resource, spec in resources.items():
        fields = spec.get("fields") if isinstance(spec, dict) else None
        if not isinstance(fields, dict):
            continue
        for name, field_spec in fields.items():
            relation = (
                field_spec.get("relation") if isinstance(field_spec, dict) else None
            )
            if isinstance(relation, str) and f"{name}_id" in fields:
                message = (
                    f"'{name}_id' is the name Django gives the key of the "
                    f"relation '{name}'"
                )
                where = ("resources", resource, "fields", f"{name}_id")
                yield document.issue(where, message, "M020", "rename one", key=True)
