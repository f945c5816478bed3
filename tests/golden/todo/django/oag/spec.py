"""The project's OpenAPI document, as ``manage.py oag_generate`` writes it.

The options come from the settings, as in panelforge's FastAPI projects, so both
frameworks (and panelforge itself) write the same bytes for the same resources;
building, writing and serving the document are the kernel's (``panel_core.oag``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from django.conf import settings
from django.utils.module_loading import import_string

from app import oag_config
from panel.jwt_auth import JWTAuthentication
from panel_core.oag import SpecOptions, generate
from panel_core.resource import Resource
from panel_core.routes import panel_prefix


def project_dir() -> Path:
    """The project's folder: OAG_PATH and OAG_VIEW are relative to it."""
    return Path(settings.BASE_DIR)


def uses_jwt() -> bool:
    """Whether requests are authenticated by bearer tokens (JWT mode)."""
    found = import_string(settings.PANEL["auth"]["middleware"])
    return isinstance(found, type) and issubclass(found, JWTAuthentication)


def spec_options() -> SpecOptions:
    """The builder's arguments: the manifest's title, the panel's auth and limits."""
    return SpecOptions(
        title=oag_config.PROJECT_TITLE,
        openapi_version=settings.OAG_OPENAPI_VERSION,
        jwt=uses_jwt(),
        max_per_page=settings.PANEL_MAX_PER_PAGE,
        max_ids=settings.PANEL_MAX_MASS_DELETE,
        prefix=panel_prefix(),
    )


def generate_files(
    resources: Sequence[type[Resource]] | None = None,
) -> tuple[Path, Path]:
    """Write the YAML and JSON specs where OAG_PATH says; returns their paths."""
    if resources is None:
        from app.resources import RESOURCES

        resources = RESOURCES
    return generate(
        resources, spec_options(), project_dir=project_dir(), path=settings.OAG_PATH
    )
