"""Logging in: the credentials, the steps of ``PANEL["auth"]["pipelines"]``, sessions.

``POST /admin/authenticate`` reads the credentials (JSON ``{"username", "password"}``
or the login form), then runs the configured steps in order. Each step is a class
built with no arguments; calling it with the request, the credentials and the next
step returns the answer, itself or by passing on (a throttle, a JWT issuer…).
``SessionLogin``, the default, checks the credentials and starts a Django session.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.contrib import auth
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.module_loading import import_string

from panel_core.accounts import FAILED
from panel_core.credentials import Credentials, parse_credentials
from panel_core.errors import InvalidInput
from panel_core.translation import gettext
from panel_core.urls import safe_path

from .accept import wants_page_json
from .bodies import read_body
from .formdata import is_form_submission
from .redirects import see_other
from .responses import json_response
from .users import check_credentials

# The session remembers this backend, which reads the session's user on every request
# with SQL compiled once (panel.users.PanelBackend).
_BACKEND = "panel.users.PanelBackend"


Next = Callable[[HttpRequest, Credentials], HttpResponse]


class LoginStep(Protocol):
    """One step of ``PANEL["auth"]["pipelines"]``: a class built with no arguments."""

    def __call__(
        self, request: HttpRequest, credentials: Credentials, call_next: Next
    ) -> HttpResponse:
        """Answer the login, or return ``call_next(request, credentials)``."""
        ...


def _refuse(request: HttpRequest, credentials: Credentials) -> HttpResponse:
    del request, credentials
    raise InvalidInput({"username": [gettext(FAILED)]})


def _bind(step: LoginStep, call_next: Next) -> Next:
    def run(request: HttpRequest, credentials: Credentials) -> HttpResponse:
        return step(request, credentials, call_next)

    return run


def login_pipeline(steps: Sequence[LoginStep]) -> Next:
    """The steps chained in order; a login no step accepts fails."""
    handler: Next = _refuse
    for step in reversed(steps):
        handler = _bind(step, handler)
    return handler


@cache
def configured_pipeline() -> Next:
    """The steps of ``PANEL["auth"]["pipelines"]``, built once (again if it changes)."""
    paths = settings.PANEL["auth"]["pipelines"]
    return login_pipeline([import_string(path)() for path in paths])


@receiver(setting_changed)
def _panel_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "PANEL":
        configured_pipeline.cache_clear()


class SessionLogin:
    """Checks the credentials against Django's users and starts a session."""

    def __call__(
        self, request: HttpRequest, credentials: Credentials, call_next: Next
    ) -> HttpResponse:
        """Log in (200 with the CSRF token for JSON, a 303 for the form), or 422."""
        del call_next
        user = check_credentials(credentials.username, credentials.password)
        if user is None:
            raise InvalidInput({"username": [gettext(FAILED)]})
        # A new session key and a new CSRF token: nothing of the anonymous one is kept.
        auth.login(request, user, backend=_BACKEND)
        if wants_page_json(request) or not is_form_submission(request):
            body = {"message": "Authenticated.", "csrf_token": get_token(request)}
            return json_response(body)
        return see_other(safe_path(credentials.next))


def read_credentials(request: HttpRequest) -> Credentials:
    """The username and password sent as JSON or as the login form; else 422."""
    return parse_credentials(read_body(request))
