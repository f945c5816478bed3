"""Hot queries compiled to SQL once, then run with each request's values.

Django builds and compiles a query set's SQL on every evaluation, which costs more
than the query itself on a one-row read. A ``PreparedQuery`` compiles its query set
once per database, with stand-in values for its parameters, and finds where those
stand-ins sit among the SQL's parameters. A request only swaps in its own values
(prepared for the database by the same model fields) and applies the converters
Django's compiler chose, so rows come back exactly as the query set would give them.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connections, models, router

QuerySetFactory = Callable[[Mapping[str, Any]], models.QuerySet[Any]]
Converter = tuple[int, tuple[Callable[..., Any], ...], Any]


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]  # (position in params, parameter name)
    converters: tuple[Converter, ...]  # (column, converters, expression)


class PreparedQuery:
    """A query set of ``model`` whose SQL is compiled once per database alias.

    ``build`` makes the query set from the parameters' values; ``fields`` names, for
    each parameter, the model field that prepares its values for the database (the
    field the query set filters on). Building must not evaluate anything.
    """

    def __init__(
        self,
        model: type[models.Model],
        build: QuerySetFactory,
        fields: Mapping[str, models.Field[Any, Any]],
    ) -> None:
        self._model = model
        self._build = build
        self._fields = dict(fields)
        self._compiled: dict[str, _Compiled] = {}

    def rows(self, values: Mapping[str, Any]) -> list[list[Any]]:
        """The rows the query set gives for ``values``, converted as Django would."""
        alias = router.db_for_read(self._model)
        compiled = self._compiled.get(alias)
        if compiled is None:
            compiled = self._compiled[alias] = self._compile(alias)
        connection = connections[alias]
        params = list(compiled.params)
        for position, name in compiled.slots:
            field = self._fields[name]
            params[position] = field.get_db_prep_value(
                values[name], connection, prepared=False
            )
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = [list(row) for row in cursor.fetchall()]
        for row in rows:
            for column, converters, expression in compiled.converters:
                for convert in converters:
                    row[column] = convert(row[column], expression, connection)
        return rows

    def _compile(self, alias: str) -> _Compiled:
        connection = connections[alias]
        stand_ins = {
            name: _stand_in(field, number, connection)
            for number, (name, field) in enumerate(self._fields.items())
        }
        compiler = self._build(stand_ins).query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        prepared = {
            name: self._fields[name].get_db_prep_value(value, connection, False)
            for name, value in stand_ins.items()
        }
        slots = tuple(
            (position, name)
            for position, param in enumerate(params)
            for name, stand_in in prepared.items()
            if type(param) is type(stand_in) and param == stand_in
        )
        if sorted(name for _, name in slots) != sorted(stand_ins):
            raise ValueError(f"each parameter must appear once in: {sql}")
        columns = [selected[0] for selected in compiler.select[: compiler.col_count]]
        converters = tuple(
            (column, tuple(found), expression)
            for column, (found, expression) in compiler.get_converters(columns).items()
        )
        return _Compiled(sql, tuple(params), slots, converters)


def _stand_in(field: models.Field[Any, Any], number: int, connection: Any) -> Any:
    """A value of ``field``'s type that no real parameter would be."""
    if isinstance(field, models.IntegerField | models.AutoField):
        # In the column's range: out of it, Django would compile "matches nothing".
        low, _high = connection.ops.integer_field_range(field.get_internal_type())
        return (-(2**31) if low is None else low) + 1 + number
    if isinstance(field, models.CharField | models.TextField):
        return f"\0panel.prepared.{number}"
    if isinstance(field, models.UUIDField):
        return uuid.UUID(int=(0xFA11 << 112) + number)
    raise TypeError(f"no stand-in value for {type(field).__name__}")
