"""Post/redirect/get after a refused save, on both frameworks (issue 16).

A browser's create or edit form that the save refuses is answered with a 303 to its
form page; the page's next GET shows the form again as the refused answer did (the
error summary, the first wrong input focused and tied to its error, the values sent),
once: a reload shows the form afresh. The form travels in the session, never a
password. A form too big to keep in a session cookie (a long text) is shown again in
the answer to the save itself (422), as every refused form is in JWT mode, where
there is no session. JSON clients still get the JSON 422.

``examples/library.yaml`` (sessions) and ``examples/todo.yaml`` (JWT), on SQLite.
"""

from __future__ import annotations

import base64
import re
import zlib
from typing import Any

import pytest
from conftest import FRAMEWORKS

from generator.model import ir

from .support import (
    HTML,
    Database,
    Deployment,
    crud,
    form_text,
    new_marker,
    page,
    page_token,
)

SECRET = "hunter2-sesame-open"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
_VERSION = re.compile(r'<input type="hidden" name="_version" value="([^"]+)">')
_SUMMARY = '<div class="flash flash-error error-summary" role="alert">'


def _deployment(fleet: Any, framework: str, example: str) -> Deployment:
    found: Deployment = fleet.get(framework, example, "sqlite")
    return found


@pytest.fixture(params=FRAMEWORKS)
def library(request: pytest.FixtureRequest, fleet: Any) -> Deployment:
    return _deployment(fleet, request.param, "library")


def _post(api: Any, url: str, form: dict[str, str]) -> Any:
    return api.client.post(url, data=form, headers=HTML)


def _member_form(api: Any, email: str) -> dict[str, str]:
    member = api.project.resource("Member")
    token = page_token(api.client, page(member, "form-page"))
    return {
        "_token": token,
        "email": email,
        "password": SECRET,
        "joined_at": "2026-01-02T03:04:05",
        "rating": "3",
    }


def _session_text(deployment: Deployment, api: Any) -> str:
    """Everything the client's session holds now, as text."""
    cookie = api.client.cookies["panel_session"]
    if deployment.framework == "fastapi":
        data = cookie.split(".")[0]
        return base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)).decode()
    key = cookie
    rows = Database(deployment.server.database_url).execute(
        f"SELECT session_data FROM django_session WHERE session_key = '{key}'"
    )
    signed = str(rows[0][0]).split(":")[0]
    data = signed.removeprefix(".")  # "." marks a compressed payload
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return (zlib.decompress(raw) if signed.startswith(".") else raw).decode()


def _comparable(text: str) -> str:
    return _TOKEN.sub(r"\1…", text)


def test_a_refused_create_form_is_sent_back_to_its_page(library: Deployment) -> None:
    member = library.project.resource("Member")
    with library.api() as api:
        form = _member_form(api, "not-an-email")
        refused = _post(api, crud(member), form)
        assert refused.status_code == 303, refused.text[:2000]
        assert refused.headers["location"] == page(member, "form-page")
        kept = _session_text(library, api)
        assert "not-an-email" in kept, "the form is kept in the session"
        assert SECRET not in kept, "a password was kept in the session"

        shown = api.client.get(refused.headers["location"], headers=HTML)
        assert shown.status_code == 200, shown.text[:2000]
        text = shown.text
        assert _SUMMARY in text and "Please correct the errors below." in text
        assert '<a href="#field-email">Email: ' in text
        email = re.search(r'<input id="field-email"[^>]*>', text)
        assert email, text[:3000]
        assert 'value="not-an-email"' in email[0]
        assert 'aria-describedby="field-email-error"' in email[0]
        assert "autofocus" in email[0] and 'aria-invalid="true"' in email[0]
        assert 'id="field-email-error"' in text
        assert 'value="2026-01-02T03:04:05"' in text
        assert '<option value="3" selected>' in text
        assert SECRET not in text

        again = api.client.get(refused.headers["location"], headers=HTML)
        assert again.status_code == 200
        assert _SUMMARY not in again.text, "a reload shows the form afresh"
        assert "not-an-email" not in again.text
        assert "not-an-email" not in _session_text(library, api)


def _book(api: Any) -> tuple[ir.Resource, dict[str, Any]]:
    book = api.project.resource("Book")
    return book, api.create(book, 1, new_marker())


