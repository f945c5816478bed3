"""The Django target: the skeleton's answers, and the plan of the resource files.

The project has the same shape as the FastAPI one where the frameworks allow it: the
panel kernel (``panel_core/``, the very same files), the generated declarations in
``app/resources/``, the user's classes in ``app/hooks/``. What differs is Django's:
models and migrations, a settings package, ``manage.py`` commands.
"""

from __future__ import annotations

from typing import Any

from .. import ir
from ..kernel import kernel_fields
from ..plan import FilePlan
from ..samples import creation_order
from . import literal
from .django_migrations import create_model, migration_plan, next_migration
from .django_storage import model_field_lines, model_imports
from .fastapi import (
    _from_import,
    declaration_lines,
    fields_block,
    header_lines,
    hooks_context,
    oag_config_context,
    registry_context,
    samples_context,
)
from .fastapi import copier_data as copier_data  # the same skeleton answers
from .fastapi_ci import ci_plans

SKELETON = "django"
_TEMPLATES = "django"
# See generator/targets/fastapi.py: written once, never rewritten (HISTORY_DIR), and
# skeleton files users are expected to adapt (SHARED_FILES).
HISTORY_DIR = "app/migrations/"
SHARED_FILES = frozenset({"README.md", "pyproject.toml", ".gitignore"})
KERNEL = "panel_core"
# Templates whose render is black's output, so black is skipped for them (see
# generator/format.py); tests/unit/test_templates_black.py and test_format.py prove it.
BLACK_STABLE_TEMPLATES = frozenset(
    f"{_TEMPLATES}/{name}"
    for name in (
        "hooks.py.jinja",
        "models.py.jinja",
        "oag_config.py.jinja",
        "resources_init.py.jinja",
    )
)


def plan_files(project: ir.Project) -> list[FilePlan]:
    """Every file whose content depends on the manifest's resources."""
    plans = [
        FilePlan(
            "app/resources/__init__.py",
            f"{_TEMPLATES}/resources_init.py.jinja",
            registry_context(project),
        ),
        FilePlan(
            "app/models.py", f"{_TEMPLATES}/models.py.jinja", models_context(project)
        ),
        FilePlan(
            "app/migrations/0001_initial.py",
            f"{_TEMPLATES}/migration.py.jinja",
            migration_context(project),
        ),
        FilePlan(
            "app/oag_config.py",
            f"{_TEMPLATES}/oag_config.py.jinja",
            oag_config_context(project),
        ),
        FilePlan(
            "tests/samples.json",
            "fastapi/samples.json.jinja",
            samples_context(project),
        ),
        *ci_plans(project, _TEMPLATES),
    ]
    for resource in project.resources:
        module = resource.module
        plans += [
            FilePlan(
                f"app/resources/{module}.py",
                f"{_TEMPLATES}/resource.py.jinja",
                resource_context(resource, project),
            ),
            FilePlan(
                f"app/hooks/{module}.py",
                f"{_TEMPLATES}/hooks.py.jinja",
                hooks_context(resource),
                owner="user",
            ),
        ]
    return plans


def kernel_imports(resource: ir.Resource, project: ir.Project) -> str:
    """The ``from panel_core.fields import ...`` line, sorted as isort sorts it."""
    names = sorted({k.class_name for k in kernel_fields(resource, project)})
    constants = [n for n in names if n.isupper()]
    ordered = constants + [n for n in names if n not in constants]
    return _from_import(f"{KERNEL}.fields", ordered)


def resource_context(resource: ir.Resource, project: ir.Project) -> dict[str, Any]:
    """Context of ``app/resources/<module>.py``: the Django model and the resource."""
    return {
        "header": header_lines(project, resource),
        "resource_name": resource.name,
        "stdlib_imports": model_imports(resource),
        "kernel_import": kernel_imports(resource, project),
        "uses_query_tags": bool(resource.query_tags),
        "model_name": resource.model_name,
        "table": literal(resource.table),
        "table_name": resource.table,
        "fields_of_model": model_field_lines(resource, project),
        "str_expression": str_expression(resource),
        "class_name": resource.class_name,
        "uri": literal(resource.uri),
        "title": literal(resource.title),
        "fields": fields_block(resource, project),
        "attributes": declaration_lines(resource),
        "per_page": resource.per_page,
        "default_sort": literal(resource.default_sort),
    }


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
    imports = sorted((r.module, r.model_name) for r in project.resources)
    return {
        "header": header_lines(project),
        "imports": [
            f"from app.resources.{module} import {model}" for module, model in imports
        ],
        "exports": literal([model for _, model in imports]),
    }


def migration_context(project: ir.Project) -> dict[str, Any]:
    """Context of ``app/migrations/0001_initial.py``: relation targets first."""
    ordered = creation_order(project)
    models = [create_model(r, project) for r in ordered]
    codes = [line for model in models for line in model["fields"]]
    return {
        "header": header_lines(project),
        "project_name": project.name,
        "uses_datetime": any("datetime." in c for c in codes),
        "uses_uuid": any("uuid." in c for c in codes),
        "models": models,
    }


def schema_migration(
    before: ir.Project, after: ir.Project, existing: dict[str, str]
) -> FilePlan | None:
    """The migration from ``before``'s models to ``after``'s (None: they agree).

    ``existing`` maps the files of app/migrations/ to their text; the new migration
    depends on their one leaf.
    """
    from ..migrations import diff_schema

    number, leaf = next_migration(existing)
    return migration_plan(
        diff_schema(before, after),
        name_number=number,
        dependency=leaf,
        header=header_lines(after),
    )
