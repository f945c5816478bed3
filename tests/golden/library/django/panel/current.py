"""The current request's route, for the current-page checks and the URL helpers.

``PanelAuthenticationMiddleware`` records every panel route's name and path parameters
in the kernel's context variable (``panel_core.current``), where
``resource.is_now_on_index()``, ``to_page()`` and ``async_method_url()`` read them,
and forgets them when the answer is made, so the next request on the thread starts
clean.
"""

from __future__ import annotations

from contextvars import Token
from typing import Any

from django.http import HttpRequest

from panel_core.current import RouteState, reset_current_route, set_current_route
from panel_core.routes import ROUTES

from .site import site

NAMESPACE = "panel"


def panel_route(request: HttpRequest) -> str | None:
    """The name of the panel route the request matched (``crud.update``), or ``None``.

    Routes sharing a path (``crud.index``, ``crud.store``, ``crud.massDelete``) share
    one URL pattern name too, so the request's method tells them apart.
    """
    match = request.resolver_match
    if match is None or match.namespace != NAMESPACE or match.url_name is None:
        return None
    found = ROUTES.get(match.url_name)
    if found is None or request.method in found.methods:
        return match.url_name
    for other in ROUTES.values():
        if other.paths == found.paths and request.method in other.methods:
            return other.name
    return match.url_name


def remember_route(name: str, params: dict[str, Any]) -> None:
    """Record which named route and parameters this request matched."""
    texts = {key: str(value) for key, value in params.items()}
    set_current_route(RouteState(name, texts, site()))


def start_request() -> Token[RouteState | None]:
    """No route yet: a request starts with none; ``end_request`` restores."""
    return set_current_route(None)


def end_request(token: Token[RouteState | None]) -> None:
    """Forget this request's route."""
    reset_current_route(token)
