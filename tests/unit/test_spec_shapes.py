"""Spec pieces of one shape get one check, and the verdict each gets checked alone."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import openapi_projects as projects
import pytest

from generator.model import ir
from generator.spec.cache import cached_spec_problems, split_spec
from generator.spec.openapi import build_spec
from generator.spec.shapes import shape_key
from generator.spec.validate import spec_problems

field = projects.field


class Counting:
    """``spec_problems`` that counts the documents it is given."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, doc: Mapping[str, Any]) -> list[str]:
        self.calls += 1
        return spec_problems(doc)


def alike(count: int, version: str = "3.1.0") -> ir.Project:
    """``count`` resources declared alike but for their names."""
    resources = [
        projects.resource(
            f"Thing{i}",
            field("title", required=True, max_length=80),
            field("size", "integer", minimum=0),
            field("kind", enum=("a", "b")),
            search=("title",),
        )
        for i in range(count)
    ]
    return projects.project(*resources, version=version)


def resource_pieces(doc: dict[str, Any]) -> list[dict[str, Any]]:
    pieces = split_spec(doc)
    assert pieces is not None
    # The last piece holds what no tag references; the login's and the dashboard's
    # pieces are no resource's.
    panel = ("/admin/authenticate", "/admin/dashboard")
    return [p for p in pieces[:-1] if not any(path in p["paths"] for path in panel)]


@pytest.mark.parametrize("version", ["3.1.0", "3.0.3"])
def test_resources_declared_alike_share_a_shape(version: str) -> None:
    doc = build_spec(alike(4, version))
    keys = {shape_key(piece) for piece in resource_pieces(doc)}
    assert len(keys) == 1 and None not in keys


def test_one_check_per_shape(tmp_path: Path) -> None:
    doc = build_spec(alike(6))
    counting = Counting()
    assert cached_spec_problems(doc, tmp_path / "a", counting) == []
    assert counting.calls == 4  # the login, the dashboard, one resource, the rest
    assert spec_problems(doc) == []


def _first_schema_of(piece: dict[str, Any]) -> dict[str, Any]:
    name = next(n for n in piece["components"]["schemas"] if n.endswith("Create"))
    return piece["components"]["schemas"][name]


@pytest.mark.parametrize(
    "change",
    [
        lambda s: s["properties"]["title"].update(maxLength=81),
        lambda s: s["properties"]["title"].update(default="x" * 90),
        lambda s: s["properties"]["kind"].update(enum=["a", "c"]),
        lambda s: s["properties"]["title"].update(pattern="^x"),
        lambda s: s["properties"].update(other={"type": "string"}),
        lambda s: s["required"].append("size"),
        lambda s: s["properties"]["size"].update(minimum=0.0),
        lambda s: s["properties"]["size"].update(minimum=False),
        lambda s: s["properties"]["title"].update(title=7),
    ],
)
def test_any_change_but_names_changes_the_shape(change: Any) -> None:
    piece = resource_pieces(build_spec(alike(1)))[0]
    changed = copy.deepcopy(piece)
    change(_first_schema_of(changed))
    assert shape_key(changed) not in (None, shape_key(piece))


def test_names_and_texts_do_not_change_the_shape() -> None:
    first, second = resource_pieces(build_spec(alike(2)))
    assert shape_key(first) == shape_key(second)
    retitled = copy.deepcopy(first)
    _first_schema_of(retitled)["properties"]["title"]["title"] = "Another label"
    assert shape_key(retitled) == shape_key(first)


def test_equal_names_are_part_of_the_shape() -> None:
    piece = resource_pieces(build_spec(alike(1)))[0]
    clash = copy.deepcopy(piece)
    operations = [op for item in clash["paths"].values() for op in item.values()]
    operations[1]["operationId"] = operations[0]["operationId"]
    assert shape_key(clash) not in (None, shape_key(piece))
    assert any("is not unique" in p for p in spec_problems(clash))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda p: _first_schema_of(p).update({"$id": "https://example.com/x"}),
        lambda p: _first_schema_of(p).update(discriminator={"propertyName": "kind"}),
        lambda p: _first_schema_of(p)["properties"]["title"].update(
            default={"$ref": "#/x"}
        ),
        lambda p: _first_schema_of(p)["properties"].update(
            x={"$ref": "https://example.com/s"}
        ),
        lambda p: p["components"]["schemas"].update({"Bad name": {}}),
        lambda p: p["paths"].update({"x-extra": {}}),
        lambda p: _first_schema_of(p).update(title=("a", "tuple")),
        lambda p: next(iter(p["paths"].values())).update(callbacks={}),
    ],
)
def test_what_the_shape_cannot_follow_leaves_the_piece_without_one(spoil: Any) -> None:
    piece = copy.deepcopy(resource_pieces(build_spec(alike(1)))[0])
    spoil(piece)
    assert shape_key(piece) is None


def test_a_failing_shape_reports_every_piece_as_checked_alone(tmp_path: Path) -> None:
    doc = copy.deepcopy(build_spec(alike(3)))
    for name, schema in doc["components"]["schemas"].items():
        if name.endswith("Create"):
            schema["properties"]["size"]["type"] = "integr"
    alone: list[str] = []
    for piece in split_spec(doc) or []:
        alone += [p for p in spec_problems(piece) if p not in alone]
    assert len(alone) == 3  # one per resource
    counting = Counting()
    assert cached_spec_problems(doc, tmp_path, counting) == alone
    # the login, the dashboard, each resource piece alone, the rest
    assert counting.calls == 6


def test_a_shape_that_passed_is_remembered(tmp_path: Path) -> None:
    cached_spec_problems(build_spec(alike(2)), tmp_path, Counting())
    counting = Counting()
    assert cached_spec_problems(build_spec(alike(5)), tmp_path, counting) == []
    assert counting.calls == 1  # the rest piece names five tags: a new shape


def test_schema_checks_that_passed_are_not_repeated_but_failures_are() -> None:
    broken = copy.deepcopy(build_spec(alike(2)))
    for name, schema in broken["components"]["schemas"].items():
        if name.endswith("Create"):
            schema["properties"]["size"]["type"] = "integr"
    first = spec_problems(broken)
    assert spec_problems(build_spec(alike(2))) == []
    assert spec_problems(broken) == first and len(first) == 2
