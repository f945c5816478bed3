"""Async methods, components and stand-alone pages, on the tests' own resource."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client

from panel.registry import PanelResource
from panel.views import methods as views
from tests.gadgets import json_client
from tests.sessions import use_sessions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gadgets")]

METHOD = "/admin/method/index-page/gadget-resource"


@pytest.fixture
def client() -> Client:
    """A logged-in JSON client."""
    return json_client()


def test_a_method_answers_its_message(client: Client) -> None:
    response = client.post(f"{METHOD}?method=restock&n=3")
    assert response.status_code == 200
    assert response.json() == {"message": "Restocked 3.", "messageType": "success"}


def test_a_method_without_answer_gets_the_requested_message(client: Client) -> None:
    response = client.post(f"{METHOD}?method=count&message=Counted!")
    assert response.json() == {"message": "Counted!", "messageType": "success"}
    plain = client.post(f"{METHOD}?method=count")
    assert plain.json() == {"message": "Done.", "messageType": "success"}


def test_an_async_def_method_is_awaited(client: Client) -> None:
    response = client.post(f"{METHOD}?method=later")
    assert response.json() == {"message": "Later.", "messageType": "success"}


def test_a_response_passes_through(client: Client) -> None:
    response = client.post(f"{METHOD}?method=download")
    assert response["Content-Type"].startswith("text/csv")
    assert response.content == b"a,b\n"


def test_a_value_error_is_422(client: Client) -> None:
    response = client.post(f"{METHOD}?method=refuse")
    assert response.status_code == 422
    assert response.json() == {
        "message": "The stock is locked.",
        "errors": {"refuse": ["The stock is locked."]},
        "messageType": "error",
    }


@pytest.mark.parametrize("name", ["nope", "not_a_method", "url", "__class__", ""])
def test_only_declared_methods_are_callable(client: Client, name: str) -> None:
    response = client.post(f"{METHOD}?method={name}")
    assert response.status_code == 404
    assert response.json() == {"message": f"Method {name!r} not found"}


def test_methods_need_a_page_of_the_resource(client: Client) -> None:
    response = client.post("/admin/method/no-page/gadget-resource?method=restock")
    assert response.status_code == 404
    assert response.json() == {"message": "Page not found"}
    other = client.post("/admin/method/index-page/nope?method=restock")
    assert other.status_code == 404
    assert other.json() == {"message": "Resource not found"}


def test_methods_refuse_other_http_methods(client: Client) -> None:
    response = client.generic("TRACE", f"{METHOD}?method=restock")
    assert response.status_code == 405
    assert response["Allow"] == "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT"


def test_methods_answer_any_method_but_always_need_the_csrf_token(
    settings: Any,
) -> None:
    use_sessions(settings)  # bearer tokens need no CSRF token
    client = json_client()
    for verb in ("GET", "POST", "PUT", "PATCH", "DELETE"):
        response = client.generic(verb, f"{METHOD}?method=restock")
        assert response.status_code == 200, (verb, response.content)
    refused = client.get(f"{METHOD}?method=restock", headers={"X-CSRF-Token": ""})
    assert refused.status_code == 403
    assert refused.json() == {"message": "CSRF token mismatch."}


def test_a_stand_alone_page_has_methods_and_a_page(client: Client) -> None:
    response = client.post("/admin/method/report-page?method=rebuild")
    assert response.json() == {"message": "Rebuilt.", "messageType": "info"}
    page = client.get("/admin/page/report-page", headers={"Accept": "text/html"})
    assert page.status_code == 200
    assert "<h1>Reports</h1>" in page.content.decode()
    assert client.get("/admin/page/nope").status_code == 404


def test_a_component_is_the_pages_fragment(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, str, str]] = []

    def fragment(
        request: HttpRequest, panel: PanelResource, name: str, page_uri: str
    ) -> HttpResponse:
        calls.append((panel.uri, page_uri, name))
        return HttpResponse("<table></table>")

    monkeypatch.setattr(views, "render_fragment", fragment)
    response = client.get(
        "/admin/component/index-page/gadget-resource?_component_name=table"
    )
    assert response.content == b"<table></table>"
    assert calls == [("gadget-resource", "index-page", "table")]
    assert client.get("/admin/component/report-page").status_code == 404
    refused = client.post("/admin/component/index-page/gadget-resource")
    assert refused.status_code == 405
    assert refused["Allow"] == "GET, HEAD, OPTIONS"
