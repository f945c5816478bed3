"""Every way to break a token or the Authorization header: 401, never a 500.

Each refused request answers ``{"message": "Unauthenticated."}`` with
``WWW-Authenticate: Bearer``. Runs in every project (``use_jwt``).
"""

from __future__ import annotations

import base64
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from app.resources import RESOURCES
from panel.auth_state import revoke_token
from panel.users import create_user
from panel_core.abilities import ADMIN
from tests.token_parts import DROP, JSON, b64, bearer
from tests.tokens import EMAIL, PASSWORD, claims, other_user, sign, unsigned, use_jwt

pytestmark = pytest.mark.django_db

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"
UNAUTHENTICATED = {"message": "Unauthenticated."}
OTHER_KEY = secrets.token_bytes(32)


@pytest.fixture(autouse=True)
def _jwt(settings: Any) -> None:
    use_jwt(settings)


@pytest.fixture
def user_id() -> int:
    """The key of a panel user (EMAIL, PASSWORD)."""
    return int(create_user(email=EMAIL, password=PASSWORD, role=ADMIN).pk)


@pytest.fixture
def anonymous() -> Client:
    """A JSON client nobody logged in with."""
    return Client(headers=JSON)


def _tamper(token: str) -> str:
    head, payload, signature = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["sub"] = str(int(data["sub"]) + 1)
    return f"{head}.{b64(data)}.{signature}"


def _revoked(user_id: int) -> str:
    payload = claims(user_id)
    now = int(time.time())
    revoke_token(payload["jti"], expires_at=payload["exp"], now=now)
    return sign(payload)


def _issuer() -> str:
    return str(settings.JWT_ISSUER)


Attack = Callable[[int], str]
ATTACKS: dict[str, Attack] = {
    "alg none": lambda user: unsigned(claims(user), alg="none"),
    "HS256 with another key": lambda user: sign(claims(user), key=OTHER_KEY),
    "HS384 with the right key": lambda user: sign(claims(user), algorithm="HS384"),
    "RS256 header": lambda user: unsigned(claims(user), alg="RS256") + "c2lnbmF0dXJl",
    "empty signature": lambda user: unsigned(claims(user), alg="HS256"),
    "tampered payload": lambda user: _tamper(sign(claims(user))),
    "expired past the leeway": lambda user: sign(
        claims(user, iat=int(time.time()) - 900, exp=int(time.time()) - 61)
    ),
    "nbf in the future": lambda user: sign(claims(user, nbf=int(time.time()) + 3600)),
    "iat in the future": lambda user: sign(claims(user, iat=int(time.time()) + 3600)),
    "no sub": lambda user: sign(claims(user, sub=DROP)),
    "no exp": lambda user: sign(claims(user, exp=DROP)),
    "no jti": lambda user: sign(claims(user, jti=DROP)),
    "no iat": lambda user: sign(claims(user, iat=DROP)),
    "sub not a key": lambda user: sign(claims(user, sub="1 OR 1")),
    "sub too large": lambda user: sign(claims(user, sub="9" * 30)),
    "sub a number": lambda user: sign(claims(user, sub=user)),
    "wrong iss": lambda user: sign(claims(user, iss="other")),
    "wrong aud": lambda user: sign(claims(user, aud="other")),
    "aud a list": lambda user: sign(claims(user, aud=[_issuer(), "other"])),
    "revoked jti": _revoked,
    "unknown kid": lambda user: sign(claims(user), kid="nope"),
    "kid not a string": lambda user: unsigned(claims(user), alg="HS256", kid=[1])
    + "c2lnbmF0dXJl",
    "unknown crit": lambda user: sign(
        claims(user), crit=["exp-extension"], **{"exp-extension": 1}
    ),
    "sub of a deleted user": lambda user: sign(claims(other_user(deleted=True))),
    "sub of an inactive user": lambda user: sign(claims(other_user(active=False))),
    "garbage": lambda user: "garbage",
    "two parts": lambda user: "eyJhbGciOiJIUzI1NiJ9.e30",
    "oversized": lambda user: sign(claims(user, pad="x" * 9000)),
}


@pytest.mark.parametrize("attack", ATTACKS.values(), ids=list(ATTACKS))
def test_a_bad_token_is_401(anonymous: Client, user_id: int, attack: Attack) -> None:
    response = anonymous.get(CRUD, headers=bearer(attack(user_id)))
    assert response.status_code == 401, response.content
    assert response.json() == UNAUTHENTICATED
    assert response["WWW-Authenticate"] == "Bearer"


@pytest.mark.parametrize(
    "authorization",
    ["Bearer", "Bearer ", "Bearer  ", "Basic YTpi", "Token abc", "bearer a b", ""],
)
def test_a_malformed_authorization_header_is_401(
    anonymous: Client, authorization: str
) -> None:
    response = anonymous.get(CRUD, headers={"Authorization": authorization})
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Bearer"


def test_the_scheme_is_case_insensitive(anonymous: Client, user_id: int) -> None:
    token = sign(claims(user_id))
    for scheme in ("bearer", "BEARER", "Bearer"):
        response = anonymous.get(CRUD, headers={"Authorization": f"{scheme} {token}"})
        assert response.status_code == 200, (scheme, response.content)


def test_within_the_leeway_a_token_still_works(anonymous: Client, user_id: int) -> None:
    now = int(time.time())
    leeway = settings.JWT_LEEWAY
    assert 0 < leeway <= 60
    late = sign(claims(user_id, iat=now - 900, exp=now - leeway + 10))
    assert anonymous.get(CRUD, headers=bearer(late)).status_code == 200


def test_tokens_elsewhere_than_the_header_are_ignored(
    anonymous: Client, user_id: int
) -> None:
    token = sign(claims(user_id))
    assert anonymous.get(CRUD, {"access_token": token}).status_code == 401
    anonymous.cookies["access_token"] = token
    anonymous.cookies["token"] = token
    assert anonymous.get(CRUD).status_code == 401


def test_pages_without_a_token_are_401_too(anonymous: Client) -> None:
    page = f"/admin/resource/{RESOURCES[0].uri}/index-page"
    response = anonymous.get(page, headers={"Accept": "text/html"})
    assert response.status_code == 401
    assert response.json() == UNAUTHENTICATED
    assert response["WWW-Authenticate"] == "Bearer"
