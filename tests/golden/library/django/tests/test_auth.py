"""Logging in and out with sessions: the cookie, what strangers get, ended sessions.

These run in every project, JWT ones included (``use_sessions``): switching to
sessions is a matter of settings. ``test_jwt.py`` tests the token logins,
``test_csrf.py`` the CSRF tokens.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.base_user import AbstractBaseUser
from django.test import Client

from app.resources import RESOURCES
from panel import users
from tests.cases import MALFORMED_LOGINS, guarded_routes
from tests.sessions import (
    EMAIL,
    JSON,
    PASSWORD,
    browser,
    form_login,
    json_login,
    make_user,
    page_token,
    post_form,
    use_sessions,
)

pytestmark = pytest.mark.django_db

URI = RESOURCES[0].uri
CRUD = f"/admin/resource/{URI}/crud"
INDEX_PAGE = f"/admin/resource/{URI}/index-page"
FAILED = "These credentials do not match our records."
# Every kind of panel route, and a method it answers.
GUARDED = [*guarded_routes(URI), ("GET", "/admin/page/nothing")]


@pytest.fixture(autouse=True)
def _sessions(settings: Any) -> None:
    use_sessions(settings)


@pytest.fixture
def user() -> AbstractBaseUser:
    """A panel user (EMAIL, PASSWORD)."""
    return make_user()


@pytest.fixture
def client(user: AbstractBaseUser) -> Client:
    """A JSON client logged in with a session, sending its CSRF token."""
    client = Client(enforce_csrf_checks=True, headers=JSON)
    response = json_login(client, EMAIL, PASSWORD)
    assert response.status_code == 200, response.content
    client.defaults["HTTP_X_CSRF_TOKEN"] = response.json()["csrf_token"]
    return client


def test_json_login_gives_a_session_and_its_csrf_token(user: AbstractBaseUser) -> None:
    client = Client(enforce_csrf_checks=True, headers=JSON)
    response = json_login(client, EMAIL.upper(), PASSWORD)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["message"] == "Authenticated."
    assert len(body["csrf_token"]) >= 32
    cookie = response.cookies["panel_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax"
    assert not cookie["secure"]
    assert client.get(CRUD).status_code == 200


def test_the_login_starts_a_new_session(user: AbstractBaseUser) -> None:
    client = browser()
    page_token(client, "/admin/login")
    before = client.cookies["panel_session"].value
    json_login(client, EMAIL, PASSWORD)
    assert client.cookies["panel_session"].value != before


@pytest.mark.parametrize(("method", "url"), GUARDED)
def test_strangers_get_401(method: str, url: str) -> None:
    client = Client(enforce_csrf_checks=True, headers=JSON)
    response = client.generic(method, url, "{}", content_type="application/json")
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthenticated."}
    assert "WWW-Authenticate" not in response


def test_strangers_reading_pages_are_sent_to_the_login() -> None:
    client = browser()
    response = client.get(f"{INDEX_PAGE}?page=2")
    assert response.status_code == 303
    expected = "/admin/login?next=%2Fadmin%2Fresource%2F"
    assert response["Location"].startswith(expected)
    assert response["Location"].endswith("index-page%3Fpage%3D2")
    assert client.get(response["Location"]).status_code == 200


def test_failed_logins_look_alike(user: AbstractBaseUser) -> None:
    other = make_user("off@example.com")
    type(other)._default_manager.filter(pk=other.pk).update(is_active=False)
    attempts = [
        ("nobody@example.com", PASSWORD),
        (EMAIL, "wrong password"),
        ("off@example.com", PASSWORD),
    ]
    client = Client(headers=JSON)
    answers = [json_login(client, *attempt) for attempt in attempts]
    assert {a.status_code for a in answers} == {422}
    assert len({a.content for a in answers}) == 1
    assert answers[0].json() == {"message": FAILED, "errors": {"username": [FAILED]}}


@pytest.mark.parametrize(
    ("username", "password", "fields"),
    MALFORMED_LOGINS,
)
def test_malformed_logins_are_422(
    username: Any, password: Any, fields: set[str]
) -> None:
    response = json_login(Client(headers=JSON), username, password)
    assert response.status_code == 422
    assert set(response.json()["errors"]) == fields


def test_a_failed_form_login_shows_the_form_again(user: AbstractBaseUser) -> None:
    client = browser()
    token = page_token(client, "/admin/login")
    form = {"username": EMAIL, "password": "wrong", "_token": token}
    response = post_form(client, "/admin/authenticate", form)
    assert response.status_code == 422
    text = response.content.decode()
    assert FAILED in text
    assert f'value="{EMAIL}"' in text


def test_logout_ends_the_session(client: Client) -> None:
    assert client.get("/admin/logout").status_code == 405
    assert client.post("/admin/logout").json() == {"message": "Logged out."}
    assert client.get(CRUD).status_code == 401


def test_a_form_logout_goes_to_the_login_page(user: AbstractBaseUser) -> None:
    client = browser()
    form_login(client)
    response = post_form(client, "/admin/logout", {"_token": page_token(client)})
    assert response.status_code == 303
    assert response["Location"] == "/admin/login"
    assert client.get("/admin").status_code == 303


def test_a_deactivated_user_is_logged_out(
    client: Client, user: AbstractBaseUser
) -> None:
    type(user)._default_manager.filter(pk=user.pk).update(is_active=False)
    assert client.get(CRUD).status_code == 401


def test_a_new_password_ends_the_old_sessions(
    client: Client, user: AbstractBaseUser
) -> None:
    user.set_password("another password")
    user.save()
    assert client.get(CRUD).status_code == 401


def test_a_forged_cookie_is_no_session(client: Client) -> None:
    value = client.cookies["panel_session"].value
    client.cookies["panel_session"] = value[:-1] + ("b" if value.endswith("a") else "a")
    assert client.get(CRUD).status_code == 401


def test_users_are_unique_whatever_the_case(user: AbstractBaseUser) -> None:
    with pytest.raises(users.UserExists):
        make_user(EMAIL.upper())
