"""Helpers of the JWT tests: tokens made by hand, and users other than ``user``.

The tokens are made by ``token_parts`` (shared with the Django project) with this
app's issuer and keys.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response

from app.core import users
from app.core.users import create_user
from tests.helpers import PASSWORD
from tests.token_parts import JSON, claims_for, sign_with, unsigned_with


def token_login(client: TestClient, username: Any, password: Any) -> Response:
    """``POST /admin/authenticate`` as a JSON client."""
    body = {"username": username, "password": password}
    return client.post("/admin/authenticate", json=body, headers=JSON)


def claims(app: FastAPI, user_id: int, **changes: Any) -> dict[str, Any]:
    """Valid claims for ``user_id``, changed (``DROP`` removes one)."""
    return claims_for(app.state.settings.jwt_issuer, user_id, **changes)


def sign(app: FastAPI, payload: dict[str, Any], **options: Any) -> str:
    """``payload`` signed with the app's key (``sign_with`` takes ``options``)."""
    return sign_with(app.state.authentication.keys, payload, **options)


def unsigned(app: FastAPI, payload: dict[str, Any], **header: Any) -> str:
    """A token with ``header`` and ``payload`` and no signature."""
    return unsigned_with(app.state.authentication.keys, payload, **header)


def other_user(app: FastAPI, *, active: bool = True, deleted: bool = False) -> int:
    """Another user's key: active, deactivated, or deleted already."""
    other = create_user(app.state.engine, email="other@example.com", password=PASSWORD)
    table = users.PanelUser.__table__
    with app.state.engine.begin() as connection:
        where = table.c.id == other.id
        if deleted:
            connection.execute(table.delete().where(where))
        elif not active:
            connection.execute(table.update().where(where).values(is_active=False))
    return other.id
