"""Spec validation: every problem reported, each where it is; the two files compared."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import openapi_projects as projects
import pytest

from generator.errors import GeneratorError, SpecError
from generator.spec.openapi import build_spec, render_spec
from generator.spec.validate import check_spec_pair, spec_problems, validate_spec

REPO = Path(__file__).resolve().parents[2]
LIST = "/admin/resource/task-resource/crud"
ITEM = LIST + "/{resourceItem}"


def broken(version: str) -> dict[str, Any]:
    """The todo spec with five independent mistakes."""
    doc = copy.deepcopy(build_spec(projects.todo(version=version)))
    task = doc["components"]["schemas"]
    task["Task"]["properties"]["title"]["type"] = "integr"
    task["TaskCreate"]["properties"]["done"]["default"] = "yes"
    doc["paths"][LIST]["get"]["parameters"][0]["schema"]["minimum"] = "one"
    doc["paths"][LIST]["get"]["operationId"] = "taskResourceCrudShow"
    ok = doc["paths"][ITEM]["get"]["responses"]["200"]["content"]["application/json"]
    ok["schema"] = {"$ref": "#/components/schemas/Nope"}
    return doc


EXPECTED = [
    'at paths."/admin/resource/task-resource/crud/{resourceItem}".get.responses."200"'
    '.content."application/json".schema: '
    "$ref '#/components/schemas/Nope' points nowhere",
    "Operation ID 'taskResourceCrudShow' for 'get' in "
    "'/admin/resource/task-resource/crud/{resourceItem}' is not unique",
    'at paths."/admin/resource/task-resource/crud".get.parameters[0].schema.minimum: '
    "'one' is not of type 'number'",
    "at components.schemas.Task.properties.title.type: "
    "'integr' is not valid under any of the given schemas",
    "at components.schemas.TaskCreate.properties.done.default: "
    "'yes' is not of type 'boolean'",
]


@pytest.mark.parametrize("version", ["3.1.0", "3.0.3"])
def test_every_problem_is_listed_with_its_place(version: str) -> None:
    with pytest.raises(SpecError) as caught:
        validate_spec(broken(version), source="resources/oag.yaml")
    message = caught.value.message
    assert message.startswith("resources/oag.yaml: the OpenAPI document is invalid (")
    for line in EXPECTED:
        assert f"  - {line}" in message.splitlines()
    assert isinstance(caught.value, GeneratorError)


def test_the_pure_python_backend_reports_the_same(tmp_path: Path) -> None:
    script = (
        "import json, sys, test_validate;"
        "from generator.spec.validate import spec_problems;"
        "print(json.dumps(spec_problems(test_validate.broken('3.1.0'))))"
    )
    paths = os.pathsep.join([str(REPO), str(Path(__file__).parent)])
    env = {
        **os.environ,
        "PYTHONPATH": paths,
        "OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "jsonschema",
    }
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    pure = json.loads(result.stdout)
    assert sorted(pure) == sorted(spec_problems(broken("3.1.0")))


def test_missing_version_and_missing_keys() -> None:
    assert spec_problems({"info": {}}) == [
        "no supported 'openapi' version key (expected 3.0.x or 3.1.x)"
    ]
    doc = build_spec(projects.todo())
    del doc["info"]
    # The two backends quote the name differently.
    assert spec_problems(doc) in (
        ["'info' is a required property"],
        ['"info" is a required property'],
    )


def test_long_messages_are_cut_to_their_gist() -> None:
    doc = broken("3.0.3")
    for problem in spec_problems(doc):
        assert len(problem) < 400, problem


def test_a_valid_spec_has_no_problems() -> None:
    assert spec_problems(build_spec(projects.library(jwt=True))) == []


def test_spec_pair_must_hold_the_same_data() -> None:
    yaml_text, json_text = render_spec(projects.todo())
    check_spec_pair(yaml_text, json_text)
    changed = yaml_text.replace("maxLength: 120", "maxLength: 121", 1)
    with pytest.raises(SpecError, match=r"maxLength: YAML has 121, JSON has 120"):
        check_spec_pair(changed, json_text)
    with pytest.raises(SpecError, match="only in the YAML file"):
        check_spec_pair(yaml_text + "extra: 1\n", json_text)
    with pytest.raises(SpecError, match="YAML has 'true', JSON has True"):
        check_spec_pair('a: "true"\n', '{"a": true}')
    with pytest.raises(SpecError, match="do not parse"):
        check_spec_pair("a: [\n", json_text)
