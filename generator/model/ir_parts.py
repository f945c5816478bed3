"""The intermediate model's smaller parts: what a resource has beside its fields.

Re-exported by :mod:`generator.model.ir`, where the rest of the model lives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Stored:
    """How a column of an adopted table really is, where panelforge's own differ.

    Every field of an adopted resource has one (``manifest: adopted:``); its indexes
    and constraints are the ones named here, never the generator's own.
    """

    int32: bool = False  # a 32-bit INTEGER (a key or relation: BIGINT otherwise)
    naive: bool = False  # a TIMESTAMP without time zone
    nullable_key: bool = False  # a key column declared without NOT NULL (SQLite)
    index: str | None = None  # its one-column index (unique with ``unique_index``)
    unique_index: bool = False
    unique: str | None = None  # its one-column UNIQUE constraint ("": unnamed)
    foreign_key: str | None = None  # its foreign key's name
    no_action: bool = False  # that foreign key has no ON DELETE (NO ACTION)


@dataclass(frozen=True)
class HasMany:
    """A parent's read-only list of the records that belong to it (no column).

    ``tracks`` on ``Album``: the ``Track`` records whose ``album`` is the album.
    """

    name: str  # "tracks"
    label: str  # "Tracks"
    target: str  # the child resource's name: "Track"
    inverse: str  # the child's belongs-to field back to this resource: "album"
    description: str | None = None


@dataclass(frozen=True)
class ManyToMany:
    """A list of another resource's keys, stored as pairs in a link table.

    ``tracks`` on ``Playlist``: rows ``(playlist_id, track_id)`` of ``through``.
    """

    name: str  # "tracks"
    label: str  # "Tracks"
    target: str  # the linked resource's name: "Track"
    through: str  # the link table: "playlists_tracks"
    owner_column: str  # the column holding the owner's key: "playlist_id"
    target_column: str  # the column holding the target's key: "track_id"
    description: str | None = None


@dataclass(frozen=True)
class QueryTag:
    """A named, pre-set filter of a resource's list (``?query-tag=<uri>``)."""

    uri: str
    label: str
    filter: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Metric:
    """A value card of the dashboard (``metrics`` of a resource): ``count`` of the
    records, or ``sum`` / ``avg`` of a number ``field``, over those ``filter`` keeps."""

    name: str
    label: str
    aggregate: str
    field: str | None = None
    filter: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class TableIndex:
    """An adopted table's index or UNIQUE constraint over several columns."""

    name: str
    fields: tuple[str, ...]
    unique: bool = False
    constraint: bool = False  # a UNIQUE constraint rather than an index
