"""An adopted table's own indexes and UNIQUE constraints, by their real names.

The table exists already (``adopted:`` in the manifest): the model declares what it
has, so Alembic's comparison with the database finds nothing to change.
"""

from __future__ import annotations

from ...model import ir
from ..pysource import literal


def adopted_table_args(resource: ir.Resource) -> list[str]:
    """An adopted table's indexes and UNIQUE constraints by their real names (a
    model names its columns by their keys: the fields' names)."""
    lines = []
    for field in resource.stored_fields:
        stored = field.stored
        if stored and stored.index:
            unique = ", unique=True" if stored.unique_index else ""
            lines.append(
                f"sa.Index({literal(stored.index)}, {literal(field.name)}{unique}),"
            )
        if stored and stored.unique:
            name = literal(stored.unique)
            lines.append(f"sa.UniqueConstraint({literal(field.name)}, name={name}),")
    for index in resource.table_indexes:
        columns = ", ".join(literal(n) for n in index.fields)
        if index.constraint:
            name = literal(index.name)
            lines.append(f"sa.UniqueConstraint({columns}, name={name}),")
        else:
            unique = ", unique=True" if index.unique else ""
            lines.append(f"sa.Index({literal(index.name)}, {columns}{unique}),")
    return lines
