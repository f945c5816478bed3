"""Every error of the JSON API, with its exact body: 401, 404, 405, 409, 413, 415, 422.

Errors are JSON ``{"message": …}``; validation errors add ``errors``, a field (or
parameter) → messages map whose first message, plus a count of the others, is the
``message``.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.model import ir

from .support import (
    MAX_BODY,
    UNAUTHENTICATED,
    Api,
    Database,
    Deployment,
    crud,
    marker_field,
    marker_value,
    new_marker,
    page,
    required_fields,
)

pytestmark = pytest.mark.e2e

# Every path answers HEAD where it answers GET, and OPTIONS.
ANY_PATH = ("HEAD", "OPTIONS")


def _error(message: str, errors: dict[str, list[str]]) -> dict[str, Any]:
    return {"message": message, "errors": errors}


def test_strangers_get_401_on_every_api_route(deployment: Deployment) -> None:
    with deployment.api(log_in=False) as api:
        for resource in deployment.project.resources:
            for method, url in (
                ("GET", crud(resource)),
                ("POST", crud(resource)),
                ("DELETE", crud(resource)),
                ("GET", crud(resource, 1)),
                ("PUT", crud(resource, 1)),
                ("PATCH", crud(resource, 1)),
                ("DELETE", crud(resource, 1)),
            ):
                response = api.request(method, url, json={})
                assert response.status_code == 401, (method, url, response.text)
                assert response.json() == UNAUTHENTICATED, (method, url)
                if deployment.jwt:
                    assert response.headers["www-authenticate"] == "Bearer"
                else:
                    assert "www-authenticate" not in response.headers
        logout = api.post("/admin/logout")
        assert logout.status_code == 401 and logout.json() == UNAUTHENTICATED


def test_a_wrong_method_is_405_with_the_allowed_methods(
    deployment: Deployment,
) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            for method, url, allowed in (
                ("PUT", crud(resource), {"DELETE", "GET", "POST", *ANY_PATH}),
                ("PATCH", crud(resource), {"DELETE", "GET", "POST", *ANY_PATH}),
                (
                    "POST",
                    crud(resource, 1),
                    {"DELETE", "GET", "PATCH", "PUT", *ANY_PATH},
                ),
            ):
                response = api.request(method, url, json={})
                assert response.status_code == 405, (method, url, response.text)
                assert response.json() == {"message": "Method Not Allowed"}
                allow = {m.strip() for m in response.headers["allow"].split(",")}
                assert allow == allowed, (method, url)
        logout = api.get("/admin/logout")
        assert logout.status_code == 405
        assert {m.strip() for m in logout.headers["allow"].split(",")} == {
            "DELETE",
            "POST",
            "OPTIONS",
        }


def test_unknown_paths_are_json_404(deployment: Deployment) -> None:
    with deployment.api() as api:
        for url in ("/admin/nothing-here", "/admin/resource", "/nothing-here"):
            response = api.get(url)
            assert response.status_code == 404, url
            assert response.json() == {"message": "Not Found"}, url


def test_a_body_over_the_limit_is_413(deployment: Deployment) -> None:
    message = {"message": f"The request body must not exceed {MAX_BODY} bytes."}
    resource = deployment.project.resources[0]
    with deployment.api() as api:
        for method, url, headers in (
            ("POST", crud(resource), {"Content-Type": "application/json"}),
            ("PATCH", crud(resource, 1), {"Content-Type": "application/json"}),
            ("DELETE", crud(resource), {"Content-Type": "application/json"}),
            (
                "POST",
                crud(resource),
                {"Content-Type": "application/x-www-form-urlencoded"},
            ),
        ):
            body = b" " * (MAX_BODY + 1)
            response = api.request(method, url, content=body, headers=headers)
            assert response.status_code == 413, (method, url, headers)
            assert response.json() == message


def test_a_body_of_another_type_is_415(deployment: Deployment) -> None:
    message = {
        "message": (
            "Send the body as application/json or application/x-www-form-urlencoded."
        )
    }
    resource = deployment.project.resources[0]
    with deployment.api() as api:
        for method, url in (
            ("POST", crud(resource)),
            ("PUT", crud(resource, 1)),
            ("PATCH", crud(resource, 1)),
            ("DELETE", crud(resource)),
        ):
            for media_type in ("text/plain", "multipart/form-data; boundary=x"):
                response = api.request(
                    method, url, content=b"x", headers={"Content-Type": media_type}
                )
                assert response.status_code == 415, (method, url, media_type)
                assert response.json() == message
        # "+json" types are JSON.
        vendor = api.request(
            "POST",
            crud(resource),
            content=b"{}",
            headers={"Content-Type": "application/merge-patch+json"},
        )
        assert vendor.status_code == 422


def _check_bodies(api: Api, resource: ir.Resource) -> None:
    url = crud(resource)
    required = required_fields(resource)
    messages = [f"The {f.label} field is required." for f in required]
    response = api.post(url, json={})
    assert response.status_code == 422, response.text
    summary = messages[0]
    if len(messages) > 1:
        others = len(messages) - 1
        summary += f" (and {others} more error{'s' if others > 1 else ''})"
    assert response.json() == _error(
        summary, {f.name: [m] for f, m in zip(required, messages, strict=True)}
    )
    assert api.post(url).status_code == 422, "no body at all names no field"

    payload = api.payload(resource, 1)
    field = marker_field(resource)
    key = resource.key_field
    cases: list[tuple[dict[str, Any], str, str]] = [
        (
            {"no_such_field": 1},
            "no_such_field",
            "The no_such_field field is not allowed.",
        ),
        ({key.name: 1}, key.name, f"The {key.label} field is read-only."),
        ({field.name: 12345}, field.name, f"The {field.label} field must be a string."),
        ({field.name: None}, field.name, f"The {field.label} field must not be null."),
    ]
    for found in resource.fields:
        if found.relation:
            target = api.project.resource(found.relation)
            message = f"The selected {found.label} is invalid."
            missing = 999999999 if target.key_field.type == "integer" else "x"
            cases.append(({found.name: missing}, found.name, message))
        if found.type == "integer" and not found.relation and not found.is_key:
            message = f"The {found.label} field must be an integer."
            cases.append(({found.name: "1"}, found.name, message))
        if found.type == "boolean":
            message = f"The {found.label} field must be true or false."
            cases.append(({found.name: "yes"}, found.name, message))
        if found.max_length is not None and found.pattern is None:
            message = (
                f"The {found.label} field must not be greater than "
                f"{found.max_length} characters."
            )
            cases.append(
                ({found.name: "x" * (found.max_length + 1)}, found.name, message)
            )
    for change, name, message in cases:
        expected = _error(message, {name: [message]})
        response = api.post(url, json={**payload, **change})
        assert response.status_code == 422, (change, response.text)
        assert response.json() == expected, change
        record = api.create(resource, 1)
        patched = api.request(
            "PATCH", crud(resource, record[resource.key]), json=change
        )
        assert patched.status_code == 422, (change, patched.text)
        assert patched.json() == expected, change


def test_invalid_bodies_are_422(deployment: Deployment) -> None:
    invalid_json = "The request body is not valid JSON."
    not_object = "The request body must be a JSON object."
    with deployment.api() as api:
        for resource in deployment.project.resources:
            _check_bodies(api, resource)
            record = api.create(resource, 1)
            for url in (crud(resource), crud(resource, record[resource.key])):
                method = "POST" if url == crud(resource) else "PATCH"
                for content, message in (
                    (b"{not json", invalid_json),
                    (b"[1, 2]", not_object),
                    (b'"text"', not_object),
                ):
                    response = api.request(
                        method,
                        url,
                        content=content,
                        headers={"Content-Type": "application/json"},
                    )
                    assert response.status_code == 422, (url, content, response.text)
                    assert response.json() == _error(message, {"body": [message]})


def _unique_where(
    database: Database, table: str, column: str, marker: str, value: str
) -> None:
    """A unique index on the rows where ``column`` holds ``value``.

    MySQL and MariaDB have no partial index: a unique index on a generated column
    that holds the value only there, written the same on both.
    """
    if not database.mysql:
        database.execute(
            f"CREATE UNIQUE INDEX {marker}_unique ON {table} ({column})"
            f" WHERE {column} = '{value}'"
        )
        return
    database.execute(
        f"ALTER TABLE {table} ADD COLUMN {marker}_taken VARCHAR(255) AS"
        f" (CASE WHEN {column} = '{value}' THEN {column} END) VIRTUAL,"
        f" ADD UNIQUE INDEX {marker}_unique ({marker}_taken)"
    )


def _conflicts(api: Api, database: Database, resource: ir.Resource) -> None:
    """409s: a unique index and a reference, added to the database behind the API."""
    table = database.table_of(resource)
    field = marker_field(resource)
    marker = new_marker()
    taken = marker_value(field, marker, 1)
    _unique_where(database, table, field.name, marker, taken)
    conflict = {"message": "The record conflicts with existing data."}
    first = api.create(resource, 1, marker)
    response = api.post(crud(resource), json=api.payload(resource, 1, marker))
    assert response.status_code == 409, response.text
    assert response.json() == conflict
    second = api.create(resource, 2, marker)
    key = second[resource.key]
    response = api.request("PATCH", crud(resource, key), json={field.name: taken})
    assert response.status_code == 409, response.text
    assert response.json() == conflict
    assert api.get(crud(resource, key)).json() == second

    refs = f"{marker}_refs"
    database.execute(
        f"CREATE TABLE {refs} (ref BIGINT REFERENCES {table} ({resource.key}))"
    )
    database.execute(f"INSERT INTO {refs} (ref) VALUES ({first[resource.key]})")
    response = api.request("DELETE", crud(resource, first[resource.key]))
    assert response.status_code == 409, response.text
    label = f"{resource.model_name} {first[resource.key]}"
    assert response.json() == {
        "message": f"{label} cannot be deleted: other records refer to it."
    }
    both = {"ids": [key, first[resource.key]]}
    response = api.request("DELETE", crud(resource), json=both)
    assert response.status_code == 409, response.text
    assert response.json() == {
        "message": "Nothing was deleted: other records refer to some of these."
    }
    assert api.get(crud(resource, key)).status_code == 200, "all or nothing"
    database.execute(f"DROP TABLE {refs}")
    response = api.request("DELETE", crud(resource), json=both)
    assert response.json()["deleted"] == 2


def test_conflicts_are_409(deployment: Deployment, database: Database) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            if resource.key_field.type == "integer":
                _conflicts(api, database, resource)


def test_pages_refuse_json_clients_with_406(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            record = api.create(resource, 1)
            expected = {
                "message": f"This URL serves a page; the JSON API is {crud(resource)}"
            }
            for url in (
                page(resource, "index-page"),
                page(resource, "form-page"),
                page(resource, "form-page", record[resource.key]),
                page(resource, "detail-page", record[resource.key]),
            ):
                response = api.get(url)
                assert response.status_code == 406, (url, response.text)
                assert response.json() == expected, url


def test_every_answer_has_the_security_headers(deployment: Deployment) -> None:
    resource = deployment.project.resources[0]
    with deployment.api() as api:
        for response in (
            api.get(crud(resource)),
            api.get(crud(resource, "not-a-key")),
            api.post(crud(resource), json={}),
            api.get("/admin/nothing-here"),
        ):
            headers = response.headers
            assert headers["x-frame-options"] == "DENY", response.url
            assert headers["x-content-type-options"] == "nosniff", response.url
            assert headers["referrer-policy"] == "same-origin", response.url
            assert headers["cache-control"] == "no-store", response.url
            assert headers["content-type"].startswith("application/json")
