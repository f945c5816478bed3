"""Which tables can be resources, and their keys (pure).

A resource needs a one-column primary key that is an integer, a uuid or a string
(a composite key is not inspected yet: write ``key: [a, b]`` by hand);
any other table is skipped with a note saying why (no key, a composite key, a link
table, a table of the panel's own).
"""

from __future__ import annotations

from ..manifest.identifiers import table_problem
from .catalog import Table
from .drafts import Key
from .names import field_name, resource_name
from .types import Unsupported, field_type


def table_key(table: Table, taken: set[str], notes: list[str]) -> Key | None:
    """The table's key, or None (with a note) when the table cannot be a resource;
    the resource's name is taken from ``taken``."""
    reason = _skip_reason(table)
    if reason:
        notes.append(f"{table.name}: {reason}; table skipped")
        return None
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
    if len(table.primary_key) > 1:
        columns = ", ".join(table.primary_key)
        link = _link_targets(table)
        what = f"composite primary key ({columns})"
        if link:
            what = f"a link table between {' and '.join(link)} ({what})"
        return (
            f"{what}: composite keys are not inspected yet (declare key: [...] by hand)"
        )
    return None


def _link_targets(table: Table) -> list[str]:
    targets = {
        fk.columns[0]: fk.target for fk in table.foreign_keys if len(fk.columns) == 1
    }
    if all(c in targets for c in table.primary_key):
        return sorted({targets[c] for c in table.primary_key})
    return []
