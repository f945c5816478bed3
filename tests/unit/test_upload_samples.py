"""The files the emitted tests upload where a resource requires one (``files`` of
``tests/samples.json``, made by the emitted ``tests/uploads.py``). The end-to-end
proof is ``tests/e2e/test_valid_manifests.py`` on ``tests/manifests/valid/files.yaml``.
"""

from __future__ import annotations

import io
import runpy
from pathlib import Path

import pytest
from PIL import Image

from generator.manifest.load import parse_manifest
from generator.model.uploads import MADE, sample_uploads

REPO = Path(__file__).parents[2]
SHARED = REPO / "templates" / "project" / "_shared"
UPLOADS = runpy.run_path(str(SHARED / "tests" / "uploads.py"))
SNIFF = runpy.run_path(str(SHARED / "panel_core" / "sniff.py"))


def _resource(fields: str) -> object:
    text = (
        "project: {name: a}\nresources:\n  Doc:\n"
        f"    fields: {{{fields}}}\n    required: [a, b]\n"
    )
    return parse_manifest(text, "m.yaml").resources[0]


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        (
            "a: {type: string, format: image}, b: {type: string, format: file}",
            {"a": "image/png", "b": "text/plain"},
        ),
        (
            "a: {type: string, format: image, accept: [image/svg+xml, image/gif]},"
            " b: {type: string, format: file, accept: [application/*]}",
            {"a": "image/gif", "b": "application/pdf"},
        ),
        (
            "a: {type: string, format: image, accept: [image/*]},"
            " b: {type: string, format: file, accept: [application/msword]}",
            {"a": "image/png"},  # no Word file to make: nothing sent for b
        ),
        (
            "a: {type: string}, b: {type: string, format: file, accept: [image/jpeg]},"
            " c: {type: string, format: image}",
            {"b": "image/jpeg"},  # c is optional
        ),
    ],
)
def test_each_required_file_gets_a_type_its_accept_takes(
    fields: str, expected: dict[str, str]
) -> None:
    assert sample_uploads(_resource(fields)) == expected


@pytest.mark.parametrize("media_type", MADE)
def test_the_emitted_tests_make_a_valid_file_of_each_type(media_type: str) -> None:
    """What the panel sniffs as that type, an image that decodes, nothing inside."""
    name, content, sent = UPLOADS["uploads"]({"cover": media_type})["cover"]
    assert sent == media_type and name.startswith("cover.")
    assert SNIFF["sniff"](content[: SNIFF["HEAD"]]) == media_type
    assert SNIFF["second_types"](content, media_type) == []
    if media_type.startswith("image/"):
        with Image.open(io.BytesIO(content)) as image:
            image.load()
