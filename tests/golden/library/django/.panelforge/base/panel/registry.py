"""The registered resources (``app.resources.RESOURCES``), each with its store.

The registry itself is the kernel's (``panel_core/registry.py``, shared with the FastAPI
panels); this module builds the Django stores and keeps the one registry of the
project, made once when the panel app is ready, so a mistake in a declaration fails
at start-up. It holds the roles users may carry (``app.roles.ROLES``, the manifest's).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist
from django.db import models

from panel_core import registry as kernel
from panel_core.abilities import RoleTable
from panel_core.resource import DeclarationError, Resource

from .store import Relation, Store

PanelResource = kernel.PanelResource[Store]


class Registry(kernel.Registry[Store]):
    """Resources by URI key, served from their models."""

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
        # A relation's target narrows the records a write may point at by its scope.
        lifecycles = {panel.uri: panel.lifecycle for panel in self}
        panels = {panel.uri: panel for panel in self}
        for panel in self:
            panel.store.link_relations(lifecycles)
            panel.store.links.link_targets(panels)
            panel.store.link_rules(self.delete_rules, panels)


@cache
def registry() -> Registry:
    """The project's resources and roles, with the limits of the settings."""
    from app.resources import RESOURCES  # the project's app, ready by now
    from app.roles import ROLES

    return Registry(
        RESOURCES,
        max_per_page=settings.PANEL_MAX_PER_PAGE,
        max_ids=settings.PANEL_MAX_MASS_DELETE,
        roles=ROLES,
        trim_strings=settings.PANEL_TRIM_STRINGS,
    )


def _store(cls: type[Resource], classes: Mapping[str, type[Resource]]) -> Store:
    relations = [
        Relation(
            field.name,
            field.label,
            _model(target),
            target.uri,
            target.soft_delete,
            target.display_fields,
        )
        for field, target in kernel.relations(cls, classes)
    ]
    return Store(cls, label=_model(cls).__name__, relations=relations)


def _model(cls: type[Resource]) -> type[models.Model]:
    model = cls.model
    if not (isinstance(model, type) and issubclass(model, models.Model)):
        raise DeclarationError(f"{cls.__qualname__}.model must be a Django model class")
    missing = []
    for field in cls.fields:
        try:
            model._meta.get_field(field.name)
        except FieldDoesNotExist:
            missing.append(field.name)
    if missing:
        raise DeclarationError(
            f"{cls.__qualname__}: {model.__name__} has no field for {missing}"
        )
    return model
