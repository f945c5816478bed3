"""How one kept column changes between two manifests: the classified changes and
the data checks they need (a part of the change plan, :mod:`.change_plan`)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..model import ir
from .migrations import TableChange

SAFE, DATA, DESTRUCTIVE = "safe", "decided by data", "destructive"

# Casts a value check can prove exact: (type before, type after) → check kind.
_CASTS = {
    ("string", "integer"): "integer",
    ("string", "number"): "number",
    ("number", "integer"): "integer",
}
_WIDENING = {("integer", "number"), ("integer", "string"), ("number", "string")}
_INT64_DIGITS = 20  # len("-9223372036854775808"): any integer fits
_DOUBLE_DIGITS = 15  # significant digits a double holds exactly


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


def manifest_path(resource: ir.Resource, *parts: str) -> str:
    return ".".join(("resources", resource.name, *parts))


def kept_column(change: TableChange, old: ir.Field, new: ir.Field) -> Iterator[Change]:
    resource = change.after
    column = f"{resource.table}.{new.column_name}"
    where = manifest_path(resource, "fields", new.name)
    if old.column_name != new.column_name:
        text = f"rename column {resource.table}.{old.column_name} to {new.column_name}"
        mapped = old.name == new.name  # only ``column:`` changed
        yield Change(SAFE, text, where + ".column" if mapped else where)
    if old.is_key:
        return
    yield from _type_change(change, old, new, column, where)
    yield from _enum_change(change, old, new, column, where)
    if old.column_nullable and not new.column_nullable:
        yield _tightened(change, old, new, column, where)
    if old.relation and new.relation and old.delete_rule != new.delete_rule:
        text = (
            f"change the delete rule of {column} from {old.delete_rule} to "
            f"{new.delete_rule} (the foreign key only; no row changes)"
        )
        yield Change(SAFE, text, where + ".on_delete")
    if new.unique and not old.unique:
        hint = f"make those values distinct first, or remove {where}.unique"
        check = _check(change, old, "duplicates", None, hint)
        yield Change(DATA, f"make {column} unique", where + ".unique", (check,))


def unique_group_changes(change: TableChange) -> Iterator[Change]:
    """Groups made unique (decided by data: rows sharing the values of a new group)
    and groups dropped (safe). A group that is only renamed is neither."""
    before, after = change.before, change.after
    old_name = {a.name: b.name for b, a in change.kept}
    new_name = {b.name: a.name for b, a in change.kept}
    where = manifest_path(after, "unique")
    for group in after.unique_together:
        olds = tuple(old_name.get(n) for n in group)
        if None not in olds and olds in before.unique_together:
            continue
        text = f"make {after.table} ({', '.join(group)}) unique"
        kept = tuple(o for o in olds if o is not None)
        added = [after.field(n) for n, o in zip(group, olds, strict=True) if o is None]
        if any(f.column_nullable and not f.has_default for f in added):
            yield Change(SAFE, text + " (a new column is empty)", where)
            continue
        hint = f"make those rows differ first, or remove the group from {where}"
        kind = "group_duplicates" if kept else "missing"
        columns = tuple(before.column_of(n) for n in kept)
        key = before.key_column
        check = DataCheck(
            before.table, (columns or (key,))[0], key, kind, columns, hint
        )
        yield Change(DATA, text, where, (check,))
    for group in before.unique_together:
        news = tuple(new_name.get(n) for n in group)
        if None in news or news not in after.unique_together:
            text = f"drop the unique group {before.table} ({', '.join(group)})"
            yield Change(SAFE, text, where)


def _check(
    change: TableChange, old: ir.Field, kind: str, argument: object, hint: str
) -> DataCheck:
    """A check of the column as it is before the migration: old table, old name."""
    table, key = change.before.table, change.before.key_column
    return DataCheck(table, old.column_name, key, kind, argument, hint)


def _type_change(
    change: TableChange, old: ir.Field, new: ir.Field, column: str, where: str
) -> Iterator[Change]:
    types = (old.type, new.type)
    if new.is_decimal or old.is_decimal and new.type == "number":
        yield from _decimal_change(change, old, new, column, where)
        return
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
        kind = _CASTS.get(types) if old.format in (None, "decimal") else None
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
    if field.is_decimal:
        return f"decimal({field.precision}, {field.scale})"
    return f"{field.type} ({field.format})" if field.format else field.type


def _decimal_change(
    change: TableChange, old: ir.Field, new: ir.Field, column: str, where: str
) -> Iterator[Change]:
    """To an exact decimal, or between decimals, or from one to a double: safe
    when every value the column can hold fits, else decided by the rows."""
    held = _decimal_digits(old)
    if new.is_decimal:
        target = (new.precision or 0, new.scale or 0)
        fits = held is not None and _within(held, target)
    else:  # a double holds 15 significant digits exactly
        target = (_DOUBLE_DIGITS, min(old.scale or 0, _DOUBLE_DIGITS))
        fits = held is not None and held[0] <= _DOUBLE_DIGITS
    if old.is_decimal and new.is_decimal and held == target:
        return
    text = f"change {column} from {_type_name(old)} to {_type_name(new)}"
    if fits:
        yield Change(SAFE, text, where)
        return
    hint = (
        f"correct those values first, or keep {where} as it is"
        if old.type in ("number", "string")
        else f"this change keeps no value: add a new field instead of changing {where}"
    )
    kind = "decimal" if old.type in ("number", "string", "integer") else "rows"
    check = _check(change, old, kind, target if kind == "decimal" else None, hint)
    yield Change(DATA, text, where, (check,))


def _within(held: tuple[int, int], target: tuple[int, int]) -> bool:
    """Whether NUMERIC(target) holds every value of NUMERIC(held)."""
    return held[0] - held[1] <= target[0] - target[1] and held[1] <= target[1]


def _decimal_digits(field: ir.Field) -> tuple[int, int] | None:
    """``(precision, scale)`` of every value a column holds, when bounded: a
    decimal's own; a 64-bit integer's 19 digits; unbounded for the rest."""
    if field.is_decimal:
        return field.precision or 0, field.scale or 0
    if field.type == "integer" and not field.enum:
        return _INT64_DIGITS - 1, 0
    return None


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
