"""specs/manifest.schema.json: a valid draft 2020-12 schema that closes every object."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from generator.manifest import schema
from generator.manifest.composer import compose

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "specs" / "manifest.schema.json").read_text("utf-8"))
EXAMPLES = sorted((REPO / "examples").glob("*.yaml"))


def _objects(node: Any, where: str = "#") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        if node.get("type") == "object":
            yield where, node
        for key, value in node.items():
            yield from _objects(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _objects(value, f"{where}/{index}")


def test_the_schema_is_a_valid_draft_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_every_object_says_what_else_it_takes() -> None:
    for where, node in _objects(SCHEMA):
        assert "additionalProperties" in node, where
        if "properties" in node:
            assert node["additionalProperties"] is False, where


def test_every_pattern_and_count_has_wording_for_messages() -> None:
    def walk(node: Any) -> Iterator[dict[str, Any]]:
        if not isinstance(node, dict):
            return
        yield node
        for key, value in node.items():
            if key in ("properties", "$defs"):
                for subschema in value.values():
                    yield from walk(subschema)
            elif isinstance(value, dict):
                yield from walk(value)

    for node in walk(SCHEMA):
        if "pattern" in node or "minItems" in node or "minProperties" in node:
            assert "x-expected" in node, node


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_the_examples_are_valid_for_any_json_schema_validator(path: Path) -> None:
    jsonschema.validate(yaml.safe_load(path.read_text("utf-8")), SCHEMA)


def test_inlined_validator_agrees_with_the_published_schema() -> None:
    # The loader inlines $refs for speed; the error set must not change.
    document = {
        "project": {"name": 3},
        "resources": {"B": {"fields": {"x": {"type": 1}}}},
    }
    published = jsonschema.Draft202012Validator(SCHEMA)
    expected = sorted(list(e.absolute_path) for e in published.iter_errors(document))
    found = sorted(
        list(e.absolute_path) for e in schema._validator().iter_errors(document)
    )
    assert found == expected


def test_rejected_values_are_set_aside() -> None:
    document = compose("project: {name: 3}\nresources: {B: {fields: []}}\n", "m.yaml")
    issues = schema.schema_issues(document)
    assert [issue.path for issue in issues] == ["project.name", "resources.B.fields"]
    assert document.value["project"]["name"] is schema.INVALID
    assert document.value["resources"]["B"]["fields"] is schema.INVALID


@pytest.mark.parametrize(
    ("types", "words"),
    [
        ("string", "a string"),
        (["string", "null"], "a string or null"),
        (["string", "number", "boolean"], "a string, a number or a boolean"),
    ],
)
def test_expected_types_read_as_english(types: Any, words: str) -> None:
    assert schema.expected_types(types) == words
