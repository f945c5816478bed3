"""Soft delete in Chromium, on both frameworks: delete, find in the trash, restore,
delete again and delete for good.

``conformance/files/albums.yaml`` (albums keep a trash and a cover image) is generated
for each framework and served with local storage. An album made through its form with
a cover is deleted from its detail page (the server's confirmation page asks to move it
to the trash); it leaves the
list and is listed in the trash, whence Restore brings it back with its cover. Deleted
again, "Delete for good" (confirmed in the browser's dialog) empties the trash and the
storage.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge
from PIL import Image

pytestmark = pytest.mark.e2e

MANIFEST = REPO / "tests" / "conformance" / "files" / "albums.yaml"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "keeper@example.com"
PASSWORD = "a long keeper password"
ALBUMS = "/admin/resource/album-resource"


@pytest.fixture(params=FRAMEWORKS)
def server(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[Server, Path]]:
    """One framework's albums panel and its media folder."""
    project = tmp_path / "project"
    result = run_panelforge(
        "generate", str(MANIFEST), "-o", str(project),
        "--framework", request.param, "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    served = SERVERS[request.param](project, f"sqlite:///{tmp_path / 'a.db'}")
    served.env["MEDIA_ROOT"] = str(tmp_path / "media")
    served.migrate()
    served.create_user(EMAIL, PASSWORD)
    served.start()
    try:
        yield served, tmp_path / "media"
    finally:
        served.stop()


@pytest.fixture
def tab(server: tuple[Server, Path]) -> Iterator[Any]:
    """A logged-in Chromium tab; the browser's dialogs are confirmed."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        page = browser.new_context(base_url=server[0].base_url).new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto("/admin/login")
        page.fill("#username", EMAIL)
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        assert urlsplit(page.url).path == "/admin"
        yield page
        browser.close()
    assert problems == []


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), "teal").save(out, "PNG")
    return out.getvalue()


def _stored(media: Path) -> list[str]:
    return sorted(p.name.split("-", 1)[1] for p in media.rglob("*") if p.is_file())


def _delete(tab: Any, expect: Any) -> None:
    """Delete the album "Summer" from its detail page, saying yes when asked."""
    tab.goto(f"{ALBUMS}/index-page")
    tab.locator("tr", has_text="Summer").locator("text=View").click()
    tab.click("button:has-text('Delete')")
    expect(tab.locator("h1")).to_have_text("Move Album Summer to the trash?")
    tab.get_by_role("button", name="Yes, move to the trash").click()
    expect(tab.locator(".flash-success")).to_have_text(
        "Album “Summer” moved to the trash."
    )
    expect(tab.locator("table.records tbody tr", has_text="Summer")).to_have_count(0)


def test_delete_restore_and_delete_for_good(
    tab: Any, server: tuple[Server, Path]
) -> None:
    expect = pytest.importorskip("playwright.sync_api").expect
    media = server[1]
    tab.goto(f"{ALBUMS}/form-page")
    tab.fill("#field-title", "Summer")
    cover = {"name": "beach.png", "mimeType": "image/png", "buffer": _png()}
    tab.set_input_files("#field-cover", cover)
    tab.click("form.record-form button[type=submit]")
    expect(tab.locator("table.records tbody tr", has_text="Summer")).to_have_count(1)

    _delete(tab, expect)
    tab.click("a.button:has-text('Trash')")
    trashed = tab.locator("table.records tbody tr", has_text="Summer")
    expect(trashed).to_have_count(1)
    trashed.get_by_role("button", name="Restore").click()
    expect(tab.locator(".flash-success")).to_have_text("Restored.")
    expect(tab.locator("table.records tbody tr", has_text="Summer")).to_have_count(0)
    tab.goto(f"{ALBUMS}/index-page")
    row = tab.locator("table.records tbody tr", has_text="Summer")
    expect(row.locator("img.thumb")).to_have_attribute("alt", "beach.png")
    assert _stored(media) == ["beach.png"]  # the trash kept the cover

    _delete(tab, expect)
    tab.goto(f"{ALBUMS}/trash")
    tab.locator("tr", has_text="Summer").get_by_role(
        "button", name="Delete for good"
    ).click()
    expect(tab.locator(".flash-success")).to_have_text("Deleted for good.")
    expect(tab.locator("table.records tbody tr", has_text="Summer")).to_have_count(0)
    assert _stored(media) == []
