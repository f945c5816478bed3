"""One run of panelforge: its options, its caches and where its progress goes.

Every step that needs them takes the :class:`Run` instead of a list of keyword
arguments; it holds data only, so any layer may take one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .model import ir
from .paths import user_cache_dir

Progress = Callable[[str], None]


def quiet(_step: str) -> None:
    """Progress sink that says nothing."""


@dataclass(frozen=True)
class Caches:
    """Where a run may keep and find earlier results; ``None`` turns a cache off."""

    black: Path | None
    spec: Path | None
    skeleton: Path | None = None
    runs: Path | None = None  # stamps of completed runs: a no-op rerun stops early
    templates: Path | None = None  # Jinja's compiled templates
    spec_text: Path | None = None  # the spec's texts, by part
    manifest: Path | None = None  # resources that passed the manifest schema
    kernel: Path | None = None  # the panel kernel's compiled modules

    @classmethod
    def default(cls, enabled: bool = True) -> Caches:
        """The user cache directory's caches, or none."""
        if not enabled:
            return cls(None, None)
        root = user_cache_dir()
        return cls(
            root / "black",
            root / "spec",
            root / "skeleton",
            root / "runs",
            root / "jinja",
            root / "spec-text",
            root / "manifest",
            root / "kernel",
        )


@dataclass(frozen=True)
class Run:
    """The options of one command, the caches it uses and its progress sink."""

    caches: Caches = field(default_factory=Caches.default)
    progress: Progress = quiet
    force: bool = False  # replace a non-empty DEST
    dry_run: bool = False  # compute the changes, write nothing
    framework: ir.Framework | None = None  # overrides the manifest's project.framework
    allow_drop: tuple[str, ...] = ()  # accepted drops: "Ticket", "Ticket.notes"

    @classmethod
    def start(
        cls,
        *,
        use_cache: bool = True,
        progress: Progress = quiet,
        force: bool = False,
        dry_run: bool = False,
        framework: ir.Framework | None = None,
        allow_drop: tuple[str, ...] = (),
    ) -> Run:
        """A run with the user's caches (or none) and the given options."""
        caches = Caches.default(use_cache)
        return cls(caches, progress, force, dry_run, framework, allow_drop)
