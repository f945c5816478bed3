"""Which tables can be resources, and their keys (pure).

A resource needs a one-column primary key that is an integer, a uuid or a string,
or a composite one (``key: [a, b]``, a link table's) whose columns the client gives:
integers, plain, uuid or date strings, none with a default or generated. Any other
table is skipped with a note saying why (no key, a key of another kind, a table of
the panel's own).
"""

from __future__ import annotations

from ..manifest.identifiers import table_problem
from .catalog import Column, Table
from .drafts import Key
from .names import field_name, is_table_name, resource_name
from .types import Unsupported, field_type


def table_key(table: Table, taken: set[str], notes: list[str]) -> Key | None:
    """The table's key, or None (with a note) when the table cannot be a resource;
    the resource's name is taken from ``taken``."""
    reason = _skip_reason(table)
    if reason:
        notes.append(f"{table.name}: {reason}; table skipped")
        return None
    if len(table.primary_key) > 1:
        return _composite_key(table, taken, notes)
    column = table.column(table.primary_key[0])
    options = field_type(column, "")
    kind = None if isinstance(options, Unsupported) else options["type"]
    if kind == "string" and options.get("format") not in (None, "uuid", "text"):
        kind = None
    if kind not in ("integer", "string"):
        notes.append(
            f"{table.name}: the primary key {column.name} is not an integer, a uuid "
            "or a string; table skipped"
        )
        return None
    assert not isinstance(options, Unsupported)
    options = {k: v for k, v in options.items() if k in ("type", "format", "maxLength")}
    if options.get("format") == "text":
        del options["format"]
    if kind == "integer" and not column.generated:
        notes.append(
            f"{table.name}.{column.name}: the database does not assign this integer "
            "key (no sequence, identity or auto-increment); the panel expects it to"
        )
    implicit = column.name == "id" and kind == "integer"
    # A declared key may be called id; any other field may not.
    name = "id" if column.name == "id" else field_name(column.name, set())
    name = None if implicit else name
    return Key(resource_name(table.name, taken), name, column.name, options)


def _skip_reason(table: Table) -> str | None:
    if table_problem(table.name):
        return "a table the panel or the frameworks use themselves"
    if not table.primary_key:
        return "no primary key"
    return None


def _composite_key(table: Table, taken: set[str], notes: list[str]) -> Key | None:
    """A key of several columns, each a field of its own (M054, M055)."""
    for name in table.primary_key:
        problem = _part_problem(table.column(name))
        if problem:
            columns = ", ".join(table.primary_key)
            notes.append(
                f"{table.name}: {name}, a column of the composite primary key "
                f"({columns}), {problem}; table skipped"
            )
            return None
    return Key(resource_name(table.name, taken), None, "", {}, table.primary_key)


def _part_problem(column: Column) -> str | None:
    """Why ``column`` cannot be a part of a composite key, or None."""
    if not is_table_name(column.name):
        return "is not a name 'column:' accepts (letters, digits and underscores)"
    options = field_type(column, "")
    if isinstance(options, Unsupported):
        return options.reason
    kind, shape = options["type"], options.get("format")
    if kind != "integer" and not (
        kind == "string" and shape in (None, "uuid", "date", "text")
    ):
        return "is not an integer, a uuid, a date or a string"
    if column.generated or column.default is not None:
        return "has a default (a part is given when the record is made)"
    return None
