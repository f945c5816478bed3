"""The Django target: the skeleton's answers, and the plan of the resource files.

The project has the same shape as the FastAPI one where the frameworks allow it: the
panel kernel (``panel_core/``, the very same files), the generated declarations in
``app/resources/``, the user's classes in ``app/hooks/``. What differs is Django's:
models and migrations, a settings package, ``manage.py`` commands.
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
from ..columns import later_relations
from ..pysource import literal
from .key_tests import key_test_context
from .link_models import create_link_model, model_entries
from .migrations import (
    create_model,
    later_field_operations,
    migration_plan,
    next_migration,
)
from .storage import (
    db_default_imports,
    model_field_lines,
    model_imports,
    unique_constraints,
)

_TEMPLATES = "django"


class DjangoTarget(Target):
    """Django: models, Django migrations, management commands."""

    name = "django"
    skeleton = "django"
    templates = _TEMPLATES
    history_dir = "app/migrations/"
    black_stable_templates = frozenset(
        f"{_TEMPLATES}/{name}"
        for name in (
            "hooks.py.jinja",
            "oag_config.py.jinja",
            "resources_init.py.jinja",
            "roles.py.jinja",
        )
    )

    def project_plans(self, project: ir.Project) -> list[FilePlan]:
        """The registry, models, initial migration, spec settings and roles."""
        return [
            common.registry_plan(project, _TEMPLATES),
            FilePlan(
                "app/models.py",
                f"{_TEMPLATES}/models.py.jinja",
                models_context(project),
            ),
            FilePlan(
                "app/migrations/0001_initial.py",
                f"{_TEMPLATES}/migration.py.jinja",
                migration_context(project),
            ),
            common.oag_config_plan(project, _TEMPLATES, "app/oag_config.py"),
            common.roles_plan(project, _TEMPLATES),
        ]

    def resource_plans(
        self, resource: ir.Resource, project: ir.Project
    ) -> list[FilePlan]:
        """The resource's declaration, and the user's hook class."""
        module = resource.module
        return [
            FilePlan(
                f"app/resources/{module}.py",
                f"{_TEMPLATES}/resource.py.jinja",
                resource_context(resource, project),
            ),
            common.hooks_plan(resource, _TEMPLATES),
            *(
                [
                    FilePlan(
                        f"tests/test_{module}_keys.py",
                        f"{_TEMPLATES}/test_keys.py.jinja",
                        key_test_context(resource),
                    )
                ]
                if resource.is_composite
                else []
            ),
        ]

    def schema_migration(
        self, before: ir.Project, after: ir.Project, existing: dict[str, str]
    ) -> FilePlan | None:
        """A Django migration depending on the one leaf of ``existing``."""
        number, leaf = next_migration(existing)
        return migration_plan(
            diff_schema(before, after),
            name_number=number,
            dependency=leaf,
            header=common.header_lines(after),
        )


def resource_context(resource: ir.Resource, project: ir.Project) -> dict[str, Any]:
    """Context of ``app/resources/<module>.py``: the resource of its model."""
    return common.declaration_context(resource, project)


def str_expression(resource: ir.Resource) -> str:
    """What ``str(record)`` shows: a required plain text field, else model and key."""
    for field in resource.fields:
        if (
            field.type == "string"
            and field.format in (None, "email")
            and field.required
        ):
            return f"self.{field.name}"
    return f'f"{resource.model_name} {{self.pk}}"'


def models_context(project: ir.Project) -> dict[str, Any]:
    """Context of ``app/models.py``: every model, where Django looks for them."""
    resources = sorted(project.resources, key=lambda r: r.module)
    code = "\n".join(line for r in resources for line in model_field_lines(r, project))
    django_imports, panel_imports = db_default_imports(code)
    return {
        "header": common.header_lines(project),
        "django_imports": django_imports,
        "panel_imports": panel_imports,
        "stdlib_imports": sorted(
            {module for r in resources for module in model_imports(r)}
        ),
        "models": [
            {
                "name": r.model_name,
                "table_name": r.table,
                "table": literal(r.table),
                "fields": model_field_lines(r, project),
                "str_expression": str_expression(r),
                "constraints": unique_constraints(r),
            }
            for r in resources
        ]
        + model_entries(project),
    }


def migration_context(project: ir.Project) -> dict[str, Any]:
    """Context of ``app/migrations/0001_initial.py``: relation targets first."""
    ordered = creation_order(project)
    later = later_relations(ordered)
    models = [create_model(r, project, later.get(r.name, ())) for r in ordered]
    models += [create_link_model(t, project) for t in link_tables(project)]
    added = later_field_operations(ordered, project)
    codes = [line for model in models for line in model["fields"]] + added
    django_imports, panel_imports = db_default_imports("\n".join(codes))
    return {
        "header": common.header_lines(project),
        "django_imports": django_imports,
        "panel_imports": panel_imports,
        "project_name": project.name,
        "uses_datetime": any("datetime." in c for c in codes),
        "uses_decimal": any("decimal." in c for c in codes),
        "uses_uuid": any("uuid." in c for c in codes),
        "models": models,
        "later_fields": added,
    }
