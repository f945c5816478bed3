"""The emitted project's OpenAPI generator: ``python -m app oag:generate``, ``/docs``.

The command writes what panelforge wrote, sees resources edited by hand, and the docs
page shows every operation in a real (headless) Chromium that may reach nothing but
the app.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml
from conftest import EXAMPLE_IDS, REPO, Server, run_panelforge, tree_files
from openapi_spec_validator import validate

pytestmark = pytest.mark.e2e

SPEC_FILES = ("resources/oag.yaml", "resources/oag.json")
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
HTTP_METHODS = ("get", "put", "post", "delete", "patch")
# The first resource's create operation (Swagger UI: id="operations-<tag>-<opId>").
STORE = '.opblock-post[id$="CrudStore"]'
EMAIL = "docs@example.com"
PASSWORD = "correct horse battery staple"


def _server(project: Path, tmp_path: Path) -> Server:
    server = Server(project, f"sqlite:///{tmp_path / 'docs.db'}")
    server.env["SECRET_KEY"] = secrets.token_urlsafe(32)
    return server


def _operations(doc: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (method.upper(), path)
        for path, item in doc["paths"].items()
        for method in item
        if method in HTTP_METHODS
    }


@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_oag_generate_writes_what_panelforge_wrote(
    generated, fresh_copy, tmp_path: Path, example: str
) -> None:
    original = generated(example)
    project = fresh_copy(original)
    for name in SPEC_FILES:
        (project / name).unlink()
    result = _server(project, tmp_path).run_app("oag:generate")
    assert result.stdout.splitlines() == [
        "wrote resources/oag.yaml",
        "wrote resources/oag.json",
        "Documentation - /docs",
    ]
    for name in SPEC_FILES:
        assert (project / name).read_bytes() == (original / name).read_bytes(), name
    from_yaml = yaml.safe_load((project / SPEC_FILES[0]).read_text(encoding="utf-8"))
    from_json = json.loads((project / SPEC_FILES[1]).read_text(encoding="utf-8"))
    assert from_yaml == from_json
    validate(from_json)


def _add_subtitle(project: Path) -> None:
    """Declare a new field on the Book resource and its model, by hand."""
    module = project / "app" / "resources" / "book.py"
    text = module.read_text(encoding="utf-8")
    column = "    title: Mapped[str] = mapped_column(sa.String(200), index=True)\n"
    field = '        Text("title", max_length=200, required=True),\n'
    assert column in text and field in text
    text = text.replace(
        column,
        column + "    subtitle: Mapped[str | None] = mapped_column(sa.String(80))\n",
    )
    text = text.replace(field, field + '        Text("subtitle", max_length=80),\n')
    module.write_text(text, encoding="utf-8")


def test_a_field_added_by_hand_reaches_the_spec(
    generated, fresh_copy, tmp_path: Path
) -> None:
    project = fresh_copy(generated("library"))
    before = json.loads((project / SPEC_FILES[1]).read_text(encoding="utf-8"))
    _add_subtitle(project)
    _server(project, tmp_path).run_app("oag:generate")
    after = json.loads((project / SPEC_FILES[1]).read_text(encoding="utf-8"))
    validate(after)
    schemas = after["components"]["schemas"]
    for name in ("Book", "BookCreate", "BookUpdate"):
        subtitle = schemas[name]["properties"]["subtitle"]
        assert subtitle["type"] == ["string", "null"]
        assert subtitle["maxLength"] == 80
        assert subtitle["title"] == "Subtitle"
    assert "subtitle" in schemas["Book"]["required"]
    assert "subtitle" not in schemas["BookCreate"].get("required", [])
    listing = after["paths"]["/admin/resource/book-resource/crud"]["get"]
    sort = next(p for p in listing["parameters"] if p["name"] == "sort")
    assert re.fullmatch(sort["schema"]["pattern"], "-subtitle")
    # Nothing else moved: without the new field, the documents are the same.
    for name in ("Book", "BookCreate", "BookUpdate"):
        del schemas[name]["properties"]["subtitle"]
    schemas["Book"]["required"].remove("subtitle")
    path = "/admin/resource/book-resource/crud"
    old = {p["name"]: p for p in before["paths"][path]["get"]["parameters"]}
    # The new field is filterable: filter parameters of its own (a text field's
    # exact match, contains and starts_with).
    added = [p for p in listing["parameters"] if p["name"] not in old]
    assert [p["name"] for p in added] == [
        "filter[subtitle]",
        "filter[subtitle][contains]",
        "filter[subtitle][starts_with]",
    ]
    for parameter in added:
        listing["parameters"].remove(parameter)
    for parameter in listing["parameters"]:
        parameter["description"] = old[parameter["name"]]["description"]
    sort["schema"]["pattern"] = sort["schema"]["pattern"].replace("|subtitle", "")
    assert after == before


def _docs_page_operations(page: Any) -> set[tuple[str, str]]:
    page.wait_for_selector(".opblock-summary")
    methods = page.locator(".opblock-summary-method").all_inner_texts()
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    return {
        (m.strip().upper(), p.replace("\u200b", "").strip())
        for m, p in zip(methods, paths, strict=True)
    }


def _create_user(server: Server) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "app", "create-user", EMAIL, "--password-stdin"],
        cwd=server.project,
        env=server.env,
        input=PASSWORD + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _log_in(page: Any, base_url: str) -> None:
    page.goto(base_url + "/admin/login")
    page.fill("#username", EMAIL)
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.locator("form button[type=submit]").click()


def _bearer_token(server: Server) -> str:
    credentials = {"username": EMAIL, "password": PASSWORD}
    response = httpx.post(
        server.base_url + "/admin/authenticate",
        json=credentials,
        headers={"Accept": "application/json"},
        timeout=10,
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


def _authorize(page: Any, token: str) -> None:
    """Give Swagger UI the bearer token (its Authorize dialog)."""
    page.locator(".auth-wrapper button.authorize").click()
    dialog = page.locator(".modal-ux")
    dialog.locator("input").fill(token)
    dialog.locator("button.auth.authorize").click()
    dialog.locator("button.btn-done").click()


def _execute(block: Any) -> str:
    """Open an operation, press Try it out, then Execute; returns the status shown."""
    block.locator(".opblock-summary").click()
    block.locator("button.try-out__btn").click()
    block.locator("button.execute").click()
    status = block.locator(".live-responses-table tr.response .response-col_status")
    status.wait_for()
    return str(status.inner_text()).strip()


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_docs_page_in_a_browser(
    generated, fresh_copy, tmp_path: Path, example: str
) -> None:
    """Every operation is listed; Try it out creates a record.

    With sessions it sends the page's CSRF token; with JWT the bearer token given to
    Authorize, which persists across a reload of the page.
    """
    sync_api = pytest.importorskip("playwright.sync_api")
    project = fresh_copy(generated(example))
    spec = json.loads((project / SPEC_FILES[1]).read_text(encoding="utf-8"))
    jwt = "bearerAuth" in spec["components"]["securitySchemes"]
    server = _server(project, tmp_path)
    server.run_app("migrate")
    _create_user(server)
    server.start()
    elsewhere: list[str] = []
    problems: list[str] = []
    writes: list[Any] = []
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
            )
            page = browser.new_page(viewport={"width": 1280, "height": 1400})

            def only_the_app(route: Any) -> None:
                url = route.request.url
                if url.startswith("data:") or urlsplit(url).hostname == "127.0.0.1":
                    route.continue_()
                else:
                    elsewhere.append(url)
                    route.abort()

            page.route("**/*", only_the_app)
            page.on("console", lambda m: m.type == "error" and problems.append(m.text))
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.on("request", lambda r: r.method == "POST" and writes.append(r))
            page.goto(server.base_url + "/docs")
            assert page.title() == "Docs"
            assert _docs_page_operations(page) == _operations(spec)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"docs-{example}.png"))
            if jwt:
                token = _bearer_token(server)
                _authorize(page, token)
            else:
                _log_in(page, server.base_url)
                page.goto(server.base_url + "/docs")
                token = page.locator('meta[name="csrf-token"]').get_attribute("content")
            page.wait_for_selector(".opblock-summary")
            writes.clear()
            assert _execute(page.locator(STORE).first) == "201"
            shot = SCREENSHOTS / f"docs-{example}-try-it-out.png"
            page.screenshot(path=str(shot))
            if jwt:  # persistAuthorization: still authorized on the next visit
                page.goto("about:blank")
                page.goto(server.base_url + "/docs")
                page.wait_for_selector(".opblock-summary")
                assert _execute(page.locator(STORE).first) == "201"
            browser.close()
    finally:
        server.stop()
    assert elsewhere == []
    assert problems == []
    assert token
    assert writes and len(writes) == (2 if jwt else 1)
    for write in writes:
        assert write.headers["accept"] == "application/json"
        if jwt:
            assert write.headers["authorization"] == f"Bearer {token}"
            assert "x-csrf-token" not in write.headers
        else:
            assert write.headers["x-csrf-token"] == token


def test_copier_copy_keeps_the_manifest_docs_block(tmp_path: Path) -> None:
    """copier's docs answers are hidden defaults; the manifest's docs block wins."""
    manifest = tmp_path / "todo.yaml"
    text = (REPO / "examples" / "todo.yaml").read_text(encoding="utf-8")
    manifest.write_text(
        text.replace(
            "\nresources:",
            "\ndocs: {title: API docs, path: spec/api.yaml, route: api.json}\n"
            "\nresources:",
            1,
        ),
        encoding="utf-8",
    )
    generated = tmp_path / "generated"
    result = run_panelforge("generate", str(manifest), "-o", str(generated), "--quiet")
    assert result.returncode == 0, result.stderr
    copied = tmp_path / "copied"
    answers = {
        "manifest": str(manifest),
        "project_name": "todo_admin",
        "project_title": "Todo admin",
        "framework": "fastapi",
        "jwt": "true",  # as examples/todo.yaml says
        "token_ttl": "1800",
    }
    data = [arg for key, value in answers.items() for arg in ("-d", f"{key}={value}")]
    copy = subprocess.run(
        [sys.executable, "-m", "copier", "copy", "--trust", "--defaults", *data]
        + ["--vcs-ref", "HEAD", str(REPO), str(copied)],
        cwd=tmp_path,
        env={**os.environ, "PWD": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert copy.returncode == 0, copy.stdout[-3000:] + copy.stderr[-3000:]
    assert tree_files(copied) == tree_files(generated)
    assert (copied / "spec" / "api.json").is_file()
    config = (copied / "app" / "core" / "oag_config.py").read_text(encoding="utf-8")
    assert 'DOCS_TITLE = "API docs"' in config
    assert 'DOCS_ROUTE = "api.json"' in config
