"""The kernel's route table, its ``url_for``, and the routes FastAPI registers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.core.config import Settings
from app.panel import guards
from app.panel.current import remember_route
from app.panel.urls import crud_url, record_url
from panel_core.routes import (
    ANY,
    ROUTES,
    RouteError,
    placeholders,
    uri_key,
    url_for,
)
from tests.gadgets import gadget_app
from tests.helpers import EMAIL, PASSWORD, authorize

SAMPLE = {
    "resourceUri": "book-resource",
    "resourceItem": "5",
    "pageUri": "index-page",
    "handlerUri": "export",
    "actionUri": "archive",
    "fieldName": "file",
    "fileId": "0" * 32 + "-a.png",
}
GADGET = {**SAMPLE, "resourceUri": "gadget-resource"}
# Routes that answer without a login (and so without the panel's guards).
PUBLIC = frozenset({"login", "authenticate"})
CASES = [
    pytest.param(name, pattern, id=f"{name} {pattern}")
    for name, route in ROUTES.items()
    for pattern in route.patterns
]


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource alone."""
    yield from gadget_app(app)


@pytest.mark.parametrize(("name", "pattern"), CASES)
def test_fastapi_builds_the_kernel_urls(app: FastAPI, name: str, pattern: str) -> None:
    params = {p: SAMPLE[p] for p in placeholders(pattern)}
    assert app.url_path_for(name, **params) == url_for(name, params)


def test_every_route_answers_its_methods_and_remembers_itself(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, str]] = []

    async def spy(request: Request) -> None:
        seen.append((request.scope["route"].name, request.method))
        await remember_route(request)

    monkeypatch.setattr(guards, "remember_route", spy)
    # Logging out ends the session: last.
    for name in sorted(ROUTES, key=lambda n: n == "logout"):
        route = ROUTES[name]
        for pattern in route.patterns:
            url = url_for(name, {p: GADGET[p] for p in placeholders(pattern)})
            for method in ANY:
                seen.clear()
                client.request(method, url)
                # HEAD runs as GET (app/panel/http_methods.py).
                ran_as = "GET" if method == "HEAD" else method
                remembered = (name, ran_as) in seen
                if name in PUBLIC:
                    assert not seen, (name, method)
                else:
                    assert remembered == (ran_as in route.methods), (url, method)
                if remembered and name == "logout":
                    authorize(client, EMAIL, PASSWORD)  # for the next method


@pytest.mark.parametrize(
    ("name", "params", "query", "expected"),
    [
        ("index", {}, None, "/admin"),
        ("index", {"foo": "bar"}, None, "/admin?foo=bar"),
        (
            "crud.update",
            {"resourceUri": "r", "resourceItem": 5},
            None,
            "/admin/resource/r/crud/5",
        ),
        (
            "crud.show",
            {"resourceUri": "r", "resourceItem": 0},
            None,
            "/admin/resource/r/crud/0",
        ),
        (
            "crud.index",
            {"resourceUri": "r", "empty": "", "none": None},
            None,
            "/admin/resource/r/crud",
        ),
        (
            "crud.index",
            {"resourceUri": "r"},
            {"ids[]": [1, 2]},
            "/admin/resource/r/crud?ids%5B%5D=1&ids%5B%5D=2",
        ),
        (
            "crud.index",
            {"resourceUri": "r"},
            {"filter[active]": False},
            "/admin/resource/r/crud?filter%5Bactive%5D=false",
        ),
        (
            "crud.show",
            {"resourceUri": "a b", "resourceItem": "x/y"},
            None,
            "/admin/resource/a%20b/crud/x%2Fy",
        ),
        (
            "resource.page",
            {"resourceUri": "r", "pageUri": "form-page", "resourceItem": None},
            None,
            "/admin/resource/r/form-page",
        ),
        (
            "resource.page",
            {"resourceUri": "r", "pageUri": "form-page", "resourceItem": 7},
            None,
            "/admin/resource/r/form-page/7",
        ),
        (
            "handler",
            {"resourceUri": "r", "handlerUri": "export"},
            None,
            "/admin/resource/r/handler/export",
        ),
        (
            "handler",
            {"resourceUri": "r"},
            {"handlerUri": "export"},
            "/admin/resource/r/handler?handlerUri=export",
        ),
        (
            "method",
            {"pageUri": "p"},
            {"method": "go", "message": None},
            "/admin/method/p?method=go",
        ),
        (
            "method",
            {"pageUri": "p", "resourceUri": "r"},
            {"method": "go"},
            "/admin/method/p/r?method=go",
        ),
        (
            "component",
            {"pageUri": "p"},
            {"_component_name": "t"},
            "/admin/component/p?_component_name=t",
        ),
        (
            "page",
            {"pageUri": "p", "_fragment-load": "t"},
            None,
            "/admin/page/p?_fragment-load=t",
        ),
    ],
)
def test_url_for(
    name: str, params: dict[str, Any], query: dict[str, Any] | None, expected: str
) -> None:
    assert url_for(name, params, query) == expected


def test_url_for_names_the_route_and_the_missing_parameters() -> None:
    with pytest.raises(RouteError) as error:
        url_for("crud.update", {"resourceItem": 5})
    assert str(error.value) == "No URL for route 'crud.update': missing resourceUri"
    with pytest.raises(RouteError, match="missing resourceUri, resourceItem"):
        url_for("crud.destroy", {"resourceUri": ""})


def test_url_for_an_unknown_route_lists_the_routes() -> None:
    with pytest.raises(RouteError, match="No route named 'crud.edit'; the routes are"):
        url_for("crud.edit")


@pytest.mark.parametrize(
    ("class_name", "key"),
    [
        ("BookResource", "book-resource"),
        ("IndexPage", "index-page"),
        ("HTTPLogResource", "http-log-resource"),
        ("Page2Report", "page2-report"),
    ],
)
def test_uri_keys_are_kebab_case_class_names(class_name: str, key: str) -> None:
    assert uri_key(class_name) == key


def test_the_hot_path_record_url_agrees_with_the_route_table() -> None:
    crud = crud_url("odd uri")
    assert crud == url_for("crud.index", {"resourceUri": "odd uri"})
    assert record_url(crud, "a/b c") == url_for(
        "crud.show", {"resourceUri": "odd uri", "resourceItem": "a/b c"}
    )


@pytest.mark.parametrize(
    ("given", "prefix"),
    [
        ("/admin", "/admin"),
        ("office/panel/", "/office/panel"),
        ("/b-o_1.x", "/b-o_1.x"),
    ],
)
def test_panel_prefix_is_a_path_without_trailing_slash(
    monkeypatch: pytest.MonkeyPatch, given: str, prefix: str
) -> None:
    monkeypatch.setenv("PANEL_PREFIX", given)
    assert Settings().panel_prefix == prefix


@pytest.mark.parametrize("given", ["/", "", "/a b", "/admin?x=1", "//"])
def test_a_panel_prefix_that_is_not_a_path_is_refused(
    monkeypatch: pytest.MonkeyPatch, given: str
) -> None:
    monkeypatch.setenv("PANEL_PREFIX", given)
    with pytest.raises(ValidationError, match="PANEL_PREFIX: The panel's prefix"):
        Settings()
