"""JWT logins: ``POST /admin/authenticate`` gives a bearer token; refusals; throttle.

Every request sends ``Authorization: Bearer <token>``; anything else is 401
``{"message": "Unauthenticated."}`` with ``WWW-Authenticate: Bearer``, pages included
(token clients have no login page). Tokens are HS256, signed with the base64-decoded
``JWT_SECRET``, so a test can sign one itself. Failed logins are throttled per
username and address, in the database: every server of a project shares the count.
"""

from __future__ import annotations

import base64
import secrets
import time
from typing import Any

import httpx
import jwt
import pytest
from conftest import SERVERS

from .support import (
    EMAIL,
    FAILED_LOGIN,
    HTML,
    JSON,
    LOGIN_MAX_ATTEMPTS,
    OTHER_EMAIL,
    PASSWORD,
    UNAUTHENTICATED,
    Deployment,
    crud,
    page,
)

pytestmark = pytest.mark.e2e


def _refused(response: httpx.Response) -> None:
    assert response.status_code == 401, response.text
    assert response.json() == UNAUTHENTICATED
    assert response.headers["www-authenticate"] == "Bearer"


def _login(client: httpx.Client, username: str, password: str) -> httpx.Response:
    body = {"username": username, "password": password}
    return client.post("/admin/authenticate", json=body, headers=JSON)


def _bearer(token: str) -> dict[str, str]:
    return {**JSON, "Authorization": f"Bearer {token}"}


def test_login_gives_a_bearer_token(jwt_deployment: Deployment) -> None:
    resource = jwt_deployment.project.resources[0]
    with jwt_deployment.client() as client:
        response = _login(client, EMAIL, PASSWORD)
        assert response.status_code == 200, response.text
        body = response.json()
        assert set(body) == {"token", "token_type", "expires_in"}
        assert body["token_type"] == "Bearer"
        assert body["expires_in"] == jwt_deployment.project.auth.token_ttl
        assert response.headers["cache-control"] == "no-store"
        assert "set-cookie" not in response.headers
        header = jwt.get_unverified_header(body["token"])
        assert header["alg"] == "HS256"
        claims = jwt.decode(body["token"], options={"verify_signature": False})
        assert claims["exp"] - claims["iat"] == jwt_deployment.project.auth.token_ttl
        listed = client.get(crud(resource), headers=_bearer(body["token"]))
        assert listed.status_code == 200, listed.text
        upper = _login(client, EMAIL.upper(), PASSWORD)
        assert upper.status_code == 200, "the address is case-insensitive"
        # A form login gives a token too.
        form = {"username": EMAIL, "password": PASSWORD}
        response = client.post("/admin/authenticate", data=form)
        assert response.status_code == 200, response.text
        assert response.json()["token_type"] == "Bearer"


def test_failed_logins_are_422(jwt_deployment: Deployment) -> None:
    expected = {"message": FAILED_LOGIN, "errors": {"username": [FAILED_LOGIN]}}
    with jwt_deployment.client() as client:
        for username, password in (
            (EMAIL, "wrong password"),
            ("nobody@example.com", PASSWORD),
        ):
            response = _login(client, username, password)
            assert response.status_code == 422
            assert response.json() == expected
        assert _login(client, EMAIL, PASSWORD).status_code == 200  # clears the count


def _signing_key(deployment: Deployment) -> bytes:
    return base64.b64decode(deployment.server.env["JWT_SECRET"])


def _resign(token: str, key: bytes, **changes: Any) -> str:
    """``token`` with its claims changed, signed with ``key`` (same header)."""
    header = jwt.get_unverified_header(token)
    claims = jwt.decode(token, options={"verify_signature": False})
    claims.update(changes, jti=secrets.token_urlsafe(16))
    extra = {k: v for k, v in header.items() if k not in ("alg", "typ")}
    return jwt.encode(claims, key, algorithm="HS256", headers=extra)


