"""The only module that calls copier: renders a skeleton from ``templates/project``."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import TemplateError
from ..paths import project_template, shared_template


def render_skeleton(dest: Path, data: Mapping[str, Any]) -> None:
    """Render the skeleton chosen by ``data["framework"]`` into ``dest`` with copier.

    Then add ``templates/project/_shared/`` (the panel kernel, its pages, static files
    and the tests both frameworks share) as it is, at the same paths in every project.
    """
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
    copy_shared(dest)


def copy_shared(dest: Path) -> None:
    """Copy the framework-neutral files into a skeleton (none is a template)."""
    shutil.copytree(
        shared_template(),
        dest,
        ignore=shutil.ignore_patterns("__pycache__", "*.py[co]", ".DS_Store"),
        dirs_exist_ok=True,
    )
