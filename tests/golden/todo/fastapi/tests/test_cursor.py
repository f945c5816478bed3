"""Big-table paging of the JSON list: ``cursor=`` (keyset) and ``total=``.

On the tests' own resource: cursor pages walk every record once in the sort's order,
forwards and back, tampered or foreign cursors are refused with a 422, and
``total=none`` / ``total=estimate`` answer the page-number body without an exact count.
One file in the FastAPI and the Django project: the fixture ``seven_gadgets`` (each
project's ``tests/conftest.py``) serves the resource its framework's way.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from panel_core.pagination import PageUrls, list_body
from panel_core.query import QueryError, encode_cursor, parse_list_query
from tests.frame import STORE
from tests.gadget_parts import CRUD, ListClient
from tests.gadgets import GadgetResource

# Where the test clients' requests arrive: the JSON answers' links are absolute.
LINK = "http://testserver" + CRUD
CURSOR_KEYS = {
    "data",
    "path",
    "per_page",
    "next_cursor",
    "next_page_url",
    "prev_cursor",
    "prev_page_url",
}


@pytest.fixture
def client(seven_gadgets: ListClient) -> ListClient:
    """A logged-in JSON client of the tests' resource alone, with seven gadgets."""
    return seven_gadgets


def _get(client: ListClient, params: dict[str, Any]) -> dict[str, Any]:
    status, body = client.get(CRUD, params)
    assert status == 200, body
    assert isinstance(body, dict)
    return body


def _walk(client: ListClient, params: dict[str, Any], way: str) -> list[list[int]]:
    """Every page from the first answer on, following ``way`` (next or prev)."""
    body = _get(client, params)
    pages = [[record["id"] for record in body["data"]]]
    while body[f"{way}_page_url"]:
        assert body[f"{way}_page_url"].startswith(LINK + "?")
        assert "page=" not in body[f"{way}_page_url"].replace("per_page=", "")
        body = _get(client, {**params, "cursor": body[f"{way}_cursor"]})
        pages.append([record["id"] for record in body["data"]])
    return pages


@pytest.mark.parametrize("sort", ["-id", "id", "name", "-name,id", "active,-name"])
def test_cursor_pages_walk_every_record_once_both_ways(
    client: ListClient, sort: str
) -> None:
    everything = _get(client, {"sort": sort, "per_page": 100})["data"]
    expected = [record["id"] for record in everything]
    forward = _walk(client, {"sort": sort, "per_page": 2, "cursor": ""}, "next")
    assert [key for page in forward for key in page] == expected
    assert [len(page) for page in forward] == [2, 2, 2, 1]
    last = _get(client, {"sort": sort, "per_page": 2, "cursor": ""})
    while last["next_cursor"]:
        last = _get(
            client, {"sort": sort, "per_page": 2, "cursor": last["next_cursor"]}
        )
    backward = _walk(
        client, {"sort": sort, "per_page": 2, "cursor": last["prev_cursor"]}, "prev"
    )
    assert backward == forward[-2::-1]


def test_the_first_cursor_page_has_no_previous_and_keeps_the_parameters(
    client: ListClient,
) -> None:
    body = _get(client, {"cursor": "", "per_page": 3, "search": "a", "sort": "-id"})
    assert set(body) == CURSOR_KEYS
    assert body["prev_cursor"] is None and body["prev_page_url"] is None
    assert [record["id"] for record in body["data"]] == [7, 6, 5]
    assert body["path"] == LINK and body["per_page"] == 3
    token = body["next_cursor"]
    assert body["next_page_url"] == (
        f"{LINK}?per_page=3&search=a&sort=-id&cursor={token}"
    )
    following = _get(client, {"cursor": token, "per_page": 3, "sort": "-id"})
    assert [record["id"] for record in following["data"]] == [4, 3, 2]
    assert following["prev_cursor"] is not None


def _token(data: Any) -> str:
    text = json.dumps(data).encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


@pytest.mark.parametrize(
    "cursor",
    [
        "not a cursor",
        "e30",  # {}
        _token([1]),
        _token({"s": "-id", "d": "next", "v": ["1"]}),
        _token({"s": "-id", "d": "next", "v": [True]}),
        _token({"s": "-id", "d": "next", "v": [1, 2]}),
        _token({"s": "-id", "d": "sideways", "v": [1]}),
        _token({"s": "-id", "d": "next", "v": [2**63]}),
        _token({"s": "-id", "d": "next", "v": [1], "x": 1}),
        "A" * 5000,
    ],
)
def test_a_tampered_cursor_is_422(client: ListClient, cursor: str) -> None:
    status, body = client.get(CRUD, {"cursor": cursor})
    assert status == 422
    assert list(body["errors"]) == ["cursor"]


