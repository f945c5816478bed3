"""Actions in real headless Chromium: select rows, run a bulk action through its form.

The shop of ``tests/conformance/actions`` (a bulk ``archive`` asking for a reason, a
row action ``mark_paid``) is generated for each framework with its hook files, served
on SQLite, and walked as a person would: check two rows, press Archive in the bulk
bar, read the confirmation and the count on the action's page, give the reason it
requires, and see the message on the list; then press a row's Mark paid.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge

pytestmark = pytest.mark.e2e

SHOP = REPO / "tests" / "conformance" / "actions"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "shopkeeper@example.com"
PASSWORD = "a long shopkeeper password"
ORDERS = "/admin/resource/order-resource"


@pytest.fixture(params=FRAMEWORKS)
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    """The shop of one framework, its hooks installed, served with three orders."""
    project = tmp_path / "project"
    result = run_panelforge(
        "generate",
        str(SHOP / "shop.yaml"),
        "-o",
        str(project),
        "--framework",
        request.param,
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    for hook in (SHOP / request.param).glob("*.py"):
        shutil.copyfile(hook, project / "app" / "hooks" / hook.name)
    served = SERVERS[request.param](project, f"sqlite:///{tmp_path / 'shop.db'}")
    served.run_app("migrate")
    served.create_user(EMAIL, PASSWORD)
    served.start()
    try:
        _add_orders(served, "Ada", "Brian", "Cleo")
        yield served
    finally:
        served.stop()


def _add_orders(server: Server, *customers: str) -> None:
    with httpx.Client(base_url=server.base_url, timeout=15) as client:
        credentials = {"username": EMAIL, "password": PASSWORD}
        token = client.post("/admin/authenticate", json=credentials).json()
        headers = {"X-CSRF-Token": token["csrf_token"]}
        for customer in customers:
            answer = client.post(
                f"{ORDERS}/crud", json={"customer": customer}, headers=headers
            )
            assert answer.status_code == 201, answer.text


@pytest.fixture
def page(server: Server) -> Iterator[Any]:
    """A Chromium tab on the served shop; every dialog is confirmed."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        context = browser.new_context(base_url=server.base_url)
        tab = context.new_page()
        tab.on("dialog", lambda dialog: dialog.accept())
        yield tab
        browser.close()


def _log_in(page: Any) -> Any:
    expect = pytest.importorskip("playwright.sync_api").expect
    page.goto("/admin")
    page.fill("#username", EMAIL)
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator(".who")).to_have_text(EMAIL)
    return expect


def test_a_bulk_action_with_a_form_and_a_row_action(page: Any) -> None:
    expect = _log_in(page)
    page.goto(f"{ORDERS}/index-page")
    for customer in ("Ada", "Cleo"):
        page.locator("tr", has_text=customer).locator("input[type=checkbox]").check()
    page.click(".bulk-bar button:has-text('Archive')")
    form = page.locator("form.action-form")
    expect(form.locator(".action-confirm")).to_have_text("Archive the selected?")
    expect(form.locator(".action-count")).to_contain_text("runs on 2 records")
    # The reason is required: the browser asks for it (the 422 is the API tests').
    expect(form.locator("#field-reason")).to_have_attribute("required", "")
    form.locator("#field-reason").fill("duplicates")
    form.locator("button[type=submit]").click()
    expect(page.locator(".flash-success")).to_have_text(
        f"2 archived by {EMAIL}: duplicates"
    )
    assert urlsplit(page.url).path == f"{ORDERS}/index-page"
    page.locator("tr", has_text="Brian").locator("button:has-text('Mark paid')").click()
    expect(page.locator(".flash-success")).to_have_text("Mark paid: 1 record.")
    page.locator("tr", has_text="Brian").locator("text=View").click()
    expect(page.locator("dl.record")).to_contain_text("paid")


def _statuses(page: Any) -> dict[str, str]:
    """Each listed order's customer and status."""
    found = {}
    for row in page.locator("table.records tbody tr").all():
        customer = row.locator("td[data-label=Customer]").inner_text().strip()
        found[customer] = row.locator("td[data-label=Status]").inner_text().strip()
    return found


def test_bulk_update_sets_a_field_on_the_selected_then_on_all_matching(
    page: Any,
) -> None:
    expect = _log_in(page)
    page.goto(f"{ORDERS}/index-page")
    for customer in ("Ada", "Brian"):
        page.locator("tr", has_text=customer).locator("input[type=checkbox]").check()
    page.click(".bulk-bar button:has-text('Set status')")
    form = page.locator("form.action-form")
    expect(form.locator(".action-count")).to_contain_text("runs on 2 records")
    form.locator("#field-status").select_option("shipped")
    form.locator("button[type=submit]").click()
    expect(page.locator(".flash-success")).to_have_text("Set status: 2 records.")
    assert _statuses(page) == {"Ada": "shipped", "Brian": "shipped", "Cleo": "new"}

    page.check(".bulk-bar input[name=all]")  # every order the list matches
    page.click(".bulk-bar button:has-text('Set status')")
    expect(form.locator(".action-count")).to_contain_text("runs on 3 records")
    form.locator("#field-status").select_option("paid")
    form.locator("button[type=submit]").click()
    expect(page.locator(".flash-success")).to_have_text("Set status: 3 records.")
    assert set(_statuses(page).values()) == {"paid"}
