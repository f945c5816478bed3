"""Request bodies are read the same whatever their framing (issue 19).

A chunked body (no ``Content-Length``) is applied as the same body with a length is;
a request without a body is body-less whatever its ``Content-Type`` says.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from .conftest import sqlite_params
from .support import (
    MAX_BODY,
    Deployment,
    crud,
    marker_field,
    marker_value,
    new_marker,
)


@pytest.fixture(params=sqlite_params())
def sqlite_deployment(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


def _chunks(body: bytes) -> Iterator[bytes]:
    yield body[:3]
    yield body[3:]


def test_chunked_bodies_are_applied(sqlite_deployment: Deployment) -> None:
    with sqlite_deployment.api() as api:
        resource = sqlite_deployment.project.resources[0]
        key = api.create(resource)[resource.key]
        field = marker_field(resource)
        value = marker_value(field, new_marker(), 3)
        body = json.dumps({field.name: value}).encode()
        response = api.request(
            "PATCH",
            crud(resource, key),
            content=_chunks(body),
            headers={"Content-Type": "application/json"},
        )
        assert "content-length" not in response.request.headers
        assert response.request.headers["transfer-encoding"] == "chunked"
        assert response.status_code == 200, response.text
        assert response.json()["data"][field.name] == value
        assert api.get(crud(resource, key)).json()[field.name] == value


def test_a_request_without_a_body_is_body_less_whatever_its_type(
    sqlite_deployment: Deployment,
) -> None:
    with sqlite_deployment.api() as api:
        resource = sqlite_deployment.project.resources[0]
        key = api.create(resource)[resource.key]
        for length in (None, "0"):
            headers = {"Content-Type": "text/plain"}
            if length is not None:
                headers["Content-Length"] = length
            response = api.request("PATCH", crud(resource, key), headers=headers)
            assert response.status_code == 200, (length, response.text)
        typed = api.request(
            "PATCH",
            crud(resource, key),
            content=b"x",
            headers={"Content-Type": "text/plain"},
        )
        assert typed.status_code == 415, typed.text
        deleted = api.request(
            "DELETE", crud(resource, key), headers={"Content-Type": "text/plain"}
        )
        assert deleted.status_code == 200, deleted.text


def test_a_chunked_body_over_the_limit_is_413(sqlite_deployment: Deployment) -> None:
    with sqlite_deployment.api() as api:
        resource = sqlite_deployment.project.resources[0]
        key = api.create(resource)[resource.key]
        body = b'{"x": "' + b"a" * MAX_BODY + b'"}'
        response = api.request(
            "PATCH",
            crud(resource, key),
            content=_chunks(body),
            headers={"Content-Type": "application/json"},
        )
        assert response.status_code == 413, response.text[:500]
        expected = f"The request body must not exceed {MAX_BODY} bytes."
        assert response.json() == {"message": expected}
