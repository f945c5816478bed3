"""A refused multipart form comes back as the form (issue 26), as an urlencoded one
does: a browser's create or edit form of a resource with files, refused (a file of a
type the field does not take, a required field left empty), is sent back to its form
page (303, issue 16's post/redirect/get), which shows it again with its errors and the
values sent, the same page on both frameworks; a file that was chosen is not kept, and
the form says to choose it again; nothing it uploaded stays in storage. JSON clients
still get the JSON 422.

``files/albums.yaml``'s photos: a caption and a PNG picture required, a date, an
album. Served on both frameworks with local storage in a folder of the test's.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO
from PIL import Image

from generator.manifest.load import load_manifest

from .file_servers import ADMIN, Served, png, served_both
from .support import PASSWORD, Api, crud, page

MANIFEST_PATH = REPO / "tests" / "conformance" / "files" / "albums.yaml"
MANIFEST = load_manifest(MANIFEST_PATH)
ALBUM, PHOTO = MANIFEST.resource("Album"), MANIFEST.resource("Photo")
_FORM = re.compile(
    r'<form class="record-form box" method="post" action="([^"]+)" '
    r'enctype="multipart/form-data">'
)
_TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]+)">')
_VERSION = re.compile(r'<input type="hidden" name="(_version)" value="([^"]+)">')


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    with served_both(MANIFEST_PATH, MANIFEST, tmp_path_factory) as found:
        yield found


@pytest.fixture(params=FRAMEWORKS)
def one(request: pytest.FixtureRequest, served: dict[str, Served]) -> Served:
    return served[request.param]


def gif() -> bytes:
    """A valid GIF: an image, not one the photos' picture takes (PNG only)."""
    out = io.BytesIO()
    Image.new("P", (8, 8)).save(out, "GIF")
    return out.getvalue()


class Browser:
    """A person's session: pages as HTML, forms carrying the page's ``_token``."""

    def __init__(self, one: Served) -> None:
        self.api = Api(one.api.deployment)
        self.api.log_in(ADMIN, PASSWORD)
        del self.api.client.headers["X-CSRF-Token"]
        self.api.client.headers["Accept"] = "text/html"

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.api.client.close()

    def form(self, url: str) -> tuple[str, dict[str, str]]:
        """The record form of the page at ``url``: its action and hidden fields."""
        html = self.api.get(url).text
        action, token = _FORM.search(html), _TOKEN.search(html)
        assert action and token, html[:3000]
        hidden = {"_token": token[1], **dict(_VERSION.findall(html))}
        return action[1].replace("&amp;", "&"), hidden

    def submit(self, url: str, data: dict[str, str], files: dict[str, Any]) -> Any:
        """Fill in the form of the page at ``url`` and send it (multipart)."""
        action, hidden = self.form(url)
        return self.api.post(action, data={**data, **hidden}, files=files)


def _album(one: Served) -> Any:
    response = one.api.post(crud(ALBUM), json={"title": "Trip"})
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _refused_page(one: Served, data: dict[str, str], files: dict[str, Any]) -> str:
    before = one.stored()
    with Browser(one) as person:
        response = person.submit(page(PHOTO, "form-page"), data, files)
        assert response.status_code == 303, response.text[:2000]
        assert response.headers["location"] == page(PHOTO, "form-page")
        shown = person.api.get(response.headers["location"])
    assert shown.status_code == 200, shown.text[:2000]
    assert shown.headers["content-type"].startswith("text/html")
    assert one.stored() == before, "a refused form left a file in storage"
    return str(shown.text)


def test_a_file_of_a_type_the_field_refuses_shows_the_form_again(
    served: dict[str, Served],
) -> None:
    pages = {}
    for framework, one in served.items():
        data = {
            "caption": "Beach <b>",
            "taken": "2024-05-01",
            "album": str(_album(one)),
        }
        text = _refused_page(one, data, {"picture": ("p.gif", gif(), "image/gif")})
        assert 'class="record-form box"' in text, "the form, not an error page"
        assert "The Picture field must be a file of type: image/png." in text
        assert 'value="Beach &lt;b&gt;"' in text and 'value="2024-05-01"' in text
        pages[framework] = _comparable(text)
    assert pages["fastapi"] == pages["django"]


