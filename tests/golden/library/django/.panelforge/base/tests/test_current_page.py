"""The current-page checks, for each named route a request can match.

This module is also the URLconf of its tests (``pytest.mark.urls``): the panel's
routes, plus the kernel's routes again under ``/probe`` in the ``panel`` namespace,
each answering what ``is_now_on_*()`` say during the request. The panel's middleware
records the route, as it does for every panel view. The async method route, a real
panel route, is checked through the resource's own ``where`` method.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import URLPattern, include, path

from panel.responses import json_response
from panel.urls import django_route
from panel_core.routes import ROUTES
from tests.cases import NOWHERE, PAGE_CHECKS_BY_ROUTE, PAGE_CHECKS_IN_METHODS
from tests.gadget_parts import page_checks
from tests.gadgets import (
    GadgetResource,
    json_client,
    serve_gadgets,
)

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.urls(__name__),
    pytest.mark.usefixtures("gadgets"),
]


class OtherResource(GadgetResource):
    """Another resource: on its routes, the gadgets' checks say nowhere."""

    uri = "other-resource"


@pytest.fixture
def gadgets(monkeypatch: pytest.MonkeyPatch, gadget_db_table: None) -> Iterator[None]:
    """The panel serving the tests' resource and another one."""
    yield from serve_gadgets(monkeypatch, (GadgetResource, OtherResource))


def _probe(request: HttpRequest, **params: str) -> HttpResponse:
    return json_response(page_checks(GadgetResource()))


def _probe_patterns() -> list[URLPattern]:
    return [
        path(django_route(pattern), _probe, name=name)
        for name, route in ROUTES.items()
        for pattern in route.patterns
    ]


urlpatterns = [
    path("probe/", include((_probe_patterns(), "panel"))),
    path("admin", include("panel.urls")),
]


@pytest.fixture
def client() -> Client:
    """A logged-in JSON client."""
    return json_client()


@pytest.mark.parametrize(
    ("method", "route", "expected"),
    PAGE_CHECKS_BY_ROUTE,
)
def test_checks_answer_for_the_route(
    client: Client, method: str, route: str, expected: dict[str, bool]
) -> None:
    response = client.generic(method, f"/probe/admin/{route}".rstrip("/"))
    assert response.status_code == 200, response.content
    assert response.json() == expected


def test_outside_a_request_every_check_is_false() -> None:
    assert page_checks(GadgetResource()) == NOWHERE


@pytest.mark.parametrize(("page", "expected"), PAGE_CHECKS_IN_METHODS)
def test_an_async_method_knows_the_page_it_was_called_from(
    client: Client, page: str, expected: dict[str, bool]
) -> None:
    response = client.post(f"/admin/method/{page}/gadget-resource?method=where")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "message": "Done.",
        "messageType": "success",
        "route": "method",
        **expected,
    }
