"""Authorization of panel requests: what the logged-in user may do on a resource.

``authorized`` (in every panel router's ``PANEL_GUARDS``, after ``authenticated``)
finds the ability the route needs (``panel_core.abilities.required_ability``) and asks
the resource's ``can()``; a refusal is 403. Abilities a user-written ``can`` may answer
per record (view, update, delete) are asked again with the record by the store, in the
transaction of the write. ``actor`` is the user acting on a resource, for the stores.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable
from typing import Any

import anyio.from_thread
from fastapi import Request

from panel_core.abilities import required_ability
from panel_core.lifecycle import RECORD_ABILITIES, Actor
from panel_core.record_actions import page_ability_names

from . import hooks
from .auth import current_user
from .errors import Forbidden
from .registry import PanelResource, Registry


async def authorized(request: Request) -> None:
    """Refuse with 403 a request its user may not make on the resource it names."""
    route = getattr(request.scope.get("route"), "name", "") or ""
    params = request.path_params
    ability = required_ability(route, params, request.query_params)
    if ability is None:
        return
    registry: Registry = request.app.state.registry
    panel = registry.get(params["resourceUri"])
    if panel.lifecycle.open:
        return
    per_record = panel.lifecycle.record_rules and ability in RECORD_ABILITIES
    if per_record and "resourceItem" in params:
        return  # asked with the record, once it is read
    if not await allowed(panel, current_user(request), ability):
        raise Forbidden()


async def allowed(
    panel: PanelResource, user: Any, ability: str, record: Any = None
) -> bool:
    """Whether ``user`` may ``ability`` on ``panel`` (``can`` may be async)."""
    answer = panel.resource.can(ability, user, record)
    if inspect.isawaitable(answer):
        answer = await answer
    return bool(answer)


async def authorize_record(
    request: Request, panel: PanelResource, ability: str, record: Any
) -> None:
    """Refuse with 403 a record a user-written ``can`` refuses (``authorized`` did not)."""
    if not panel.lifecycle.record_rules:
        return
    if not await allowed(panel, current_user(request), ability, record):
        raise Forbidden()


async def page_abilities(
    request: Request, panel: PanelResource, record: Any = None
) -> dict[str, bool]:
    """What a page may offer its user, by ability: hidden buttons for the rest."""
    user = current_user(request)
    names = page_ability_names(type(panel.resource))
    return {name: await allowed(panel, user, name, record) for name in names}


def actor(request: Request, panel: PanelResource) -> Actor:
    """The request's user acting on ``panel``, for a store call in the thread pool."""
    return panel.actor(current_user(request), _wait_on_loop)


def _wait_on_loop(awaitable: Awaitable[Any]) -> Any:
    """Run an async hook on the event loop from a thread-pool thread.

    The hook sees the write's ``connection()``: the thread waits meanwhile.
    """
    bound = hooks.current_connection()

    async def wait() -> Any:
        with hooks.writing(bound):
            return await awaitable

    return anyio.from_thread.run(wait)
