"""The panel's pages in real headless Chromium: what a person does, start to finish.

The library example is generated for each framework (``FRAMEWORKS``), migrated, given
a user and served; Playwright drives Debian's chromium (never a downloaded browser).
Both frameworks' panels must pass the same walk. Screenshots of the index, form and
detail pages land in ``test-artifacts/screenshots/`` (``django-…`` for Django's).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server

pytestmark = pytest.mark.e2e

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
EMAIL = "librarian@example.com"
PASSWORD = "a long librarian password"
BOOKS = "/admin/resource/book-resource/index-page"


@pytest.fixture(params=FRAMEWORKS)
def server(
    request: pytest.FixtureRequest, generated, fresh_copy, tmp_path: Path
) -> Iterator[Server]:
    """The library panel of one framework, served on loopback with one user."""
    project = fresh_copy(generated("library", request.param))
    served = SERVERS[request.param](project, f"sqlite:///{tmp_path / 'b.db'}")
    served.run_app("migrate")
    served.create_user(EMAIL, PASSWORD)
    served.start()
    try:
        yield served
    finally:
        served.stop()


@pytest.fixture(params=[True], ids=["js"])
def javascript(request: pytest.FixtureRequest) -> bool:
    """Whether the tab runs the panel's JavaScript (tests may ask for both)."""
    return bool(request.param)


