"""Django storage for the Django target: model fields, models, the initial migration.

The models and the initial migration are written from the same functions, so the
state the migration builds is the state the models declare (``makemigrations --check``
finds nothing to do; the emitted project's own tests assert it).
"""

from __future__ import annotations

from ...model import ir, naming
from ..columns import default_code, fits_int32, indexed, int32, is_integer_key
from ..pysource import literal
from .related_names import related_names


def _integer_class(field: ir.Field) -> str:
    low, high = field.minimum, field.maximum
    if field.enum is not None:
        low, high = min(field.enum), max(field.enum)
    wide = not (fits_int32(low, high) or int32(field))
    return "BigIntegerField" if wide else "IntegerField"


def _string_class(field: ir.Field) -> tuple[str, list[str]]:
    if field.enum is not None:
        return "CharField", [f"max_length={max(len(str(o)) for o in field.enum)}"]
    by_format = {
        "text": "TextField",
        "file": "TextField",  # a stored file's key and metadata as JSON text
        "image": "TextField",
        "uuid": "UUIDField",
        "date": "DateField",
        "date-time": "DateTimeField",
    }
    if field.format in by_format:
        return by_format[field.format], []
    if field.format == "password":
        return "CharField", ["max_length=255"]
    # No maxLength: an unbounded VARCHAR (PostgreSQL and SQLite allow it).
    return "CharField", [f"max_length={field.max_length}" if field.max_length else ""]


def _field_class(field: ir.Field) -> tuple[str, list[str]]:
    if field.type == "integer":
        return _integer_class(field), []
    if field.is_decimal:
        digits = [f"max_digits={field.precision}", f"decimal_places={field.scale}"]
        return "DecimalField", digits
    if field.type == "number":
        return "FloatField", []
    if field.type == "boolean":
        return "BooleanField", []
    name, args = _string_class(field)
    return name, [a for a in args if a]


# ``default_sql`` as Django's ``db_default``: the expression and its import.
_DB_DEFAULTS = {
    "now()": ("Now()", "from django.db.models.functions import Now"),
    "current_date": ("CurrentDate()", "from panel.db_defaults import CurrentDate"),
}


# A file or image field's model field: a TextField read as a StoredFile (its
# migrations say TextField: the class deconstructs as one).
STORED_FILE_FIELD = "StoredFileField"


def db_default_imports(code: str) -> tuple[list[str], list[str]]:
    """The imports the ``db_default`` expressions in ``code`` need: Django's, then
    the panel's (a section of its own)."""
    found = [line for call_, line in _DB_DEFAULTS.values() if call_ in code]
    if f"{STORED_FILE_FIELD}(" in code:
        found.append(f"from panel.stored_files import {STORED_FILE_FIELD}")
    return (
        [line for line in found if line.startswith("from django")],
        [line for line in found if line.startswith("from panel")],
    )


# A relation's ``on_delete`` as Django's (which the store's own rules match).
_ON_DELETE = {
    "restrict": "models.PROTECT",
    "cascade": "models.CASCADE",
    "set_null": "models.SET_NULL",
}


def on_delete(field: ir.Field) -> str:
    """The model's ``on_delete``: the relation's delete rule."""
    return _ON_DELETE[field.delete_rule]


