"""Logging in and out with sessions: the cookie, CSRF, and what strangers get.

These run in every project, JWT ones included (``panel_auth("session")``): switching
to sessions is a matter of settings. ``test_jwt.py`` tests the token logins.
"""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core import users
from app.core.config import SESSION_PANEL, Settings
from app.core.users import User, create_user
from app.main import create_app
from app.panel.sessions import ConfigurationError
from app.resources import RESOURCES
from tests.cases import MALFORMED_LOGINS, guarded_routes
from tests.helpers import PASSWORD, log_in, page_token

pytestmark = pytest.mark.panel_auth("session")

CRUD = f"/admin/resource/{RESOURCES[0].uri}/crud"
INDEX_PAGE = f"/admin/resource/{RESOURCES[0].uri}/index-page"
FAILED = "These credentials do not match our records."
# Every kind of panel route, and a method it answers.
GUARDED = guarded_routes(RESOURCES[0].uri)


def _login(client: TestClient, username: Any, password: Any) -> Any:
    body = {"username": username, "password": password}
    return client.post("/admin/authenticate", json=body)


def test_json_login_gives_a_session_and_its_csrf_token(
    anonymous: TestClient, user: User
) -> None:
    response = _login(anonymous, user.email.upper(), PASSWORD)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["message"] == "Authenticated."
    assert len(body["csrf_token"]) >= 32
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("panel_session=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie
    assert anonymous.get(CRUD).status_code == 200


def test_the_cookie_is_secure_over_https(app: FastAPI, user: User) -> None:
    with TestClient(app, base_url="https://testserver") as client:
        response = _login(client, user.email, PASSWORD)
        assert "; Secure" in response.headers["set-cookie"]
        assert response.headers["strict-transport-security"].startswith("max-age=")


@pytest.mark.parametrize("method,url", GUARDED)
def test_strangers_get_401(anonymous: TestClient, method: str, url: str) -> None:
    response = anonymous.request(method, url, json={})
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthenticated."}


def test_strangers_reading_pages_are_sent_to_the_login(app: FastAPI) -> None:
    with TestClient(app) as browser:
        response = browser.get(f"{INDEX_PAGE}?page=2", follow_redirects=False)
        assert response.status_code == 303
        expected = "/admin/login?next=%2Fadmin%2Fresource%2F"
        assert response.headers["location"].startswith(expected)
        assert response.headers["location"].endswith("index-page%3Fpage%3D2")
        assert browser.get(response.headers["location"]).status_code == 200


def test_failed_logins_look_alike_and_verify_one_hash_each(
    app: FastAPI,
    anonymous: TestClient,
    user: User,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    other = create_user(app.state.engine, email="off@example.com", password=PASSWORD)
    with app.state.engine.begin() as connection:
        table = users.PanelUser.__table__
        statement = table.update().where(table.c.id == other.id)
        connection.execute(statement.values(is_active=False))
    calls: list[str] = []
    verify = users.verify_password

    def spy(password: str, stored: str | None) -> bool:
        calls.append(password)
        return verify(password, stored)

    monkeypatch.setattr(users, "verify_password", spy)
    attempts = [
        ("nobody@example.com", PASSWORD),
        (user.email, "wrong password"),
        (other.email, PASSWORD),
    ]
    answers = [_login(anonymous, *attempt) for attempt in attempts]
    assert {a.status_code for a in answers} == {422}
    assert len({a.content for a in answers}) == 1
    assert answers[0].json() == {"message": FAILED, "errors": {"username": [FAILED]}}
    assert len(calls) == len(attempts)


def test_a_garbage_stored_hash_is_a_plain_failure(
    app: FastAPI, anonymous: TestClient, user: User
) -> None:
    table = users.PanelUser.__table__
    with app.state.engine.begin() as connection:
        statement = table.update().where(table.c.id == user.id)
        connection.execute(statement.values(password_hash="$argon2id$garbage"))
    assert _login(anonymous, user.email, PASSWORD).status_code == 422


@pytest.mark.parametrize(
    ("username", "password", "fields"),
    MALFORMED_LOGINS,
)
def test_malformed_logins_are_422(
    anonymous: TestClient, username: Any, password: Any, fields: set[str]
) -> None:
    response = _login(anonymous, username, password)
    assert response.status_code == 422
    assert set(response.json()["errors"]) == fields


def test_changes_without_the_csrf_token_are_403(client: TestClient) -> None:
    for token in (None, "not-the-token"):
        headers = {"X-CSRF-Token": token} if token else {}
        del client.headers["X-CSRF-Token"]
        response = client.post(CRUD, json={}, headers=headers)
        assert response.status_code == 403
        assert response.json() == {"message": "CSRF token mismatch."}
        client.headers["X-CSRF-Token"] = page_token(client)


def test_forms_without_the_csrf_token_are_403_pages(browser: TestClient) -> None:
    response = browser.post(CRUD, data={"_method": "DELETE", "ids[]": "1"})
    assert response.status_code == 403
    assert response.headers["content-type"].startswith("text/html")
    assert "CSRF token mismatch." in response.text


def test_the_login_form_needs_its_token(app: FastAPI, user: User) -> None:
    with TestClient(app) as browser:
        form = {"username": user.email, "password": PASSWORD}
        assert browser.post("/admin/authenticate", data=form).status_code == 403


def test_a_failed_form_login_shows_the_form_again(app: FastAPI, user: User) -> None:
    with TestClient(app) as browser:
        token = page_token(browser, "/admin/login")
        form = {"username": user.email, "password": "wrong", "_token": token}
        response = browser.post("/admin/authenticate", data=form)
        assert response.status_code == 422
        assert FAILED in response.text
        assert f'value="{user.email}"' in response.text


def test_logout_ends_the_session(client: TestClient) -> None:
    assert client.get("/admin/logout").status_code == 405
    assert client.post("/admin/logout").json() == {"message": "Logged out."}
    assert client.get(CRUD).status_code == 401


def test_a_session_cookie_replayed_after_logout_is_refused(
    app: FastAPI, client: TestClient
) -> None:
    kept = dict(client.cookies)
    assert client.get(CRUD).status_code == 200
    assert client.post("/admin/logout").status_code == 200
    with TestClient(app, headers={"Accept": "application/json"}) as replay:
        replay.cookies.update(kept)
        response = replay.get(CRUD)
        assert response.status_code == 401
        assert response.json() == {"message": "Unauthenticated."}
        page = replay.get(
            INDEX_PAGE, headers={"Accept": "text/html"}, follow_redirects=False
        )
        assert page.status_code == 303, page.text
        assert page.headers["location"].startswith("/admin/login")


def test_a_deactivated_user_is_logged_out(
    app: FastAPI, client: TestClient, user: User
) -> None:
    table = users.PanelUser.__table__
    with app.state.engine.begin() as connection:
        statement = table.update().where(table.c.id == user.id)
        connection.execute(statement.values(is_active=False))
    assert client.get(CRUD).status_code == 401


def test_a_new_password_ends_the_old_sessions(
    app: FastAPI, client: TestClient, user: User
) -> None:
    table = users.PanelUser.__table__
    with app.state.engine.begin() as connection:
        statement = table.update().where(table.c.id == user.id)
        new_hash = users.hash_password("another password")
        connection.execute(statement.values(password_hash=new_hash))
    assert client.get(CRUD).status_code == 401


def test_a_forged_cookie_is_no_session(app: FastAPI, user: User) -> None:
    with TestClient(app, headers={"Accept": "application/json"}) as client:
        log_in(client, user.email, PASSWORD)
        value = client.cookies["panel_session"]
        payload, issued, mac = value.split(".")
        client.cookies.set("panel_session", f"{payload}.{int(issued) + 1}.{mac}")
        assert client.get(CRUD).status_code == 401


def test_the_panel_refuses_to_start_without_a_secret(database_url: str) -> None:
    # Explicit arguments win over SECRET_KEY and DEBUG in the environment.
    def settings(**values: Any) -> Settings:
        return Settings(database_url=database_url, panel=SESSION_PANEL, **values)

    without = create_app(settings(secret_key=None, debug=False))
    with pytest.raises(ConfigurationError, match="SECRET_KEY"), TestClient(without):
        pass
    with pytest.raises(ConfigurationError, match="at least 32"):
        create_app(settings(secret_key="short"))
    debug = create_app(settings(secret_key=None, debug=True))
    with TestClient(debug) as client:
        assert client.get("/admin/login").status_code == 200
    for application in (without, debug):
        application.state.engine.dispose()


def test_users_are_unique_whatever_the_case(app: FastAPI, user: User) -> None:
    with pytest.raises(users.UserExists):
        create_user(app.state.engine, email=user.email.upper(), password=PASSWORD)
    with app.state.engine.connect() as connection:
        count = connection.execute(sa.text("SELECT count(*) FROM panel_users"))
        assert count.scalar_one() == 1