@pytest.fixture
def page(server: Server, javascript: bool) -> Iterator[Any]:
    """A Chromium tab that may only talk to the served app, confirming every dialog."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    elsewhere: list[str] = []
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        context = browser.new_context(
            base_url=server.base_url,
            viewport={"width": 1280, "height": 800},
            accept_downloads=True,
            java_script_enabled=javascript,
        )
        tab = context.new_page()

        def only_the_app(route: Any) -> None:
            if urlsplit(route.request.url).hostname == "127.0.0.1":
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()

        tab.route("**/*", only_the_app)
        tab.on("dialog", lambda dialog: dialog.accept())
        tab.on("pageerror", lambda error: problems.append(str(error)))
        tab.on("console", lambda m: m.type == "error" and problems.append(m.text))
        yield tab
        browser.close()
    assert elsewhere == []
    # Pages answered with an error status on purpose (a refused form too big to
    # keep in the session: 422; 409 alike) are logged by Chromium; nothing else may
    # be. A refused form is a 303 to its form page otherwise (post/redirect/get).
    expected = ("status of 422", "status of 409")
    assert all(any(e in p for e in expected) for p in problems), problems


Shoot = Callable[[str], None]


@pytest.fixture
def shoot(page: Any, server: Server) -> Shoot:
    """Saves a screenshot of the tab as ``<name>.png`` (``django-<name>.png``…)."""
    prefix = "" if server.framework == "fastapi" else f"{server.framework}-"

    def save(name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{prefix}{name}.png"
        page.screenshot(path=str(path), full_page=True)

    return save


def _titles(page: Any) -> list[str]:
    """The titles listed, once the page a click navigated to has loaded.

    A click returns when its navigation has committed, not when the new document
    has been parsed: reading the rows at once can see none (a flaky empty list).
    """
    page.wait_for_load_state("load")
    return page.locator("table.records tbody tr td:nth-child(3)").all_inner_texts()


def _expect_titles(page: Any, titles: list[str]) -> None:
    """Waits (Playwright's retrying expect) until exactly these titles are listed."""
    sync_api = pytest.importorskip("playwright.sync_api")
    rows = page.locator("table.records tbody tr td:nth-child(3)")
    sync_api.expect(rows).to_have_text(titles)


def _log_in(page: Any) -> None:
    page.goto("/admin")
    assert urlsplit(page.url).path == "/admin/login"
    page.fill("#username", EMAIL.upper())
    page.fill("#password", PASSWORD)
    page.click("button[type=submit]")
    assert urlsplit(page.url).path == "/admin"
    assert page.locator(".who").inner_text() == EMAIL


def _create_author(page: Any, name: str) -> None:
    page.click("nav.sidebar >> text=Authors")
    page.click("text=New Author")
    page.fill("#field-name", name)
    page.fill("#field-website", "https://example.com/herbert")
    page.click("text=Save")
    assert page.locator(".flash-success").inner_text() == f"Author “{name}” created."


def _create_book(page: Any, title: str, genre: str, available: bool) -> None:
    page.goto(BOOKS)
    page.click("text=New Book")
    page.fill("#field-title", title)
    page.fill("#field-isbn", "9780441013593")
    page.fill("#field-pages", "412")
    page.fill("#field-price", "9.99")
    page.select_option("#field-genre", genre)
    page.set_checked("#field-available", available)
    page.fill("#field-published_on", "1965-08-01")
    if title == "Dune":
        # The option reads "Frank Herbert · #<key>": its key tells equal names apart.
        author = page.locator("#field-author option", has_text="Frank Herbert")
        page.select_option("#field-author", author.get_attribute("value"))
    page.click("text=Save")
    assert urlsplit(page.url).path == BOOKS
    assert page.locator(".flash-success").inner_text() == f"Book “{title}” created."


def _sort_search_and_filter(page: Any) -> None:
    page.goto(BOOKS)
    page.click("thead >> text=Title")
    _expect_titles(page, ["Dune", "Neuromancer", "Temp one", "Temp two"])
    page.click("thead >> text=Title")
    _expect_titles(page, ["Temp two", "Temp one", "Neuromancer", "Dune"])
    page.fill("input[name=search]", "neuro")
    page.click("text=Apply")
    _expect_titles(page, ["Neuromancer"])
    page.click("nav.tags >> text=Science")
    _expect_titles(page, ["Dune"])
    page.goto(BOOKS)
    page.select_option("select[name='filter[genre]']", "fiction")
    page.click("text=Apply")
    _expect_titles(page, ["Neuromancer"])


def _edit_with_an_error(page: Any, shoot: Shoot) -> None:
    page.goto(BOOKS + "?sort=title")
    page.locator("tr", has_text="Dune").locator("text=Edit").click()
    assert page.input_value("#field-title") == "Dune"
    shoot("book-form")
    page.fill("#field-isbn", "not an isbn")
    page.fill("#field-title", "Dune Messiah")
    page.click("text=Save")
    error = page.locator(".field.has-error .error")
    assert error.inner_text() == "The Isbn field format is invalid."
    assert page.input_value("#field-title") == "Dune Messiah"
    shoot("book-form-error")
    page.fill("#field-isbn", "9780441172696")
    page.click("text=Save")
    saved = page.locator(".flash-success").inner_text()
    assert saved == "Book “Dune Messiah” saved."
    assert "Dune Messiah" in _titles(page)


def _delete_from_the_detail_page(page: Any, shoot: Shoot) -> None:
    page.locator("tr", has_text="Dune Messiah").locator("text=View").click()
    page.wait_for_load_state("load")
    assert page.locator("dl.record").inner_text().count("Dune Messiah") == 1
    assert page.locator("dl.record a", has_text="Frank Herbert").count() == 1
    shoot("book-detail")
    page.click("button:has-text('Delete')")
    _confirm(page, "Delete Book Dune Messiah?", shoot)
    assert urlsplit(page.url).path == BOOKS
    assert page.locator(".flash-success").inner_text() == "Book “Dune Messiah” deleted."
    assert "Dune Messiah" not in _titles(page)


def _confirm(page: Any, heading: str, shoot: Shoot | None = None) -> None:
    """The page that asks before a delete (no JavaScript dialog): say yes."""
    sync_api = pytest.importorskip("playwright.sync_api")
    sync_api.expect(page.locator("h1")).to_have_text(heading)
    if shoot is not None:
        shoot("delete-confirmation")
    page.get_by_role("button", name="Yes, delete").click()


def _mass_delete(page: Any) -> None:
    for title in ("Temp one", "Temp two"):
        page.locator("tr", has_text=title).locator("input[type=checkbox]").check()
    page.click("text=Delete selected")
    _confirm(page, "Delete 2 Books?")
    assert page.locator(".flash-success").inner_text() == "2 records deleted."
    _expect_titles(page, ["Neuromancer"])


def _export(page: Any) -> None:
    with page.expect_download() as download_info:
        page.click("text=Export CSV")
    text = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("id,title,")
    assert "Neuromancer" in text


def test_a_librarian_manages_books(page: Any, shoot: Shoot) -> None:
    _log_in(page)
    _create_author(page, "Frank Herbert")
    _create_book(page, "Dune", "science", available=True)
    _create_book(page, "Neuromancer", "fiction", available=False)
    _create_book(page, "Temp one", "history", available=True)
    _create_book(page, "Temp two", "history", available=True)
    _sort_search_and_filter(page)
    page.goto(BOOKS + "?sort=title")
    shoot("book-index")
    _edit_with_an_error(page, shoot)
    _delete_from_the_detail_page(page, shoot)
    _mass_delete(page)
    _export(page)
    page.click("text=Log out")
    assert urlsplit(page.url).path == "/admin/login"
    page.goto(BOOKS)
    assert urlsplit(page.url).path == "/admin/login"


# --- import, a stale form and deletes, with JavaScript and without -------------------

AUTHORS = "/admin/resource/author-resource/index-page"


def _names(page: Any) -> list[str]:
    page.wait_for_load_state("load")  # as _titles: the rows once parsed
    return sorted(
        page.locator("table.records tbody tr td:nth-child(3)").all_inner_texts()
    )


def _import(page: Any, tmp_path: Path) -> None:
    """Index → Import → a file with a bad row: its preview lists the error and
    imports nothing; the corrected file's preview counts the rows; confirm."""
    page.goto(AUTHORS)
    page.click("a.button:text-is('Import CSV')")
    page.wait_for_load_state("load")
    assert page.locator("h1").inner_text() == "Import Authors"
    broken = tmp_path / "broken.csv"
    broken.write_text("name,website\nUrsula Le Guin,https://example.com/u\n,nope\n")
    page.set_input_files("#import-file", str(broken))
    page.click("form.upload button[type=submit]")
    page.wait_for_load_state("load")
    errors = page.locator("table.import-errors tbody tr")
    assert errors.count() >= 1
    assert set(errors.locator("td:nth-child(1)").all_inner_texts()) == {"Row 3"}
    assert "1 row cannot be imported" in page.locator(".flash-error").inner_text()
    assert page.locator("form.import-confirm").count() == 0
    good = tmp_path / "authors.csv"  # uploaded again from the preview's form
    good.write_text(
        "name,website\nUrsula Le Guin,https://example.com/u\n"
        "Octavia Butler,https://example.com/o\n"
    )
    page.set_input_files("#import-file", str(good))
    page.click("form.upload button[type=submit]")
    page.wait_for_load_state("load")
    assert page.locator(".to-create").inner_text() == "2"
    assert page.locator(".to-update").inner_text() == "0"
    assert page.locator("table.import-errors").count() == 0
    page.click("form.import-confirm button[type=submit]")
    page.wait_for_load_state("load")
    flash = page.locator(".flash-success").inner_text()
    assert flash == "Imported 2 Authors: 2 created, 0 updated.", flash
    # Ursula once: the refused preview wrote nothing.
    assert _names(page) == ["Octavia Butler", "Ursula Le Guin"]


def _stale_form(page: Any) -> None:
    page.goto(AUTHORS)
    page.locator("tr", has_text="Octavia Butler").locator("text=Edit").click()
    mine = page.url
    other = page.context.new_page()
    other.goto(mine)
    other.fill("#field-name", "Octavia E. Butler")
    other.click("text=Save")
    saved = other.locator(".flash-success").inner_text()
    assert saved == "Author “Octavia E. Butler” saved."
    other.close()
    page.fill("#field-name", "Octavia Estelle Butler")
    page.click("text=Save")
    assert "Someone else saved this" in page.locator(".flash-error").inner_text()
    assert page.url == mine  # post/redirect/get: back on the edit form's URL
    assert page.input_value("#field-name") == "Octavia Estelle Butler"
    assert "Octavia E. Butler" in page.locator(".theirs").inner_text()
    page.get_by_role("button", name="Save", exact=True).click()  # mine, knowingly
    saved = page.locator(".flash-success").inner_text()
    assert saved == "Author “Octavia Estelle Butler” saved."
    assert _names(page) == ["Octavia Estelle Butler", "Ursula Le Guin"]
    _history(page)


def _history(page: Any) -> None:
    """The detail page lists the author's changes, newest first; the home page's
    recent changes name her."""
    page.locator("tr", has_text="Octavia Estelle Butler").locator("text=View").click()
    changes = page.locator("section.history li[data-action]")
    # The click returns once its navigation has committed: wait for the list.
    pytest.importorskip("playwright.sync_api").expect(changes).to_have_count(3)
    actions = [changes.nth(n).get_attribute("data-action") for n in range(3)]
    assert actions == ["updated", "updated", "created"]
    newest = changes.first.inner_text()
    assert "Name: Octavia E. Butler → Octavia Estelle Butler" in newest, newest
    assert f"updated by {EMAIL}" in newest
    page.goto("/admin")
    recent = page.locator("section.recent-changes li").first.inner_text()
    assert "Author Octavia Estelle Butler updated by" in recent, recent
    page.goto(AUTHORS)


def _delete_both_ways(page: Any) -> None:
    page.locator("tr", has_text="Ursula Le Guin").locator("text=View").click()
    page.click("button:has-text('Delete')")
    _confirm(page, "Delete Author Ursula Le Guin?")
    message = page.locator(".flash-success").inner_text()
    assert message == "Author “Ursula Le Guin” deleted."
    page.locator("tr", has_text="Octavia").locator("input[type=checkbox]").check()
    page.click("text=Delete selected")
    _confirm(page, "Delete 1 Author?")
    assert page.locator(".flash-success").inner_text() == "1 record deleted."
    assert _names(page) == []


@pytest.mark.parametrize(
    "javascript", [True, False], ids=["js", "no-js"], indirect=True
)
def test_import_a_stale_form_and_deletes(page: Any, tmp_path: Path) -> None:
    _log_in(page)
    _import(page, tmp_path)
    _stale_form(page)
    _delete_both_ways(page)
