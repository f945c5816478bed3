"""The children of a record (its has-many fields), read with each child's store.

Each child resource is read as the request's user sees it: within its scope, live
records only, and not at all without the ``view_any`` ability there (the JSON show
answers 403, the detail page leaves the list out). What is answered and shown is
shaped by the kernel (``panel_core.children``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from panel_core.abilities import CREATE, VIEW_ANY
from panel_core.children import children_query, children_section
from panel_core.resource import HasMany

from .auth import current_user
from .authorize import actor, allowed
from .errors import Forbidden
from .registry import PanelResource, Registry


def _registry(request: Request) -> Registry:
    registry: Registry = request.app.state.registry
    return registry


async def children_keys(
    request: Request, asked: Sequence[HasMany], key: Any
) -> dict[str, list[Any]]:
    """The keys of the children of record ``key`` in each has-many field asked."""
    registry, user = _registry(request), current_user(request)
    engine = request.app.state.engine
    found: dict[str, list[Any]] = {}
    for many in asked:
        child = registry.get(many.resource)
        if not await allowed(child, user, VIEW_ANY):
            raise Forbidden()
        acting = actor(request, child)
        found[many.name] = await run_in_threadpool(
            child.store.keys_where, engine, many.inverse, key, acting
        )
    return found


async def children_sections(
    request: Request, panel: PanelResource, key: Any
) -> list[dict[str, Any]]:
    """The detail page's list of each has-many field its user may see."""
    registry, user = _registry(request), current_user(request)
    sections = []
    for many in type(panel.resource).has_many:
        child = registry.get(many.resource)
        if not await allowed(child, user, VIEW_ANY):
            continue
        resource = type(child.resource)
        query = children_query(resource, many, key)
        items, total = await run_in_threadpool(
            child.store.list_page,
            request.app.state.engine,
            query,
            actor(request, child),
        )
        can = {CREATE: await allowed(child, user, CREATE)}
        sections.append(children_section(many, resource, key, items, total, can))
    return sections
