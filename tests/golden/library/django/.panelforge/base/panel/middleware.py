"""Every panel route is authenticated and authorized here, and records its route.

``PanelAuthenticationMiddleware`` asks the class named by
``PANEL["auth"]["middleware"]`` (see ``panel.auth``) who is logged in, for every route
of the ``panel`` namespace but the login page and ``POST /admin/authenticate``; the
user, with its role (``panel.roles``), is ``request.panel_user``. Nobody: JSON clients
get 401 (with the class's challenge headers), pages a 303 to the login page. Then the
user must be allowed what the route does (``panel.authorize``: an unknown resource is
404, a refusal 403). It also records the route for the current-page checks
(``panel.current``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from panel_core.errors import PanelError, Unauthenticated

from .auth import authentication
from .authorize import authorize_route
from .current import end_request, panel_route, remember_route, start_request
from .errors import error_response
from .roles import with_role

# Routes anybody may reach: how else would they log in?
PUBLIC_ROUTES = frozenset({"login", "authenticate"})


class PanelAuthenticationMiddleware:
    """Refuses panel requests without a logged-in user, or one who may not make them;
    remembers the route."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = start_request()
        try:
            return self.get_response(request)
        finally:
            end_request(token)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        """Before a panel view: the route, who is logged in, whether they may make the
        request (or the refusal)."""
        del view, args
        name = panel_route(request)
        if name is None:
            return None
        remember_route(name, kwargs)
        if name in PUBLIC_ROUTES:
            return None
        checker = authentication()
        user = checker.authenticate(request)
        if user is None:
            return error_response(request, Unauthenticated(checker.challenge))
        request.panel_user = with_role(user)
        try:
            authorize_route(request, name, kwargs)
        except PanelError as exc:
            return error_response(request, exc)
        return None