def test_a_required_field_left_empty_shows_the_form_again(one: Served) -> None:
    data = {"caption": "", "taken": "2024-05-02", "album": str(_album(one))}
    text = _refused_page(one, data, {"picture": ("p.png", png(), "image/png")})
    assert 'class="record-form box"' in text
    assert "The Caption field is required." in text
    assert 'value="2024-05-02"' in text
    assert "Picture: The file was not saved: choose it again." in text


def test_a_refused_edit_form_shows_the_record_form_again(one: Served) -> None:
    album = _album(one)
    data = {"caption": "Kept", "album": str(album)}
    made = one.api.post(
        crud(PHOTO), data=data, files={"picture": ("p.png", png(), "image/png")}
    )
    assert made.status_code == 201, made.text
    key = made.json()["data"]["id"]
    before = one.stored()
    with Browser(one) as person:
        url = page(PHOTO, "form-page", key)
        sent = {"caption": "Changed", "album": str(album)}
        response = person.submit(url, sent, {"picture": ("x.gif", gif(), "image/gif")})
        assert response.status_code == 303, response.text[:2000]
        assert response.headers["location"] == url
        shown = person.api.get(url)
    assert shown.status_code == 200, shown.text[:2000]
    assert "The Picture field must be a file of type: image/png." in shown.text
    assert "choose it again" not in shown.text  # the file's own error says it
    assert 'value="Changed"' in shown.text
    assert _FORM.search(shown.text)[1].startswith(crud(PHOTO, key))
    assert one.stored() == before
    assert one.api.get(crud(PHOTO, key)).json()["caption"] == "Kept"


def test_an_edit_form_of_a_version_changed_meanwhile_is_refused(one: Served) -> None:
    """The multipart edit form's ``_version`` is checked as an urlencoded form's."""
    album = _album(one)
    data = {"caption": "First", "album": str(album)}
    made = one.api.post(
        crud(PHOTO), data=data, files={"picture": ("p.png", png(), "image/png")}
    )
    assert made.status_code == 201, made.text
    key = made.json()["data"]["id"]
    with Browser(one) as person:
        url = page(PHOTO, "form-page", key)
        action, hidden = person.form(url)
        assert "_version" in hidden
        changed = one.api.request("PATCH", crud(PHOTO, key), json={"caption": "Other"})
        assert changed.status_code == 200, changed.text
        before = one.stored()
        sent = {"caption": "Mine", "album": str(album)}
        picture = {"picture": ("n.png", png("green"), "image/png")}
        response = person.api.post(action, data={**sent, **hidden}, files=picture)
        assert response.status_code == 303, response.text[:2000]
        shown = person.api.get(response.headers["location"])
    assert 'class="record-form box"' in shown.text
    assert "Someone else saved this" in shown.text
    assert "Picture: The file was not saved: choose it again." in shown.text
    assert one.stored() == before, "the refused form's upload stayed in storage"
    assert one.api.get(crud(PHOTO, key)).json()["caption"] == "Other"


def test_json_clients_still_get_the_json_422(one: Served) -> None:
    data = {"caption": "", "album": str(_album(one))}
    files = {"picture": ("p.gif", gif(), "image/gif")}
    response = one.api.post(crud(PHOTO), data=data, files=files)
    assert response.status_code == 422
    assert set(response.json()["errors"]) == {"picture"}


def _comparable(text: str) -> str:
    """A page without what differs between two servers: tokens and record keys."""
    text = _TOKEN.sub("", text)
    text = re.sub(r'name="_token" value="[^"]+"', 'name="_token"', text)
    return re.sub(r'value="\d+"', 'value="#"', text)
