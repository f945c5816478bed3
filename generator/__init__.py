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
    from .commands import check, generate
    from .manifest.load import load_manifest

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
        from . import commands

        return getattr(commands, name)
    if name == "load_manifest":
        from .manifest.load import load_manifest

        return load_manifest
    raise AttributeError(f"module 'generator' has no attribute {name!r}")
