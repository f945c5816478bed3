"""File and image fields in CSV exports and imports (issue 26): an export's cell is
the stored file's download URL, and an import skips those columns (a file is
uploaded, never named), so importing an export back keeps every record's files.

``files/albums.yaml``'s photos (a required PNG picture), served on both frameworks
with local storage in a folder of the test's.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

import pytest
from conftest import FRAMEWORKS, REPO

from generator.manifest.load import load_manifest

from .file_servers import Served, png, served_both
from .support import crud

MANIFEST_PATH = REPO / "tests" / "conformance" / "files" / "albums.yaml"
MANIFEST = load_manifest(MANIFEST_PATH)
ALBUM, PHOTO = MANIFEST.resource("Album"), MANIFEST.resource("Photo")
HANDLER = f"/admin/resource/{PHOTO.uri}/handler"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    with served_both(MANIFEST_PATH, MANIFEST, tmp_path_factory) as found:
        yield found


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_an_export_names_the_files_and_imports_back_keeping_them(
    served: dict[str, Served], framework: str
) -> None:
    one = served[framework]
    album = one.api.post(crud(ALBUM), json={"title": "Trip"}).json()["data"]["id"]
    data = {"caption": "Beach", "album": str(album)}
    files = {"picture": ("beach.png", png(), "image/png")}
    made = one.api.post(crud(PHOTO), data=data, files=files)
    assert made.status_code == 201, made.text
    photo = made.json()["data"]
    exported = one.api.get(f"{HANDLER}/export").text
    rows = list(csv.DictReader(io.StringIO(exported, newline="")))
    assert [row["picture"] for row in rows] == [photo["picture"]["url"]]
    stored = one.stored()
    renamed = exported.replace("Beach", "Shore")
    headers = {"Content-Type": "text/csv"}
    imported = one.api.post(f"{HANDLER}/import", content=renamed, headers=headers)
    assert imported.status_code == 200, imported.text
    assert imported.json()["updated"] == 1
    shown = one.api.get(crud(PHOTO, photo["id"])).json()
    assert shown == {**photo, "caption": "Shore"}
    assert one.stored() == stored
