"""The docs routes: ``/docs`` (self-hosted Swagger UI) and the spec, JSON and YAML.

The spec route (the manifest's ``docs.route``, ``oag.json``) serves the file the
project's own ``oag:generate``/``oag_generate`` writes, the same document for every
framework; the YAML twin is served beside it. ``DOCS_ACCESS`` says who may read them:
``public`` (the default), ``authenticated`` (401 for strangers) or ``off`` (404).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path, PurePosixPath

import pytest
import yaml
from conftest import SERVERS

from .conftest import Fleet, sqlite_params
from .support import HTML, UNAUTHENTICATED, Deployment

pytestmark = pytest.mark.e2e

# Where a framework's served spec may differ from the FastAPI one, and why (none yet).
DOCUMENTED_DIFFERENCES: dict[str, list[str]] = {}


def _spec_routes(deployment: Deployment) -> tuple[str, str]:
    route = "/" + deployment.project.docs.route.strip("/")
    return route, route.removesuffix(".json") + ".yaml"


def _spec_files(project: Path, deployment: Deployment) -> tuple[Path, Path]:
    yaml_file = project / PurePosixPath(deployment.project.docs.path)
    return yaml_file.with_suffix(".json"), yaml_file


def test_the_docs_page(deployment: Deployment) -> None:
    json_route, _ = _spec_routes(deployment)
    with deployment.client() as browser:
        response = browser.get("/docs", headers=HTML)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("text/html")
        assert f"<title>{deployment.project.docs.title}</title>" in response.text
        headers = response.headers
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["cache-control"] == "no-store"
        policy = headers["content-security-policy"]
        assert "default-src 'none'" in policy and "frame-ancestors 'none'" in policy
        assert f'"url": "{json_route}"' in response.text
        # Swagger UI comes from the project itself (where is the framework's choice).
        assets = re.findall(r'(?:src|href)="([^"]+)"', response.text)
        local = [url for url in assets if url.startswith("/")]
        assert len(local) >= 3, assets
        for url in assets:
            assert url in local or url.startswith("data:"), url
        for url in local:
            assert not url.startswith("//"), url
            asset = browser.get(url)
            assert asset.status_code == 200, url
            assert asset.headers["x-content-type-options"] == "nosniff", url
        # Strangers get no CSRF token (and so no session) from the docs page.
        assert 'name="csrf-token"' not in response.text
        assert "set-cookie" not in response.headers


def test_the_docs_page_carries_the_session_csrf_token(
    session_deployment: Deployment,
) -> None:
    with session_deployment.api() as api:
        page = api.get("/docs", headers=HTML).text
        found = re.search(r'<meta name="csrf-token" content="([^"]+)">', page)
        assert found, page[:1000]
        resource = session_deployment.project.resources[0]
        url = f"/admin/resource/{resource.uri}/crud"
        response = api.post(
            url,
            json=api.payload(resource, 1),
            headers={"X-CSRF-Token": found.group(1)},
        )
        assert response.status_code == 201, "Try it out sends the page's token"


def test_the_spec_routes_serve_the_project_files(
    deployment: Deployment, generated
) -> None:
    json_route, yaml_route = _spec_routes(deployment)
    json_file, yaml_file = _spec_files(deployment.server.project, deployment)
    with deployment.client() as client:
        as_json = client.get(json_route)
        assert as_json.status_code == 200
        assert as_json.headers["content-type"] == "application/json"
        assert as_json.content == json_file.read_bytes()
        as_yaml = client.get(yaml_route)
        assert as_yaml.status_code == 200
        assert as_yaml.headers["content-type"] == "application/yaml"
        assert as_yaml.content == yaml_file.read_bytes()
        assert yaml.safe_load(as_yaml.text) == as_json.json()
        assert client.head(json_route).status_code == 200
    # Every framework serves the document the FastAPI project serves.
    reference, _ = _spec_files(generated(deployment.example, "fastapi"), deployment)
    expected = json.loads(reference.read_text(encoding="utf-8"))
    served = as_json.json()
    differences = [
        name
        for name in sorted(set(expected) | set(served))
        if expected.get(name) != served.get(name)
    ]
    assert differences == DOCUMENTED_DIFFERENCES.get(deployment.framework, [])


def test_the_project_command_writes_the_served_spec(
    deployment: Deployment, tmp_path: Path
) -> None:
    copy = tmp_path / "project"
    shutil.copytree(
        deployment.server.project, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    files = _spec_files(copy, deployment)
    for path in files:
        path.unlink()
    server = SERVERS[deployment.framework](copy, f"sqlite:///{tmp_path / 'x.db'}")
    server.oag_generate()
    json_route, yaml_route = _spec_routes(deployment)
    with deployment.client() as client:
        for path, route in zip(files, (json_route, yaml_route), strict=True):
            assert path.read_bytes() == client.get(route).content, route


@pytest.fixture(params=sqlite_params())
def docs_access(request: pytest.FixtureRequest, fleet: Fleet):
    """Servers of each example with DOCS_ACCESS set, by value (SQLite only)."""
    framework, example, database = request.param
    return lambda value: fleet.get(
        framework, example, database, f"docs-{value}", {"DOCS_ACCESS": value}
    )


def test_docs_access_off_removes_the_routes(docs_access) -> None:
    deployment: Deployment = docs_access("off")
    with deployment.api() as api:
        for url in ("/docs", *_spec_routes(deployment), "/docs/assets/docs.js"):
            response = api.get(url)
            assert response.status_code == 404, url
        resource = deployment.project.resources[0]
        assert api.get(f"/admin/resource/{resource.uri}/crud").status_code == 200


def test_docs_access_authenticated_refuses_strangers(docs_access) -> None:
    deployment: Deployment = docs_access("authenticated")
    urls = ("/docs", *_spec_routes(deployment))
    with deployment.api(log_in=False) as api:
        for url in urls:
            response = api.get(url)
            assert response.status_code == 401, url
            assert response.json() == UNAUTHENTICATED
        api.log_in()
        for url in urls:
            assert api.get(url).status_code == 200, url
