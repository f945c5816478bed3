"""A resource's ``soft_delete``: its trash column (M039), its abilities (M034), the
spec's trash routes and the change plan when it is turned on or off."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.model import ir
from generator.regen.change_plan import plan_changes
from generator.regen.migrations import diff_schema
from generator.spec.openapi import build_spec


def manifest(author: dict[str, Any], roles: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {"project": {"name": "shop_admin"}}
    if roles is not None:
        data["roles"] = roles
    data["resources"] = {
        "Author": {"fields": {"name": {"type": "string"}}, **author},
        "Book": {"fields": {"title": {"type": "string"}}},
    }
    return yaml.safe_dump(data, sort_keys=False)


def issues(text: str) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.yaml")
    return list(caught.value.issues)


def test_soft_delete_is_read_and_adds_the_trash_column() -> None:
    project = parse_manifest(manifest({"soft_delete": True}), "m.yaml")
    author, book = project.resource("Author"), project.resource("Book")
    assert author.soft_delete and not book.soft_delete
    assert [f.name for f in author.fields] == ["id", "name"]  # not a field
    assert author.stored_fields[-1] == ir.TRASH_COLUMN
    assert book.stored_fields == book.fields


def test_a_field_named_like_the_trash_column_is_m039() -> None:
    fields = {"name": {"type": "string"}, "deleted_at": {"type": "string"}}
    (issue,) = issues(manifest({"soft_delete": True, "fields": fields}))
    assert (issue.code, issue.path) == ("M039", "resources.Author.fields.deleted_at")
    assert "trash" in issue.message
    # Without soft_delete the name is free.
    parse_manifest(manifest({"fields": fields}), "m.yaml")


def test_soft_delete_must_be_a_boolean() -> None:
    (issue,) = issues(manifest({"soft_delete": "yes"}))
    assert (issue.code, issue.path) == ("M010", "resources.Author.soft_delete")


def test_the_trash_abilities_belong_to_resources_with_a_trash() -> None:
    roles = {"keeper": {"*": ["restore"], "Author": ["force_delete"]}}
    parse_manifest(manifest({"soft_delete": True}, roles), "m.yaml")
    (issue,) = issues(manifest({}, {"keeper": {"Author": ["restore"]}}))
    assert (issue.code, issue.path) == ("M034", "roles.keeper.Author[0]")
    assert issue.hint is not None and "soft_delete: true" in issue.hint


def test_the_spec_lists_the_trash_routes_of_soft_deleting_resources_only() -> None:
    spec = build_spec(parse_manifest(manifest({"soft_delete": True}), "m.yaml"))
    trash = {
        p for p in spec["paths"] if "/trash" in p or p.endswith(("restore", "force"))
    }
    assert trash == {
        "/admin/resource/author-resource/trash",
        "/admin/resource/author-resource/crud/{resourceItem}/restore",
        "/admin/resource/author-resource/crud/{resourceItem}/force",
    }
    item = "/admin/resource/author-resource/crud/{resourceItem}"
    assert spec["paths"][f"{item}/restore"]["post"]["operationId"] == (
        "authorResourceCrudRestore"
    )
    assert spec["paths"][f"{item}/force"]["delete"]["operationId"] == (
        "authorResourceCrudForceDelete"
    )


def test_turning_soft_delete_on_is_safe_and_off_is_decided_by_the_trash() -> None:
    plain = parse_manifest(manifest({}), "m.yaml")
    soft = parse_manifest(manifest({"soft_delete": True}), "m.yaml")
    (on,) = plan_changes(diff_schema(plain, soft)).changes
    assert str(on) == "[safe] add column authors.deleted_at"
    (off,) = plan_changes(diff_schema(soft, plain)).changes
    assert off.kind == "decided by data" and off.accepted
    assert off.where == "resources.Author.soft_delete"
    (check,) = off.checks
    assert (check.table, check.column, check.kind) == (
        "authors",
        "deleted_at",
        "trashed",
    )
