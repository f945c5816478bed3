"""File and image fields (issue 26): multipart uploads, downloads, checks, storage.

One project per framework is generated from ``files/gallery.yaml`` (photos with an
optional PNG/JPEG image of at most 64 KB and an optional PDF/text document of at most
32 KB; posters with a required image of any type) and served on SQLite with local
storage in a folder of the test's (``MEDIA_ROOT``) and a 256 KB upload ceiling
(``MAX_UPLOAD_SIZE``). Both servers run at once, so their answers are compared.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge
from PIL import Image

from generator.manifest.load import load_manifest

from .support import JSON, PASSWORD, Api, Deployment, crud

HERE = REPO / "tests" / "conformance" / "files"
MANIFEST = load_manifest(HERE / "gallery.yaml")
PHOTO, POSTER = MANIFEST.resource("Photo"), MANIFEST.resource("Poster")
ADMIN = "admin@example.com"
CEILING = 256 * 1024
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n"


def png(width: int = 8, height: int = 8, color: str = "red") -> bytes:
    """A small valid PNG."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "PNG")
    return out.getvalue()


def jpeg() -> bytes:
    """A small valid JPEG."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), "blue").save(out, "JPEG")
    return out.getvalue()


def gif() -> bytes:
    """A small valid GIF (not accepted by the photos' picture)."""
    out = io.BytesIO()
    Image.new("P", (8, 8)).save(out, "GIF")
    return out.getvalue()


class Served:
    """One framework's server, its media folder and an admin's JSON client."""

    def __init__(self, framework: str, media: Path, api: Api) -> None:
        self.framework = framework
        self.media = media
        self.api = api

    def stored(self) -> list[str]:
        """Every file in the media folder, by its path below it."""
        return sorted(
            str(p.relative_to(self.media)) for p in self.media.rglob("*") if p.is_file()
        )

    def create(self, resource: Any, data: dict[str, str], files: dict[str, Any]):
        return self.api.post(crud(resource), data=data, files=files)

    def update(self, resource: Any, key: Any, data: dict[str, str], files: Any):
        return self.api.request(
            "PUT", crud(resource, key), data=data, files=files or None
        )


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    """Both frameworks' projects, served with local storage, an admin logged in."""
    servers, found = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"files-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "gallery.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'g.db'}")
            media = folder / "media"
            server.env["MEDIA_ROOT"] = str(media)
            server.env["MAX_UPLOAD_SIZE"] = str(CEILING)
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.start()
            deployment = Deployment(framework, "gallery", "sqlite", MANIFEST, server)
            api = Api(deployment)
            api.log_in(ADMIN, PASSWORD)
            found[framework] = Served(framework, media, api)
        yield found
    finally:
        for each in found.values():
            each.api.client.close()
        for server in servers:
            server.stop()


@pytest.fixture(params=FRAMEWORKS)
def one(request: pytest.FixtureRequest, served: dict[str, Served]) -> Served:
    return served[request.param]


def _photo(one: Served, **files: Any) -> dict[str, Any]:
    response = one.create(PHOTO, {"title": "A photo"}, files)
    assert response.status_code == 201, response.text
    return response.json()["data"]


def _refused(one: Served, resource: Any, files: dict[str, Any], status: int) -> Any:
    before = one.stored()
    data = {"title": "x"} if resource is PHOTO else {"name": "x"}
    response = one.create(resource, data, files)
    assert response.status_code == status, response.text
    assert one.stored() == before, "a refused upload left a file in storage"
    return response.json()


def test_upload_answers_url_name_size_and_sniffed_type(one: Served) -> None:
    image = png()
    record = _photo(
        one,
        picture=("holiday.png", image, "application/octet-stream"),
        document=("notes.pdf", PDF, "text/plain"),  # the client's type is ignored
    )
    picture, document = record["picture"], record["document"]
    assert set(picture) == {"url", "name", "size", "media_type"}
    assert picture["name"] == "holiday.png" and picture["size"] == len(image)
    assert picture["media_type"] == "image/png"
    assert document["media_type"] == "application/pdf"
    assert re.fullmatch(
        r"/admin/resource/photo-resource/files/picture/[0-9a-f]{32}-holiday\.png",
        picture["url"],
    ), picture["url"]
    shown = one.api.get(crud(PHOTO, record["id"])).json()
    assert shown["picture"] == picture and shown["document"] == document
    assert any(path.endswith("-holiday.png") for path in one.stored())


def test_downloads_are_for_logged_in_users(one: Served) -> None:
    record = _photo(one, picture=("a.png", png(), "image/png"))
    url = record["picture"]["url"]
    with one.api.deployment.client(headers=dict(JSON)) as anonymous:
        assert anonymous.get(url).status_code == 401
    with one.api.deployment.client(headers={"Accept": "text/html"}) as browser:
        response = browser.get(url)
        assert response.status_code == 303
        assert "/admin/login" in response.headers["location"]


