"""Data checks a migration runs before its first change: refuse rather than lose rows.

A generated migration that narrows a column, casts a type, removes an enum value, makes
a column required or adds a unique constraint first counts the rows the change would
damage. If any exist it raises :class:`MigrationRefused` with the counts and a few
example keys, before touching the database; the project's ``migrate`` command prints
the message (no traceback) and exits 1. panelforge runs the same checks when it
generates the migration and the project's database is reachable.

The checks speak plain SQL through one callable, ``run(sql) -> rows``, so the same
code serves Alembic (``op.get_bind()``), Django (``schema_editor.connection``) and
panelforge itself (a DB-API connection), and a ``Dialect`` says how to spell it
(MySQL quotes names with backticks and counts characters with ``CHAR_LENGTH``). Names
and values come from the generated migration, never from a request; they are quoted
all the same.
"""

from __future__ import annotations

import datetime
import decimal
import re
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

Rows = Sequence[Sequence[object]]
RunSql = Callable[[str], Rows]

EXAMPLES = 3  # example keys named per finding
_INTEGER = re.compile(r"-?[0-9]+")
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_INT64 = 2**63


@dataclass(frozen=True)
class Dialect:
    """How the checks' SQL is spelt: identifier quotes, a text's length in characters."""

    quote: str = '"'
    length: str = "LENGTH(CAST({} AS TEXT))"


STANDARD = Dialect()  # SQLite and PostgreSQL
MYSQL = Dialect(quote="`", length="CHAR_LENGTH({})")  # MySQL and MariaDB


def dialect_named(name: str) -> Dialect:
    """The ``Dialect`` of a database by its SQLAlchemy or Django vendor name."""
    return MYSQL if name in ("mysql", "mariadb") else STANDARD


class MigrationRefused(Exception):
    """A migration found rows it would damage; nothing was changed."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Check:
    """Rows of ``table.column`` that a change cannot keep, and how to tell them.

    ``kind`` is one of ``longer_than`` (``argument``: the new maximum length),
    ``null`` (the column becomes required without a fill value), ``values`` (the
    enum values that go away, as a tuple), ``duplicates`` (a new unique constraint),
    ``group_duplicates`` (a new unique group; ``argument``: its columns, as a tuple),
    ``rows`` (any row with a value: a change no value survives), ``trashed`` (a
    record in the trash of a resource that stops keeping one), ``missing`` (any
    row at all: a new required column without a default), ``decimal``
    (``argument``: the new ``(precision, scale)``; values with more decimals or
    digits), or a cast target: ``integer``, ``number``, ``date``, ``date-time``,
    ``uuid``.
    """

    table: str
    column: str
    key: str
    kind: str
    argument: object = None
    hint: str = ""


@dataclass(frozen=True)
class Finding:
    """Rows of one column a change would damage."""

    check: Check
    count: int
    keys: tuple[object, ...]  # a few example keys (values, for duplicates)

    def describe(self) -> str:
        """``tickets.title: 20 rows have more than 10 characters (keys 3, 7, …)``."""
        check = self.check
        one = self.count == 1
        if check.kind == "group_duplicates":
            columns = ", ".join(check.argument)  # type: ignore[call-overload]
            subject = "1 group of values is" if one else f"{self.count} groups are"
            problem = "shared by several rows and the fields become unique together"
            named = ", ".join(repr(k) for k in self.keys)
            more = ", …" if self.count > len(self.keys) else ""
            text = f"{check.table} ({columns}): {subject} {problem} ({named}{more})"
            return f"{text}\n    hint: {check.hint}" if check.hint else text
        if check.kind == "duplicates":
            subject = "1 value is" if one else f"{self.count} values are"
            problem = "shared by several rows and the field becomes unique"
        else:
            subject = "1 row has" if one else f"{self.count} rows have"
            problem = _PROBLEMS.get(
                check.kind, f"a value that is not a valid {check.kind}"
            ).format(check.argument if check.kind != "values" else _listed(check))
        named = ", ".join(str(k) for k in self.keys)
        more = ", …" if self.count > len(self.keys) else ""
        label = "values" if check.kind == "duplicates" else "keys"
        text = (
            f"{check.table}.{check.column}: {subject} {problem} ({label} {named}{more})"
        )
        return f"{text}\n    hint: {check.hint}" if check.hint else text


_PROBLEMS = {
    "longer_than": "more than {} characters",
    "null": "no value and the field becomes required",
    "values": "an enum value that goes away ({})",
    "rows": "a value the new type cannot hold",
    "trashed": "been deleted into the trash, and would come back",
    "missing": "no value for this new required field",
    "decimal": "a value that does not fit NUMERIC{}, and would be rounded",
}


def _listed(check: Check) -> str:
    return ", ".join(repr(v) for v in check.argument)  # type: ignore[attr-defined]


def quote_name(name: str, dialect: Dialect = STANDARD) -> str:
    """An SQL identifier, quoted (double quotes; MySQL: backticks)."""
    quote = dialect.quote
    return quote + name.replace(quote, quote + quote) + quote


def quote_value(value: object) -> str:
    """An SQL literal of a manifest value (string, number or boolean)."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int | float):
        return repr(value)
    return "'" + str(value).replace("'", "''") + "'"


def _condition(check: Check, dialect: Dialect) -> str | None:
    """The WHERE clause of the damaged rows, when SQL can say it."""
    column = quote_name(check.column, dialect)
    if check.kind == "longer_than":
        length = dialect.length.format(column)
        return f"{length} > {int(check.argument)}"  # type: ignore[call-overload]
    if check.kind == "null":
        return f"{column} IS NULL"
    if check.kind == "values":
        values = ", ".join(quote_value(v) for v in check.argument)  # type: ignore[attr-defined]
        return f"{column} IN ({values})"
    if check.kind in ("rows", "trashed"):
        return f"{column} IS NOT NULL"
    if check.kind == "missing":
        return "1 = 1"
    return None