def test_requests_without_a_valid_token_are_401(jwt_deployment: Deployment) -> None:
    resource = jwt_deployment.project.resources[0]
    url = crud(resource)
    now = int(time.time())
    with jwt_deployment.client() as client:
        token = _login(client, EMAIL, PASSWORD).json()["token"]
        key = _signing_key(jwt_deployment)
        # A token this test signs with the server's secret is good...
        assert client.get(url, headers=_bearer(_resign(token, key))).status_code == 200
        unsigned = jwt.encode(
            jwt.decode(token, options={"verify_signature": False}),
            None,
            algorithm="none",
        )
        for headers in (
            JSON,
            {**JSON, "Authorization": token},
            {**JSON, "Authorization": f"Basic {token}"},
            {**JSON, "Authorization": "Bearer"},
            {**JSON, "Authorization": "Bearer not.a.token"},
            _bearer(token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")),
            # ...one that expired, or is signed with another key, is not.
            _bearer(_resign(token, key, exp=now - 3600, iat=now - 7200)),
            _bearer(_resign(token, secrets.token_bytes(32))),
            _bearer(unsigned),
        ):
            _refused(client.get(url, headers=headers))
        # The token goes in the header only: not in the query, not in a cookie.
        _refused(client.get(url, params={"token": token}, headers=JSON))
        client.cookies.set("token", token)
        _refused(client.get(url, headers=JSON))


def test_pages_want_a_token_too(jwt_deployment: Deployment) -> None:
    resource = jwt_deployment.project.resources[0]
    with jwt_deployment.client() as client:
        for url in (
            "/admin",
            page(resource, "index-page"),
            page(resource, "form-page"),
        ):
            _refused(client.get(url, headers=HTML))
        _refused(client.get(crud(resource), headers=HTML))
        token = _login(client, EMAIL, PASSWORD).json()["token"]
        headers = {**HTML, "Authorization": f"Bearer {token}"}
        response = client.get(page(resource, "index-page"), headers=headers)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")


def test_logout_revokes_that_token_only(jwt_deployment: Deployment) -> None:
    url = crud(jwt_deployment.project.resources[0])
    with jwt_deployment.client() as client:
        first = _login(client, EMAIL, PASSWORD).json()["token"]
        second = _login(client, EMAIL, PASSWORD).json()["token"]
        response = client.delete("/admin/logout", headers=_bearer(first))
        assert response.status_code == 200, response.text
        assert response.json() == {"message": "Logged out."}
        assert "set-cookie" not in response.headers
        _refused(client.get(url, headers=_bearer(first)))
        _refused(client.delete("/admin/logout", headers=_bearer(first)))
        assert client.get(url, headers=_bearer(second)).status_code == 200
        response = client.post("/admin/logout", headers=_bearer(second))
        assert response.status_code == 200
        _refused(client.get(url, headers=_bearer(second)))


def test_failed_logins_are_throttled(jwt_deployment: Deployment) -> None:
    with jwt_deployment.client() as client:
        for _ in range(LOGIN_MAX_ATTEMPTS):
            assert _login(client, OTHER_EMAIL, "wrong password").status_code == 422
        # Past the limit, even the right password is refused until the window ends.
        refused = _login(client, OTHER_EMAIL, PASSWORD)
        assert refused.status_code == 429, refused.text
        wait = int(refused.headers["retry-after"])
        assert 0 < wait <= 15 * 60
        message = f"Too many login attempts. Please try again in {wait} seconds."
        assert refused.json() == {"message": message}
        # Another username from the same address is not held back.
        assert _login(client, EMAIL, PASSWORD).status_code == 200


def test_two_servers_share_the_throttle_and_the_revocations(
    jwt_deployment: Deployment,
) -> None:
    """A second server of the project on the same database: one state for both."""
    first = jwt_deployment.server
    second = SERVERS[first.framework](first.project, first.database_url)
    second.start()
    try:
        with httpx.Client(timeout=15) as client:
            token = _login_at(client, second.base_url, EMAIL, PASSWORD).json()["token"]
            url = crud(jwt_deployment.project.resources[0])
            assert client.get(first.base_url + url, headers=_bearer(token)).is_success
            revoked = client.delete(
                first.base_url + "/admin/logout", headers=_bearer(token)
            )
            assert revoked.status_code == 200, revoked.text
            _refused(client.get(second.base_url + url, headers=_bearer(token)))
            stranger = f"nobody-{secrets.token_hex(4)}@example.com"
            bases = [first.base_url, second.base_url] * LOGIN_MAX_ATTEMPTS
            for base in bases[:LOGIN_MAX_ATTEMPTS]:
                failed = _login_at(client, base, stranger, "wrong password")
                assert failed.status_code == 422
            for base in (second.base_url, first.base_url):
                limited = _login_at(client, base, stranger, "wrong password")
                assert limited.status_code == 429, limited.text
    finally:
        logs = second.stop()
    assert "POST /admin/authenticate" in logs, logs[-2000:]
    assert token not in logs


def _login_at(
    client: httpx.Client, base_url: str, username: str, password: str
) -> httpx.Response:
    body = {"username": username, "password": password}
    return client.post(base_url + "/admin/authenticate", json=body, headers=JSON)
