"""The project's URLs: the OpenAPI docs, then the panel under ``/admin``.

Django's error handlers are the panel's (``panel.errors``): unknown paths, refused
bodies and server errors are answered in JSON to JSON clients, as pages otherwise.
"""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("", include("oag.urls")),
    path("", include("panel.urls")),
]

handler400 = "panel.errors.bad_request"
handler404 = "panel.errors.not_found"
handler500 = "panel.errors.server_error"
