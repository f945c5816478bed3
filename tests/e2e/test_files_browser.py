"""File and image fields in Chromium, on both frameworks: upload, list, download.

One project per framework is generated from ``conformance/files/gallery.yaml`` and
served with local storage in a folder of the test's. In Chromium (Debian's, driven by
Playwright) a photo is created through its form with an image and a PDF; the list
shows the image's thumbnail (a decoded image, not a broken one), the detail page
previews it, the PDF's link downloads the same bytes as an attachment; the edit form
shows the current files, replaces the image and removes the PDF. A form refused for
its file (a GIF where PNG or JPEG is asked for) comes back with the error and the
title typed.
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

MANIFEST = REPO / "tests" / "conformance" / "files" / "gallery.yaml"
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
EMAIL = "curator@example.com"
PASSWORD = "a long curator password"
PHOTOS = "/admin/resource/photo-resource"
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n"


def _png(color: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (120, 80), color).save(out, "PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Server]]:
    """Both frameworks' gallery panels, served for the whole module."""
    started: dict[str, Server] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"files-browser-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(MANIFEST), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'g.db'}")
            server.env["MEDIA_ROOT"] = str(folder / "media")
            server.migrate()
            server.create_user(EMAIL, PASSWORD)
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
        context = browser.new_context(
            base_url=servers[request.param].base_url, accept_downloads=True
        )
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto("/admin/login")
        page.fill("#username", EMAIL)
        page.fill("#password", PASSWORD)
        page.click("button[type=submit]")
        assert urlsplit(page.url).path == "/admin"
        page.framework = request.param  # type: ignore[attr-defined]
        yield page
        browser.close()
    assert problems == []


def _expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


def _loaded(tab: Any, selector: str) -> int:
    """The natural width of the image ``selector`` once loaded (0: broken)."""
    image = tab.locator(selector).first
    _expect()(image).to_be_visible()
    return int(image.evaluate("img => img.complete ? img.naturalWidth : 0"))


def test_upload_list_download_and_replace(tab: Any) -> None:
    title = f"Sunset in {tab.framework}"
    tab.goto(f"{PHOTOS}/form-page")
    tab.fill("#field-title", title)
    tab.set_input_files(
        "#field-picture",
        {"name": "sunset.png", "mimeType": "image/png", "buffer": _png("orange")},
    )
    tab.set_input_files(
        "#field-document",
        {"name": "notes.pdf", "mimeType": "application/pdf", "buffer": PDF},
    )
    tab.click("form.record-form button[type=submit]")
    assert urlsplit(tab.url).path == f"{PHOTOS}/index-page"
    row = tab.locator("table.records tbody tr", has_text=title)
    _expect()(row).to_have_count(1)
    assert _loaded(row, "img.thumb") == 96  # the thumbnail, scaled by the server
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(SCREENSHOTS / f"files-{tab.framework}.png"))

    row.locator("a", has_text="notes.pdf").wait_for()
    with tab.expect_download() as download_info:
        row.locator("a", has_text="notes.pdf").click(modifiers=["Alt"])
    download = download_info.value
    assert Path(download.path()).read_bytes() == PDF

    edit = row.locator("a[href*='form-page/']").first.get_attribute("href")
    detail = edit.replace("form-page", "detail-page")
    tab.goto(detail)
    assert _loaded(tab, "img.preview") == 120

    tab.goto(edit)
    _expect()(tab.locator(".current-file")).to_have_count(2)
    tab.set_input_files(
        "#field-picture",
        {"name": "dusk.png", "mimeType": "image/png", "buffer": _png("purple")},
    )
    tab.check("input[name=document_clear]")
    tab.click("form.record-form button[type=submit]")
    assert urlsplit(tab.url).path == f"{PHOTOS}/index-page"
    row = tab.locator("table.records tbody tr", has_text=title)
    _expect()(row.locator("img.thumb")).to_have_attribute("alt", "dusk.png")
    assert row.locator("a", has_text="notes.pdf").count() == 0


def _gif() -> bytes:
    out = io.BytesIO()
    Image.new("P", (8, 8)).save(out, "GIF")
    return out.getvalue()


def test_a_refused_upload_shows_the_form_again(tab: Any) -> None:
    title = f"Refused in {tab.framework}"
    tab.goto(f"{PHOTOS}/form-page")
    tab.fill("#field-title", title)
    tab.set_input_files(
        "#field-picture",
        {"name": "anim.gif", "mimeType": "image/gif", "buffer": _gif()},
    )
    tab.click("form.record-form button[type=submit]")
    message = "The Picture field must be a file of type: image/png, image/jpeg."
    _expect()(tab.locator("form.record-form")).to_contain_text(message)
    _expect()(tab.locator("#field-title")).to_have_value(title)
