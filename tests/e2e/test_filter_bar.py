"""The filter bar in Chromium, on both frameworks: the rows the JSON API answers.

The library panel of each framework is served with 30 books (every third titled
"… Silva …", published twenty days apart). Through the page's own controls a user sets
a date range and a "contains" text filter: the table lists exactly the titles the JSON
list answers for the same parameters. Removing a chip (a plain link) drops that filter
alone; the per-page choice shows that many rows and keeps the filters applied. Rows
are read with Playwright's retrying ``expect``, never right after a click.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
EMAIL = "filters@example.com"
PASSWORD = "a long password for filters"
BOOKS = "/admin/resource/book-resource/index-page"
CRUD = "/admin/resource/book-resource/crud"
FIRST_DAY = datetime.date(2020, 1, 1)
COUNT = 30


def _title(n: int) -> str:
    return f"Book {n:02d} Silva" if n % 3 == 0 else f"Book {n:02d}"


@pytest.fixture(params=FRAMEWORKS)
def server(
    request: pytest.FixtureRequest, generated, fresh_copy, tmp_path: Path
) -> Iterator[Server]:
    """The library panel of one framework with 30 books, served on loopback."""
    project = fresh_copy(generated("library", request.param))
    served = SERVERS[request.param](project, f"sqlite:///{tmp_path / 'f.db'}")
    served.run_app("migrate")
    served.create_user(EMAIL, PASSWORD)
    served.start()
    try:
        with _api(served) as api:
            for n in range(1, COUNT + 1):
                day = FIRST_DAY + datetime.timedelta(days=20 * n)
                book = {"title": _title(n), "published_on": day.isoformat()}
                made = api.post(CRUD, json={**book, "pages": n})
                assert made.status_code == 201, made.text
        yield served
    finally:
        served.stop()


@contextmanager
def _api(server: Server) -> Iterator[httpx.Client]:
    """A JSON client of ``server``, logged in for a session."""
    json = {"Accept": "application/json"}
    with httpx.Client(base_url=server.base_url, headers=json, timeout=15) as client:
        credentials = {"username": EMAIL, "password": PASSWORD}
        answer = client.post("/admin/authenticate", json=credentials)
        assert answer.status_code == 200, answer.text
        client.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
        yield client


def _json_titles(server: Server, query: str) -> list[str]:
    """The titles of the JSON list's first page for the query string of a page,
    without the blank inputs the page's form sent (the page ignores them)."""
    with _api(server) as api:
        listed = api.get(CRUD, params=parse_qsl(query))
        assert listed.status_code == 200, listed.text
        return [row["title"] for row in listed.json()["data"]]


@pytest.fixture
def tab(server: Server) -> Iterator[Any]:
    """A logged-in Chromium tab of the served panel."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        context = browser.new_context(base_url=server.base_url)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("console", lambda m: _console(m, problems))
        page.goto("/admin/login")
        page.fill("#username", EMAIL)
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        sync_api.expect(page).to_have_url(re.compile(r"/admin$"))
        yield page
        browser.close()
    assert problems == []


def _console(message: Any, problems: list[str]) -> None:
    """An error the page logged; a missing ``/favicon.ico`` is not one."""
    where = message.location.get("url", "")
    if message.type == "error" and not where.endswith("/favicon.ico"):
        problems.append(f"{message.text} ({where})")


def _expect_titles(page: Any, titles: list[str]) -> None:
    """Waits until the table lists exactly ``titles`` (the title is column 3)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    rows = page.locator("table.records tbody tr td:nth-child(3)")
    sync_api.expect(rows).to_have_text(titles)


def _expect_query(page: Any, pattern: str) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect(page).to_have_url(re.compile(pattern))


def test_a_date_range_and_a_contains_filter_list_what_the_json_api_answers(
    tab: Any, server: Server
) -> None:
    tab.goto(BOOKS)
    tab.fill("input[name='filter[published_on][from]']", "2020-06-01")
    tab.fill("input[name='filter[published_on][to]']", "2021-06-30")
    tab.fill("input[name='filter[title][contains]']", "silva")
    tab.click("form.toolbar button:has-text('Apply')")
    _expect_query(tab, r"filter%5Btitle%5D%5Bcontains%5D=silva")
    query = urlsplit(tab.url).query
    expected = _json_titles(server, query)
    # Published twenty days apart from 2020-01-21: books 8 to 27 are in the range.
    assert expected == [_title(n) for n in range(27, 7, -1) if n % 3 == 0]
    _expect_titles(tab, expected)
    sync_api = pytest.importorskip("playwright.sync_api")
    chips = tab.locator("a.chip")
    sync_api.expect(chips).to_have_count(3)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    shot = SCREENSHOTS / f"{server.framework}-filter-bar.png"
    tab.screenshot(path=str(shot), full_page=True)
    # Removing the "to" chip keeps the other two filters.
    tab.click("a.chip:has-text('Published on to')")
    _expect_query(tab, r"^(?!.*published_on%5D%5Bto).*filter%5Btitle")
    sync_api.expect(chips).to_have_count(2)
    expected = _json_titles(server, urlsplit(tab.url).query)
    assert expected == [_title(n) for n in range(COUNT, 7, -1) if n % 3 == 0]
    _expect_titles(tab, expected)


def test_the_per_page_choice_shows_that_many_rows_and_keeps_the_filters(
    tab: Any, server: Server
) -> None:
    tab.goto(BOOKS)
    tab.select_option("form.per-page select[name=per_page]", "10")
    tab.click("form.per-page button:has-text('Show')")
    _expect_query(tab, r"per_page=10")
    _expect_titles(tab, [_title(n) for n in range(COUNT, COUNT - 10, -1)])
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect(tab.locator("nav.pagination a", has_text="3")).to_have_count(1)
    # A filter applied now keeps the per-page choice, and the choice the filter.
    tab.fill("input[name='filter[pages][from]']", "5")
    tab.click("form.toolbar button:has-text('Apply')")
    _expect_query(tab, r"filter%5Bpages%5D%5Bfrom%5D=5")
    _expect_query(tab, r"per_page=10")
    expected = _json_titles(server, urlsplit(tab.url).query)
    assert expected == [_title(n) for n in range(COUNT, COUNT - 10, -1)]
    _expect_titles(tab, expected)
    tab.select_option("form.per-page select[name=per_page]", "25")
    tab.click("form.per-page button:has-text('Show')")
    _expect_query(tab, r"per_page=25")
    _expect_query(tab, r"filter%5Bpages%5D%5Bfrom%5D=5")
    _expect_titles(tab, [_title(n) for n in range(COUNT, 5, -1)])
