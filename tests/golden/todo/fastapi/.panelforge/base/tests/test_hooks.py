"""Lifecycle hooks over HTTP: their order, their transaction, and what refusals answer.

The app serves ``tests.customising.HookedGadgets``: every hook records what it saw in
``CALLS``; the names "Forbidden", "Invalid" and "Whole" make the ``before_*`` hooks
refuse, "Explode" makes the ``after_*`` ones fail after the write. Some hooks are
``async``: they run on the event loop while the write's thread waits.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core.users import User
from tests.customising import CALLS, HookedGadgets, serve
from tests.gadget_parts import CRUD, IMPORT, URI
from tests.gadgets import Gadget
from tests.helpers import EMAIL, PASSWORD, authorize, page_token

FORM_PAGE = f"/admin/resource/{URI}/form-page"
CSV = {"Content-Type": "text/csv"}
REFUSALS = [
    ("Forbidden", 403, {"message": "Nobody may have a gadget named Forbidden."}),
    (
        "Invalid",
        422,
        {
            "message": "Choose another name.",
            "errors": {"name": ["Choose another name."]},
        },
    ),
    (
        "Whole",
        422,
        {
            "message": "This gadget cannot be saved.",
            "errors": {"__all__": ["This gadget cannot be saved."]},
        },
    ),
]


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The hooked gadgets."""
    yield from serve(app, HookedGadgets)


@pytest.fixture
def lenient(app: FastAPI, user: User) -> Iterator[TestClient]:
    """A logged-in JSON client that gets 500 answers instead of the exception."""
    headers = {"Accept": "application/json"}
    with TestClient(app, headers=headers, raise_server_exceptions=False) as client:
        authorize(client, user.email, PASSWORD)
        yield client


def _gadget(app: FastAPI, name: str, stock: int = 0) -> int:
    statement = sa.insert(Gadget).values(name=name, stock=stock).returning(Gadget.id)
    with app.state.engine.begin() as connection:
        key: int = connection.execute(statement).scalar_one()
    return key


def _names(app: FastAPI) -> list[str]:
    with app.state.engine.connect() as connection:
        names = connection.execute(sa.select(Gadget.name).order_by(Gadget.id))
        return list(names.scalars())


def test_creating_runs_before_then_after(client: TestClient) -> None:
    response = client.post(CRUD, json={"name": "Hammer", "stock": 3})
    assert response.status_code == 201, response.text
    record = response.json()["data"]
    assert record["notes"] == f"Added by {EMAIL}."  # before_creating's data
    (before, given), after = CALLS
    assert (before, given["name"], given["stock"]) == ("before_creating", "Hammer", 3)
    assert after == ("after_created", record)  # with the key the insert gave


def test_updating_sees_the_record_then_its_new_state(
    app: FastAPI, client: TestClient
) -> None:
    key = _gadget(app, "Hammer", stock=3)
    response = client.put(f"{CRUD}/{key}", json={"name": "Mallet"})
    assert response.status_code == 200, response.text
    record = response.json()["data"]
    assert record["notes"] == f"Changed by {EMAIL}."  # the async hook's data
    assert [
        ("before_updating", "Hammer", {"name": "Mallet"}),
        ("after_updated", record),
    ] == CALLS


def test_deleting_runs_before_and_an_async_after(
    app: FastAPI, client: TestClient
) -> None:
    key = _gadget(app, "Yo-yo")
    assert client.delete(f"{CRUD}/{key}").status_code == 200
    assert CALLS == [("before_deleting", "Yo-yo"), ("after_deleted", "Yo-yo")]
    assert _names(app) == []


def test_mass_deleting_gets_the_keys_then_the_deleted_ones(
    app: FastAPI, client: TestClient
) -> None:
    keys = [_gadget(app, name) for name in ("Yo-yo", "Hammer", "Kite")]
    response = client.request("DELETE", CRUD, json={"ids": [*keys, 999]})
    assert response.json()["deleted"] == 2
    assert [
        ("before_mass_deleting", [*keys, 999]),
        ("after_mass_deleted", keys[1:]),  # neither the spared key nor 999
    ] == CALLS
    assert _names(app) == ["Yo-yo"]
    CALLS.clear()
    many = [_gadget(app, f"Spare {n}") for n in range(6)]
    refused = client.request("DELETE", CRUD, json={"ids": many})
    assert refused.status_code == 403
    assert refused.json() == {"message": "Delete at most five gadgets at once."}
    assert [call[0] for call in CALLS] == ["before_mass_deleting"]
    assert len(_names(app)) == 7


