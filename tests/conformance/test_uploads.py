"""The CSV upload of the index page (issue 19, finding 10): a browser's multipart form.

The index page offers an upload form to users who may import; its multipart body
carries the hidden ``_token``, which is checked as the ``X-CSRF-Token`` header is. An
import comes back to the list with a message; a refused file brings the list back
(422) with every row's error, not only the first.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import SESSION_EXAMPLES, _params
from .support import HTML, Api, Deployment, new_marker, page

CSRF = "CSRF token mismatch."
_FORM = re.compile(
    r'<form class="upload" method="post" action="([^"]+)" '
    r'enctype="multipart/form-data">\s*<input type="hidden" name="_token" '
    r'value="([^"]+)">'
)


@pytest.fixture(params=_params(SESSION_EXAMPLES, ["sqlite"]))
def browser(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


def _as_browser(api: Api) -> Api:
    """``api``'s session, sending its token in forms only (as a browser does)."""
    del api.client.headers["X-CSRF-Token"]
    api.client.headers["Accept"] = "text/html"
    return api


def _upload_form(api: Api, url: str) -> tuple[str, str]:
    """The upload form of the index page at ``url``: its action and its token."""
    html = api.get(url, headers=HTML).text
    found = _FORM.search(html)
    assert found, html[:3000]
    return found[1], found[2]


def _upload(api: Api, action: str, token: str | None, text: str) -> Any:
    data = {} if token is None else {"_token": token}
    files = {"file": ("records.csv", text.encode(), "text/csv")}
    return api.post(action, data=data, files=files, headers=HTML)


def test_a_browser_uploads_a_csv_with_the_form_token(browser: Deployment) -> None:
    for resource in browser.project.resources:
        with browser.api() as api:
            marker = new_marker()
            api.create_many(resource, 2, marker)
            base = f"/admin/resource/{resource.uri}/handler"
            params = {"search": marker, "sort": resource.key}
            exported = api.get(f"{base}/export", params=params).text
            _as_browser(api)
            index = page(resource, "index-page")
            action, token = _upload_form(api, index)
            assert action == f"{base}/import"
            for refused in (None, "not the token"):
                answer = _upload(api, action, refused, exported)
                assert answer.status_code == 403, answer.text[:2000]
                assert CSRF in answer.text
            imported = _upload(api, action, token, exported)
            assert imported.status_code == 303, imported.text[:2000]
            assert imported.headers["location"] == index
            shown = api.get(index, headers=HTML).text
            assert "Imported 2 records: 0 created, 2 updated." in shown


def test_a_refused_upload_lists_every_row_error(browser: Deployment) -> None:
    resource = browser.project.resources[0]
    with browser.api() as api:
        header = api.get(f"/admin/resource/{resource.uri}/handler/export").text
        columns = len(header.splitlines()[0].split(","))
        text = header.splitlines()[0] + "\r\nx\r\ny\r\nz\r\n"
        action, token = _upload_form(_as_browser(api), page(resource, "index-page"))
        answer = _upload(api, action, token, text)
        assert answer.status_code == 422, answer.text[:2000]
        assert answer.headers["content-type"].startswith("text/html")
        assert "Nothing was imported." in answer.text
        for row in (2, 3, 4):
            line = f"Row {row}: The row has 1 cells; the header has {columns}."
            assert f"<li>{line}</li>" in answer.text, row
        assert _FORM.search(answer.text), "the form again, to upload the file again"
