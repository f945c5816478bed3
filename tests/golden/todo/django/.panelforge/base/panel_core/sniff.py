"""The media type of a file, from its first bytes: the client's word is never taken.

A small table of signatures (WHATWG's MIME Sniffing, the common image, document and
archive formats); text that is valid UTF-8 without control characters is
``text/plain``, anything else ``application/octet-stream``. ``second_types`` finds a
file that is two things at once (an image with an archive, a PDF or markup inside):
what image uploads are refused for.
"""

from __future__ import annotations

import re

HEAD = 4096  # how many first bytes the sniffer reads

_SIGNATURES: tuple[tuple[bytes, int, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", 0, "image/png"),
    (b"\xff\xd8\xff", 0, "image/jpeg"),
    (b"GIF87a", 0, "image/gif"),
    (b"GIF89a", 0, "image/gif"),
    (b"WEBP", 8, "image/webp"),  # after RIFF....
    (b"BM", 0, "image/bmp"),
    (b"II*\x00", 0, "image/tiff"),
    (b"MM\x00*", 0, "image/tiff"),
    (b"%PDF-", 0, "application/pdf"),
    (b"PK\x03\x04", 0, "application/zip"),
    (b"PK\x05\x06", 0, "application/zip"),
    (b"\x1f\x8b\x08", 0, "application/gzip"),
    (b"7z\xbc\xaf\x27\x1c", 0, "application/x-7z-compressed"),
    (b"OggS", 0, "audio/ogg"),
    (b"ID3", 0, "audio/mpeg"),
    (b"ftyp", 4, "video/mp4"),
)
_MARKUP = re.compile(
    rb"\s*(<!doctype html|<html|<head|<script|<body|<iframe|<svg|<\?xml)", re.I
)
# Inside a file of another type: archives, PDF documents, markup a browser runs.
_EMBEDDED = (
    (re.compile(rb"PK\x03\x04|PK\x05\x06"), "application/zip"),
    (re.compile(rb"%PDF-"), "application/pdf"),
    (re.compile(rb"<(?:script|html|iframe|svg|body)[\s>/]", re.I), "text/html"),
)


def sniff(head: bytes) -> str:
    """The media type of content beginning with ``head``."""
    for signature, offset, media_type in _SIGNATURES:
        if head[offset : offset + len(signature)] == signature:
            if media_type == "image/webp" and not head.startswith(b"RIFF"):
                continue
            return media_type
    if _MARKUP.match(head):
        return "text/html" if not head.lstrip().startswith(b"<?xml") else "text/xml"
    return "text/plain" if _is_text(head) else "application/octet-stream"


def _is_text(head: bytes) -> bool:
    if not head:
        return False
    try:
        text = head.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut by the end of ``head`` is still text.
        if exc.start < len(head) - 3:
            return False
        text = head[: exc.start].decode("utf-8")
    return all(c.isprintable() or c in "\t\r\n\f" for c in text)


def second_types(content: bytes, media_type: str) -> list[str]:
    """Other formats found inside ``content`` (of ``media_type``), past its start."""
    found = []
    for pattern, other in _EMBEDDED:
        if other != media_type and pattern.search(content, 1):
            found.append(other)
    return found


def accepted(media_type: str, accept: tuple[str, ...] | None) -> bool:
    """Whether ``media_type`` is one of ``accept`` (``image/*`` takes any image)."""
    if accept is None:
        return True
    family = media_type.split("/")[0] + "/*"
    return media_type in accept or family in accept