def field_call(
    field: ir.Field, resource: ir.Resource, project: ir.Project, *, migration: bool
) -> str:
    """``models.XField(...)`` of ``field`` of ``resource``: the same declaration in
    the model and the migration."""
    column = [f"db_column={literal(field.column)}"] if field.column else []
    if is_integer_key(field):
        args = ["primary_key=True"] + (["serialize=False"] if migration else [])
        auto = "AutoField" if int32(field) else "BigAutoField"  # adopted INTEGER
        return f"models.{auto}({', '.join(args + column)})"
    if field.relation:
        target = project.resource(field.relation)
        to = (
            literal(f"app.{target.model_name.lower()}")
            if migration
            else literal(target.model_name)
        )
        args = [to, on_delete(field)]
        if migration:
            args = [f"on_delete={on_delete(field)}", f"to={to}"]
        related = related_names(project)[(resource.name, field.name)]
        args += [
            f"db_column={literal(field.column_name)}",
            f"related_name={literal(related)}",
        ]
        args += _empty_args(field, project)
        return f"models.ForeignKey({', '.join(args)})"
    name, args = _field_class(field)
    args += column
    if field.is_key:
        args.append("primary_key=True")
        if migration:
            args.append("serialize=False")
    default = default_code(field)
    if default is not None:
        args.append(f"default={default}")
    if field.default_sql is not None:
        args.append(f"db_default={_DB_DEFAULTS[field.default_sql][0]}")
    args += _empty_args(field, project)
    args += _index_args(field)
    if field.is_file and not migration:
        return f"{STORED_FILE_FIELD}({', '.join(args)})"
    return f"models.{name}({', '.join(args)})"


def _empty_args(field: ir.Field, project: ir.Project) -> list[str]:
    """``null=True, blank=True`` where a field may be empty: the panel's one empty
    value is NULL, strings included (a blank text is stored as NULL), so Django's
    forms and ``full_clean`` may leave it empty and store NULL too."""
    if not field.column_nullable:
        return []
    return (
        ["null=True", "blank=True"]
        if project.django_model_style >= 2
        else ["null=True"]
    )


def _index_args(field: ir.Field) -> list[str]:
    """``unique=True`` (Django indexes a unique field itself), or ``db_index=True``."""
    if field.unique:
        return ["unique=True"]
    return ["db_index=True"] if indexed(field) else []


def model_field_lines(resource: ir.Resource, project: ir.Project) -> list[str]:
    """One ``name = models.XField(...)`` line per field (black lays them out), after
    a composite key's ``pk = models.CompositePrimaryKey(...)`` (Django 5.2)."""
    return [
        *(f"pk = {_composite_key(resource, ())}" for _ in resource.key_parts[:1]),
        *(
            f"{field.name} = {field_call(field, resource, project, migration=False)}"
            for field in resource.stored_fields
        ),
    ]


# What Django's migration writer adds to a CompositePrimaryKey's own arguments.
_COMPOSITE_MIGRATION_ARGS = (
    "blank=True",
    "editable=False",
    "primary_key=True",
    "serialize=False",
)


def _composite_key(resource: ir.Resource, extra: tuple[str, ...]) -> str:
    """``models.CompositePrimaryKey("a", "b")``: the key parts, by field name."""
    args = [literal(part) for part in resource.key_parts] + list(extra)
    return f"models.CompositePrimaryKey({', '.join(args)})"


def migration_field_lines(
    resource: ir.Resource, project: ir.Project, later: tuple[ir.Field, ...] = ()
) -> list[str]:
    """``("name", models.XField(...)),`` entries of ``CreateModel(fields=[...])``;
    the ``later`` relations are added once their target model exists."""
    key = _composite_key(resource, _COMPOSITE_MIGRATION_ARGS)
    return [
        *(f'("pk", {key}),' for _ in resource.key_parts[:1]),
        *(
            f"({literal(field.name)}, "
            f"{field_call(field, resource, project, migration=True)}),"
            for field in resource.stored_fields
            if field not in later
        ),
    ]


def unique_constraints(resource: ir.Resource) -> str:
    """``[models.UniqueConstraint(...), ...]`` of the unique groups ("" without)."""
    if not resource.unique_together:
        return ""
    constraints = [
        f"models.UniqueConstraint(fields={literal(list(group))}, "
        f"name={literal(naming.unique_name(resource.table, group))})"
        for group in resource.unique_together
    ]
    return f"[{', '.join(constraints)}]"


def model_imports(resource: ir.Resource) -> list[str]:
    """Standard-library modules the model's defaults need."""
    codes = [default_code(f) or "" for f in resource.stored_fields]
    modules = ("datetime", "decimal", "uuid")
    return [m for m in modules if any(c.startswith(m) for c in codes)]
