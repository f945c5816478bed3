"""Composite record keys: a key of several fields written in ONE URL path segment.

A resource whose key is several fields (``key: [playlist, track]``) names a record
by all of them in one segment: each part's text is percent-encoded (every character
but RFC 3986's unreserved ``A-Z a-z 0-9 - . _ ~``, as UTF-8), and the parts are
joined with commas, in the order the key declares them: ``3,17``. A comma, slash or
percent sign inside a part is always encoded (``a,b`` and ``x`` → ``a%2Cb,x``), so
the split is never ambiguous and the text is reversible.

That text is the segment's *value*: in a URL it is quoted once more like any path
segment value (``urls.record_url``), and the frameworks decode the path once before
the value reaches :func:`split_key`. A value with the wrong number of parts, a broken
escape (``%4``, ``%zz``, bytes that are not UTF-8) or a part that is not a value of
its field names no record: the answer is 404, as for any key that cannot exist.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any
from urllib.parse import quote, unquote

SEPARATOR = ","
# Characters never encoded in a part: RFC 3986's unreserved ones (quote's default
# safe set is "/", which a part must not keep).
_SAFE = ""
_ESCAPE = re.compile(r"%(?![0-9A-Fa-f]{2})")
# The spec's pattern of the segment value: parts of unreserved characters and
# escapes, joined with commas.
_PART_PATTERN = r"(?:[A-Za-z0-9\-._~]|%[0-9A-Fa-f]{2})*"


def key_pattern(count: int) -> str:
    """The regular expression a segment value of ``count`` parts matches."""
    parts = SEPARATOR.join([_PART_PATTERN] * count)
    return f"^{parts}$"


def encode_part(value: Any) -> str:
    """One part's text, percent-encoded: ``a,b`` → ``a%2Cb``."""
    return quote(str(value), safe=_SAFE)


def join_key(values: Sequence[Any]) -> str:
    """The segment value of a key whose parts are ``values``: ``3,17``."""
    return SEPARATOR.join(encode_part(value) for value in values)


def split_key(text: str, count: int) -> list[str] | None:
    """The parts' texts of a segment value, decoded; ``None`` when it has not
    ``count`` parts or an escape is broken."""
    pieces = text.split(SEPARATOR)
    if len(pieces) != count or any(_ESCAPE.search(piece) for piece in pieces):
        return None
    try:
        return [unquote(piece, errors="strict") for piece in pieces]
    except UnicodeDecodeError:
        return None


class CompositeKey(tuple[Any, ...]):
    """The key of a record of a composite-key resource: its parts' values in the
    key's order. ``str()`` is its segment value (``3,17``), so URLs, ETags and
    labels written from ``str(key)`` name it in one piece."""

    __slots__ = ()

    def __str__(self) -> str:
        return join_key(self)


def parse_composite_key(
    parsers: Sequence[Callable[[str], Any]], text: str
) -> CompositeKey | None:
    """The key a segment value names, each part read by its field's parser (which
    raises ``ValueError`` for text that is not a value); ``None`` when none."""
    texts = split_key(text, len(parsers))
    if texts is None:
        return None
    try:
        return CompositeKey(
            parse(part) for parse, part in zip(parsers, texts, strict=True)
        )
    except ValueError:
        return None
