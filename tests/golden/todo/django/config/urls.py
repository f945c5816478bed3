"""The project's URLs: the OpenAPI docs, and the panel under ``/admin``.

The panel's URLs have no trailing slash (``/admin``, ``/admin/resource/<uri>/crud``;
``APPEND_SLASH = False``), so its mount has none either. Its links, redirects and
OpenAPI paths are built for ``/admin``: mounted anywhere else, the panel refuses to
start and says so (``panel.E005``).

Django's error handlers are the panel's (``panel.errors``): unknown paths, refused
bodies and server errors are answered in JSON to JSON clients, as pages otherwise.
"""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("", include("oag.urls")),
    path("admin", include("panel.urls")),
]

handler400 = "panel.errors.bad_request"
handler404 = "panel.errors.not_found"
handler500 = "panel.errors.server_error"
