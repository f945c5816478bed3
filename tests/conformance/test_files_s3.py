"""File fields kept in an S3-compatible bucket (issue 26): ``STORAGE_URL=s3://…``.

The test starts moto's S3 server on a free local port (never the network), makes a
bucket, and serves one project per framework from ``files/gallery.yaml`` with
``STORAGE_URL=s3://<bucket>/<framework>/media?endpoint_url=…`` and test credentials
in the usual AWS variables. Uploads land under the prefix, downloads read them back, and
replaced, deleted and refused files leave no object behind.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import FRAMEWORKS, SERVERS, run_panelforge
from s3_bucket import Bucket, s3_server

from .support import Api, Deployment, crud
from .test_files import ADMIN, HERE, MANIFEST, PASSWORD, PDF, PHOTO, POSTER, png


@pytest.fixture(scope="module")
def s3() -> Iterator[Bucket]:
    """moto's S3 server, with a bucket of the module's."""
    with s3_server() as bucket:
        yield bucket


@pytest.fixture(scope="module")
def served(
    s3: Bucket, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Api]]:
    """Both frameworks' projects, their files in the bucket, an admin logged in."""
    servers, apis = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"s3-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "gallery.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'g.db'}")
            server.env.update(s3.storage_env(f"{framework}/media"))
            server.env["MEDIA_ROOT"] = str(folder / "unused")
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.start()
            api = Api(Deployment(framework, "gallery", "sqlite", MANIFEST, server))
            api.log_in(ADMIN, PASSWORD)
            apis[framework] = api
        yield apis
    finally:
        for api in apis.values():
            api.client.close()
        for server in servers:
            server.stop()


def _objects(s3: Bucket, framework: str) -> list[str]:
    return s3.keys(f"{framework}/media")


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_files_live_in_the_bucket(
    framework: str, served: dict[str, Api], s3: Bucket
) -> None:
    api = served[framework]
    image = png()
    response = api.post(
        crud(PHOTO),
        data={"title": "in a bucket"},
        files={
            "picture": ("b.png", image, "image/png"),
            "document": ("b.pdf", PDF, "application/pdf"),
        },
    )
    assert response.status_code == 201, response.text
    record = response.json()["data"]
    stored = _objects(s3, framework)
    assert len(stored) == 2
    assert all(key.startswith(f"{framework}/media/photo-resource/") for key in stored)
    downloaded = api.get(record["picture"]["url"])
    assert downloaded.status_code == 200 and downloaded.content == image
    assert downloaded.headers["content-type"] == "image/png"
    document = api.get(record["document"]["url"])
    assert document.content == PDF
    assert document.headers["content-disposition"].startswith("attachment")

    replaced = api.request(
        "PUT",
        crud(PHOTO, record["id"]),
        data={"title": "in a bucket"},
        files={"picture": ("c.png", png(color="green"), "image/png")},
    )
    assert replaced.status_code == 200, replaced.text
    now = _objects(s3, framework)
    assert len(now) == 2 and not any(key.endswith("-b.png") for key in now)
    assert api.get(record["picture"]["url"]).status_code == 404

    refused = api.post(
        crud(POSTER),
        data={"name": "x"},
        files={"art": ("x.png", png() + b"PK\x03\x04", "image/png")},
    )
    assert refused.status_code == 422
    assert _objects(s3, framework) == now

    deleted = api.request("DELETE", crud(PHOTO, record["id"]))
    assert deleted.status_code == 200, deleted.text
    assert _objects(s3, framework) == []
