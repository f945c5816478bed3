"""Deletes for good remove the stored files once committed (issue 26), as plain
deletes do: a record deleted from the trash (``crud.forceDelete``), and the records
a delete rule erases with another (``on_delete: cascade``), from a resource with
files or without. A delete to the trash, and a refused one, keep them.

``files/albums.yaml``: albums (trash, cover) ← photos (picture, cascade); owners (no
trash, no file) ← documents (scan, cascade). Served on both frameworks with local
storage in a folder of the test's.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO

from generator.manifest.load import load_manifest

from .file_servers import PDF, Served, png, served_both
from .support import HTML, crud

MANIFEST_PATH = REPO / "tests" / "conformance" / "files" / "albums.yaml"
MANIFEST = load_manifest(MANIFEST_PATH)
ALBUM, PHOTO = MANIFEST.resource("Album"), MANIFEST.resource("Photo")
OWNER, DOCUMENT = MANIFEST.resource("Owner"), MANIFEST.resource("Document")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    with served_both(MANIFEST_PATH, MANIFEST, tmp_path_factory) as found:
        yield found


@pytest.fixture(params=FRAMEWORKS)
def one(request: pytest.FixtureRequest, served: dict[str, Served]) -> Served:
    found = served[request.param]
    _empty(found)
    return found


def _empty(one: Served) -> None:
    """No record and no file left by a test before (each test checks its own)."""
    for resource in (DOCUMENT, OWNER, PHOTO):
        keys = [r[resource.key] for r in one.api.get(crud(resource)).json()["data"]]
        if keys:
            deleted = one.api.request("DELETE", crud(resource), json={"ids": keys})
            assert deleted.status_code == 200, deleted.text
    trash = f"/admin/resource/{ALBUM.uri}/trash"
    for album in one.api.get(crud(ALBUM)).json()["data"]:
        assert one.api.request("DELETE", crud(ALBUM, album["id"])).status_code == 200
    for album in one.api.get(trash).json()["data"]:
        force = f"{crud(ALBUM, album['id'])}/force"
        assert one.api.request("DELETE", force).status_code == 200
    shutil.rmtree(one.media, ignore_errors=True)


def _create(one: Served, resource: Any, data: dict[str, Any], **files: Any) -> Any:
    response = one.api.post(crud(resource), data=data, files=files or None)
    assert response.status_code == 201, response.text
    return response.json()["data"]


def _album_with_photos(one: Served) -> dict[str, Any]:
    album = _create(
        one, ALBUM, {"title": "Summer"}, cover=("c.png", png(), "image/png")
    )
    for caption in ("Beach", "Hills"):
        picture = ("p.png", png("blue"), "image/png")
        data = {"caption": caption, "album": str(album["id"])}
        _create(one, PHOTO, data, picture=picture)
    return album


def _force(album: dict[str, Any]) -> str:
    return f"{crud(ALBUM, album['id'])}/force"


def test_the_trash_keeps_the_files_and_deleting_for_good_removes_them(
    one: Served,
) -> None:
    album = _album_with_photos(one)
    assert len(one.stored()) == 3
    assert one.api.request("DELETE", crud(ALBUM, album["id"])).status_code == 200
    assert len(one.stored()) == 3, "a record in the trash keeps its files"
    gone = one.api.request("DELETE", _force(album))
    assert gone.status_code == 200, gone.text
    # The album's cover, and the pictures of the photos the cascade erased.
    assert one.stored() == []
    assert one.api.get(crud(PHOTO)).json()["total"] == 0


def test_a_force_delete_from_the_trash_page_removes_the_files(one: Served) -> None:
    album = _album_with_photos(one)
    assert one.api.request("DELETE", crud(ALBUM, album["id"])).status_code == 200
    form = {"_method": "DELETE", "_token": one.api.token}
    response = one.api.post(_force(album), data=form, headers=HTML)
    assert response.status_code == 303, response.text[:2000]
    assert one.stored() == []


def test_a_cascade_removes_the_files_of_the_records_it_erases(one: Served) -> None:
    kept, doomed = (_create(one, OWNER, {"name": name}) for name in ("Kept", "Gone"))
    for owner, text in ((kept, b"keep me\n"), (doomed, None)):
        scan = ("scan.pdf", PDF, "application/pdf")
        if text is not None:
            scan = ("scan.txt", text, "text/plain")
        data = {"title": "Deed", "owner": str(owner["id"])}
        _create(one, DOCUMENT, data, scan=scan)
    before = one.stored()
    assert len(before) == 2
    assert one.api.request("DELETE", crud(OWNER, doomed["id"])).status_code == 200
    assert one.stored() == [path for path in before if path.endswith("-scan.txt")]
    assert (
        one.api.request("DELETE", crud(OWNER), json={"ids": [kept["id"]]}).json()[
            "deleted"
        ]
        == 1
    )
    assert one.stored() == []


def test_each_delete_for_good_removes_its_own_files(
    one: Served,
) -> None:
    """A photo deleted alone takes its picture; its album, in the trash, its cover."""
    album = _album_with_photos(one)
    photos = one.api.get(crud(PHOTO)).json()["data"]
    assert one.api.request("DELETE", crud(PHOTO, photos[0]["id"])).status_code == 200
    assert len(one.stored()) == 2
    assert one.api.request("DELETE", crud(ALBUM, album["id"])).status_code == 200
    assert one.api.request("DELETE", _force(album)).status_code == 200
    assert one.stored() == []


def test_a_refused_force_delete_keeps_the_files(one: Served) -> None:
    album = _album_with_photos(one)
    assert one.api.request("DELETE", crud(ALBUM, album["id"])).status_code == 200
    missing = f"{crud(ALBUM, album['id'] + 1000)}/force"
    assert one.api.request("DELETE", missing).status_code == 404
    live = _create(one, ALBUM, {"title": "Live"}, cover=("l.png", png(), "image/png"))
    # A live record is not in the trash: not deleted for good, its files kept.
    assert one.api.request("DELETE", _force(live)).status_code == 404
    assert len(one.stored()) == 4
