"""Authentication of panel requests: who is logged in, or a refusal.

``PANEL["auth"]["middleware"]`` names the class that says who is logged in;
``panel.middleware.PanelAuthenticationMiddleware`` asks it on every panel route. None:
JSON clients get 401 ``{"message": "Unauthenticated."}``, pages a 303 to the login page
(with JWT, whose 401 challenges for a bearer token, pages get the 401 too).

``SessionAuthentication`` (the default) is Django's own: the user
``django.contrib.auth`` keeps in the session. Django also stores a hash of the user's
password hash there, so changing the password ends every other session, and
deactivated or deleted users are nobody.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.contrib import auth
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils.module_loading import import_string


class Authentication(Protocol):
    """What ``PANEL["auth"]["middleware"]`` names: a class built with no arguments.

    It may also have a static ``check_settings()`` that raises
    ``ImproperlyConfigured``: the panel then refuses to start.
    """

    # Headers of the 401 answer: ``{"WWW-Authenticate": "Bearer"}`` for tokens.
    challenge: Mapping[str, str]

    def authenticate(self, request: HttpRequest) -> AbstractBaseUser | None:
        """The request's user, or ``None`` when nobody (valid) is logged in."""
        ...

    def logout(self, request: HttpRequest) -> None:
        """End what authenticated this request (the session, the token)."""
        ...


@cache
def authentication() -> Authentication:
    """The configured authentication, built once (again when ``PANEL`` changes)."""
    cls = import_string(settings.PANEL["auth"]["middleware"])
    found: Authentication = cls()
    return found


@receiver(setting_changed)
def _panel_changed(*, setting: str, **kwargs: Any) -> None:
    if setting == "PANEL":
        authentication.cache_clear()


class SessionAuthentication:
    """The user of the Django session (``django.contrib.auth``)."""

    challenge: Mapping[str, str] = {}

    def authenticate(self, request: HttpRequest) -> AbstractBaseUser | None:
        """The session's user, if still active and with the same password."""
        if not hasattr(request, "user"):
            raise ImproperlyConfigured(
                "SessionAuthentication needs django.contrib.auth's "
                "AuthenticationMiddleware in PANEL['middleware']"
            )
        user = request.user
        if not user.is_authenticated or not user.is_active:
            return None
        found: AbstractBaseUser = user
        return found

    def logout(self, request: HttpRequest) -> None:
        """End the session (a new, anonymous one begins)."""
        auth.logout(request)
