"""Where panelforge's templates and specs live: in a checkout, or in a wheel."""

from __future__ import annotations

import fnmatch
import os
import tempfile
from functools import cache
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


# What a template tree may hold that is no part of the template: bytecode and tool
# caches (the names templates/project/copier.yml excludes from the skeletons too).
TEMPLATE_NOISE = (
    "__pycache__",
    "*.py[co]",
    ".DS_Store",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
)


def is_template_noise(relative: Path) -> bool:
    """Whether a path inside a template tree is bytecode or a tool's cache."""
    return any(
        fnmatch.fnmatchcase(part, pattern)
        for part in relative.parts
        for pattern in TEMPLATE_NOISE
    )


@cache
def templates_root() -> Path:
    """The ``templates/`` folder: beside the package, or inside it in a wheel."""
    for candidate in (_PACKAGE_DIR.parent / "templates", _PACKAGE_DIR / "_templates"):
        if (candidate / "project" / "copier.yml").is_file():
            return candidate
    raise FileNotFoundError(
        "panelforge's templates are missing; reinstall panelforge"
    )  # pragma: no cover


def project_template() -> Path:
    """The copier template of the project skeletons."""
    return templates_root() / "project"


def resource_templates() -> Path:
    """The Jinja templates rendered per resource (and per project) by the generator."""
    return templates_root() / "resource"


def shared_template() -> Path:
    """The files every skeleton gets as they are, at the same path in each project."""
    return project_template() / "_shared"


def kernel_dir() -> Path:
    """The framework-neutral panel kernel shipped inside every emitted project."""
    return shared_template() / "panel_core"


@cache
def specs_dir() -> Path:
    """The ``specs/`` folder (manifest JSON Schema): beside or inside the package."""
    for candidate in (_PACKAGE_DIR.parent / "specs", _PACKAGE_DIR / "_specs"):
        if (candidate / "manifest.schema.json").is_file():
            return candidate
    raise FileNotFoundError("panelforge's specs are missing; reinstall panelforge")


def user_cache_dir() -> Path:
    """Where caches live: ``$PANELFORGE_CACHE_DIR``, else ``~/.cache/panelforge``."""
    if configured := os.environ.get("PANELFORGE_CACHE_DIR"):
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "panelforge"


def write_cache_file(path: Path, data: bytes) -> None:
    """Write a cache file whole or not at all (a temporary file renamed over it);
    a cache that cannot be written only costs time, so failing is silent."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        Path(tmp).replace(path)
    except (OSError, ValueError):
        return
