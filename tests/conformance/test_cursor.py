"""Big-table paging of the JSON list, alike on every framework and database.

``cursor=`` (keyset pages with the keys of Laravel's ``CursorPaginator``), its 422s for
tampered or foreign cursors, and ``total=none`` / ``total=estimate`` on the
page-number paginator.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from generator.model import ir

from .support import Api, Deployment, crud, crud_link, new_marker, page_url

pytestmark = pytest.mark.e2e

CURSOR_KEYS = [
    "data",
    "path",
    "per_page",
    "next_cursor",
    "next_page_url",
    "prev_cursor",
    "prev_page_url",
]
INVALID = "The cursor is invalid: use a next_cursor or prev_cursor as given."


def _keys(body: dict[str, Any], resource: ir.Resource) -> list[Any]:
    return [record[resource.key] for record in body["data"]]


def _list(api: Api, resource: ir.Resource, params: list[tuple[str, Any]]) -> dict:
    response = api.get(crud(resource), params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _check_walk(api: Api, resource: ir.Resource, marker: str, sort: str) -> None:
    records = api.create_many(resource, 5, marker)
    keys = [record[resource.key] for record in records]
    expected = keys if sort == resource.key else keys[::-1]
    params = [("search", marker), ("sort", sort), ("per_page", 2)]
    body = _list(api, resource, [*params, ("cursor", "")])
    assert list(body) == CURSOR_KEYS
    assert (body["path"], body["per_page"]) == (crud_link(api, resource), 2)
    assert body["prev_cursor"] is None and body["prev_page_url"] is None
    pages = [_keys(body, resource)]
    while body["next_cursor"]:
        link = page_url(crud_link(api, resource), params, 1).replace("page=1", "")
        assert body["next_page_url"] == f"{link}cursor={body['next_cursor']}"
        body = _list(api, resource, [*params, ("cursor", body["next_cursor"])])
        pages.append(_keys(body, resource))
    assert pages == [expected[:2], expected[2:4], expected[4:]]
    back = _list(api, resource, [*params, ("cursor", body["prev_cursor"])])
    assert _keys(back, resource) == expected[2:4]
    assert back["next_cursor"] and back["prev_cursor"]
    first = _list(api, resource, [*params, ("cursor", back["prev_cursor"])])
    assert _keys(first, resource) == expected[:2]
    assert first["prev_cursor"] is None and first["next_cursor"]


def _check_totals(api: Api, resource: ir.Resource, marker: str) -> None:
    api.create_many(resource, 3, marker)
    params = [("search", marker), ("total", "none"), ("per_page", 2)]
    body = _list(api, resource, [*params, ("page", 1)])
    assert (body["total"], body["last_page"], body["last_page_url"]) == (None,) * 3
    assert body["next_page_url"] == page_url(crud_link(api, resource), params, 2)
    last = _list(api, resource, [*params, ("page", 2)])
    assert last["next_page_url"] is None and (last["from"], last["to"]) == (3, 3)
    assert [link["label"] for link in last["links"][1:-1]] == ["1", "2"]
    estimate = [("search", marker), ("total", "estimate"), ("per_page", 2)]
    body = _list(api, resource, estimate)
    assert (body["total"], body["last_page"]) == (3, 2)


def test_cursor_pages(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            _check_walk(api, resource, new_marker(), f"-{resource.key}")
            _check_walk(api, resource, new_marker(), resource.key)
            _check_totals(api, resource, new_marker())


def _token(data: Any) -> str:
    text = json.dumps(data).encode()
    return base64.urlsafe_b64encode(text).decode().rstrip("=")


def test_cursor_and_total_are_checked(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            sort = f"-{resource.key}"
            other = "The cursor belongs to another sort order: drop it or the sort."
            cases = [
                ({"cursor": "%%%"}, "cursor"),
                ({"cursor": _token({"s": sort, "d": "next", "v": ["x"]})}, "cursor"),
                ({"cursor": _token({"s": sort, "d": "up", "v": [1]})}, "cursor"),
                ({"cursor": _token({"s": resource.key, "d": "next", "v": [1]})},),
                ({"cursor": "", "page": "1"}, "page"),
                ({"cursor": "", "total": "exact"}, "total"),
                ({"total": "all"}, "total"),
            ]
            for case in cases:
                params, *expected = case
                response = api.get(crud(resource), params=params)
                assert response.status_code == 422, (params, response.text)
                errors = response.json()["errors"]
                if not expected:
                    assert errors == {"cursor": [other]}
                elif expected[0] == "cursor":
                    assert errors == {"cursor": [INVALID]}
                else:
                    assert list(errors) == [expected[0]]
