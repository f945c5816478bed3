"""CSRF: Django's check, speaking the panel's protocol.

The token lives in the session; pages carry it in ``<meta name="csrf-token">``, JSON
logins return it; it comes back as the ``X-CSRF-Token`` header or the ``_token`` form
field. Async methods need it on every HTTP method.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from app.resources import RESOURCES
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
_SAMPLES = json.loads(Path(__file__).with_name("samples.json").read_text("utf-8"))
# The deletes below need a valid key, not a record: one no record has.
ABSENT = next(sample["missing"] for sample in _SAMPLES if sample["resource"] == URI)
MISMATCH = {"message": "CSRF token mismatch."}


@pytest.fixture(autouse=True)
def _sessions(settings: Any) -> None:
    use_sessions(settings)
    make_user()


@pytest.fixture
def client() -> Client:
    """A JSON client logged in with a session, sending no CSRF token by itself."""
    client = Client(enforce_csrf_checks=True, headers=JSON)
    assert json_login(client, EMAIL, PASSWORD).status_code == 200
    return client


@pytest.mark.parametrize("token", [None, "not-the-token", "x" * 64])
def test_changes_without_the_token_are_403(client: Client, token: str | None) -> None:
    headers = {"X-CSRF-Token": token} if token else {}
    response = client.delete(
        CRUD, {"ids": [ABSENT]}, content_type="application/json", headers=headers
    )
    assert response.status_code == 403
    assert response.json() == MISMATCH


def test_the_login_token_and_the_page_token_both_work() -> None:
    client = Client(enforce_csrf_checks=True, headers=JSON)
    token = json_login(client, EMAIL, PASSWORD).json()["csrf_token"]
    for sent in (token, page_token(client)):
        response = client.delete(
            CRUD,
            {"ids": [ABSENT]},
            content_type="application/json",
            headers={"X-CSRF-Token": sent},
        )
        assert response.status_code == 200, response.content


def test_forms_without_the_token_are_403_pages() -> None:
    client = browser()
    form_login(client)
    response = post_form(client, CRUD, {"_method": "DELETE", "ids[]": str(ABSENT)})
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    assert "CSRF token mismatch." in response.content.decode()


@pytest.mark.parametrize("field", ["_token", "csrfmiddlewaretoken"])
def test_forms_send_the_token_as_a_field(field: str) -> None:
    client = browser()
    form_login(client)
    form = {field: page_token(client), "_method": "DELETE", "ids[]": str(ABSENT)}
    response = post_form(client, CRUD, form)
    assert response.status_code == 303
    assert response["Location"].startswith(f"/admin/resource/{URI}/index-page")


def test_the_login_form_needs_its_token() -> None:
    client = browser()
    form = {"username": EMAIL, "password": PASSWORD}
    response = post_form(client, "/admin/authenticate", form)
    assert response.status_code == 403
    assert client.get("/admin").status_code == 303


def test_a_json_login_needs_no_token() -> None:
    client = Client(enforce_csrf_checks=True, headers=JSON)
    assert json_login(client, EMAIL, PASSWORD).status_code == 200


def test_strangers_are_refused_before_any_token_check() -> None:
    client = Client(enforce_csrf_checks=True, headers=JSON)
    response = client.post(CRUD, {}, content_type="application/json")
    assert response.status_code == 401


def test_async_methods_need_the_token_even_on_get(client: Client) -> None:
    url = f"/admin/method/index-page/{URI}?method=nothing"
    response = client.get(url)
    assert response.status_code == 403
    assert response.json() == MISMATCH
    token = page_token(client)
    assert client.get(url, headers={"X-CSRF-Token": token}).status_code != 403


def test_the_token_changes_at_login() -> None:
    client = browser()
    before = page_token(client, "/admin/login")
    token = json_login(client, EMAIL, PASSWORD).json()["csrf_token"]
    response = client.delete(
        CRUD,
        {"ids": [ABSENT]},
        content_type="application/json",
        headers={**JSON, "X-CSRF-Token": before},
    )
    assert response.status_code == 403
    response = client.delete(
        CRUD,
        {"ids": [ABSENT]},
        content_type="application/json",
        headers={**JSON, "X-CSRF-Token": token},
    )
    assert response.status_code == 200, response.content
