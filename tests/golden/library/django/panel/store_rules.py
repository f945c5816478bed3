"""The delete rules' statements on Django models (``panel_core.delete_rules``).

Keys go in chunks, so no statement carries more parameters than a database takes. A
record is erased with ``QuerySet.delete()``: the models' ``on_delete`` say the same
rules, so Django's own collector finds nothing left to do but the delete. The files
of the records a rule erases are removed once the delete has committed
(``erase_files``). ``recording(user)`` gives the ``Tables`` of one delete by ``user``,
which also writes the history of the records a rule deletes or clears a reference of,
in the delete's transaction (``panel_core.history``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import models

from panel_core.file_writes import erased
from panel_core.history import cascaded, cleared

from . import history
from .stored_files import StoredFileField

_CHUNK = 500


class Tables:
    """The models of the registered resources, by URI key."""

    def __init__(
        self,
        panels: Mapping[str, Any],
        *,
        recording: bool = False,
        user: Any = None,
    ) -> None:
        """``panels``: the registered resources by URI key. ``recording``: write the
        history of what the rules change, as done by ``user``."""
        self._panels = panels
        self._models = {
            uri: panel.store.model_manager.model for uri, panel in panels.items()
        }
        self._recording = recording
        self._user = user

    def recording(self, user: Any) -> Tables:
        """These tables for one delete by ``user``, writing its history."""
        return Tables(self._panels, recording=True, user=user)

    def referring(self, uri: str, field: str, keys: Sequence[Any]) -> list[Any]:
        """The keys of the records of ``uri`` whose ``field`` holds one of ``keys``."""
        model = self._models[uri]
        column = model._meta.get_field(field).attname
        found: list[Any] = []
        for chunk in _chunks(keys):
            rows = model._base_manager.filter(**{column + "__in": chunk})
            found += rows.order_by("pk").values_list("pk", flat=True)
        return found

    def clear(self, uri: str, field: str, keys: Sequence[Any]) -> None:
        """Set ``field`` to null where it holds one of ``keys``."""
        model = self._models[uri]
        column = model._meta.get_field(field).attname
        for chunk in _chunks(keys):
            where = {column + "__in": chunk}
            if self._recording:
                panel = self._panels[uri]
                records = panel.store.rows_where(**where)
                history.write(cleared(type(panel.resource), records, field, self._user))
            model._base_manager.filter(**where).update(**{column: None})

    def erase(self, uri: str, keys: Sequence[Any]) -> None:
        """Delete the records of ``uri`` with these keys, for good."""
        model = self._models[uri]
        for chunk in _chunks(keys):
            rows = model._base_manager.filter(pk__in=chunk)
            erase_files(rows)
            if self._recording:
                panel = self._panels[uri]
                records = panel.store.rows_where(pk__in=chunk)
                history.write(cascaded(type(panel.resource), records, self._user))
            rows.delete()


def erase_files(rows: models.QuerySet[Any]) -> None:
    """The files ``rows`` hold, about to be deleted for good: removed once the delete
    has committed (``panel_core.file_writes.erased``)."""
    names = [
        f.attname
        for f in rows.model._meta.concrete_fields
        if isinstance(f, StoredFileField)
    ]
    if names:
        erased(value for row in rows.values_list(*names) for value in row)


def _chunks(keys: Sequence[Any]) -> list[Sequence[Any]]:
    return [keys[start : start + _CHUNK] for start in range(0, len(keys), _CHUNK)]
