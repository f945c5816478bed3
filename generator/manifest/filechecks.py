"""File and image fields (``format: file`` / ``image``): M050 to M053.

``accept`` lists media types (``type/subtype``, or ``type/*``); an image field takes
only ``image/…`` types (M050). ``maxBytes`` is a positive number of bytes (M051).
Both apply to file and image fields only (M052). An uploaded file is stored by a key
the server makes, so the field cannot be unique, sortable, filterable, limited in
length or pattern, or have a default (M053); the key and ``search`` take no file
field either (M029, M030: they take plain strings).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from ..model.ir import FILE_FORMATS
from .hints import shown
from .schema import INVALID
from .yamlnodes import Document

MEDIA_TYPE = "M050"
MAX_BYTES = "M051"
NOT_A_FILE = "M052"
FILE_OPTION = "M053"

# RFC 6838's restricted names, lower case (media types compare without case).
_TOKEN = r"[a-z0-9][a-z0-9!#$&^_.+-]{0,126}"
_MEDIA_TYPE = re.compile(rf"{_TOKEN}/(?:{_TOKEN}|\*)")
_FILE_OPTIONS = ("accept", "maxBytes")
# Options that make no sense for a stored file, with the hint each gets.
_REFUSED = {
    "sortable": "files are not sorted",
    "filterable": "files are not filtered",
    "unique": "each upload gets a key of its own",
    "default": "a file is uploaded, never defaulted",
    "default_sql": "a file is uploaded, never defaulted",
    "minLength": "limit the size with maxBytes",
    "maxLength": "limit the size with maxBytes",
    "pattern": "limit the media types with accept",
    "enum": "limit the media types with accept",
    "relation": "a file is not a relation",
}


def file_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """Every problem of ``resource``'s file and image fields and their options."""
    options = spec if isinstance(spec, dict) else {}
    fields = options.get("fields")
    if not isinstance(fields, dict):
        return
    for name, field in fields.items():
        if not isinstance(field, dict):
            continue
        where = ("resources", resource, "fields", name)
        is_file = field.get("format") in FILE_FORMATS
        if not is_file:
            for option in _FILE_OPTIONS:
                if option in field:
                    message = f"'{option}' applies to file and image fields only"
                    hint = "add 'format: file' or 'format: image', or remove it"
                    yield document.issue((*where, option), message, NOT_A_FILE, hint)
            continue
        yield from _option_issues(document, where, field)
        yield from _accept_issues(document, where, field)
        yield from _size_issues(document, where, field.get("maxBytes"))


def _option_issues(
    document: Document, where: tuple[Any, ...], field: dict[str, Any]
) -> Iterator[Issue]:
    kind = field["format"]
    for option, hint in _REFUSED.items():
        value = field.get(option)
        if option not in field or value is False or value is INVALID:
            continue
        message = f"a {kind} field cannot have '{option}'"
        yield document.issue((*where, option), message, FILE_OPTION, hint)


def _accept_issues(
    document: Document, where: tuple[Any, ...], field: dict[str, Any]
) -> Iterator[Issue]:
    accept = field.get("accept")
    if not isinstance(accept, list):
        return
    for index, entry in enumerate(accept):
        if not isinstance(entry, str) or entry is INVALID:
            continue
        place = (*where, "accept", index)
        if not _MEDIA_TYPE.fullmatch(entry):
            message = f"{shown(entry)} is not a media type"
            hint = "write it as type/subtype in lower case, like application/pdf"
            yield document.issue(place, message, MEDIA_TYPE, hint)
        elif field["format"] == "image" and not entry.startswith("image/"):
            message = f"an image field cannot accept {shown(entry)}"
            hint = "use 'format: file' for other media types"
            yield document.issue(place, message, MEDIA_TYPE, hint)


def _size_issues(
    document: Document, where: tuple[Any, ...], value: Any
) -> Iterator[Issue]:
    if isinstance(value, int) and not isinstance(value, bool) and value < 1:
        message = f"maxBytes must be a positive number of bytes, not {value}"
        yield document.issue((*where, "maxBytes"), message, MAX_BYTES, "like 1048576")