def test_download_sniffs_the_type_and_sends_non_images_as_attachments(
    one: Served,
) -> None:
    image = png()
    text = b"plain words, not an image\n"
    record = _photo(
        one,
        picture=("x.png", image, "text/html"),
        document=("evil.png", text, "image/png"),
    )
    assert record["document"]["media_type"] == "text/plain"
    shown = one.api.get(record["picture"]["url"])
    assert shown.status_code == 200 and shown.content == image
    assert shown.headers["content-type"] == "image/png"
    assert shown.headers["content-disposition"].startswith("inline")
    assert shown.headers["x-content-type-options"] == "nosniff"
    sent = one.api.get(record["document"]["url"])
    assert sent.content == text
    assert sent.headers["content-type"].startswith("text/plain")
    assert sent.headers["content-disposition"].startswith("attachment")
    assert sent.headers["x-content-type-options"] == "nosniff"
    thumb = one.api.get(record["picture"]["url"], params={"thumb": "1"})
    assert thumb.status_code == 200 and thumb.headers["content-type"] == "image/png"
    with Image.open(io.BytesIO(thumb.content)) as small:
        assert max(small.size) <= 96


def test_unknown_files_are_not_found(one: Served) -> None:
    base = "/admin/resource/photo-resource/files"
    for path in (
        f"{base}/picture/{'0' * 32}-missing.png",
        f"{base}/title/{'0' * 32}-x.png",
        f"{base}/picture/..%2F..%2Fetc%2Fpasswd",
    ):
        assert one.api.get(path).status_code == 404, path


def test_a_file_over_max_bytes_is_refused_413(one: Served) -> None:
    big = b"a" * (32 * 1024 + 1)
    body = _refused(one, PHOTO, {"document": ("big.txt", big, "text/plain")}, 413)
    assert "32768" in body["message"]


def test_a_body_over_the_upload_ceiling_is_refused_413(one: Served) -> None:
    noise = png(600, 600, "white") + b"x" * CEILING
    _refused(one, POSTER, {"art": ("huge.png", noise, "image/png")}, 413)


def test_wrong_media_types_are_refused_naming_the_field(one: Served) -> None:
    errors = _refused(one, PHOTO, {"picture": ("a.png", PDF, "image/png")}, 422)
    assert list(errors["errors"]) == ["picture"]
    errors = _refused(one, PHOTO, {"picture": ("a.gif", gif(), "image/png")}, 422)
    assert list(errors["errors"]) == ["picture"]
    html = b"<html><script>alert(1)</script></html>"
    errors = _refused(one, PHOTO, {"document": ("a.txt", html, "text/plain")}, 422)
    assert list(errors["errors"]) == ["document"]
    assert jpeg()[:3] == b"\xff\xd8\xff"
    _photo(one, picture=("fine.jpg", jpeg(), "image/jpeg"))


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(png() + b"PK\x03\x04" + b"\x00" * 40, id="png+zip"),
        pytest.param(png() + b"<script>alert(1)</script>", id="png+html"),
        pytest.param(jpeg() + b"%PDF-1.4 trailing", id="jpeg+pdf"),
        pytest.param(png() + b"trailing bytes", id="png+data"),
        pytest.param(png(64, 64)[:-40], id="truncated"),
    ],
)
def test_polyglot_and_truncated_images_are_refused(one: Served, content: bytes) -> None:
    errors = _refused(one, POSTER, {"art": ("a.png", content, "image/png")}, 422)
    assert list(errors["errors"]) == ["art"]


def test_traversal_names_are_harmless(one: Served) -> None:
    name = "../../../etc/pass wd.png"
    record = _photo(one, picture=(name, png(), "image/png"))
    assert record["picture"]["name"] == "pass wd.png"
    assert record["picture"]["url"].endswith("-pass_wd.png")
    for path in one.stored():
        assert ".." not in path and (one.media / path).resolve().is_relative_to(
            one.media.resolve()
        )


def test_json_cannot_send_a_file_but_null_clears_one(one: Served) -> None:
    response = one.api.post(crud(PHOTO), json={"title": "t", "picture": "a.png"})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["picture"]
    record = _photo(one, picture=("c.png", png(), "image/png"))
    before = one.stored()
    cleared = one.api.request(
        "PATCH", crud(PHOTO, record["id"]), json={"picture": None}
    )
    assert cleared.status_code == 200, cleared.text
    assert cleared.json()["data"]["picture"] is None
    assert len(one.stored()) == len(before) - 1


