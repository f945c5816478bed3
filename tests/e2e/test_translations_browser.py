"""The panel in German, in Chromium, on both frameworks.

One project per framework is generated from ``conformance/formatting/shelf.yaml`` and
served with the default settings. A Chromium whose locale is German (so it sends
``Accept-Language: de-DE``) logs in on the German login page, walks the home page,
the list and the form, is told in German what is missing, saves and reads the German
message. Screenshots of each page are saved under
``test-artifacts/screenshots/translations/`` (``<framework>-<page>.png``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge

pytestmark = pytest.mark.e2e

MANIFEST = REPO / "tests" / "conformance" / "formatting" / "shelf.yaml"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots" / "translations"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "owner@example.com"
PASSWORD = "a long shelf owner password"
EDITIONS = "/admin/resource/edition-resource"


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    """Both frameworks' shelves, served for the whole module."""
    started: dict[str, Server] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"translations-browser-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(MANIFEST), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'shelf.db'}")
            server.migrate()
            server.create_user(EMAIL, PASSWORD)
            server.start()
            started[framework] = server
        yield started
    finally:
        for server in started.values():
            server.stop()


def _expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def _shot(page: Any, framework: str, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{framework}-{name}.png"), full_page=True)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_german_browser_gets_the_panel_in_german(
    servers: dict[str, Server], framework: str
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    expect, problems = _expect(), []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        context = browser.new_context(
            base_url=servers[framework].base_url, locale="de-DE"
        )
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto("/admin/login")
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("h1")).to_have_text("Anmelden")
        _shot(page, framework, "login")
        page.fill("#username", EMAIL)
        page.fill("#password", "not the password at all")
        page.get_by_role("button", name="Anmelden").click()
        expect(page.locator(".error")).to_contain_text(
            "Diese Zugangsdaten stimmen nicht mit unseren Daten überein."
        )
        page.fill("#password", PASSWORD)
        page.get_by_role("button", name="Anmelden").click()
        assert urlsplit(page.url).path == "/admin"
        expect(page.get_by_role("button", name="Abmelden")).to_be_visible()
        expect(page.locator(".dashboard-count")).to_have_text("0 Datensätze")
        _shot(page, framework, "home")
        page.get_by_role("link", name="Edition hinzufügen").click()
        expect(page.locator("h1")).to_have_text("Edition anlegen")
        # The browser's own checks off: the server's German messages are the point.
        page.locator("form.record-form").evaluate("form => form.noValidate = true")
        page.get_by_role("button", name="Speichern", exact=True).click()
        expect(page.locator(".error-summary")).to_contain_text(
            "Bitte korrigieren Sie die Fehler unten."
        )
        expect(page.locator("#field-title-error")).to_have_text(
            "Das Feld Title ist erforderlich."
        )
        _shot(page, framework, "form-errors")
        page.fill("#field-title", "Dune")
        page.select_option("#field-binding", "cloth")
        page.get_by_role("button", name="Speichern", exact=True).click()
        assert urlsplit(page.url).path == f"{EDITIONS}/index-page"
        flash = page.locator(".flash-success")
        expect(flash).to_have_text("Edition „Dune (cloth)“ angelegt.")
        expect(page.get_by_role("link", name="CSV exportieren")).to_be_visible()
        expect(page.locator(".table-foot .muted")).to_have_text("1–1 von 1")
        _shot(page, framework, "index")
        browser.close()
    assert problems == []
