"""A field's ``column``: the database column it is stored in, when not its name (M043).

The schema checks the shape (letters, digits and underscores). What it cannot say:
a name longer than PostgreSQL keeps (it would truncate it, and two names could become
one), and two fields of a resource stored in the same column, counting the columns
named after their fields and the trash's ``deleted_at``. SQLite and MySQL compare
column names without case, so ``ArtistId`` and ``artistid`` are the same column.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from ..model.ir import TRASH_COLUMN
from .hints import shown
from .identifiers import MAX_LENGTH, RESERVED_FIELDS
from .yamlnodes import Document

CODE = "M043"


def column_issues(document: Document, resource: str, spec: Any) -> Iterator[Issue]:
    """Every problem of the ``column`` options of ``resource``'s fields."""
    options = spec if isinstance(spec, dict) else {}
    fields = options.get("fields")
    if not isinstance(fields, dict):
        return
    taken: dict[str, str] = {}  # column, case folded → the field stored there
    if "key" not in options and "id" not in fields:
        taken["id"] = "id"
    for name, field_spec in fields.items():
        declared = field_spec.get("column") if isinstance(field_spec, dict) else None
        column = declared if isinstance(declared, str) and declared else name
        where = ("resources", resource, "fields", name)
        if declared is not None and column is declared:
            yield from _name_issues(document, (*where, "column"), column)
        other = taken.setdefault(column.casefold(), name)
        if other != name:
            place = (*where, "column") if column is declared else where
            message = f"{shown(column)} is the column of the field '{other}' already"
            hint = "give one of them another 'column'"
            yield document.issue(place, message, CODE, hint, key=column is not declared)
    trash = TRASH_COLUMN.name
    other = taken.get(trash)
    if options.get("soft_delete") is True and other not in (None, trash):
        place = ("resources", resource, "fields", other, "column")
        message = f"'{trash}' is the trash's column (soft_delete), not a field's"
        yield document.issue(place, message, CODE, "choose another column name")


def _name_issues(
    document: Document, where: tuple[Any, ...], column: str
) -> Iterator[Issue]:
    if len(column) > MAX_LENGTH:
        message = f"{shown(column)} is longer than {MAX_LENGTH} characters"
        hint = "PostgreSQL would cut it short; rename the column in the database"
        yield document.issue(where, message, CODE, hint)
    reason = RESERVED_FIELDS.get(column.lower())
    if reason and reason.startswith("PostgreSQL"):
        message = f"{shown(column)} is a column every PostgreSQL table has already"
        yield document.issue(where, message, CODE, "choose another column name")
