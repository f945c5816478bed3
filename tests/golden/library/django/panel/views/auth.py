"""Logging in and out: the login page, ``POST /admin/authenticate``, the logout."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from panel_core.credentials import login_page_context
from panel_core.errors import InvalidInput
from panel_core.urls import login_url

from ..accept import wants_json, wants_page_json
from ..auth import authentication
from ..bodies import form_value
from ..formdata import is_form_submission
from ..login import configured_pipeline, read_credentials
from ..redirects import see_other
from ..responses import json_response
from ..templating import render


def _login_page(
    request: HttpRequest,
    *,
    next_path: str | None,
    errors: dict[str, list[str]] | None = None,
    username: str = "",
    status: int = 200,
) -> HttpResponse:
    context = login_page_context(next_path, errors, username)
    return render(request, "panel/login.html", context, status=status)


@require_http_methods(["GET", "HEAD"])
def login_page(request: HttpRequest) -> HttpResponse:
    """The login form."""
    return _login_page(request, next_path=request.GET.get("next"))


@require_http_methods(["POST"])
def authenticate(request: HttpRequest) -> HttpResponse:
    """Log in with ``username`` (the e-mail address) and ``password``."""
    try:
        return configured_pipeline()(request, read_credentials(request))
    except InvalidInput as exc:
        if wants_page_json(request) or not is_form_submission(request):
            raise
        return _login_page(
            request,
            next_path=form_value(request, "next"),
            errors=exc.errors,
            username=form_value(request, "username") or "",
            status=422,
        )


@require_http_methods(["POST", "DELETE"])
def logout(request: HttpRequest) -> HttpResponse:
    """End the session, or revoke the bearer token."""
    checker = authentication()
    checker.logout(request)
    if wants_json(request) or checker.challenge:  # tokens: no login page
        return json_response({"message": "Logged out."})
    return see_other(login_url())
