"""Multipart create and update of resources with file and image fields.

Both frameworks feed the body to :class:`MultipartReader` as it streams in: each file
part goes to a temporary file, and a part over its field's ``max_bytes`` (or the body
over ``MAX_UPLOAD_SIZE``) is refused with 413 at once, without reading the rest. The
other parts are the form's text fields.

Each upload is then checked (:func:`check_file`): its media type is sniffed from the
content (the client's ``Content-Type`` and name are never believed), it must be one
of the field's ``accept`` types, and an image must decode with Pillow, completely
(a truncated image is refused), with nothing after its end and no other format
inside it (a polyglot is refused: PNG+ZIP, GIF+HTML, JPEG+PDF…). Images are not
re-encoded: what was uploaded is what is downloaded.

What happens to stored files around a record's write is :mod:`panel_core.file_writes`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from python_multipart.multipart import MultipartParser, parse_options_header

from . import fields as kernel
from .errors import InvalidInput, PayloadTooLarge, UnsupportedMediaType
from .sniff import HEAD, accepted, second_types, sniff
from .translation import gettext

MULTIPART = "multipart/form-data"
_SPOOL = 1024 * 1024  # uploads up to this size stay in memory
_CHECKED_IN_FULL = 64 * 1024 * 1024  # images are scanned for other formats up to this


@dataclass
class Spooled:
    """One uploaded file part, read into a temporary file."""

    field: str
    filename: str
    content: IO[bytes]
    size: int = 0


@dataclass
class _Part:
    headers: dict[bytes, bytes] = field(default_factory=dict)
    name: str = ""
    filename: str | None = None
    text: bytearray = field(default_factory=bytearray)
    spooled: Spooled | None = None


def is_multipart(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` is a multipart form."""
    return (content_type or "").split(";")[0].strip().lower() == MULTIPART


class MultipartReader:
    """Reads a multipart body chunk by chunk, with the limits of ``files``."""

    def __init__(
        self,
        content_type: str,
        files: Sequence[kernel.File],
        *,
        ceiling: int,
        text_limit: int,
    ) -> None:
        _, options = parse_options_header(content_type)
        boundary = options.get(b"boundary")
        if not boundary:
            message = gettext("The multipart body names no boundary.")
            raise UnsupportedMediaType(message)
        self._files = {f.name: f for f in files}
        self._ceiling = ceiling
        self._text_limit = text_limit
        self._size = 0
        self._text_size = 0
        self._part = _Part()
        self._header = b""
        self.pairs: list[tuple[str, str]] = []
        self.uploads: dict[str, Spooled] = {}
        callbacks: Any = {
            "on_part_begin": self._begin,
            "on_header_field": self._header_field,
            "on_header_value": self._header_value,
            "on_header_end": self._header_end,
            "on_headers_finished": self._headers_done,
            "on_part_data": self._data,
            "on_part_end": self._end,
        }
        self._parser = MultipartParser(boundary, callbacks)

    def feed(self, chunk: bytes) -> None:
        """Parse the next bytes of the body; 413 as soon as a limit is passed."""
        self._size += len(chunk)
        if self._size > self._ceiling:
            self.close()
            limit = self._ceiling
            message = gettext("The request body must not exceed %(limit)s bytes.")
            raise PayloadTooLarge(message % {"limit": limit})
        try:
            self._parser.write(chunk)
        except PayloadTooLarge:
            self.close()
            raise
        except Exception as exc:  # python-multipart's errors: a broken body
            self.close()
            message = gettext("The multipart body could not be read.")
            raise InvalidInput({"body": [message]}) from exc

    def close(self) -> None:
        """Drop every temporary file (after the uploads were stored, or refused)."""
        for upload in self.uploads.values():
            upload.content.close()
        if self._part.spooled is not None:
            self._part.spooled.content.close()

    def _begin(self) -> None:
        self._part = _Part()

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        name = self._header.lower()
        self._part.headers[name] = self._part.headers.get(name, b"") + data[start:end]

    def _headers_done(self) -> None:
        self._header = b""
        part = self._part
        _, options = parse_options_header(part.headers.get(b"content-disposition", b""))
        part.name = options.get(b"name", b"").decode("utf-8", "replace")
        raw_name = options.get(b"filename")
        if raw_name is None:
            return
        part.filename = raw_name.decode("utf-8", "replace")
        if part.name not in self._files:
            message = f"The {part.name} field is not a file field."
            raise InvalidInput({part.name or "body": [message]})
        content = tempfile.SpooledTemporaryFile(max_size=_SPOOL)  # noqa: SIM115
        part.spooled = Spooled(part.name, part.filename, content)

    def _header_end(self) -> None:
        self._header = b""

    def _data(self, data: bytes, start: int, end: int) -> None:
        part = self._part
        chunk = data[start:end]
        if part.spooled is None:
            self._text_size += len(chunk)
            if self._text_size > self._text_limit:
                limit = self._text_limit
                message = gettext("The form's fields must not exceed %(limit)s bytes.")
                raise PayloadTooLarge(message % {"limit": limit})
            part.text += chunk
            return
        spooled = part.spooled
        spooled.size += len(chunk)
        limit = self._files[spooled.field].max_bytes
        if limit is not None and spooled.size > limit:
            label = self._files[spooled.field].label
            raise PayloadTooLarge(f"The {label} file must not exceed {limit} bytes.")
        spooled.content.write(chunk)

    def _end(self) -> None:
        part = self._part
        if part.spooled is not None:
            if part.spooled.size or part.filename:
                previous = self.uploads.pop(part.name, None)
                if previous is not None:
                    previous.content.close()
                self.uploads[part.name] = part.spooled
            else:  # an empty file input: no file chosen
                part.spooled.content.close()
            part.spooled = None
            return
        try:
            text = part.text.decode("utf-8")
        except UnicodeDecodeError:
            message = gettext("The form is not valid UTF-8.")
            raise InvalidInput({"body": [message]}) from None
        self.pairs.append((part.name, text))


