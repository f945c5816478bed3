"""The target contract: what a framework target provides to the generator.

A target is one package under ``generator/targets/`` holding one :class:`Target`
subclass, listed in the registry (``generator/targets/__init__.py``). The generator
knows frameworks only through this class: it never imports a target's modules, and no
target imports another's.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ..model import ir
from ..render.output import Owner
from ..render.plan import FilePlan
from ..render.plan import Owner as PlanOwner
from . import ci, common


class Target(ABC):
    """One framework: its skeleton, the files each project gets, its migrations."""

    #: The framework's name in manifests (``project.framework``) and ``--framework``.
    name: ClassVar[str]
    #: The copier skeleton, ``templates/project/<skeleton>/`` (copier picks it from
    #: the ``framework`` answer of :meth:`copier_data`).
    skeleton: ClassVar[str]
    #: The folder of ``templates/resource/`` holding the target's own templates.
    templates: ClassVar[str]
    #: Where migrations live: written once, never rewritten (owner ``history``).
    history_dir: ClassVar[str]
    #: Skeleton files users are expected to adapt: merged with upgrades, and
    #: ``check`` accepts edits (owner ``shared``).
    shared_files: ClassVar[frozenset[str]] = frozenset(
        {"README.md", "pyproject.toml", ".gitignore"}
    )
    #: Templates whose render is already black's output (``render/format.py`` skips
    #: black for them; ``tests/unit/test_templates_black.py`` proves it).
    black_stable_templates: ClassVar[frozenset[str]] = frozenset()

    def copier_data(self, project: ir.Project) -> dict[str, Any]:
        """The skeleton's answers: project-level values only, never resources.

        Every skeleton asks the same questions (``templates/project/copier.yml``).
        """
        return common.copier_data(project)

    @abstractmethod
    def project_plans(self, project: ir.Project) -> list[FilePlan]:
        """The project-wide files that depend on the resources (registry, models…)."""

    def samples_plan(self, project: ir.Project) -> FilePlan:
        """The sample data: a valid record per resource, for the project's tests."""
        return common.samples_plan(project)

    def ci_plans(self, project: ir.Project) -> list[FilePlan]:
        """The CI workflow (from :attr:`templates`) and the pre-commit hooks."""
        return ci.ci_plans(project, self.templates)

    @abstractmethod
    def resource_plans(
        self, resource: ir.Resource, project: ir.Project
    ) -> list[FilePlan]:
        """The files of one resource (declaration, extension point, tests…)."""

    @abstractmethod
    def schema_migration(
        self, before: ir.Project, after: ir.Project, existing: dict[str, str]
    ) -> FilePlan | None:
        """The migration from ``before``'s tables to ``after``'s (None: they agree).

        ``existing`` maps the files of :attr:`history_dir` to their text; the new
        migration follows their head.
        """

    def plan_files(self, project: ir.Project) -> list[FilePlan]:
        """Every file whose content depends on the manifest's resources."""
        plans = [
            *self.project_plans(project),
            self.samples_plan(project),
            *self.ci_plans(project),
            *common.docs_view_plans(project),
        ]
        for resource in project.resources:
            plans += self.resource_plans(resource, project)
        return plans

    def owner_of(self, path: str, planned: PlanOwner | None) -> Owner:
        """Who owns ``path``: its plan says ``user``, else the target's path rules."""
        if planned == "user":
            return "user"
        if path.startswith(self.history_dir):
            return "history"
        if path in self.shared_files:
            return "shared"
        return "generated"
