"""The JSON API of the Author resource."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import assert_record, create, csv_without, form_body, post_create

URI = "author-resource"
URL = "/admin/resource/author-resource/crud"
HANDLER = "/admin/resource/author-resource/handler"
FORM_PAGE = "/admin/resource/author-resource/form-page"
LABEL = "Author"
KEY = "id"
MISSING_KEY = "999999999"
HIDDEN = ()
REQUIRED = ["name"]
REQUIRED_MESSAGE = "The Name field is required."
WRONG_TYPE_FIELD = "name"
WRONG_TYPE_VALUE = 12345
NOT_NULL_FIELD = "name"
PATCH_FIELD = "name"
PATCH_VALUE = "Name 2"
FILTER_FIELD = "name"
FILTER_TEXT = "Name 1"
FILTER_VALUE = "Name 1"
FILTER_OTHER = "Name 2"
SEARCH_FIELD = "name"
SEARCH_TEXT = "NAME 1"
SEARCH_OTHER = "Name 2"


@pytest.fixture
def payload() -> dict[str, Any]:
    """A valid create body."""
    return {
        "name": "Name 1",
        "email": "user1@example.com",
        "website": "https://example.com/item/1",
        "born_on": "2024-01-02",
    }


def test_create_answers_201_with_the_record(
    client: TestClient, payload: dict[str, Any]
) -> None:
    response = post_create(client, URI, payload)
    assert response.status_code == 201, response.text
    body = response.json()
    key = body["data"][KEY]
    assert body["message"] == "Saved"
    assert body["messageType"] == "success"
    assert body["redirect"] == f"{FORM_PAGE}/{key}"
    assert response.headers["location"] == f"http://testserver{URL}/{key}"
    assert_record(body["data"], payload, HIDDEN)


def test_create_accepts_a_form(client: TestClient, payload: dict[str, Any]) -> None:
    response = client.post(URL, data=form_body(payload))
    assert response.status_code == 201, response.text
    assert_record(response.json()["data"], payload, HIDDEN)


def test_show(client: TestClient, payload: dict[str, Any]) -> None:
    record = create(client, URI, payload)
    response = client.get(f"{URL}/{record[KEY]}")
    assert response.status_code == 200
    assert response.json() == record


def test_show_of_a_missing_record_is_404(client: TestClient) -> None:
    response = client.get(f"{URL}/{MISSING_KEY}")
    assert response.status_code == 404
    assert response.json() == {"message": f"{LABEL} {MISSING_KEY} not found"}


def test_list_pages(client: TestClient, payload: dict[str, Any]) -> None:
    keys = sorted(create(client, URI, payload)[KEY] for _ in range(3))
    response = client.get(URL, params={"sort": KEY, "per_page": 2, "page": 2})
    assert response.status_code == 200
    body = response.json()
    assert [record[KEY] for record in body["data"]] == keys[2:]
    assert body["total"] == 3
    assert (body["current_page"], body["last_page"], body["per_page"]) == (2, 2, 2)
    assert (body["from"], body["to"]) == (3, 3)
    # Links are absolute, on the server the test client names.
    previous = f"http://testserver{URL}?sort={KEY}&per_page=2&page=1"
    assert body["prev_page_url"] == previous
    assert body["next_page_url"] is None
    labels = [link["label"] for link in body["links"]]
    assert labels == ["&laquo; Previous", "1", "2", "Next &raquo;"]


def test_list_past_the_last_page_is_empty(
    client: TestClient, payload: dict[str, Any]
) -> None:
    create(client, URI, payload)
    body = client.get(URL, params={"page": 9}).json()
    assert body["data"] == []
    assert (body["current_page"], body["last_page"], body["total"]) == (9, 1, 1)
    assert (body["from"], body["to"]) == (None, None)


def test_list_sorts_both_ways(client: TestClient, payload: dict[str, Any]) -> None:
    keys = sorted(create(client, URI, payload)[KEY] for _ in range(2))
    ascending = client.get(URL, params={"sort": KEY}).json()["data"]
    descending = client.get(URL, params={"sort": f"-{KEY}"}).json()["data"]
    assert [record[KEY] for record in ascending] == keys
    assert [record[KEY] for record in descending] == keys[::-1]


def test_list_filters(client: TestClient, payload: dict[str, Any]) -> None:
    create(client, URI, payload)
    create(client, URI, {**payload, FILTER_FIELD: FILTER_OTHER})
    response = client.get(URL, params={f"filter[{FILTER_FIELD}]": FILTER_TEXT})
    assert response.status_code == 200
    found = [record[FILTER_FIELD] for record in response.json()["data"]]
    assert found == [FILTER_VALUE]


def test_list_searches_ignoring_case(
    client: TestClient, payload: dict[str, Any]
) -> None:
    create(client, URI, payload)
    create(client, URI, {**payload, SEARCH_FIELD: SEARCH_OTHER})
    assert client.get(URL, params={"search": SEARCH_TEXT}).json()["total"] == 1
    assert client.get(URL, params={"search": "%"}).json()["total"] == 0


def test_list_rejects_unknown_parameters(client: TestClient) -> None:
    params = {"sort": "nope", "filter[nope]": "1", "page": "0", "per_page": "101"}
    response = client.get(URL, params=params)
    assert response.status_code == 422
    assert set(response.json()["errors"]) == set(params)


def test_patch_changes_only_what_it_names(
    client: TestClient, payload: dict[str, Any]
) -> None:
    record = create(client, URI, payload)
    response = client.patch(f"{URL}/{record[KEY]}", json={PATCH_FIELD: PATCH_VALUE})
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {**record, PATCH_FIELD: PATCH_VALUE}
    assert client.get(f"{URL}/{record[KEY]}").json() == response.json()["data"]


def test_put_to_a_missing_record_is_404(client: TestClient) -> None:
    response = client.put(f"{URL}/{MISSING_KEY}", json={})
    assert response.status_code == 404


def test_create_without_required_fields_is_422(client: TestClient) -> None:
    response = client.post(URL, json={})
    assert response.status_code == 422
    body = response.json()
    assert list(body["errors"]) == REQUIRED
    assert body["message"] == REQUIRED_MESSAGE


def test_unknown_and_read_only_fields_are_422(
    client: TestClient, payload: dict[str, Any]
) -> None:
    response = client.post(URL, json={**payload, "no_such_field": 1, KEY: 1})
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"no_such_field", KEY}


def test_a_value_of_the_wrong_type_is_422(
    client: TestClient, payload: dict[str, Any]
) -> None:
    response = client.post(URL, json={**payload, WRONG_TYPE_FIELD: WRONG_TYPE_VALUE})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == [WRONG_TYPE_FIELD]


def test_null_is_422_where_the_field_takes_none(
    client: TestClient, payload: dict[str, Any]
) -> None:
    response = client.post(URL, json={**payload, NOT_NULL_FIELD: None})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == [NOT_NULL_FIELD]


def test_malformed_json_is_422(client: TestClient) -> None:
    headers = {"Content-Type": "application/json"}
    response = client.post(URL, content=b'{"broken', headers=headers)
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["body"]


def test_delete(client: TestClient, payload: dict[str, Any]) -> None:
    record = create(client, URI, payload)
    response = client.delete(f"{URL}/{record[KEY]}")
    assert response.status_code == 200
    assert response.json() == {"message": "Deleted", "messageType": "success"}
    assert client.get(f"{URL}/{record[KEY]}").status_code == 404
    assert client.delete(f"{URL}/{record[KEY]}").status_code == 404


def test_mass_delete_with_query_ids(
    client: TestClient, payload: dict[str, Any]
) -> None:
    keys = [create(client, URI, payload)[KEY] for _ in range(3)]
    ids = [("ids[]", str(key)) for key in [*keys[:2], MISSING_KEY]]
    response = client.request("DELETE", URL, params=ids)
    assert response.status_code == 200
    assert response.json() == {
        "message": "Deleted",
        "messageType": "success",
        "deleted": 2,
    }
    remaining = client.get(URL).json()["data"]
    assert [record[KEY] for record in remaining] == keys[2:]


def test_mass_delete_with_a_json_body(
    client: TestClient, payload: dict[str, Any]
) -> None:
    key = create(client, URI, payload)[KEY]
    response = client.request("DELETE", URL, json={"ids": [key]})
    assert response.status_code == 200
    assert response.json()["deleted"] == 1


def test_a_csv_export_imports_back_unchanged(
    client: TestClient, payload: dict[str, Any]
) -> None:
    keys = [create(client, URI, payload)[KEY] for _ in range(2)]
    exported = client.get(f"{HANDLER}/export", params={"sort": KEY}).text
    assert client.request("DELETE", URL, json={"ids": keys}).status_code == 200
    headers = {"Content-Type": "text/csv"}
    response = client.post(f"{HANDLER}/import", content=exported, headers=headers)
    assert response.status_code == 200, response.text
    assert response.json()["created"] == 2
    again = client.get(f"{HANDLER}/export", params={"sort": KEY}).text
    assert csv_without(again, KEY) == csv_without(exported, KEY)


def test_mass_delete_without_ids_is_422(client: TestClient) -> None:
    response = client.request("DELETE", URL)
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["ids"]
