"""The children of a record (its has-many fields), read with each child's store.

Each child resource is read as the request's user sees it: within its scope, live
records only, and not at all without the ``view_any`` ability there (the JSON show
answers 403, the detail page leaves the list out). What is answered and shown is
shaped by the kernel (``panel_core.children``), as in the FastAPI panels.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.http import HttpRequest

from panel_core.abilities import CREATE, VIEW_ANY
from panel_core.children import children_query, children_section
from panel_core.resource import HasMany

from .acting import actor
from .registry import PanelResource, registry


def children_keys(
    request: HttpRequest, asked: Sequence[HasMany], key: Any
) -> dict[str, list[Any]]:
    """The keys of the children of record ``key`` in each has-many field asked."""
    found: dict[str, list[Any]] = {}
    for many in asked:
        child = registry().get(many.resource)
        acting = actor(request, child)
        acting.authorize(VIEW_ANY)
        found[many.name] = child.store.keys_where(many.inverse, key, acting)
    return found


def children_sections(
    request: HttpRequest, panel: PanelResource, key: Any
) -> list[dict[str, Any]]:
    """The detail page's list of each has-many field its user may see."""
    sections = []
    for many in type(panel.resource).has_many:
        child = registry().get(many.resource)
        acting = actor(request, child)
        if not acting.allowed(VIEW_ANY):
            continue
        resource = type(child.resource)
        items, total = child.store.list_page(
            children_query(resource, many, key), acting
        )
        can = {CREATE: acting.allowed(CREATE)}
        sections.append(children_section(many, resource, key, items, total, can))
    return sections
