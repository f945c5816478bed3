"""The ``docs`` block's routes against the panel's own (M037).

``docs.route`` serves the JSON spec, and the YAML one beside it (``oag.yaml``), at the
root of the site and under that route name. A path the panel serves itself (``/admin``
and below, ``/docs`` and its assets, ``/static``) or a route name the panel gives its
own pages (``login``, ``index``…) would hide one or the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from .yamlnodes import Document

CODE = "M037"
# The first path segments the panel serves: its pages, the docs page and its
# assets, the static files.
_PANEL_PATHS = ("admin", "docs", "static")
# The names of the panel's routes (FastAPI looks routes up by these names).
_PANEL_NAMES = frozenset(
    (
        "index login authenticate logout handler resource.page page method component"
        " crud.index crud.show crud.store crud.update crud.destroy crud.massDelete"
        " crud.trash crud.restore crud.forceDelete crud.action"
        " oag.docs oag.assets static"
    ).split()
)


def _yaml_route(route: str) -> str:
    """The YAML twin of the JSON spec's route (the kernel's ``yaml_route``)."""
    return route.removesuffix(".json") + ".yaml"


def docs_issues(document: Document, docs: Any) -> Iterator[Issue]:
    """A ``docs.route`` whose spec routes would collide with the panel's."""
    route = docs.get("route") if isinstance(docs, dict) else None
    if not isinstance(route, str):
        return
    for served in (route, _yaml_route(route)):
        first = served.strip("/").split("/")[0]
        if first in _PANEL_PATHS:
            where = "is" if served.strip("/") == first else f"is below '/{first}',"
            message = (
                f"'/{served}' {where} a path the panel serves itself, so the spec "
                "would be hidden"
            )
        elif served in _PANEL_NAMES:
            message = f"'{served}' is the name of one of the panel's own routes"
        else:
            continue
        hint = "use a route outside /admin, /docs and /static, like 'oag.json'"
        yield document.issue(("docs", "route"), message, CODE, hint)
        return
