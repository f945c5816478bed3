"""What a manifest's ``adopted:`` says of a table: where it differs from the tables
panelforge makes, so the generated models match it exactly.

``int32``: keys and relations stored as INTEGER (panelforge's are BIGINT); ``naive``:
timestamps without time zone; the indexes, UNIQUE constraints and foreign keys by
their real names. ``true`` when nothing differs.
"""

from __future__ import annotations

from typing import Any

from .drafts import Draft

_KINDS = {"index": "indexes", "unique_index": "unique_indexes", "unique": "unique"}


def adopted_facts(resource: Draft) -> dict[str, Any] | bool:
    """The ``adopted:`` value of ``resource``'s table."""
    import sqlalchemy as sa

    table, key = resource.table, resource.key
    names, fields = _fields_by_column(resource)
    facts: dict[str, Any] = {}
    for column in table.columns:
        name = names.get(column.name)
        if name is None:
            continue
        keyed = column.name in key.columns or "relation" in fields[name]
        is_int = isinstance(column.type, sa.Integer)
        if keyed and is_int and not isinstance(column.type, sa.BigInteger):
            facts.setdefault("int32", []).append(name)
        if isinstance(column.type, sa.TIMESTAMP) and not column.type.timezone:
            facts.setdefault("naive", []).append(name)  # (SQLite: declared so)
    if any(table.column(c).nullable for c in key.columns):  # SQLite: no NOT NULL
        facts["key_nullable"] = True
    for kind, index, columns in table.named:
        members = [names.get(c) for c in columns]
        if None in members or (kind != "index" and columns == table.primary_key):
            continue  # a column that is not a field; the key's own
        facts.setdefault(_KINDS[kind], {})[index] = members
    for fk in table.foreign_keys:
        name = names.get(fk.columns[0])
        if fk.name and len(fk.columns) == 1 and name and "relation" in fields[name]:
            facts.setdefault("foreign_keys", {})[name] = fk.name
    return facts or True


def _fields_by_column(
    resource: Draft,
) -> tuple[dict[str, str], dict[str, dict[str, Any]]]:
    """Field names by column, and fields by name, the implicit ``id`` included."""
    key = resource.key
    names, fields = dict(resource.by_column), dict(resource.fields)
    if not key.parts:  # one column: a field of its own, or the implicit id
        names[key.column] = key.field or "id"
        fields.setdefault(names[key.column], {"type": "integer"})
    return names, fields
