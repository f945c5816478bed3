"""Panel URLs: nothing else joins strings into paths, or accepts a path a client names.

The route names (``crud.index``, ``crud.update``…) resolve with ``url_for``; the hot
paths use the same shapes, computed once per resource at start-up instead.
``safe_path`` is the one check of the targets a request names (``next``,
``_redirect``): only paths on this site pass.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, urlsplit

from .routes import DEFAULT_PREFIX, mount_panel, panel_prefix, url_for

__all__ = [
    "CRUD",
    "DEFAULT_PREFIX",
    "crud_url",
    "form_page_url",
    "login_url",
    "mount_panel",
    "page_url",
    "panel_prefix",
    "record_url",
    "safe_path",
]

# The crud routes' prefix, under the panel's; they add "" or "/{resourceItem}".
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


def safe_path(target: str | None, fallback: str | None = None) -> str:
    """``target`` when it is a path on this site, else ``fallback`` (the panel).

    Anything else (another host, a scheme, a backslash or a control character a
    browser would read differently) becomes the fallback.
    """
    fallback = panel_prefix() if fallback is None else fallback
    if not target or not target.startswith("/") or target.startswith("//"):
        return fallback
    if any(c == "\\" or ord(c) < 32 or ord(c) == 127 for c in target):
        return fallback
    try:
        parts = urlsplit(target)
    except ValueError:
        return fallback
    if parts.scheme or parts.netloc:
        return fallback
    return target
