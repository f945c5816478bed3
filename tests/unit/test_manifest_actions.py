"""A resource's ``actions`` and ``bulk_update``: read into the model, checked (M045,
M044, roles), emitted into the resource class and documented in the spec."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.model import ir
from generator.model.irdata import project_from_data, project_to_data
from generator.spec.openapi import build_spec
from generator.targets.common import declaration_lines, kernel_imports

ARCHIVE = {
    "label": "Archive",
    "bulk": True,
    "confirm": "Archive the selected?",
    "fields": {"reason": {"type": "string", "maxLength": 200}},
}


def manifest(order: dict[str, Any], roles: dict[str, Any] | None = None) -> str:
    data: dict[str, Any] = {"project": {"name": "shop_admin"}}
    if roles is not None:
        data["roles"] = roles
    fields = {
        "customer": {"type": "string"},
        "status": {"type": "string", "enum": ["new", "paid"]},
        "total": {"type": "integer", "readOnly": True},
    }
    data["resources"] = {"Order": {"fields": fields, **order}}
    return yaml.safe_dump(data, sort_keys=False)


def issues(text: str) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.yaml")
    return list(caught.value.issues)


def codes(text: str) -> list[tuple[str, str]]:
    return [(issue.code, issue.path) for issue in issues(text)]


def test_actions_are_read_with_their_defaults() -> None:
    text = manifest({"actions": {"archive": ARCHIVE, "mark_paid": {"bulk": False}}})
    order = parse_manifest(text, "m.yaml").resource("Order")
    archive, mark_paid = order.actions
    assert (archive.name, archive.label, archive.bulk) == ("archive", "Archive", True)
    assert archive.confirm == "Archive the selected?"
    assert [(f.name, f.max_length) for f in archive.fields] == [("reason", 200)]
    assert (mark_paid.label, mark_paid.bulk, mark_paid.fields) == (
        "Mark paid",
        False,
        (),
    )


def test_actions_survive_the_state_file() -> None:
    text = manifest({"actions": {"archive": ARCHIVE}, "bulk_update": ["status"]})
    project = parse_manifest(text, "m.yaml")
    assert project_from_data(project_to_data(project)) == project
    # Not recorded for a resource without any: older state files stay as they were.
    plain = parse_manifest(manifest({}), "m.yaml")
    data = project_to_data(plain)["resources"][0]
    assert "actions" not in data and "bulk_update" not in data


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Archive", "snake_case"),
        ("ship", "async method"),
        ("restore", "ability"),
        ("update", "ability"),
        ("force", "routes"),
        ("actions", "every resource already has"),
        ("set_status", "bulk_update"),
        ("can", "every resource already has"),
    ],
)
def test_an_action_name_that_cannot_be_is_m043(name: str, why: str) -> None:
    (issue,) = issues(manifest({"methods": ["ship"], "actions": {name: {}}}))
    assert (issue.code, issue.path) == ("M045", f"resources.Order.actions.{name}")
    assert why in issue.message


def test_action_fields_are_checked_as_fields_are() -> None:
    action = {"fields": {"reason": {"type": "string", "minimum": 3}}}
    found = codes(manifest({"actions": {"archive": action}}))
    assert found[0][1] == "resources.Order.actions.archive.fields.reason.minimum"
    unknown = {"fields": {"reason": {"type": "text"}}}
    assert codes(manifest({"actions": {"archive": unknown}}))


def test_an_action_requires_its_own_fields_only() -> None:
    action = {**ARCHIVE, "required": ["reson"]}
    (issue,) = issues(manifest({"actions": {"archive": action}}))
    assert (issue.code, issue.path) == (
        "M045",
        "resources.Order.actions.archive.required[0]",
    )
    assert issue.hint == "did you mean 'reason'?"


def test_bulk_update_lists_writable_fields() -> None:
    found = issues(manifest({"bulk_update": ["id", "total", "statsu", "status"]}))
    assert [(i.code, i.path) for i in found] == [
        ("M044", "resources.Order.bulk_update[0]"),
        ("M044", "resources.Order.bulk_update[1]"),
        ("M044", "resources.Order.bulk_update[2]"),
    ]
    assert "key" in found[0].message and "read-only" in found[1].message
    assert found[2].hint == "did you mean 'status'?"
    (issue,) = issues(manifest({"bulk_update": ["status"], "readonly": ["status"]}))
    assert issue.code == "M044"


def test_roles_may_grant_a_resources_actions() -> None:
    order = {"actions": {"archive": ARCHIVE}}
    parse_manifest(manifest(order, {"clerk": {"Order": ["archive"]}}), "m.yaml")
    parse_manifest(manifest(order, {"clerk": {"*": ["archive"]}}), "m.yaml")
    (issue,) = issues(manifest({}, {"clerk": {"Order": ["archive"]}}))
    assert issue.code == "M034"


def _order(text: str) -> tuple[ir.Project, ir.Resource]:
    project = parse_manifest(text, "m.yaml")
    return project, project.resource("Order")


def test_the_resource_class_declares_them() -> None:
    text = manifest({"actions": {"archive": ARCHIVE}, "bulk_update": ["status"]})
    project, order = _order(text)
    lines = "\n".join(declaration_lines(order, project))
    assert 'Action(\n            "archive",\n            label=' not in lines
    assert 'confirm="Archive the selected?"' in lines
    assert 'fields=(Text("reason", max_length=200),)' in lines
    assert 'bulk_update = ("status",)' in lines
    assert "from panel_core.record_actions import Action" in kernel_imports(
        order, project
    )


def test_the_spec_documents_each_action() -> None:
    text = manifest({"actions": {"archive": ARCHIVE}, "bulk_update": ["status"]})
    project, order = _order(text)
    paths = build_spec(project)["paths"]
    base = f"/admin/resource/{order.uri}/crud/actions"
    archive = paths[f"{base}/archive"]["post"]
    schema = archive["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["reason"]["maxLength"] == 200
    assert "Archive the selected?" in archive["requestBody"]["description"]
    assert "501" in archive["responses"]
    status = paths[f"{base}/set_status"]["post"]
    assert "501" not in status["responses"]
    body = status["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["status"]
    assert body["properties"]["status"]["enum"] == ["new", "paid", None]  # optional
    plain = build_spec(parse_manifest(manifest({}), "m.yaml"))["paths"]
    assert not [path for path in plain if "/actions/" in path]
