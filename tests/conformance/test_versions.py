"""No lost update: record versions, ``ETag`` and ``If-Match`` (issue 19, finding 5).

Answers carrying one record send its version as a strong ``ETag``; a ``PUT``,
``PATCH`` or ``DELETE`` with a stale ``If-Match`` is 412 and changes nothing; of
writers that loaded the same version and save at once, exactly one succeeds. The edit
form carries the version it was loaded with: a stale save is sent back to the edit
form (a 303, post/redirect/get), which shows the user's input and, beside it, what
the other admin saved. ``REQUIRE_IF_MATCH=1`` makes
``If-Match`` mandatory (428 without it).
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from generator.model import ir

from .conftest import EXAMPLE_IDS, SESSION_EXAMPLES, _params, sqlite_params
from .support import (
    HTML,
    Api,
    Deployment,
    crud,
    marker_field,
    marker_value,
    new_marker,
    page,
    page_token,
)

STALE = {"message": "The record changed since you loaded it."}
REQUIRED = {
    "message": "Send If-Match with the record's ETag: this panel requires it to "
    "change or delete a record."
}
_VERSION = re.compile(r'name="_version" value="([0-9a-f]{32})"')
_ETAG = re.compile(r'^"[0-9a-f]{32}"$')
WRITERS = 8


def _etag(response: httpx.Response) -> str:
    found = response.headers.get("etag", "")
    assert _ETAG.match(found), (response.status_code, dict(response.headers))
    return found


def _first(deployment: Deployment) -> ir.Resource:
    return deployment.project.resources[0]


def test_every_answer_with_a_record_sends_its_version(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            created = api.post(crud(resource), json=api.payload(resource, 3))
            assert created.status_code == 201, created.text
            key = created.json()["data"][resource.key]
            shown = api.get(crud(resource, key))
            assert _etag(shown) == _etag(created), resource.name
            field = marker_field(resource)
            value = marker_value(field, new_marker(), 4)
            saved = api.request(
                "PATCH",
                crud(resource, key),
                json={field.name: value},
                headers={"If-Match": _etag(shown)},
            )
            assert saved.status_code == 200, saved.text
            again = api.get(crud(resource, key))
            assert _etag(saved) == _etag(again) != _etag(shown), resource.name
            # Nothing changed, nothing new: the version is the record's, not the time's.
            assert _etag(api.get(crud(resource, key))) == _etag(again)
            listed = api.get(crud(resource))
            assert "etag" not in listed.headers  # a page of records has no one version


def test_a_stale_if_match_is_412_and_changes_nothing(deployment: Deployment) -> None:
    resource = _first(deployment)
    field = marker_field(resource)
    with deployment.api() as first, deployment.api() as second:
        key = first.create(resource)[resource.key]
        url = crud(resource, key)
        loaded = _etag(first.get(url))
        assert _etag(second.get(url)) == loaded  # both admins open the same record
        mine = marker_value(field, new_marker(), 1)
        saved = first.request(
            "PATCH", url, json={field.name: mine}, headers={"If-Match": loaded}
        )
        assert saved.status_code == 200, saved.text
        for method in ("PATCH", "PUT"):
            theirs = marker_value(field, new_marker(), 2)
            refused = second.request(
                method, url, json={field.name: theirs}, headers={"If-Match": loaded}
            )
            assert refused.status_code == 412, (method, refused.text)
            assert refused.json() == STALE
            assert refused.headers["content-type"].startswith("application/json")
        deleted = second.request("DELETE", url, headers={"If-Match": loaded})
        assert deleted.status_code == 412 and deleted.json() == STALE
        assert second.get(url).json()[field.name] == mine
        weak = second.request("DELETE", url, headers={"If-Match": f"W/{_etag(saved)}"})
        assert weak.status_code == 412, "a weak tag never matches"
        listed = f'"{"0" * 32}", {_etag(saved)}'
        anyone = second.request(
            "PATCH", url, json={field.name: mine}, headers={"If-Match": listed}
        )
        assert anyone.status_code == 200, "one tag of a list matches"
        star = second.request("PATCH", url, json={}, headers={"If-Match": "*"})
        assert star.status_code == 200, star.text
        current = _etag(second.get(url))
        gone = second.request("DELETE", url, headers={"If-Match": current})
        assert gone.status_code == 200, gone.text
        missing = second.request("DELETE", url, headers={"If-Match": "*"})
        assert missing.status_code == 404


@pytest.fixture(params=_params(EXAMPLE_IDS[:1]))
def threaded(request: pytest.FixtureRequest, fleet) -> Deployment:
    """A deployment whose server takes requests in parallel (gunicorn with threads;
    uvicorn's thread pool already does)."""
    framework, example, database = request.param
    env = {"GUNICORN_CMD_ARGS": f"--threads {WRITERS}"}
    return fleet.get(framework, example, database, "threads", env)


def test_of_writers_of_one_version_exactly_one_wins(threaded: Deployment) -> None:
    resource = _first(threaded)
    field = marker_field(resource)
    clients = [threaded.api() for _ in range(WRITERS)]
    try:
        for round_ in range(3):
            key = clients[0].create(resource)[resource.key]
            url = crud(resource, key)
            loaded = _etag(clients[0].get(url))
            start = threading.Barrier(WRITERS)

            def save(
                n: int,
                url: str = url,
                loaded: str = loaded,
                start: threading.Barrier = start,
            ) -> Any:
                value = marker_value(field, new_marker(), n)
                start.wait()
                response = clients[n].request(
                    "PATCH", url, json={field.name: value}, headers={"If-Match": loaded}
                )
                return response.status_code, value

            with ThreadPoolExecutor(WRITERS) as pool:
                answers = list(pool.map(save, range(WRITERS)))
            statuses = sorted(status for status, _ in answers)
            assert statuses == [200] + [412] * (WRITERS - 1), (round_, statuses)
            won = next(value for status, value in answers if status == 200)
            assert clients[0].get(url).json()[field.name] == won
    finally:
        for client in clients:
            client.client.close()


@pytest.fixture(params=_params(SESSION_EXAMPLES))
def browser(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


def _form(api: Api, resource: ir.Resource, key: Any) -> tuple[str, str, str]:
    """The edit form of ``key``: its HTML, the CSRF token and the version it carries."""
    html = api.get(page(resource, "form-page", key), headers=HTML).text
    found = _VERSION.search(html)
    assert found, html[:3000]
    return html, page_token(api.client, page(resource, "form-page", key)), found[1]


def _save(api: Api, url: str, token: str, version: str, **values: str) -> Any:
    form = {"_token": token, "_method": "PUT", "_version": version, **values}
    return api.post(url, data=form, headers=HTML)


def test_a_stale_form_comes_back_beside_the_other_admins_values(
    browser: Deployment,
) -> None:
    resource = _first(browser)
    field = marker_field(resource)
    with browser.api() as first, browser.api() as second:
        key = first.create(resource)[resource.key]
        url = crud(resource, key)
        _html, token_1, version = _form(first, resource, key)
        _html, token_2, same = _form(second, resource, key)
        assert same == version
        theirs = marker_value(field, new_marker(), 1)
        saved = _save(second, url, token_2, same, **{field.name: theirs})
        assert saved.status_code == 303, saved.text
        mine = marker_value(field, new_marker(), 2)
        refused = _save(first, url, token_1, version, **{field.name: mine})
        # Post/redirect/get: back to the edit form, which shows the refused form.
        assert refused.status_code == 303, refused.text[:2000]
        assert refused.headers["location"] == page(resource, "form-page", key)
        stale = first.get(refused.headers["location"], headers=HTML)
        assert stale.headers["content-type"].startswith("text/html")
        assert "Someone else saved this" in stale.text
        assert f'value="{mine}"' in stale.text  # the user's input is kept
        assert f"Saved meanwhile: <strong>{theirs}</strong>" in stale.text
        assert first.get(url).json()[field.name] == theirs  # nothing overwritten
        # The form now carries the version the user has seen: saving again wins.
        newer = _VERSION.search(stale.text)
        assert newer and newer[1] != version
        again = _save(first, url, token_1, newer[1], **{field.name: mine})
        assert again.status_code == 303, again.text[:2000]
        assert first.get(url).json()[field.name] == mine


def test_a_form_with_errors_keeps_the_version_it_was_loaded_with(
    browser: Deployment,
) -> None:
    resource = _first(browser)
    field = marker_field(resource)
    with browser.api() as first, browser.api() as second:
        key = first.create(resource)[resource.key]
        url = crud(resource, key)
        _html, token, version = _form(first, resource, key)
        theirs = marker_value(field, new_marker(), 1)
        second.request("PATCH", url, json={field.name: theirs})
        # Too long to keep in the session: the refused form is the answer (422).
        invalid = _save(first, url, token, version, **{field.name: "x" * 5000})
        assert invalid.status_code == 422, invalid.text[:2000]
        kept = _VERSION.search(invalid.text)
        assert kept and kept[1] == version, "the version the user loaded, not the new"
        mine = marker_value(field, new_marker(), 2)
        stale = _save(first, url, token, kept[1], **{field.name: mine})
        assert stale.status_code == 303
        assert first.get(url).json()[field.name] == theirs


def test_a_stale_delete_from_the_detail_page_is_refused(browser: Deployment) -> None:
    resource = _first(browser)
    field = marker_field(resource)
    with browser.api() as api:
        key = api.create(resource)[resource.key]
        detail = api.get(page(resource, "detail-page", key), headers=HTML).text
        found = _VERSION.search(detail)
        assert found, detail[:3000]
        api.request("PATCH", crud(resource, key), json={field.name: "changed"})
        token = page_token(api.client, page(resource, "detail-page", key))
        form = {
            "_token": token,
            "_method": "DELETE",
            "_version": found[1],
            "_confirmed": "1",  # the confirmation page's form carries the version
        }
        refused = api.post(crud(resource, key), data=form, headers=HTML)
        assert refused.status_code == 412, refused.text[:2000]
        assert STALE["message"] in refused.text
        assert api.get(crud(resource, key)).status_code == 200


@pytest.fixture(params=sqlite_params())
def strict(request: pytest.FixtureRequest, fleet) -> Deployment:
    """A deployment with ``REQUIRE_IF_MATCH=1``."""
    framework, example, database = request.param
    return fleet.get(framework, example, database, "strict", {"REQUIRE_IF_MATCH": "1"})


def test_if_match_can_be_required(strict: Deployment) -> None:
    resource = _first(strict)
    field = marker_field(resource)
    with strict.api() as api:
        key = api.create(resource)[resource.key]
        url = crud(resource, key)
        value = marker_value(field, new_marker(), 1)
        for method in ("PATCH", "PUT", "DELETE"):
            refused = api.request(method, url, json={field.name: value})
            assert refused.status_code == 428, (method, refused.text)
            assert refused.json() == REQUIRED
        version = _etag(api.get(url))
        saved = api.request(
            "PATCH", url, json={field.name: value}, headers={"If-Match": version}
        )
        assert saved.status_code == 200, saved.text
        if not strict.jwt:  # the edit form sends its version itself
            _html, token, loaded = _form(api, resource, key)
            form = _save(api, url, token, loaded, **{field.name: value + "x"})
            assert form.status_code == 303, form.text[:2000]
        deleted = api.request("DELETE", url, headers={"If-Match": _etag(api.get(url))})
        assert deleted.status_code == 200, deleted.text
        # Creating needs no version; deleting many records takes none.
        assert api.post(crud(resource), json=api.payload(resource)).status_code == 201
