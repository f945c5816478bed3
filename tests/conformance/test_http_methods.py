"""HEAD and OPTIONS as RFC 9110 defines them, the same on both frameworks.

HEAD answers as GET does without the body: same status, same headers, the
``Content-Length`` of the GET's body; on pages and JSON routes, logged in or not.
OPTIONS (not a CORS preflight) is 204 with ``Allow`` naming the path's methods; a
method the path does not take is 405 with the same ``Allow``. A GET or HEAD of a URL
with a trailing slash is redirected (308) to the URL without, when that is a route;
other methods get 404. No database changes any of it: SQLite only.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .conftest import sqlite_params
from .support import Api, crud, page

pytestmark = pytest.mark.e2e

# Headers that may differ between two answers to the same request.
_VOLATILE = {"date", "content-length", "set-cookie", "transfer-encoding"}


@pytest.fixture(params=sqlite_params())
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    with fleet.get(*request.param).api() as found:
        yield found


def _allow(response: Any) -> set[str]:
    return {m.strip() for m in response.headers["allow"].split(",")}


def _assert_head_is_get(api: Api, url: str, headers: dict[str, str]) -> None:
    got = api.get(url, headers=headers)
    head = api.request("HEAD", url, headers=headers)
    assert head.status_code == got.status_code, (url, head.status_code)
    assert head.content == b""
    assert int(head.headers["content-length"]) == len(got.content), url
    kept = {k: v for k, v in got.headers.items() if k not in _VOLATILE}
    assert {k: v for k, v in head.headers.items() if k not in _VOLATILE} == kept


def test_head_answers_as_get_without_the_body(api: Api) -> None:
    resource = api.project.resources[0]
    record = api.create(resource)
    html = {"Accept": "text/html"}
    for url, headers in (
        (crud(resource), {}),
        (crud(resource, record[resource.key]), {}),
        (crud(resource, 0), {}),  # 404
        (page(resource, "index-page"), html),
        ("/admin", html),
    ):
        _assert_head_is_get(api, url, headers)
    with api.deployment.api(log_in=False) as anonymous:
        _assert_head_is_get(anonymous, crud(resource), {})  # 401
        _assert_head_is_get(anonymous, "/admin/login", html)


def test_options_answers_204_with_allow(api: Api) -> None:
    resource = api.project.resources[0]
    for url, allowed in (
        (crud(resource), {"DELETE", "GET", "POST"}),
        (crud(resource, 1), {"DELETE", "GET", "PATCH", "PUT"}),
        ("/admin/logout", {"DELETE", "POST"}),
        # The handler route takes any method; each handler answers its own.
        (f"/admin/resource/{resource.uri}/handler/export", {"GET"}),
        (f"/admin/resource/{resource.uri}/handler/import", {"POST"}),
    ):
        response = api.request("OPTIONS", url)
        assert response.status_code == 204, (url, response.text)
        assert response.content == b""
        assert _allow(response) == allowed | {"OPTIONS"} | (
            {"HEAD"} if "GET" in allowed else set()
        )
        wrong = api.request("PUT" if "PUT" not in allowed else "POST", url, json={})
        assert wrong.status_code == 405, (url, wrong.text)
        assert wrong.json() == {"message": "Method Not Allowed"}
        assert _allow(wrong) == _allow(response)
    unknown = api.request("OPTIONS", "/admin/nothing-here")
    assert unknown.status_code == 404
    assert unknown.json() == {"message": "Not Found"}


def test_a_trailing_slash_redirects_get_and_head_only(api: Api) -> None:
    resource = api.project.resources[0]
    url = crud(resource)
    for method in ("GET", "HEAD"):
        moved = api.request(method, f"{url}/?page=2&search=a%20b")
        assert moved.status_code == 308, (method, moved.text)
        assert moved.headers["location"] == f"{url}?page=2&search=a%20b"
        assert moved.content == b""
    assert api.get("/admin/").headers["location"] == "/admin"
    refused = api.post(f"{url}/", json=api.payload(resource))
    assert refused.status_code == 404, refused.text
    assert refused.json() == {"message": "Not Found"}
    base = httpx.URL(api.deployment.base_url)
    for nowhere in (b"/admin/nothing-here/", b"//elsewhere.example/"):
        missing = api.get(base.copy_with(raw_path=nowhere))
        assert missing.status_code == 404, nowhere
        assert "location" not in missing.headers
