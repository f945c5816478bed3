"""What every panel route depends on, in one list, so no route can forget one.

Each router of the panel is created with ``dependencies=PANEL_GUARDS``, and each CRUD
route (``routes.CrudRoute``) runs ``guard`` first. Adding a route to one of those
routers, or to the CRUD table, is enough to protect it (logged in, then allowed by the
resource's ``can()``) and to make the current-page checks answer for it.
"""

from __future__ import annotations

from fastapi import Depends, Request

from .auth import authenticated
from .authorize import authorized
from .current import remember_route


async def guard(request: Request) -> None:
    """Logged in, remembered for the current-page checks, then allowed by ``can()``.

    One dependency rather than three: each costs a request a few microseconds.
    """
    await authenticated(request)
    await remember_route(request)
    await authorized(request)


PANEL_GUARDS = [Depends(guard)]
