"""The OpenAPI docs: ``python -m app oag:generate``, ``/docs`` and the served spec."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.__main__ import main
from app.core.config import PROJECT_DIR, Settings, get_settings
from app.main import create_app
from app.oag.spec import spec_options
from app.resources import RESOURCES
from panel_core.oag import build_document, spec_files
from panel_core.openapi import dump_json

YAML_SPEC, JSON_SPEC = spec_files(PROJECT_DIR, get_settings().oag_path)
SPEC_URL = "/" + get_settings().oag_route


def _app_with(app: FastAPI, **changes: object) -> FastAPI:
    """Another app on the same database, with some settings changed."""
    settings: Settings = app.state.settings
    return create_app(settings.model_copy(update=changes))


@pytest.fixture
def spec_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """OAG_PATH set to a folder of its own, as a user would set it."""
    monkeypatch.setenv("OAG_PATH", str(tmp_path / "spec" / "api.yaml"))
    get_settings.cache_clear()
    yield tmp_path / "spec"
    get_settings.cache_clear()


def test_oag_generate_writes_the_committed_spec(
    spec_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["oag:generate"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"wrote {spec_dir / 'api.yaml'}",
        f"wrote {spec_dir / 'api.json'}",
        "Documentation - /docs",
    ]
    # Unequal means the resources changed since: run python -m app oag:generate.
    assert (spec_dir / "api.yaml").read_bytes() == YAML_SPEC.read_bytes()
    assert (spec_dir / "api.json").read_bytes() == JSON_SPEC.read_bytes()


def test_oag_generate_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["oag:generate", "--help"])
    assert exit_info.value.code == 0
    assert "OAG_PATH" in capsys.readouterr().out


def test_docs_page_loads_swagger_ui_from_the_project(client: TestClient) -> None:
    response = client.get("/docs", headers={"Accept": "text/html"})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assets = re.findall(r'(?:src|href)="([^"]+)"', response.text)
    assert all(url.startswith(("/docs/assets/", "data:")) for url in assets), assets
    assert f'"url": "{SPEC_URL}"' in response.text
    for url in assets:
        if url.startswith("/"):
            assert client.get(url).status_code == 200, url


@pytest.mark.panel_auth("session")
def test_docs_page_carries_the_session_csrf_token(client: TestClient) -> None:
    token = client.headers["x-csrf-token"]
    page = client.get("/docs", headers={"Accept": "text/html"}).text
    assert f'<meta name="csrf-token" content="{token}">' in page


def test_the_spec_routes_serve_the_files(client: TestClient) -> None:
    as_json = client.get(SPEC_URL)
    assert as_json.status_code == 200
    assert as_json.headers["content-type"] == "application/json"
    assert as_json.content == JSON_SPEC.read_bytes()
    as_yaml = client.get(SPEC_URL.removesuffix(".json") + ".yaml")
    assert as_yaml.status_code == 200
    assert as_yaml.headers["content-type"] == "application/yaml"
    assert as_yaml.content == YAML_SPEC.read_bytes()


def test_without_files_the_spec_is_built_from_the_resources(
    app: FastAPI, tmp_path: Path
) -> None:
    other = _app_with(app, oag_path=str(tmp_path / "missing.yaml"))
    with TestClient(other) as client:
        served = client.get(SPEC_URL, headers={"Accept": "application/json"})
    built = build_document(RESOURCES, spec_options(other.state.settings))
    assert served.content.decode() == dump_json(built)


def test_docs_access_off_removes_the_routes(app: FastAPI) -> None:
    with TestClient(_app_with(app, docs_access="off")) as client:
        for url in ("/docs", SPEC_URL, "/docs/assets/docs.js"):
            assert client.get(url).status_code == 404, url


def test_docs_access_authenticated_refuses_strangers(app: FastAPI) -> None:
    other = _app_with(app, docs_access="authenticated")
    with TestClient(other, headers={"Accept": "application/json"}) as client:
        assert client.get(SPEC_URL).status_code == 401
        assert client.get("/docs").status_code == 401


def test_a_view_of_your_own(app: FastAPI, tmp_path: Path) -> None:
    view = tmp_path / "docs.html"
    view.write_text("<title>{{ title }}</title><p>{{ spec_url }}</p>\n")
    other = _app_with(app, oag_view=str(view), oag_title="<My API>")
    with TestClient(other) as client:
        page = client.get("/docs").text
    assert page == f"<title>&lt;My API&gt;</title><p>{SPEC_URL}</p>\n"
