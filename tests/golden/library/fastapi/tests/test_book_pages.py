"""The pages of the Book resource, used as a browser uses them."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.helpers import create, form_body, page_token

# Pages are for people, who log in with sessions: tested so in JWT projects too.
pytestmark = pytest.mark.panel_auth("session")

URI = "book-resource"
URL = "/admin/resource/book-resource/crud"
INDEX_PAGE = "/admin/resource/book-resource/index-page"
FORM_PAGE = "/admin/resource/book-resource/form-page"
DETAIL_PAGE = "/admin/resource/book-resource/detail-page"
KEY = "id"
HIDDEN = ()
DELETED = "” deleted."
SCRIPT_FIELD = "title"
SCRIPT = "<script>alert(1)</script>"
REQUIRED = ["title"]
REQUIRED_MESSAGE = "The Title field is required."
PATCH_FIELD = "title"
PATCH_VALUE = "Title 2"
AUTHOR_PAYLOAD = {
    "name": "Name 1",
    "email": "user1@example.com",
    "website": "https://example.com/item/1",
    "born_on": "2024-01-02",
}


@pytest.fixture
def payload(client: TestClient) -> dict[str, Any]:
    """A valid create body; the records it refers to are created first."""
    author = create(client, "author-resource", AUTHOR_PAYLOAD)
    return {
        "title": "Title 1",
        "isbn": "0000000000001",
        "pages": 1,
        "price": "1.50",
        "available": False,
        "genre": "science",
        "published_on": "2024-01-02",
        "summary": "A longer text, number 1.",
        "author": author["id"],
    }


def _submit(
    browser: TestClient, url: str, fields: dict[str, Any], **control: str
) -> Any:
    """Post ``fields`` as the page's form does, with its CSRF token."""
    form = {**form_body(fields), "_token": page_token(browser, INDEX_PAGE)}
    form.update({f"_{name}": value for name, value in control.items()})
    return browser.post(url, data=form, follow_redirects=False)


def test_create_through_the_form(
    browser: TestClient, client: TestClient, payload: dict[str, Any]
) -> None:
    assert browser.get(FORM_PAGE).status_code == 200
    response = _submit(browser, URL, payload)
    assert response.status_code == 303, response.text
    assert response.headers["location"] == INDEX_PAGE
    assert "” created." in browser.get(INDEX_PAGE).text  # "Book “Dune” created."
    assert client.get(URL).json()["total"] == 1


def test_a_failed_form_shows_the_errors_and_keeps_the_values(
    browser: TestClient, payload: dict[str, Any]
) -> None:
    sent = {name: value for name, value in payload.items() if name != REQUIRED[0]}
    response = _submit(browser, URL, sent)
    # Post/redirect/get: back to the form page, which shows the form once.
    assert response.status_code == 303, response.text
    assert response.headers["location"] == FORM_PAGE
    text = browser.get(FORM_PAGE).text
    assert REQUIRED_MESSAGE.split(" (and")[0] in text
    for name, value in form_body(sent).items():
        if name not in HIDDEN:
            assert value in text, name
    assert REQUIRED_MESSAGE.split(" (and")[0] not in browser.get(FORM_PAGE).text


def test_markup_in_values_is_escaped_on_every_page(
    browser: TestClient, client: TestClient, payload: dict[str, Any]
) -> None:
    record = create(client, URI, {**payload, SCRIPT_FIELD: SCRIPT})
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    for url in (
        INDEX_PAGE,
        f"{INDEX_PAGE}?_fragment-load=table",
        f"{DETAIL_PAGE}/{record[KEY]}",
        f"{FORM_PAGE}/{record[KEY]}",
    ):
        text = browser.get(url).text
        assert SCRIPT not in text, url
        assert escaped in text, url


def test_edit_and_delete_through_the_method_field(
    browser: TestClient, client: TestClient, payload: dict[str, Any]
) -> None:
    record = create(client, URI, payload)
    item = f"{URL}/{record[KEY]}"
    assert browser.get(f"{FORM_PAGE}/{record[KEY]}").status_code == 200
    assert browser.get(f"{DETAIL_PAGE}/{record[KEY]}").status_code == 200
    response = _submit(browser, item, {PATCH_FIELD: PATCH_VALUE}, method="PUT")
    assert response.status_code == 303, response.text
    assert client.get(item).json()[PATCH_FIELD] == PATCH_VALUE
    asked = _submit(browser, item, {}, method="DELETE", redirect=INDEX_PAGE)
    assert asked.status_code == 200 and 'name="_confirmed"' in asked.text
    assert client.get(item).status_code == 200  # asked, not yet deleted
    response = _submit(
        browser, item, {}, method="DELETE", redirect=INDEX_PAGE, confirmed="1"
    )
    assert response.status_code == 303
    assert response.headers["location"] == INDEX_PAGE
    assert DELETED in browser.get(INDEX_PAGE).text
    assert client.get(item).status_code == 404


def test_mass_delete_through_the_form(
    browser: TestClient, client: TestClient, payload: dict[str, Any]
) -> None:
    keys = [create(client, URI, payload)[KEY] for _ in range(2)]
    here = f"{INDEX_PAGE}?sort=-{KEY}"
    form = {
        "_token": page_token(browser, INDEX_PAGE),
        "_method": "DELETE",
        "_redirect": here,
        "ids[]": [str(key) for key in keys],
    }
    asked = browser.post(URL, data=form, follow_redirects=False)
    assert asked.status_code == 200 and asked.text.count('name="ids[]"') == 2
    confirmed = {**form, "_confirmed": "1"}
    response = browser.post(URL, data=confirmed, follow_redirects=False)
    assert response.status_code == 303, response.text
    assert response.headers["location"] == here
    assert "2 records deleted." in browser.get(here).text
    assert client.get(URL).json()["total"] == 0


def test_the_list_page_shows_records_and_loads_its_table_alone(
    browser: TestClient, client: TestClient, payload: dict[str, Any]
) -> None:
    record = create(client, URI, payload)
    detail = f"{DETAIL_PAGE}/{record[KEY]}"
    page = browser.get(INDEX_PAGE)
    assert page.status_code == 200 and detail in page.text
    fragment = browser.get(f"{INDEX_PAGE}?_fragment-load=table")
    assert detail in fragment.text and "<html" not in fragment.text
    shown = browser.get(f"{URL}/{record[KEY]}", follow_redirects=False)
    assert shown.headers["location"] == detail
