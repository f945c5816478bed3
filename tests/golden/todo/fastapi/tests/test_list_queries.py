"""A filtered index page reads the database as many times whatever rows it shows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.gadget_parts import URI
from tests.gadgets import add_gadgets, gadget_app, statements_run

# Pages are for people, who log in with sessions: tested so in JWT projects too.
pytestmark = pytest.mark.panel_auth("session")

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
def app(app: FastAPI) -> Iterator[FastAPI]:
    """The tests' resource alone."""
    yield from gadget_app(app)


def _statements(app: FastAPI, browser: TestClient) -> int:
    """How many statements the filtered index page runs."""
    with statements_run(app) as run:
        response = browser.get(PAGE, params=FILTERED)
    assert response.status_code == 200, response.text
    assert response.text.count('<a class="chip"') == 5
    return len(run)


def test_a_filtered_index_page_runs_as_many_statements_for_2_rows_as_for_20(
    app: FastAPI, browser: TestClient
) -> None:
    add_gadgets(app, 2)
    few = _statements(app, browser)
    add_gadgets(app, 18)
    assert browser.get(PAGE, params=FILTERED).text.count('name="ids[]"') == 20
    assert _statements(app, browser) == few