@pytest.mark.parametrize(("name", "status", "body"), REFUSALS)
def test_a_refusing_hook_answers_and_writes_nothing(
    app: FastAPI, client: TestClient, name: str, status: int, body: dict[str, Any]
) -> None:
    created = client.post(CRUD, json={"name": name})
    assert (created.status_code, created.json()) == (status, body)
    key = _gadget(app, "Hammer")
    updated = client.put(f"{CRUD}/{key}", json={"name": name})  # an async hook
    assert (updated.status_code, updated.json()) == (status, body)
    assert _names(app) == ["Hammer"]
    assert "after_created" not in {call[0] for call in CALLS}


def test_a_refused_delete_is_403_and_keeps_the_record(
    app: FastAPI, client: TestClient
) -> None:
    key = _gadget(app, "Hammer", stock=3)
    response = client.delete(f"{CRUD}/{key}")
    assert response.status_code == 403
    assert response.json() == {"message": "Gadgets in stock cannot be deleted."}
    assert _names(app) == ["Hammer"]


def test_a_failing_hook_is_500_and_undoes_the_write(
    app: FastAPI, lenient: TestClient
) -> None:
    created = lenient.post(CRUD, json={"name": "Explode"})
    assert (created.status_code, created.json()) == (500, {"message": "Server Error"})
    assert [call[0] for call in CALLS] == ["before_creating", "after_created"]
    assert _names(app) == []
    key = _gadget(app, "Hammer")
    updated = lenient.put(f"{CRUD}/{key}", json={"name": "Explode"})  # async after
    assert updated.status_code == 500
    assert _names(app) == ["Hammer"]
    doomed = _gadget(app, "Explode")
    assert lenient.delete(f"{CRUD}/{doomed}").status_code == 500  # async after
    assert _names(app) == ["Hammer", "Explode"]


def test_what_a_hook_raises_reaches_the_server(
    app: FastAPI, client: TestClient
) -> None:
    """The exception goes on past the 500 answer: the server logs its traceback."""
    with pytest.raises(RuntimeError, match="after_created failed"):
        client.post(CRUD, json={"name": "Explode"})
    assert _names(app) == []


def test_imports_go_through_the_hooks(app: FastAPI, client: TestClient) -> None:
    key = _gadget(app, "Hammer")
    csv = f"id,name\n,Kite\n{key},Mallet\n"
    response = client.post(IMPORT, content=csv, headers=CSV)
    assert response.status_code == 200, response.text
    with app.state.engine.connect() as connection:
        rows = connection.execute(sa.select(Gadget.name, Gadget.notes))
        notes = dict(rows.all())
    assert notes == {"Kite": f"Added by {EMAIL}.", "Mallet": f"Changed by {EMAIL}."}
    assert [call[0] for call in CALLS] == [
        "before_creating",
        "after_created",
        "before_updating",
        "after_updated",
    ]
    refused = client.post(IMPORT, content="name\nBolt\nInvalid\n", headers=CSV)
    assert refused.status_code == 422
    assert refused.json()["errors"] == {"row 3": ["Choose another name."]}
    assert "Bolt" not in _names(app)


@pytest.mark.panel_auth("session")
def test_form_pages_show_hook_errors_beside_their_fields(
    app: FastAPI, browser: TestClient
) -> None:
    token = page_token(browser, FORM_PAGE)
    named = browser.post(CRUD, data={"_token": token, "name": "Invalid"})
    # Post/redirect/get: a 303 back to the form page, which shows the form.
    assert [r.status_code for r in named.history] == [303]
    assert named.status_code == 200 and named.url.path == FORM_PAGE
    assert '<p class="error">Choose another name.</p>' in named.text
    assert 'value="Invalid"' in named.text  # the values are kept
    whole = browser.post(CRUD, data={"_token": token, "name": "Whole"})
    assert [r.status_code for r in whole.history] == [303]
    assert "<li>This gadget cannot be saved.</li>" in whole.text
    refused = browser.post(CRUD, data={"_token": token, "name": "Forbidden"})
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("text/html")
    assert "Nobody may have a gadget named Forbidden." in refused.text
    assert _names(app) == []
