"""The fast dialect check gives openapi-spec-validator's own verdicts (issue 17).

:mod:`generator.spec.dialect` lets jsonschema-rs pass schema objects that the 3.1
dialect's meta-schema accepts; what it does not pass goes to the original checker.
These tests compare both on the schema objects of real specs, on broken ones, and on
generated ones, and check that a broken spec is still reported.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import jsonschema_specifications
import openapi_projects as projects
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import SchemaError
from openapi_schema_validator import OAS30Validator, OAS31Validator
from openapi_schema_validator._format import oas31_format_checker
from openapi_schema_validator._specifications import REGISTRY

from generator.errors import SpecError
from generator.spec import dialect
from generator.spec.openapi import build_spec
from generator.spec.validate import validate_spec

ORIGINAL = functools.partial(
    OAS31Validator.check_schema, format_checker=oas31_format_checker
)
FAST = dialect.fast_dialect_checker(ORIGINAL)


def _verdict(checker: Any, value: Any) -> str | None:
    try:
        checker(value)
    except SchemaError as exc:
        return str(exc)
    return None


def _formats(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["format"]} if isinstance(node.get("format"), str) else set()
        return found.union(*(_formats(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(_formats(v) for v in node))
    return set()


def test_the_formats_the_meta_schemas_name() -> None:
    named: set[str] = set()
    for uri in dialect.meta_schema_ids():
        named |= _formats(REGISTRY.contents(uri))
    folder = Path(jsonschema_specifications.__file__).parent / "schemas" / "draft202012"
    for path in folder.rglob("*"):
        if path.is_file():
            named |= _formats(json.loads(path.read_text(encoding="utf-8")))
    assert named == dialect.META_SCHEMA_FORMATS


def test_the_fast_path_is_taken_for_the_31_dialect_only() -> None:
    assert FAST is not None
    assert dialect.fast_dialect_checker(OAS30Validator.check_schema) is None
    assert dialect.fast_dialect_checker(repr) is None
    assert dialect.fast_dialect_checker(functools.partial(ORIGINAL, {})) is None


def _schemas(node: Any) -> list[Any]:
    """Every value under a ``schema`` or ``schemas`` key, and their properties."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "schema":
                found.append(value)
            elif key == "schemas" and isinstance(value, dict):
                found += list(value.values())
            found += _schemas(value)
    elif isinstance(node, list):
        for value in node:
            found += _schemas(value)
    return found


def _spoiled(schema: dict[str, Any]) -> list[Any]:
    return [
        {**schema, "type": "strin"},
        {**schema, "minLength": -1},
        {**schema, "pattern": "(("},
        {**schema, "pattern": 5},
        {**schema, "patternProperties": {"((": {}}},
        {**schema, "required": "name"},
        {**schema, "properties": {"a": {"type": 5}}},
        {**schema, "discriminator": {"propertyName": 1}},
        {**schema, "xml": {"name": 5}},
        {**schema, "$ref": 5},
        {**schema, "enum": "one"},
        {"allOf": [schema, {"type": ["string", "strin"]}]},
    ]


SPECS = {
    "library": lambda: build_spec(projects.library()),
    "library-jwt": lambda: build_spec(projects.library(jwt=True)),
    "todo": lambda: build_spec(projects.todo()),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_same_verdicts_on_real_and_spoiled_schemas(name: str) -> None:
    schemas = _schemas(SPECS[name]())
    assert schemas
    for schema in schemas:
        assert _verdict(FAST, schema) is None
        assert _verdict(ORIGINAL, schema) is None
        if isinstance(schema, dict):
            for spoiled in _spoiled(schema):
                expected = _verdict(ORIGINAL, spoiled)
                assert expected is not None, spoiled
                assert _verdict(FAST, spoiled) == expected


_KEYWORDS = st.sampled_from(
    [
        "type",
        "format",
        "pattern",
        "patternProperties",
        "properties",
        "items",
        "enum",
        "const",
        "required",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "$ref",
        "nullable",
        "readOnly",
        "default",
        "example",
        "discriminator",
        "xml",
        "externalDocs",
        "additionalProperties",
        "x-extra",
    ]
)
_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 300)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["string", "integer", "object", "array", "strin", "^a+$", "(("])
)
_SCHEMAS = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(_KEYWORDS | st.text(max_size=3), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(schema=_SCHEMAS)
def test_same_verdicts_on_generated_schemas(schema: Any) -> None:
    assert _verdict(FAST, schema) == _verdict(ORIGINAL, schema)


@pytest.mark.parametrize("cached", [False, True], ids=["whole", "by-piece"])
def test_a_broken_schema_object_is_still_reported(cached: bool, tmp_path: Path) -> None:
    doc = copy.deepcopy(build_spec(projects.todo()))
    doc["components"]["schemas"]["Task"]["properties"]["title"]["pattern"] = "(("
    with pytest.raises(SpecError, match=r"title\.pattern: '\(\(' is not a 'regex'"):
        validate_spec(doc, source="oag.yaml", cache_dir=tmp_path if cached else None)
