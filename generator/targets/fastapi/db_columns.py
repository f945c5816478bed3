"""A field as a database column, for the migrations that change it.

What a column is (type, nullability, index, foreign key) so a change can be told, its
PostgreSQL type for ``USING`` casts, and the value its NULLs get when it becomes
NOT NULL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as dataclass_field

from ...model import ir
from ..columns import default_code, indexed
from .storage import migration_type, on_delete

_PG_TYPES = (
    (r"sa\.String\((\d+)\)", r"varchar(\1)"),
    (r"sa\.String\(\)", "varchar"),
    (r"sa\.Text\(\)", "text"),
    (r"sa\.Integer\(\)", "integer"),
    (r"sa\.BigInteger\(\)", "bigint"),
    (r"sa\.Double\(\)", "double precision"),
    (r"sa\.Numeric\((\d+), (\d+)\)", r"numeric(\1, \2)"),
    (r"sa\.Boolean\(\)", "boolean"),
    (r"sa\.Date\(\)", "date"),
    (r"sa\.DateTime\(timezone=True\)", "timestamptz"),
    (r"sa\.Uuid\(\)", "uuid"),
)
_VARIANT = re.compile(r'\.with_variant\(sa\.\w+\([^)]*\), "mysql", "mariadb"\)$')


def base_type(type_code: str) -> str:
    """A migration type without its MySQL variant (``sa.String()``)."""
    return _VARIANT.sub("", type_code)


@dataclass(frozen=True)
class Column:
    """What a field is in the database: enough to tell whether it changed."""

    name: str
    type: str
    nullable: bool
    index: bool
    unique: bool
    foreign_key: tuple[str, str, str] | None  # target table, target key, ON DELETE
    default_sql: str | None = None  # what the database fills in (``now()``)
    # The type with its MySQL variant, as migrations write it: not compared.
    full_type: str = dataclass_field(default="", compare=False)
    # An adopted table's real index and foreign key names (None: the generator's).
    index_name: str | None = dataclass_field(default=None, compare=False)
    fk_name: str | None = dataclass_field(default=None, compare=False)


def column(field: ir.Field, project: ir.Project) -> Column:
    """The storage of ``field`` in ``project``."""
    foreign_key = None
    if field.relation:
        target = project.resource(field.relation)
        foreign_key = (target.table, target.key_column, on_delete(field))
    full_type = migration_type(field, project)
    return Column(
        name=field.column_name,
        # Indexing a field changes only its MySQL variant: not a type change.
        type=base_type(full_type),
        full_type=full_type,
        nullable=field.column_nullable,
        index=indexed(field),
        unique=field.unique,
        foreign_key=foreign_key,
        default_sql=field.default_sql,
        index_name=field.stored.index if field.stored else None,
        fk_name=field.stored.foreign_key if field.stored else None,
    )


def pg_type(type_code: str) -> str:
    """The PostgreSQL spelling of a migration type, for ``USING col::type``."""
    type_code = base_type(type_code)
    for pattern, replacement in _PG_TYPES:
        if re.fullmatch(pattern, type_code):
            return re.sub(pattern, replacement, type_code)
    raise ValueError(f"no PostgreSQL type known for {type_code}")


def fill_value(field: ir.Field) -> str | None:
    """Python source of the value NULLs get when ``field`` becomes NOT NULL.

    The manifest's ``default:``, never a made-up value; ``None`` without one (the
    migration's data check refuses while NULLs remain: ``regen/change_plan.py``).
    """
    if field.relation or not field.has_default or field.default is None:
        return None
    return default_code(field)
