"""The OpenAPI docs: ``manage.py oag_generate``, ``/docs`` and the served spec."""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from html import escape
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.core.management import call_command
from django.middleware.csrf import CSRF_SESSION_KEY
from django.test import Client, RequestFactory, override_settings
from django.urls import clear_url_caches

import config.urls
import oag.urls
from app.resources import RESOURCES
from oag.spec import spec_options
from oag.views import page_context, stored_csrf_token
from panel.users import create_user
from panel_core.abilities import ADMIN
from panel_core.oag import build_document, spec_files
from panel_core.openapi import dump_json
from tests.token_parts import JSON, bearer
from tests.tokens import EMAIL, PASSWORD, token_login, use_jwt

# Sessions, error pages and closing a response (it ends the request) use the db.
pytestmark = pytest.mark.django_db

YAML_SPEC, JSON_SPEC = spec_files(Path(settings.BASE_DIR), settings.OAG_PATH)
SPEC_URL = "/" + settings.OAG_ROUTE
ASSETS = settings.STATIC_URL + "oag/"


def _reload_urls() -> None:
    importlib.reload(oag.urls)
    importlib.reload(config.urls)
    clear_url_caches()


@contextmanager
def docs_access(value: str) -> Iterator[None]:
    """DOCS_ACCESS set to ``value`` while the URLs are built anew."""
    try:
        with override_settings(DOCS_ACCESS=value):
            _reload_urls()
            yield
    finally:
        _reload_urls()


def test_oag_generate_writes_the_committed_spec(
    settings: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings.OAG_PATH = str(tmp_path / "spec" / "api.yaml")
    call_command("oag_generate")
    assert capsys.readouterr().out.splitlines() == [
        f"wrote {tmp_path / 'spec' / 'api.yaml'}",
        f"wrote {tmp_path / 'spec' / 'api.json'}",
        "Documentation - /docs",
    ]
    # Unequal means the resources changed since: run python manage.py oag_generate.
    assert (tmp_path / "spec" / "api.yaml").read_bytes() == YAML_SPEC.read_bytes()
    assert (tmp_path / "spec" / "api.json").read_bytes() == JSON_SPEC.read_bytes()


def test_docs_page_loads_swagger_ui_from_the_project(client: Client) -> None:
    response = client.get("/docs", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    policy = response["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
    page = response.content.decode()
    assert "<script>" not in page  # no inline script: only JSON data and files
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert all(url.startswith((ASSETS, "data:")) for url in assets), assets
    assert f'"url": "{SPEC_URL}"' in page
    assert f"<title>{escape(settings.OAG_TITLE)}</title>" in page
    for url in assets:
        if url.startswith("/"):
            asset = client.get(url)
            asset.close()  # a file WhiteNoise opened
            assert asset.status_code == 200, url


def test_anonymous_readers_get_no_csrf_token(client: Client) -> None:
    assert b'name="csrf-token"' not in client.get("/docs").content


def test_a_session_holding_a_csrf_token_gets_it_in_the_page(
    rf: RequestFactory,
) -> None:
    request = rf.get("/docs")
    request.session = SessionStore()
    assert stored_csrf_token(request) is None
    request.session[CSRF_SESSION_KEY] = "s" * 32
    token = page_context(request)["csrf_token"]
    assert token and len(token) == 64  # the secret, masked as Django sends it


def test_the_spec_routes_serve_the_files(client: Client) -> None:
    as_json = client.get(SPEC_URL)
    assert as_json.status_code == 200
    assert as_json["Content-Type"] == "application/json"
    assert as_json.content == JSON_SPEC.read_bytes()
    as_yaml = client.get(SPEC_URL.removesuffix(".json") + ".yaml")
    assert as_yaml.status_code == 200
    assert as_yaml["Content-Type"] == "application/yaml"
    assert as_yaml.content == YAML_SPEC.read_bytes()
    assert client.head(SPEC_URL).status_code == 200
    assert client.post(SPEC_URL).status_code == 405


def test_without_files_the_spec_is_built_from_the_resources(
    settings: Any, client: Client, tmp_path: Path
) -> None:
    settings.OAG_PATH = str(tmp_path / "missing.yaml")
    served = client.get(SPEC_URL, headers=JSON)
    built = build_document(RESOURCES, spec_options())
    assert served.content.decode() == dump_json(built)


def test_docs_access_off_removes_the_routes(client: Client) -> None:
    with docs_access("off"):
        for url in ("/docs", SPEC_URL):
            assert client.get(url).status_code == 404, url


def test_docs_access_authenticated_refuses_strangers(settings: Any) -> None:
    use_jwt(settings)
    create_user(email=EMAIL, password=PASSWORD, role=ADMIN)
    client = Client(headers=JSON)
    with docs_access("authenticated"):
        for url in ("/docs", SPEC_URL):
            refused = client.get(url)
            assert refused.status_code == 401, url
            assert refused.json() == {"message": "Unauthenticated."}
            assert refused["WWW-Authenticate"] == "Bearer"
        token = token_login(client, EMAIL, PASSWORD).json()["token"]
        assert client.get(SPEC_URL, headers=bearer(token)).status_code == 200


def test_a_view_of_your_own(settings: Any, client: Client, tmp_path: Path) -> None:
    view = tmp_path / "docs.html"
    view.write_text("<title>{{ title }}</title><p>{{ spec_url }}</p>\n")
    settings.OAG_VIEW, settings.OAG_TITLE = str(view), "<My API>"
    page = client.get("/docs").content.decode()
    assert page == f"<title>&lt;My API&gt;</title><p>{SPEC_URL}</p>\n"
