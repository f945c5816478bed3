"""Helpers shared by the API and page tests."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.main import create_app
from panel_core.composite_keys import join_key
from tests.uploads import sample_uploads

try:
    from fastapi.routing import iter_route_contexts
except ImportError:  # FastAPI before 0.137.2 lists every route in app.routes itself

    def iter_route_contexts(routes: Iterable[Any]) -> Iterator[Any]:
        """The routes as they are."""
        yield from routes


EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"
_META_TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]*)">')
_SAMPLES = json.loads(Path(__file__).with_name("samples.json").read_text("utf-8"))
# Resources whose records the client names (a code, say): their key field and the
# keys ``create`` gives, one per record, after the one in the test's own payload.
GIVEN_KEYS = {s["resource"]: (s["key"], s["keys"]) for s in _SAMPLES if "keys" in s}
# Per resource, the sample body and the values ``create`` gives its unique fields
# (and one member of each unique group), one per record, where a payload keeps the
# sample's value.
DISTINCT = {
    s["resource"]: (s["body"], s["distinct"]) for s in _SAMPLES if "distinct" in s
}
# Per resource that requires a file or an image: the files a create uploads.
UPLOADS = {s["resource"]: sample_uploads(s) for s in _SAMPLES if "files" in s}
_given: Counter[str] = Counter()
_made: Counter[str] = Counter()


def log_in(client: TestClient, email: str, password: str) -> str:
    """Log in as a JSON client does; returns the session's CSRF token."""
    response = client.post(
        "/admin/authenticate",
        json={"username": email, "password": password},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 200, response.text
    token: str = response.json()["csrf_token"]
    return token


def authorize(client: TestClient, email: str, password: str) -> None:
    """Log in as a JSON client does, then send on every request what the login gave.

    That is the session's CSRF token (the session cookie goes by itself), or with JWT
    the bearer token.
    """
    response = client.post(
        "/admin/authenticate",
        json={"username": email, "password": password},
        headers={"Accept": "application/json"},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    if "token" in body:
        client.headers["Authorization"] = f"Bearer {body['token']}"
    else:
        client.headers["X-CSRF-Token"] = body["csrf_token"]


def app_with(app: FastAPI, **changes: Any) -> FastAPI:
    """Another app on the same database, with some settings changed."""
    return create_app(app.state.settings.model_copy(update=changes))


def page_token(client: TestClient, url: str = "/admin") -> str:
    """The CSRF token a page carries in its ``<meta name="csrf-token">``."""
    page = client.get(url, headers={"Accept": "text/html"})
    found = _META_TOKEN.search(page.text)
    assert found, page.text
    return found.group(1)


def log_in_with_form(client: TestClient, email: str, password: str) -> None:
    """Log in through the login page's form, as a person does."""
    token = page_token(client, "/admin/login")
    form = {"username": email, "password": password, "_token": token}
    response = client.post("/admin/authenticate", data=form, follow_redirects=False)
    assert response.status_code == 303, response.text


def create(client: TestClient, uri: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Create a record of the resource ``uri`` through the API and return it.

    Where the client names the records (``GIVEN_KEYS``), each gets a key of its own;
    each gets values of its own for the unique fields the payload leaves as sampled.
    """
    if uri in GIVEN_KEYS:
        field, keys = GIVEN_KEYS[uri]
        assert _given[uri] < len(keys), f"tests/samples.json: add keys for {uri}"
        payload = {**payload, field: keys[_given[uri]]}
        _given[uri] += 1
    if uri in DISTINCT:
        body, distinct = DISTINCT[uri]
        kept = [name for name in distinct if payload.get(name) == body.get(name)]
        for name in kept:
            message = f"tests/samples.json: add values of {name} for {uri}"
            assert _made[uri] < len(distinct[name]), message
            payload = {**payload, name: distinct[name][_made[uri]]}
        _made[uri] += 1
    response = post_create(client, uri, payload)
    assert response.status_code == 201, response.text
    record: dict[str, Any] = response.json()["data"]
    return record


def record_key(key: str | list[str], record: Mapping[str, Any]) -> Any:
    """The key that names ``record`` in its URL: the value of its key field, or a
    composite key's parts' values joined by the kernel's codec (``3,17``)."""
    if isinstance(key, list):
        return join_key([record[part] for part in key])
    return record[key]


def segment(parts: list[str], record: Mapping[str, Any], *, quoted: bool = True) -> str:
    """The URL path segment of a record of a composite-key resource: its ``parts``'
    values joined by the kernel's codec (``3,17``), quoted once more as any path
    segment (``3%2C17``) unless ``quoted`` is false (a mass delete's ``ids``)."""
    key = join_key([record[part] for part in parts])
    return quote(key, safe="") if quoted else key


def post_create(
    client: TestClient, uri: str, payload: Mapping[str, Any]
) -> httpx.Response:
    """POST a create body to the resource ``uri``: as JSON, or as a multipart form
    with the files of ``UPLOADS`` where the resource requires one (JSON cannot carry
    a file)."""
    url = f"/admin/resource/{uri}/crud"
    if uri in UPLOADS:
        return client.post(url, data=form_body(payload), files=UPLOADS[uri])
    return client.post(url, json=payload)


def forget_given_keys() -> None:
    """Give the keys of ``GIVEN_KEYS`` and the values of ``DISTINCT`` from the first
    again (the tables are empty)."""
    _given.clear()
    _made.clear()


def assert_record(
    record: Mapping[str, Any],
    payload: Mapping[str, Any],
    hidden: Collection[str] = (),
) -> None:
    """The record holds what the payload sent, except hidden (write-only) fields."""
    for name in hidden:
        assert name not in record
    sent = {name: value for name, value in payload.items() if name not in hidden}
    assert {name: record[name] for name in sent} == sent


def form_body(payload: Mapping[str, Any]) -> dict[str, str]:
    """The payload as an HTML form would send it: every value a string."""
    return {name: _form_value(value) for name, value in payload.items()}


def _form_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def csv_without(text: str, column: str) -> list[list[str]]:
    """The rows of a CSV export, header included, without ``column``."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    position = rows[0].index(column)
    return [row[:position] + row[position + 1 :] for row in rows]