def test_replacing_and_clearing_remove_the_old_file_after_commit(one: Served) -> None:
    record = _photo(one, picture=("old.png", png(), "image/png"))
    old = record["picture"]["url"]
    response = one.update(
        PHOTO,
        record["id"],
        {},
        {"picture": ("new.png", png(color="green"), "image/png")},
    )
    assert response.status_code == 200, response.text
    new = response.json()["data"]["picture"]["url"]
    assert new != old
    assert one.api.get(old).status_code == 404
    assert one.api.get(new).status_code == 200
    response = one.update(PHOTO, record["id"], {"picture_clear": "1"}, None)
    assert response.status_code == 200, response.text
    assert response.json()["data"]["picture"] is None
    assert one.api.get(new).status_code == 404


def test_a_refused_write_leaves_nothing_in_storage(one: Served) -> None:
    files = {"picture": ("p.png", png(), "image/png")}
    before = one.stored()
    response = one.create(PHOTO, {"title": "t" * 81}, files)
    assert response.status_code == 422
    response = one.create(POSTER, {}, {"art": ("p.png", png(), "image/png")})
    assert response.status_code == 422
    response = one.update(PHOTO, 999999, {"title": "x"}, files)
    assert response.status_code == 404
    assert one.stored() == before
    record = _photo(one, picture=("keep.png", png(), "image/png"))
    response = one.update(PHOTO, record["id"], {"title": "t" * 81}, files)
    assert response.status_code == 422
    assert one.api.get(record["picture"]["url"]).status_code == 200


def test_deleting_a_record_removes_its_files(one: Served) -> None:
    record = _photo(
        one,
        picture=("d.png", png(), "image/png"),
        document=("d.pdf", PDF, "application/pdf"),
    )
    before = one.stored()
    response = one.api.request("DELETE", crud(PHOTO, record["id"]))
    assert response.status_code == 200, response.text
    assert len(one.stored()) == len(before) - 2
    assert one.api.get(record["picture"]["url"]).status_code == 404


def test_a_session_form_sends_its_token_in_the_multipart_body(one: Served) -> None:
    client: httpx.Client = one.api.client
    token = client.headers.pop("X-CSRF-Token")
    try:
        files = {
            "picture": ("f.png", png(), "image/png"),
            "document": ("f.pdf", PDF, "application/pdf"),
        }
        response = client.post(crud(PHOTO), data={"title": "n"}, files=files)
        assert response.status_code == 403
        response = client.post(
            crud(PHOTO), data={"title": "n", "_token": token}, files=files
        )
        assert response.status_code == 201, response.text
    finally:
        client.headers["X-CSRF-Token"] = token


def _comparable(body: Any) -> Any:
    """An answer with the keys and random file ids set aside."""
    text = re.sub(r"[0-9a-f]{32}-", "<id>-", str(body))
    text = re.sub(r"form-page/\d+", "form-page/<n>", text)
    return re.sub(r"'id': \d+", "'id': <n>", text)


def test_both_frameworks_answer_alike(served: dict[str, Served]) -> None:
    answers = []
    for each in served.values():
        created = each.create(
            PHOTO,
            {"title": "same"},
            {
                "picture": ("same.png", png(), "image/png"),
                "document": ("same.pdf", PDF, "application/pdf"),
            },
        )
        refused = each.create(
            POSTER,
            {"name": "x"},
            {"art": ("x.png", png() + b"PK\x05\x06", "image/png")},
        )
        too_big = each.create(
            PHOTO, {"title": "x"}, {"document": ("x.txt", b"a" * 40000, "text/plain")}
        )
        as_json = each.api.post(crud(PHOTO), json={"title": "j", "picture": "x"})
        answers.append(
            [
                (r.status_code, _comparable(r.json()))
                for r in (created, refused, too_big, as_json)
            ]
        )
    assert answers[0] == answers[1]


def test_the_spec_documents_multipart_writes_and_the_download(
    served: dict[str, Served],
) -> None:
    specs = []
    for each in served.values():
        project = each.api.deployment.server.project
        specs.append((project / "resources" / "oag.json").read_text(encoding="utf-8"))
    assert specs[0] == specs[1]
    spec = json.loads(specs[0])
    crud_path = "/admin/resource/photo-resource/crud"
    create = spec["paths"][crud_path]["post"]["requestBody"]["content"]
    form = create["multipart/form-data"]["schema"]["properties"]
    assert form["picture"] == {
        "type": "string",
        "format": "binary",
        "title": "Picture",
        "description": (
            "Accepted media types (sniffed from the content): image/png, image/jpeg. "
            "At most 65536 bytes. An image, decoded to be verified; no other content "
            "inside it."
        ),
    }
    assert "picture_clear" in form
    update = spec["paths"][crud_path + "/{resourceItem}"]["put"]["requestBody"]
    assert "multipart/form-data" in update["content"]
    record = spec["components"]["schemas"]["Photo"]["properties"]["picture"]
    assert record["required"] == ["url", "name", "size", "media_type"]
    download = "/admin/resource/photo-resource/files/{fieldName}/{fileId}"
    assert set(spec["paths"][download]) == {"parameters", "get"}
