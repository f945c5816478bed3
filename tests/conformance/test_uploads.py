"""The CSV upload of the import page (issue 19, finding 10): a browser's multipart form.

The index page links to the import page for users who may import; its upload form's
multipart body carries the hidden ``_token``, which is checked as the
``X-CSRF-Token`` header is. An import comes back to the list with a message. The
preview and confirm steps are ``test_import_preview``'s.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import SESSION_EXAMPLES, _params
from .support import HTML, Api, Deployment, new_marker, page

CSRF = "CSRF token mismatch."
_FORM = re.compile(
    r'<form class="upload box" method="post" action="([^"]+)" '
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
    """The upload form of the import page at ``url``: its action and its token."""
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
            link = f'<a class="button" href="{page(resource, "import-page")}">'
            assert link + "Import CSV</a>" in api.get(index, headers=HTML).text
            action, token = _upload_form(api, page(resource, "import-page"))
            assert action == f"{base}/import"
            for refused in (None, "not the token"):
                answer = _upload(api, action, refused, exported)
                assert answer.status_code == 403, answer.text[:2000]
                assert CSRF in answer.text
            imported = _upload(api, action, token, exported)
            assert imported.status_code == 303, imported.text[:2000]
            assert imported.headers["location"] == index
            shown = api.get(index, headers=HTML).text
            assert re.search(r"Imported 2 [^<]+: 0 created, 2 updated\.", shown)
