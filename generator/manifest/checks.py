"""What the schema cannot say: names, keys, references between fields and resources.

Runs after :mod:`~generator.manifest.schema`, on values of the right shape (rejected
ones are INVALID and skipped), and collects every problem instead of stopping at the
first: project-wide rules here, each resource's in
:mod:`~generator.manifest.resourcechecks`, each field's in
:mod:`~generator.manifest.fieldchecks`, the roles' in
:mod:`~generator.manifest.rolechecks`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from ..model import naming
from . import identifiers
from .actionchecks import action_issues
from .adoptchecks import adoption_issues
from .columnchecks import column_issues
from .deletechecks import delete_rule_issues
from .displaychecks import display_issues
from .docschecks import docs_issues
from .enumlabels import enum_label_issues
from .fieldvalues import field_type
from .filechecks import file_issues
from .hasmanychecks import has_many_issues
from .hints import shown
from .keychecks import composite_key_issues, relation_to_composite_issues
from .manytomanychecks import many_to_many_issues
from .metricchecks import metric_issues
from .relationchecks import cycle_issues, relation_key_issues
from .renamechecks import rename_issues
from .resourcechecks import problem_args, resource_issues
from .rolechecks import role_issues
from .trashchecks import trash_issues
from .uniquechecks import unique_issues
from .yamlnodes import Document


def semantic_issues(document: Document) -> list[Issue]:
    """Every semantic problem of a manifest the schema has checked."""
    root = document.value
    if not isinstance(root, dict):
        return []
    issues = list(_project_issues(document, root.get("project")))
    issues += docs_issues(document, root.get("docs"))
    resources = root.get("resources")
    issues += role_issues(document, root.get("roles"), resources)
    if not isinstance(resources, dict):
        return issues
    key_types = {name: _key_type(spec) for name, spec in resources.items()}
    for name, spec in resources.items():
        issues += resource_issues(document, name, spec, key_types)
        issues += display_issues(document, name, spec)
        issues += delete_rule_issues(document, name, spec)
        issues += trash_issues(document, name, spec)
        issues += action_issues(document, name, spec, key_types)
        issues += metric_issues(document, name, spec, key_types)
        issues += unique_issues(document, name, spec)
        issues += column_issues(document, name, spec)
        issues += adoption_issues(document, name, spec)
        issues += file_issues(document, name, spec)
        issues += composite_key_issues(document, name, spec)
    issues += _clash_issues(document, resources)
    issues += cycle_issues(document, resources)
    issues += relation_key_issues(document, resources)
    issues += has_many_issues(document, resources, key_types)
    issues += many_to_many_issues(document, resources)
    issues += relation_to_composite_issues(document, resources)
    issues += rename_issues(document, resources)
    issues += enum_label_issues(document, resources)
    return issues


def _project_issues(document: Document, project: Any) -> Iterator[Issue]:
    name = project.get("name") if isinstance(project, dict) else None
    problem = identifiers.project_problem(name) if isinstance(name, str) else None
    if problem:
        yield document.issue(("project", "name"), *problem_args(problem))


def _key_type(spec: Any) -> str | None:
    """The type of a resource's key, None when unknown (so relations go unchecked)."""
    if not isinstance(spec, dict) or "key" not in spec:
        return "integer"
    fields, key = spec.get("fields"), spec.get("key")
    if isinstance(fields, dict) and isinstance(key, str):
        return field_type(fields.get(key))
    return None


def _clash_issues(document: Document, resources: dict[str, Any]) -> Iterator[Issue]:
    owners: dict[tuple[str, str], str] = {}
    for name, spec in resources.items():
        options = spec if isinstance(spec, dict) else {}
        clashes = []
        for kind, value in _derived_names(name, options):
            other = owners.setdefault((kind, value), name)
            if other != name:
                clashes.append((kind, value, other))
        module_clash = any(kind == "module" for kind, _, _ in clashes)
        for kind, value, other in clashes:
            # A shared module makes the default URI and table clash too: say it once.
            if kind == "module" or kind in options or not module_clash:
                yield _clash_issue(document, name, kind, value, other, kind in options)


def _derived_names(name: str, options: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """The resource's URI, table, module and model name as Django compares it (case
    ignored); defaults only for a well-formed name."""
    derive = identifiers.PASCAL.fullmatch(name) is not None
    uri = options.get("uri", naming.resource_uri(name) if derive else None)
    table = options.get("table", naming.table_name(name) if derive else None)
    module = naming.module_name(name) if derive else None
    model = name.lower() if derive else None
    named = (("uri", uri), ("table", table), ("module", module), ("model", model))
    for kind, value in named:
        if isinstance(value, str):
            # SQLite and MySQL compare table names without case, as Django models
            yield kind, value.lower() if kind == "table" else value


def _clash_issue(
    document: Document, name: str, kind: str, value: str, other: str, declared: bool
) -> Issue:
    if kind in ("module", "model"):
        message = f"'{name}' and '{other}' would share the module '{value}'"
        if kind == "model":
            message = (
                f"'{name}' and '{other}' differ only in case, which Django's model "
                "names ignore"
            )
        return document.issue(
            ("resources", name), message, "M020", "rename one", key=True
        )
    noun = "URI" if kind == "uri" else kind
    hint = None if declared else f"set '{kind}' to tell them apart"
    message = f"{shown(value)} is already the {noun} of '{other}'"
    return document.issue(("resources", name, kind), message, "M020", hint)
