"""Every route of the JSON CRUD API, over real HTTP, against the served project.

Each example is generated with the CLI, migrated with ``python -m app migrate`` and
served with ``python -m app serve``, on SQLite and on PostgreSQL. The client logs in
the way the manifest says: a session (cookie and CSRF token) or, with ``auth.jwt``, a
bearer token.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import EXAMPLE_IDS, REPO, Server

from generator import ir
from generator.manifest import load_manifest
from generator.samples import creation_order, sample_payload

pytestmark = pytest.mark.e2e

JSON = {"Accept": "application/json"}
EMAIL = "e2e@example.com"
PASSWORD = "e2e password, long enough"
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


def crud(resource: ir.Resource, key: Any = None) -> str:
    base = f"/admin/resource/{resource.uri}/crud"
    return base if key is None else f"{base}/{key}"


class Api:
    """A JSON client bound to a served project, remembering created keys."""

    def __init__(self, server: Server, project: ir.Project) -> None:
        self.client = httpx.Client(base_url=server.base_url, headers=JSON, timeout=10)
        self.project = project
        self.keys: dict[str, Any] = {}

    def log_in(self) -> None:
        """Log in as JSON clients do, then send the bearer or CSRF token every time."""
        credentials = {"username": EMAIL, "password": PASSWORD}
        response = self.client.post("/admin/authenticate", json=credentials)
        assert response.status_code == 200, response.text
        body = response.json()
        if self.project.auth.jwt:
            assert body["token_type"] == "Bearer"
            assert body["expires_in"] == self.project.auth.token_ttl
            assert response.headers["cache-control"] == "no-store"
            self.client.headers["Authorization"] = f"Bearer {body['token']}"
        else:
            assert body["message"] == "Authenticated."
            self.client.headers["X-CSRF-Token"] = body["csrf_token"]

    def create(self, resource: ir.Resource, n: int) -> dict[str, Any]:
        payload = sample_payload(resource, n, dict(self.keys))
        response = self.client.post(crud(resource), json=payload)
        assert response.status_code == 201, response.text
        body = response.json()
        record = body["data"]
        key = record[resource.key]
        assert body["message"] == "Saved"
        assert body["messageType"] == "success"
        assert body["redirect"] == f"/admin/resource/{resource.uri}/form-page/{key}"
        assert response.headers["location"].endswith(crud(resource, key))
        for name, value in payload.items():
            field = resource.field(name)
            if field.format == "password":
                assert name not in record
            elif field.type == "string" and field.format == "date-time":
                assert record[name].startswith(value[:16])
            else:
                assert record[name] == value, name
        self.keys.setdefault(resource.name, key)
        return record


@pytest.fixture(params=["sqlite", "postgres"])
def database_kind(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def served(generated, database_url: str, request: pytest.FixtureRequest):
    example = request.param
    project_dir: Path = generated(example)
    server = Server(project_dir, database_url)
    server.run_app("migrate")
    server.create_user(EMAIL, PASSWORD)
    server.start()
    try:
        yield server, load_manifest(REPO / "examples" / f"{example}.yaml")
    finally:
        server.stop()


def _check_list(api: Api, resource: ir.Resource, records: list[dict]) -> None:
    client = api.client
    response = client.get(crud(resource))
    assert response.status_code == 200, response.text
    page = response.json()
    assert set(page) == PAGINATOR_KEYS
    assert page["total"] == len(records)
    assert page["current_page"] == 1
    assert page["per_page"] == resource.per_page
    # Default sort is by key, descending.
    keys = [r[resource.key] for r in page["data"]]
    assert keys == sorted(keys, reverse=True)

    second = client.get(
        crud(resource), params={"per_page": 1, "page": 2, "sort": resource.key}
    )
    assert second.status_code == 200, second.text
    body = second.json()
    assert body["per_page"] == 1 and body["current_page"] == 2 and body["from"] == 2
    assert [r[resource.key] for r in body["data"]] == [sorted(keys)[1]]
    assert body["last_page"] == len(records)

    for bad in (
        {"sort": "no_such_field"},
        {"page": 0},
        {"per_page": 1000},
        {"page": "x"},
    ):
        response = client.get(crud(resource), params=bad)
        assert response.status_code == 422, (bad, response.text)
        assert "message" in response.json() and "errors" in response.json()
    response = client.get(crud(resource), params={"filter[no_such_field]": "1"})
    assert response.status_code == 422


def _check_search_and_tags(
    api: Api, resource: ir.Resource, records: list[dict]
) -> None:
    client = api.client
    if resource.search:
        name = resource.search[0]
        needle = records[0][name]
        response = client.get(crud(resource), params={"search": needle})
        assert response.status_code == 200, response.text
        assert records[0][resource.key] in [
            r[resource.key] for r in response.json()["data"]
        ]
    for tag in resource.query_tags:
        response = client.get(crud(resource), params={"query-tag": tag.uri})
        assert response.status_code == 200, response.text
        expected = [
            r[resource.key] for r in records if all(r[f] == v for f, v in tag.filter)
        ]
        got = [r[resource.key] for r in response.json()["data"]]
        assert sorted(got) == sorted(expected), tag.uri
    filterable = [
        f for f in resource.fields if f.filterable and f.type == "boolean"
    ] or [resource.key_field]
    field = filterable[0]
    value = records[0][field.name]
    raw = str(value).lower() if isinstance(value, bool) else str(value)
    response = client.get(crud(resource), params={f"filter[{field.name}]": raw})
    assert response.status_code == 200, response.text
    got = {r[resource.key] for r in response.json()["data"]}
    assert got == {r[resource.key] for r in records if r[field.name] == value}


def _check_item_routes(api: Api, resource: ir.Resource, record: dict) -> None:
    client = api.client
    key = record[resource.key]
    shown = client.get(crud(resource, key))
    assert shown.status_code == 200 and shown.json() == record

    editable = [
        f
        for f in resource.fields
        if not f.read_only
        and not f.is_key
        and not f.relation
        and f.format != "password"
    ]
    field = editable[0]
    from generator.samples import sample_value

    new_value = sample_value(field, 7)
    patched = client.patch(crud(resource, key), json={field.name: new_value})
    assert patched.status_code == 200, patched.text
    data = patched.json()["data"]
    assert data[field.name] == new_value
    unchanged = {k: v for k, v in record.items() if k != field.name}
    assert {
        k: data[k] for k in unchanged
    } == unchanged  # absent fields stay as they were
    put = client.put(crud(resource, key), json={field.name: new_value})
    assert put.status_code == 200, put.text

    missing = "999999999" if resource.key_field.type == "integer" else "no-such-key"
    assert client.get(crud(resource, missing)).status_code == 404
    put_missing = client.put(crud(resource, missing), json={field.name: new_value})
    assert put_missing.status_code == 404
    assert "message" in put_missing.json()

    bad = client.patch(crud(resource, key), json={"no_such_field": 1})
    assert bad.status_code == 422 and "no_such_field" in bad.json()["errors"]
    broken = client.post(
        crud(resource),
        content=b"{not json",
        headers={"Content-Type": "application/json"},
    )
    assert broken.status_code == 422
    wrong_method = client.post(crud(resource, key), json={})
    assert wrong_method.status_code == 405
    no_json = client.get(crud(resource), headers={"Accept": "text/html"})
    assert no_json.status_code == 303
    assert no_json.headers["location"].endswith(f"{resource.uri}/index-page")


def _check_deletes(api: Api, resource: ir.Resource, records: list[dict]) -> None:
    client = api.client
    first, second, third = (r[resource.key] for r in records[:3])
    response = client.delete(crud(resource, first))
    assert response.status_code == 200, response.text
    assert response.json() == {"message": "Deleted", "messageType": "success"}
    assert client.get(crud(resource, first)).status_code == 404

    missing = 999999999 if resource.key_field.type == "integer" else "no-such-key"
    response = client.request(
        "DELETE", crud(resource), params=[("ids[]", second), ("ids[]", missing)]
    )
    assert response.status_code == 200, response.text
    assert response.json() == {
        "message": "Deleted",
        "messageType": "success",
        "deleted": 1,
    }
    response = client.request("DELETE", crud(resource), json={"ids": [third]})
    assert response.status_code == 200 and response.json()["deleted"] == 1
    assert client.request("DELETE", crud(resource)).status_code == 422
    remaining = client.get(crud(resource)).json()["total"]
    assert remaining == len(records) - 3


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
@pytest.mark.parametrize("served", EXAMPLE_IDS, indirect=True)
def test_every_crud_route(served) -> None:
    server, project = served
    api = Api(server, project)
    with api.client:
        _check_strangers_are_refused(api, project)
        api.log_in()
        _walk_every_route(api, project)
        _check_logout(api, project)


def _check_strangers_are_refused(api: Api, project: ir.Project) -> None:
    resource = project.resources[0]
    for method, url in (
        ("GET", crud(resource)),
        ("POST", crud(resource)),
        ("DELETE", crud(resource, 1)),
    ):
        response = api.client.request(method, url, json={})
        assert response.status_code == 401, (method, url)
        assert response.json() == {"message": "Unauthenticated."}
        if project.auth.jwt:
            assert response.headers["www-authenticate"] == "Bearer"
    page = f"/admin/resource/{resource.uri}/index-page"
    response = api.client.get(page, headers={"Accept": "text/html"})
    if project.auth.jwt:  # no login page for token clients
        assert response.status_code == 401
    else:
        assert response.status_code == 303
        assert response.headers["location"].startswith("/admin/login?next=")
    wrong = {"username": EMAIL, "password": "wrong"}
    assert api.client.post("/admin/authenticate", json=wrong).status_code == 422


def _walk_every_route(api: Api, project: ir.Project) -> None:
    assert api.client.get("/admin/resource/no-such-resource/crud").status_code == 404
    created: dict[str, list[dict]] = {}
    for resource in creation_order(project):
        created[resource.name] = [api.create(resource, n) for n in range(1, 5)]
    for resource in creation_order(project):
        records = created[resource.name]
        _check_list(api, resource, records)
        _check_search_and_tags(api, resource, records)
        _check_item_routes(api, resource, records[-1])
    # Delete in reverse dependency order, so relations never block.
    for resource in reversed(creation_order(project)):
        records = api.client.get(crud(resource), params={"sort": resource.key}).json()[
            "data"
        ]
        _check_deletes(api, resource, records)


def _check_logout(api: Api, project: ir.Project) -> None:
    """``DELETE /admin/logout`` ends the session, or revokes the token."""
    url = crud(project.resources[0])
    assert api.client.get(url).status_code == 200
    response = api.client.delete("/admin/logout")
    assert response.status_code == 200, response.text
    assert response.json() == {"message": "Logged out."}
    assert api.client.get(url).status_code == 401