def _fits(kind: str, value: object, argument: object = None) -> bool:
    """Whether a stored ``value`` becomes a ``kind`` as it is (no zero, no rounding)."""
    text = value.strip() if isinstance(value, str) else value
    if kind == "decimal":
        return _fits_decimal(text, argument)  # type: ignore[arg-type]
    try:
        if kind == "integer":
            if isinstance(text, str):
                return bool(_INTEGER.fullmatch(text)) and abs(int(text)) < _INT64
            return float(text).is_integer()  # type: ignore[arg-type]
        if kind == "number":
            return not isinstance(text, str) or bool(_NUMBER.fullmatch(text))
        if kind == "date":
            datetime.date.fromisoformat(str(text))
        elif kind == "date-time":
            datetime.datetime.fromisoformat(str(text))
        elif kind == "uuid":
            uuid.UUID(str(text))
        return True
    except (TypeError, ValueError, OverflowError):
        return False


def _fits_decimal(value: object, digits: tuple[int, int]) -> bool:
    """Whether a number (a double read through its shortest text) or a numeric text
    fits NUMERIC(precision, scale) as it is."""
    if isinstance(value, str) and not _NUMBER.fullmatch(value):
        return False
    try:
        number = decimal.Decimal(
            repr(value) if isinstance(value, float) else str(value)
        )
    except decimal.InvalidOperation:
        return False
    if not number.is_finite():
        return False
    precision, scale = digits
    if not number:
        return True
    _, found, exponent = number.as_tuple()
    zeros = len(found) - len("".join(map(str, found)).rstrip("0"))
    places = max(-(int(exponent) + zeros), 0)
    whole = max(number.adjusted() + 1, 0)
    return places <= scale and whole <= precision - scale


def _select(check: Check, condition: str, dialect: Dialect) -> str:
    return f"FROM {quote_name(check.table, dialect)} WHERE {condition}"


def _find(run: RunSql, check: Check, dialect: Dialect) -> Finding | None:
    key = quote_name(check.key, dialect)
    column = quote_name(check.column, dialect)
    if check.kind == "group_duplicates":
        names: tuple[str, ...] = check.argument  # type: ignore[assignment]
        columns = ", ".join(quote_name(c, dialect) for c in names)
        filled = " AND ".join(f"{quote_name(c, dialect)} IS NOT NULL" for c in names)
        rows = run(
            f"SELECT {columns} FROM {quote_name(check.table, dialect)} "
            f"WHERE {filled} GROUP BY {columns} HAVING COUNT(*) > 1 ORDER BY {columns}"
        )
        found = [tuple(row) for row in rows]
    elif check.kind == "duplicates":
        rows = run(
            f"SELECT {column} FROM {quote_name(check.table, dialect)} "
            f"WHERE {column} IS NOT NULL GROUP BY {column} "
            f"HAVING COUNT(*) > 1 ORDER BY {column}"
        )
        found = [row[0] for row in rows]
    elif (condition := _condition(check, dialect)) is not None:
        rows_from = _select(check, condition, dialect)
        count = int(run(f"SELECT COUNT(*) {rows_from}")[0][0])  # type: ignore[call-overload]
        if not count:
            return None
        examples = run(f"SELECT {key} {rows_from} ORDER BY {key} LIMIT {EXAMPLES}")
        return Finding(check, count, tuple(row[0] for row in examples))
    else:
        rows = run(
            f"SELECT {key}, {column} "
            f"{_select(check, column + ' IS NOT NULL', dialect)} ORDER BY {key}"
        )
        found = [
            row[0] for row in rows if not _fits(check.kind, row[1], check.argument)
        ]
    if not found:
        return None
    return Finding(check, len(found), tuple(found[:EXAMPLES]))


def find_damage(
    run: RunSql, checks: Iterable[Check], dialect: Dialect = STANDARD
) -> list[Finding]:
    """Every check that finds rows, in the order given."""
    return [f for c in checks if (f := _find(run, c, dialect)) is not None]


def describe(
    findings: Sequence[Finding], what: str, outcome: str = "nothing was changed"
) -> str:
    """The refusal: what was refused, then one line (and hint) per finding."""
    lines = [f"{what} would damage data, so {outcome}:"]
    lines += [f"  {finding.describe()}" for finding in findings]
    return "\n".join(lines)


def refuse_damage(
    run: RunSql, checks: Sequence[Check], migration: str, dialect: Dialect = STANDARD
) -> None:
    """Raise :class:`MigrationRefused` when any check finds rows; else do nothing."""
    findings = find_damage(run, checks, dialect)
    if findings:
        raise MigrationRefused(describe(findings, f"migration {migration}"))


# "relation "artist" already exists" (PostgreSQL), "table artist already exists"
# (SQLite), "Table 'artist' already exists" (MySQL/MariaDB).
_EXISTING_TABLE = re.compile(
    r"""(?:relation|table) ["'`]?([^"'`\s]+)["'`]? already exists""", re.IGNORECASE
)


def existing_table_hint(error: str) -> str:
    """What to do when a migration creates a table the database already has (its
    tables predate the panel): adopt them; ``""`` for any other error."""
    found = _EXISTING_TABLE.search(error)
    if found is None:
        return ""
    return (
        f"\n  hint: the table {found.group(1)} exists already; to put the panel on "
        "existing tables, mark their resources 'adopted:' in the manifest "
        "('panelforge inspect' writes it) and regenerate: migrate then records them "
        "without creating them"
    )
