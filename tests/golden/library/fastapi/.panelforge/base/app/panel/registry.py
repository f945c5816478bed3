"""The registered resources, each with its SQLAlchemy store.

The registry itself is the kernel's (``panel_core/registry.py``, shared with the Django
panels); this module builds the stores: statements on the model's table, computed once
when the app is created.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Select, Table, bindparam, select

from panel_core import registry as kernel
from panel_core.abilities import RoleTable
from panel_core.resource import DeclarationError, Resource

from .store import Relation, Store

PanelResource = kernel.PanelResource[Store]


class Registry(kernel.Registry[Store]):
    """Resources by URI key, served from their tables."""

    def __init__(
        self,
        resources: Iterable[type[Resource]],
        *,
        max_per_page: int,
        max_ids: int,
        roles: RoleTable | None = None,
        trim_strings: bool = True,
    ) -> None:
        super().__init__(
            resources,
            store=_store,
            max_per_page=max_per_page,
            max_ids=max_ids,
            roles=roles,
            trim_strings=trim_strings,
        )
        # Relation checks narrow their targets by the targets' scopes.
        for panel in self:
            panel.store.link_targets({p.uri: p for p in self}, self.delete_rules)


def _store(cls: type[Resource], classes: Mapping[str, type[Resource]]) -> Store:
    relations = [
        Relation(
            field.name,
            field.label,
            _exists(target),
            target.uri,
            _table(target).c[target.key_name()],
            tuple(_table(target).c[name] for name in target.display_fields),
        )
        for field, target in kernel.relations(cls, classes)
    ]
    return Store(cls, _table(cls), label=cls.model.__name__, relations=relations)


def _table(cls: type[Resource]) -> Table:
    table = getattr(cls.model, "__table__", None)
    if not isinstance(table, Table):
        raise DeclarationError(f"{cls.__qualname__}.model must be a mapped model class")
    missing = [f.name for f in cls.fields if f.name not in table.c]
    if missing:
        raise DeclarationError(
            f"{cls.__qualname__}: {cls.model.__name__} has no column for {missing}"
        )
    return table


def _exists(target: type[Resource]) -> Select[Any]:
    key = _table(target).c[target.key_name()]
    return select(key).where(key == bindparam("key"))
