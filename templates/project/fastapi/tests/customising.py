"""The tests' customised resources: lifecycle hooks, a scope, rules per record, roles.

Each is the tests' gadget resource (``tests.gadgets``) with something overridden, as a
project's ``app/hooks/<name>.py`` would; ``serve`` makes an app serving one of them
with ``PartResource``, under the roles of ``ROLES``. ``Part`` is a second test-only
model: a part belongs to a gadget, so the forms' pickers, the list's labels and the
relation checks have a target whose scope applies.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.core.users import User
from app.panel.hooks import Forbidden, ValidationError
from panel_core.abilities import RoleTable
from panel_core.fields import ID, BelongsTo, Text
from panel_core.resource import Resource
from tests.gadgets import Gadget, GadgetResource, gadget_app

ROLES: dict[str, dict[str, tuple[str, ...]]] = {
    "viewer": {"*": ("view_any", "view")},
    "editor": {
        "*": ("view_any", "view"),
        "Gadget": ("create", "update", "restock"),
    },
    "nobody": {},
}
# What the hooks saw, in the order they ran: (hook, what it was given…).
CALLS: list[tuple[Any, ...]] = []
# Whom the scope was asked for.
SCOPED: list[str] = []


class _Base(DeclarativeBase):
    metadata = sa.MetaData()


class Part(_Base):
    """A row of the parts' table: a part of a gadget."""

    __tablename__ = "panel_test_parts"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(50))
    gadget: Mapped[int | None] = mapped_column(sa.Integer)


class PartResource(Resource):
    """Parts, each pointing at a gadget."""

    title = "Parts"
    model = Part
    fields = (
        ID(),
        Text("name", max_length=50, required=True),
        BelongsTo("gadget", resource="gadget-resource"),
    )


def _refuse(name: Any) -> None:
    """The refusals some names stand for."""
    if name == "Forbidden":
        raise Forbidden("Nobody may have a gadget named Forbidden.")
    if name == "Invalid":
        raise ValidationError({"name": ["Choose another name."]})
    if name == "Whole":
        raise ValidationError("This gadget cannot be saved.")


class HookedGadgets(GadgetResource):
    """Every hook, recording what it saw; some names make them refuse or fail.

    ``before_updating``, ``after_updated``, ``after_deleted`` and
    ``before_mass_deleting`` are ``async def``, as hooks may be; the others are not.
    """

    def before_creating(self, data: dict[str, Any], user: User) -> dict[str, Any]:
        CALLS.append(("before_creating", dict(data)))
        _refuse(data.get("name"))
        return {**data, "notes": f"Added by {user.email}."}

    def after_created(self, record: dict[str, Any], user: User) -> None:
        CALLS.append(("after_created", record))
        if record["name"] == "Explode":
            raise RuntimeError("after_created failed")

    async def before_updating(
        self, record: dict[str, Any], data: dict[str, Any], user: User
    ) -> dict[str, Any]:
        CALLS.append(("before_updating", record["name"], dict(data)))
        _refuse(data.get("name"))
        return {**data, "notes": f"Changed by {user.email}."}

    async def after_updated(self, record: dict[str, Any], user: User) -> None:
        CALLS.append(("after_updated", record))
        if record["name"] == "Explode":
            raise RuntimeError("after_updated failed")

    def before_deleting(self, record: dict[str, Any], user: User) -> None:
        CALLS.append(("before_deleting", record["name"]))
        if record["stock"]:
            raise Forbidden("Gadgets in stock cannot be deleted.")

    async def after_deleted(self, record: dict[str, Any], user: User) -> None:
        CALLS.append(("after_deleted", record["name"]))
        if record["name"] == "Explode":
            raise RuntimeError("after_deleted failed")

    async def before_mass_deleting(self, ids: list[Any], user: User) -> list[Any]:
        """Refuses more than five keys; spares the lowest key."""
        CALLS.append(("before_mass_deleting", sorted(ids)))
        if len(ids) > 5:
            raise Forbidden("Delete at most five gadgets at once.")
        return sorted(ids)[1:]

    def after_mass_deleted(self, ids: list[Any], user: User) -> None:
        CALLS.append(("after_mass_deleted", sorted(ids)))


class ScopedGadgets(GadgetResource):
    """Inactive gadgets are out of everybody's reach (an ``async`` scope)."""

    async def scope(self, query: sa.Select[Any], user: User) -> sa.Select[Any]:
        SCOPED.append(user.email)
        return query.where(Gadget.active.is_(True))


class RuledGadgets(GadgetResource):
    """Toys are never changed nor deleted; the roles decide the rest (async)."""

    async def can(self, ability: str, user: User, record: Any = None) -> bool:
        toy = record is not None and record["kind"] == "toy"
        if toy and ability in ("update", "delete"):
            return False
        return bool(super().can(ability, user, record))


def serve(
    template: FastAPI, gadgets: type[GadgetResource], roles: RoleTable = ROLES
) -> Iterator[FastAPI]:
    """An app serving ``gadgets`` and the parts under ``roles`` (for a fixture)."""
    CALLS.clear()
    SCOPED.clear()
    for application in gadget_app(template, (gadgets, PartResource), roles):
        engine = application.state.engine
        _Base.metadata.create_all(engine)
        try:
            yield application
        finally:
            _Base.metadata.drop_all(engine)
