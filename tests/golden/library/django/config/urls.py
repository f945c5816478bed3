"""The project's URLs: the OpenAPI docs, and the panel under ``/admin``.

Move or nest the panel by editing its ``include()`` (``path("backoffice", ...)``, or
inside another app's URLconf): its links, redirects, login page and OpenAPI paths
follow (``panel.mount``). Its URLs have no trailing slash (``/admin``,
``/admin/resource/<uri>/crud``; ``APPEND_SLASH = False``), so its mount has none
either; a mount it cannot serve keeps it from starting (``panel.E005``).

Django's error handlers are the panel's (``panel.errors``): unknown paths, refused
bodies and server errors are answered in JSON to JSON clients, as pages otherwise.
"""

from __future__ import annotations

from django.urls import include, path

# The panel first: Django tries patterns in order, and its routes are the busy ones.
urlpatterns = [
    path("admin", include("panel.urls")),
    path("", include("oag.urls")),
]

handler400 = "panel.errors.bad_request"
handler404 = "panel.errors.not_found"
handler500 = "panel.errors.server_error"
