"""The change plan: every difference between the recorded manifest and the new one,
classified before anything is written.

- **safe**: nothing can be lost (a new table, a new nullable column, a wider column,
  a new enum value, a declared rename);
- **decided by data**: the change is fine unless some rows do not fit (a narrower
  column, a cast, an enum value that goes away, nullable → required, a required
  column on a table that has rows). The migration counts those rows before its first
  change and refuses if there are any (:mod:`panel_core.migration_guard` in the
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
from typing import Any

from ..errors import OutputError
from ..model import ir
from .migrations import SchemaDiff, TableChange

SAFE, DATA, DESTRUCTIVE = "safe", "decided by data", "destructive"

# Casts a value check can prove exact: (type before, type after) → check kind.
_CASTS = {
    ("string", "integer"): "integer",
    ("string", "number"): "number",
    ("number", "integer"): "integer",
}
_WIDENING = {("integer", "number"), ("integer", "string"), ("number", "string")}
_INT64_DIGITS = 20  # len("-9223372036854775808"): any integer fits


@dataclass(frozen=True)
class DataCheck:
    """Rows a migration must count before it changes ``table.column``.

    The kinds are those of the emitted ``migration_guard.Check``.
    """

    table: str
    column: str
    key: str
    kind: str
    argument: object = None
    hint: str = ""


@dataclass(frozen=True)
class Change:
    """One classified difference, in words, with the manifest key that decides it."""

    kind: str  # SAFE, DATA or DESTRUCTIVE
    text: str  # "narrow tickets.title to 10 characters"
    where: str  # "resources.Ticket.fields.title.maxLength"
    checks: tuple[DataCheck, ...] = ()
    hint: str = ""
    accepted: bool = True  # False: a destructive change nobody accepted

    def __str__(self) -> str:
        return f"[{self.kind}] {self.text}"


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
    return ChangePlan(tuple(changes))


def migration_checks(diff: SchemaDiff) -> tuple[DataCheck, ...]:
    """The data checks the migration of ``diff`` runs first (drops were accepted)."""
    every_drop = {r.name for r in diff.dropped} | {
        f"{c.after.name}.{f.name}" for c in diff.changed for f in c.dropped
    }
    return plan_changes(diff, every_drop).checks()


# --- tables -----------------------------------------------------------------------


def _created(resource: ir.Resource) -> Change:
    return Change(SAFE, f"create table {resource.table}", _where(resource))


def _where(resource: ir.Resource, *parts: str) -> str:
    return ".".join(("resources", resource.name, *parts))


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
    return Change(DESTRUCTIVE, text, _where(resource), hint=hint, accepted=accepted)


def _table_changes(
    change: TableChange, allow_drop: Collection[str]
) -> Iterator[Change]:
    before, after = change.before, change.after
    if before.table != after.table:
        text = f"rename table {before.table} to {after.table}, rows kept"
        yield Change(SAFE, text, _where(after, "renamed_from"))
    for added in change.added:
        yield _added_column(change, added)
    for old, new in change.kept:
        yield from _kept_column(change, old, new)
    for dropped in change.dropped:
        yield _dropped_column(change, dropped, allow_drop)


def _added_column(change: TableChange, added: ir.Field) -> Change:
    resource = change.after
    text = f"add column {resource.table}.{added.name}"
    where = _where(resource, "fields", added.name)
    if added.column_nullable or added.has_default:
        return Change(SAFE, text, where)
    check = DataCheck(
        change.before.table,  # checks run before the migration changes anything
        added.name,
        change.before.key,
        "missing",
        hint=f"give {where} a default: to fill the existing rows, or make it nullable",
    )
    return Change(DATA, text + " (required: the table must be empty)", where, (check,))


def _dropped_column(
    change: TableChange, dropped: ir.Field, allow_drop: Collection[str]
) -> Change:
    resource = change.after
    name = f"{resource.name}.{dropped.name}"
    text = f"drop column {change.before.table}.{dropped.name} and its values"
    twins = [
        f.name
        for f in change.added
        if (f.type, f.format, f.relation)
        == (dropped.type, dropped.format, dropped.relation)
    ]
    if twins:
        hint = (
            f"if {dropped.name} was renamed to {twins[0]}, add 'renamed_from: "
            f"{dropped.name}' to {_where(resource, 'fields', twins[0])}; to drop the "
            f"column, pass --allow-drop {name}"
        )
    else:
        hint = f"to drop the column and its values, pass --allow-drop {name}"
    return Change(
        DESTRUCTIVE,
        text,
        _where(resource, "fields", dropped.name),
        hint=hint,
        accepted=name in allow_drop or resource.name in allow_drop,
    )


# --- kept columns -----------------------------------------------------------------


def _kept_column(change: TableChange, old: ir.Field, new: ir.Field) -> Iterator[Change]:
    resource = change.after
    column = f"{resource.table}.{new.name}"
    where = _where(resource, "fields", new.name)
    if old.is_key:
        return
    if old.name != new.name:
        yield Change(
            SAFE, f"rename column {resource.table}.{old.name} to {new.name}", where
        )
    yield from _type_change(change, old, new, column, where)
    yield from _enum_change(change, old, new, column, where)
    if old.column_nullable and not new.column_nullable:
        yield _tightened(change, old, new, column, where)


def _check(
    change: TableChange, old: ir.Field, kind: str, argument: object, hint: str
) -> DataCheck:
    """A check of the column as it is before the migration: old table, old name."""
    table, key = change.before.table, change.before.key
    return DataCheck(table, old.name, key, kind, argument, hint)


def _type_change(
    change: TableChange, old: ir.Field, new: ir.Field, column: str, where: str
) -> Iterator[Change]:
    types = (old.type, new.type)
    if old.type != new.type or old.format != new.format:
        text = f"change {column} from {_type_name(old)} to {_type_name(new)}"
        if types in _WIDENING and new.format is None:
            if new.max_length is None or new.max_length >= _INT64_DIGITS:
                yield Change(SAFE, text, where + ".type")
                return
            hint = f"shorten those values first, or give {where} a larger maxLength"
            check = _check(change, old, "longer_than", new.max_length, hint)
            yield Change(DATA, text, where + ".type", (check,))
            return
        kind = _CASTS.get(types) if old.format is None else None
        if old.type == new.type == "string" and old.format is None:
            kind = new.format if new.format in ("date", "date-time", "uuid") else None
            if new.format in ("email", "uri", "text", "password"):
                yield Change(SAFE, text, where + ".format")
                return
        hint = (
            f"correct those values first, or keep {where} a {_type_name(old)}"
            if kind
            else f"this change keeps no value: add a new field instead of changing "
            f"{where}, or empty the column first"
        )
        check = _check(change, old, kind or "rows", None, hint)
        yield Change(DATA, text, where + ".type", (check,))
        return
    if (
        new.type == "string"
        and not new.enum
        and new.max_length is not None
        and (old.max_length is None or new.max_length < old.max_length)
    ):
        hint = (
            f"shorten those values first, or keep {where}.maxLength at {old.max_length}"
        )
        check = _check(change, old, "longer_than", new.max_length, hint)
        text = f"narrow {column} to {new.max_length} characters"
        yield Change(DATA, text, where + ".maxLength", (check,))


def _type_name(field: ir.Field) -> str:
    return f"{field.type} ({field.format})" if field.format else field.type


def _enum_change(
    change: TableChange, old: ir.Field, new: ir.Field, column: str, where: str
) -> Iterator[Change]:
    if not (old.enum and new.enum):
        return
    mapped = dict(moved_values(old, new))
    for value, target in mapped.items():
        text = f"move {column} values {value!r} to {target!r}"
        yield Change(SAFE, text, where + ".renamed_values")
    gone = tuple(v for v in old.enum if v not in new.enum and v not in mapped)
    if gone:
        hint = (
            f"map them with {where}.renamed_values "
            f"({{{gone[0]!r}: <a kept value>}}), or keep the value"
        )
        check = _check(change, old, "values", gone, hint)
        listed = ", ".join(repr(v) for v in gone)
        yield Change(
            DATA, f"remove {column} values {listed}", where + ".enum", (check,)
        )


def moved_values(before: ir.Field, after: ir.Field) -> list[tuple[Any, Any]]:
    """The ``(old, new)`` enum values rows move from, typed as stored.

    Forward, ``after.renamed_values`` says it; undoing it (``before`` declares the
    map), each new value goes back to the one old value that moved to it, unless
    the old enum had that value itself.
    """
    if not (before.enum and after.enum):
        return []
    if after.renamed_values:
        targets = {str(old): new for old, new in after.renamed_values}
        return [(v, targets[str(v)]) for v in before.enum if str(v) in targets]
    news = [new for _, new in before.renamed_values]
    typed = {str(v): v for v in after.enum}
    return [
        (new, typed[str(old)])
        for old, new in before.renamed_values
        if news.count(new) == 1 and new not in after.enum and str(old) in typed
    ]


def values_widen(before: ir.Field, after: ir.Field) -> bool:
    """Whether an enum column's longest value grows (or stays): moves go last."""
    return _width(after) >= _width(before)


def _width(field: ir.Field) -> int:
    return max((len(str(v)) for v in field.enum or ()), default=0)


def _tightened(
    change: TableChange, old: ir.Field, new: ir.Field, column: str, where: str
) -> Change:
    if new.has_default and new.default is not None:
        text = f"make {column} required, empty values set to {new.default!r}"
        return Change(SAFE, text, where)
    hint = f"give {where} a default: to fill them, or fill them first"
    check = _check(change, old, "null", None, hint)
    return Change(DATA, f"make {column} required", where, (check,))
