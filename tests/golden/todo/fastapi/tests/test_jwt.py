"""JWT mode: the token login, the login throttle, logout, and key rotation.

These run in every project, session ones included (``panel_auth("jwt")``): switching
to tokens is a matter of settings. ``test_jwt_attacks.py`` tries to break the tokens,
``test_jwt_settings.py`` the secret.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

import jwt
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr

from app.core import users
from app.core.auth_state import RevokedToken, revoke_token
from app.core.users import User, create_user
from app.resources import RESOURCES
from panel_core import tokens as kernel_tokens
from panel_core.tokens import make_secret
from tests.helpers import PASSWORD, app_with
from tests.token_parts import JSON, bearer
from tests.tokens import claims, other_user, sign, token_login

pytestmark = pytest.mark.panel_auth("jwt")

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"
FAILED = "These credentials do not match our records."
UNAUTHENTICATED = {"message": "Unauthenticated."}


def test_login_gives_a_bearer_token(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    response = token_login(anonymous, user.email.upper(), PASSWORD)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    settings = app.state.settings
    assert set(body) == {"token", "token_type", "expires_in"}
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == settings.jwt_ttl
    header = jwt.get_unverified_header(body["token"])
    assert header["alg"] == "HS256" and header["kid"]
    claims = jwt.decode(body["token"], options={"verify_signature": False})
    assert set(claims) == {"iss", "aud", "sub", "iat", "exp", "jti"}
    assert claims["sub"] == str(user.id)
    assert claims["iss"] == claims["aud"] == settings.jwt_issuer
    assert claims["exp"] - claims["iat"] == settings.jwt_ttl
    assert "set-cookie" not in response.headers
    assert anonymous.get(CRUD, headers=bearer(body["token"])).status_code == 200


def test_a_form_login_gives_a_token_too(anonymous: TestClient, user: User) -> None:
    form = {"username": user.email, "password": PASSWORD}
    response = anonymous.post("/admin/authenticate", data=form)
    assert response.status_code == 200, response.text
    assert response.json()["token_type"] == "Bearer"


def test_failed_logins_look_alike_and_verify_one_hash_each(
    app: FastAPI,
    anonymous: TestClient,
    user: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    inactive = other_user(app, active=False)
    assert inactive
    calls: list[str | None] = []
    verify = users.verify_password

    def spy(password: str, stored: str | None) -> bool:
        calls.append(stored)
        return verify(password, stored)

    monkeypatch.setattr(users, "verify_password", spy)
    attempts = [
        ("nobody@example.com", PASSWORD),
        (user.email, "wrong password"),
        ("other@example.com", PASSWORD),
    ]
    answers = [token_login(anonymous, *attempt) for attempt in attempts]
    assert {a.status_code for a in answers} == {422}
    assert len({a.content for a in answers}) == 1
    assert answers[0].json() == {"message": FAILED, "errors": {"username": [FAILED]}}
    assert len(calls) == len(attempts)
    assert calls[0] is None  # an unknown user: checked against the decoy hash


def test_the_sixth_failure_is_429_even_with_the_right_password(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    limit = app.state.settings.login_max_attempts
    for _ in range(limit):
        assert token_login(anonymous, user.email, "wrong password").status_code == 422
    refused = token_login(anonymous, user.email.upper(), PASSWORD)
    assert refused.status_code == 429
    wait = int(refused.headers["retry-after"])
    assert 0 < wait <= app.state.settings.login_lockout
    message = f"Too many login attempts. Please try again in {wait} seconds."
    assert refused.json() == {"message": message}
    # Another username from the same address is not held back.
    create_user(app.state.engine, email="grace@example.com", password=PASSWORD)
    assert token_login(anonymous, "grace@example.com", PASSWORD).status_code == 200


def test_a_good_login_clears_the_count(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    limit = app.state.settings.login_max_attempts
    for _ in range(limit - 1):
        assert token_login(anonymous, user.email, "wrong password").status_code == 422
    assert token_login(anonymous, user.email, PASSWORD).status_code == 200
    for _ in range(limit - 1):
        assert token_login(anonymous, user.email, "wrong password").status_code == 422
    assert token_login(anonymous, user.email, PASSWORD).status_code == 200


def test_logout_revokes_the_token_and_only_it(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    first = token_login(anonymous, user.email, PASSWORD).json()["token"]
    second = token_login(anonymous, user.email, PASSWORD).json()["token"]
    response = anonymous.delete("/admin/logout", headers=bearer(first))
    assert response.status_code == 200
    assert response.json() == {"message": "Logged out."}
    refused = anonymous.get(CRUD, headers=bearer(first))
    assert refused.status_code == 401 and refused.json() == UNAUTHENTICATED
    assert anonymous.delete("/admin/logout", headers=bearer(first)).status_code == 401
    assert anonymous.get(CRUD, headers=bearer(second)).status_code == 200
    assert anonymous.post("/admin/logout", headers=bearer(second)).status_code == 200
    assert anonymous.get(CRUD, headers=bearer(second)).status_code == 401


def test_a_token_seen_before_is_refused_once_it_expires(
    app: FastAPI, anonymous: TestClient, user: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = int(time.time())
    token = sign(app, claims(app, user.id, iat=now, exp=now + 30))
    assert anonymous.get(CRUD, headers=bearer(token)).status_code == 200
    leeway = min(app.state.settings.jwt_leeway, kernel_tokens.MAX_LEEWAY)
    later = SimpleNamespace(time=lambda: now + 30 + leeway)
    monkeypatch.setattr(
        kernel_tokens, "time", later
    )  # what decoding it again would say
    refused = anonymous.get(CRUD, headers=bearer(token))
    assert refused.status_code == 401 and refused.json() == UNAUTHENTICATED


def test_a_token_seen_before_ends_with_its_user(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    token = token_login(anonymous, user.email, PASSWORD).json()["token"]
    assert anonymous.get(CRUD, headers=bearer(token)).status_code == 200
    table = users.PanelUser.__table__
    with app.state.engine.begin() as connection:
        where = table.c.id == user.id
        connection.execute(table.update().where(where).values(is_active=False))
    assert anonymous.get(CRUD, headers=bearer(token)).status_code == 401


def test_revoked_tokens_are_forgotten_once_expired(app: FastAPI) -> None:
    engine = app.state.engine
    now = int(time.time())
    revoke_token(engine, "old", expires_at=now - 3600, now=now)
    revoke_token(engine, "current", expires_at=now + 3600, now=now)
    revoke_token(engine, "current", expires_at=now + 3600, now=now)  # twice is fine
    table = RevokedToken.__table__
    with engine.connect() as connection:
        kept = connection.execute(sa.select(table.c.jti)).scalars().all()
    assert kept == ["current"]


def test_the_previous_secret_verifies_while_it_is_set(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    old = sign(app, claims(app, user.id))
    new_secret = SecretStr(make_secret())
    previous = app.state.settings.jwt_secret
    rotating = app_with(app, jwt_secret=new_secret, jwt_secret_previous=previous)
    rotated = app_with(app, jwt_secret=new_secret)
    try:
        with TestClient(rotating, headers=JSON) as client:
            assert client.get(CRUD, headers=bearer(old)).status_code == 200
            new = token_login(client, user.email, PASSWORD).json()["token"]
        with TestClient(rotated, headers=JSON) as client:
            assert client.get(CRUD, headers=bearer(old)).status_code == 401
            assert client.get(CRUD, headers=bearer(new)).status_code == 200
        assert anonymous.get(CRUD, headers=bearer(new)).status_code == 401
    finally:
        rotating.state.engine.dispose()
        rotated.state.engine.dispose()
