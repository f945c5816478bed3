"""Helpers of the JWT tests: tokens made by hand, and users other than ``user``."""

from __future__ import annotations

import base64
import json
import secrets
import time
import warnings
from typing import Any

import jwt
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response

from app.core import users
from app.core.users import create_user
from tests.helpers import PASSWORD

JSON = {"Accept": "application/json"}
# Left out of the claims by ``claims(…, name=DROP)``.
DROP = object()


def token_login(client: TestClient, username: Any, password: Any) -> Response:
    """``POST /admin/authenticate`` as a JSON client."""
    body = {"username": username, "password": password}
    return client.post("/admin/authenticate", json=body, headers=JSON)


def bearer(token: str) -> dict[str, str]:
    """The headers of a JSON request carrying ``token``."""
    return {**JSON, "Authorization": f"Bearer {token}"}


def claims(app: FastAPI, user_id: int, **changes: Any) -> dict[str, Any]:
    """Valid claims for ``user_id``, changed (``DROP`` removes one)."""
    settings = app.state.settings
    now = int(time.time())
    found: dict[str, Any] = {
        "iss": settings.jwt_issuer,
        "aud": settings.jwt_issuer,
        "sub": str(user_id),
        "iat": now,
        "exp": now + 600,
        "jti": secrets.token_urlsafe(16),
    }
    found.update(changes)
    return {name: value for name, value in found.items() if value is not DROP}


def sign(
    app: FastAPI,
    payload: dict[str, Any],
    *,
    key: bytes | None = None,
    algorithm: str = "HS256",
    **header: Any,
) -> str:
    """``payload`` signed with the app's key (or ``key``), naming the app's key id."""
    keys = app.state.authentication.keys
    headers = {"kid": keys.signing_id, **header}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyJWT warns of keys short for HS384
        return jwt.encode(
            payload, key or keys.signing, algorithm=algorithm, headers=headers
        )


def b64(data: dict[str, Any]) -> str:
    """``data`` as a JWT part: JSON, base64url without padding."""
    text = json.dumps(data).encode()
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode()


def unsigned(app: FastAPI, payload: dict[str, Any], **header: Any) -> str:
    """A token with ``header`` and ``payload`` and no signature."""
    keys = app.state.authentication.keys
    return f"{b64({'kid': keys.signing_id, **header})}.{b64(payload)}."


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
