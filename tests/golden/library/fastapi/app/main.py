"""The application: ``create_app()`` builds it, ``app`` is what uvicorn serves."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.core.config import Settings, get_settings
from app.core.db import create_db_engine
from app.core.readers import loop_reader
from app.oag.routes import install_docs
from app.pages import PAGES
from app.panel.actions import router as actions_router
from app.panel.dashboard import router as dashboard_router
from app.panel.errors import install_error_handlers
from app.panel.files import router as files_router
from app.panel.login import router as login_router
from app.panel.not_migrated import install_migration_errors, warn_if_not_migrated
from app.panel.pages import install_page_errors
from app.panel.pages import router as pages_router
from app.panel.record_actions import router as record_actions_router
from app.panel.registry import Registry
from app.panel.routes import crud_routes
from app.panel.stack import check_settings, configure_auth, panel_middleware
from app.panel.templating import STATIC_DIR, STATIC_URL
from app.panel.trash import router as trash_router
from app.panel.unavailable import check_database
from app.panel.urls import mount_panel
from app.resources import RESOURCES
from app.roles import ROLES
from panel_core.abilities import RoleTable
from panel_core.current import Site
from panel_core.pages import Page
from panel_core.resource import Resource
from panel_core.storage import storage_from


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    check_settings(app.state.settings)  # refuse to start without the secrets needed
    # Start anyway: the database may come up later, `python -m app migrate` follow.
    if check_database(app):
        warn_if_not_migrated(app)
    yield
    app.state.engine.dispose()


def create_app(
    settings: Settings | None = None,
    resources: Iterable[type[Resource]] = RESOURCES,
    pages: Iterable[type[Page]] = PAGES,
    roles: RoleTable = ROLES,
) -> FastAPI:
    """A new application for ``settings`` (default: from the environment)."""
    settings = settings or get_settings()
    prefix = mount_panel(settings.panel_prefix)  # before any URL is built
    app = FastAPI(
        title=settings.panel_title,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_lifespan,
        # A trailing slash: 308 for GET and HEAD, else 404 (panel/http_methods.py).
        redirect_slashes=False,
        middleware=panel_middleware(settings),
    )
    app.state.settings = settings
    configure_auth(app, settings)
    app.state.engine = create_db_engine(settings.database_url)
    app.state.reader = loop_reader(app.state.engine)
    app.state.storage = storage_from(settings.storage_url, settings.media_root)
    app.state.registry = Registry(
        resources,
        max_per_page=settings.max_per_page,
        max_ids=settings.max_mass_delete,
        roles=roles,
        trim_strings=settings.trim_strings,
    )
    app.state.site = Site((p.resource for p in app.state.registry), pages)
    app.router.routes.extend(crud_routes(prefix))
    app.include_router(record_actions_router, prefix=prefix)
    app.include_router(actions_router, prefix=prefix)
    app.include_router(login_router, prefix=prefix)
    app.include_router(dashboard_router, prefix=prefix)
    app.include_router(trash_router, prefix=prefix)
    app.include_router(files_router, prefix=prefix)
    install_docs(app, settings)
    # Last: "/resource/{resourceUri}/{pageUri}" would also match the routes above.
    app.include_router(pages_router, prefix=prefix)
    app.mount(STATIC_URL, StaticFiles(directory=STATIC_DIR), name="static")
    install_error_handlers(app)
    install_page_errors(app)
    install_migration_errors(app)
    return app


app = create_app()
