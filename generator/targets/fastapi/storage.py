"""SQLAlchemy storage for the FastAPI target: column types, models, migration tables.

The models and the initial migration are written from the same functions, so the
tables Alembic creates are the tables the models declare.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...model import ir, naming
from ...model.samples import creation_order
from ..columns import (
    big_key,
    default_code,
    fits_int32,
    indexed,
    int32,
    later_relations,
    naive,
)
from ..pysource import call, literal
from .adopted import adopted_table_args

_KEY_TYPE = 'sa.BigInteger().with_variant(sa.Integer(), "sqlite")'
# MySQL/MariaDB have no VARCHAR without a length: an unbounded string is LONGTEXT
# there (TEXT's 64 KB is less than a request may carry), or VARCHAR(768) when
# indexed (768 × 4 utf8mb4 bytes: InnoDB's largest index key). Django's are the same.
MYSQL_INDEXED_LENGTH = 768
_MYSQL_TEXT = '.with_variant(sa.Text(2**32 - 1), "mysql", "mariadb")'
_MYSQL_INDEXED = f'.with_variant(sa.String({MYSQL_INDEXED_LENGTH}), "mysql", "mariadb")'


def _integer_type(field: ir.Field) -> str:
    if int32(field):
        return "sa.Integer"
    if field.enum is not None:
        return (
            "sa.Integer"
            if fits_int32(min(field.enum), max(field.enum))
            else ("sa.BigInteger")
        )
    return "sa.Integer" if fits_int32(field.minimum, field.maximum) else "sa.BigInteger"


def _string_type(field: ir.Field) -> str:
    if field.enum is not None:
        return f"sa.String({max(len(str(o)) for o in field.enum)})"
    by_format = {
        "text": "sa.Text()" + _MYSQL_TEXT,
        # a stored file: its key and metadata as JSON text (panel_core.files)
        "file": "sa.Text()" + _MYSQL_TEXT,
        "image": "sa.Text()" + _MYSQL_TEXT,
        "uuid": "sa.Uuid",
        "password": "sa.String(255)",
        "date": "sa.Date",
        "date-time": "sa.DateTime(timezone=True)",
    }
    if field.format == "date-time" and naive(field):
        return "sa.TIMESTAMP"
    if field.format in by_format:
        return by_format[field.format]
    if field.max_length:
        return f"sa.String({field.max_length})"
    keyed = field.is_key or indexed(field)
    return "sa.String()" + (_MYSQL_INDEXED if keyed else _MYSQL_TEXT)


def sa_type(field: ir.Field) -> str:
    """The SQLAlchemy column type of a field (relations and keys excepted)."""
    if field.type == "integer":
        return _integer_type(field)
    if field.is_decimal:
        return f"sa.Numeric({field.precision}, {field.scale})"
    if field.type == "number":
        return "sa.Double"
    if field.type == "boolean":
        return "sa.Boolean"
    return _string_type(field)


def _model_type(field: ir.Field) -> str:
    """The model's column type: a decimal is read as a Decimal on every database."""
    if field.is_decimal:
        return f"ExactDecimal({field.precision}, {field.scale})"
    if field.is_file:
        return "StoredFileText()"
    return sa_type(field)


def _relation_type(field: ir.Field, project: ir.Project) -> str:
    """The column type of a relation: the type of the key it holds."""
    key = project.resource(field.relation or "").key_field
    if key.type == "integer":
        return "sa.Integer" if int32(field) else "sa.BigInteger"
    return sa_type(key)


def _stored(field: ir.Field, project: ir.Project) -> ir.Field:
    """The field whose values the column holds: a relation holds its target's key."""
    if not field.relation:
        return field
    key = project.resource(field.relation).key_field
    return replace(field, type=key.type, format=key.format)


def python_type(field: ir.Field, project: ir.Project) -> str:
    """The ``Mapped[...]`` type of a field's column."""
    field = _stored(field, project)
    if field.type == "string":
        base = {
            "date": "datetime.date",
            "date-time": "datetime.datetime",
            "uuid": "uuid.UUID",
        }.get(field.format or "", "str")
    elif field.is_decimal:
        base = "decimal.Decimal"
    else:
        base = {"integer": "int", "number": "float", "boolean": "bool"}[field.type]
    return f"{base} | None" if field.column_nullable else base