def _edit_form(api: Any, book: ir.Resource, record: dict[str, Any]) -> dict[str, str]:
    key = record[book.key]
    edit = api.client.get(page(book, "form-page", key), headers=HTML).text
    token = page_token(api.client, page(book, "form-page", key))
    version = _VERSION.search(edit)
    assert version, edit[:3000]
    fields = {f.name for f in book.fields if not f.read_only and f.name != book.key}
    values = {
        k: form_text(v) for k, v in record.items() if k in fields and v is not None
    }
    return {**values, "_token": token, "_method": "PUT", "_version": version[1]}


def test_a_refused_edit_form_keeps_its_values_and_version(library: Deployment) -> None:
    with library.api() as api:
        book, record = _book(api)
        key = record[book.key]
        form = {**_edit_form(api, book, record), "pages": "0", "title": "Mine <b>"}
        refused = _post(api, crud(book, key), form)
        assert refused.status_code == 303, refused.text[:2000]
        assert refused.headers["location"] == page(book, "form-page", key)
        text = api.client.get(refused.headers["location"], headers=HTML).text
        assert _SUMMARY in text and '<a href="#field-pages">Pages: ' in text
        assert 'value="Mine &lt;b&gt;"' in text and 'value="0"' in text
        assert f'name="_version" value="{form["_version"]}"' in text
        assert api.get(crud(book, key)).json()["title"] == record["title"]
        again = api.client.get(refused.headers["location"], headers=HTML).text
        assert _SUMMARY not in again and "Mine &lt;b&gt;" not in again


def test_an_edit_of_a_record_changed_meanwhile_comes_back_the_same_way(
    library: Deployment,
) -> None:
    with library.api() as api:
        book, record = _book(api)
        key = record[book.key]
        form = {**_edit_form(api, book, record), "title": "My title"}
        changed = api.request("PATCH", crud(book, key), json={"title": "Theirs"})
        assert changed.status_code == 200, changed.text
        refused = _post(api, crud(book, key), form)
        assert refused.status_code == 303, refused.text[:2000]
        assert refused.headers["location"] == page(book, "form-page", key)
        text = api.client.get(refused.headers["location"], headers=HTML).text
        assert "Someone else saved this" in text
        assert 'value="My title"' in text
        assert "Saved meanwhile: <strong>Theirs</strong>" in text
        again = api.client.get(refused.headers["location"], headers=HTML).text
        assert "Someone else saved this" not in again and 'value="Theirs"' in again


def test_a_form_too_big_to_keep_is_shown_in_the_answer(library: Deployment) -> None:
    """A session cookie holds about 4 KB: a long text is not kept, the refused form
    is the answer to the save, with every value."""
    with library.api() as api:
        book, record = _book(api)
        key = record[book.key]
        summary = "A long summary. " * 300
        form = {**_edit_form(api, book, record), "pages": "0", "summary": summary}
        refused = _post(api, crud(book, key), form)
        assert refused.status_code == 422, refused.text[:2000]
        assert _SUMMARY in refused.text and summary in refused.text
        assert "A long summary." not in _session_text(library, api)


def test_both_frameworks_show_the_same_refused_form(fleet: Any) -> None:
    pages = {}
    for framework in FRAMEWORKS:
        deployment = _deployment(fleet, framework, "library")
        member = deployment.project.resource("Member")
        with deployment.api() as api:
            refused = _post(api, crud(member), _member_form(api, "x@"))
            assert refused.status_code == 303, refused.text[:2000]
            shown = api.client.get(refused.headers["location"], headers=HTML)
            pages[framework] = _comparable(shown.text)
    assert pages["fastapi"] == pages["django"]


def test_json_clients_still_get_the_json_422(library: Deployment) -> None:
    member = library.project.resource("Member")
    with library.api() as api:
        body = {"email": "not-an-email", "password": SECRET}
        response = api.post(crud(member), json=body)
        assert response.status_code == 422
        assert set(response.json()["errors"]) == {"email"}
        assert "_refused_form" not in _session_text(library, api)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_without_a_session_the_refused_form_is_the_answer(
    fleet: Any, framework: str
) -> None:
    """JWT mode keeps nothing between requests: the form comes back as before."""
    deployment = _deployment(fleet, framework, "todo")
    task = deployment.project.resource("Task")
    with deployment.api() as api:
        form = {"title": "", "due_on": "2026-03-04", "done": "false"}
        refused = _post(api, crud(task), form)
        assert refused.status_code == 422, refused.text[:2000]
        assert _SUMMARY in refused.text and 'value="2026-03-04"' in refused.text
