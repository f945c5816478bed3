"""The dashboard reads the database as many times whatever rows its resources hold."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import event, insert

from tests.gadget_parts import URI
from tests.gadgets import Gadget, gadget_app

pytestmark = pytest.mark.panel_auth("session")

DASHBOARD = "/admin/dashboard"


@pytest.fixture
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource alone."""
    yield from gadget_app(app)


def _add(app: FastAPI, count: int) -> None:
    same = {"active": True, "kind": "tool", "released_on": datetime.date(2024, 2, 29)}
    rows = [{"name": f"Gadget {n}", "stock": n, **same} for n in range(count)]
    with app.state.engine.begin() as connection:
        connection.execute(insert(Gadget), rows)


def _statements(app: FastAPI, browser: TestClient, count: int) -> int:
    """How many statements the dashboard runs; it counts ``count`` gadgets."""
    run: list[Any] = []

    def counted(*_args: Any) -> None:
        run.append(1)

    event.listen(app.state.engine, "before_cursor_execute", counted)
    try:
        response = browser.get(DASHBOARD, headers={"Accept": "application/json"})
    finally:
        event.remove(app.state.engine, "before_cursor_execute", counted)
    assert response.status_code == 200, response.text
    (found,) = response.json()["resources"]
    assert (found["uri"], found["count"]) == (URI, count)
    assert len(found["latest"]) == min(count, 5)
    return len(run)


def test_the_dashboard_runs_as_many_statements_for_2_rows_as_for_20(
    app: FastAPI, browser: TestClient
) -> None:
    _add(app, 2)
    few = _statements(app, browser, 2)
    _add(app, 18)
    assert _statements(app, browser, 20) == few
    assert "Add Gadget" in browser.get("/admin").text
