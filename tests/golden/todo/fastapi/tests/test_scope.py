"""A resource's scope hides records from every route, as if they did not exist.

The app serves ``tests.customising.ScopedGadgets`` (inactive gadgets are out of reach;
its ``scope`` is ``async``) and the parts, whose gadget pickers, labels and relation
checks use the gadgets' scope.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.customising import SCOPED, Part, ScopedGadgets, serve
from tests.gadget_parts import CRUD, EXPORT, IMPORT, URI
from tests.gadgets import Gadget
from tests.helpers import EMAIL

HTML = {"Accept": "text/html"}
PAGE = f"/admin/resource/{URI}"
PARTS = "/admin/resource/part-resource"


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The scoped gadgets and their parts."""
    yield from serve(app, ScopedGadgets)


@pytest.fixture
def keys(app: FastAPI) -> dict[str, int]:
    """Two gadgets: Hammer (active, reachable) and Yo-yo (inactive, out of scope)."""
    found = {}
    with app.state.engine.begin() as connection:
        for name, active in (("Hammer", True), ("Yo-yo", False)):
            insert = sa.insert(Gadget).values(name=name, active=active)
            key = connection.execute(insert.returning(Gadget.id)).scalar_one()
            found[name.lower().replace("-", "")] = key
    return found


def _names(app: FastAPI) -> list[str]:
    with app.state.engine.connect() as connection:
        names = connection.execute(sa.select(Gadget.name).order_by(Gadget.id))
        return list(names.scalars())


def test_the_list_and_its_total_keep_to_the_scope(
    client: TestClient, keys: dict[str, int]
) -> None:
    body = client.get(CRUD, params={"total": "exact"}).json()
    assert [record["name"] for record in body["data"]] == ["Hammer"]
    assert body["total"] == 1
    assert set(SCOPED) == {EMAIL}  # asked for the logged-in user


def test_a_record_out_of_scope_is_not_found(
    app: FastAPI, client: TestClient, keys: dict[str, int]
) -> None:
    item = f"{CRUD}/{keys['yoyo']}"
    missing = {"message": f"Gadget {keys['yoyo']} not found"}
    for response in (
        client.get(item),
        client.put(item, json={"name": "Renamed"}),
        client.patch(item, json={}),
        client.delete(item),
    ):
        assert (response.status_code, response.json()) == (404, missing)
    assert client.get(f"{CRUD}/{keys['hammer']}").status_code == 200
    assert _names(app) == ["Hammer", "Yo-yo"]


def test_mass_delete_skips_records_out_of_scope(
    app: FastAPI, client: TestClient, keys: dict[str, int]
) -> None:
    response = client.request("DELETE", CRUD, json={"ids": list(keys.values())})
    assert response.json()["deleted"] == 1
    assert _names(app) == ["Yo-yo"]


def test_export_and_import_keep_to_the_scope(
    app: FastAPI, client: TestClient, keys: dict[str, int]
) -> None:
    exported = client.get(EXPORT).text
    assert "Hammer" in exported and "Yo-yo" not in exported
    # A key out of scope is unknown: its row would create a record with that key,
    # which the database refuses; with keys=assign it creates one with a new key.
    csv = f"id,name\n{keys['yoyo']},Renamed\n"
    headers = {"Content-Type": "text/csv"}
    refused = client.post(IMPORT, content=csv, headers=headers)
    assert refused.status_code == 422
    assert _names(app) == ["Hammer", "Yo-yo"]
    url = f"{IMPORT}?keys=assign"
    imported = client.post(url, content=csv, headers=headers)
    assert imported.json()["created"] == 1
    assert _names(app) == ["Hammer", "Yo-yo", "Renamed"]


# Pages are for people, who log in with sessions: tested so in JWT projects too.
@pytest.mark.panel_auth("session")
def test_pages_keep_to_the_scope(client: TestClient, keys: dict[str, int]) -> None:
    listed = client.get(f"{PAGE}/index-page", headers=HTML).text
    assert "Hammer" in listed and "Yo-yo" not in listed
    table = client.get(f"{PAGE}/index-page?_fragment-load=table", headers=HTML)
    assert "Hammer" in table.text and "Yo-yo" not in table.text
    for name in ("detail-page", "form-page"):
        response = client.get(f"{PAGE}/{name}/{keys['yoyo']}", headers=HTML)
        assert response.status_code == 404, name


@pytest.mark.panel_auth("session")
def test_pickers_and_labels_keep_to_the_target_scope(
    app: FastAPI, client: TestClient, keys: dict[str, int]
) -> None:
    form = client.get(f"{PARTS}/form-page", headers=HTML).text
    assert f'value="{keys["hammer"]}"' in form
    assert f'value="{keys["yoyo"]}"' not in form
    with app.state.engine.begin() as connection:
        connection.execute(sa.insert(Part).values(name="Spring", gadget=keys["yoyo"]))
    listed = client.get(f"{PARTS}/index-page", headers=HTML).text
    assert "Spring" in listed and "Yo-yo" not in listed
    assert f"#{keys['yoyo']}" in listed  # its key, not its label


def test_relations_may_only_point_within_the_target_scope(
    client: TestClient, keys: dict[str, int]
) -> None:
    url = f"{PARTS}/crud"
    refused = client.post(url, json={"name": "Spring", "gadget": keys["yoyo"]})
    assert refused.status_code == 422
    assert refused.json()["errors"] == {"gadget": ["The selected Gadget is invalid."]}
    made = client.post(url, json={"name": "Head", "gadget": keys["hammer"]})
    assert made.status_code == 201, made.text
