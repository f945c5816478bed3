"""The project's OpenAPI document, as ``python -m app oag:generate`` writes it.

The options come from the settings; building, writing and serving the document are
the kernel's (``panel_core.oag``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from app.core import oag_config
from app.core.config import PROJECT_DIR, Settings
from app.panel.stack import uses_jwt
from panel_core.oag import SpecOptions, generate
from panel_core.resource import Resource


def spec_options(settings: Settings) -> SpecOptions:
    """The builder's arguments: the manifest's title, the app's auth and limits."""
    return SpecOptions(
        title=oag_config.PROJECT_TITLE,
        openapi_version=settings.oag_openapi_version,
        jwt=uses_jwt(settings),
        max_per_page=settings.max_per_page,
        max_ids=settings.max_mass_delete,
        prefix=settings.panel_prefix,
    )


def generate_files(
    settings: Settings, resources: Sequence[type[Resource]] | None = None
) -> tuple[Path, Path]:
    """Write the YAML and JSON specs where the settings say; returns their paths."""
    if resources is None:
        from app.resources import RESOURCES

        resources = RESOURCES
    return generate(
        resources,
        spec_options(settings),
        project_dir=PROJECT_DIR,
        path=settings.oag_path,
    )
