"""A catalog's tables → the manifest's resources, and notes on what it leaves out.

A table becomes a resource when it has a one-column key of a kind the manifest
knows (an integer, a uuid or a string); else it is skipped with a note. A column
becomes a field (a relation when a one-column foreign key refers to a resource's
key) unless its type is unknown to the manifest, which is noted too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..manifest.identifiers import table_problem
from ..model import naming
from .catalog import Catalog, Column, ForeignKey, Table
from .names import field_name, is_table_name, project_name, resource_name
from .types import Unsupported, field_default, field_type

_ON_DELETE = {"CASCADE": "cascade", "SET NULL": "set_null"}
_KEEPS_RESTRICT = {None, "RESTRICT", "NO ACTION"}
_UNIQUE_TYPES = {"string", "integer", "number"}
_DISPLAY_NAMES = ("name", "title", "label")


@dataclass(frozen=True)
class Inspection:
    """The manifest read from a catalog, with the notes on what it leaves out."""

    manifest: dict[str, Any]
    notes: tuple[str, ...]
    comments: dict[str, str]  # resource name → its table's comment
    table_count: int


@dataclass(frozen=True)
class _Key:
    """A resource's key: its field (None for the implicit ``id``) and type options."""

    resource: str
    field: str | None
    column: str
    options: dict[str, Any]


@dataclass
class _Resource:
    """A resource being built from one table."""

    table: Table
    name: str
    key: _Key
    fields: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_column: dict[str, str] = field(default_factory=dict)
    required: list[str] = field(default_factory=list)


def build_manifest(catalog: Catalog, database: str) -> Inspection:
    """The manifest for every table of ``catalog`` (already filtered by the caller)."""
    notes: list[str] = []
    keys: dict[str, _Key] = {}
    taken: set[str] = set()
    for table in catalog.tables:
        key = _key(table, taken, notes)
        if key is not None:
            keys[table.name] = key
    resources = [_resource(catalog, t, keys, notes) for t in catalog.tables]
    built = {r.name: _resource_data(r, notes) for r in resources if r is not None}
    project = {"name": project_name(database)}
    comments = {r.name: r.table.comment for r in resources if r and r.table.comment}
    manifest = {"project": project, "resources": built}
    return Inspection(manifest, tuple(sorted(notes)), comments, len(catalog.tables))


def _key(table: Table, taken: set[str], notes: list[str]) -> _Key | None:
    """The table's key, or None (with a note) when the table cannot be a resource."""
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
    return _Key(resource_name(table.name, taken), name, column.name, options)


def _skip_reason(table: Table) -> str | None:
    if table_problem(table.name):
        return "a table the panel or the frameworks use themselves"
    if not table.primary_key:
        return "no primary key"
    if len(table.primary_key) > 1:
        columns = ", ".join(table.primary_key)
        link = _link_targets(table)
        if link:
            return (
                f"a link table between {' and '.join(link)} (composite primary key "
                f"({columns})): many-to-many relations are not supported yet"
            )
        return f"composite primary key ({columns}) is not supported"
    return None


def _link_targets(table: Table) -> list[str]:
    targets = {
        fk.columns[0]: fk.target for fk in table.foreign_keys if len(fk.columns) == 1
    }
    if all(c in targets for c in table.primary_key):
        return sorted({targets[c] for c in table.primary_key})
    return []


def _resource(
    catalog: Catalog, table: Table, keys: dict[str, _Key], notes: list[str]
) -> _Resource | None:
    key = keys.get(table.name)
    if key is None:
        return None
    resource = _Resource(table, key.resource, key)
    taken = {"id"} if key.field is None else {key.field}
    relations = _relations(table, keys, notes)
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
        resource.fields[name] = _mapped(options, name, column)
        resource.by_column[column.name] = name
        if _is_required(column, options):
            resource.required.append(name)
    for check in table.checks:
        notes.append(
            f"{table.name}: CHECK ({check}) is not expressed "
            "(the database still checks it)"
        )
    for index in table.unusable_unique:
        notes.append(
            f"{table.name}: the partial or expression unique index {index} is not "
            "expressed (the database still enforces it)"
        )
    return resource


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


