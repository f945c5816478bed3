"""The current-page checks, for each named route a request can match.

A test-only router registers the kernel's routes under ``/probe`` with the panel's
guards (but authorization); each answers what ``is_now_on_*()`` say during the request. The async method
route, a real panel route, is checked through the resource's own ``where`` method.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.testclient import TestClient

from app.panel.auth import authenticated
from app.panel.current import remember_route
from app.panel.responses import json_response
from panel_core.routes import ROUTES
from tests.cases import NOWHERE, PAGE_CHECKS_BY_ROUTE, PAGE_CHECKS_IN_METHODS
from tests.gadget_parts import page_checks
from tests.gadgets import GadgetResource, gadget_app


async def _probe(request: Request) -> Response:
    return json_response(page_checks(GadgetResource()))


def _probe_router() -> APIRouter:
    # The panel's guards but authorization: probes name resources nobody registered.
    router = APIRouter(dependencies=[Depends(authenticated), Depends(remember_route)])
    for name, route in ROUTES.items():
        for path in route.paths:
            router.add_api_route(path, _probe, methods=list(route.methods), name=name)
    return router


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource, plus the probe routes."""
    for application in gadget_app(app):
        application.include_router(_probe_router(), prefix="/probe")
        yield application


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    PAGE_CHECKS_BY_ROUTE,
)
def test_checks_answer_for_the_route(
    client: TestClient, method: str, path: str, expected: dict[str, bool]
) -> None:
    response = client.request(method, f"/probe/{path}".rstrip("/"))
    assert response.status_code == 200, response.text
    assert response.json() == expected


def test_outside_a_request_every_check_is_false() -> None:
    assert page_checks(GadgetResource()) == NOWHERE


@pytest.mark.parametrize(("page", "expected"), PAGE_CHECKS_IN_METHODS)
def test_an_async_method_knows_the_page_it_was_called_from(
    client: TestClient, page: str, expected: dict[str, bool]
) -> None:
    response = client.post(
        f"/admin/method/{page}/gadget-resource", params={"method": "where"}
    )
    assert response.status_code == 200, response.text
    assert response.json() == {
        "message": "Done.",
        "messageType": "success",
        "route": "method",
        **expected,
    }
