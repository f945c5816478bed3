"""Has-many fields: the records of other resources that belong to a record.

``tracks`` of an album (``HasMany("tracks", resource="track-resource",
inverse="album")``) are the tracks whose ``album`` is the album. They have no column:
the JSON show answers their keys only when asked (``?with=tracks``, so lists and
plain reads stay one query), and the detail page lists the first page of them, each
named by the child resource's ``display`` and linked to its detail page, with a link
to all of them (the child's list, filtered by the parent) and one to add a child
(the child's create form, the parent filled in). Each framework reads the children
with the child's store, within the user's scope, so trashed ones and those outside
the scope are left out; the answers are shaped here, so both frameworks agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .filters import EQUALS, Filter
from .forms import default_values
from .labels import record_label
from .query import ListQuery, QueryError, Sort
from .resource import HasMany, Resource
from .translation import gettext
from .urls import page_url

# The query parameter of the JSON show naming the has-many fields to include.
WITH = "with"


def asked_children(
    resource: type[Resource], pairs: Iterable[tuple[str, str]]
) -> tuple[HasMany, ...]:
    """The has-many fields ``?with=`` names (comma-separated, repeatable), in the
    order asked; QueryError (a 422 naming the parameter) for any other name."""
    names = [
        name.strip()
        for key, value in pairs
        if key == WITH
        for name in value.split(",")
        if name.strip()
    ]
    unknown = [name for name in names if name not in resource.has_many_map]
    if unknown:
        offered = ", ".join(resource.has_many_map) or "none"
        message = gettext(
            "The with parameter names %(names)s, which is not a has-many field of "
            "this resource (it takes: %(offered)s)."
        ) % {"names": ", ".join(map(repr, unknown)), "offered": offered}
        raise QueryError({WITH: [message]})
    return tuple(resource.has_many_map[name] for name in dict.fromkeys(names))


def with_children(
    record: Mapping[str, Any], keys: Mapping[str, Sequence[Any]]
) -> dict[str, Any]:
    """The record's JSON answer with the children's keys of each field asked."""
    return {**record, **{name: list(found) for name, found in keys.items()}}


def children_query(child: type[Resource], many: HasMany, key: Any) -> ListQuery:
    """The first page of the children of record ``key``, in key order."""
    child_key = child.key_name()
    return ListQuery(
        page=1,
        per_page=child.per_page,
        sort=(Sort(child_key),),
        filters=(Filter(many.inverse, EQUALS, key),),
        key=child_key,
    )


def children_section(
    many: HasMany,
    child: type[Resource],
    key: Any,
    items: Sequence[Mapping[str, Any]],
    total: int | None,
    can: Mapping[str, bool],
) -> dict[str, Any]:
    """What the detail page shows of one has-many field: its children's names and
    links, "Show all N" when there are more than one page, and "Add one" (when the
    user may create children, and the form may set the parent)."""
    child_key = child.key_name()
    count = len(items) if total is None else total
    shown = [
        (
            record_label(child, item[child_key], item),
            page_url(many.resource, "detail-page", item[child_key]),
        )
        for item in items
    ]
    everything = {f"filter[{many.inverse}]": key}
    return {
        "name": many.name,
        "label": many.label,
        "children": shown,
        "total": count,
        "all_url": (
            page_url(many.resource, "index-page", query=everything)
            if count > len(shown)
            else None
        ),
        "add_url": (
            page_url(many.resource, "form-page", query={many.inverse: key})
            if can.get("create") and child.field_map[many.inverse].writable
            else None
        ),
    }


def prefilled_values(
    resource: type[Resource], pairs: Iterable[tuple[str, str]]
) -> dict[str, str] | None:
    """What a create form starts with when its URL names fields (``?album=7``, as
    "Add one" does): the defaults, those fields' values over them; ``None`` when it
    names none."""
    given = {
        name: value
        for name, value in pairs
        if name in resource.field_map and resource.field_map[name].writable
    }
    if not given:
        return None
    return {**default_values(resource), **given}
