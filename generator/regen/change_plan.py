"""The change plan: every difference between the recorded manifest and the new one,
classified before anything is written.

- **safe**: nothing can be lost (a new table, a new nullable column, a wider column,
  a new enum value, a declared rename);
- **decided by data**: the change is fine unless some rows do not fit (a narrower
  column, a cast, an enum value that goes away, nullable → required, a required
  column on a table that has rows, ``soft_delete`` turned off while the trash holds
  records: they would come back to life). The migration counts those rows before its
  first change and refuses if there are any (:mod:`panel_core.migration_guard` in the
  emitted project); panelforge counts them too when the database is reachable;
- **destructive**: rows are thrown away (a table or a column dropped). Refused unless
  the run accepts the drop by name (``--allow-drop Ticket`` or
  ``--allow-drop Ticket.notes``); when a resource or field disappears while another of
  the same shape appears, the refusal suggests ``renamed_from`` instead.

Pure and framework-neutral: it reads the :class:`~generator.migrations.SchemaDiff`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field

from ..errors import OutputError
from ..model import ir
from ..model.links import LinkTable
from .column_changes import (
    DATA,
    DESTRUCTIVE,
    SAFE,
    Change,
    DataCheck,
    kept_column,
    manifest_path,
    unique_group_changes,
)
from .migrations import SchemaDiff, TableChange


@dataclass(frozen=True)
class ChangePlan:
    """Every change of one regeneration, in the order the migration makes them."""

    changes: tuple[Change, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = ()  # e.g. the database could not be reached

    @property
    def refused(self) -> tuple[Change, ...]:
        """Destructive changes that no ``--allow-drop`` accepted."""
        return tuple(c for c in self.changes if not c.accepted)

    def checks(self) -> tuple[DataCheck, ...]:
        """The data checks of every change decided by data."""
        return tuple(check for c in self.changes for check in c.checks)

    def lines(self) -> list[str]:
        """The plan as the CLI prints it (then its notes)."""
        return [str(change) for change in self.changes] + [
            f"note: {note}" for note in self.notes
        ]

    def refuse_if_needed(self) -> None:
        """Raise :class:`OutputError` naming each destructive change not accepted."""
        if not self.refused:
            return
        lines = ["the manifest change would destroy data, so nothing was written:"]
        for change in self.refused:
            lines.append(f"  {change.where}: {change.text}")
            lines.append(f"    hint: {change.hint}")
        raise OutputError("\n".join(lines))


def plan_changes(diff: SchemaDiff, allow_drop: Collection[str] = ()) -> ChangePlan:
    """Classify every change of ``diff``; ``allow_drop`` names accepted drops."""
    changes = [_created(r) for r in diff.created]
    for change in diff.changed:
        changes += _table_changes(change, allow_drop)
    changes += [_dropped_table(r, diff, allow_drop) for r in diff.dropped]
    changes += [_dropped_link(t, allow_drop) for t in diff.links_dropped]
    changes += [_created_link(t) for t in diff.links_created]
    return ChangePlan(tuple(changes))


def migration_checks(diff: SchemaDiff) -> tuple[DataCheck, ...]:
    """The data checks the migration of ``diff`` runs first (drops were accepted)."""
    every_drop = {r.name for r in diff.dropped} | {
        f"{c.after.name}.{f.name}" for c in diff.changed for f in c.dropped
    }
    every_drop |= {f"{t.owner.name}.{t.link.name}" for t in diff.links_dropped}
    return plan_changes(diff, every_drop).checks()


# --- tables -----------------------------------------------------------------------


def _created_link(table: LinkTable) -> Change:
    where = manifest_path(table.owner, "fields", table.link.name)
    return Change(SAFE, f"create link table {table.name}", where)


def _dropped_link(table: LinkTable, allow_drop: Collection[str]) -> Change:
    """A link table dropped with its links, as a dropped column: refused unless
    ``--allow-drop`` names the field (or its resource, dropped with it)."""
    name = f"{table.owner.name}.{table.link.name}"
    text = f"drop link table {table.name} ({name}) and all its links"
    hint = f"to drop the table and its links, pass --allow-drop {name}"
    accepted = name in allow_drop or table.owner.name in allow_drop
    where = manifest_path(table.owner, "fields", table.link.name)
    return Change(DESTRUCTIVE, text, where, hint=hint, accepted=accepted)


def _created(resource: ir.Resource) -> Change:
    return Change(SAFE, f"create table {resource.table}", manifest_path(resource))


def _shape(resource: ir.Resource) -> frozenset[tuple[str, str, str | None]]:
    return frozenset((f.name, f.type, f.format) for f in resource.fields)


def _dropped_table(
    resource: ir.Resource, diff: SchemaDiff, allow_drop: Collection[str]
) -> Change:
    text = f"drop table {resource.table} (resource {resource.name}) and all its rows"
    twins = [r.name for r in diff.created if _shape(r) == _shape(resource)]
    if twins:
        hint = (
            f"if {resource.name} was renamed to {twins[0]}, add "
            f"'renamed_from: {resource.name}' to resources.{twins[0]}; to drop the "
            f"table, pass --allow-drop {resource.name}"
        )
    else:
        hint = f"to drop the table and its rows, pass --allow-drop {resource.name}"
    accepted = resource.name in allow_drop
    return Change(
        DESTRUCTIVE, text, manifest_path(resource), hint=hint, accepted=accepted
    )


def _table_changes(
    change: TableChange, allow_drop: Collection[str]
) -> Iterator[Change]:
    before, after = change.before, change.after
    if before.table != after.table:
        text = f"rename table {before.table} to {after.table}, rows kept"
        yield Change(SAFE, text, manifest_path(after, "renamed_from"))
    for added in change.added:
        yield _added_column(change, added)
    for old, new in change.kept:
        yield from kept_column(change, old, new)
    yield from unique_group_changes(change)
    for dropped in change.dropped:
        yield _dropped_column(change, dropped, allow_drop)


def _added_column(change: TableChange, added: ir.Field) -> Change:
    resource = change.after
    text = f"add column {resource.table}.{added.column_name}"
    where = manifest_path(resource, "fields", added.name)
    if added.default_sql is not None:
        return Change(SAFE, f"{text}, filled in with {added.default_sql}", where)
    if added.column_nullable or added.has_default:
        return Change(SAFE, text, where)
    check = DataCheck(
        change.before.table,  # checks run before the migration changes anything
        added.column_name,
        change.before.key_column,
        "missing",
        hint=f"give {where} a default: to fill the existing rows, or make it nullable",
    )
    return Change(DATA, text + " (required: the table must be empty)", where, (check,))


def _emptied_trash(change: TableChange) -> Change:
    """``soft_delete`` turned off: fine while the trash is empty, else refused."""
    before, after = change.before, change.after
    text = (
        f"drop column {before.table}.{ir.TRASH_COLUMN.name} (the trash must be empty)"
    )
    where = manifest_path(after, "soft_delete")
    check = DataCheck(
        before.table,
        ir.TRASH_COLUMN.name,
        before.key_column,
        "trashed",
        hint=(
            "restore those records or delete them for good first, or keep "
            f"{where}: true"
        ),
    )
    return Change(DATA, text, where, (check,))


def _dropped_column(
    change: TableChange, dropped: ir.Field, allow_drop: Collection[str]
) -> Change:
    if dropped == ir.TRASH_COLUMN and not change.after.soft_delete:
        return _emptied_trash(change)
    resource = change.after
    name = f"{resource.name}.{dropped.name}"
    text = f"drop column {change.before.table}.{dropped.column_name} and its values"
    twins = [
        f.name
        for f in change.added
        if (f.type, f.format, f.relation)
        == (dropped.type, dropped.format, dropped.relation)
    ]
    if twins:
        twin = manifest_path(resource, "fields", twins[0])
        hint = (
            f"if {dropped.name} was renamed to {twins[0]}, add 'renamed_from: "
            f"{dropped.name}' to {twin}; to drop the column, pass --allow-drop {name}"
        )
    else:
        hint = f"to drop the column and its values, pass --allow-drop {name}"
    return Change(
        DESTRUCTIVE,
        text,
        manifest_path(resource, "fields", dropped.name),
        hint=hint,
        accepted=name in allow_drop or resource.name in allow_drop,
    )
