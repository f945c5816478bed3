"""The request's user acting on a resource: the ``Actor`` of ``panel_core.lifecycle``.

Views hand the stores an actor; the stores run the resource's scope and hooks with it,
inside their transactions. Hooks, ``scope`` and ``can`` may be ``async def``:
``wait_for`` runs them to their end from the request's thread (asgiref's
``async_to_sync``, as Django runs async code from sync views), so they stay within
the write's transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from asgiref.sync import async_to_sync
from django.http import HttpRequest

from panel_core.lifecycle import Actor
from panel_core.registry import PanelResource


async def _awaited(awaitable: Awaitable[Any]) -> Any:
    return await awaitable


def wait_for(awaitable: Awaitable[Any]) -> Any:
    """What ``awaitable`` (an ``async`` hook's answer) gives, waited for here."""
    return async_to_sync(_awaited)(awaitable)


def panel_user(request: HttpRequest) -> Any:
    """The logged-in user of a panel request, with its role (``panel.middleware``)."""
    return getattr(request, "panel_user", None)


def actor(request: HttpRequest, panel: PanelResource[Any]) -> Actor:
    """The request's user acting on ``panel``."""
    return panel.actor(panel_user(request), wait_for)
