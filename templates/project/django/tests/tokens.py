"""Helpers of the JWT tests: JWT mode switched on, tokens made by hand, other users.

The JWT tests run in every project, session ones included: switching to tokens is a
matter of settings (``use_jwt``). The tokens are made by ``token_parts`` (shared with
the FastAPI project) with this project's issuer and keys.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.test import Client
from django.test.signals import setting_changed

from config.settings import JWT_PANEL, SESSION_PANEL
from panel import auth, login
from panel.tokens import token_keys
from panel.users import create_user
from panel_core.abilities import ADMIN
from tests.token_parts import JSON, claims_for, sign_with, unsigned_with

EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"
# 32 bytes, base64: tests only.
JWT_SECRET = "dGVzdHMtb25seSBqd3Qgc2VjcmV0LCAzMiBieXRlcyE="


def use_jwt(django_settings: Any) -> None:
    """Switch pytest-django's ``settings`` to JWT mode, as ``PANEL`` would."""
    django_settings.PANEL = JWT_PANEL
    django_settings.MIDDLEWARE = [
        name for name in settings.MIDDLEWARE if name not in SESSION_PANEL["middleware"]
    ]
    django_settings.JWT_SECRET = JWT_SECRET
    django_settings.JWT_SECRET_PREVIOUS = ""


def _forget_panel_classes(*, setting: str, **kwargs: Any) -> None:
    """The authentication and the login steps are built once from PANEL: again now."""
    if setting == "PANEL":
        auth.authentication.cache_clear()
        login.configured_pipeline.cache_clear()


# When PANEL changes (use_jwt) and when pytest-django puts it back after the test.
setting_changed.connect(_forget_panel_classes, dispatch_uid="tests.tokens")


def token_login(client: Client, username: Any, password: Any) -> HttpResponse:
    """``POST /admin/authenticate`` as a JSON client."""
    body = {"username": username, "password": password}
    response: HttpResponse = client.post(
        "/admin/authenticate", body, content_type="application/json", headers=JSON
    )
    return response


def claims(user_id: int, **changes: Any) -> dict[str, Any]:
    """Valid claims for ``user_id``, changed (``DROP`` removes one)."""
    return claims_for(settings.JWT_ISSUER, user_id, **changes)


def sign(payload: dict[str, Any], **options: Any) -> str:
    """``payload`` signed with the panel's key (``sign_with`` takes ``options``)."""
    return sign_with(token_keys(), payload, **options)


def unsigned(payload: dict[str, Any], **header: Any) -> str:
    """A token with ``header`` and ``payload`` and no signature."""
    return unsigned_with(token_keys(), payload, **header)


def other_user(*, active: bool = True, deleted: bool = False) -> int:
    """Another user's key: active, deactivated, or deleted already."""
    other = create_user(email="other@example.com", password=PASSWORD, role=ADMIN)
    users = get_user_model()._default_manager.filter(pk=other.pk)
    if deleted:
        users.delete()
    elif not active:
        users.update(is_active=False)
    return int(other.pk)
