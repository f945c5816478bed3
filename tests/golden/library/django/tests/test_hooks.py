"""Lifecycle hooks over HTTP: their order, their transaction, and what refusals answer.

The panel serves ``tests.customising.HookedGadgets``: every hook records what it saw
in ``CALLS``; the names "Forbidden", "Invalid" and "Whole" make the ``before_*`` hooks
refuse, "Explode" makes the ``after_*`` ones fail after the write.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from tests.customising import CALLS, HookedGadgets, serve
from tests.gadget_parts import CRUD, IMPORT, URI
from tests.gadgets import EMAIL, Gadget, json_client
from tests.sessions import page_token, post_form, signed_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("hooked")]

FORM_PAGE = f"/admin/resource/{URI}/form-page"


@pytest.fixture
def hooked(monkeypatch: pytest.MonkeyPatch, part_db_table: None) -> Iterator[None]:
    """The panel serving the hooked gadgets."""
    yield from serve(monkeypatch, HookedGadgets)


@pytest.fixture
def client() -> Client:
    """A logged-in JSON client; a failing request answers 500 instead of raising."""
    client = json_client()
    client.raise_request_exception = False
    return client


def _gadget(name: str, stock: int = 0) -> int:
    key: int = Gadget.objects.create(name=name, stock=stock).pk
    return key


def _create(client: Client, body: dict[str, Any]) -> Any:
    return client.post(CRUD, body, content_type="application/json")


def test_creating_runs_before_then_after_within_the_write(client: Client) -> None:
    response = _create(client, {"name": "Hammer", "stock": 3})
    assert response.status_code == 201, response.content
    record = response.json()["data"]
    assert record["notes"] == f"Added by {EMAIL}."  # before_creating's data
    (before, given), after = CALLS
    assert (before, given["name"], given["stock"]) == ("before_creating", "Hammer", 3)
    assert after == ("after_created", record, True)  # inserted, same transaction


def test_updating_sees_the_record_then_its_new_state(client: Client) -> None:
    key = _gadget("Hammer", stock=3)
    response = client.put(f"{CRUD}/{key}", {"name": "Mallet"}, "application/json")
    assert response.status_code == 200, response.content
    record = response.json()["data"]
    assert record["notes"] == f"Changed by {EMAIL}."
    assert [
        ("before_updating", "Hammer", {"name": "Mallet"}),
        ("after_updated", record, True),  # written, same transaction
    ] == CALLS


def test_deleting_runs_before_and_an_async_after(client: Client) -> None:
    key = _gadget("Yo-yo")
    assert client.delete(f"{CRUD}/{key}").status_code == 200
    assert CALLS == [("before_deleting", "Yo-yo"), ("after_deleted", "Yo-yo")]
    assert not Gadget.objects.filter(pk=key).exists()


def test_mass_deleting_runs_with_the_keys_and_the_deleted_ones(client: Client) -> None:
    keys = [_gadget("Yo-yo"), _gadget("Hammer", stock=2), _gadget("Kite")]
    response = client.delete(CRUD, {"ids": [*keys, 999]}, "application/json")
    assert response.json()["deleted"] == 2
    assert [
        ("before_mass_deleting", sorted([*keys, 999])),
        ("after_mass_deleted", [keys[0], keys[2]]),  # not the one in stock
    ] == CALLS
    assert list(Gadget.objects.values_list("name", flat=True)) == ["Hammer"]


@pytest.mark.parametrize(
    ("name", "status", "body"),
    [
        (
            "Forbidden",
            403,
            {"message": "Nobody may have a gadget named Forbidden."},
        ),
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
    ],
)
def test_a_refusing_hook_answers_and_writes_nothing(
    client: Client, name: str, status: int, body: dict[str, Any]
) -> None:
    created = _create(client, {"name": name})
    assert (created.status_code, created.json()) == (status, body)
    key = _gadget("Hammer")
    updated = client.put(f"{CRUD}/{key}", {"name": name}, "application/json")
    assert (updated.status_code, updated.json()) == (status, body)
    assert list(Gadget.objects.values_list("name", flat=True)) == ["Hammer"]


def test_a_refused_delete_is_403_and_keeps_the_record(client: Client) -> None:
    key = _gadget("Hammer", stock=3)
    response = client.delete(f"{CRUD}/{key}")
    assert response.status_code == 403
    assert response.json() == {"message": "Gadgets in stock cannot be deleted."}
    assert Gadget.objects.filter(pk=key).exists()


def test_a_failing_hook_is_500_logged_and_undoes_the_write(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    created = _create(client, {"name": "Explode"})
    assert (created.status_code, created.json()) == (500, {"message": "Server Error"})
    assert "RuntimeError: after_created failed" in caplog.text  # the traceback
    assert not Gadget.objects.exists()
    key = _gadget("Hammer")
    updated = client.put(f"{CRUD}/{key}", {"name": "Explode"}, "application/json")
    assert updated.status_code == 500
    assert Gadget.objects.get(pk=key).name == "Hammer"
    doomed = _gadget("Explode")
    assert client.delete(f"{CRUD}/{doomed}").status_code == 500  # async after_deleted
    assert Gadget.objects.filter(pk=doomed).exists()


def test_imports_go_through_the_hooks(client: Client) -> None:
    key = _gadget("Hammer")
    csv = f"id,name\n,Kite\n{key},Mallet\n".encode()
    response = client.post(IMPORT, csv, content_type="text/csv")
    assert response.status_code == 200, response.content
    notes = dict(Gadget.objects.values_list("name", "notes"))
    assert notes == {"Kite": f"Added by {EMAIL}.", "Mallet": f"Changed by {EMAIL}."}
    assert [call[0] for call in CALLS] == [
        "before_creating",
        "after_created",
        "before_updating",
        "after_updated",
    ]
    refused = client.post(IMPORT, b"name\nBolt\nInvalid\n", content_type="text/csv")
    assert refused.status_code == 422
    assert refused.json()["errors"] == {"row 3": ["Choose another name."]}
    assert not Gadget.objects.filter(name="Bolt").exists()


@pytest.fixture
def person(settings: Any) -> Client:
    return signed_in(settings)


def test_form_pages_show_hook_errors_beside_their_fields(person: Client) -> None:
    token = page_token(person, FORM_PAGE)
    named = post_form(person, CRUD, {"_token": token, "name": "Invalid"})
    # Post/redirect/get: a 303 back to the form page, which shows the form.
    assert named.status_code == 303 and named["Location"] == FORM_PAGE
    text = person.get(FORM_PAGE).content.decode()
    assert '<p class="error">Choose another name.</p>' in text
    assert 'value="Invalid"' in text  # the values are kept
    whole = post_form(person, CRUD, {"_token": token, "name": "Whole"})
    assert whole.status_code == 303
    assert (
        "<li>This gadget cannot be saved.</li>"
        in person.get(FORM_PAGE).content.decode()
    )
    refused = post_form(person, CRUD, {"_token": token, "name": "Forbidden"})
    assert refused.status_code == 403
    assert "Nobody may have a gadget named Forbidden." in refused.content.decode()
    assert not Gadget.objects.exists()
