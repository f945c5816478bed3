"""The store's actions: the selected records, and an action run on them at once.

``Store`` inherits them. An action runs in one write transaction: the records are
read (locked where the database can), then the action's function gets them, or, for a
``bulk_update`` action, each record is updated as the API would (hooks, checks). What
raises undoes it all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import Column, ColumnElement, Connection, Engine, Select, func, select
from sqlalchemy.exc import IntegrityError

from app.core.db import transaction
from panel_core.lifecycle import Actor
from panel_core.query import ListQuery
from panel_core.record_actions import Action, Selection, conflict, run_on

from .hooks import writing


class ActionMethods:
    """``run_action`` and ``count_selected`` for ``Store``."""

    label: str
    _key: Column[Any]
    _names: tuple[str, ...]
    _select: Select[Any]

    if TYPE_CHECKING:

        def scope(
            self, actor: Actor | None, *, trashed: bool = False
        ) -> list[ColumnElement[bool]]: ...

        def _conditions(self, query: ListQuery) -> list[ColumnElement[bool]]: ...

        def _order(self, query: ListQuery) -> list[ColumnElement[Any]]: ...

        def _import_row(
            self,
            connection: Connection,
            key: Any,
            values: dict[str, Any],
            actor: Actor,
        ) -> list[str]: ...

    def _selected_where(
        self, chosen: Selection, actor: Actor
    ) -> list[ColumnElement[bool]]:
        conditions = self.scope(actor)
        if chosen.keys is not None:
            return [*conditions, self._key.in_(chosen.keys)]
        assert chosen.query is not None
        return [*conditions, *self._conditions(chosen.query)]

    def count_selected(self, engine: Engine, chosen: Selection, actor: Actor) -> int:
        """How many records ``chosen`` names that ``actor`` may reach."""
        statement = select(func.count()).where(*self._selected_where(chosen, actor))
        statement = statement.select_from(self._key.table)
        with transaction(engine) as connection:
            return int(connection.execute(statement).scalar_one())

    def run_action(
        self,
        engine: Engine,
        action: Action,
        chosen: Selection,
        data: Mapping[str, Any],
        actor: Actor,
        function: Callable[..., Any] | None,
    ) -> tuple[Any, int]:
        """Run ``action`` on the selected records, all or nothing: what its function
        returned (a message, or ``None``) and how many records it ran on."""
        order = [self._key] if chosen.query is None else self._order(chosen.query)
        statement = (
            self._select.where(*self._selected_where(chosen, actor))
            .order_by(*order)
            .with_for_update()
        )
        try:
            with transaction(engine, writes=True) as connection, writing(connection):
                rows = connection.execute(statement).all()
                records = [dict(zip(self._names, row, strict=True)) for row in rows]
                key = self._key.name
                return run_on(
                    action,
                    records,
                    data,
                    actor,
                    function,
                    lambda record, values: self._import_row(
                        connection, record[key], values, actor
                    ),
                )
        except IntegrityError:
            raise conflict(action) from None
