"""panelforge: generate a standalone admin panel project from a YAML resource manifest.

The public API is small: :func:`generate`, :func:`check`, :func:`load_manifest`, and the
error classes.
Submodules are imported on first use so the command line starts fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    GeneratorError,
    Issue,
    ManifestError,
    ManifestInvalidError,
    ManifestSyntaxError,
    OutputError,
    SpecError,
    TemplateError,
)

if TYPE_CHECKING:
    from .manifest import load_manifest
    from .pipeline import check, generate

__all__ = [
    "GeneratorError",
    "Issue",
    "ManifestError",
    "ManifestInvalidError",
    "ManifestSyntaxError",
    "OutputError",
    "SpecError",
    "TemplateError",
    "check",
    "generate",
    "load_manifest",
]


def __getattr__(name: str) -> Any:
    if name in ("generate", "check"):
        from . import pipeline

        return getattr(pipeline, name)
    if name == "load_manifest":
        from .manifest import load_manifest

        return load_manifest
    raise AttributeError(f"module 'generator' has no attribute {name!r}")
