"""The dashboard reads the database as many times whatever rows its resources hold."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.gadget_parts import URI
from tests.gadgets import add_gadgets, gadget_app, statements_run

pytestmark = pytest.mark.panel_auth("session")

DASHBOARD = "/admin/dashboard"


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource alone."""
    yield from gadget_app(app)


def _statements(app: FastAPI, browser: TestClient, count: int) -> int:
    """How many statements the dashboard runs; it counts ``count`` gadgets."""
    with statements_run(app) as run:
        response = browser.get(DASHBOARD, headers={"Accept": "application/json"})
    assert response.status_code == 200, response.text
    (found,) = response.json()["resources"]
    assert (found["uri"], found["count"]) == (URI, count)
    assert len(found["latest"]) == min(count, 5)
    return len(run)


def test_the_dashboard_runs_as_many_statements_for_2_rows_as_for_20(
    app: FastAPI, browser: TestClient
) -> None:
    add_gadgets(app, 2)
    few = _statements(app, browser, 2)
    add_gadgets(app, 18)
    assert _statements(app, browser, 20) == few
    assert "Add Gadget" in browser.get("/admin").text
