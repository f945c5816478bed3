"""A whole project in memory: every file's bytes and who owns it.

Owners decide what regeneration may do with a file (:mod:`generator.regen.changes`):

- ``generated``: panelforge's; edits are merged three-way, and ``check`` reports them;
- ``shared``: skeleton files users adapt (``pyproject.toml``): merged, edits accepted;
- ``user``: extension points (``app/hooks/*.py``): written when absent, never touched;
- ``history``: migrations: written once, never rewritten or removed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

from ..model import ir

Owner = Literal["generated", "shared", "user", "history"]


class SkeletonAnswers(Protocol):
    """What the skeleton needs of a target: copier's answers for a project."""

    def copier_data(self, project: ir.Project) -> dict[str, Any]:
        """The skeleton's answers."""
        ...


@dataclass(frozen=True)
class Output:
    """Generated files (path → bytes) and the owner of each."""

    files: dict[str, bytes] = field(default_factory=dict)
    owners: dict[str, Owner] = field(default_factory=dict)

    def add(self, path: str, data: bytes, owner: Owner) -> None:
        """Add (or replace) one file."""
        self.files[path] = data
        self.owners[path] = owner

    def owned(self, *owners: Owner) -> dict[str, bytes]:
        """The files of the given owners."""
        return {p: d for p, d in self.files.items() if self.owners[p] in owners}


def read_tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by POSIX path."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def read_files(root: Path, paths: Iterable[str]) -> dict[str, bytes | None]:
    """The bytes of each of ``paths`` under ``root`` (``None``: not a file there)."""
    files: dict[str, bytes | None] = {}
    for path in paths:
        try:
            files[path] = (root / path).read_bytes()
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            files[path] = None
    return files


def read_files_under(root: Path, folder: str) -> dict[str, bytes]:
    """Every file under ``root/folder``, by its path relative to ``root``."""
    if not (root / folder).is_dir():
        return {}
    return {f"{folder}/{p}": d for p, d in read_tree(root / folder).items()}


def render_skeleton_files(
    target: SkeletonAnswers, project: ir.Project, cache_dir: Path | None = None
) -> dict[str, bytes]:
    """The copier skeleton for ``project``: copier's files, by path.

    Rendered without copier where the template allows (same bytes), else by copier in
    a temporary folder and read. A cached copier rendering is used when the template
    files and answers are unchanged.
    """
    from .skeleton import skeleton_files

    data = target.copier_data(project)
    files = skeleton_files(data)
    return files if files is not None else _copier_skeleton(data, cache_dir)


def _copier_skeleton(data: dict[str, Any], cache_dir: Path | None) -> dict[str, bytes]:
    from ..paths import project_template
    from .skeleton import render_skeleton
    from .skeleton_cache import SkeletonCache, skeleton_key

    cache = SkeletonCache(cache_dir)
    key = skeleton_key(project_template(), data) if cache_dir is not None else ""
    cached = cache.get(key) if cache_dir is not None else None
    if cached is not None:
        return cached
    with tempfile.TemporaryDirectory(prefix="panelforge-skeleton-") as tmp:
        root = Path(tmp) / "skeleton"
        root.mkdir()
        render_skeleton(root, data)
        files = read_tree(root)
    cache.put(key, files)
    return files
