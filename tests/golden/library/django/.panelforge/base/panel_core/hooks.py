"""What a resource class may override to make the panel yours, and what hooks raise.

Override these in your resource class (``app/hooks/<name>.py``); panelforge never
overwrites that file. Each may be a plain method or, in FastAPI projects, ``async``::

    from panel_core.hooks import Forbidden, ValidationError

    class Order(GeneratedOrder):
        def before_deleting(self, record, user):
            if record["paid"]:
                raise Forbidden("Paid orders cannot be deleted.")

Lifecycle hooks run for JSON and page requests alike, inside the transaction of the
write: anything they raise undoes it. ``ValidationError({"field": ["message"]})``
answers 422 (the message shows beside the field on form pages), ``Forbidden("why")``
403; anything else is a 500, its traceback logged. ``data`` maps field names to
values; a ``before_*`` hook returns the data to write (``None`` keeps it as it is).
``record`` is the record as the JSON API returns it.

``scope(query, user)`` narrows every query of the resource (list, show, update,
delete, mass delete, export, pickers): a record outside it is not found (404).
``can(ability, user, record=None)`` decides what a user may do; by default it reads
the roles declared in the manifest (``panel_core.abilities``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .abilities import Roles, role_of
from .errors import Forbidden, InvalidInput

__all__ = ["Forbidden", "ResourceHooks", "ValidationError", "HOOKS", "NOT_A_FIELD"]

# The key of messages about the whole record rather than one field (as in Django).
NOT_A_FIELD = "__all__"

HOOKS = (
    "before_creating",
    "after_created",
    "before_updating",
    "after_updated",
    "before_deleting",
    "after_deleted",
    "before_mass_deleting",
    "after_mass_deleted",
)


class ValidationError(InvalidInput):
    """Refuse a write with 422: ``{"field": ["message", …]}``, or one message."""

    def __init__(self, errors: Mapping[str, Sequence[str] | str] | str) -> None:
        if isinstance(errors, str):
            errors = {NOT_A_FIELD: [errors]}
        super().__init__(
            {
                name: [messages] if isinstance(messages, str) else messages
                for name, messages in errors.items()
            }
        )


class ResourceHooks:
    """The overridable behaviour of a resource; every default changes nothing."""

    # The manifest's name of the resource ("Patient"), which roles refer to.
    name: str = ""
    # Set by the registry when the panel starts: the roles ``can`` reads.
    roles: Roles = Roles()

    def before_creating(self, data: dict[str, Any], user: Any) -> Any:
        """The values of a new record, before it is inserted."""
        return data

    def after_created(self, record: dict[str, Any], user: Any) -> Any:
        """The record just inserted (same transaction)."""

    def before_updating(
        self, record: dict[str, Any], data: dict[str, Any], user: Any
    ) -> Any:
        """The changed values of ``record``, before they are written."""
        return data

    def after_updated(self, record: dict[str, Any], user: Any) -> Any:
        """The record as it is now (same transaction)."""

    def before_deleting(self, record: dict[str, Any], user: Any) -> Any:
        """The record about to be deleted."""

    def after_deleted(self, record: dict[str, Any], user: Any) -> Any:
        """The record just deleted, as it was (same transaction)."""

    def before_mass_deleting(self, ids: list[Any], user: Any) -> Any:
        """The keys about to be deleted together; return the keys to delete."""
        return ids

    def after_mass_deleted(self, ids: list[Any], user: Any) -> Any:
        """The keys just deleted (same transaction)."""

    def scope(self, query: Any, user: Any) -> Any:
        """The records ``user`` may reach: narrow ``query`` (a ``Select``/``QuerySet``)."""
        return query

    def can(self, ability: str, user: Any, record: Any = None) -> Any:
        """Whether ``user`` may ``ability`` (on ``record``); by default, by role."""
        return self.roles.allows(role_of(user), self.name, ability)
