"""A catalog's tables → the manifest's resources, and notes on what it leaves out.

A table becomes a resource when it has a key the manifest can say (one column: an
integer, a uuid or a string; several: a composite key, ``keys.py``); else it is
skipped with a note. A column becomes a field (a relation when a one-column foreign
key refers to a resource's key) unless its type is unknown to the manifest, which is
noted too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model import naming
from .adopted import adopted_facts
from .catalog import Catalog, Column, ForeignKey, Table
from .checks import enum_check
from .drafts import Draft, Key
from .keys import table_key
from .names import field_name, is_table_name, project_name
from .relations import break_required_cycles, relation_options, relations_of
from .types import Unsupported, domain_check, field_default, field_type

_UNIQUE_TYPES = {"string", "integer", "number"}
_DISPLAY_NAMES = ("name", "title", "label")


@dataclass(frozen=True)
class Inspection:
    """The manifest read from a catalog, with the notes on what it leaves out."""

    manifest: dict[str, Any]
    notes: tuple[str, ...]
    comments: dict[str, str]  # resource name → its table's comment
    table_count: int


def build_manifest(catalog: Catalog, database: str) -> Inspection:
    """The manifest for every table of ``catalog`` (already filtered by the caller)."""
    notes: list[str] = []
    keys: dict[str, Key] = {}
    taken: set[str] = set()
    for table in catalog.tables:
        key = table_key(table, taken, notes)
        if key is not None:
            keys[table.name] = key
    resources = [_resource(catalog, t, keys, notes) for t in catalog.tables]
    break_required_cycles([r for r in resources if r is not None], notes)
    built = {r.name: _resource_data(r, notes) for r in resources if r is not None}
    project = {"name": project_name(database)}
    comments = {r.name: r.table.comment for r in resources if r and r.table.comment}
    manifest = {"project": project, "resources": built}
    return Inspection(manifest, tuple(sorted(notes)), comments, len(catalog.tables))


def _resource(
    catalog: Catalog, table: Table, keys: dict[str, Key], notes: list[str]
) -> Draft | None:
    key = keys.get(table.name)
    if key is None:
        return None
    resource = Draft(table, key.resource, key)
    taken = {"id"} if key.field is None else {key.field}
    relations = relations_of(table, keys, notes)
    listed = _listed_values(table)
    for column in table.columns:
        if column.name == key.column:
            if key.field is not None:
                resource.fields[key.field] = _mapped(key.options, key.field, column)
                resource.by_column[column.name] = key.field
            continue
        name = field_name(column.name, taken)
        options = _field(catalog.backend, table, column, relations, notes)
        if options is None:
            continue
        if column.name in key.parts:
            _as_key_part(options, f"{table.name}.{column.name}", notes)
        if column.name in listed and _with_enum(options, listed[column.name]):
            listed[column.name] = []  # said: no note
        resource.fields[name] = _mapped(options, name, column)
        resource.by_column[column.name] = name
        if column.name in key.parts or _is_required(column, options):
            resource.required.append(name)
    _constraint_notes(table, listed, notes)
    return resource


def _as_key_part(options: dict[str, Any], where: str, notes: list[str]) -> None:
    """A part of a composite key: given by the client, never null (an SQLite column
    declared without NOT NULL: ``adopted`` says so), a plain string (M054, M055)."""
    options.pop("nullable", None)
    if options.get("format") == "text":
        del options["format"]
    if options.get("on_delete") == "set_null":
        del options["on_delete"]
        notes.append(
            f"{where}: ON DELETE SET NULL on a part of the key is not expressed; "
            "the panel restricts"
        )


def _constraint_notes(
    table: Table, listed: dict[str, list[str | int]], notes: list[str]
) -> None:
    """Notes on the CHECKs no field's ``enum`` says, and unusable unique indexes."""
    for check in table.checks:
        said = enum_check(check)
        if said is None or listed.get(said[0]) != []:
            notes.append(
                f"{table.name}: CHECK ({check}) is not expressed "
                "(the database still checks it)"
            )
    for index in table.unusable_unique:
        notes.append(
            f"{table.name}: the partial or expression unique index {index} is not "
            "expressed (the database still enforces it)"
        )


def _listed_values(table: Table) -> dict[str, list[str | int]]:
    """The columns a CHECK limits to a list of values (one CHECK per column)."""
    found = [enum_check(check) for check in table.checks]
    columns = [f[0] for f in found if f]
    return {f[0]: f[1] for f in found if f and columns.count(f[0]) == 1}


