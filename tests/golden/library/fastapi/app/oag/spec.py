"""The project's OpenAPI document: built from the registered resources, or read back.

``python -m app oag:generate`` writes it; the spec routes serve what it wrote, and
build it from the running app's resources when nothing was written yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

from app.core import oag_config
from app.core.config import PROJECT_DIR, Settings
from app.panel.core.oag import SpecOptions, build_document, generate, spec_files
from app.panel.core.openapi import dump_json, dump_yaml
from app.panel.core.resource import Resource
from app.panel.stack import uses_jwt

SpecKind = Literal["yaml", "json"]


def spec_options(settings: Settings) -> SpecOptions:
    """The builder's arguments: the manifest's title, the app's auth and limits."""
    return SpecOptions(
        title=oag_config.PROJECT_TITLE,
        openapi_version=settings.oag_openapi_version,
        jwt=uses_jwt(settings),
        max_per_page=settings.max_per_page,
        max_ids=settings.max_mass_delete,
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


class SpecSource:
    """The spec an app serves: the files on disk, else built once from its resources."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        yaml_path, json_path = spec_files(PROJECT_DIR, settings.oag_path)
        self.files = {"yaml": yaml_path, "json": json_path}
        self._built: dict[str, bytes] = {}

    def read(self, kind: SpecKind, resources: Sequence[type[Resource]]) -> bytes:
        """The ``kind`` spec: the file if there is one, else built from resources."""
        path = self.files[kind]
        if path.is_file():
            return path.read_bytes()
        if not self._built:
            doc = build_document(resources, spec_options(self.settings))
            self._built = {
                "yaml": dump_yaml(doc).encode(),
                "json": dump_json(doc).encode(),
            }
        return self._built[kind]
