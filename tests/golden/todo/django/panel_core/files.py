"""Stored files: what a file or image field's column holds, and how it is answered.

The column holds JSON text: the storage key the server made, the original file name,
the size in bytes and the media type sniffed from the content. The stores read it as
a :class:`StoredFile`; JSON answers carry ``{url, name, size, media_type}``, the URL
being the panel's auth-checked download route (``crud.file``).

Storage keys are made here, never taken from the client: ``<resource>/<field>/`` then
32 random hex digits, ``-`` and the file name reduced to safe characters (no slash, no
dot first, at most 100 characters). So no name can climb out of the media folder or
the bucket's prefix, and two uploads of one name never collide.
"""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
from typing import Any

from .routes import url_for

# The last segment of a key: 32 hex digits, then the sanitised name.
FILE_ID = re.compile(r"[0-9a-f]{32}-[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_SEGMENT = re.compile(r"[a-z0-9][a-z0-9_-]*")
MAX_NAME = 255  # the original name kept as metadata, cut to this many characters


class StoredFile:
    """A file in storage, as a record holds it. Not a dataclass: orjson would write
    one field by field, where the answers carry ``panel_json``."""

    __slots__ = ("key", "media_type", "name", "size")

    def __init__(self, key: str, name: str, size: int, media_type: str) -> None:
        self.key = key
        self.name = name
        self.size = size
        self.media_type = media_type

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StoredFile):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"StoredFile({self.key!r}, {self.name!r}, {self.size}, {self.media_type!r})"
        )

    def _fields(self) -> tuple[str, str, int, str]:
        return (self.key, self.name, self.size, self.media_type)

    @property
    def is_image(self) -> bool:
        """Whether the content sniffed as an image (shown inline, thumbnailed)."""
        return self.media_type.startswith("image/")

    @property
    def url(self) -> str:
        """The download route of this file (logged-in users only)."""
        resource, field, file_id = self.key.split("/")
        return url_for(
            "crud.file",
            {"resourceUri": resource, "fieldName": field, "fileId": file_id},
        )

    def panel_json(self) -> dict[str, Any]:
        """The file as JSON answers carry it."""
        return {
            "url": self.url,
            "name": self.name,
            "size": self.size,
            "media_type": self.media_type,
        }

    def column_text(self) -> str:
        """What the column holds."""
        data = {
            "key": self.key,
            "name": self.name,
            "size": self.size,
            "media_type": self.media_type,
        }
        return json.dumps(data, separators=(",", ":"), sort_keys=True)


def from_column(value: Any) -> StoredFile | None:
    """The file a column value describes (``None``: no file, or unreadable text)."""
    if value is None or isinstance(value, StoredFile):
        return value
    try:
        data = json.loads(value)
        found = StoredFile(
            str(data["key"]),
            str(data["name"]),
            int(data["size"]),
            str(data["media_type"]),
        )
    except (ValueError, TypeError, KeyError):
        return None
    return found if is_key(found.key) else None


def to_column(value: Any) -> Any:
    """A record's value as the column holds it (a stored file, or its fields as a
    dict: what validated input gives)."""
    if isinstance(value, dict):
        value = StoredFile(**value)
    return value.column_text() if isinstance(value, StoredFile) else value


def safe_name(name: str) -> str:
    """``name`` reduced to letters, digits, ``.``, ``_`` and ``-`` (its last path
    segment only, accents dropped, no dot first): ``../../etc/passwd`` → ``passwd``."""
    last = re.split(r"[\\/]", name)[-1]
    ascii_name = unicodedata.normalize("NFKD", last).encode("ascii", "ignore").decode()
    cleaned = _UNSAFE.sub("_", ascii_name).strip("._-")
    if len(cleaned) > 100:
        stem, dot, suffix = cleaned.rpartition(".")
        keep = suffix[:16] if dot else ""
        cleaned = (stem if dot else cleaned)[: 99 - len(keep)] + (dot + keep)
    return cleaned or "file"


def new_key(resource_uri: str, field_name: str, name: str) -> str:
    """A fresh storage key for an upload of ``name`` to ``resource_uri``'s field."""
    return f"{resource_uri}/{field_name}/{secrets.token_hex(16)}-{safe_name(name)}"


def is_key(key: str) -> bool:
    """Whether ``key`` has the shape :func:`new_key` gives (nothing else is served)."""
    parts = key.split("/")
    return (
        len(parts) == 3
        and all(_SEGMENT.fullmatch(p) for p in parts[:2])
        and FILE_ID.fullmatch(parts[2]) is not None
    )


def original_name(name: str) -> str:
    """The client's file name as metadata: its last segment, control characters out."""
    last = re.split(r"[\\/]", name)[-1]
    kept = "".join(c for c in last if c.isprintable())
    return kept[:MAX_NAME] or "file"
