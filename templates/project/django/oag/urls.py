"""The docs URLs: ``/docs``, OAG_ROUTE (the JSON spec) and the YAML spec beside it.

Their names are FastAPI's (``oag.docs``, and the routes themselves: ``oag.json``,
``oag.yaml``), outside any namespace. With ``DOCS_ACCESS=off`` there are none.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import URLPattern, path

from panel_core.oag import DOCS_PATH, DOCS_ROUTE_NAME, route_path, yaml_route

from . import views


def _route(url_path: str) -> str:
    return url_path.removeprefix("/")


def _patterns() -> list[URLPattern]:
    if settings.DOCS_ACCESS == "off":
        return []
    json_name = settings.OAG_ROUTE
    yaml_name = yaml_route(json_name)
    return [
        path(_route(DOCS_PATH), views.docs, name=DOCS_ROUTE_NAME),
        path(_route(route_path(json_name)), views.spec_json, name=json_name),
        path(_route(route_path(yaml_name)), views.spec_yaml, name=yaml_name),
    ]


urlpatterns = _patterns()
