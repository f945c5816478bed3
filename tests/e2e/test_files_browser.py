"""File and image fields in Chromium, on both frameworks: upload, list, download.

One project per framework is generated from ``conformance/files/gallery.yaml`` and
served twice: with local storage in a folder of the test's, and with an S3-compatible
bucket (moto's server, started by the test). In Chromium (Debian's, driven by
Playwright) a photo is created through its form with an image and a PDF; the list
shows the image's thumbnail (a decoded image, not a broken one), the detail page
previews it, the PDF's link downloads the same bytes as an attachment; the edit form
shows the current files, replaces the image and removes the PDF, after which the
storage holds the new image alone. A form refused for its file (a GIF where PNG or
JPEG is asked for) comes back with the error and the title typed.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge
from PIL import Image
from s3_bucket import Bucket, s3_server

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


@pytest.fixture(scope="module", params=["local", "s3"])
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Server]]:
    """Both frameworks' gallery panels, their files on local storage or in a bucket,
    served for the module's tests; ``stored()`` lists what a panel's storage holds."""
    started: dict[str, Server] = {}
    with ExitStack() as stack:
        bucket = stack.enter_context(s3_server()) if request.param == "s3" else None
        try:
            for framework in FRAMEWORKS:
                started[framework] = _served(framework, tmp_path_factory, bucket)
            yield started
        finally:
            for server in started.values():
                server.stop()


def _served(
    framework: str, tmp_path_factory: pytest.TempPathFactory, bucket: Bucket | None
) -> Server:
    folder = tmp_path_factory.mktemp(f"files-browser-{framework}")
    project = folder / "project"
    result = run_panelforge(
        "generate", str(MANIFEST), "-o", str(project),
        "--framework", framework, "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    server = SERVERS[framework](project, f"sqlite:///{folder / 'g.db'}")
    media = folder / "media"
    server.env["MEDIA_ROOT"] = str(media)
    if bucket is None:
        server.stored = lambda: sorted(p.name for p in media.rglob("*") if p.is_file())
    else:
        server.env.update(bucket.storage_env(f"{framework}/media"))
        server.stored = lambda: [
            key.rsplit("/", 1)[1] for key in bucket.keys(f"{framework}/media")
        ]
    server.migrate()
    server.create_user(EMAIL, PASSWORD)
    server.start()
    return server


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
        page.server = servers[request.param]  # type: ignore[attr-defined]
        yield page
        browser.close()
    assert problems == []


def _expect() -> Any:
    return pytest.importorskip("playwright.sync_api").expect


# The image's natural width once it has loaded or failed (0).
_NATURAL_WIDTH = """img => img.complete ? img.naturalWidth : new Promise(done => {
    img.addEventListener("load", () => done(img.naturalWidth), {once: true});
    img.addEventListener("error", () => done(0), {once: true});
})"""


def _loaded(tab: Any, selector: str) -> int:
    """The natural width of the image ``selector`` once it has loaded (0: broken).

    Visible is not loaded: a thumbnail the server makes from a file kept in S3 may
    still be on its way, so this waits for the image's load or error event.
    """
    image = tab.locator(selector).first
    _expect()(image).to_be_visible()
    return int(image.evaluate(_NATURAL_WIDTH))


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
    # The storage keeps the new image alone (keys are "<random hex>-<name>").
    assert [name.split("-", 1)[1] for name in tab.server.stored()] == ["dusk.png"]


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