def check_file(upload: Spooled, spec: kernel.File) -> str:
    """The media type of a valid upload; 422 naming the field otherwise."""
    label = spec.label

    def refuse(message: str) -> InvalidInput:
        return InvalidInput({spec.name: [message]})

    if upload.size == 0:
        raise refuse(f"The {label} file is empty.")
    upload.content.seek(0)
    media_type = sniff(upload.content.read(HEAD))
    if isinstance(spec, kernel.Image) and not media_type.startswith("image/"):
        raise refuse(f"The {label} field must be an image.")
    if not accepted(media_type, spec.accept):
        allowed = ", ".join(spec.accept or ())
        raise refuse(f"The {label} field must be a file of type: {allowed}.")
    if media_type.startswith("image/"):
        problem = image_problem(upload.content, media_type, upload.size)
        if problem:
            raise refuse(f"The {label} field must be a valid image: {problem}.")
    return media_type


def image_problem(content: IO[bytes], media_type: str, size: int) -> str | None:
    """What is wrong with an image, or ``None``: it decodes in full, and holds no
    other format (``second_types``) nor data after its end."""
    from PIL import Image, UnidentifiedImageError  # only uploads need Pillow

    try:
        content.seek(0)
        with Image.open(content) as image:
            image.verify()
        content.seek(0)
        with Image.open(content) as image:
            image.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        return "it could not be decoded in full"
    except Image.DecompressionBombError:
        return "it has too many pixels"
    if size > _CHECKED_IN_FULL:
        return "it is too large to be checked"
    content.seek(0)
    data = content.read()
    others = second_types(data, media_type)
    if others:
        return f"it also holds {others[0]} content"
    if _trailing(data, media_type):
        return "it has data after its end"
    return None


def _trailing(data: bytes, media_type: str) -> bool:
    """Whether bytes follow the image's end marker (PNG, JPEG and GIF have one)."""
    if media_type == "image/png":
        end = data.rfind(b"IEND")
        return end == -1 or len(data) > end + 8
    if media_type == "image/jpeg":
        return not data.rstrip(b"\x00").endswith(b"\xff\xd9")
    if media_type == "image/gif":
        return not data.endswith(b"\x3b")
    return False
