"""Pages people can reach: a phone's width, dark mode, the keyboard, and axe-core.

The library panel of each framework is served with an author and books whose titles
are long. In Chromium every page a user meets in a record's life (home, list, create
form, the form after a failed save, detail, the delete confirmation):

- fits a 390 px wide phone: the document is never wider than the viewport (the list
  turns into one card per row);
- has no serious or critical axe-core violation, in light and in dark mode
  (axe-core, pinned, installed once from the npm registry);
- follows the system's dark mode (the page's ground is dark), with screenshots of
  each page in both modes saved under ``test-artifacts/screenshots/reach/``;
- starts with a skip link: the first Tab reaches it, Enter moves focus to the
  content; a focused input shows a ring of at least 3:1 against the page.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server
from tool_cache import npm_packages

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots" / "reach"
AXE = ("axe-core@4.10.3",)
EMAIL = "reach@example.com"
PASSWORD = "a long password for reach"
BOOKS = "/admin/resource/book-resource"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LONG_TITLE = "The Left Hand of Darkness, with an Introduction and Notes by the Editors"


@pytest.fixture(scope="module")
def axe_script() -> Path:
    return npm_packages(AXE) / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module", params=FRAMEWORKS)
def server(
    request: pytest.FixtureRequest, generated, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """The library panel of one framework with an author and three books, served
    for the module's tests (they read; a failed save writes nothing)."""
    folder = tmp_path_factory.mktemp(f"reach-{request.param}")
    project = folder / "project"
    shutil.copytree(generated("library", request.param), project)
    served = SERVERS[request.param](project, f"sqlite:///{folder / 'r.db'}")
    served.run_app("migrate")
    served.create_user(EMAIL, PASSWORD)
    served.start()
    try:
        _add_records(served)
        yield served
    finally:
        served.stop()


def _add_records(server: Server) -> None:
    json = {"Accept": "application/json"}
    with httpx.Client(base_url=server.base_url, headers=json, timeout=15) as api:
        credentials = {"username": EMAIL, "password": PASSWORD}
        answer = api.post("/admin/authenticate", json=credentials)
        assert answer.status_code == 200, answer.text
        api.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
        author = {"name": "Ursula K. Le Guin", "email": "ursula@example.com"}
        made = api.post("/admin/resource/author-resource/crud", json=author)
        assert made.status_code == 201, made.text
        for n in range(3):
            book = {
                "title": f"{LONG_TITLE} {n}",
                "isbn": f"978000000000{n}",
                "pages": 300 + n,
                "price": "12.50",
                "genre": "fiction",
                "published_on": "1969-03-01",
                "summary": "A summary long enough to wrap on a phone " * 4,
                "author": made.json()["data"]["id"],
            }
            made_book = api.post(f"{BOOKS}/crud", json=book)
            assert made_book.status_code == 201, made_book.text


@pytest.fixture
def browser(server: Server) -> Iterator[Callable[..., Any]]:
    """Opens logged-in tabs of ``server`` with a viewport and a color scheme."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )

        def open_tab(viewport: dict[str, int], scheme: str = "light") -> Any:
            context = chromium.new_context(
                base_url=server.base_url,
                viewport=viewport,
                color_scheme=scheme,
                bypass_csp=True,  # axe-core is injected as an inline script
            )
            page = context.new_page()
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.goto("/admin/login")
            page.fill("#username", EMAIL)
            page.fill("#password", PASSWORD)
            page.click("button[type=submit]")
            sync_api.expect(page).to_have_url(re.compile(r"/admin$"))
            return page

        yield open_tab
        chromium.close()
    assert problems == []


# An import whose preview lists errors (the page answers 422).
_BAD_CSV = b"title,pages\nFine,10\n,0\nA title long enough to wrap on a phone,-1\n"


def _walk(page: Any) -> Iterator[str]:
    """Visits each page of a record's life; yields its name once it has loaded."""
    sync_api = pytest.importorskip("playwright.sync_api")
    page.goto("/admin")
    yield "home"
    page.goto(f"{BOOKS}/index-page")
    sync_api.expect(page.locator("table.records tbody tr")).to_have_count(3)
    yield "index"
    page.goto(f"{BOOKS}/form-page")
    yield "create"
    page.fill("#field-title", "   ")
    page.click("form.record-form button[type=submit]")
    sync_api.expect(page.locator(".field.has-error").first).to_be_visible()
    yield "create-errors"
    page.goto(f"{BOOKS}/index-page")
    page.locator("table.records tbody tr").first.get_by_role(
        "link", name="View"
    ).click()
    sync_api.expect(page.locator("dl.record")).to_be_visible()
    yield "detail"
    page.locator(".page-head form button.danger").click()
    sync_api.expect(page.get_by_role("button", name="Yes, delete")).to_be_visible()
    yield "delete-confirmation"
    page.goto(f"{BOOKS}/import-page")
    yield "import"
    upload = {"name": "books.csv", "mimeType": "text/csv", "buffer": _BAD_CSV}
    page.set_input_files("#import-file", files=[upload])
    page.click("form.upload button[type=submit]")
    sync_api.expect(page.locator("table.import-errors")).to_be_visible()
    yield "import-preview"


