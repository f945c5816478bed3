"""The dashboard in Chromium, on both frameworks: counts, latest records, Add links.

One project per framework is generated from ``conformance/dashboard/shop.yaml``
(orders in a trash, six metrics), migrated, seeded with three customers and four
orders (one of them trashed) and served. In Chromium (Debian's, driven by Playwright)
the home page's count of each resource equals the total its JSON list answers (read in
the same logged-in browser), the latest orders are linked newest first, and "Add
Order" opens the create form: saved, the new order is counted and listed first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge

pytestmark = pytest.mark.e2e

MANIFEST = REPO / "tests" / "conformance" / "dashboard" / "shop.yaml"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "owner@example.com"
PASSWORD = "a long shop owner password"
URIS = {"Customer": "customer-resource", "Order": "order-resource"}
JSON = {"Accept": "application/json"}


def _seed(database: Path) -> None:
    """Customers 1–3; orders A-1 (open), A-2 (paid), A-3 (open, newest), and a
    fourth, the newest of all, in the trash."""
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "INSERT INTO customers (name) VALUES (?)", [("Ada",), ("Bo",), ("Cy",)]
        )
        connection.executemany(
            "INSERT INTO orders (reference, status, total, items, created_at, "
            "deleted_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                ("A-1", "open", 10.5, 1, "2026-01-01 10:00:00", None),
                ("A-2", "paid", 20.25, 2, "2026-01-02 10:00:00", None),
                ("A-3", "open", 4.5, 3, "2026-01-03 10:00:00", None),
                ("Gone", "open", 99.0, 9, "2026-01-04 10:00:00", "2026-01-05"),
            ],
        )


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    """Both frameworks' shops, seeded and served for the whole module."""
    started: dict[str, Server] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"dashboard-browser-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(MANIFEST), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            database = folder / "shop.db"
            server = SERVERS[framework](project, f"sqlite:///{database}")
            server.migrate()
            server.create_user(EMAIL, PASSWORD)
            _seed(database)
            server.start()
            started[framework] = server
        yield started
    finally:
        for server in started.values():
            server.stop()


@pytest.fixture(params=FRAMEWORKS)
def tab(servers: dict[str, Server], request: pytest.FixtureRequest) -> Any:
    """A logged-in Chromium tab of one framework's panel, on its home page."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        context = browser.new_context(base_url=servers[request.param].base_url)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto("/admin/login")
        page.fill("#username", EMAIL)
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        assert urlsplit(page.url).path == "/admin"
        yield page
        browser.close()
    assert problems == []


def _expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def _json_total(tab: Any, name: str) -> int:
    response = tab.request.get(f"/admin/resource/{URIS[name]}/crud", headers=JSON)
    assert response.ok, response.text()
    total: int = response.json()["total"]
    return total


def _shown_count(tab: Any, name: str) -> int:
    count = tab.locator(f"[data-resource={URIS[name]}] .dashboard-count")
    return int(count.get_attribute("data-count"))


def test_the_counts_equal_the_json_totals(tab: Any) -> None:
    tab.goto("/admin")
    for name in URIS:
        assert _shown_count(tab, name) == _json_total(tab, name), name
    orders = tab.locator(f"[data-resource={URIS['Order']}]")
    _expect()(orders.locator(".latest a")).to_have_text(["A-3", "A-2", "A-1"])
    _expect()(orders.locator(".dashboard-count")).to_have_text("3 records")
    _expect()(orders.locator("[data-metric=open_value] dd")).to_have_text("15.00")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / "dashboard.png"), full_page=True)
    orders.get_by_role("link", name="A-2").click()
    assert urlsplit(tab.url).path.startswith(f"/admin/resource/{URIS['Order']}/")
    _expect()(tab.locator("h1")).to_contain_text("A-2")


def test_an_add_link_opens_the_create_form(tab: Any) -> None:
    tab.goto("/admin")
    before = _json_total(tab, "Order")
    orders = tab.locator(f"[data-resource={URIS['Order']}]")
    orders.get_by_role("link", name="Add Order").click()
    assert urlsplit(tab.url).path == f"/admin/resource/{URIS['Order']}/form-page"
    _expect()(tab.locator("h1")).to_have_text("New Order")
    reference = f"B-{before + 1}"
    tab.fill("#field-reference", reference)
    tab.fill("#field-created_at", "2026-02-01T09:30")
    tab.click("button:has-text('Save')")
    _expect()(tab.locator(".flash-success")).to_be_visible()
    tab.goto("/admin")
    assert _shown_count(tab, "Order") == before + 1 == _json_total(tab, "Order")
    _expect()(orders.locator(".latest a").first).to_have_text(reference)
