"""The current request's route, for the current-page checks and the URL helpers.

``remember_route`` is one of ``PANEL_GUARDS``: every panel route records its name and
path parameters in the kernel's context variable (``panel_core.current``), where
``resource.is_now_on_index()``, ``to_page()`` and ``async_method_url()`` read them.
"""

from __future__ import annotations

from fastapi import Request

from panel_core.current import RouteState, Site, set_current_route


async def remember_route(request: Request) -> None:
    """Record which named route and parameters this request matched."""
    route = request.scope.get("route")
    site: Site | None = getattr(request.app.state, "site", None)
    state = RouteState(getattr(route, "name", "") or "", request.path_params, site)
    set_current_route(state)
