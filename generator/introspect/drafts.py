"""The shapes a resource is built in from its table (``inspect``'s working data)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalog import Table


@dataclass(frozen=True)
class Key:
    """A resource's key: its field (None for the implicit ``id``) and type options.

    A composite key has its columns in ``parts`` (in the primary key's order), no
    ``column`` and no ``field``: each part is a field of its own.
    """

    resource: str
    field: str | None
    column: str
    options: dict[str, Any]
    parts: tuple[str, ...] = ()

    @property
    def columns(self) -> tuple[str, ...]:
        """The key's columns: its parts, or its one column."""
        return self.parts or (self.column,)


@dataclass
class Draft:
    """A resource being built from one table."""

    table: Table
    name: str
    key: Key
    fields: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_column: dict[str, str] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)
