"""The tests' customised resources: lifecycle hooks, a scope, rules per record, roles.

Each is the tests' gadget resource (``tests.gadgets``) with something overridden, as a
project's ``app/hooks/<name>.py`` would; ``serve`` makes the panel serve one of them
alone with ``PartResource``, under the roles of ``ROLES``. ``Part`` is a second
test-only model: a part belongs to a gadget, so the forms' pickers and the relation
checks have a target whose scope applies. ``part_table`` creates its table for a
module's tests, as ``gadget_table`` does the gadgets'.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, models

from panel.hooks import Forbidden, ValidationError
from panel_core.fields import ID, BelongsTo, Text
from panel_core.resource import Resource
from tests.gadgets import Gadget, GadgetResource, serve_gadgets

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
# Who the scope was asked for.
SCOPED: list[str] = []


class Part(models.Model):
    """A row of the parts' table: a part of a gadget."""

    name = models.CharField(max_length=50)
    gadget = models.ForeignKey(
        Gadget, models.SET_NULL, db_column="gadget", related_name="+", null=True
    )

    class Meta:
        app_label = "panel_tests"
        db_table = "panel_test_parts"

    def __str__(self) -> str:
        return self.name


class PartResource(Resource):
    """Parts, each pointing at a gadget."""

    title = "Parts"
    model = Part
    fields = (
        ID(),
        Text("name", max_length=50, required=True),
        BelongsTo("gadget", resource="gadget-resource"),
    )


def _stored(key: Any) -> bool:
    """Whether the gadget ``key`` is in the table, as this transaction sees it."""
    found: bool = Gadget.objects.filter(pk=key).exists()
    return found


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

    ``after_updated`` and ``after_deleted`` are ``async def``, as hooks may be.
    """

    def before_creating(self, data: dict[str, Any], user: Any) -> dict[str, Any]:
        CALLS.append(("before_creating", dict(data)))
        _refuse(data.get("name"))
        return {**data, "notes": f"Added by {user.get_username()}."}

    def after_created(self, record: dict[str, Any], user: Any) -> None:
        CALLS.append(("after_created", record, _stored(record["id"])))
        if record["name"] == "Explode":
            raise RuntimeError("after_created failed")

    def before_updating(
        self, record: dict[str, Any], data: dict[str, Any], user: Any
    ) -> dict[str, Any]:
        CALLS.append(("before_updating", record["name"], dict(data)))
        _refuse(data.get("name"))
        return {**data, "notes": f"Changed by {user.get_username()}."}

    async def after_updated(self, record: dict[str, Any], user: Any) -> None:
        # Django's async queries run in the request's thread: its transaction.
        written = Gadget.objects.filter(pk=record["id"], name=record["name"])
        CALLS.append(("after_updated", record, await written.aexists()))
        if record["name"] == "Explode":
            raise RuntimeError("after_updated failed")

    def before_deleting(self, record: dict[str, Any], user: Any) -> None:
        CALLS.append(("before_deleting", record["name"]))
        if record["stock"]:
            raise Forbidden("Gadgets in stock cannot be deleted.")

    async def after_deleted(self, record: dict[str, Any], user: Any) -> None:
        CALLS.append(("after_deleted", record["name"]))
        if record["name"] == "Explode":
            raise RuntimeError("after_deleted failed")

    def before_mass_deleting(self, ids: list[Any], user: Any) -> list[Any]:
        CALLS.append(("before_mass_deleting", sorted(ids)))
        stocked = Gadget.objects.filter(pk__in=ids, stock__gt=0)
        kept = set(stocked.values_list("pk", flat=True))
        return [key for key in ids if key not in kept]

    def after_mass_deleted(self, ids: list[Any], user: Any) -> None:
        CALLS.append(("after_mass_deleted", sorted(ids)))


class ScopedGadgets(GadgetResource):
    """Inactive gadgets are out of everybody's reach."""

    def scope(self, query: Any, user: Any) -> Any:
        SCOPED.append(user.get_username())
        return query.filter(active=True)


class RuledGadgets(GadgetResource):
    """Toys are never changed nor deleted; the roles decide the rest (async)."""

    async def can(self, ability: str, user: Any, record: Any = None) -> bool:
        toy = record is not None and record["kind"] == "toy"
        if toy and ability in ("update", "delete"):
            return False
        allowed: bool = super().can(ability, user, record)
        return allowed


def part_table(blocker: Any) -> Iterator[None]:
    """The parts' table, for a module's tests (after the gadgets' one)."""
    with blocker.unblock(), connection.schema_editor() as editor:
        editor.create_model(Part)
    yield
    with blocker.unblock(), connection.schema_editor() as editor:
        editor.delete_model(Part)


def serve(
    monkeypatch: pytest.MonkeyPatch, gadgets: type[GadgetResource]
) -> Iterator[None]:
    """Serve ``gadgets`` and the parts under ``ROLES``, for one test (a fixture)."""
    CALLS.clear()
    SCOPED.clear()
    monkeypatch.setattr("app.roles.ROLES", ROLES)
    yield from serve_gadgets(monkeypatch, (gadgets, PartResource))
