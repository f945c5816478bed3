"""Edges where servers used to differ, run against every server we document (issue 19).

The FastAPI project under uvicorn (``python -m app serve``), the Django project under
gunicorn (its ``gunicorn.conf.py``) and under ``manage.py runserver`` answer the same:
the largest mass delete the spec allows (500 keys in the query string), long headers,
forms in another charset or with bytes that are not UTF-8, each with the same status
and a JSON body (never a server's own HTML error page).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx
import pytest
from conftest import RunserverServer, Server

from .conftest import EXAMPLE_IDS
from .support import (
    JSON,
    MAX_IDS,
    Api,
    Deployment,
    crud,
    marker_field,
    missing_key,
)

pytestmark = pytest.mark.e2e

# (framework, the server class, or None for the framework's own), by server name.
SERVED = {
    "uvicorn": ("fastapi", None),
    "gunicorn": ("django", None),
    "runserver": ("django", RunserverServer),
}
NOT_UTF8 = {
    "message": "The form is not valid UTF-8.",
    "errors": {"body": ["The form is not valid UTF-8."]},
}
CHARSET = {"message": "Send forms and JSON in UTF-8 (charset=utf-8)."}


@pytest.fixture(
    params=[(name, example) for name in SERVED for example in EXAMPLE_IDS],
    ids=[f"{name}-{example}" for name in SERVED for example in EXAMPLE_IDS],
)
def served(request: pytest.FixtureRequest, fleet) -> Deployment:
    """Each documented server of each example, on SQLite."""
    name, example = request.param
    framework, serve = SERVED[name]
    variant = name if serve is not None else ""
    return fleet.get(framework, example, "sqlite", variant, serve=serve)


def _big_keys(resource: Any, count: int) -> list[str]:
    """``count`` valid keys no record has, as long as such keys get."""
    if resource.key_field.type != "integer":
        return [missing_key(resource) for _ in range(count)]
    return [str(9_000_000_000 + n) for n in range(count)]


def _no_html(response: httpx.Response) -> None:
    assert response.headers["content-type"].startswith("application/json"), (
        response.status_code,
        response.text[:500],
    )


def test_the_largest_mass_delete_in_the_query_string(served: Deployment) -> None:
    resource = served.project.resources[0]
    with served.api() as api:
        made = [api.create(resource)[resource.key] for _ in range(3)]
        keys = [str(k) for k in made] + _big_keys(resource, MAX_IDS - len(made))
        query = "&".join(f"ids%5B%5D={quote(k)}" for k in keys)
        assert len(query) > 8190, "longer than gunicorn's longest request line"
        response = api.request("DELETE", f"{crud(resource)}?{query}")
        _no_html(response)
        assert response.status_code == 200, response.text[:500]
        assert response.json() == {
            "message": "Deleted",
            "messageType": "success",
            "deleted": 3,
        }
        one_more = f"{query}&ids%5B%5D={quote(_big_keys(resource, 1)[0])}1"
        refused = api.request("DELETE", f"{crud(resource)}?{one_more}")
        _no_html(refused)
        assert refused.status_code == 422
        message = f"The ids field must not have more than {MAX_IDS} items."
        assert refused.json() == {"message": message, "errors": {"ids": [message]}}


def test_long_headers_are_read(served: Deployment) -> None:
    resource = served.project.resources[0]
    with served.api() as api:
        padding = {"X-Padding": "p" * 12 * 1024}
        response = api.get(crud(resource), headers={**JSON, **padding})
        _no_html(response)
        assert response.status_code == 200, response.text[:500]


def _form_patch(api: Api, resource: Any, key: Any, body: bytes, charset: str) -> Any:
    content_type = "application/x-www-form-urlencoded"
    if charset:
        content_type += f"; charset={charset}"
    return api.request(
        "PATCH",
        crud(resource, key),
        content=body,
        headers={"Content-Type": content_type},
    )


def test_forms_are_utf8(served: Deployment) -> None:
    resource = served.project.resources[0]
    name = marker_field(resource).name
    with served.api() as api:
        key = api.create(resource)[resource.key]
        before = api.get(crud(resource, key)).json()
        utf16 = f"{name}=caf\u00e9".encode("utf-16")
        for charset in ("utf-16", "latin-1"):
            response = _form_patch(api, resource, key, utf16, charset)
            _no_html(response)
            assert (response.status_code, response.json()) == (415, CHARSET), charset
        form_type = "application/x-www-form-urlencoded; charset=utf-16"
        created = api.post(
            crud(resource), content=utf16, headers={"Content-Type": form_type}
        )
        _no_html(created)
        assert (created.status_code, created.json()) == (415, CHARSET)
        for charset in ("", "utf-8", "UTF-8"):
            broken = _form_patch(api, resource, key, f"{name}=%FF".encode(), charset)
            _no_html(broken)
            assert (broken.status_code, broken.json()) == (422, NOT_UTF8), charset
        assert api.get(crud(resource, key)).json() == before
        fine = _form_patch(api, resource, key, f"{name}=caf%C3%A9".encode(), "utf-8")
        assert fine.status_code == 200, fine.text
        assert fine.json()["data"][name] == "caf\u00e9"


def test_json_in_another_charset_is_415(served: Deployment) -> None:
    resource = served.project.resources[0]
    with served.api() as api:
        key = api.create(resource)[resource.key]
        response = api.request(
            "PATCH",
            crud(resource, key),
            content='{"x": 1}'.encode("utf-16"),
            headers={"Content-Type": "application/json; charset=utf-16"},
        )
        _no_html(response)
        assert (response.status_code, response.json()) == (415, CHARSET)


def test_servers_are_what_they_say(served: Deployment) -> None:
    """The fixture serves what its name says (the suite's own check)."""
    server: Server = served.server
    command = " ".join(server.serve_command())
    expected = {"fastapi": "app serve", "django": "gunicorn"}[served.framework]
    if isinstance(server, RunserverServer):
        expected = "runserver"
    assert expected in command
