"""Every way to break a token or the Authorization header: 401, never a 500.

Each refused request answers ``{"message": "Unauthenticated."}`` with
``WWW-Authenticate: Bearer``. Runs in every project (``panel_auth("jwt")``).
"""

from __future__ import annotations

import base64
import json
import secrets
import time
from collections.abc import Callable

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core.auth_state import revoke_token
from app.core.users import User
from app.resources import RESOURCES
from tests.token_parts import DROP, b64, bearer
from tests.tokens import claims, other_user, sign, unsigned

pytestmark = pytest.mark.panel_auth("jwt")

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"
UNAUTHENTICATED = {"message": "Unauthenticated."}
OTHER_KEY = secrets.token_bytes(32)


def _tamper(token: str) -> str:
    head, payload, signature = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data["sub"] = str(int(data["sub"]) + 1)
    return f"{head}.{b64(data)}.{signature}"


def _revoked(app: FastAPI, user: User) -> str:
    payload = claims(app, user.id)
    now = int(time.time())
    revoke_token(app.state.engine, payload["jti"], expires_at=payload["exp"], now=now)
    return sign(app, payload)


Attack = Callable[[FastAPI, User], str]
ATTACKS: dict[str, Attack] = {
    "alg none": lambda app, user: unsigned(app, claims(app, user.id), alg="none"),
    "HS256 with another key": lambda app, user: sign(
        app, claims(app, user.id), key=OTHER_KEY
    ),
    "HS384 with the right key": lambda app, user: sign(
        app, claims(app, user.id), algorithm="HS384"
    ),
    "RS256 header": lambda app, user: unsigned(app, claims(app, user.id), alg="RS256")
    + "c2lnbmF0dXJl",
    "empty signature": lambda app, user: unsigned(
        app, claims(app, user.id), alg="HS256"
    ),
    "tampered payload": lambda app, user: _tamper(sign(app, claims(app, user.id))),
    "expired past the leeway": lambda app, user: sign(
        app,
        claims(app, user.id, iat=int(time.time()) - 900, exp=int(time.time()) - 61),
    ),
    "nbf in the future": lambda app, user: sign(
        app, claims(app, user.id, nbf=int(time.time()) + 3600)
    ),
    "iat in the future": lambda app, user: sign(
        app, claims(app, user.id, iat=int(time.time()) + 3600)
    ),
    "no sub": lambda app, user: sign(app, claims(app, user.id, sub=DROP)),
    "no exp": lambda app, user: sign(app, claims(app, user.id, exp=DROP)),
    "no jti": lambda app, user: sign(app, claims(app, user.id, jti=DROP)),
    "no iat": lambda app, user: sign(app, claims(app, user.id, iat=DROP)),
    "sub not a key": lambda app, user: sign(app, claims(app, user.id, sub="1 OR 1")),
    "sub too large": lambda app, user: sign(app, claims(app, user.id, sub="9" * 30)),
    "sub a number": lambda app, user: sign(app, claims(app, user.id, sub=user.id)),
    "wrong iss": lambda app, user: sign(app, claims(app, user.id, iss="other")),
    "wrong aud": lambda app, user: sign(app, claims(app, user.id, aud="other")),
    "aud a list": lambda app, user: sign(
        app, claims(app, user.id, aud=[app.state.settings.jwt_issuer, "other"])
    ),
    "revoked jti": _revoked,
    "unknown kid": lambda app, user: sign(app, claims(app, user.id), kid="nope"),
    "kid not a string": lambda app, user: unsigned(
        app, claims(app, user.id), alg="HS256", kid=[1]
    )
    + "c2lnbmF0dXJl",
    "unknown crit": lambda app, user: sign(
        app, claims(app, user.id), crit=["exp-extension"], **{"exp-extension": 1}
    ),
    "sub of a deleted user": lambda app, user: sign(
        app, claims(app, other_user(app, deleted=True))
    ),
    "sub of an inactive user": lambda app, user: sign(
        app, claims(app, other_user(app, active=False))
    ),
    "garbage": lambda app, user: "garbage",
    "two parts": lambda app, user: "eyJhbGciOiJIUzI1NiJ9.e30",
    "oversized": lambda app, user: sign(app, claims(app, user.id, pad="x" * 9000)),
}


@pytest.mark.parametrize("attack", ATTACKS.values(), ids=list(ATTACKS))
def test_a_bad_token_is_401(
    app: FastAPI, anonymous: TestClient, user: User, attack: Attack
) -> None:
    token = attack(app, user)
    response = anonymous.get(CRUD, headers=bearer(token))
    assert response.status_code == 401, response.text
    assert response.json() == UNAUTHENTICATED
    assert response.headers["www-authenticate"] == "Bearer"


@pytest.mark.parametrize(
    "authorization",
    ["Bearer", "Bearer ", "Bearer  ", "Basic YTpi", "Token abc", "bearer a b", ""],
)
def test_a_malformed_authorization_header_is_401(
    anonymous: TestClient, authorization: str
) -> None:
    response = anonymous.get(CRUD, headers={"Authorization": authorization})
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


def test_the_scheme_is_case_insensitive(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    token = sign(app, claims(app, user.id))
    for scheme in ("bearer", "BEARER", "Bearer"):
        response = anonymous.get(CRUD, headers={"Authorization": f"{scheme} {token}"})
        assert response.status_code == 200, (scheme, response.text)


def test_within_the_leeway_a_token_still_works(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    now = int(time.time())
    leeway = app.state.settings.jwt_leeway
    assert 0 < leeway <= 60
    late = sign(app, claims(app, user.id, iat=now - 900, exp=now - leeway + 10))
    assert anonymous.get(CRUD, headers=bearer(late)).status_code == 200


def test_tokens_elsewhere_than_the_header_are_ignored(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    token = sign(app, claims(app, user.id))
    assert anonymous.get(CRUD, params={"access_token": token}).status_code == 401
    anonymous.cookies.set("access_token", token)
    anonymous.cookies.set("token", token)
    assert anonymous.get(CRUD).status_code == 401


def test_pages_without_a_token_are_401_too(anonymous: TestClient) -> None:
    page = f"/admin/resource/{RESOURCES[0].uri}/index-page"
    response = anonymous.get(page, headers={"Accept": "text/html"})
    assert response.status_code == 401
    assert response.json() == UNAUTHENTICATED
    assert response.headers["www-authenticate"] == "Bearer"
