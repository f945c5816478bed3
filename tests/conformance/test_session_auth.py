"""Session logins: the JSON login and its CSRF token, the login form, logout.

A JSON client posts ``{"username", "password"}`` to ``/admin/authenticate`` and gets a
session cookie and ``{"message": "Authenticated.", "csrf_token": …}``; every
state-changing request of that session sends the token in ``X-CSRF-Token`` (else 403).
Browsers get the login page, a form carrying the token, and redirects.
"""

from __future__ import annotations

import secrets
from urllib.parse import parse_qs, urlsplit

import pytest

from .support import (
    CSRF_MISMATCH,
    EMAIL,
    FAILED_LOGIN,
    HTML,
    JSON,
    LOGIN_MAX_ATTEMPTS,
    PASSWORD,
    UNAUTHENTICATED,
    Deployment,
    crud,
    page,
    page_token,
)

pytestmark = pytest.mark.e2e


def test_json_login_gives_a_session_and_its_csrf_token(
    session_deployment: Deployment,
) -> None:
    resource = session_deployment.project.resources[0]
    with session_deployment.api(log_in=False) as api:
        assert api.get(crud(resource)).status_code == 401
        response = api.post(
            "/admin/authenticate", json={"username": EMAIL, "password": PASSWORD}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        assert set(body) == {"message", "csrf_token"}
        assert body["message"] == "Authenticated."
        assert isinstance(body["csrf_token"], str) and len(body["csrf_token"]) >= 32
        cookie = response.headers["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie
        assert "secure" not in cookie.replace("samesite", ""), "plain http: no Secure"
        assert api.get(crud(resource)).status_code == 200
        # A logged-in session sends its token even to log in again.
        upper = {"username": EMAIL.upper(), "password": PASSWORD}
        again = api.post("/admin/authenticate", json=upper, headers={})
        assert again.status_code == 403 and again.json() == CSRF_MISMATCH
        # A new client logs in with any case of the address.
        api.client.cookies.clear()
        assert api.post("/admin/authenticate", json=upper).status_code == 200


def test_changes_need_the_csrf_token(session_deployment: Deployment) -> None:
    resource = session_deployment.project.resources[0]
    with session_deployment.api() as api:
        record = api.create(resource, 1)
        item = crud(resource, record[resource.key])
        token = api.client.headers.pop("X-CSRF-Token")
        for header in (None, "not-the-token", ""):
            headers = {} if header is None else {"X-CSRF-Token": header}
            for method, url, body in (
                ("POST", crud(resource), api.payload(resource, 1)),
                ("PUT", item, {}),
                ("PATCH", item, {}),
                ("DELETE", item, None),
                ("DELETE", crud(resource), {"ids": [record[resource.key]]}),
                ("POST", "/admin/logout", None),
                ("DELETE", "/admin/logout", None),
            ):
                response = api.request(method, url, json=body, headers=headers)
                assert response.status_code == 403, (method, url, header)
                assert response.json() == CSRF_MISMATCH, (method, url, header)
        # Reading needs no token; the record is still there.
        assert api.get(item).status_code == 200
        assert api.get(crud(resource)).status_code == 200
        for valid in (token, page_token(api.client)):  # the login's, or a page's
            headers = {"X-CSRF-Token": valid}
            response = api.request("PATCH", item, json={}, headers=headers)
            assert response.status_code == 200, response.text


def test_failed_logins_are_422_and_look_alike(session_deployment: Deployment) -> None:
    expected = {"message": FAILED_LOGIN, "errors": {"username": [FAILED_LOGIN]}}
    with session_deployment.api(log_in=False) as api:
        answers = [
            api.post("/admin/authenticate", json=credentials)
            for credentials in (
                {"username": EMAIL, "password": "wrong password"},
                {"username": "nobody@example.com", "password": PASSWORD},
            )
        ]
        for answer in answers:
            assert answer.status_code == 422
            assert answer.json() == expected
        resource = session_deployment.project.resources[0]
        assert api.get(crud(resource)).status_code == 401


def test_malformed_logins_are_422(deployment: Deployment) -> None:
    username = "The username field is required."
    password = "The password field is required."
    invalid_json = "The request body is not valid JSON."
    not_object = "The request body must be a JSON object."
    with deployment.api(log_in=False) as api:
        for body, message, errors in (
            (
                {},
                f"{username} (and 1 more error)",
                {"username": [username], "password": [password]},
            ),
            (
                {"username": "", "password": PASSWORD},
                username,
                {"username": [username]},
            ),
            (
                {"username": EMAIL, "password": 12345},
                password,
                {"password": [password]},
            ),
        ):
            response = api.post("/admin/authenticate", json=body)
            assert response.status_code == 422, body
            assert response.json() == {"message": message, "errors": errors}, body
        for content, message in ((b"{x", invalid_json), (b"[]", not_object)):
            response = api.post(
                "/admin/authenticate",
                content=content,
                headers={"Content-Type": "application/json"},
            )
            assert response.status_code == 422
            assert response.json() == {
                "message": message,
                "errors": {"body": [message]},
            }


def test_failed_session_logins_are_throttled(session_deployment: Deployment) -> None:
    stranger = f"nobody-{secrets.token_hex(4)}@example.com"
    with session_deployment.client(headers=JSON) as client:
        for _ in range(LOGIN_MAX_ATTEMPTS):
            failed = client.post(
                "/admin/authenticate",
                json={"username": stranger, "password": "wrong password"},
            )
            assert failed.status_code == 422, failed.text
        refused = client.post(
            "/admin/authenticate", json={"username": stranger, "password": "wrong"}
        )
        assert refused.status_code == 429, refused.text
        wait = int(refused.headers["retry-after"])
        assert 0 < wait <= 15 * 60
        message = f"Too many login attempts. Please try again in {wait} seconds."
        assert refused.json() == {"message": message}
        # Another username from the same address is not held back.
        response = client.post(
            "/admin/authenticate", json={"username": EMAIL, "password": PASSWORD}
        )
        assert response.status_code == 200, response.text


def test_logout_ends_the_session(session_deployment: Deployment) -> None:
    resource = session_deployment.project.resources[0]
    for method in ("POST", "DELETE"):
        with session_deployment.api() as api:
            old_token = api.token
            response = api.request(method, "/admin/logout")
            assert response.status_code == 200, (method, response.text)
            assert response.json() == {"message": "Logged out."}
            response = api.get(crud(resource))
            assert response.status_code == 401
            assert response.json() == UNAUTHENTICATED
            # A new login is a new session: the old token is worth nothing.
            api.log_in()
            assert api.get(crud(resource)).status_code == 200
            stale = {"X-CSRF-Token": old_token or ""}
            response = api.request("PATCH", crud(resource, 1), json={}, headers=stale)
            assert response.status_code == 403
            assert response.json() == CSRF_MISMATCH


def test_a_session_cookie_replayed_after_logout_is_refused(
    session_deployment: Deployment,
) -> None:
    resource = session_deployment.project.resources[0]
    with session_deployment.api() as api:
        kept = dict(api.client.cookies)
        assert kept and api.get(crud(resource)).status_code == 200
        response = api.request("POST", "/admin/logout")
        assert response.status_code == 200, response.text
    # A copy of the cookie kept from before the logout opens nothing.
    with session_deployment.client() as replay:
        replay.cookies.update(kept)
        response = replay.get(crud(resource), headers=JSON)
        assert response.status_code == 401, response.text
        assert response.json() == UNAUTHENTICATED
        response = replay.get(page(resource, "index-page"), headers=HTML)
        assert response.status_code == 303, response.text
        assert urlsplit(response.headers["location"]).path == "/admin/login"


def test_strangers_reading_pages_are_sent_to_the_login(
    session_deployment: Deployment,
) -> None:
    resource = session_deployment.project.resources[0]
    with session_deployment.client() as browser:
        for url in (
            "/admin",
            page(resource, "index-page") + "?page=2",
            page(resource, "form-page"),
            page(resource, "detail-page", 1),
        ):
            response = browser.get(url, headers=HTML)
            assert response.status_code == 303, url
            location = urlsplit(response.headers["location"])
            assert location.path == "/admin/login", url
            assert parse_qs(location.query) == {"next": [url]}, url
        login = browser.get("/admin/login", headers=HTML)
        assert login.status_code == 200
        assert login.headers["content-type"].startswith("text/html")
        assert 'name="username"' in login.text and 'name="password"' in login.text
        # A stranger's API request is still JSON.
        response = browser.get(crud(resource), headers=JSON)
        assert response.status_code == 401 and response.json() == UNAUTHENTICATED


def test_the_login_form(session_deployment: Deployment) -> None:
    resource = session_deployment.project.resources[0]
    target = page(resource, "index-page") + "?page=1"
    with session_deployment.client() as browser:
        form = {"username": EMAIL, "password": PASSWORD, "next": target}
        refused = browser.post("/admin/authenticate", data=form, headers=HTML)
        assert refused.status_code == 403, "the login form needs its token"
        assert refused.headers["content-type"].startswith("text/html")
        token = page_token(browser, "/admin/login")
        wrong = {**form, "password": "wrong password", "_token": token}
        failed = browser.post("/admin/authenticate", data=wrong, headers=HTML)
        assert failed.status_code == 422
        assert failed.headers["content-type"].startswith("text/html")
        assert FAILED_LOGIN in failed.text
        response = browser.post(
            "/admin/authenticate", data={**form, "_token": token}, headers=HTML
        )
        assert response.status_code == 303, response.text
        assert response.headers["location"] == target
        assert browser.get(target, headers=HTML).status_code == 200
        # A next that leaves the site is not followed.
        token = page_token(browser, "/admin/login")
        away = {**form, "next": "https://elsewhere.example/", "_token": token}
        response = browser.post("/admin/authenticate", data=away, headers=HTML)
        assert response.status_code == 303
        assert response.headers["location"] == "/admin"
        # Logging out with the page's form goes back to the login page.
        token = page_token(browser)
        response = browser.post("/admin/logout", data={"_token": token}, headers=HTML)
        assert response.status_code == 303
        assert urlsplit(response.headers["location"]).path == "/admin/login"
        assert browser.get(target, headers=HTML).status_code == 303


def test_sessions_over_https_have_secure_cookies(
    session_deployment: Deployment,
) -> None:
    """Behind a proxy speaking https (``X-Forwarded-Proto`` from loopback, which
    uvicorn and gunicorn trust), HSTS is sent and the session cookie is ``Secure``
    (issue 19). ``runserver``, a development server, trusts no proxy, as the Django
    project's README says: there the header changes nothing."""
    https = {"X-Forwarded-Proto": "https"}
    trusted = session_deployment.server.trusts_forwarded_proto
    with session_deployment.api(log_in=False) as api:
        credentials = {"username": EMAIL, "password": PASSWORD}
        response = api.post("/admin/authenticate", json=credentials, headers=https)
        assert response.status_code == 200, response.text
        hsts = response.headers.get("strict-transport-security", "")
        assert hsts.startswith("max-age=") is trusted, hsts
        cookie = response.headers["set-cookie"].lower()
        assert ("; secure" in cookie) is trusted, cookie
        assert "httponly" in cookie and "samesite=lax" in cookie


def test_the_served_spec_documents_the_session_login(
    session_deployment: Deployment,
) -> None:
    """A client following only the spec logs in, sends the cookie it names and the
    CSRF header the writes declare, and logs out."""
    resource = session_deployment.project.resources[0]
    with session_deployment.client() as client:
        spec = client.get("/oag.json").json()
        scheme = spec["components"]["securitySchemes"]["sessionCookie"]
        login = spec["paths"]["/admin/authenticate"]["post"]
        assert list(login["requestBody"]["content"]) == ["application/json"]
        credentials = {"username": EMAIL, "password": PASSWORD}
        response = client.post("/admin/authenticate", json=credentials, headers=JSON)
        assert response.status_code == 200, response.text
        assert set(response.json()) == {"message", "csrf_token"}
        assert list(client.cookies) == [scheme["name"]]
        store = spec["paths"][crud(resource)]["post"]
        assert store["security"] == [{"sessionCookie": []}]
        (csrf,) = [p for p in store["parameters"] if p["in"] == "header"]
        headers = {**JSON, csrf["name"]: response.json()["csrf_token"]}
        with session_deployment.api(log_in=False) as api:
            body = api.payload(resource, 1)
        # Only the documented cookie travels: a client sending it alone is logged in.
        only = {scheme["name"]: client.cookies[scheme["name"]]}
        with session_deployment.client() as bare:
            bare.cookies.update(only)
            created = bare.post(crud(resource), json=body, headers=headers)
            assert created.status_code == 201, created.text
            logout = spec["paths"]["/admin/logout"]
            assert list(logout) == ["delete"]
            assert bare.delete("/admin/logout", headers=headers).status_code == 200
            assert bare.get(crud(resource), headers=JSON).status_code == 401
