"""Record versions, for optimistic concurrency: ``ETag``, ``If-Match`` and ``_version``.

A record's version is a hash of its JSON, as the API sends it: no column and no
migration, and it changes whenever a field the API shows changes (a password, never
shown, does not count). Answers carrying a record send it as a strong ``ETag``; a
``PUT``, ``PATCH`` or ``DELETE`` of that record may send it back in ``If-Match``, and
the edit form carries it in its hidden ``_version`` field. The store compares it with
the record as read inside the write's transaction, the row locked (``FOR UPDATE``; on
SQLite the write transaction holds the database's write lock), so of two writers who
loaded the same version only the first succeeds: the second gets ``412`` (a form:
shown again with the other's values), never a silent overwrite.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from .decimals import json_default
from .errors import PreconditionFailed, PreconditionRequired

# The edit form's hidden field holding the version it was loaded with.
VERSION_FIELD = "_version"
# As the panels write records (naive date-times are UTC).
_JSON_OPTIONS = orjson.OPT_NAIVE_UTC


def record_version(record: Mapping[str, Any]) -> str:
    """The version of ``record``: 32 hex digits of the SHA-256 of its JSON."""
    text = orjson.dumps(record, default=json_default, option=_JSON_OPTIONS)
    return hashlib.sha256(text).hexdigest()[:32]


def etag(record: Mapping[str, Any]) -> str:
    """The ``ETag`` header of an answer carrying ``record``: its version, quoted."""
    return f'"{record_version(record)}"'


@dataclass(frozen=True)
class Expected:
    """The versions a write may change; ``None``: any (``If-Match: *``)."""

    versions: frozenset[str] | None

    def check(self, record: Mapping[str, Any]) -> None:
        """412 unless ``record`` (read in the write's transaction) is one of them."""
        if self.versions is not None and record_version(record) not in self.versions:
            raise PreconditionFailed()


def parse_if_match(header: str) -> Expected:
    """An ``If-Match`` header: ``*``, or a list of entity tags.

    Tags are compared strongly, so a weak one (``W/"…"``) never matches; a bare tag
    without its quotes is taken as the tag.
    """
    if header.strip() == "*":
        return Expected(None)
    versions = set()
    for part in header.split(","):
        tag = part.strip()
        if tag.startswith("W/"):
            continue
        if len(tag) >= 2 and tag[0] == tag[-1] == '"':
            tag = tag[1:-1]
        if tag:
            versions.add(tag)
    return Expected(frozenset(versions))


def expected_version(
    if_match: str | None, form_version: str | None, *, required: bool
) -> Expected | None:
    """What a write of one record expects it to be: ``If-Match``, else the form's
    ``_version``; ``None`` (no check) without either, or 428 when ``required``."""
    if if_match is not None:
        return parse_if_match(if_match)
    if form_version:
        return Expected(frozenset({form_version}))
    if required:
        raise PreconditionRequired()
    return None
