"""Every route of the app needs a login, except an explicit public list.

The test walks the routes FastAPI registered (not a list of its own), so a route added
later without the panel's guards fails it. It runs with sessions and with JWT.
"""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.core.config import get_settings
from app.resources import RESOURCES
from panel_core.oag import yaml_route
from tests.helpers import EMAIL, PASSWORD, authorize, iter_route_contexts

SPEC_ROUTE = get_settings().oag_route
# Route names that answer without a login: the login itself, the API docs (unless
# DOCS_ACCESS=authenticated), and static files.
PUBLIC = frozenset(
    {
        "login",
        "authenticate",
        "oag.docs",
        SPEC_ROUTE,
        yaml_route(SPEC_ROUTE),
        "oag.assets",
        "static",
    }
)
# A value for each path parameter; a route with a new one fails until it is added.
SAMPLES = {
    "resourceUri": RESOURCES[0].uri,
    "resourceItem": "1",
    "pageUri": "index-page",
    "handlerUri": "export",
    "actionUri": "archive",
    "fieldName": "file",
    "fileId": "0" * 32 + "-a.png",
}
# Every kind of panel route must be among those walked, so the walk is never empty.
KINDS = {"index", "crud.index", "crud.show", "resource.page", "page", "handler"}
KINDS |= {"method", "component", "logout"}
_PARAMETER = re.compile(r"{(\w+)(?::\w+)?}")


def guarded_requests(app: FastAPI) -> list[tuple[str, str, str]]:
    """(route name, method, URL) of every route outside PUBLIC; logout last."""
    found = []
    for route in iter_route_contexts(app.routes):
        if route.name in PUBLIC:
            continue
        methods = getattr(route, "methods", None)
        assert methods, f"{route.name} ({route.path}): protect it or make it PUBLIC"
        missing = set(_PARAMETER.findall(route.path)) - set(SAMPLES)
        assert not missing, f"{route.name}: add samples for {sorted(missing)}"
        url = _PARAMETER.sub(lambda m: SAMPLES[m.group(1)], route.path)
        found += [(route.name, method, url) for method in sorted(methods - {"HEAD"})]
    assert {name for name, _, _ in found} >= KINDS
    return sorted(found, key=lambda request: request[0] == "logout")


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param("session", marks=pytest.mark.panel_auth("session")),
        pytest.param("jwt", marks=pytest.mark.panel_auth("jwt")),
    ],
)
def test_every_route_needs_a_login(
    app: FastAPI, anonymous: TestClient, client: TestClient, mode: str
) -> None:
    for name, method, url in guarded_requests(app):
        refused = anonymous.request(method, url, json={})
        assert refused.status_code == 401, (name, method, url)
        assert refused.json() == {"message": "Unauthenticated."}
        if mode == "jwt":
            assert refused.headers["www-authenticate"] == "Bearer"
        answered = client.request(method, url, json={})
        assert answered.status_code != 401, (name, method, url)
        assert answered.status_code < 500, (name, method, url, answered.text)
        if name == "logout":
            authorize(client, EMAIL, PASSWORD)  # logged out: in again


def test_the_public_routes_answer_strangers(anonymous: TestClient) -> None:
    for url in ("/admin/login", "/docs", f"/{SPEC_ROUTE}", "/docs/assets/docs.js"):
        assert anonymous.get(url).status_code == 200, url
    assert anonymous.post("/admin/authenticate", json={}).status_code == 422
