"""The JSON CRUD API of every resource: routes, statuses, bodies, query parameters.

``/admin/resource/{resourceUri}/crud`` with ``Accept: application/json``, as a
logged-in client: the paginator list (page, per_page, sort, search, filter[…],
query-tag), show, store (JSON and form), update (PUT and PATCH), destroy, and mass
delete with ``ids[]`` in the query, a form or ``{"ids": […]}``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

import pytest

from generator.model import ir

from .support import (
    MAX_IDS,
    MAX_PER_PAGE,
    Api,
    Deployment,
    crud,
    crud_link,
    form_text,
    marker_field,
    marker_value,
    missing_key,
    new_marker,
    page,
    page_url,
    writable_fields,
)

pytestmark = pytest.mark.e2e

PAGINATOR_KEYS = {
    "current_page",
    "data",
    "first_page_url",
    "from",
    "last_page",
    "last_page_url",
    "links",
    "next_page_url",
    "path",
    "per_page",
    "prev_page_url",
    "to",
    "total",
}
PREVIOUS = "&laquo; Previous"
NEXT = "Next &raquo;"


def _keys(body: dict[str, Any], resource: ir.Resource) -> list[Any]:
    return [record[resource.key] for record in body["data"]]


def _check_default_list(api: Api, resource: ir.Resource, marker: str) -> None:
    records = api.create_many(resource, 3, marker)
    response = api.get(crud(resource), params={"search": marker})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == PAGINATOR_KEYS
    assert body["total"] == 3
    assert (body["current_page"], body["last_page"]) == (1, 1)
    assert body["per_page"] == resource.per_page
    assert (body["from"], body["to"]) == (1, 3)
    assert body["path"] == crud_link(api, resource)
    assert body["prev_page_url"] is None and body["next_page_url"] is None
    first = page_url(crud_link(api, resource), [("search", marker)], 1)
    assert body["first_page_url"] == body["last_page_url"] == first
    assert body["links"] == [
        {"url": None, "label": PREVIOUS, "active": False},
        {"url": first, "label": "1", "active": True},
        {"url": None, "label": NEXT, "active": False},
    ]
    # The default sort (the manifest's default_sort, "-id"): newest first.
    assert resource.default_sort == f"-{resource.key}"
    assert body["data"] == records[::-1], "records as created, newest first"


def _check_pages(api: Api, resource: ir.Resource, marker: str) -> None:
    records = api.create_many(resource, 3, marker)
    params = [("search", marker), ("sort", resource.key), ("per_page", 2)]
    response = api.get(crud(resource), params=[*params, ("page", 2)])
    assert response.status_code == 200, response.text
    body = response.json()
    path = crud_link(api, resource)
    link = {n: page_url(path, params, n) for n in (1, 2)}
    assert body == {
        "current_page": 2,
        "data": records[2:],
        "first_page_url": link[1],
        "from": 3,
        "last_page": 2,
        "last_page_url": link[2],
        "links": [
            {"url": link[1], "label": PREVIOUS, "active": False},
            {"url": link[1], "label": "1", "active": False},
            {"url": link[2], "label": "2", "active": True},
            {"url": None, "label": NEXT, "active": False},
        ],
        "next_page_url": None,
        "path": path,
        "per_page": 2,
        "prev_page_url": link[1],
        "to": 3,
        "total": 3,
    }
    first = api.get(crud(resource), params=[*params, ("page", 1)]).json()
    assert _keys(first, resource) == [r[resource.key] for r in records[:2]]
    assert first["next_page_url"] == link[2] and first["prev_page_url"] is None
    beyond = api.get(crud(resource), params=[*params, ("page", 9)]).json()
    assert beyond["data"] == []
    assert (beyond["current_page"], beyond["last_page"]) == (9, 2)
    assert (beyond["from"], beyond["to"], beyond["total"]) == (None, None, 3)


def _check_sort(api: Api, resource: ir.Resource, marker: str) -> None:
    records = api.create_many(resource, 3, marker)
    keys = [r[resource.key] for r in records]
    name = marker_field(resource).name
    for sort, expected in (
        (resource.key, keys),
        (f"-{resource.key}", keys[::-1]),
        (name, keys),  # the marker values sort as the records were made
        (f"-{name}", keys[::-1]),
        (f"-{name},{resource.key}", keys[::-1]),
    ):
        response = api.get(crud(resource), params={"search": marker, "sort": sort})
        assert response.status_code == 200, (sort, response.text)
        assert _keys(response.json(), resource) == expected, sort


def _check_search_and_filters(api: Api, resource: ir.Resource, marker: str) -> None:
    records = api.create_many(resource, 3, marker)
    name = marker_field(resource).name
    # Search ignores case and matches part of a value.
    for term, count in ((marker.upper(), 3), (records[1][name], 1)):
        body = api.get(crud(resource), params={"search": term}).json()
        assert body["total"] == count, term
    # "%" and "_" are no wildcards: only records holding them are found.
    for term in ("%", "_"):
        body = api.get(crud(resource), params={"search": term, "per_page": 100}).json()
        for found in body["data"]:
            assert any(term in str(found[s] or "") for s in resource.search), found
    # filter[field] is an exact match on one field, combined with the search.
    exact = api.get(
        crud(resource), params={"search": marker, f"filter[{name}]": records[1][name]}
    ).json()
    assert _keys(exact, resource) == [records[1][resource.key]]
    key = records[2][resource.key]
    by_key = api.get(
        crud(resource), params={f"filter[{resource.key}]": str(key)}
    ).json()
    assert _keys(by_key, resource) == [key]
    for found in resource.fields:
        if found.type == "boolean" and found.filterable:
            for value in (True, False):
                body = api.get(
                    crud(resource),
                    params={
                        "search": marker,
                        f"filter[{found.name}]": form_text(value),
                    },
                ).json()
                expected = [r[resource.key] for r in records if r[found.name] is value]
                assert sorted(_keys(body, resource)) == sorted(expected), found.name


def _check_query_tags(api: Api, resource: ir.Resource, marker: str) -> None:
    records = api.create_many(resource, 4, marker)
    for tag in resource.query_tags:
        response = api.get(
            crud(resource), params={"search": marker, "query-tag": tag.uri}
        )
        assert response.status_code == 200, response.text
        expected = [
            r[resource.key] for r in records if all(r[f] == v for f, v in tag.filter)
        ]
        assert 0 < len(expected) < len(records), "the samples must tell tags apart"
        assert sorted(_keys(response.json(), resource)) == sorted(expected), tag.uri
    # An empty query-tag is no tag.
    body = api.get(crud(resource), params={"search": marker, "query-tag": ""}).json()
    assert body["total"] == len(records)


def test_list(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            _check_default_list(api, resource, new_marker())
            _check_pages(api, resource, new_marker())
            _check_sort(api, resource, new_marker())
            _check_search_and_filters(api, resource, new_marker())
            _check_query_tags(api, resource, new_marker())


def _error(message: str, errors: dict[str, list[str]]) -> dict[str, Any]:
    return {"message": message, "errors": errors}


def test_list_parameters_are_checked(deployment: Deployment) -> None:
    pages = "The page must be an integer between 1 and 2147483647."
    with deployment.api() as api:
        for resource in deployment.project.resources:
            per_page = f"The per_page must be an integer between 1 and {MAX_PER_PAGE}."
            key = resource.key
            cases = [
                ({"page": "0"}, "page", pages),
                ({"page": "x"}, "page", pages),
                ({"page": "2147483648"}, "page", pages),
                ({"per_page": "0"}, "per_page", per_page),
                ({"per_page": "101"}, "per_page", per_page),
                ({"sort": "nope"}, "sort", "'nope' is not a sortable field."),
                ({"sort": "-nope"}, "sort", "'nope' is not a sortable field."),
                (
                    {"filter[nope]": "1"},
                    "filter[nope]",
                    "'nope' is not a filterable field.",
                ),
                (
                    {f"filter[{key}]": "abc"},
                    f"filter[{key}]",
                    f"The filter[{key}] value must be an integer.",
                ),
                (
                    {"filter": "x"},
                    "filter",
                    "The filter parameter is not a filter: use filter[field]=value"
                    " or filter[field][operator]=value.",
                ),
                (
                    {f"filter[{key}][$ne]": ""},
                    f"filter[{key}][$ne]",
                    f"The filter[{key}][$ne] parameter is not a filter of"
                    f" {resource.field(key).label}: use filter[{key}],"
                    f" filter[{key}][from] or filter[{key}][to].",
                ),
                (
                    {"search": "a\x00b"},
                    "search",
                    "The search term must not contain NUL characters.",
                ),
                (
                    {"query-tag": "nope"},
                    "query-tag",
                    "'nope' is not a query tag of this resource.",
                ),
            ]
            for params, name, message in cases:
                response = api.get(crud(resource), params=params)
                assert response.status_code == 422, (params, response.text)
                assert response.json() == _error(message, {name: [message]}), params
            several = {
                "page": "0",
                "per_page": "0",
                "sort": "nope",
                "filter[nope]": "1",
            }
            response = api.get(crud(resource), params=several)
            assert response.status_code == 422
            body = response.json()
            assert body["message"] == f"{pages} (and 3 more errors)"
            assert set(body["errors"]) == set(several)
            # Parameters the API does not know are refused, by name.
            unknown = api.get(crud(resource), params={"colour": "red"})
            assert unknown.status_code == 422
            assert list(unknown.json()["errors"]) == ["colour"]


def _check_store(api: Api, resource: ir.Resource) -> dict[str, Any]:
    payload = api.payload(resource, 2, new_marker())
    response = api.post(crud(resource), json=payload)
    assert response.status_code == 201, response.text
    body = response.json()
    record = body["data"]
    key = record[resource.key]
    assert body == {
        "message": "Saved",
        "messageType": "success",
        "redirect": page(resource, "form-page", key),
        "data": record,
    }
    location = urljoin(api.deployment.base_url, response.headers["location"])
    assert location == api.deployment.base_url + crud(resource, key)
    readable = [f.name for f in resource.fields if f.format != "password"]
    assert list(record) == readable, "every readable field, in declared order"
    for name, value in payload.items():
        found = resource.field(name)
        if found.format == "date-time":
            assert record[name].startswith(value[:16]), name
        elif found.format != "password":
            assert record[name] == value, name
    # The same record as a form (what HTML forms and curl -d send).
    form = {name: form_text(value) for name, value in payload.items()}
    as_form = api.post(crud(resource), data=form)
    assert as_form.status_code == 201, as_form.text
    again = as_form.json()["data"]
    assert again[resource.key] != key
    same = [f.name for f in writable_fields(resource) if f.format != "password"]
    assert {k: again[k] for k in same} == {k: record[k] for k in same}
    return record


def _check_show_update_destroy(
    api: Api, resource: ir.Resource, record: dict[str, Any]
) -> None:
    key = record[resource.key]
    shown = api.get(crud(resource, key))
    assert shown.status_code == 200, shown.text
    assert shown.json() == record
    field = marker_field(resource)
    for method, n in (("PATCH", 7), ("PUT", 8)):
        value = marker_value(field, new_marker(), n)
        response = api.request(method, crud(resource, key), json={field.name: value})
        assert response.status_code == 200, (method, response.text)
        record = {**record, field.name: value}  # absent fields stay as they were
        assert response.json() == {
            "message": "Saved",
            "messageType": "success",
            "redirect": page(resource, "form-page", key),
            "data": record,
        }, method
        assert api.get(crud(resource, key)).json() == record
    unchanged = api.request("PATCH", crud(resource, key), json={})
    assert unchanged.status_code == 200 and unchanged.json()["data"] == record
    deleted = api.request("DELETE", crud(resource, key))
    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {"message": "Deleted", "messageType": "success"}
    gone = {"message": f"{resource.model_name} {key} not found"}
    for method in ("GET", "PUT", "PATCH", "DELETE"):
        response = api.request(method, crud(resource, key), json={})
        assert response.status_code == 404, (method, response.text)
        assert response.json() == gone, method


def test_store_show_update_destroy(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            record = _check_store(api, resource)
            _check_show_update_destroy(api, resource, record)


def test_records_that_do_not_exist_are_404(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            field = marker_field(resource)
            for key in (missing_key(resource), "not-a-key", "99999999999999999999999"):
                expected = {"message": f"{resource.model_name} {key} not found"}
                for method in ("GET", "PUT", "PATCH", "DELETE"):
                    value = marker_value(field, "x", 1)
                    body = {field.name: value} if method in ("PUT", "PATCH") else None
                    response = api.request(method, crud(resource, key), json=body)
                    assert response.status_code == 404, (method, key, response.text)
                    assert response.json() == expected, (method, key)
        unknown = api.get("/admin/resource/no-such-resource/crud")
        assert unknown.status_code == 404
        assert unknown.json() == {"message": "Resource not found"}
        item = api.get("/admin/resource/no-such-resource/crud/1")
        assert item.json() == {"message": "Resource not found"}


def _ids(api: Api, resource: ir.Resource, marker: str, count: int) -> list[Any]:
    return [r[resource.key] for r in api.create_many(resource, count, marker)]


def _remaining(api: Api, resource: ir.Resource, marker: str) -> list[Any]:
    body = api.get(crud(resource), params={"search": marker, "sort": resource.key})
    return _keys(body.json(), resource)


def _deleted(count: int) -> dict[str, Any]:
    return {"message": "Deleted", "messageType": "success", "deleted": count}


def _check_mass_delete(api: Api, resource: ir.Resource) -> None:
    marker = new_marker()
    keys = _ids(api, resource, marker, 6)
    missing = missing_key(resource)
    # ids[] in the query string; keys without a record are skipped.
    query = [("ids[]", str(k)) for k in keys[:2]] + [("ids[]", missing)]
    response = api.request("DELETE", crud(resource), params=query)
    assert response.status_code == 200, response.text
    assert response.json() == _deleted(2)
    assert _remaining(api, resource, marker) == keys[2:]
    # ids[] in a form body.
    form = "&".join(f"ids%5B%5D={k}" for k in keys[2:4])
    response = api.request(
        "DELETE",
        crud(resource),
        content=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 200, response.text
    assert response.json() == _deleted(2)
    # {"ids": [...]} as JSON; a key named twice is deleted once.
    response = api.request(
        "DELETE", crud(resource), json={"ids": [keys[4], keys[4], keys[5]]}
    )
    assert response.status_code == 200, response.text
    assert response.json() == _deleted(2)
    assert _remaining(api, resource, marker) == []
    assert api.request("DELETE", crud(resource), params=query).json() == _deleted(0)


def _check_mass_delete_errors(api: Api, resource: ir.Resource) -> None:
    required = "The ids field is required."
    not_keys = "The ids field must be a list of record keys."
    too_many = f"The ids field must not have more than {MAX_IDS} items."
    cases: list[tuple[dict[str, Any], str]] = [
        ({}, required),
        ({"json": {"ids": []}}, required),
        ({"json": {}}, required),
        ({"params": [("ids[]", "x")]}, not_keys),
        ({"json": {"ids": ["x"]}}, not_keys),
        ({"json": {"ids": "1"}}, not_keys),
        ({"json": {"ids": list(range(1, MAX_IDS + 2))}}, too_many),
    ]
    if resource.key_field.type != "integer":
        cases = [c for c in cases if c[1] != not_keys]
    for kwargs, message in cases:
        response = api.request("DELETE", crud(resource), **kwargs)
        assert response.status_code == 422, (kwargs, response.text)
        assert response.json() == _error(message, {"ids": [message]}), kwargs


def test_mass_delete(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            _check_mass_delete(api, resource)
            _check_mass_delete_errors(api, resource)
