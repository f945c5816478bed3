"""The trash of a resource with ``soft_delete``: its URLs and what its page shows.

A delete moves such a record to the trash (its ``deleted_at`` is set); lists, pages,
pickers and the API then leave it out. The trash lists those records (a page, and
JSON for a client naming ``application/json``, paginated like the list); each may be
restored (``crud.restore``, ability ``restore``) or deleted for good
(``crud.forceDelete``, ability ``force_delete``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import NotFound
from .pagination import PageUrls, page_navigation, paginator
from .query import ListQuery
from .registry import PanelResource
from .routes import url_for
from .table import columns, rows
from .translation import gettext
from .urls import page_url

Abilities = Mapping[str, bool]
Labels = Mapping[str, Mapping[Any, str]]


def trash_url(resource_uri: str) -> str:
    """The trash of a resource: its page, or its JSON list."""
    return url_for("crud.trash", {"resourceUri": resource_uri})


def restore_url(resource_uri: str, key: Any) -> str:
    """Where a trashed record is restored (``POST``)."""
    return url_for("crud.restore", {"resourceUri": resource_uri, "resourceItem": key})


def force_delete_url(resource_uri: str, key: Any) -> str:
    """Where a trashed record is deleted for good (``DELETE``)."""
    params = {"resourceUri": resource_uri, "resourceItem": key}
    return url_for("crud.forceDelete", params)


def require_trash(panel: PanelResource[Any]) -> None:
    """404 for the trash routes of a resource that deletes for good."""
    if not type(panel.resource).soft_delete:
        raise NotFound(
            gettext("%(title)s have no trash") % {"title": panel.resource.title}
        )


def trash_context(
    panel: PanelResource[Any],
    params: Sequence[tuple[str, str]],
    query: ListQuery,
    *,
    items: Sequence[dict[str, Any]],
    total: int | None,
    labels: Labels,
    can: Abilities,
) -> dict[str, Any]:
    """The trash page: the trashed records of this page, each with its actions."""
    resource = type(panel.resource)
    here = trash_url(panel.uri)
    page = paginator(
        items,
        total=total,
        page=query.page,
        per_page=query.per_page,
        urls=PageUrls(here, params),
    )
    shown = rows(resource, items, labels)
    return {
        "can": can,
        "resource": resource,
        "label": panel.store.label,
        "index_url": page_url(panel.uri, "index-page"),
        "here": here,
        "columns": columns(resource, ()),
        "rows": [
            {
                "key": row.key,
                "cells": row.cells,
                "restore_url": restore_url(panel.uri, row.key),
                "force_delete_url": force_delete_url(panel.uri, row.key),
            }
            for row in shown
        ],
        "page": page,
        "page_navigation": page_navigation(page),
    }
