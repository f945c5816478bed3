"""The dashboard reads the database as many times whatever rows its resources hold."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.gadget_parts import URI
from tests.sessions import browser, form_login, make_user, use_sessions

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("gadgets")]

DASHBOARD = "/admin/dashboard"


@pytest.fixture
def person(settings: Any) -> Client:
    """A browser logged in through the login form."""
    use_sessions(settings)
    make_user()
    client = browser()
    form_login(client)
    return client


def _add(count: int) -> None:
    from tests.gadgets import Gadget  # a model: import once Django is set up

    same = {"active": True, "kind": "tool", "released_on": datetime.date(2024, 2, 29)}
    Gadget.objects.bulk_create(
        Gadget(name=f"Gadget {n}", stock=n, **same) for n in range(count)
    )


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
    _add(2)
    few = _queries(person, 2)
    _add(18)
    assert _queries(person, 20) == few
    assert "Add Gadget" in person.get("/admin").content.decode()