def test_a_cursor_of_another_sort_is_422(client: ListClient) -> None:
    token = _get(client, {"cursor": "", "per_page": 2})["next_cursor"]
    status, body = client.get(CRUD, {"cursor": token, "sort": "id"})
    assert status == 422
    assert "another sort" in body["errors"]["cursor"][0]


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"cursor": "", "page": "2"}, "page"),
        ({"cursor": "", "sort": "price"}, "sort"),
        ({"cursor": "", "total": "exact"}, "total"),
        ({"total": "some"}, "total"),
    ],
)
def test_paging_modes_that_cannot_be_combined_are_422(
    client: ListClient, params: dict[str, str], name: str
) -> None:
    status, body = client.get(CRUD, params)
    assert status == 422
    assert name in body["errors"]


def test_total_none_skips_the_count(client: ListClient) -> None:
    body = _get(client, {"total": "none", "per_page": 3, "page": 2})
    assert body["total"] is None
    assert body["last_page"] is None and body["last_page_url"] is None
    assert [record["id"] for record in body["data"]] == [4, 3, 2]
    assert (body["from"], body["to"]) == (4, 6)
    assert body["next_page_url"] == f"{LINK}?total=none&per_page=3&page=3"
    assert [link["label"] for link in body["links"]][1:-1] == ["1", "2"]
    last = _get(client, {"total": "none", "per_page": 3, "page": 3})
    assert last["next_page_url"] is None and last["links"][-1]["url"] is None


def test_total_estimate_is_exact_on_a_small_table(client: ListClient) -> None:
    exact = _get(client, {"per_page": 3})
    estimated = _get(client, {"total": "estimate", "per_page": 3})
    assert estimated == {
        **exact,
        "first_page_url": exact["first_page_url"].replace("?", "?total=estimate&"),
        "last_page_url": exact["last_page_url"].replace("?", "?total=estimate&"),
        "next_page_url": exact["next_page_url"].replace("?", "?total=estimate&"),
        "links": [
            {
                **link,
                "url": link["url"] and link["url"].replace("?", "?total=estimate&"),
            }
            for link in exact["links"]
        ],
    }


def test_the_default_list_is_unchanged(client: ListClient) -> None:
    body = _get(client, {"per_page": 3})
    assert body["total"] == 7 and body["last_page"] == 3
    assert "next_cursor" not in body


def test_an_estimate_agrees_with_what_the_page_saw() -> None:
    params = [("total", "estimate"), ("page", "2"), ("per_page", "2")]
    query = parse_list_query(
        GadgetResource, params, max_per_page=100, paging_modes=True
    )
    assert query.limit == 3
    urls = PageUrls(CRUD, [])
    rows = [{"id": 9}, {"id": 8}, {"id": 7}]
    assert list_body(query, rows, 1, urls)["total"] == 5  # more than it said
    assert list_body(query, rows[:1], 100, urls)["total"] == 3  # the last page
    assert list_body(query, [], 100, urls)["total"] == 2  # past the end


def test_paging_modes_are_read_only_for_the_json_list() -> None:
    params = [("cursor", "junk"), ("total", "bogus")]
    query = parse_list_query(GadgetResource, params, max_per_page=100)
    assert not query.keyset and query.total == "exact"
    with pytest.raises(QueryError):
        parse_list_query(GadgetResource, params, max_per_page=100, paging_modes=True)


def test_a_cursor_is_opaque_base64url_json() -> None:
    params = [("cursor", ""), ("sort", "-name")]
    query = parse_list_query(
        GadgetResource, params, max_per_page=100, paging_modes=True
    )
    token = encode_cursor(query, {"id": 3, "name": "ü/+"}, before=True)
    assert "=" not in token and "+" not in token and "/" not in token
    padded = token + "=" * (-len(token) % 4)
    data = json.loads(base64.urlsafe_b64decode(padded))
    assert data == {"s": "-name", "d": "prev", "v": ["ü/+", 3]}
    again = parse_list_query(
        GadgetResource,
        [("cursor", token), ("sort", "-name")],
        max_per_page=100,
        paging_modes=True,
    )
    assert again.cursor is not None
    assert again.cursor.values == ("ü/+", 3) and again.cursor.before


def test_an_estimate_past_the_cap_is_the_tables_size_or_a_bound(
    client: ListClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(f"{STORE}.ESTIMATE_CAP", 2)
    unfiltered = _get(client, {"total": "estimate", "per_page": 2})
    if client.database == "sqlite":
        assert unfiltered["total"] == 7  # the largest key
    else:  # the planner's statistics: none yet for a new table
        assert unfiltered["total"] >= 3
    filtered = _get(client, {"total": "estimate", "filter[active]": "1"})
    assert filtered["total"] == 4  # the whole page was seen: exact again
    bound = _get(client, {"total": "estimate", "per_page": 1, "filter[active]": "1"})
    assert bound["total"] == 3  # the cap plus one, a lower bound
