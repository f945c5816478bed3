"""Both frameworks' projects of a file manifest, served with local storage in a
folder of the test's (``MEDIA_ROOT``), an admin logged in: for the file tests."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import FRAMEWORKS, SERVERS, run_panelforge
from PIL import Image

from generator.model import ir

from .support import PASSWORD, Api, Deployment

ADMIN = "admin@example.com"
PDF = b"%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n"


def png(color: str = "red") -> bytes:
    """A small valid PNG."""
    out = io.BytesIO()
    Image.new("RGB", (8, 8), color).save(out, "PNG")
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


@contextmanager
def served_both(
    manifest: Path, project: ir.Project, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Served]]:
    """Both frameworks' projects of ``manifest``, served, by framework."""
    servers, found = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"{manifest.stem}-{framework}")
            dest = folder / "project"
            result = run_panelforge(
                "generate", str(manifest), "-o", str(dest),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](dest, f"sqlite:///{folder / 'f.db'}")
            media = folder / "media"
            server.env["MEDIA_ROOT"] = str(media)
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.start()
            deployment = Deployment(framework, manifest.stem, "sqlite", project, server)
            api = Api(deployment)
            api.log_in(ADMIN, PASSWORD)
            found[framework] = Served(framework, media, api)
        yield found
    finally:
        for each in found.values():
            each.api.client.close()
        for server in servers:
            server.stop()
