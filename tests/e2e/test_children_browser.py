"""A parent's children in Chromium, on both frameworks: list, follow, add one.

One project per framework is generated from ``conformance/children/music.yaml``
(tracks two to a page), migrated, seeded with an album of three tracks and served.
In Chromium (Debian's, driven by Playwright) the album's detail page lists its first
two tracks by their display, links to each and to all three (the tracks' list,
filtered by the album), and "Add one" opens the track form with the album chosen:
saved, the new track is the album's.
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

MANIFEST = REPO / "tests" / "conformance" / "children" / "music.yaml"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "curator@example.com"
PASSWORD = "a long curator password"
ALBUMS = "/admin/resource/album-resource"
TRACKS = "/admin/resource/track-resource"


def _seed(database: Path) -> None:
    """Album 1 with tracks 1–3, album 2 with none."""
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "INSERT INTO albums (title) VALUES (?)", [("Blue",), ("Empty",)]
        )
        connection.executemany(
            "INSERT INTO tracks (title, position, album) VALUES (?, ?, 1)",
            [("River", 1), ("Carey", 2), ("Case of You", 3)],
        )


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    """Both frameworks' music panels, seeded and served for the whole module."""
    started: dict[str, Server] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"children-browser-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(MANIFEST), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            database = folder / "music.db"
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
    """A logged-in Chromium tab of one framework's panel."""
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


def test_the_album_page_lists_and_links_its_tracks(tab: Any) -> None:
    tab.goto(f"{ALBUMS}/detail-page/1")
    section = tab.locator("#children-tracks")
    _expect()(section.locator("h2")).to_have_text("Tracks (3)")
    links = section.locator("ul.children-list a")
    _expect()(links).to_have_text(["1. River", "2. Carey"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / "album-children.png"), full_page=True)
    links.nth(1).click()
    _expect()(tab.locator("h1")).to_have_text("Track 2. Carey")
    tab.go_back()
    tab.locator("#children-tracks a.show-all").click()
    assert urlsplit(tab.url).path == f"{TRACKS}/index-page"
    _expect()(tab.locator("table.records tbody tr")).to_have_count(2)  # a page
    _expect()(tab.locator(".pagination")).to_contain_text("2")
    tab.goto(f"{ALBUMS}/detail-page/2")
    _expect()(tab.locator("#children-tracks")).to_contain_text("None yet.")
    assert tab.locator("#children-tracks a.show-all").count() == 0


def test_add_one_opens_the_form_with_the_album_and_saves_with_it(tab: Any) -> None:
    tab.goto(f"{ALBUMS}/detail-page/2")
    tab.locator("#children-tracks").get_by_role("link", name="Add one").click()
    assert urlsplit(tab.url).path == f"{TRACKS}/form-page"
    _expect()(tab.locator("#field-album")).to_have_value("2")
    tab.fill("#field-title", "Only song")
    tab.fill("#field-position", "1")
    tab.click("button:has-text('Save')")
    created = "Track “1. Only song” created."
    _expect()(tab.locator(".flash-success")).to_have_text(created)
    tab.goto(f"{ALBUMS}/detail-page/2")
    section = tab.locator("#children-tracks")
    _expect()(section.locator("h2")).to_have_text("Tracks (1)")
    _expect()(section.locator("ul.children-list a")).to_have_text(["1. Only song"])