def _shoot(page: Any, server: Server, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    framework = "django" if (server.project / "manage.py").exists() else "fastapi"
    page.screenshot(path=str(SCREENSHOTS / f"{framework}-{name}.png"), full_page=True)


def test_every_page_fits_a_phone(server: Server, browser: Callable[..., Any]) -> None:
    page = browser(PHONE)
    widths = {}
    for name in _walk(page):
        widths[name] = page.evaluate("document.documentElement.scrollWidth")
        _shoot(page, server, f"phone-{name}")
    assert len(widths) == 8
    assert {name: width for name, width in widths.items() if width > 390} == {}


# Both frameworks serve the same HTML (tests/conformance compare it byte for byte):
# axe walks the light pages of one and the dark pages of the other (CI time).
AXE_SCHEMES = {"fastapi": "light", "django": "dark"}


def test_axe_finds_nothing_serious(
    server: Server, browser: Callable[..., Any], axe_script: Path
) -> None:
    scheme = AXE_SCHEMES[server.framework]
    page = browser(DESKTOP, scheme)
    found: dict[str, list[str]] = {}
    for name in _walk(page):
        page.add_script_tag(path=str(axe_script))
        violations = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ['violations']}))
                .violations
                .filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => v.id + ': ' + v.nodes.slice(0, 3)
                    .map(n => n.target.join(' ')).join(', '))"""
        )
        if violations:
            found[name] = violations
        if scheme == "dark":
            _shoot(page, server, f"dark-{name}")
    assert found == {}


def _luminance(rgb: str) -> float:
    """WCAG relative luminance of a CSS ``rgb(r, g, b)`` value."""
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    high, low = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_dark_mode_follows_the_system(browser: Callable[..., Any]) -> None:
    grounds = {}
    for scheme in ("light", "dark"):
        page = browser(DESKTOP, scheme)
        page.goto(f"{BOOKS}/index-page")
        grounds[scheme] = page.evaluate(
            "getComputedStyle(document.documentElement).backgroundColor"
        )
        ink = page.evaluate("getComputedStyle(document.querySelector('h1')).color")
        assert _contrast(ink, grounds[scheme]) >= 7, (scheme, ink, grounds[scheme])
    assert _luminance(grounds["light"]) > 0.8
    assert _luminance(grounds["dark"]) < 0.05


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_keyboard_skips_to_the_content_and_sees_its_focus(
    browser: Callable[..., Any], scheme: str
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    page = browser(DESKTOP, scheme)
    page.goto(f"{BOOKS}/form-page")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    sync_api.expect(skip).to_be_focused()
    assert skip.bounding_box()["y"] >= 0  # shown once focused
    page.keyboard.press("Enter")
    sync_api.expect(page.locator("main#content")).to_be_focused()
    page.keyboard.press("Tab")
    focused = page.evaluate(
        """() => { const e = document.activeElement, s = getComputedStyle(e);
                   return [e.tagName, s.outlineStyle, parseFloat(s.outlineWidth),
                           s.outlineColor, getComputedStyle(
                               document.documentElement).backgroundColor]; }"""
    )
    tag, style, width, ring, ground = focused
    assert tag in {"A", "INPUT", "SELECT", "TEXTAREA", "BUTTON"}, focused
    assert style != "none" and width >= 2, focused
    assert _contrast(ring, ground) >= 3, focused


def test_a_failed_save_says_where_and_focuses_the_field(
    browser: Callable[..., Any],
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    page = browser(DESKTOP)
    page.goto(f"{BOOKS}/form-page")
    page.fill("#field-title", "   ")
    page.fill("#field-pages", "0")
    # The server's checks, not the browser's (min="1" would stop the submit here).
    page.evaluate("document.querySelector('form.record-form').noValidate = true")
    page.click("form.record-form button[type=submit]")
    summary = page.locator(".error-summary a")
    sync_api.expect(summary).to_have_count(2)
    title = page.locator("#field-title")
    sync_api.expect(title).to_be_focused()  # the first field in error
    assert title.get_attribute("aria-invalid") == "true"
    said = page.evaluate("""() => document.getElementById('field-title')
                 .getAttribute('aria-describedby').split(' ')
                 .map(id => document.getElementById(id).textContent.trim())""")
    assert said == ["The Title field is required."]
    summary.nth(1).click()
    assert page.evaluate("location.hash") == "#field-pages"
    pages_said = page.locator("#field-pages-error").inner_text()
    assert "1" in pages_said, pages_said
    # Post/redirect/get: the page is the form's, so a reload posts nothing again
    # and shows the form afresh.
    assert page.evaluate("location.pathname") == f"{BOOKS}/form-page"
    page.reload()
    sync_api.expect(page.locator(".error-summary")).to_have_count(0)
    assert page.input_value("#field-pages") == ""
