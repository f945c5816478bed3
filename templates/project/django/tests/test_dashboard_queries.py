"""The dashboard reads the database as many times whatever rows its resources hold."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.gadget_parts import URI
from tests.gadgets import add_gadgets
from tests.sessions import signed_in

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gadgets")]

DASHBOARD = "/admin/dashboard"


@pytest.fixture
def person(settings: Any) -> Client:
    return signed_in(settings)


def _queries(person: Client, count: int) -> int:
    """How many queries the dashboard runs; it counts ``count`` gadgets."""
    with CaptureQueriesContext(connection) as queries:
        response = person.get(DASHBOARD, headers={"Accept": "application/json"})
    assert response.status_code == 200, response.content
    (found,) = response.json()["resources"]
    assert (found["uri"], found["count"]) == (URI, count)
    assert len(found["latest"]) == min(count, 5)
    return len(queries)


def test_the_dashboard_runs_as_many_queries_for_2_rows_as_for_20(
    person: Client,
) -> None:
    add_gadgets(2)
    few = _queries(person, 2)
    add_gadgets(18)
    assert _queries(person, 20) == few
    assert "Add Gadget" in person.get("/admin").content.decode()
