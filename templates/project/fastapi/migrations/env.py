"""Alembic environment: the URL comes from the settings, the tables from the models."""

from __future__ import annotations

from logging.config import fileConfig
from typing import Any

from alembic import context
from sqlalchemy import Connection, event

import app.core.auth_state  # noqa: F401  (the login throttle, revoked tokens)
import app.core.history  # noqa: F401  (the history of changes)
import app.core.users  # noqa: F401  (the panel_users table)
import app.resources  # noqa: F401  (imports every model, filling Base.metadata)
from app.core.config import get_settings
from app.core.db import create_db_engine
from app.core.models import Base
from app.core.mysql_migrations import is_mysql, resumable

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _database_url() -> str:
    url: str | None = config.attributes.get("database_url")
    return url or get_settings().database_url


def run_migrations_offline() -> None:
    """Print the migrations' SQL instead of running it (``alembic upgrade --sql``)."""
    context.configure(
        url=_database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
    )
    with context.begin_transaction():
        context.run_migrations()


def _foreign_keys_off(dbapi_connection: Any, _record: Any) -> None:
    # SQLite changes a table by rebuilding it (batch mode) and dropping the old one;
    # with foreign keys enforced that drop would SET NULL or refuse in the rows that
    # refer to it. The pragma only works outside a transaction, hence on connect.
    dbapi_connection.execute("PRAGMA foreign_keys=OFF")


def _check_foreign_keys(connection: Connection) -> None:
    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        tables = sorted({row[0] for row in broken})
        raise RuntimeError(f"rows refer to missing records in: {', '.join(tables)}")


def run_migrations_online() -> None:
    """Run the migrations on a live connection."""
    engine = create_db_engine(_database_url())
    sqlite = engine.dialect.name == "sqlite"
    if sqlite:
        event.listen(engine, "connect", _foreign_keys_off)
    try:
        with engine.connect() as connection:
            mysql = is_mysql(connection)
            if mysql:
                # Its DDL commits anyway: every statement on its own, each counted.
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=sqlite,
            )
            if mysql:
                migration = context.get_context()
                migration.on_version_apply_callbacks = (resumable(migration),)
            with context.begin_transaction():
                context.run_migrations()
                if sqlite:
                    _check_foreign_keys(connection)
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
