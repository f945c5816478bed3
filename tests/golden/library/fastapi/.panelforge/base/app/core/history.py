"""The history of changes in ``panel_history`` (migration 0000c).

The store writes the rows (``panel_core.history`` says what they hold) on the
connection of the change, in its transaction; pages read them back newest first.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import transaction
from app.core.models import Base
from panel_core.history import (
    KEY_SIZE,
    LABEL_SIZE,
    LOGIN_SIZE,
    Entry,
    row_values,
    stored_key,
)
from panel_core.history_pages import ROW_KEYS


class HistoryRow(Base):
    """One change of one record."""

    __tablename__ = "panel_history"
    __table_args__ = (
        sa.Index("ix_panel_history_record", "resource", "record_key", "at"),
    )

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), index=True
    )
    user_id: Mapped[str | None] = mapped_column(sa.String(64), nullable=True)
    user_login: Mapped[str] = mapped_column(sa.String(LOGIN_SIZE))
    resource: Mapped[str] = mapped_column(sa.String(100))
    record_key: Mapped[str] = mapped_column(sa.String(KEY_SIZE))
    record_label: Mapped[str] = mapped_column(sa.String(LABEL_SIZE))
    action: Mapped[str] = mapped_column(sa.String(20))
    changes: Mapped[str] = mapped_column(sa.Text)  # JSON


_TABLE = HistoryRow.__table__
_SELECT = sa.select(*(_TABLE.c[name] for name in ROW_KEYS))
_NEWEST = (_TABLE.c.at.desc(), _TABLE.c.id.desc())


def write(connection: Connection, entries: Iterable[Entry | None]) -> None:
    """Add the rows of ``entries`` (``None``: nothing changed) in ``connection``'s
    transaction."""
    rows = [row_values(entry) for entry in entries if entry is not None]
    if rows:
        connection.execute(sa.insert(_TABLE), rows)


def _read(engine: Engine, statement: sa.Select[Any]) -> list[dict[str, Any]]:
    with transaction(engine) as connection:
        return [dict(row._mapping) for row in connection.execute(statement)]


def of_record(
    engine: Engine, resource: str, key: Any, limit: int
) -> list[dict[str, Any]]:
    """The latest ``limit`` changes of one record, newest first."""
    found = (_TABLE.c.resource == resource, _TABLE.c.record_key == stored_key(key))
    return _read(engine, _SELECT.where(*found).order_by(*_NEWEST).limit(limit))


def recent(
    engine: Engine, resources: Sequence[str], limit: int
) -> list[dict[str, Any]]:
    """The latest ``limit`` changes of any record of ``resources``."""
    if not resources:
        return []
    among = _TABLE.c.resource.in_(resources)
    return _read(engine, _SELECT.where(among).order_by(*_NEWEST).limit(limit))


def prune(engine: Engine, before: datetime.datetime) -> int:
    """Remove the changes made before ``before``; how many were removed."""
    with transaction(engine, writes=True) as connection:
        removed = connection.execute(sa.delete(_TABLE).where(_TABLE.c.at < before))
        return int(removed.rowcount)
