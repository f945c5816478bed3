"""What both frameworks say about MySQL and MariaDB databases before and after
migrating: the character set the panel's tables need, and how to go on after a
migration that stopped partway (their DDL commits at once: nothing rolls back).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from .errors import InvalidInput

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


# The length of an indexed string without maxLength on MySQL: VARCHAR(768), 768
# four-byte characters being InnoDB's longest index key.
INDEXED_LENGTH = 768
_DATA_TOO_LONG = 1406
_COLUMN = re.compile(r"Data too long for column '([^']+)'")


def too_long_errors(
    error: BaseException, labels: Mapping[str, str]
) -> dict[str, list[str]] | None:
    """The 422 errors of MySQL's "Data too long" (a value longer than its column can
    hold: an indexed string without ``maxLength``), else ``None``.

    ``error`` is the driver's, or a wrapper of it (SQLAlchemy's ``.orig``; Django
    copies its ``args``).
    """
    args = (getattr(error, "orig", None) or error).args
    if len(args) < 2 or args[0] != _DATA_TOO_LONG:
        return None
    found = _COLUMN.search(str(args[1]))
    if found is None or found.group(1) not in labels:
        return None
    name = found.group(1)
    message = (
        f"The {labels[name]} field must not be greater than {INDEXED_LENGTH}"
        " characters."
    )
    return {name: [message]}


@contextmanager
def values_that_fit(
    labels: Mapping[str, str], data_error: type[Exception]
) -> Iterator[None]:
    """A write whose "Data too long" (``data_error``, the framework's DataError)
    becomes a 422 naming the field (``too_long_errors``); other errors pass."""
    try:
        yield
    except data_error as exc:
        errors = too_long_errors(exc, labels)
        if errors is None:
            raise
        raise InvalidInput(errors) from None
