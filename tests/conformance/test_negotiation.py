"""Content negotiation by q-values (RFC 9110 §12.5.1), the same on both frameworks.

The API answers JSON unless the client prefers ``text/html``: ``*/*`` (what httpx,
curl and generated clients send) and an empty ``Accept`` get JSON, so a plain client's
create answers 201 with the record, never a redirect. A client that prefers HTML gets
the pages; one that accepts neither gets 406 before anything is done. Pages answer
HTML unless the client names JSON and ranks it at least as high (``*/*`` is a page).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import sqlite_params
from .support import Api, crud, marker_field, new_marker, page

pytestmark = pytest.mark.e2e

JSON_ANSWERS = (
    "*/*",
    "",
    "application/json",
    "text/html;q=0.5, application/json",
    "text/html, application/json",  # a tie: the API's own format
    "application/vnd.api+json",
)
HTML_ANSWERS = (
    "text/html",
    "application/json;q=0, text/html",
    "application/json;q=0.5, text/html;q=0.9",
    "text/html,application/xhtml+xml,*/*;q=0.8",  # a browser
)
NEITHER = ("text/plain", "application/xml", "application/json;q=0")


@pytest.fixture(params=sqlite_params())
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    with fleet.get(*request.param).api() as found:
        yield found


def _count(api: Api, resource: Any, marker: str) -> int:
    listed = api.get(crud(resource), params={"search": marker})
    assert listed.status_code == 200, listed.text
    return int(listed.json()["total"])


def test_the_api_answers_json_unless_html_is_preferred(api: Api) -> None:
    resource = api.project.resources[0]
    marker = new_marker()
    for n, accept in enumerate(JSON_ANSWERS, start=1):
        headers = {"Accept": accept}
        created = api.post(
            crud(resource), json=api.payload(resource, n, marker), headers=headers
        )
        assert created.status_code == 201, (accept, created.text)
        assert created.headers["content-type"].startswith("application/json")
        key = created.json()["data"][resource.key]
        listed = api.get(crud(resource), headers=headers)
        assert listed.status_code == 200, (accept, listed.text)
        shown = api.get(crud(resource, key), headers=headers)
        assert shown.status_code == 200 and shown.json()[resource.key] == key
    for accept in HTML_ANSWERS:
        listed = api.get(crud(resource) + "?sort=-id", headers={"Accept": accept})
        assert listed.status_code == 303, (accept, listed.text)
        location = listed.headers["location"]
        assert location == page(resource, "index-page") + "?sort=-id"
    assert _count(api, resource, marker) == len(JSON_ANSWERS)


def test_a_client_accepting_neither_gets_406_and_nothing_is_done(api: Api) -> None:
    resource = api.project.resources[0]
    field = marker_field(resource)
    marker = new_marker()
    record = api.create(resource, 1, marker)
    item = crud(resource, record[resource.key])
    for accept in NEITHER:
        headers = {"Accept": accept}
        for method, url, body in (
            ("POST", crud(resource), api.payload(resource, 2, marker)),
            ("GET", crud(resource), None),
            ("GET", item, None),
            ("PATCH", item, {field.name: f"{marker} changed"}),
            ("DELETE", item, None),
            ("DELETE", crud(resource), {"ids": [record[resource.key]]}),
        ):
            answer = api.request(method, url, json=body, headers=headers)
            assert answer.status_code == 406, (accept, method, url, answer.text)
            assert answer.json() == {
                "message": "Send `Accept: application/json`: this URL answers JSON."
            }
    assert _count(api, resource, marker) == 1
    assert api.get(item).json()[field.name] == record[field.name]


def test_pages_answer_html_unless_json_is_preferred(api: Api) -> None:
    resource = api.project.resources[0]
    url = page(resource, "index-page")
    for accept in (
        "application/json",
        "text/html;q=0.1, application/json",
        "application/json, text/html",  # named, and ranked as high
    ):
        refused = api.get(url, headers={"Accept": accept})
        assert refused.status_code == 406, (accept, refused.text)
        assert crud(resource) in refused.json()["message"]
    for accept in ("*/*", "", "text/html, application/json;q=0.9", "text/html"):
        answer = api.get(url, headers={"Accept": accept})
        assert answer.status_code != 406, (accept, answer.text)
        assert answer.headers["content-type"].startswith("text/html"), accept