def _foreign_key(field: ir.Field, project: ir.Project, *, later: bool) -> str:
    """``sa.ForeignKey(...)``; ``later`` for a relation that closes a cycle: its
    constraint is added after the tables (``use_alter``), so SQLAlchemy can order
    the tables without warning about the cycle."""
    target = project.resource(field.relation or "")
    reference = literal(f"{target.table}.{target.key}")
    args = [reference]
    if not (field.stored and field.stored.no_action):  # an adopted NO ACTION: none
        args.append(f"ondelete={literal(on_delete(field))}")
    if later:
        args.append("use_alter=True")
    if field.stored and field.stored.foreign_key:  # an adopted table's: its name
        args.append(f"name={literal(field.stored.foreign_key)}")
    return f"sa.ForeignKey({', '.join(args)})"


# A relation's ``on_delete`` as the foreign key's ``ON DELETE`` clause.
_ON_DELETE = {"restrict": "RESTRICT", "cascade": "CASCADE", "set_null": "SET NULL"}


def on_delete(field: ir.Field) -> str:
    """The foreign key's ``ON DELETE``: the relation's delete rule."""
    return _ON_DELETE[field.delete_rule]


# What the database fills in for a field's ``default_sql`` (portable SQLAlchemy).
_SERVER_DEFAULTS = {"now()": "sa.func.now()", "current_date": 'sa.text("CURRENT_DATE")'}


def server_default(field: ir.Field) -> list[str]:
    """``server_default=...`` of a field the database fills in, else nothing."""
    if field.default_sql is None:
        return []
    return [f"server_default={_SERVER_DEFAULTS[field.default_sql]}"]


def column_args(
    field: ir.Field, project: ir.Project, *, later: bool = False
) -> list[str]:
    """The arguments of the model's ``mapped_column(...)`` for a field (``later``: a
    relation closing a cycle, whose foreign key is added after the tables)."""
    # A column named otherwise keeps the field's name as its key: the panel's
    # queries find their columns by field name (``table.c[name]``).
    named = (
        [literal(field.column), f"key={literal(field.name)}"] if field.column else []
    )
    if big_key(field):
        return [*named[:1], "BigKey", "primary_key=True", *named[1:]]
    kind = (
        [_relation_type(field, project), _foreign_key(field, project, later=later)]
        if field.relation
        else [_model_type(field)]
    )
    args = named[:1] + kind
    if field.is_key or field.key_part:  # several key parts: a composite key
        args.append("primary_key=True")
    if field.stored and field.stored.nullable_key:  # as the adopted table says
        args.append("nullable=True")
    default = default_code(field)
    if default is not None:
        args.append(f"default={default}")
    args += server_default(field)
    if field.stored is not None:  # an adopted table's: named in __table_args__
        return args + (["unique=True"] if field.stored.unique == "" else []) + named[1:]
    if indexed(field):
        args.append("index=True")
    if field.unique:
        args.append("unique=True")  # with index=True: one unique index
    return args + named[1:]


# The last project asked about and its later relations (see column_lines).
_last_later: list[tuple[ir.Project, dict[str, tuple[ir.Field, ...]]]] = []


def _later_relations(project: ir.Project) -> dict[str, tuple[ir.Field, ...]]:
    """``later_relations`` of the project's creation order, once per project object
    (each resource's models ask; finding them walks every resource)."""
    if not (_last_later and _last_later[0][0] is project):
        _last_later[:] = [(project, later_relations(creation_order(project)))]
    return _last_later[0][1]


def column_lines(resource: ir.Resource, project: ir.Project) -> list[str]:
    """One ``name: Mapped[...] = mapped_column(...)`` line per field, black-laid-out."""
    later = _later_relations(project).get(resource.name, ())
    return [
        call(
            "mapped_column",
            column_args(field, project, later=field in later),
            indent=1,
            prefix=f"{field.name}: Mapped[{python_type(field, project)}] = ",
        )
        for field in resource.stored_fields
    ]


