"""The API does what the committed spec says: schemathesis, in-process, every operation.

Each operation of the spec gets SPEC_TEST_EXAMPLES generated requests (default 100),
sent as the logged-in test client with ``Accept: application/json``. Any server error,
undocumented status code, wrong content type or response that breaks its schema fails.
Generation is derandomized, so a run repeats exactly. A valid record of each resource
(``tests/samples.json``) exists first, and every request that names a record is sent
once more for that record, so updates and deletes also meet data that exists.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.core.config import PROJECT_DIR, get_settings
from panel_core.oag import spec_files
from panel_core.openapi import ITEM_PARAMETER
from tests.helpers import post_create, record_key

SPEC = spec_files(PROJECT_DIR, get_settings().oag_path)[1]
SAMPLES = Path(__file__).with_name("samples.json")
EXAMPLES = int(os.environ.get("SPEC_TEST_EXAMPLES", "100"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Headers of the test client that make a request the logged-in user's.
AUTH_HEADERS = ("accept", "authorization", "x-csrf-token")

schema = schemathesis.openapi.from_path(SPEC)


@pytest.fixture
def records(client: TestClient) -> dict[str, Any]:
    """One record of each resource, created through the API: crud URL → key."""
    keys: dict[str, Any] = {}
    for sample in json.loads(SAMPLES.read_text(encoding="utf-8")):
        url = f"/admin/resource/{sample['resource']}/crud"
        body = dict(sample["body"])
        for name, target in sample["relations"].items():
            target_url = f"/admin/resource/{target}/crud"
            if target_url in keys:
                body[name] = keys[target_url]
        response = post_create(client, sample["resource"], body)
        assert response.status_code == 201, response.text
        keys[url] = record_key(sample["key"], response.json()["data"])
    return keys


@pytest.fixture
def auth(client: TestClient) -> dict[str, Any]:
    """The test client's identity, as keyword arguments of a schemathesis call."""
    headers = {k: v for k, v in client.headers.items() if k.lower() in AUTH_HEADERS}
    headers["Accept"] = "application/json"
    return {"headers": headers, "cookies": dict(client.cookies)}


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
def test_the_api_does_what_the_spec_says(
    case: schemathesis.Case, app: Any, records: dict[str, Any], auth: dict[str, Any]
) -> None:
    case.call_and_validate(app=app, checks=CHECKS, **auth)
    if case.path_parameters and ITEM_PARAMETER in case.path_parameters:
        # The record's collection: what comes before its key (``…/crud/{key}/force``).
        collection = case.operation.path.partition(f"/{{{ITEM_PARAMETER}}}")[0]
        case.path_parameters[ITEM_PARAMETER] = records[collection]
        case.call_and_validate(app=app, checks=CHECKS, **auth)
