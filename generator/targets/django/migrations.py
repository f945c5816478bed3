"""Django migrations of a :class:`~generator.regen.migrations.SchemaDiff`, their place.

Django migrations are declarative: each operation names the model state it moves to
and Django writes the SQL (and the reverse) itself. So the operations here are the
ones ``makemigrations`` would write for the same model change (``CreateModel``,
``AddField``, ``RenameField``, ``AlterField``, ``RemoveField``, ``DeleteModel``), with
the very field declarations of :mod:`.storage`; the emitted project's own test
runs ``makemigrations --check`` to prove that models and migrations agree.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from ...errors import OutputError
from ...model import ir
from ...regen.change_plan import migration_checks
from ...regen.column_changes import moved_values, values_widen
from ...regen.migrations import SchemaDiff, Step, next_revision, slug, structural_steps
from ...render.plan import FilePlan
from ..columns import indexed, later_relations
from ..common import check_lines
from ..pysource import literal
from .link_models import create_link_model, link_model_name
from .storage import (
    db_default_imports,
    field_call,
    migration_field_lines,
    unique_constraints,
)

APP_LABEL = "app"
MIGRATIONS_DIR = "app/migrations/"
TEMPLATE = "django/migration_step.py.jinja"


def create_model(
    resource: ir.Resource, project: ir.Project, later: tuple[ir.Field, ...] = ()
) -> dict[str, Any]:
    """One ``CreateModel``'s name, field lines (but the ``later`` ones) and table."""
    return {
        "name": literal(resource.model_name),
        "fields": migration_field_lines(resource, project, later),
        "table": literal(resource.table),
        "constraints": unique_constraints(resource),
        # the table exists already: Django records the model and runs no SQL
        "adopted": resource.adopted,
    }


def state_only(operation: str) -> str:
    """``operation`` on Django's record of the models only (an adopted table)."""
    return f"migrations.SeparateDatabaseAndState(state_operations=[{operation}])"


def later_field_operations(
    created: Sequence[ir.Resource], project: ir.Project, *, remove: bool = False
) -> list[str]:
    """``AddField`` of the relations that close a cycle among ``created`` (in their
    creation order), once every model exists; or (``remove``) their
    ``RemoveField``, before the models are deleted."""
    operations = []
    later = later_relations(created)
    for resource in created:
        model = literal(resource.model_name.lower())
        for field in later.get(resource.name, ()):
            name = literal(field.name)
            operation = (
                f"migrations.RemoveField(model_name={model}, name={name})"
                if remove
                else f"migrations.AddField(model_name={model}, name={name}, "
                f"field={_field(field, resource, project)})"
            )
            operations.append(state_only(operation) if resource.adopted else operation)
    return operations


def _field(field: ir.Field, resource: ir.Resource, project: ir.Project) -> str:
    return field_call(field, resource, project, migration=True)


def _change_operations(diff: SchemaDiff) -> tuple[list[str], list[Step]]:
    operations: list[str] = []
    altered: list[Step] = []
    for change in diff.changed:
        model = literal(change.after.model_name.lower())
        for field in change.added:
            operations.append(
                f"migrations.AddField(model_name={model}, name={literal(field.name)}, "
                f"field={_field(field, change.after, diff.after)})"
            )
        for before, after in change.kept:
            old = _field(before, change.before, diff.before)
            new = _field(after, change.after, diff.after)
            renamed = before.name != after.name
            # A renamed relation's db_column still names the old column: altered
            # after the rename. Other fields change type under their old name first
            # (PostgreSQL's text-pattern index of the old name goes with the type).
            early = renamed and not after.relation
            if renamed:
                rename = (
                    f"migrations.RenameField(model_name={model}, "
                    f"old_name={literal(before.name)}, new_name={literal(after.name)})"
                )
            if old != new:
                name = before.name if early else after.name
                alter = (
                    f"migrations.AlterField(model_name={model}, "
                    f"name={literal(name)}, field={new})"
                )
                operations += (
                    [alter, rename]
                    if early
                    else ([rename, alter] if renamed else [alter])
                )
                altered.append(Step("alter", change.after.table, after.column_name))
            elif renamed:
                operations.append(rename)
            if values_widen(before, after):  # into the wider column, once it is
                operations += _moves(
                    change.before.table, after.column_name, before, after
                )
        operations += [
            f"migrations.RemoveField(model_name={model}, name={literal(f.name)})"
            for f in change.dropped
        ]
    return operations, altered


def _group_operations(diff: SchemaDiff) -> tuple[list[str], list[str]]:
    """``RemoveConstraint`` of the unique groups that go (before their fields
    change) and ``AddConstraint`` of the new ones (after)."""
    removed, added = [], []
    for change in diff.changed:
        model = literal(change.after.model_name.lower())
        dropped, created = change.unique_groups()
        removed += [
            f"migrations.RemoveConstraint(model_name={model}, name={literal(name)})"
            for name, _ in dropped
        ]
        added += [
            f"migrations.AddConstraint(model_name={model}, "
            f"constraint=models.UniqueConstraint(fields={literal(list(group))}, "
            f"name={literal(name)}))"
            for name, group in created
        ]
    return removed, added


def _first_operations(diff: SchemaDiff) -> list[str]:
    """Data checks, enum value moves and model renames: before any other change."""
    operations = []
    if checks := check_lines(migration_checks(diff)):
        operations.append(f"data_check({_check_tuple(checks)}, revision)")
    for change in diff.changed:
        for before, after in change.kept:
            if not values_widen(before, after):
                operations += _moves(
                    change.before.table, before.column_name, before, after
                )
    for change in diff.changed:
        old, new = change.before, change.after
        if old.model_name != new.model_name:
            operations.append(
                f"migrations.RenameModel(old_name={literal(old.model_name)}, "
                f"new_name={literal(new.model_name)})"
            )
    return operations