def model_imports(resource: ir.Resource, project: ir.Project) -> list[str]:
    """Standard-library modules the model's annotations and defaults need."""
    stored = [_stored(f, project) for f in resource.stored_fields]
    formats = {f.format for f in stored if f.type == "string"}
    modules = []
    if formats & {"date", "date-time"}:
        modules.append("datetime")
    if any(f.is_decimal for f in stored):
        modules.append("decimal")
    if "uuid" in formats:
        modules.append("uuid")
    return modules


def migration_type(field: ir.Field, project: ir.Project | None) -> str:
    """The column type as a migration writes it (``sa.String(200)``, the key type).

    A relation's is its target's key type, found in ``project``.
    """
    if big_key(field):
        return _KEY_TYPE
    if field.relation:
        assert project is not None, "a relation's type is its target's key type"
        type_code = _relation_type(field, project)
    else:
        type_code = sa_type(field)
    return type_code if type_code.endswith(")") else type_code + "()"


def _constraint_lines(
    resource: ir.Resource, project: ir.Project, later: tuple[ir.Field, ...]
) -> list[str]:
    table = resource.table
    lines = [
        call(
            "sa.PrimaryKeyConstraint",
            [*_key_columns(resource), f"name=op.f({literal('pk_' + table)})"],
            indent=2,
            suffix=",",
        )
    ]
    for field in resource.stored_fields:
        if not field.relation or field in later:
            continue
        target = project.resource(field.relation)
        name = f"fk_{table}_{field.column_name}_{target.table}"
        args = [
            literal([field.column_name]),
            literal([f"{target.table}.{target.key_column}"]),
            f"name=op.f({literal(name)})",
            f"ondelete={literal(on_delete(field))}",
        ]
        lines.append(call("sa.ForeignKeyConstraint", args, indent=2, suffix=","))
    return lines


def unique_constraints(resource: ir.Resource, *, migration: bool) -> list[str]:
    """``sa.UniqueConstraint(...)`` of each unique group (named with ``op.f`` in a
    migration, as the naming convention would leave it). A model names its columns
    by their keys (the fields' names), a migration by their names in the database."""
    lines = [] if migration else adopted_table_args(resource)
    named_groups = {frozenset(i.fields) for i in resource.table_indexes if i.unique}
    for group in resource.unique_together:
        if frozenset(group) in named_groups:
            continue  # an adopted table's, by its real name
        name = literal(naming.unique_name(resource.table, group))
        named = f"name=op.f({name})" if migration else f"name={name}"
        columns = [resource.column_of(n) for n in group] if migration else group
        args = [*(literal(n) for n in columns), named]
        lines.append(f"sa.UniqueConstraint({', '.join(args)}),")
    return lines


def _key_columns(resource: ir.Resource) -> list[str]:
    """The primary key's columns: the key's, or a composite key's parts' in order."""
    if resource.is_composite:
        return [literal(resource.column_of(part)) for part in resource.key_parts]
    return [literal(resource.key_column)]


def table_context(
    resource: ir.Resource, project: ir.Project, later: tuple[ir.Field, ...] = ()
) -> dict[str, Any]:
    """One ``op.create_table`` with its columns, constraints and indexes; the foreign
    keys of the ``later`` relations are added once their tables exist."""
    table = resource.table
    columns = [
        call(
            "sa.Column",
            [
                literal(field.column_name),
                migration_type(field, project),
                f"nullable={field.column_nullable}",
                *server_default(field),
            ],
            indent=2,
            suffix=",",
        )
        for field in resource.stored_fields
    ]
    indexes = [
        call(
            "op.create_index",
            [
                f"op.f({literal(f'ix_{table}_{field.column_name}')})",
                literal(table),
                literal([field.column_name]),
                *(["unique=True"] if field.unique else []),
            ],
            indent=1,
        )
        for field in resource.stored_fields
        if indexed(field)
    ]
    # AUTOINCREMENT on SQLite: the keys of deleted rows are never given again.
    integer_key = not resource.is_composite and big_key(resource.key_field)
    options = ["sqlite_autoincrement=True,"] if integer_key else []
    return {
        "name": literal(table),
        "elements": columns
        + _constraint_lines(resource, project, later)
        + unique_constraints(resource, migration=True)
        + options,
        "indexes": indexes,
    }
