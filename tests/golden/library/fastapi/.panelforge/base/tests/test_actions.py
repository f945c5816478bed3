"""Async methods, components and stand-alone pages, on the tests' own resource."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse
from fastapi.testclient import TestClient

from app.panel import views
from app.panel.registry import PanelResource
from tests.gadgets import gadget_app

METHOD = "/admin/method/index-page/gadget-resource"


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource and page alone."""
    yield from gadget_app(app)


def test_a_method_answers_its_message(client: TestClient) -> None:
    response = client.post(METHOD, params={"method": "restock", "n": "3"})
    assert response.status_code == 200
    assert response.json() == {"message": "Restocked 3.", "messageType": "success"}


def test_a_method_without_answer_gets_the_requested_message(
    client: TestClient,
) -> None:
    response = client.post(METHOD, params={"method": "count", "message": "Counted!"})
    assert response.json() == {"message": "Counted!", "messageType": "success"}


def test_a_response_passes_through(client: TestClient) -> None:
    response = client.post(METHOD, params={"method": "download"})
    assert response.headers["content-type"].startswith("text/csv")
    assert response.content == b"a,b\n"


def test_a_value_error_is_422(client: TestClient) -> None:
    response = client.post(METHOD, params={"method": "refuse"})
    assert response.status_code == 422
    assert response.json() == {
        "message": "The stock is locked.",
        "errors": {"refuse": ["The stock is locked."]},
        "messageType": "error",
    }


@pytest.mark.parametrize("name", ["nope", "not_a_method", "url", "__class__", ""])
def test_only_declared_methods_are_callable(client: TestClient, name: str) -> None:
    response = client.post(METHOD, params={"method": name})
    assert response.status_code == 404
    assert response.json() == {"message": f"Method {name!r} not found"}


def test_methods_need_a_page_of_the_resource(client: TestClient) -> None:
    response = client.post(
        "/admin/method/no-page/gadget-resource", params={"method": "restock"}
    )
    assert response.status_code == 404
    other = client.post("/admin/method/index-page/nope", params={"method": "restock"})
    assert other.status_code == 404


@pytest.mark.panel_auth("session")  # bearer tokens need no CSRF token
def test_methods_answer_any_method_but_always_need_the_csrf_token(
    client: TestClient,
) -> None:
    for verb in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        response = client.request(verb, METHOD, params={"method": "restock"})
        assert response.status_code == 200, (verb, response.text)
    refused = client.get(
        METHOD, params={"method": "restock"}, headers={"X-CSRF-Token": ""}
    )
    assert refused.status_code == 403
    assert refused.json() == {"message": "CSRF token mismatch."}


def test_a_stand_alone_page_has_methods_and_a_page(client: TestClient) -> None:
    response = client.post("/admin/method/report-page", params={"method": "rebuild"})
    assert response.json() == {"message": "Rebuilt.", "messageType": "info"}
    page = client.get("/admin/page/report-page", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "<h1>Reports</h1>" in page.text
    assert client.get("/admin/page/nope").status_code == 404


def test_a_component_is_the_pages_fragment(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str, str]] = []

    async def fragment(
        request: Request, panel: PanelResource, page_uri: str, name: str
    ) -> Response:
        calls.append((panel.uri, page_uri, name))
        return HTMLResponse("<table></table>")

    monkeypatch.setattr(views, "render_fragment", fragment)
    response = client.get(
        "/admin/component/index-page/gadget-resource",
        params={"_component_name": "table"},
    )
    assert response.text == "<table></table>"
    assert calls == [("gadget-resource", "index-page", "table")]
    assert client.get("/admin/component/report-page").status_code == 404
