"""The CSV export and import handlers, on the tests' own resource."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.cases import MALFORMED_CSV
from tests.gadget_parts import CRUD, EXPORT, HEADER, IMPORT, SAMPLE_GADGETS
from tests.gadgets import gadget_app
from tests.helpers import create, csv_without


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource alone, with a small import limit."""
    yield from gadget_app(app, max_import_size=4096)


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def _export(client: TestClient, **params: str) -> str:
    response = client.get(EXPORT, params=params)
    assert response.status_code == 200, response.text
    return response.text


def _import(client: TestClient, text: str) -> Any:
    files = {"file": ("gadgets.csv", text.encode(), "text/csv")}
    return client.post(IMPORT, files=files)


def _empty(client: TestClient) -> None:
    ids = [record["id"] for record in client.get(CRUD).json()["data"]]
    if ids:
        assert client.request("DELETE", CRUD, json={"ids": ids}).status_code == 200


def test_export_writes_every_readable_field_as_import_reads_it(
    client: TestClient,
) -> None:
    record = create(client, "gadget-resource", SAMPLE_GADGETS[0])
    response = client.get(EXPORT)
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == (
        'attachment; filename="gadget-resource.csv"'
    )
    assert _rows(response.text) == [
        HEADER.split(","),
        [str(record["id"]), "Hammer", "9.5", "3", "true", "tool", "2024-02-29"]
        + ['Heavy, "steel"\nhead'],
    ]


def test_export_follows_search_filters_tags_and_sort(client: TestClient) -> None:
    keys = [
        create(client, "gadget-resource", payload)["id"] for payload in SAMPLE_GADGETS
    ]
    exported = [int(row[0]) for row in _rows(_export(client, sort="-id"))[1:]]
    assert exported == keys[::-1]
    assert [row[1] for row in _rows(_export(client, search="YO"))[1:]] == ["Yo-yo"]
    assert len(_rows(_export(client, **{"filter[kind]": "tool"}))) == 2
    assert len(_rows(_export(client, **{"query-tag": "active"}))) == 5
    assert client.get(EXPORT, params={"sort": "nope"}).status_code == 422


def test_formula_cells_are_neutralised(client: TestClient) -> None:
    for payload in SAMPLE_GADGETS[2:]:
        create(client, "gadget-resource", payload)
    cells = {row[1]: row[7] for row in _rows(_export(client))[1:]}
    assert cells == {
        "'=1+2": "'@SUM(A1)",
        "'-3": "''quoted",
        "'+x": "Tabbed",  # trimmed on input (TRIM_STRINGS): nothing left to quote
    }


def test_an_export_imports_back_unchanged(client: TestClient) -> None:
    for payload in SAMPLE_GADGETS:
        create(client, "gadget-resource", payload)
    exported = _export(client, sort="id")
    _empty(client)
    response = _import(client, exported)
    assert response.status_code == 200, response.text
    assert response.json() == {
        "message": "Imported 5 records: 5 created, 0 updated.",
        "messageType": "success",
        "created": 5,
        "updated": 0,
    }
    # The database allocates new keys: compare everything else.
    assert csv_without(_export(client, sort="id"), "id") == csv_without(exported, "id")


def test_rows_with_an_existing_key_update_that_record(client: TestClient) -> None:
    record = create(client, "gadget-resource", {"name": "Old", "stock": 1})
    text = f"id,name,stock\n{record['id']},New,\n,Other,4\n"
    response = client.post(IMPORT, content=text, headers={"Content-Type": "text/csv"})
    assert response.status_code == 200, response.text
    assert (response.json()["created"], response.json()["updated"]) == (1, 1)
    updated = client.get(f"{CRUD}/{record['id']}").json()
    assert (updated["name"], updated["stock"]) == ("New", None)


def test_a_file_with_a_bad_row_writes_nothing(client: TestClient) -> None:
    create(client, "gadget-resource", {"name": "Kept"})
    text = "name,stock,kind\nFine,1,tool\nLess,-1,toy\nMore,x,toy\nLast,3,car\n"
    response = _import(client, text)
    assert response.status_code == 422
    body = response.json()
    assert body["messageType"] == "error"
    assert body["message"].startswith("Nothing was imported: Row 3: ")
    assert set(body["errors"]) == {"row 3", "row 4", "row 5"}
    assert body["errors"]["row 4"] == ["The Stock field must be an integer."]
    assert [r["name"] for r in client.get(CRUD).json()["data"]] == ["Kept"]


@pytest.mark.parametrize(
    ("text", "errors"),
    MALFORMED_CSV,
)
def test_malformed_files_are_422(
    client: TestClient, text: str, errors: dict[str, list[str]]
) -> None:
    response = _import(client, text)
    assert response.status_code == 422
    assert response.json()["errors"] == errors


def test_uploads_are_checked(client: TestClient) -> None:
    assert (
        client.post(
            IMPORT, content=b"x" * 5000, headers={"Content-Type": "text/csv"}
        ).status_code
        == 413
    )
    assert client.post(IMPORT, json={"name": "x"}).status_code == 415
    latin = _import_bytes(client, "name\nCafé\n".encode("latin-1"))
    assert latin.json()["errors"] == {"file": ["The file must be UTF-8 text."]}
    missing = client.post(IMPORT, files={"other": ("a.csv", b"name\n", "text/csv")})
    assert missing.json()["errors"] == {"file": ["The file field is required."]}


def _import_bytes(client: TestClient, data: bytes) -> Any:
    return client.post(IMPORT, files={"file": ("a.csv", data, "text/csv")})


def test_a_byte_order_mark_is_ignored(client: TestClient) -> None:
    response = _import_bytes(client, "\ufeffname\nBOM\n".encode())
    assert response.status_code == 200, response.text


def test_a_page_upload_goes_back_to_the_list(client: TestClient) -> None:
    files = {"file": ("gadgets.csv", b"name\nA\n", "text/csv")}
    response = client.post(
        IMPORT, files=files, headers={"Accept": "text/html"}, follow_redirects=False
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/admin/resource/gadget-resource/index-page"


def test_a_preview_writes_nothing(client: TestClient) -> None:
    text = b"name,price\nPreviewed,1\n,2\n"
    csv_type = {"Content-Type": "text/csv"}
    response = client.post(IMPORT + "?dry_run=1", content=text, headers=csv_type)
    assert response.status_code == 422, response.text
    assert (response.json()["create"], list(response.json()["errors"])) == (
        2,
        ["row 3"],
    )
    good = b"name,price\nPreviewed,1\n"
    response = client.post(IMPORT + "?dry_run=1", content=good, headers=csv_type)
    assert (response.status_code, response.json()["errors"]) == (200, {})
    assert client.get(CRUD, params={"search": "Previewed"}).json()["data"] == []


def test_unknown_handlers_and_wrong_methods(client: TestClient) -> None:
    assert client.get("/admin/resource/gadget-resource/handler/nope").status_code == 404
    assert client.get("/admin/resource/no-such/handler/export").status_code == 404
    response = client.post(EXPORT)
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD, OPTIONS"
    query = client.get(
        "/admin/resource/gadget-resource/handler", params={"handlerUri": "export"}
    )
    assert query.status_code == 200
    assert query.text.startswith(HEADER)
