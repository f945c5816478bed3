"""A resource's scope hides records from every route, as if they did not exist.

The panel serves ``tests.customising.ScopedGadgets`` (inactive gadgets are out of
reach) and the parts, whose gadget pickers, labels and relation checks use the
gadgets' scope.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from tests.customising import SCOPED, Part, ScopedGadgets, serve
from tests.gadget_parts import CRUD, EXPORT, IMPORT, URI
from tests.gadgets import EMAIL, Gadget, json_client
from tests.sessions import HTML

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("scoped")]

PARTS = "/admin/resource/part-resource"


@pytest.fixture
def scoped(monkeypatch: pytest.MonkeyPatch, part_db_table: None) -> Iterator[None]:
    """The panel serving the scoped gadgets and their parts."""
    yield from serve(monkeypatch, ScopedGadgets)


@pytest.fixture
def client() -> Client:
    """A logged-in JSON client."""
    return json_client()


@pytest.fixture
def keys() -> dict[str, int]:
    """Two gadgets: Hammer (active, reachable) and Yo-yo (inactive, out of scope)."""
    hammer = Gadget.objects.create(name="Hammer", active=True)
    yoyo = Gadget.objects.create(name="Yo-yo", active=False)
    return {"hammer": hammer.pk, "yoyo": yoyo.pk}


def _names(client: Client) -> list[str]:
    return [record["name"] for record in client.get(CRUD).json()["data"]]


def test_the_list_and_its_total_keep_to_the_scope(
    client: Client, keys: dict[str, int]
) -> None:
    body = client.get(CRUD, {"total": "exact"}).json()
    assert [record["name"] for record in body["data"]] == ["Hammer"]
    assert body["total"] == 1
    assert set(SCOPED) == {EMAIL}  # asked for the logged-in user


def test_a_record_out_of_scope_is_not_found(
    client: Client, keys: dict[str, int]
) -> None:
    item = f"{CRUD}/{keys['yoyo']}"
    missing = {"message": f"Gadget {keys['yoyo']} not found"}
    for response in (
        client.get(item),
        client.put(item, {"name": "Renamed"}, "application/json"),
        client.delete(item),
    ):
        assert (response.status_code, response.json()) == (404, missing)
    assert client.get(f"{CRUD}/{keys['hammer']}").status_code == 200
    assert Gadget.objects.get(pk=keys["yoyo"]).name == "Yo-yo"


def test_mass_delete_skips_records_out_of_scope(
    client: Client, keys: dict[str, int]
) -> None:
    response = client.delete(CRUD, {"ids": list(keys.values())}, "application/json")
    assert response.json()["deleted"] == 1
    assert list(Gadget.objects.values_list("name", flat=True)) == ["Yo-yo"]


def test_export_and_import_keep_to_the_scope(
    client: Client, keys: dict[str, int]
) -> None:
    exported = b"".join(client.get(EXPORT).streaming_content).decode()
    assert "Hammer" in exported and "Yo-yo" not in exported
    # A key out of scope is unknown: its row would create a record with that key,
    # which the database refuses; with keys=assign it creates one with a new key.
    csv = f"id,name\n{keys['yoyo']},Renamed\n".encode()
    refused = client.post(IMPORT, csv, content_type="text/csv")
    assert refused.status_code == 422
    imported = client.post(f"{IMPORT}?keys=assign", csv, content_type="text/csv")
    assert imported.json()["created"] == 1
    assert Gadget.objects.get(pk=keys["yoyo"]).name == "Yo-yo"


def test_pages_keep_to_the_scope(client: Client, keys: dict[str, int]) -> None:
    page = f"/admin/resource/{URI}"
    listed = client.get(f"{page}/index-page", headers=HTML).content.decode()
    assert "Hammer" in listed and "Yo-yo" not in listed
    table = client.get(f"{page}/index-page?_fragment-load=table", headers=HTML)
    assert "Yo-yo" not in table.content.decode()
    for name in ("detail-page", "form-page"):
        response = client.get(f"{page}/{name}/{keys['yoyo']}", headers=HTML)
        assert response.status_code == 404


def test_pickers_and_labels_keep_to_the_target_scope(
    client: Client, keys: dict[str, int]
) -> None:
    form = client.get(f"{PARTS}/form-page", headers=HTML).content.decode()
    assert f'value="{keys["hammer"]}"' in form
    assert f'value="{keys["yoyo"]}"' not in form
    Part.objects.create(name="Spring", gadget_id=keys["yoyo"])
    listed = client.get(f"{PARTS}/index-page", headers=HTML).content.decode()
    assert "Spring" in listed and "Yo-yo" not in listed
    assert f"#{keys['yoyo']}" in listed


def test_relations_may_only_point_within_the_target_scope(
    client: Client, keys: dict[str, Any]
) -> None:
    url = f"{PARTS}/crud"
    refused = client.post(
        url, {"name": "Spring", "gadget": keys["yoyo"]}, "application/json"
    )
    assert refused.status_code == 422
    assert refused.json()["errors"] == {"gadget": ["The selected Gadget is invalid."]}
    made = client.post(
        url, {"name": "Head", "gadget": keys["hammer"]}, "application/json"
    )
    assert made.status_code == 201, made.content
