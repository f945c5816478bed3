"""Import in the UI (issue 16): upload, a preview that writes nothing, then confirm.

A browser's session posts the import page's forms as they are (multipart, the token
in ``_token``): the upload asks for a preview (``dry_run=1``), which counts the rows
to create and to update and lists every row's error (malformed rows, values a form
refuses, a relation to a record that does not exist) and writes nothing; a preview
without errors carries the file to its confirm form, whose post checks everything
again and imports all rows or none; a file too large to carry in a form field is
chosen again there. The library example on both frameworks and every database.
"""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from typing import Any

import pytest

from .conftest import _params
from .support import HTML, Api, Deployment, crud, new_marker, page

CSRF = "CSRF token mismatch."


@pytest.fixture(params=_params(["library"]))
def browser(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


class _Forms(HTMLParser):
    """Each form of a page: its class, action and the values of its hidden inputs."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self.forms.append({**found, "fields": {}, "files": []})
        elif tag == "input" and self.forms:
            if found.get("type") == "hidden":
                self.forms[-1]["fields"][found["name"]] = found.get("value") or ""
            elif found.get("type") == "file":
                self.forms[-1]["files"].append(found["name"])


def _form(html: str, css_class: str) -> dict[str, Any] | None:
    parser = _Forms()
    parser.feed(html)
    return next((f for f in parser.forms if css_class in f["class"].split()), None)


def _as_browser(api: Api) -> Api:
    """``api``'s session, sending its token in forms only (as a browser does)."""
    del api.client.headers["X-CSRF-Token"]
    api.client.headers["Accept"] = "text/html"
    return api


def _preview(api: Api, text: str, **extra: str) -> Any:
    """The import page's upload form, sent with ``text`` as its file."""
    book = api.project.resource("Book")
    form = _form(api.get(page(book, "import-page"), headers=HTML).text, "upload")
    assert form is not None and form["fields"]["dry_run"] == "1"
    files = {"file": ("books.csv", text.encode(), "text/csv")}
    data = {**form["fields"], **extra}
    return api.post(form["action"], data=data, files=files, headers=HTML)


def _post(api: Api, action: str, fields: dict[str, str | None]) -> Any:
    """A multipart form of text fields only, as the confirm form is sent."""
    parts = {name: (None, value) for name, value in fields.items() if value is not None}
    return api.post(action, files=parts, headers=HTML)


def _titles(api: Api, marker: str) -> dict[str, Any]:
    book = api.project.resource("Book")
    params = {"search": marker, "per_page": 100}
    found = api.client.get(
        crud(book), params=params, headers={"Accept": "application/json"}
    )
    return {r["title"]: r for r in found.json()["data"]}


def _error_table(html: str) -> list[tuple[str, str]]:
    body = html.split('<table class="records import-errors">', 1)[1]
    body = body.split("</table>", 1)[0]
    cells = r'<tr><td data-label="Row">([^<]*)</td><td data-label="Error">([^<]*)</td>'
    return re.findall(cells, body)


def test_a_preview_counts_the_rows_writes_nothing_and_confirm_imports(
    browser: Deployment,
) -> None:
    with browser.api() as api:
        book = api.project.resource("Book")
        marker = new_marker()
        kept = api.create(book, 1, marker)
        _as_browser(api)
        text = (
            "id,title,pages\n"
            f"{kept['id']},{marker} renamed,12\n"
            f",{marker} one,100\n"
            f",{marker} two,200\n"
        )
        preview = _preview(api, text)
        assert preview.status_code == 200, preview.text[:3000]
        assert '<strong class="to-create">2</strong>' in preview.text
        assert '<strong class="to-update">1</strong>' in preview.text
        assert "import-errors" not in preview.text
        assert list(_titles(api, marker)) == [kept["title"]], "the preview wrote"
        confirm = _form(preview.text, "import-confirm")
        assert confirm is not None, preview.text[:3000]
        assert base64.b64decode(confirm["fields"]["content"]).decode() == text
        for token in (None, "not the token"):
            fields = {**confirm["fields"], "_token": token}
            refused = _post(api, confirm["action"], fields)
            assert refused.status_code == 403, refused.text[:2000]
            assert CSRF in refused.text
            assert list(_titles(api, marker)) == [kept["title"]]
        done = _post(api, confirm["action"], confirm["fields"])
        assert done.status_code == 303, done.text[:2000]
        index = page(book, "index-page")
        assert done.headers["location"] == index
        shown = api.get(index, headers=HTML).text
        assert "Imported 3 Books: 2 created, 1 updated." in shown
        titles = _titles(api, marker)
        assert sorted(titles) == sorted(
            [f"{marker} renamed", f"{marker} one", f"{marker} two"]
        )
        assert titles[f"{marker} renamed"]["pages"] == 12


def test_the_preview_lists_every_row_error_and_offers_no_confirm(
    browser: Deployment,
) -> None:
    with browser.api() as api:
        marker = new_marker()
        _as_browser(api)
        text = (
            "title,pages,author\n"
            f"{marker} good,10,\n"
            ",5,\n"
            f"{marker} short row\n"
            f"{marker} too long,0,\n"
            f"{marker} nobody's,3,999999999\n"
            + "".join(f"{marker} fine {n},{n},\n" for n in (7, 8, 9))
            + ",10,\n,11,\n"  # rows 10 and 11: after row 6, not after row 1
        )
        preview = _preview(api, text)
        assert preview.status_code == 422, preview.text[:3000]
        rows = _error_table(preview.text)
        assert [row for row, _ in rows] == [
            *("Row 3", "Row 4", "Row 5", "Row 6", "Row 10", "Row 11")
        ]
        messages = dict(rows)
        assert "title" in messages["Row 3"].lower()
        assert messages["Row 4"] == "The row has 1 cells; the header has 3."
        assert "pages" in messages["Row 5"].lower()
        assert "author" in messages["Row 6"].lower()
        assert "6 rows cannot be imported" in preview.text
        assert _form(preview.text, "import-confirm") is None
        assert _form(preview.text, "upload") is not None, "to upload it again"
        assert _titles(api, marker) == {}, "the preview wrote"


def test_a_confirm_checks_the_carried_file_again(browser: Deployment) -> None:
    with browser.api() as api:
        marker = new_marker()
        _as_browser(api)
        preview = _preview(api, f"title,pages\n{marker} fine,10\n")
        confirm = _form(preview.text, "import-confirm")
        assert confirm is not None, preview.text[:3000]
        altered = f"title,pages\n{marker} fine,10\n{marker} bad,0\n"
        carried = base64.b64encode(altered.encode()).decode()
        fields = {**confirm["fields"], "content": carried}
        answer = _post(api, confirm["action"], fields)
        assert answer.status_code == 422, answer.text[:2000]
        assert [row for row, _ in _error_table(answer.text)] == ["Row 3"]
        assert _titles(api, marker) == {}, "a refused confirm wrote"
        fields["content"] = "not base64!"
        answer = _post(api, confirm["action"], fields)
        assert answer.status_code == 422, answer.text[:2000]
        assert "could not be read; upload it again" in answer.text


def test_a_file_too_large_to_carry_is_chosen_again(browser: Deployment) -> None:
    with browser.api() as api:
        marker = new_marker()
        _as_browser(api)
        padding = "x" * 150
        text = "title,pages\n" + "".join(
            f"{marker} {n} {padding},{n % 900 + 1}\n" for n in range(2600)
        )
        assert 393 * 1024 < len(text) < 1024 * 1024  # over 512 KiB as base64
        preview = _preview(api, text)
        assert preview.status_code == 200, preview.text[:3000]
        assert '<strong class="to-create">2600</strong>' in preview.text
        confirm = _form(preview.text, "import-confirm")
        assert confirm is not None, preview.text[:3000]
        assert "content" not in confirm["fields"] and confirm["files"] == ["file"]
        files = {"file": ("books.csv", text.encode(), "text/csv")}
        done = api.post(confirm["action"], data=confirm["fields"], files=files)
        assert done.status_code == 303, done.text[:2000]
        book = api.project.resource("Book")
        found = api.client.get(
            crud(book),
            params={"search": marker, "per_page": 1},
            headers={"Accept": "application/json"},
        ).json()
        assert found["total"] == 2600


def test_a_json_client_previews_too(browser: Deployment) -> None:
    with browser.api() as api:
        book = api.project.resource("Book")
        marker = new_marker()
        url = f"/admin/resource/{book.uri}/handler/import?dry_run=1"
        text = f"title,pages\n{marker} a,1\n,2\n{marker} c,0\n"
        answer = api.post(url, content=text, headers={"Content-Type": "text/csv"})
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert (body["create"], body["update"]) == (3, 0)
        assert list(body["errors"]) == ["row 3", "row 4"]
        good = f"title,pages\n{marker} a,1\n"
        answer = api.post(url, content=good, headers={"Content-Type": "text/csv"})
        assert answer.status_code == 200, answer.text
        assert (answer.json()["create"], answer.json()["errors"]) == (1, {})
        assert _titles(api, marker) == {}, "a preview wrote"


def test_who_may_not_import_gets_no_import_page(browser: Deployment) -> None:
    with browser.api() as api:
        book = api.project.resource("Book")
        url = page(book, "import-page")
        assert api.get(url, headers=HTML).status_code == 200
    with browser.api(log_in=False) as anonymous:
        answer = anonymous.client.get(url, headers=HTML, follow_redirects=False)
        assert answer.status_code == 303
        assert "/admin/login" in answer.headers["location"]


_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


def test_both_frameworks_serve_the_same_import_pages(fleet: Any) -> None:
    """The upload form, a preview with errors and one to confirm: byte for byte."""
    text = "title,pages\nSame one,10\n,2\nSame short\n"
    pages: list[list[str]] = []
    for framework in ("fastapi", "django"):
        with fleet.get(framework, "library", "sqlite").api() as api:
            book = api.project.resource("Book")
            _as_browser(api)
            shown = [api.get(page(book, "import-page"), headers=HTML).text]
            shown.append(_preview(api, text).text)
            shown.append(_preview(api, "title,pages\nSame one,10\n").text)
            pages.append([_TOKEN.sub(r"\1…", html) for html in shown])
    assert pages[0] == pages[1]
