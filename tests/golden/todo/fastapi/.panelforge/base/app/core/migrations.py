"""Alembic, driven from Python: ``python -m app migrate`` and the tests use this."""

from __future__ import annotations

from collections.abc import Sequence

from alembic import command, op
from alembic.config import Config

from app.core.config import PROJECT_DIR
from panel_core.migration_guard import Check, Rows, dialect_named
from panel_core.migration_guard import refuse_damage as _refuse_damage

__all__ = ["Check", "alembic_config", "downgrade", "refuse_damage", "upgrade"]


def alembic_config(database_url: str | None = None) -> Config:
    """The project's Alembic configuration; ``database_url`` overrides the settings."""
    config = Config(str(PROJECT_DIR / "alembic.ini"))
    config.set_main_option("script_location", str(PROJECT_DIR / "migrations"))
    config.attributes["database_url"] = database_url
    return config


def upgrade(database_url: str | None = None, revision: str = "head") -> None:
    """Migrate the database to ``revision``."""
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str | None = None, revision: str = "base") -> None:
    """Migrate the database back to ``revision``."""
    command.downgrade(alembic_config(database_url), revision)


def refuse_damage(checks: Sequence[Check], migration: str) -> None:
    """Inside a migration: raise ``MigrationRefused`` when rows would be damaged.

    Generated migrations import it from here, a module that stays where it is.
    """
    bind = op.get_bind()

    def run(sql: str) -> Rows:
        return bind.exec_driver_sql(sql).fetchall()

    _refuse_damage(run, checks, migration, dialect_named(bind.dialect.name))
