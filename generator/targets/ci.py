"""The project's CI workflow and pre-commit hooks, for every target: written once."""

from __future__ import annotations

from typing import Any

from ..model import ir
from ..regen.install import LOCAL_INSTALL_LINE, install_source
from ..regen.state import generator_version
from ..render.plan import FilePlan


def ci_context(project: ir.Project) -> dict[str, Any]:
    """Context of the CI workflow: the project name, and how CI installs panelforge
    (the one generating, as recorded in ``.panelforge/state.json``)."""
    source = install_source()
    return {
        "project_name": project.name,
        "panelforge_version": generator_version(),
        "install_kind": source.kind,
        "install_requirement": source.requirement,
        "local_install_line": LOCAL_INSTALL_LINE,
    }


def ci_plans(project: ir.Project, templates: str) -> list[FilePlan]:
    """``.github/workflows/panel.yml`` (from ``templates``' folder: each framework
    checks its own way) and ``.pre-commit-config.yaml`` (the same for every one)."""
    return [
        FilePlan(
            ".github/workflows/panel.yml",
            f"{templates}/panel.yml.jinja",
            ci_context(project),
            owner="user",
        ),
        FilePlan(
            ".pre-commit-config.yaml",
            "fastapi/pre-commit-config.yaml.jinja",
            {},
            owner="user",
        ),
    ]
