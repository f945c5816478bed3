"""Alembic, driven from Python: ``python -m app migrate`` and the tests use this."""

from __future__ import annotations

from alembic import command
from alembic.config import Config

from app.core.config import PROJECT_DIR


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
