"""Panel URLs: nothing else joins strings into paths.

The route names (``crud.index``, ``crud.update``…) resolve with ``url_path_for``; the
hot paths use the same shapes, computed once per resource at start-up instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote

from .core.routes import PREFIX, url_for

__all__ = ["CRUD", "PREFIX", "crud_url", "form_page_url", "login_url", "page_url"]

# The crud router's prefix, under PREFIX; its routes add "" or "/{resourceItem}".
CRUD = "/resource/{resourceUri}/crud"


def crud_url(resource_uri: str) -> str:
    """Where a resource lists, creates and mass-deletes records."""
    return url_for("crud.index", {"resourceUri": resource_uri})


def record_url(crud: str, key: Any) -> str:
    """Where one record is shown, updated and deleted, below its ``crud_url``."""
    # Hot path: one quote and a join on the precomputed crud URL, same shape as
    # url_for("crud.show", ...) (a test pins the two together).
    return f"{crud}/{quote(str(key), safe='')}"


def form_page_url(resource_uri: str, key: Any = None) -> str:
    """The resource's form page: create, or edit the record with ``key``."""
    return page_url(resource_uri, "form-page", key)


Query = Mapping[str, Any] | Iterable[tuple[str, Any]] | str


def page_url(
    resource_uri: str, page: str, key: Any = None, query: Query | None = None
) -> str:
    """A page of a resource (``index-page``…), of record ``key``, with ``query``."""
    params = {"resourceUri": resource_uri, "pageUri": page, "resourceItem": key}
    if isinstance(query, str):
        path = url_for("resource.page", params)
        return f"{path}?{query}" if query else path
    items = query.items() if isinstance(query, Mapping) else query
    return url_for("resource.page", params, list(items or ()))


def login_url(next_path: str | None = None) -> str:
    """The login page; after logging in, the user goes on to ``next_path``."""
    return url_for("login", query={"next": next_path})
