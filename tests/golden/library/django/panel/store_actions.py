"""The store's actions: the selected records, and an action run on them at once.

``Store`` inherits them. An action runs in one transaction: the records are read
(locked where the database can), then the action's function gets them, or, for a
``bulk_update`` action, each record is updated as the API would (hooks, checks). What
raises undoes it all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.db.models.lookups import IContains

from panel_core.lifecycle import Actor
from panel_core.query import ListQuery
from panel_core.record_actions import Action, Selection, conflict, run_on


class ActionMethods:
    """``run_action`` and ``count_selected`` for ``Store``."""

    _key: str
    _key_name: str
    _manager: models.Manager[Any]
    _rows: models.QuerySet[Any]

    if TYPE_CHECKING:

        def scope(self, actor: Actor | None, *, trashed: bool = False) -> list[Q]: ...

        def _conditions(self, query: ListQuery) -> list[Q | IContains]: ...

        def _order(self, query: ListQuery) -> list[str]: ...

        def _import_row(
            self, key: Any, values: dict[str, Any], actor: Actor
        ) -> list[str]: ...

    def _selected(
        self, rows: models.QuerySet[Any], chosen: Selection, actor: Actor
    ) -> models.QuerySet[Any]:
        rows = rows.filter(*self.scope(actor))
        if chosen.keys is not None:
            return rows.filter(**{self._key + "__in": chosen.keys})
        assert chosen.query is not None
        return rows.filter(*self._conditions(chosen.query))

    def count_selected(self, chosen: Selection, actor: Actor) -> int:
        """How many records ``chosen`` names that ``actor`` may reach."""
        return self._selected(self._manager.all(), chosen, actor).count()

    def run_action(
        self,
        action: Action,
        chosen: Selection,
        data: Mapping[str, Any],
        actor: Actor,
        function: Callable[..., Any] | None,
    ) -> tuple[Any, int]:
        """Run ``action`` on the selected records, all or nothing: what its function
        returned (a message, or ``None``) and how many records it ran on."""
        order = [self._key] if chosen.query is None else self._order(chosen.query)
        try:
            with transaction.atomic():
                rows = self._selected(self._rows, chosen, actor).order_by(*order)
                records = [dict(row) for row in rows.select_for_update()]
                return run_on(
                    action,
                    records,
                    data,
                    actor,
                    function,
                    lambda record, values: self._import_row(
                        record[self._key_name], values, actor
                    ),
                )
        except IntegrityError:
            raise conflict(action) from None
