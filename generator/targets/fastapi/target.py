"""The FastAPI target: the skeleton's answers, and the plan of the resource files.

Each context builder is a small function for one concern; templates only place the
strings these functions precompute and loop over the lists they prepare.
"""

from __future__ import annotations

from typing import Any

from ...model import ir
from ...model.links import link_tables
from ...model.samples import creation_order
from ...regen.migrations import diff_schema
from ...render.plan import FilePlan
from .. import common
from ..base import Target
from ..columns import big_key, later_relations
from ..pysource import literal
from .api_tests import api_test_context
from .composite_tests import composite_test_context
from .link_tables import create_link_lines, model_link_lines
from .migrations import later_key_lines, migration_plan, next_migration_ids
from .page_tests import pages_test_context
from .storage import column_lines, model_imports, table_context, unique_constraints

_TEMPLATES = "fastapi"


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
            "roles.py.jinja",
            "test_api.py.jinja",
            "test_api_composite.py.jinja",
            "test_pages.py.jinja",
            "test_pages_composite.py.jinja",
        )
    )

    def project_plans(self, project: ir.Project) -> list[FilePlan]:
        """The registry, the initial migration, the spec settings and the roles."""
        return [
            common.registry_plan(project, _TEMPLATES),
            FilePlan(
                "migrations/versions/0001_initial.py",
                f"{_TEMPLATES}/migration.py.jinja",
                migration_context(project),
            ),
            common.oag_config_plan(project, _TEMPLATES, "app/core/oag_config.py"),
            common.roles_plan(project, _TEMPLATES),
        ]

    def resource_plans(
        self, resource: ir.Resource, project: ir.Project
    ) -> list[FilePlan]:
        """Declaration and model, the user's hook class, API and page tests."""
        module = resource.module
        api, pages = (
            (f"{_TEMPLATES}/test_api.py.jinja", api_test_context(resource, project)),
            (
                f"{_TEMPLATES}/test_pages.py.jinja",
                pages_test_context(resource, project),
            ),
        )
        if resource.is_composite:
            composite = composite_test_context(resource, project)
            api = (f"{_TEMPLATES}/test_api_composite.py.jinja", composite)
            pages = (f"{_TEMPLATES}/test_pages_composite.py.jinja", composite)
        return [
            FilePlan(
                f"app/resources/{module}.py",
                f"{_TEMPLATES}/resource.py.jinja",
                resource_context(resource, project),
            ),
            common.hooks_plan(resource, _TEMPLATES),
            FilePlan(f"tests/test_{module}_api.py", *api),
            FilePlan(f"tests/test_{module}_pages.py", *pages),
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
    columns = column_lines(resource, project)
    uniques = unique_constraints(resource, migration=False)
    links = model_link_lines(resource, project)
    uses_big_key = any(big_key(f) for f in resource.fields)
    return {
        **common.declaration_context(resource, project),
        "stdlib_imports": model_imports(resource, project),
        "uses_big_key": uses_big_key,
        "table_options": _table_options(resource, uses_big_key),
        "uses_exact_decimal": any(f.is_decimal for f in resource.fields),
        "uses_stored_file": any(f.is_file for f in resource.fields),
        "uses_sa": any("sa." in line for line in columns) or uniques or links,
        "columns": columns,
        "link_tables": links,
        "unique_constraints": uniques,
        "adopted": resource.adopted,
    }


def _table_options(resource: ir.Resource, uses_big_key: bool) -> str | None:
    """The model's table keywords: an adopted table is marked so in its ``info``
    (the emitted tests create it, as migrations never do); AUTOINCREMENT on SQLite
    for a 64-bit key."""
    options: dict[str, Any] = {}
    if resource.adopted:
        options["info"] = {"adopted": True}
    if uses_big_key:
        options["sqlite_autoincrement"] = True
    return literal(options) if options else None


def migration_context(project: ir.Project) -> dict[str, Any]:
    """Context of ``migrations/versions/0001_initial.py``: relation targets first."""
    # An adopted table exists already: never created, nor dropped on the way down.
    ordered = [r for r in creation_order(project) if not r.adopted]
    later = later_relations(ordered)
    return {
        "header": common.header_lines(project),
        "project_name": project.name,
        "adopted": [r.table for r in project.resources if r.adopted],
        "tables": [table_context(r, project, later.get(r.name, ())) for r in ordered],
        "later_keys": later_key_lines(ordered, project),
        "link_tables": [
            line for t in link_tables(project) for line in create_link_lines(t, project)
        ],
        "dropped_keys": later_key_lines(ordered, project, drop=True),
        "drop_order": [literal(t.name) for t in link_tables(project)][::-1]
        + [literal(r.table) for r in reversed(ordered)],
    }
