"""Running a resource's hooks, scope and abilities for one user: the ``Actor``.

``Lifecycle`` finds once, when the panel starts, what a resource class overrides
(``panel_core.hooks``); an ``Actor`` is one user acting on that resource. The stores
call the actor inside their write transactions, so a hook that raises undoes the write.
What a resource does not override costs nothing: no call, no extra query.

Hooks and ``can`` may be ``async``: the runtime passes an ``awaiter`` that runs an
awaitable to its end from the store's thread (FastAPI's event loop, or asgiref).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from .abilities import DELETE, UPDATE, VIEW
from .errors import Forbidden, InvalidInput
from .hooks import HOOKS, NOT_A_FIELD, ResourceHooks
from .translation import gettext

Awaiter = Callable[[Awaitable[Any]], Any]
# The abilities a user-written ``can`` may answer per record.
RECORD_ABILITIES = frozenset({VIEW, UPDATE, DELETE})


class HookError(TypeError):
    """A hook returned something that is not the data to write."""


def _overrides(cls: type, name: str) -> bool:
    return getattr(cls, name) is not getattr(ResourceHooks, name)


class Lifecycle:
    """What one resource customises, found once."""

    def __init__(self, resource: Any) -> None:
        cls = type(resource)
        self.resource = resource
        self.hooks = frozenset(name for name in HOOKS if _overrides(cls, name))
        self.scoped = _overrides(cls, "scope")
        # A user-written ``can`` may look at the record: ask it with the record.
        self.record_rules = _overrides(cls, "can")
        # Nothing to ask: the roles' ``can`` with no roles declared lets everyone in.
        self.open = not self.record_rules and not resource.roles.declared
        self._where = f"{cls.__module__}.{cls.__qualname__}"
        self._fields = frozenset(f.name for f in cls.fields if not f.key)

    def actor(self, user: Any, awaiter: Awaiter) -> Actor:
        """``user`` acting on this resource."""
        return Actor(self, user, awaiter)

    def needs_record(self, ability: str) -> bool:
        """Whether writing with ``ability`` must read the record first."""
        before, after = {
            UPDATE: ("before_updating", "before_updating"),
            DELETE: ("before_deleting", "after_deleted"),
        }.get(ability, ("", ""))
        return (
            self.scoped
            or (self.record_rules and ability in RECORD_ABILITIES)
            or before in self.hooks
            or after in self.hooks
        )

    def checked_data(self, name: str, given: Mapping[str, Any], returned: Any) -> Any:
        """What a ``before_*`` hook returned, if it is data to write."""
        if returned is None:
            return dict(given)
        if not isinstance(returned, Mapping):
            raise HookError(
                f"{self._where}.{name} returned {type(returned).__name__}, "
                "not the data to write (a dict, or None to keep it)"
            )
        unknown = sorted(set(returned) - self._fields)
        if unknown:
            raise HookError(
                f"{self._where}.{name} returned unknown fields: {', '.join(unknown)}"
            )
        return dict(returned)


class Actor:
    """One user acting on one resource: abilities, scope and hooks."""

    def __init__(
        self,
        lifecycle: Lifecycle,
        user: Any,
        awaiter: Awaiter,
        *,
        rehearsal: bool = False,
    ) -> None:
        self.lifecycle = lifecycle
        self.user = user
        self._resource = lifecycle.resource
        self._await = awaiter
        # An import's preview, rolled back: its ``after_*`` hooks do not run.
        self.rehearsal = rehearsal

    def acting_on(self, lifecycle: Lifecycle) -> Actor:
        """The same user acting on another resource (a relation's target)."""
        return Actor(lifecycle, self.user, self._await, rehearsal=self.rehearsal)

    def rehearsing(self) -> Actor:
        """The same user in a write that is rolled back (an import's preview)."""
        return Actor(self.lifecycle, self.user, self._await, rehearsal=True)

    def _run(self, answer: Any) -> Any:
        return self._await(answer) if inspect.isawaitable(answer) else answer

    def allowed(self, ability: str, record: Any = None) -> bool:
        """Whether the user may ``ability`` (on ``record``)."""
        return bool(self._run(self._resource.can(ability, self.user, record)))

    def authorize(self, ability: str, record: Any = None) -> None:
        """Refuse with 403 unless the user may ``ability`` (on ``record``)."""
        if not self.allowed(ability, record):
            raise Forbidden()

    def authorize_record(self, ability: str, record: Any) -> None:
        """``authorize`` with the record, when a user-written ``can`` may need it."""
        if self.lifecycle.record_rules:
            self.authorize(ability, record)

    def scope(self, query: Any) -> Any:
        """``query`` narrowed to what the user may reach."""
        if not self.lifecycle.scoped:
            return query
        return self._run(self._resource.scope(query, self.user))

    def _hook(self, name: str, *args: Any) -> Any:
        return self._run(getattr(self._resource, name)(*args, self.user))

    def _data(self, name: str, data: dict[str, Any], *args: Any) -> dict[str, Any]:
        if name not in self.lifecycle.hooks:
            return data
        returned = self._hook(name, *args, data)
        checked: dict[str, Any] = self.lifecycle.checked_data(name, data, returned)
        return checked

    def before_creating(self, data: dict[str, Any]) -> dict[str, Any]:
        """The values to insert, as ``before_creating`` leaves them."""
        return self._data("before_creating", data)

    def before_updating(
        self, record: dict[str, Any], data: dict[str, Any]
    ) -> dict[str, Any]:
        """The values to write, as ``before_updating`` leaves them."""
        return self._data("before_updating", data, record)

    def before_mass_deleting(self, ids: Sequence[Any]) -> list[Any]:
        """The keys to delete, as ``before_mass_deleting`` leaves them."""
        if "before_mass_deleting" not in self.lifecycle.hooks:
            return list(ids)
        returned = self._hook("before_mass_deleting", list(ids))
        return list(ids) if returned is None else list(returned)

    def run_action(
        self, function: Any, records: list[dict[str, Any]], data: dict[str, Any]
    ) -> Any:
        """Call an action's function; a ``ValueError`` it raises is a 422."""
        try:
            return self._run(function(records, data, self.user))
        except ValueError as exc:
            raise InvalidInput(
                {NOT_A_FIELD: [str(exc) or gettext("The action failed.")]}
            ) from exc

    def notify(self, name: str, *args: Any) -> None:
        """Run the hook ``name`` (``after_created``, ``before_deleting``…) if defined."""
        if self.rehearsal and name.startswith("after_"):
            return
        if name in self.lifecycle.hooks:
            self._hook(name, *args)
