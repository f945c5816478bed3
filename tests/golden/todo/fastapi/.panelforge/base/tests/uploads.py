"""Small valid files for the tests to upload.

A JSON body cannot carry a file, so the tests create a record of a resource that
requires a file or an image as a multipart form, with one of these: ``files`` in
``tests/samples.json`` names, per such field, the media type to send (one its
``accept`` takes), and ``uploads`` makes the files.
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections.abc import Mapping
from typing import Any

from PIL import Image

# Pillow's name of each image format the tests draw.
_IMAGES = {
    "image/png": "PNG",
    "image/jpeg": "JPEG",
    "image/gif": "GIF",
    "image/webp": "WEBP",
    "image/bmp": "BMP",
    "image/tiff": "TIFF",
}
_SUFFIXES = {
    "text/plain": ".txt",
    "application/pdf": ".pdf",
    "application/zip": ".zip",
    "application/gzip": ".gz",
}
TEXT = b"A small text file.\n"
PDF = b"%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n"

Upload = tuple[str, bytes, str]  # file name, content, media type


def sample_file(media_type: str) -> bytes:
    """A small valid file of ``media_type``: an image that decodes, a PDF, an
    archive or text (what the panel sniffs as that type)."""
    if media_type in _IMAGES:
        buffer = io.BytesIO()
        Image.new("RGB", (2, 2), "teal").save(buffer, _IMAGES[media_type])
        return buffer.getvalue()
    if media_type == "application/pdf":
        return PDF
    if media_type == "application/zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            archive.writestr("readme.txt", TEXT)
        return buffer.getvalue()
    if media_type == "application/gzip":
        return gzip.compress(TEXT, mtime=0)
    return TEXT


def uploads(files: Mapping[str, str]) -> dict[str, Upload]:
    """Per file field of ``files`` (field name → media type): the file to upload."""
    return {
        name: (f"{name}{_suffix(media_type)}", sample_file(media_type), media_type)
        for name, media_type in files.items()
    }


def sample_uploads(sample: Mapping[str, Any]) -> dict[str, Upload]:
    """The files a create of a ``tests/samples.json`` sample sends (none: JSON)."""
    return uploads(sample.get("files", {}))


def assert_uploaded(record: Mapping[str, Any], files: Mapping[str, Upload]) -> None:
    """``record`` holds each uploaded file, as the JSON answers describe one."""
    for name, (file_name, content, media_type) in files.items():
        stored = record[name]
        assert (stored["name"], stored["size"]) == (file_name, len(content)), name
        assert stored["media_type"] == media_type, name
        assert stored["url"].endswith(f"-{file_name}"), name


def _suffix(media_type: str) -> str:
    if media_type in _IMAGES:
        return "." + _IMAGES[media_type].lower()
    return _SUFFIXES.get(media_type, ".bin")
