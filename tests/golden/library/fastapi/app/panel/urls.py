"""Panel URLs: nothing else joins strings into paths.

The route names (``crud.index``, ``crud.update``…) resolve with ``url_path_for``; the
hot paths use the same shapes, computed once per resource at start-up instead.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

PREFIX = "/admin"
# The crud router's prefix, under PREFIX; its routes add "" or "/{resourceItem}".
CRUD = "/resource/{resourceUri}/crud"


def crud_url(resource_uri: str) -> str:
    """Where a resource lists, creates and mass-deletes records."""
    return PREFIX + CRUD.format(resourceUri=quote(resource_uri, safe=""))


def record_url(crud: str, key: Any) -> str:
    """Where one record is shown, updated and deleted, below its ``crud_url``."""
    return f"{crud}/{quote(str(key), safe='')}"


def form_page_url(resource_uri: str, key: Any = None) -> str:
    """The resource's form page: create, or edit the record with ``key``."""
    # The page routes come with the HTML pages; until then this is the one place
    # that knows their shape.
    path = f"{PREFIX}/resource/{quote(resource_uri, safe='')}/form-page"
    return path if key is None else f"{path}/{quote(str(key), safe='')}"
