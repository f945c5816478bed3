"""The docs routes, outside /admin: ``/docs`` (Swagger UI) and the JSON and YAML spec.

``DOCS_ACCESS`` decides who reaches them: anyone, logged-in users (the panel's own
authentication), or nobody (the routes do not exist: 404). Swagger UI's files are
served from the project itself, so the page loads nothing from elsewhere.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, FastAPI, Request, Response
from fastapi.responses import HTMLResponse
from starlette.staticfiles import StaticFiles

from app.core.config import PROJECT_DIR, Settings
from app.panel.auth import authenticated
from app.panel.sessions import stored_csrf_token
from app.panel.stack import uses_jwt
from panel_core import assets
from panel_core.docs_page import PAGE_HEADERS, SPEC_MEDIA_TYPES, docs_template
from panel_core.oag import (
    DOCS_PATH,
    DOCS_ROUTE_NAME,
    SpecKind,
    SpecSource,
    route_path,
    swagger_config,
    yaml_route,
)
from panel_core.resource import Resource

from .spec import spec_options

ASSETS_PATH = f"{DOCS_PATH}/assets"
ASSETS_ROUTE_NAME = "oag.assets"
_READ = ["GET", "HEAD"]


class DocsRoutes:
    """The endpoints of one app's docs, configured once from its settings."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.source = SpecSource(PROJECT_DIR, settings.oag_path, spec_options(settings))
        self.template = docs_template(
            settings.oag_view,
            builtin_dir=assets.DOCS_TEMPLATES_DIR,
            project_dir=PROJECT_DIR,
        )
        self.jwt = uses_jwt(settings)

    def _asset(self, request: Request, path: str) -> str:
        url = request.app.url_path_for(ASSETS_ROUTE_NAME, path=path)
        return request.scope.get("root_path", "") + str(url)

    def page_context(self, request: Request) -> dict[str, Any]:
        """What the docs template sees."""
        spec_url = request.scope.get("root_path", "") + str(
            request.app.url_path_for(self.settings.oag_route)
        )
        return {
            "title": self.settings.oag_title,
            "spec_url": spec_url,
            # Only a logged-in session holds one: anonymous readers get no session.
            "csrf_token": stored_csrf_token(request),
            "config": swagger_config(spec_url, jwt=self.jwt),
            "css_url": self._asset(request, "swagger-ui/swagger-ui.css"),
            "bundle_url": self._asset(request, "swagger-ui/swagger-ui-bundle.js"),
            "script_url": self._asset(request, "docs.js"),
        }

    async def docs(self, request: Request) -> Response:
        """The API documentation, with Swagger UI."""
        html = self.template.render(self.page_context(request))
        return HTMLResponse(html, headers=PAGE_HEADERS)

    def spec_json(self, request: Request) -> Response:
        """The OpenAPI document as JSON."""
        return self._spec(request, "json")

    def spec_yaml(self, request: Request) -> Response:
        """The OpenAPI document as YAML."""
        return self._spec(request, "yaml")

    def _spec(self, request: Request, kind: SpecKind) -> Response:
        resources: list[type[Resource]] = [
            type(panel.resource) for panel in request.app.state.registry
        ]
        return Response(
            self.source.read(kind, resources),
            media_type=SPEC_MEDIA_TYPES[kind],
            headers={"X-Content-Type-Options": "nosniff"},
        )


def install_docs(app: FastAPI, settings: Settings) -> None:
    """Add /docs, the spec routes and Swagger UI's files to ``app``, as configured."""
    if settings.docs_access == "off":
        return
    guards = [Depends(authenticated)] if settings.docs_access == "authenticated" else []
    routes = DocsRoutes(settings)
    router = APIRouter(dependencies=guards)
    json_route = settings.oag_route
    router.add_api_route(DOCS_PATH, routes.docs, methods=_READ, name=DOCS_ROUTE_NAME)
    router.add_api_route(
        route_path(json_route), routes.spec_json, methods=_READ, name=json_route
    )
    yaml_name = yaml_route(json_route)
    router.add_api_route(
        route_path(yaml_name), routes.spec_yaml, methods=_READ, name=yaml_name
    )
    app.include_router(router)
    app.mount(
        ASSETS_PATH, StaticFiles(directory=assets.DOCS_STATIC_DIR), ASSETS_ROUTE_NAME
    )
