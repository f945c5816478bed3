"""The CSV export and import handlers, on the tests' own resource."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse
from django.test import Client

from panel.registry import registry
from tests.cases import MALFORMED_CSV
from tests.gadget_parts import CRUD, EXPORT, HEADER, IMPORT, SAMPLE_GADGETS
from tests.gadgets import json_client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gadgets")]


@pytest.fixture(autouse=True)
def _small_imports(settings: Any) -> None:
    """The tests' resource alone (``gadgets``), with a small import limit."""
    settings.PANEL_MAX_IMPORT_SIZE = 4096


@pytest.fixture
def client() -> Client:
    """A logged-in JSON client."""
    return json_client()


def _text(response: HttpResponse) -> str:
    if response.streaming:
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline="")))


def _without(text: str, column: str) -> list[list[str]]:
    """The rows of a CSV export, header included, without ``column``."""
    rows = _rows(text)
    position = rows[0].index(column)
    return [row[:position] + row[position + 1 :] for row in rows]


def _create(client: Client, payload: dict[str, Any]) -> dict[str, Any]:
    response = client.post(CRUD, payload, content_type="application/json")
    assert response.status_code == 201, response.content
    record: dict[str, Any] = response.json()["data"]
    return record


def _export(client: Client, **params: str) -> str:
    response = client.get(EXPORT, params)
    assert response.status_code == 200, _text(response)
    return _text(response)


def _upload(client: Client, data: bytes, field: str = "file", **extra: Any) -> Any:
    upload = SimpleUploadedFile("gadgets.csv", data, content_type="text/csv")
    return client.post(IMPORT, {field: upload}, **extra)


def _post_csv(client: Client, data: bytes) -> Any:
    return client.post(IMPORT, data, content_type="text/csv")


def _empty(client: Client) -> None:
    ids = [record["id"] for record in client.get(CRUD).json()["data"]]
    if ids:
        response = client.delete(CRUD, {"ids": ids}, content_type="application/json")
        assert response.status_code == 200


def test_export_writes_every_readable_field_as_import_reads_it(
    client: Client,
) -> None:
    record = _create(client, SAMPLE_GADGETS[0])
    response = client.get(EXPORT)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="gadget-resource.csv"'
    )
    assert _rows(_text(response)) == [
        HEADER.split(","),
        [str(record["id"]), "Hammer", "9.5", "3", "true", "tool", "2024-02-29"]
        + ['Heavy, "steel"\nhead'],
    ]


def test_export_follows_search_filters_tags_and_sort(client: Client) -> None:
    keys = [_create(client, payload)["id"] for payload in SAMPLE_GADGETS]
    exported = [int(row[0]) for row in _rows(_export(client, sort="-id"))[1:]]
    assert exported == keys[::-1]
    assert [row[1] for row in _rows(_export(client, search="YO"))[1:]] == ["Yo-yo"]
    assert len(_rows(_export(client, **{"filter[kind]": "tool"}))) == 2
    assert len(_rows(_export(client, **{"query-tag": "active"}))) == 5
    assert client.get(EXPORT, {"sort": "nope"}).status_code == 422


