"""A filtered index page reads the database as many times whatever rows it shows."""

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

PAGE = f"/admin/resource/{URI}/index-page"
# A filter of each kind the bar offers, and chips for each.
FILTERED = {
    "filter[name][contains]": "gadget",
    "filter[stock][from]": "0",
    "filter[released_on][to]": "2030-12-31",
    "filter[kind]": "tool",
    "filter[active]": "true",
    "per_page": "50",
}


@pytest.fixture
def person(settings: Any) -> Client:
    """A browser logged in through the login form (pages are for sessions)."""
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


def _queries(person: Client) -> int:
    """How many queries the filtered index page runs."""
    with CaptureQueriesContext(connection) as queries:
        response = person.get(PAGE, FILTERED)
    assert response.status_code == 200, response.content
    assert response.content.decode().count('<a class="chip"') == 5
    return len(queries)


def test_a_filtered_index_page_runs_as_many_queries_for_2_rows_as_for_20(
    person: Client,
) -> None:
    _add(2)
    few = _queries(person)
    _add(18)
    assert person.get(PAGE, FILTERED).content.decode().count('name="ids[]"') == 20
    assert _queries(person) == few