def _with_enum(options: dict[str, Any], values: list[str | int]) -> bool:
    """Add ``enum: values`` to a plain string or integer field's ``options``."""
    kind = type(values[0])
    plain = not {"format", "enum", "relation"} & options.keys()
    if not plain or {str: "string", int: "integer"}[kind] != options["type"]:
        return False
    rest = {k: v for k, v in options.items() if k not in ("minimum", "maximum")}
    options.clear()
    options.update({"type": rest.pop("type"), "enum": values})
    options.update(rest)
    return True


def _mapped(options: dict[str, Any], name: str, column: Column) -> dict[str, Any]:
    """``options`` with ``column:`` when the field's name is not the column's."""
    found = dict(options)
    if name != column.name:
        found["column"] = column.name
    if column.comment:
        found["description"] = " ".join(column.comment.split())
    return found


def _is_required(column: Column, options: dict[str, Any]) -> bool:
    given = "default" in options or "default_sql" in options
    return not column.nullable and not given and not column.generated


def _field(
    backend: str,
    table: Table,
    column: Column,
    relations: dict[str, tuple[ForeignKey, Key]],
    notes: list[str],
) -> dict[str, Any] | None:
    where = f"{table.name}.{column.name}"
    options = field_type(column, backend)
    if not is_table_name(column.name):
        options = Unsupported(
            "not a name 'column:' accepts (letters, digits and underscores)"
        )
    if isinstance(options, Unsupported):
        cannot = not column.nullable and column.default is None
        tail = " (NOT NULL without a default: a create will fail)" if cannot else ""
        notes.append(f"{where}: {options.reason}; field left out{tail}")
        return None
    check = domain_check(column)
    if check:
        notes.append(f"{where}: the domain {check} is not expressed")
    if options.get("format") == "decimal" and "precision" not in options:
        notes.append(
            f"{where}: NUMERIC without precision or scale; the manifest's decimal "
            "defaults (precision 15, scale 2) apply: set the ones the data needs"
        )
    if column.name in relations:
        options = relation_options(
            options, *relations[column.name], column, where, notes
        )
    default = field_default(column, options)
    if isinstance(default, Unsupported):
        notes.append(
            f"{where}: {default.reason}; left out (the database still applies it)"
        )
        default = {}
    options.update(default)
    if column.nullable:
        options["nullable"] = True
    if (column.name,) in table.unique and options["type"] in _UNIQUE_TYPES:
        options["unique"] = True
    return options


def _resource_data(resource: Draft, notes: list[str]) -> dict[str, Any]:
    table = resource.table
    data: dict[str, Any] = {}
    if naming.table_name(resource.name) != table.name:
        data["table"] = table.name
        if not is_table_name(table.name):
            notes.append(
                f"{table.name}: not a table name 'table:' accepts (letters, digits "
                "and underscores, M014): rename the table, or map it by hand"
            )
    if resource.key.parts:
        data["key"] = [resource.by_column[part] for part in resource.key.parts]
    elif resource.key.field is not None:
        data["key"] = resource.key.field
    data["fields"] = resource.fields
    if resource.required:
        data["required"] = resource.required
    groups = _unique_groups(resource, notes)
    if groups:
        data["unique"] = groups
    display = _display(resource)
    if display:
        data["display"] = display
    data["adopted"] = adopted_facts(resource)  # the table exists: never created
    return data


def _unique_groups(resource: Draft, notes: list[str]) -> list[list[str]]:
    table, groups = resource.table, []
    for columns in table.unique:
        if len(columns) < 2 or set(resource.key.columns) <= set(columns):
            continue  # one column: `unique: true`; with the key: unique already
        names = [resource.by_column.get(c) for c in columns]
        if None in names:
            notes.append(
                f"{table.name}: the unique constraint ({', '.join(columns)}) has a "
                "column that is not a field; not expressed"
            )
            continue
        groups.append([n for n in names if n])
    return groups


def _display(resource: Draft) -> str | None:
    """The first plain string field named like a name, title or label."""
    plain = [
        name
        for name, options in resource.fields.items()
        if options["type"] == "string"
        and not {"format", "enum", "relation"} & options.keys()
        and name != resource.key.field
        and name not in (resource.by_column.get(c) for c in resource.key.parts)
    ]
    for wanted in _DISPLAY_NAMES:
        if wanted in plain:
            return wanted
    for name in plain:
        if name.endswith(tuple(f"_{w}" for w in _DISPLAY_NAMES)):
            return name
    return None
