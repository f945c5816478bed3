"""The panel's URLs: every route of the kernel's table, by name, in ``panel``.

``config/urls.py`` mounts them (``path("admin", include("panel.urls"))``); the kernel
builds its links for that mount (``panel.mount``).
Patterns come from ``panel_core.routes.ROUTES``, so ``reverse("panel:crud.update",
kwargs={"resourceUri": "book-resource", "resourceItem": 5})`` and the kernel's
``url_for("crud.update", ...)`` give the same path. Routes sharing a path (list, store
and mass delete) share one view, which dispatches on the HTTP method.
"""

from __future__ import annotations

import re

from django.urls import URLPattern, path

from panel_core.routes import ROUTES

from .views import VIEWS

app_name = "panel"

_PLACEHOLDER = re.compile(r"{(\w+)}")


def django_route(pattern: str) -> str:
    """``/admin/resource/{resourceUri}/crud`` → ``admin/resource/<str:resourceUri>/crud``."""
    return _PLACEHOLDER.sub(r"<str:\1>", pattern.removeprefix("/"))


def mounted_route(pattern: str) -> str:
    """``/resource/{resourceUri}/crud`` → ``/resource/<str:resourceUri>/crud``, below
    the mount (a leading slash is Django's way with ``APPEND_SLASH = False``)."""
    return _PLACEHOLDER.sub(r"<str:\1>", pattern)


def _patterns() -> list[URLPattern]:
    patterns = []
    for route in ROUTES.values():
        for pattern in route.paths:
            patterns.append(
                path(mounted_route(pattern), VIEWS[route.name], name=route.name)
            )
    return patterns


urlpatterns = _patterns()