def test_export_streams_in_batches(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    for number in range(5):
        _create(client, {"name": f"G{number}"})
    store = type(registry().get("gadget-resource").store)
    batches = store.iter_batches
    monkeypatch.setattr(
        store,
        "iter_batches",
        lambda self, query, actor: batches(self, query, actor, size=2),
    )
    response = client.get(EXPORT, {"sort": "name"})
    assert response.streaming
    chunks = [chunk.decode() for chunk in response.streaming_content]
    assert len(chunks) == 4  # the header, then 2 + 2 + 1 records
    assert [row[1] for row in _rows("".join(chunks))[1:]] == [f"G{n}" for n in range(5)]


def test_formula_cells_are_neutralised(client: Client) -> None:
    for payload in SAMPLE_GADGETS[2:]:
        _create(client, payload)
    cells = {row[1]: row[7] for row in _rows(_export(client))[1:]}
    assert cells == {
        "'=1+2": "'@SUM(A1)",
        "'-3": "''quoted",
        "'+x": "Tabbed",  # trimmed on input (TRIM_STRINGS): nothing left to quote
    }


def test_an_export_imports_back_unchanged(client: Client) -> None:
    for payload in SAMPLE_GADGETS:
        _create(client, payload)
    exported = _export(client, sort="id")
    _empty(client)
    response = _upload(client, exported.encode())
    assert response.status_code == 200, response.content
    assert response.json() == {
        "message": "Imported 5 records: 5 created, 0 updated.",
        "messageType": "success",
        "created": 5,
        "updated": 0,
    }
    # The database allocates new keys: compare everything else.
    assert _without(_export(client, sort="id"), "id") == _without(exported, "id")


def test_rows_with_an_existing_key_update_that_record(client: Client) -> None:
    record = _create(client, {"name": "Old", "stock": 1})
    text = f"id,name,stock\n{record['id']},New,\n,Other,4\n"
    response = _post_csv(client, text.encode())
    assert response.status_code == 200, response.content
    assert (response.json()["created"], response.json()["updated"]) == (1, 1)
    updated = client.get(f"{CRUD}/{record['id']}").json()
    assert (updated["name"], updated["stock"]) == ("New", None)


def test_a_file_with_a_bad_row_writes_nothing(client: Client) -> None:
    _create(client, {"name": "Kept"})
    text = "name,stock,kind\nFine,1,tool\nLess,-1,toy\nMore,x,toy\nLast,3,car\n"
    response = _upload(client, text.encode())
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
    client: Client, text: str, errors: dict[str, list[str]]
) -> None:
    response = _upload(client, text.encode())
    assert response.status_code == 422
    assert response.json()["errors"] == errors


def test_uploads_are_checked(client: Client) -> None:
    too_large = _post_csv(client, b"x" * 5000)
    assert too_large.status_code == 413
    assert too_large.json() == {
        "message": "The request body must not exceed 4096 bytes."
    }
    assert _upload(client, b"x" * 5000).status_code == 413
    wrong_type = client.post(IMPORT, {"name": "x"}, content_type="application/json")
    assert wrong_type.status_code == 415
    latin = _upload(client, "name\nCafé\n".encode("latin-1"))
    assert latin.json()["errors"] == {"file": ["The file must be UTF-8 text."]}
    missing = _upload(client, b"name\n", field="other")
    assert missing.json()["errors"] == {"file": ["The file field is required."]}


def test_a_byte_order_mark_is_ignored(client: Client) -> None:
    response = _upload(client, "\ufeffname\nBOM\n".encode())
    assert response.status_code == 200, response.content


def test_a_page_upload_goes_back_to_the_list(client: Client) -> None:
    response = _upload(client, b"name\nA\n", headers={"Accept": "text/html"})
    assert response.status_code == 303
    assert response["Location"] == "/admin/resource/gadget-resource/index-page"


def test_a_preview_writes_nothing(client: Client) -> None:
    preview = IMPORT + "?dry_run=1"
    text = b"name,price\nPreviewed,1\n,2\n"
    response = client.post(preview, text, content_type="text/csv")
    assert response.status_code == 422, response.content
    assert (response.json()["create"], list(response.json()["errors"])) == (
        2,
        ["row 3"],
    )
    good = b"name,price\nPreviewed,1\n"
    response = client.post(preview, good, content_type="text/csv")
    assert (response.status_code, response.json()["errors"]) == (200, {})
    assert client.get(CRUD, {"search": "Previewed"}).json()["data"] == []


def test_unknown_handlers_and_wrong_methods(client: Client) -> None:
    assert client.get("/admin/resource/gadget-resource/handler/nope").status_code == 404
    assert client.get("/admin/resource/no-such/handler/export").status_code == 404
    response = client.post(EXPORT)
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, OPTIONS"
    query = client.get("/admin/resource/gadget-resource/handler?handlerUri=export")
    assert query.status_code == 200
    assert _text(query).startswith(HEADER)
