"""The files emitted tests upload: a resource that requires a file or an image is
created with a small valid one (a JSON body cannot carry a file).

The emitted ``tests/uploads.py`` makes a file of each media type listed here; a
field's ``accept`` picks the first of them it takes (``image/*`` takes any image).
"""

from __future__ import annotations

from . import ir

# What the emitted tests can make, images first (Pillow draws them).
MADE = (
    "image/png",
    "image/jpeg",
    "image/gif",
    "image/webp",
    "image/bmp",
    "image/tiff",
    "text/plain",
    "application/pdf",
    "application/zip",
    "application/gzip",
)
_DEFAULTS = {"image": "image/png", "file": "text/plain"}


def upload_media_type(field: ir.Field) -> str | None:
    """The media type of the file the emitted tests upload to ``field`` (``None``:
    it accepts none the tests can make)."""
    if field.accept is None:
        return _DEFAULTS[field.format or "file"]
    for wanted in field.accept:
        family = wanted.removesuffix("*") if wanted.endswith("/*") else None
        for made in MADE:
            if made == wanted or family is not None and made.startswith(family):
                return made
    return None


def sample_uploads(resource: ir.Resource) -> dict[str, str]:
    """Per required file or image field a create must send: the media type of the
    file the emitted tests upload to it."""
    found = {}
    for field in resource.fields:
        if field.is_file and field.required and not resource.is_read_only(field):
            media_type = upload_media_type(field)
            if media_type is not None:
                found[field.name] = media_type
    return found
