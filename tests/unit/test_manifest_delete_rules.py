"""A relation's ``on_delete``: read into the IR (restrict by default), refused where
it cannot apply (M041, M042, M010), and written into the kernel declaration and the
foreign keys of both frameworks."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.model.irdata import project_from_data, project_to_data
from generator.model.kernel_fields import kernel_field
from generator.regen.change_plan import plan_changes
from generator.regen.migrations import diff_schema
from generator.render.jinja import render_plans
from generator.targets.django import storage as django_storage
from generator.targets.django.target import DjangoTarget
from generator.targets.fastapi import storage as fastapi_storage
from generator.targets.fastapi.target import FastAPITarget


def manifest(author: dict[str, Any], required: list[str] | None = None) -> str:
    book: dict[str, Any] = {"fields": {"title": {"type": "string"}, "author": author}}
    if required:
        book["required"] = required
    data = {
        "project": {"name": "shop_admin"},
        "resources": {"Author": {"fields": {"name": {"type": "string"}}}, "Book": book},
    }
    return yaml.safe_dump(data, sort_keys=False)


def issues(text: str) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.yaml")
    return list(caught.value.issues)


RELATION = {"type": "integer", "relation": "Author"}


@pytest.mark.parametrize(
    ("declared", "rule", "fastapi", "django"),
    [
        (None, "restrict", "RESTRICT", "models.PROTECT"),
        ("restrict", "restrict", "RESTRICT", "models.PROTECT"),
        ("cascade", "cascade", "CASCADE", "models.CASCADE"),
        ("set_null", "set_null", "SET NULL", "models.SET_NULL"),
    ],
)
def test_the_rule_is_read_and_written_on_both_frameworks(
    declared: str | None, rule: str, fastapi: str, django: str
) -> None:
    author = dict(RELATION, **({"on_delete": declared} if declared else {}))
    project = parse_manifest(manifest(author), "m.yaml")
    field = project.resource("Book").field("author")
    assert (field.on_delete, field.delete_rule) == (rule, rule)
    assert project.resource("Book").field("title").on_delete is None
    assert fastapi_storage.on_delete(field) == fastapi
    assert django_storage.on_delete(field) == django
    options = dict(kernel_field(field, project).kwargs)
    # The kernel's default is restrict: only another rule is written.
    assert options.get("on_delete") == (None if rule == "restrict" else rule)


def test_a_required_relation_cannot_be_set_null_m041() -> None:
    author = dict(RELATION, on_delete="set_null")
    (issue,) = issues(manifest(author, required=["author"]))
    assert (issue.code, issue.path) == (
        "M041",
        "resources.Book.fields.author.on_delete",
    )
    assert issue.hint is not None and "nullable: true" in issue.hint
    # With a default it cannot be empty either; nullable makes it possible.
    (issue,) = issues(manifest(dict(author, default=1)))
    assert issue.code == "M041"
    parse_manifest(manifest(dict(author, nullable=True), ["author"]), "m.yaml")


def test_on_delete_needs_a_relation_m042_and_a_known_rule_m010() -> None:
    (issue,) = issues(manifest({"type": "integer", "on_delete": "cascade"}))
    assert (issue.code, issue.path) == (
        "M042",
        "resources.Book.fields.author.on_delete",
    )
    (issue,) = issues(manifest(dict(RELATION, on_delete="nullify")))
    assert (issue.code, issue.path) == (
        "M010",
        "resources.Book.fields.author.on_delete",
    )
    assert "'set_null'" in issue.message


def _recorded_before_delete_rules(project: Any) -> Any:
    """``project`` as a state file written before ``on_delete`` existed records it."""
    data = project_to_data(project)
    for resource in data["resources"]:
        for field in resource["fields"]:
            field.pop("on_delete", None)
    return project_from_data(data)


def test_the_state_records_the_rule_and_reads_the_old_default() -> None:
    project = parse_manifest(manifest(dict(RELATION, on_delete="cascade")), "m.yaml")
    assert project_from_data(project_to_data(project)) == project
    # Before delete rules, an optional relation's foreign key was SET NULL.
    optional = parse_manifest(manifest(dict(RELATION)), "m.yaml")
    old = _recorded_before_delete_rules(optional)
    assert old.resource("Book").field("author").on_delete == "set_null"
    required = parse_manifest(manifest(dict(RELATION), ["author"]), "m.yaml")
    old = _recorded_before_delete_rules(required)
    assert old.resource("Book").field("author").on_delete == "restrict"


def test_changing_a_rule_is_a_safe_change_of_the_foreign_key() -> None:
    optional = parse_manifest(manifest(dict(RELATION)), "m.yaml")
    old = _recorded_before_delete_rules(optional)
    (change,) = plan_changes(diff_schema(old, optional)).changes
    assert change.kind == "safe", str(change)
    assert "books.author" in str(change)
    migration = FastAPITarget().schema_migration(old, optional, {})
    assert migration is not None
    (code,) = render_plans([migration]).values()
    assert 'ondelete="RESTRICT"' in code and 'ondelete="SET NULL"' in code
    assert "drop_column" not in code and "add_column" not in code
    existing = {"app/migrations/0001_initial.py": "dependencies = []\n"}
    django = DjangoTarget().schema_migration(old, optional, existing)
    assert django is not None
    (code,) = render_plans([django]).values()
    assert "on_delete=models.PROTECT" in code
    assert "AlterField" in code and "RemoveField" not in code
    assert not plan_changes(diff_schema(optional, optional)).changes
