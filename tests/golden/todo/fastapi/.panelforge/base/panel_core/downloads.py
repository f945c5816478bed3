"""Downloads of stored files: ``GET …/resource/{uri}/files/{field}/{id}``.

The route serves logged-in users who may ``view`` the resource (each framework's guards
ask first). The key is rebuilt from the path and must have the shape the server gives
keys, of a file field of that resource: nothing else is looked up. The media type is
sniffed from the stored content, never taken from a client; images are shown inline,
everything else is an ``attachment``. Every answer says ``nosniff`` and a sandboxing
``Content-Security-Policy``, so no browser runs what an upload holds.

``?thumb=1`` on an image answers a small PNG made with Pillow (at most 96 pixels a
side): the list pages' thumbnails.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote

from . import fields as kernel
from .errors import NotFound
from .files import is_key
from .sniff import HEAD, sniff
from .storage import Storage
from .translation import gettext

THUMB_SIDE = 96
# Shown inline: raster images a browser draws and never runs (no SVG).
_INLINE = frozenset(
    {"image/png", "image/jpeg", "image/gif", "image/webp", "image/bmp", "image/tiff"}
)


@dataclass(frozen=True)
class Download:
    """What to answer: the media type, the headers and the content's chunks."""

    media_type: str
    headers: dict[str, str]
    chunks: Iterator[bytes]


def download(
    storage: Storage,
    fields: tuple[kernel.Field, ...],
    resource_uri: str,
    field_name: str,
    file_id: str,
    *,
    thumb: bool = False,
) -> Download:
    """The stored file ``file_id`` of ``field_name``; 404 unless there is one."""
    spec = next((f for f in fields if f.name == field_name), None)
    key = f"{resource_uri}/{field_name}/{file_id}"
    if not isinstance(spec, kernel.File) or not is_key(key):
        raise NotFound(gettext("File not found"))
    media_type = sniff(storage.head(key, HEAD))
    chunks = storage.chunks(key)
    if chunks is None:
        raise NotFound(gettext("File not found"))
    name = file_id.split("-", 1)[1]
    if thumb and media_type in _INLINE:
        return _thumbnail(b"".join(chunks), name)
    inline = media_type in _INLINE
    return Download(media_type, headers(name, inline=inline), chunks)


def headers(name: str, *, inline: bool) -> dict[str, str]:
    """The headers of a download of ``name``."""
    disposition = "inline" if inline else "attachment"
    return {
        "Content-Disposition": f"{disposition}; filename*=UTF-8''{quote(name)}",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Cache-Control": "private, no-cache",
    }


def _thumbnail(content: bytes, name: str) -> Download:
    from PIL import Image  # only thumbnails need Pillow here

    with Image.open(io.BytesIO(content)) as image:
        image.thumbnail((THUMB_SIDE, THUMB_SIDE))
        if image.mode not in ("RGB", "RGBA", "L", "LA"):
            image = image.convert("RGBA")
        out = io.BytesIO()
        image.save(out, "PNG")
    return Download(
        "image/png", headers(f"thumb-{name}.png", inline=True), iter([out.getvalue()])
    )
