"""CORS for a front end on another origin (``CORS_ORIGINS``), the same on both.

One more deployment per framework: the session example served with ``CORS_ORIGINS``
set (on the database of its framework's server). A listed origin's preflight is
answered 204 with the methods, headers and lifetime; its requests get the origin
echoed with credentials allowed and the headers scripts may read; an unlisted origin
gets no CORS header; a cross-origin session still needs the CSRF token. Without
``CORS_ORIGINS`` (the default) nobody gets one.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import FRAMEWORKS, SESSION_EXAMPLES
from .support import CSRF_MISMATCH, Api, crud

pytestmark = pytest.mark.e2e

FRONT = "http://front.example:3000"
OTHER = "http://elsewhere.example"
EXAMPLE = SESSION_EXAMPLES[0]


def _params() -> list:
    return [pytest.param(f, id=f"{f}-{EXAMPLE}-sqlite") for f in FRAMEWORKS]


@pytest.fixture(params=_params())
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    env = {"CORS_ORIGINS": f"{FRONT}, https://second.example"}
    deployment = fleet.get(request.param, EXAMPLE, "sqlite", "cors", env=env)
    with deployment.api() as found:
        yield found


def _cors(response: Any) -> dict[str, str]:
    return {
        name.lower(): value
        for name, value in response.headers.items()
        if name.lower().startswith("access-control-")
    }


def _vary(response: Any) -> list[str]:
    return [v.strip().lower() for v in response.headers.get("vary", "").split(",")]


def _preflight(api: Api, url: str, origin: str) -> Any:
    headers = {
        "Origin": origin,
        "Access-Control-Request-Method": "PUT",
        "Access-Control-Request-Headers": "content-type, x-csrf-token",
    }
    return api.client.options(url, headers=headers)


def test_a_listed_origins_preflight_is_answered(api: Api) -> None:
    url = crud(api.project.resources[0], 1)
    response = _preflight(api, url, FRONT)
    assert response.status_code == 204, response.text
    assert response.content == b""
    assert _cors(response) == {
        "access-control-allow-origin": FRONT,
        "access-control-allow-credentials": "true",
        "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
        "access-control-allow-headers": (
            "Accept, Authorization, Content-Type, If-Match, X-CSRF-Token"
        ),
        "access-control-max-age": "600",
    }
    assert "origin" in _vary(response)
    assert response.headers["x-frame-options"] == "DENY"


def test_an_unlisted_origin_gets_no_cors_header(api: Api) -> None:
    url = crud(api.project.resources[0])
    assert _cors(_preflight(api, url, OTHER)) == {}
    listed = api.get(url, headers={"Origin": OTHER})
    assert listed.status_code == 200, listed.text
    assert _cors(listed) == {}
    assert "origin" in _vary(listed)


def test_a_listed_origins_requests_get_the_headers(api: Api) -> None:
    resource = api.project.resources[0]
    listed = api.get(crud(resource), headers={"Origin": FRONT})
    assert listed.status_code == 200, listed.text
    assert _cors(listed) == {
        "access-control-allow-origin": FRONT,
        "access-control-allow-credentials": "true",
        "access-control-expose-headers": "ETag, Location, Retry-After",
    }
    assert "origin" in _vary(listed)


def test_a_cross_origin_session_still_needs_the_csrf_token(api: Api) -> None:
    resource = api.project.resources[0]
    body = api.payload(resource)
    headers = {"Origin": FRONT}
    token = api.client.headers.pop("X-CSRF-Token")
    refused = api.post(crud(resource), json=body, headers=headers)
    assert refused.status_code == 403, refused.text
    assert refused.json() == CSRF_MISMATCH
    assert _cors(refused)["access-control-allow-origin"] == FRONT
    created = api.post(
        crud(resource), json=body, headers={**headers, "X-CSRF-Token": token}
    )
    assert created.status_code == 201, created.text
    assert _cors(created)["access-control-allow-origin"] == FRONT


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_cors_is_off_by_default(fleet: Any, framework: str) -> None:
    deployment = fleet.get(framework, EXAMPLE, "sqlite")
    with deployment.api() as api:
        url = crud(api.project.resources[0])
        assert _cors(_preflight(api, url, FRONT)) == {}
        listed = api.get(url, headers={"Origin": FRONT})
        assert listed.status_code == 200, listed.text
        assert _cors(listed) == {}
