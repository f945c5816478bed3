"""The only module that calls copier: renders a skeleton from ``templates/project``."""

from __future__ import annotations

import tempfile
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from ..errors import TemplateError
from ..model import ir
from ..paths import project_template
from .output import read_tree
from .skeleton_cache import SkeletonCache, skeleton_key


class SkeletonAnswers(Protocol):
    """What the skeleton needs of a target: copier's answers for a project."""

    def copier_data(self, project: ir.Project) -> dict[str, Any]:
        """The skeleton's answers."""
        ...


def render_skeleton(dest: Path, data: Mapping[str, Any]) -> None:
    """Render the skeleton chosen by ``data["framework"]`` into ``dest`` with copier."""
    import copier  # imported on use: copier costs ~0.5 s to import

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            copier.run_copy(
                str(project_template()),
                str(dest),
                data=dict(data),
                defaults=True,
                overwrite=True,
                quiet=True,
                skip_tasks=True,
                vcs_ref=None,
            )
    except Exception as exc:  # copier raises many kinds; all are our template's bug
        raise TemplateError(
            f"rendering the project skeleton failed: {exc}\n"
            "This is a bug in panelforge; please report it with your manifest."
        ) from exc


def render_skeleton_files(
    target: SkeletonAnswers, project: ir.Project, cache_dir: Path | None = None
) -> dict[str, bytes]:
    """The copier skeleton for ``project``, rendered in a temporary folder and read.

    A cached rendering is used when the template files and answers are unchanged.
    """
    data = target.copier_data(project)
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
