"""The only module that calls copier: renders a skeleton from ``templates/project``."""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import TemplateError
from ..paths import project_template


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