def _moves(table: str, column: str, before: ir.Field, after: ir.Field) -> list[str]:
    """``move_values(...)`` of one enum field, undone by its own reverse moves."""
    moves = moved_values(before, after)
    if not moves:
        return []
    return [
        f"move_values({literal(table)}, {literal(column)}, {literal(moves)}, "
        f"{literal(moved_values(after, before))})"
    ]


def _table_renames(diff: SchemaDiff) -> list[str]:
    """``AlterModelTable`` after the field changes: Django names the PostgreSQL
    text-pattern index of a changed column after the table it finds then."""
    operations = []
    for change in diff.changed:
        old, new = change.before.table, change.after.table
        if old == new:
            continue
        model = literal(change.after.model_name.lower())
        operations.append(
            f"migrations.AlterModelTable(name={model}, table={literal(new)})"
        )
        texts = [
            f.column_name
            for f in change.after.stored_fields
            if f.type == "string" and indexed(f) and not f.relation
        ]
        if texts:
            operations.append(
                f"rename_text_indexes({literal(old)}, {literal(new)}, {literal(texts)})"
            )
    return operations


def _last_operations(diff: SchemaDiff) -> list[str]:
    """The undo's data check: last, since Django undoes operations in reverse."""
    if undo := check_lines(migration_checks(diff.reversed())):
        return [f"undo_check({_check_tuple(undo)}, revision)"]
    return []


def _check_tuple(lines: list[str]) -> str:
    if not lines:
        return "()"
    return "(" + "".join(f"{line.removesuffix(',')}," for line in lines) + ")"


def migration_plan(
    diff: SchemaDiff, *, name_number: str, dependency: str | None, header: list[str]
) -> FilePlan | None:
    """The plan of the migration for ``diff``, or ``None`` when the models agree."""
    first = _first_operations(diff)
    last = _last_operations(diff)
    changes, altered = _change_operations(diff)
    changes += _table_renames(diff)
    removed, added = _group_operations(diff)
    changes = removed + changes + added
    later = later_relations(diff.created)
    created = [create_model(r, diff.after, later.get(r.name, ())) for r in diff.created]
    created += [create_link_model(t, diff.after) for t in diff.links_created]
    changes = later_field_operations(diff.created, diff.after) + changes
    changes += later_field_operations(diff.dropped[::-1], diff.before, remove=True)
    deleted = [
        f"migrations.DeleteModel(name={literal(link_model_name(t))})"
        for t in diff.links_dropped
    ]
    deleted += [
        (
            state_only(f"migrations.DeleteModel(name={literal(r.model_name)})")
            if r.adopted
            else f"migrations.DeleteModel(name={literal(r.model_name)})"
        )
        for r in diff.dropped
    ]
    if not (first or changes or created or deleted):
        return None
    described = structural_steps(diff) + altered
    code = "\n".join(changes + [line for m in created for line in m["fields"]])
    context: dict[str, Any] = {
        "header": header,
        "summary": _summary(described, diff.after),
        "details": [str(s) for s in described] if len(described) > 1 else [],
        "dependency": literal(dependency) if dependency else None,
        "revision": literal(name_number),
        "first": first,
        "last": last,
        "renames_model": any(op.startswith("migrations.RenameModel") for op in first),
        "imports": _helper_imports(first + changes + last),
        "created": created,
        "changes": changes,
        "deleted": deleted,
        "uses_datetime": "datetime." in code,
        "uses_decimal": "decimal." in code,
        "uses_uuid": "uuid." in code,
        "uses_models": "models." in code,
        "django_imports": db_default_imports(code)[0],
        "panel_imports": db_default_imports(code)[1],
    }
    path = f"{MIGRATIONS_DIR}{name_number}_{slug(described)}.py"
    return FilePlan(path, TEMPLATE, context, owner="generated")


def _helper_imports(operations: list[str]) -> list[str]:
    """The names of ``panel.data_checks`` the operations use, sorted."""
    used = {op.split("(", 1)[0] for op in operations if not op.startswith("migr")}
    if used & {"data_check", "undo_check"}:
        used.add("Check")
    return sorted(used)


def _summary(described: list[Step], project: ir.Project) -> str:
    if len(described) == 1:
        text = str(described[0])
        return text[:1].upper() + text[1:] + "."
    return f"Bring the models of {project.name} in line with the manifest."


def _dependencies(text: str) -> list[str]:
    """The ``app`` migrations a migration file's ``dependencies`` names."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and len(node.elts) == 2:
            label, name = node.elts
            if (
                isinstance(label, ast.Constant)
                and label.value == APP_LABEL
                and isinstance(name, ast.Constant)
                and isinstance(name.value, str)
            ):
                names.append(name.value)
    return names


def next_migration(existing: Mapping[str, str]) -> tuple[str, str | None]:
    """The new migration's number and the one leaf of ``existing`` it depends on.

    ``existing`` maps the files of app/migrations/ to their text, hand-written
    migrations included; Django's own rule applies: one leaf, or merge first.
    """
    names = {
        PurePosixPath(path).stem: text
        for path, text in existing.items()
        if PurePosixPath(path).name[:1].isdigit() and path.endswith(".py")
    }
    depended = {dep for text in names.values() for dep in _dependencies(text)}
    leaves = sorted(set(names) - depended)
    if len(leaves) > 1:
        raise OutputError(
            f"the app's migrations have {len(leaves)} leaves ({', '.join(leaves)}); "
            "join them with 'python manage.py makemigrations --merge' before "
            "regenerating"
        )
    return next_revision(names), leaves[0] if leaves else None
