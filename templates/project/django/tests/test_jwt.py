"""JWT mode: the token login, the login throttle, logout, and key rotation.

These run in every project, session ones included (``use_jwt``): switching to tokens
is a matter of settings. ``test_jwt_attacks.py`` tries to break the tokens,
``test_jwt_settings.py`` the secret.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

import jwt
import pytest
from django.test import Client

from app.resources import RESOURCES
from panel import users
from panel.auth_state import count_attempt, revoke_token
from panel.models import LoginAttempt, RevokedToken
from panel.users import create_user
from panel_core import tokens as kernel_tokens
from panel_core.abilities import ADMIN
from panel_core.tokens import make_secret
from tests.token_parts import JSON, bearer
from tests.tokens import EMAIL, PASSWORD, claims, other_user, sign, token_login, use_jwt

pytestmark = pytest.mark.django_db

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"
FAILED = "These credentials do not match our records."
UNAUTHENTICATED = {"message": "Unauthenticated."}
FORM = "application/x-www-form-urlencoded"


@pytest.fixture(autouse=True)
def _jwt(settings: Any) -> None:
    use_jwt(settings)


@pytest.fixture
def ada() -> Any:
    """A panel user (EMAIL, PASSWORD)."""
    return create_user(email=EMAIL, password=PASSWORD, name="Ada", role=ADMIN)


@pytest.fixture
def anonymous() -> Client:
    """A JSON client nobody logged in with."""
    return Client(headers=JSON)


def test_login_gives_a_bearer_token(settings: Any, anonymous: Client, ada: Any) -> None:
    response = token_login(anonymous, EMAIL.upper(), PASSWORD)
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "no-store"
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"token", "token_type", "expires_in"}
    assert body["token_type"] == "Bearer"
    assert body["expires_in"] == settings.JWT_TTL
    header = jwt.get_unverified_header(body["token"])
    assert header["alg"] == "HS256" and header["kid"]
    payload = jwt.decode(body["token"], options={"verify_signature": False})
    assert set(payload) == {"iss", "aud", "sub", "iat", "exp", "jti"}
    assert payload["sub"] == str(ada.pk)
    assert payload["iss"] == payload["aud"] == settings.JWT_ISSUER
    assert payload["exp"] - payload["iat"] == settings.JWT_TTL
    assert not response.cookies
    assert anonymous.get(CRUD, headers=bearer(body["token"])).status_code == 200


def test_a_form_login_gives_a_token_too(anonymous: Client, ada: Any) -> None:
    form = urlencode({"username": EMAIL, "password": PASSWORD})
    response = anonymous.post("/admin/authenticate", form, content_type=FORM)
    assert response.status_code == 200, response.content
    assert response.json()["token_type"] == "Bearer"


def test_failed_logins_look_alike_and_verify_one_hash_each(
    anonymous: Client, ada: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert other_user(active=False)
    calls: list[str | None] = []
    verify = users.verify_password

    def spy(password: str, stored: str | None, setter: Any = None) -> bool:
        calls.append(stored)
        return verify(password, stored, setter)

    monkeypatch.setattr(users, "verify_password", spy)
    attempts = [
        ("nobody@example.com", PASSWORD),
        (EMAIL, "wrong password"),
        ("other@example.com", PASSWORD),
    ]
    answers = [token_login(anonymous, *attempt) for attempt in attempts]
    assert {a.status_code for a in answers} == {422}
    assert len({a.content for a in answers}) == 1
    assert answers[0].json() == {"message": FAILED, "errors": {"username": [FAILED]}}
    assert len(calls) == len(attempts)
    assert calls[0] is None  # an unknown user: checked against the decoy hash


def test_the_sixth_failure_is_429_even_with_the_right_password(
    settings: Any, anonymous: Client, ada: Any
) -> None:
    limit = settings.LOGIN_MAX_ATTEMPTS
    for _ in range(limit):
        assert token_login(anonymous, EMAIL, "wrong password").status_code == 422
    refused = token_login(anonymous, EMAIL.upper(), PASSWORD)
    assert refused.status_code == 429
    wait = int(refused["Retry-After"])
    assert 0 < wait <= settings.LOGIN_LOCKOUT
    message = f"Too many login attempts. Please try again in {wait} seconds."
    assert refused.json() == {"message": message}
    # Another username from the same address is not held back.
    create_user(email="grace@example.com", password=PASSWORD, role=ADMIN)
    assert token_login(anonymous, "grace@example.com", PASSWORD).status_code == 200


def test_a_good_login_clears_the_count(
    settings: Any, anonymous: Client, ada: Any
) -> None:
    limit = settings.LOGIN_MAX_ATTEMPTS
    for _ in range(limit - 1):
        assert token_login(anonymous, EMAIL, "wrong password").status_code == 422
    assert token_login(anonymous, EMAIL, PASSWORD).status_code == 200
    for _ in range(limit - 1):
        assert token_login(anonymous, EMAIL, "wrong password").status_code == 422
    assert token_login(anonymous, EMAIL, PASSWORD).status_code == 200


def test_the_count_is_one_row_per_window() -> None:
    now = int(time.time())
    assert count_attempt("k", window=60, now=now) == (1, 60)
    assert count_attempt("k", window=60, now=now + 10) == (2, 50)
    # The window has ended: the count starts again, and old rows go.
    count_attempt("old", window=5, now=now)
    assert count_attempt("k", window=60, now=now + 60) == (1, 60)
    assert list(LoginAttempt.objects.values_list("key", flat=True)) == ["k"]


def test_logout_revokes_the_token_and_only_it(anonymous: Client, ada: Any) -> None:
    first = token_login(anonymous, EMAIL, PASSWORD).json()["token"]
    second = token_login(anonymous, EMAIL, PASSWORD).json()["token"]
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
    settings: Any, anonymous: Client, ada: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = int(time.time())
    token = sign(claims(ada.pk, iat=now, exp=now + 30))
    assert anonymous.get(CRUD, headers=bearer(token)).status_code == 200
    leeway = min(settings.JWT_LEEWAY, kernel_tokens.MAX_LEEWAY)
    later = SimpleNamespace(time=lambda: now + 30 + leeway)
    monkeypatch.setattr(
        kernel_tokens, "time", later
    )  # what decoding it again would say
    refused = anonymous.get(CRUD, headers=bearer(token))
    assert refused.status_code == 401 and refused.json() == UNAUTHENTICATED


def test_a_token_seen_before_ends_with_its_user(anonymous: Client, ada: Any) -> None:
    token = token_login(anonymous, EMAIL, PASSWORD).json()["token"]
    assert anonymous.get(CRUD, headers=bearer(token)).status_code == 200
    type(ada)._default_manager.filter(pk=ada.pk).update(is_active=False)
    assert anonymous.get(CRUD, headers=bearer(token)).status_code == 401


def test_revoked_tokens_are_forgotten_once_expired() -> None:
    now = int(time.time())
    revoke_token("old", expires_at=now - 3600, now=now)
    revoke_token("current", expires_at=now + 3600, now=now)
    revoke_token("current", expires_at=now + 3600, now=now)  # twice is fine
    kept = list(RevokedToken.objects.values_list("jti", flat=True))
    assert kept == ["current"]


def test_the_previous_secret_verifies_while_it_is_set(
    settings: Any, anonymous: Client, ada: Any
) -> None:
    old = sign(claims(ada.pk))
    previous, new_secret = settings.JWT_SECRET, make_secret()
    settings.JWT_SECRET, settings.JWT_SECRET_PREVIOUS = new_secret, previous
    assert anonymous.get(CRUD, headers=bearer(old)).status_code == 200
    new = token_login(anonymous, EMAIL, PASSWORD).json()["token"]
    settings.JWT_SECRET_PREVIOUS = ""
    assert anonymous.get(CRUD, headers=bearer(old)).status_code == 401
    assert anonymous.get(CRUD, headers=bearer(new)).status_code == 200
    settings.JWT_SECRET = previous
    assert anonymous.get(CRUD, headers=bearer(new)).status_code == 401
