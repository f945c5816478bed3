"""The FastAPI target: the skeleton's answers, and the plan of the resource files.

Each context builder is a small function for one concern; templates only place the
strings these functions precompute and loop over the lists they prepare.
"""

from __future__ import annotations

from typing import Any

from ...model import ir
from ...model.samples import creation_order
from ...regen.migrations import diff_schema
from ...render.plan import FilePlan
from .. import ci, common
from ..base import Target
from ..columns import is_integer_key
from ..pysource import literal
from .api_tests import api_test_context
from .migrations import migration_plan, next_migration_ids
from .page_tests import pages_test_context
from .storage import column_lines, model_imports, table_context

_TEMPLATES = "fastapi"
KERNEL = "app.panel.core"


class FastAPITarget(Target):
    """FastAPI, SQLAlchemy models and Alembic migrations."""

    name = "fastapi"
    skeleton = "fastapi"
    templates = _TEMPLATES
    history_dir = "migrations/versions/"
    black_stable_templates = frozenset(
        f"{_TEMPLATES}/{name}"
        for name in (
            "hooks.py.jinja",
            "migration.py.jinja",
            "migration_step.py.jinja",
            "oag_config.py.jinja",
            "resource.py.jinja",
            "resources_init.py.jinja",
            "test_api.py.jinja",
            "test_pages.py.jinja",
        )
    )

    def copier_data(self, project: ir.Project) -> dict[str, Any]:
        """The skeleton's answers."""
        return common.copier_data(project)

    def project_plans(self, project: ir.Project) -> list[FilePlan]:
        """The registry, the initial migration and the spec settings."""
        return [
            FilePlan(
                "app/resources/__init__.py",
                f"{_TEMPLATES}/resources_init.py.jinja",
                common.registry_context(project),
            ),
            FilePlan(
                "migrations/versions/0001_initial.py",
                f"{_TEMPLATES}/migration.py.jinja",
                migration_context(project),
            ),
            FilePlan(
                "app/core/oag_config.py",
                f"{_TEMPLATES}/oag_config.py.jinja",
                common.oag_config_context(project),
            ),
        ]

    def samples_plan(self, project: ir.Project) -> FilePlan:
        """``tests/samples.json``."""
        return common.samples_plan(project)

    def ci_plans(self, project: ir.Project) -> list[FilePlan]:
        """The CI workflow and pre-commit hooks."""
        return ci.ci_plans(project, _TEMPLATES)

    def resource_plans(
        self, resource: ir.Resource, project: ir.Project
    ) -> list[FilePlan]:
        """Declaration and model, the user's hook class, API and page tests."""
        module = resource.module
        return [
            FilePlan(
                f"app/resources/{module}.py",
                f"{_TEMPLATES}/resource.py.jinja",
                resource_context(resource, project),
            ),
            FilePlan(
                f"app/hooks/{module}.py",
                f"{_TEMPLATES}/hooks.py.jinja",
                common.hooks_context(resource),
                owner="user",
            ),
            FilePlan(
                f"tests/test_{module}_api.py",
                f"{_TEMPLATES}/test_api.py.jinja",
                api_test_context(resource, project),
            ),
            FilePlan(
                f"tests/test_{module}_pages.py",
                f"{_TEMPLATES}/test_pages.py.jinja",
                pages_test_context(resource, project),
            ),
        ]

    def schema_migration(
        self, before: ir.Project, after: ir.Project, existing: dict[str, str]
    ) -> FilePlan | None:
        """An Alembic revision after the head of ``existing``."""
        revision, head = next_migration_ids(existing)
        return migration_plan(
            diff_schema(before, after),
            revision=revision,
            down_revision=head,
            header=common.header_lines(after),
        )


def resource_context(resource: ir.Resource, project: ir.Project) -> dict[str, Any]:
    """Context of ``app/resources/<module>.py``: the SQLAlchemy model, the resource."""
    fields = resource.fields
    columns = column_lines(resource, project)
    return {
        "header": common.header_lines(project, resource),
        "resource_name": resource.name,
        "stdlib_imports": model_imports(resource),
        "uses_big_key": any(is_integer_key(f) for f in fields),
        "uses_sa": any("sa." in line for line in columns),
        "kernel_import": common.kernel_imports(resource, project, KERNEL),
        "uses_query_tags": bool(resource.query_tags),
        "model_name": resource.model_name,
        "table": literal(resource.table),
        "table_name": resource.table,
        "columns": columns,
        "class_name": resource.class_name,
        "uri": literal(resource.uri),
        "title": literal(resource.title),
        "fields": common.fields_block(resource, project),
        "attributes": common.declaration_lines(resource),
        "per_page": resource.per_page,
        "default_sort": literal(resource.default_sort),
    }


def migration_context(project: ir.Project) -> dict[str, Any]:
    """Context of ``migrations/versions/0001_initial.py``: relation targets first."""
    ordered = creation_order(project)
    return {
        "header": common.header_lines(project),
        "project_name": project.name,
        "tables": [table_context(r, project) for r in ordered],
        "drop_order": [literal(r.table) for r in reversed(ordered)],
    }