def _relations(
    table: Table, keys: dict[str, _Key], notes: list[str]
) -> dict[str, tuple[ForeignKey, _Key]]:
    """The foreign keys that become relations, by column; notes on the others."""
    found = {}
    for fk in table.foreign_keys:
        target = keys.get(fk.target)
        columns = ", ".join(fk.columns)
        if len(fk.columns) > 1:
            notes.append(
                f"{table.name}: the foreign key ({columns}) → {fk.target} has several "
                "columns; its columns are plain fields"
            )
        elif target is None:
            notes.append(
                f"{table.name}.{columns}: refers to {fk.target}, which is not a "
                "resource here; kept as a plain field"
            )
        elif fk.target_columns != (target.column,):
            notes.append(
                f"{table.name}.{columns}: refers to "
                f"{fk.target}.{fk.target_columns[0]}, which is not its key; "
                "kept as a plain field"
            )
        elif fk.columns[0] == table.primary_key[0]:
            notes.append(
                f"{table.name}.{columns}: the key also refers to {fk.target}; "
                "the relation is not expressed (a key cannot be a relation)"
            )
        else:
            found[fk.columns[0]] = (fk, target)
    return found


def _field(
    backend: str,
    table: Table,
    column: Column,
    relations: dict[str, tuple[ForeignKey, _Key]],
    notes: list[str],
) -> dict[str, Any] | None:
    where = f"{table.name}.{column.name}"
    options = field_type(column, backend)
    if isinstance(options, Unsupported):
        cannot = not column.nullable and column.default is None
        tail = " (NOT NULL without a default: a create will fail)" if cannot else ""
        notes.append(f"{where}: {options.reason}; field left out{tail}")
        return None
    if options.get("format") == "decimal" and "precision" not in options:
        notes.append(
            f"{where}: NUMERIC without precision or scale; the manifest's decimal "
            "defaults (precision 15, scale 2) apply: set the ones the data needs"
        )
    if column.name in relations:
        options = _relation(options, *relations[column.name], column, where, notes)
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


def _relation(
    options: dict[str, Any],
    fk: ForeignKey,
    target: _Key,
    column: Column,
    where: str,
    notes: list[str],
) -> dict[str, Any]:
    """A relation field on ``target``'s key, with the foreign key's delete rule."""
    found = {k: v for k, v in target.options.items() if k != "maxLength"}
    if "maxLength" in options and found["type"] == "string":
        found["maxLength"] = options["maxLength"]
    found["relation"] = target.resource
    rule = (fk.on_delete or "").upper() or None
    if rule in _ON_DELETE and (rule != "SET NULL" or column.nullable):
        found["on_delete"] = _ON_DELETE[rule]
    elif rule not in _KEEPS_RESTRICT:
        notes.append(f"{where}: ON DELETE {rule} is not expressed; the panel restricts")
    return found


def _resource_data(resource: _Resource, notes: list[str]) -> dict[str, Any]:
    table = resource.table
    data: dict[str, Any] = {}
    if naming.table_name(resource.name) != table.name:
        data["table"] = table.name
        if not is_table_name(table.name):
            notes.append(
                f"{table.name}: not a snake_case table name; 'table: {table.name}' "
                "needs a panelforge that maps such names"
            )
    if resource.key.field is not None:
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
    return data


def _unique_groups(resource: _Resource, notes: list[str]) -> list[list[str]]:
    table, groups = resource.table, []
    for columns in table.unique:
        if len(columns) < 2 or resource.key.column in columns:
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


def _display(resource: _Resource) -> str | None:
    """The first plain string field named like a name, title or label."""
    plain = [
        name
        for name, options in resource.fields.items()
        if options["type"] == "string"
        and not {"format", "enum", "relation"} & options.keys()
        and name != resource.key.field
    ]
    for wanted in _DISPLAY_NAMES:
        if wanted in plain:
            return wanted
    for name in plain:
        if name.endswith(tuple(f"_{w}" for w in _DISPLAY_NAMES)):
            return name
    return None
