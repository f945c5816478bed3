"""Many-to-many fields in Chromium, on both frameworks: pick two records, save,
see them listed.

One project per framework is generated from ``conformance/many_to_many/mix.yaml``,
migrated, seeded with three tracks and served. In Chromium (Debian's, driven by
Playwright) the playlist form's tracks picker searches the tracks' own JSON list as
one types; two picked records show as chosen (one removed and picked again), the
form saves, and the detail page lists both tracks by their titles, linked.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge

pytestmark = pytest.mark.e2e

MANIFEST = REPO / "tests" / "conformance" / "many_to_many" / "mix.yaml"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "curator@example.com"
PASSWORD = "a long curator password"
PLAYLISTS = "/admin/resource/playlist-resource"
TRACKS = "/admin/resource/track-resource"


def _seed(database: Path) -> None:
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "INSERT INTO tracks (title) VALUES (?)",
            [("River",), ("Carey",), ("Blue",)],
        )


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    """Both frameworks' mix panels, seeded and served for the whole module."""
    started: dict[str, Server] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"m2m-browser-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(MANIFEST), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            database = folder / "mix.db"
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


def _pick(tab: Any, typed: str, name: str) -> None:
    tab.fill("#field-tracks", typed)
    option = tab.locator(".picker-list [role=option]", has_text=name)
    _expect()(option).to_have_count(1)
    option.dispatch_event("mousedown")


def _pick_by_keyboard(tab: Any, typed: str, name: str) -> None:
    tab.fill("#field-tracks", typed)
    option = tab.locator(".picker-list [role=option]", has_text=name)
    _expect()(option).to_have_count(1)
    tab.press("#field-tracks", "ArrowDown")
    _expect()(option).to_have_attribute("aria-selected", "true")
    tab.press("#field-tracks", "Enter")


def test_pick_two_tracks_save_and_see_them_listed(tab: Any) -> None:
    tab.goto(f"{PLAYLISTS}/form-page")
    tab.fill("#field-name", "Picked")
    picker = tab.locator(".picker.multi").first  # the tracks
    _expect()(picker.locator("select")).to_be_hidden()  # the script took over
    _pick(tab, "Riv", "River")
    _pick(tab, "Blu", "Blue")
    chosen = picker.locator(".picked-list li span")
    _expect()(chosen).to_have_text(["River · #1", "Blue · #3"])
    picker.get_by_role("button", name="Remove River").click()
    _expect()(chosen).to_have_text(["Blue · #3"])
    _pick_by_keyboard(tab, "Car", "Carey")
    _expect()(chosen).to_have_text(["Blue · #3", "Carey · #2"])
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / "playlist-picker.png"), full_page=True)
    tab.click("button:has-text('Save')")
    saved = re.compile(r"^\w+ “Picked” created\.$")
    _expect()(tab.locator(".flash-success")).to_have_text(saved)
    tab.goto(f"{PLAYLISTS}/detail-page/1")
    links = tab.locator("dl.record a")
    _expect()(links).to_have_text(["Carey", "Blue"])  # in key order
    links.first.click()
    assert urlsplit(tab.url).path == f"{TRACKS}/detail-page/2"
    tab.goto(f"{PLAYLISTS}/form-page/1")
    _expect()(
        tab.locator(".picker.multi").first.locator(".picked-list li span")
    ).to_have_text(
        ["Blue · #3", "Carey · #2"]
    )  # the select's order: by title
