"""A panel moved off ``/admin``: everything it serves follows, the same on both.

One more deployment per framework: the session example with the panel under
``/office/panel``. FastAPI is told with ``PANEL_PREFIX``; the Django project's
``config/urls.py`` nests the panel's ``include()`` there, as a Django developer moves
an app. The JSON API, the pages and their links, the login redirect and form, the
logout and the OpenAPI document all live under the new prefix; ``/admin`` is gone.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from conftest import SERVERS, Server

from generator.model.samples import sample_payload

from .conftest import FRAMEWORKS, SESSION_EXAMPLES
from .support import EMAIL, HTML, JSON, PASSWORD, Deployment

pytestmark = pytest.mark.e2e

PREFIX = "/office/panel"
EXAMPLE = SESSION_EXAMPLES[0]
_MOUNT = 'path("admin", include("panel.urls"))'
# Nested, as a Django developer groups apps: /office/ + panel.
_NESTED = 'path("office/", include([path("panel", include("panel.urls"))]))'
# The panel's own links: every path (records' URL values link elsewhere).
_HREF = re.compile(r'(?:href|action)="(/[^"]*)"')


def _moved_django(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A server factory: the Django project with config/urls.py mounting elsewhere."""

    def serve(project: Path, database_url: str) -> Server:
        copy = tmp_path_factory.mktemp("moved-panel") / "project"
        shutil.copytree(project, copy, ignore=shutil.ignore_patterns("__pycache__"))
        urls = copy / "config" / "urls.py"
        text = urls.read_text()
        assert _MOUNT in text
        urls.write_text(text.replace(_MOUNT, _NESTED))
        return SERVERS["django"](copy, database_url)

    return serve


@pytest.fixture(params=FRAMEWORKS)
def moved(
    request: pytest.FixtureRequest,
    fleet: Any,
    tmp_path_factory: pytest.TempPathFactory,
) -> Deployment:
    framework = request.param
    if framework == "django":
        serve = _moved_django(tmp_path_factory)
        return fleet.get(framework, EXAMPLE, "sqlite", "prefix", serve=serve)
    env = {"PANEL_PREFIX": PREFIX}
    return fleet.get(framework, EXAMPLE, "sqlite", "prefix", env=env)


def _json_login(client: httpx.Client) -> str:
    credentials = {"username": EMAIL, "password": PASSWORD}
    response = client.post(f"{PREFIX}/authenticate", json=credentials, headers=JSON)
    assert response.status_code == 200, response.text
    token: str = response.json()["csrf_token"]
    return token


def test_the_json_api_answers_under_the_prefix(moved: Deployment) -> None:
    resource = moved.project.resources[0]
    crud = f"{PREFIX}/resource/{resource.uri}/crud"
    with moved.client(headers=dict(JSON)) as client:
        token = _json_login(client)
        client.headers["X-CSRF-Token"] = token
        created = client.post(crud, json=sample_payload(resource, 1, {}))
        assert created.status_code == 201, created.text
        key = created.json()["data"][resource.key]
        assert urlsplit(created.headers["location"]).path == f"{crud}/{key}"
        listed = client.get(crud, params={"per_page": 1})
        assert listed.status_code == 200, listed.text
        body = listed.json()
        assert urlsplit(body["path"]).path == crud
        assert urlsplit(body["first_page_url"]).path == crud
        assert urlsplit(body["next_page_url"] or crud).path == crud
        assert client.get(f"{crud}/{key}").status_code == 200
        old = f"/admin/resource/{resource.uri}/crud"
        assert client.get(old).status_code == 404
        assert client.post("/admin/authenticate", json={}).status_code == 404
        assert client.request("DELETE", f"{PREFIX}/logout").status_code == 200


def test_a_page_and_its_links_stay_under_the_prefix(moved: Deployment) -> None:
    with moved.client() as client:
        _json_login(client)
        home = client.get(PREFIX, headers=HTML)
        assert home.status_code == 200, home.text[:2000]
        links = [u for u in _HREF.findall(home.text) if not u.startswith("/static/")]
        assert links, home.text[:2000]
        assert all(u.startswith(PREFIX) for u in links), links
        resource = moved.project.resources[0]
        index = f"{PREFIX}/resource/{resource.uri}/index-page"
        assert index in links
        page = client.get(index, headers=HTML)
        assert page.status_code == 200, page.text[:2000]
        page_links = [
            u for u in _HREF.findall(page.text) if not u.startswith("/static/")
        ]
        assert [u for u in page_links if not u.startswith(PREFIX)] == []


def test_logging_in_on_the_page_goes_back_under_the_prefix(moved: Deployment) -> None:
    resource = moved.project.resources[0]
    index = f"{PREFIX}/resource/{resource.uri}/index-page"
    with moved.client() as client:
        refused = client.get(index, headers=HTML)
        assert refused.status_code == 303
        target = urlsplit(refused.headers["location"])
        assert target.path == f"{PREFIX}/login"
        assert dict(parse_qsl(target.query)) == {"next": index}
        form = client.get(refused.headers["location"], headers=HTML)
        assert form.status_code == 200
        assert f'action="{PREFIX}/authenticate"' in form.text
        token = re.search(r'name="_token" value="([^"]*)"', form.text)
        assert token, form.text[:2000]
        fields = {
            "_token": token.group(1),
            "username": EMAIL,
            "password": PASSWORD,
            "next": index,
        }
        logged_in = client.post(f"{PREFIX}/authenticate", data=fields, headers=HTML)
        assert logged_in.status_code == 303, logged_in.text[:2000]
        assert logged_in.headers["location"] == index
        assert client.get(index, headers=HTML).status_code == 200


def test_the_openapi_paths_start_at_the_prefix(moved: Deployment) -> None:
    with moved.client() as client:
        spec = client.get("/oag.json")
        assert spec.status_code == 200
        paths = list(spec.json()["paths"])
        assert f"{PREFIX}/authenticate" in paths
        assert all(p.startswith(f"{PREFIX}/") for p in paths), paths
        assert "/admin" not in spec.text
        assert client.get("/docs").status_code == 200
