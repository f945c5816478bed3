"""Groups of fields no two records share the values of (``unique_together``).

Each store checks a write against them before writing (422, the message under the
group's first field) and again after the database refused a write, so a race lost at
commit answers the same 422. A group whose value is null in any member never
collides, as in SQL: NULL equals nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .resource import Resource


@dataclass(frozen=True)
class UniqueGroup:
    """Fields whose values, together, belong to one record at most."""

    names: tuple[str, ...]
    message: str

    def values(
        self,
        written: Mapping[str, Any],
        stored: Callable[[Sequence[str]], Mapping[str, Any]] | None = None,
    ) -> dict[str, Any] | None:
        """The group's values after a write, or ``None`` when it cannot collide.

        A create gives every value; an update that names a member reads the others
        with ``stored``; an update naming none of them changes nothing here.
        """
        if not any(name in written for name in self.names):
            return None
        missing = [name for name in self.names if name not in written]
        found = dict(stored(missing)) if stored is not None and missing else {}
        values = {name: written.get(name, found.get(name)) for name in self.names}
        return None if any(v is None for v in values.values()) else values


def unique_groups(resource: type[Resource]) -> tuple[UniqueGroup, ...]:
    """The resource's groups, each with its 422 message; a composite key's parts
    are the first (a pair already stored is refused like any taken group)."""
    groups = [resource.key_parts] if resource.key_parts else []
    return tuple(
        UniqueGroup(tuple(names), taken_message(resource, names))
        for names in [*groups, *resource.unique_together]
    )


def listed_labels(resource: type[Resource], names: Sequence[str]) -> str:
    """``Author, Title and Edition``: the labels of a group's fields."""
    labels = [resource.field_map[name].label for name in names]
    return ", ".join(labels[:-1]) + " and " + labels[-1]


def taken_message(resource: type[Resource], names: Sequence[str]) -> str:
    """``The Author and Title have already been taken.``"""
    return f"The {listed_labels(resource, names)} have already been taken."
