"""The application: ``create_app()`` builds it, ``app`` is what uvicorn serves."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.core.config import Settings, get_settings
from app.core.db import create_db_engine
from app.panel.core.resource import Resource
from app.panel.errors import install_error_handlers
from app.panel.registry import Registry
from app.panel.routes import router as panel_router
from app.panel.urls import PREFIX
from app.resources import RESOURCES


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    yield
    app.state.engine.dispose()


def create_app(
    settings: Settings | None = None, resources: Iterable[type[Resource]] = RESOURCES
) -> FastAPI:
    """A new application for ``settings`` (default: from the environment)."""
    settings = settings or get_settings()
    app = FastAPI(
        title=settings.panel_title,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_lifespan,
    )
    app.state.settings = settings
    app.state.engine = create_db_engine(settings.database_url)
    app.state.registry = Registry(
        resources,
        max_per_page=settings.max_per_page,
        max_ids=settings.max_mass_delete,
    )
    app.include_router(panel_router, prefix=PREFIX)
    install_error_handlers(app)
    return app


app = create_app()
