"""A filtered index page reads the database as many times whatever rows it shows."""

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
    return signed_in(settings)


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
    add_gadgets(2)
    few = _queries(person)
    add_gadgets(18)
    assert person.get(PAGE, FILTERED).content.decode().count('name="ids[]"') == 20
    assert _queries(person) == few
