"""Deterministic ``articles`` rows, built in one INSERT … SELECT (never row by row).

Row ``i`` (1-based): title ``Article i``, a ~200-character body cut from a fixed text
at an offset depending on ``i``, ``published`` for every third row, ``created_at`` one
minute apart from 2023-11-14 22:13:20 UTC. The same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

_TEXT = (
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor "
    "incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis "
    "nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. "
    "Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu "
    "fugiat nulla pariatur. Excepteur sint occaecat cupidatat non proident, sunt in "
    "culpa qui officia deserunt mollit anim id est laborum."
)
EPOCH = 1_700_000_000
BODY_LENGTH = 200

SQLITE_INSERT = f"""
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
INSERT INTO articles (id, title, body, published, created_at)
SELECT i, 'Article ' || i, substr(?, 1 + (i * 7) % 150, {BODY_LENGTH}),
       i % 3 = 0, datetime({EPOCH} + i * 60, 'unixepoch')
FROM n
"""

POSTGRES_INSERT = f"""
INSERT INTO articles (id, title, body, published, created_at)
SELECT i, 'Article ' || i, substr(%s, 1 + (i * 7) %% 150, {BODY_LENGTH}),
       i %% 3 = 0, to_timestamp({EPOCH} + i * 60)
FROM generate_series(1, %s) AS i
"""


def seed_sqlite(path: Path, rows: int) -> None:
    """Fill the (empty) ``articles`` table of the SQLite file with ``rows`` rows."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
        connection.execute("PRAGMA synchronous=OFF")
        connection.execute("BEGIN")
        connection.execute(SQLITE_INSERT, (rows, _TEXT))
        connection.execute("COMMIT")
    finally:
        connection.close()


def seed_postgres(url: str, rows: int) -> None:
    """Fill the (empty) ``articles`` table of the PostgreSQL database at ``url``."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(POSTGRES_INSERT, (_TEXT, rows))
        # The rows were given their ids: move the sequence past them for creates.
        connection.execute(
            "SELECT setval(pg_get_serial_sequence('articles', 'id'), %s)", (rows,)
        )
        connection.execute("VACUUM ANALYZE articles")


def sqlite_journal_default(path: Path) -> None:
    """Put a SQLite file back in SQLite's default rollback-journal mode."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=DELETE")
    finally:
        connection.close()
