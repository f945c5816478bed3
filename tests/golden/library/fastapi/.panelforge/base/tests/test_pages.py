"""The pages every panel has, whatever its resources: home, templates, safety."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.core.users import User
from app.panel.templating import templates
from app.resources import RESOURCES
from tests.cases import HOME, REDIRECTS
from tests.helpers import EMAIL, PASSWORD, page_token

# Pages are for people, who log in with sessions: tested so in JWT projects too.
pytestmark = pytest.mark.panel_auth("session")


@pytest.mark.parametrize(("target", "expected"), REDIRECTS[:8])
def test_the_login_goes_on_only_to_this_site(
    anonymous: TestClient, user: User, target: str, expected: str
) -> None:
    assert user.email == EMAIL
    token = page_token(anonymous, "/admin/login")
    form = {"username": EMAIL, "password": PASSWORD, "_token": token, "next": target}
    response = anonymous.post(
        "/admin/authenticate",
        data=form,
        headers={"Accept": "text/html"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    assert response.headers["location"] == expected


def test_every_template_is_autoescaped() -> None:
    names = templates.env.list_templates()
    assert "panel/base.html" in names
    for name in names:
        assert name.endswith(".html"), name
        assert templates.env.autoescape(name) is True, name


def test_home_lists_every_resource_with_safe_headers(browser: TestClient) -> None:
    response = browser.get(HOME)
    assert response.status_code == 200
    for resource in RESOURCES:
        assert f"/admin/resource/{resource.uri}/index-page" in response.text
    headers = response.headers
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["cache-control"] == "no-store"
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert '<meta name="csrf-token" content="' in response.text


def test_static_files_are_served_and_cacheable(browser: TestClient) -> None:
    for path in (
        "/static/panel/panel.css",
        "/static/panel/panel.js",
        "/static/panel/picker.js",
    ):
        response = browser.get(path)
        assert response.status_code == 200
        assert "no-store" not in response.headers.get("cache-control", "")
        assert response.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("resource", RESOURCES, ids=lambda r: r.uri)
def test_every_resource_has_its_pages(browser: TestClient, resource: type) -> None:
    base = f"/admin/resource/{resource.uri}"
    for page in ("index-page", "form-page", "index-page?_fragment-load=table"):
        response = browser.get(f"{base}/{page}")
        assert response.status_code == 200, (page, response.text)
    fragment = browser.get(f"{base}/index-page?_fragment-load=table").text
    assert "<table" in fragment and "<html" not in fragment


def test_unknown_pages_are_404_pages(browser: TestClient) -> None:
    base = f"/admin/resource/{RESOURCES[0].uri}"
    for url in (
        f"{base}/no-page",
        f"{base}/detail-page/999999999",
        f"{base}/index-page?_fragment-load=nothing",
        "/admin/resource/no-such-resource/index-page",
        "/admin/nothing-here",
    ):
        response = browser.get(url)
        assert response.status_code == 404, url
        assert response.headers["content-type"].startswith("text/html"), url


def test_pages_are_for_browsers(client: TestClient) -> None:
    response = client.get(f"/admin/resource/{RESOURCES[0].uri}/index-page")
    assert response.status_code == 406
    assert "/crud" in response.json()["message"]
