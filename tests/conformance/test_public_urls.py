"""The JSON answers' links are absolute: where the client reached the panel.

Direct requests get ``http://127.0.0.1:<port>/admin/…`` (every framework × example,
and Django under runserver and ASGI); proxy headers a client sends change nothing
(but the scheme, which uvicorn and gunicorn take from ``X-Forwarded-Proto`` when it
comes from 127.0.0.1, their ``FORWARDED_ALLOW_IPS`` default; runserver never does).
With ``TRUST_PROXY_HEADERS=1`` (one more deployment per framework, on the database of
its framework's server) the links follow ``X-Forwarded-Proto``,
``X-Forwarded-Host`` and ``X-Forwarded-Prefix``: the same strings on both frameworks,
page-number and cursor links keeping the request's query parameters.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest

from generator.model import ir

from .conftest import FRAMEWORKS, SESSION_EXAMPLES, own_server_params, sqlite_params
from .support import Api, Deployment, crud, new_marker, page_url

pytestmark = pytest.mark.e2e

EXAMPLE = "todo"
PROXY = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "panel.example.com",
    "X-Forwarded-Prefix": "/panel",
}
PUBLIC = "https://panel.example.com/panel"


def _resource(deployment: Deployment) -> ir.Resource:
    return next(r for r in deployment.project.resources if r.search)


def _urls(body: dict[str, Any]) -> list[str]:
    """Every URL a paginator body carries."""
    keys = ("path", "first_page_url", "last_page_url", "next_page_url")
    found = [body[k] for k in (*keys, "prev_page_url") if body.get(k)]
    return found + [link["url"] for link in body.get("links", []) if link["url"]]


def _list(api: Api, resource: ir.Resource, params: list, **headers: str) -> dict:
    response = api.get(crud(resource), params=params, headers=headers)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _check_pages(api: Api, origin: str, **headers: str) -> None:
    """Page-number and cursor links under ``origin``, with the query kept."""
    resource = _resource(api.deployment)
    marker = new_marker()
    api.create_many(resource, 3, marker)
    path = origin + crud(resource)
    params = [("search", marker), ("sort", resource.key), ("per_page", 1)]
    body = _list(api, resource, [*params, ("page", 2)], **headers)
    assert body["path"] == path
    link = {n: page_url(path, params, n) for n in (1, 2, 3)}
    assert (body["first_page_url"], body["last_page_url"]) == (link[1], link[3])
    assert (body["prev_page_url"], body["next_page_url"]) == (link[1], link[3])
    assert [x["url"] for x in body["links"]] == [link[1], *link.values(), link[3]]
    cursor = _list(api, resource, [*params, ("cursor", "")], **headers)
    token = cursor["next_cursor"]
    assert cursor["path"] == path
    following_page = f"{path}?{urlencode([*params, ('cursor', token)])}"
    assert cursor["next_page_url"] == following_page
    # The link is the request to send for that page (here without the proxy).
    parts = urlsplit(cursor["next_page_url"])
    following = api.get(f"{crud(resource)}?{parts.query}").json()
    assert following["prev_cursor"] and len(following["data"]) == 1


@pytest.fixture(params=sqlite_params() + own_server_params(SESSION_EXAMPLES))
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    with fleet.get(*request.param).api() as found:
        yield found


def test_links_are_absolute_on_the_server_the_client_reached(api: Api) -> None:
    _check_pages(api, api.deployment.base_url)
    resource = _resource(api.deployment)
    made = api.post(crud(resource), json=api.payload(resource))
    key = made.json()["data"][resource.key]
    assert made.headers["location"] == api.deployment.base_url + crud(resource, key)


def test_proxy_headers_are_ignored_by_default(api: Api) -> None:
    server = api.deployment.server
    scheme = "https" if server.trusts_forwarded_proto else "http"
    origin = f"{scheme}://{urlsplit(api.deployment.base_url).netloc}"
    _check_pages(api, origin, **PROXY)


def _trusted() -> list:
    return [pytest.param(f, id=f"{f}-{EXAMPLE}-sqlite") for f in FRAMEWORKS]


@pytest.fixture(params=_trusted())
def trusted(request: pytest.FixtureRequest, fleet: Any) -> Any:
    env = {"TRUST_PROXY_HEADERS": "1"}
    if request.param == "django":  # Django checks the forwarded host too
        env["ALLOWED_HOSTS"] = "127.0.0.1,localhost,panel.example.com"
    deployment = fleet.get(request.param, EXAMPLE, "sqlite", "proxy", env=env)
    with deployment.api() as found:
        yield found


def test_a_trusted_proxy_says_where_clients_are(trusted: Api) -> None:
    _check_pages(trusted, PUBLIC, **PROXY)
    resource = _resource(trusted.deployment)
    made = trusted.post(crud(resource), json=trusted.payload(resource), headers=PROXY)
    assert made.status_code == 201, made.text
    key = made.json()["data"][resource.key]
    assert made.headers["location"] == PUBLIC + crud(resource, key)


def test_a_trusted_proxy_takes_the_first_value_and_ignores_what_is_no_url(
    trusted: Api,
) -> None:
    base = trusted.deployment.base_url
    resource = _resource(trusted.deployment)
    first = {**PROXY, "X-Forwarded-Proto": "https, http"}
    assert _list(trusted, resource, [], **first)["path"].startswith(PUBLIC + "/")
    odd = {"X-Forwarded-Proto": "gopher", "X-Forwarded-Prefix": "no-slash"}
    assert _list(trusted, resource, [], **odd)["path"] == base + crud(resource)
    root = {**PROXY, "X-Forwarded-Prefix": "/"}
    body = _list(trusted, resource, [], **root)
    assert body["path"] == "https://panel.example.com" + crud(resource)


def test_without_proxy_headers_a_trusting_server_links_itself(trusted: Api) -> None:
    _check_pages(trusted, trusted.deployment.base_url)
