"""What both frameworks say about MySQL and MariaDB databases before and after
migrating: the character set the panel's tables need, and how to go on after a
migration that stopped partway (their DDL commits at once: nothing rolls back).
"""

from __future__ import annotations

CHARSET = "utf8mb4"
# Binary: values compared, kept unique and sorted as on PostgreSQL (C collation).
COLLATION = "utf8mb4_bin"
# SELECT of the database's name, character set and collation.
CHARSET_QUERY = "SELECT DATABASE(), @@character_set_database, @@collation_database"


def charset_problem(name: str, charset: str, collation: str) -> str | None:
    """The refusal to migrate a database that does not store utf8mb4_bin, if so."""
    if (charset, collation) == (CHARSET, COLLATION):
        return None
    return (
        f"the database {name} stores {charset} ({collation}), and the panel's tables"
        f" need {CHARSET} with {COLLATION}\n  hint: run ALTER DATABASE `{name}`"
        f" CHARACTER SET {CHARSET} COLLATE {COLLATION}; (no table changes), then"
        " migrate again"
    )


def resume_hint(migration: str, statements: int, command: str) -> str:
    """What stays applied of a migration that failed partway, and what to do."""
    counted = "1 statement" if statements == 1 else f"{statements} statements"
    return (
        f"\n  MySQL cannot roll back a schema change: {migration} stopped after"
        f" {counted}, which stay applied."
        f"\n  hint: fix the cause, then run `{command}` again: it resumes at the"
        " statement that failed"
    )
