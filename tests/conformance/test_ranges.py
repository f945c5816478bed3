"""Values out of range are 422 naming the field or parameter, never a 500 (issue 19).

``0001-01-01T00:00:00+01:00`` and ``9999-12-31T23:59:59-01:00`` are valid ISO 8601,
but in UTC they fall before year 1 or after year 9999: Python cannot hold them.
"""

from __future__ import annotations

import pytest

from generator.model import ir

from .conftest import EXAMPLE_IDS, MANIFESTS, _params
from .support import Deployment, crud

OUT_OF_RANGE = ("0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00")
# The examples with a date-time field: the others have nothing to send here.
WITH_DATE_TIMES = [
    example
    for example in EXAMPLE_IDS
    if any(
        field.format == "date-time"
        for resource in MANIFESTS[example].resources
        for field in resource.fields
    )
]


@pytest.fixture(params=_params(WITH_DATE_TIMES, ["sqlite"]))
def sqlite_deployment(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


def _date_times(deployment: Deployment) -> list[tuple[ir.Resource, ir.Field]]:
    return [
        (resource, found)
        for resource in deployment.project.resources
        for found in resource.fields
        if found.format == "date-time"
    ]


def test_date_times_out_of_range_are_422(sqlite_deployment: Deployment) -> None:
    cases = _date_times(sqlite_deployment)
    assert cases
    with sqlite_deployment.api() as api:
        for resource, found in cases:
            record = api.create(resource)
            key = record[resource.key]
            for value in OUT_OF_RANGE:
                body = {**api.payload(resource, 2), found.name: value}
                for method, url in (
                    ("POST", crud(resource)),
                    ("PATCH", crud(resource, key)),
                ):
                    response = api.request(method, url, json=body)
                    assert response.status_code == 422, (method, value, response.text)
                    errors = response.json()["errors"]
                    assert list(errors) == [found.name], (method, value, errors)
                    form = {found.name: value}
                    response = api.request(method, url, data=form)
                    assert response.status_code == 422, (method, value, response.text)
                    assert found.name in response.json()["errors"], value
                parameter = f"filter[{found.name}]"
                response = api.get(crud(resource), params={parameter: value})
                assert response.status_code == 422, (value, response.text)
                assert list(response.json()["errors"]) == [parameter], value
            assert api.get(crud(resource, key)).json() == record


def test_a_unix_time_is_not_a_date_time(sqlite_deployment: Deployment) -> None:
    cases = _date_times(sqlite_deployment)
    assert cases
    with sqlite_deployment.api() as api:
        for resource, found in cases:
            body = {**api.payload(resource, 2), found.name: "1704103200"}
            response = api.post(crud(resource), json=body)
            assert response.status_code == 422, response.text
            label = response.json()["errors"]
            assert list(label) == [found.name], label
