"""The tables that existed before the panel (``adopted:`` in the manifest).

Migrations never create or drop them, so a test database gets them from the models,
as a real database has them before its first ``migrate``.
"""

from __future__ import annotations

import sqlalchemy as sa

import app.resources  # noqa: F401  (declares every model on Base)
from app.core.db import create_db_engine
from app.core.models import Base


def adopted_tables() -> list[sa.Table]:
    """The adopted tables, in the order they can be created."""
    return [t for t in Base.metadata.sorted_tables if t.info.get("adopted")]


def create_adopted_tables(url: str) -> list[sa.Table]:
    """Make the adopted tables the database at ``url`` lacks; return those made."""
    engine = create_db_engine(url)
    try:
        existing = set(sa.inspect(engine).get_table_names())
        missing = [t for t in adopted_tables() if t.name not in existing]
        Base.metadata.create_all(engine, tables=missing)
        return missing
    finally:
        engine.dispose()
