"""An existing table's indexes and UNIQUE constraints by their real names, read
from the inspector ``catalog`` opened (for ``adopted:``, so the generated models
name them as the database does).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

# (kind, name, columns): kind "index", "unique_index" or "unique" (a constraint).
Named = tuple[str, str, tuple[str, ...]]


def named_indexes(inspector: Any, table: str) -> tuple[Named, ...]:
    """Every named index and UNIQUE constraint on plain columns, sorted by name."""
    return tuple(sorted(_named(inspector, table), key=lambda n: n[1]))


def _named(inspector: Any, table: str) -> Iterator[Named]:
    constraints = set()
    for constraint in inspector.get_unique_constraints(table):
        columns = tuple(constraint["column_names"])
        if constraint.get("name") and columns:
            constraints.add(constraint["name"])
            yield ("unique", constraint["name"], columns)
    for index in inspector.get_indexes(table):
        columns = tuple(index.get("column_names") or ())
        options = index.get("dialect_options") or {}
        partial = options.get("postgresql_where") or options.get("sqlite_where")
        # A constraint's own index (MariaDB lists it under the constraint's name)
        own = index.get("duplicates_constraint") or index["name"] in constraints
        if own or partial or not columns:
            continue  # or one a manifest cannot say
        if None in columns or index.get("expressions"):
            continue
        kind = "unique_index" if index.get("unique") else "index"
        yield (kind, index["name"], columns)
