"""The OpenAPI generator (MoonShine's oag), minus the web framework.

Where the spec files live, which routes serve them, how ``oag:generate`` builds and
writes them, and what the docs page hands to Swagger UI. The FastAPI routes and the
command line are thin layers over these functions, so another target can reuse them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from .openapi import MASS_DELETE_LIMIT, build_openapi, dump_json, dump_yaml, write_spec
from .resource import Resource
from .routes import DEFAULT_PREFIX

# ``view`` names this built-in template; any other value is a template path.
BUILTIN_VIEW = "oag::docs"
DOCS_PATH = "/docs"
DOCS_ROUTE_NAME = "oag.docs"

SpecKind = Literal["yaml", "json"]


@dataclass(frozen=True)
class SpecOptions:
    """What the document depends on besides the resources: the builder's arguments.

    The limits default to the app's settings' defaults (``max_per_page``,
    ``max_mass_delete``); panelforge builds the committed spec with them.
    """

    title: str
    openapi_version: str
    jwt: bool
    max_per_page: int = 100
    max_ids: int = MASS_DELETE_LIMIT
    prefix: str = DEFAULT_PREFIX  # where the panel is mounted: the paths' start


def spec_files(project_dir: Path, path: str) -> tuple[Path, Path]:
    """The YAML file ``path`` names (relative to the project) and its JSON twin."""
    yaml_path = project_dir / PurePosixPath(path)
    return yaml_path, yaml_path.with_suffix(".json")


def route_path(route: str) -> str:
    """The URL path of a configured route: ``oag.json`` → ``/oag.json``."""
    return "/" + route.strip("/")


def yaml_route(route: str) -> str:
    """The route serving the YAML spec: ``oag.json`` → ``oag.yaml``."""
    return route.removesuffix(".json") + ".yaml"


def build_document(
    resources: Sequence[type[Resource]], options: SpecOptions
) -> dict[str, Any]:
    """The OpenAPI document of ``resources``, exactly as panelforge builds it."""
    return build_openapi(
        list(resources),
        title=options.title,
        openapi_version=options.openapi_version,
        jwt=options.jwt,
        max_per_page=options.max_per_page,
        max_ids=options.max_ids,
        prefix=options.prefix,
    )


def generate(
    resources: Sequence[type[Resource]],
    options: SpecOptions,
    *,
    project_dir: Path,
    path: str,
) -> tuple[Path, Path]:
    """Build the document and write both files atomically; returns their paths."""
    yaml_path, json_path = spec_files(project_dir, path)
    write_spec(build_document(resources, options), yaml_path, json_path)
    return yaml_path, json_path


class SpecSource:
    """The spec an app serves: the files on disk, else built once from its resources.

    Files written for another prefix (``oag:generate`` before the panel moved) are
    not served: their paths would lead nowhere; the document is built instead.
    """

    def __init__(self, project_dir: Path, path: str, options: SpecOptions) -> None:
        yaml_path, json_path = spec_files(project_dir, path)
        self.files = {"yaml": yaml_path, "json": json_path}
        self.options = options
        self._built: dict[str, bytes] = {}

    def read(self, kind: SpecKind, resources: Sequence[type[Resource]]) -> bytes:
        """The ``kind`` spec: the file if there is one, else built from resources."""
        path = self.files[kind]
        if path.is_file() and self._written_for_prefix():
            return path.read_bytes()
        if not self._built:
            doc = build_document(resources, self.options)
            self._built = {
                "yaml": dump_yaml(doc).encode(),
                "json": dump_json(doc).encode(),
            }
        return self._built[kind]

    def _written_for_prefix(self) -> bool:
        try:
            doc = json.loads(self.files["json"].read_bytes())
        except (OSError, ValueError):
            return True  # not ours to judge: serve the files as they are
        paths = doc.get("paths") if isinstance(doc, dict) else None
        if not isinstance(paths, dict):
            return True
        return f"{self.options.prefix}/authenticate" in paths


def swagger_config(spec_url: str, *, jwt: bool) -> dict[str, Any]:
    """Swagger UI's options for the docs page (the page script adds the functions)."""
    return {
        "url": spec_url,
        "dom_id": "#swagger-ui",
        "deepLinking": True,
        "displayRequestDuration": True,
        "docExpansion": "list",
        "defaultModelsExpandDepth": 0,
        "persistAuthorization": jwt,
        "tryItOutEnabled": False,
        # The default would send the spec to a public validator service.
        "validatorUrl": None,
    }
