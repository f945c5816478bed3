"""Round trips an API consumer relies on (issue 15).

Null and absent are different things in an update body: ``PUT`` and ``PATCH`` change
the fields the body names (the READMEs' table; the spec gives both the same
``…Update`` body, nothing required), so a field left out is unchanged, and one sent
as ``null`` becomes null where the field takes null (nullable, or optional without a
default) and is 422 naming it elsewhere.

A date-time is an instant: sent with any offset it is stored and answered as the same
instant in UTC, microseconds kept, on every database; filters and sorts compare
instants, not the text sent. A date-time without an offset is taken as UTC (the
shared ``to_utc``; the READMEs and the spec do not say so).
"""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from generator.model import ir

from .conftest import EXAMPLE_IDS, MANIFESTS, _params, sqlite_params
from .support import (
    Api,
    Deployment,
    crud,
    marker_field,
    marker_value,
    new_marker,
)

pytestmark = pytest.mark.e2e

WITH_DATE_TIMES = [
    example
    for example in EXAMPLE_IDS
    if any(
        found.format == "date-time"
        for resource in MANIFESTS[example].resources
        for found in resource.fields
    )
]
UPDATES = ("PATCH", "PUT")


@pytest.fixture(params=sqlite_params())
def sqlite_deployment(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


@pytest.fixture(params=_params(WITH_DATE_TIMES))
def dated_deployment(request: pytest.FixtureRequest, fleet) -> Deployment:
    """The examples with a date-time field, on every database (storage differs)."""
    return fleet.get(*request.param)


def _writable(resource: ir.Resource) -> list[ir.Field]:
    return [
        f
        for f in resource.fields
        if not (f.is_key or resource.is_read_only(f) or f.relation)
        and f.format != "password"  # write-only: never in an answer to compare
    ]


def _takes_null(resource: ir.Resource) -> list[ir.Field]:
    return [f for f in _writable(resource) if f.column_nullable]


def _refuses_null(resource: ir.Resource) -> list[ir.Field]:
    return [f for f in _writable(resource) if not f.column_nullable]


def _update(
    api: Api, method: str, resource: ir.Resource, key: Any, body: dict[str, Any]
) -> Any:
    return api.request(method, crud(resource, key), json=body)


def _without(record: dict[str, Any], name: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k != name}


@pytest.mark.parametrize("method", UPDATES)
def test_a_field_left_out_of_an_update_is_unchanged(
    sqlite_deployment: Deployment, method: str
) -> None:
    with sqlite_deployment.api() as api:
        for resource in sqlite_deployment.project.resources:
            created = api.create(resource)
            key = created[resource.key]
            named = marker_field(resource)
            value = marker_value(named, new_marker(), 7)
            response = _update(api, method, resource, key, {named.name: value})
            assert response.status_code == 200, response.text
            saved = response.json()["data"]
            assert saved[named.name] == value
            # Every other field, null ones and those with defaults included, is
            # as it was: nothing is reset to a default or to null.
            assert _without(saved, named.name) == _without(created, named.name)
            shown = api.get(crud(resource, key)).json()
            assert shown == saved
            empty = _update(api, method, resource, key, {})
            assert empty.status_code == 200, empty.text
            assert api.get(crud(resource, key)).json() == saved


@pytest.mark.parametrize("method", UPDATES)
def test_null_empties_a_field_that_takes_null(
    sqlite_deployment: Deployment, method: str
) -> None:
    with sqlite_deployment.api() as api:
        for resource in sqlite_deployment.project.resources:
            for found in _takes_null(resource):
                created = api.create(resource)
                key = created[resource.key]
                assert created[found.name] is not None, (resource.name, found.name)
                response = _update(api, method, resource, key, {found.name: None})
                assert response.status_code == 200, (found.name, response.text)
                saved = response.json()["data"]
                assert saved[found.name] is None
                assert _without(saved, found.name) == _without(created, found.name)
                assert api.get(crud(resource, key)).json() == saved


@pytest.mark.parametrize("method", UPDATES)
def test_null_for_a_field_that_refuses_it_is_422_naming_it(
    sqlite_deployment: Deployment, method: str
) -> None:
    with sqlite_deployment.api() as api:
        for resource in sqlite_deployment.project.resources:
            created = api.create(resource)
            key = created[resource.key]
            for found in _refuses_null(resource):
                response = _update(api, method, resource, key, {found.name: None})
                assert response.status_code == 422, (found.name, response.text)
                message = f"The {found.label} field must not be null."
                assert response.json()["errors"] == {found.name: [message]}
            # Nothing was written, not even the fields of the refused bodies.
            assert api.get(crud(resource, key)).json() == created


# Instants whose text sorts the other way round: 08:00Z < 08:30Z < 09:00Z.
SENT = (
    "2024-03-01T10:00:00+02:00",
    "2024-03-01T08:30:00.000001Z",
    "2024-03-01T03:00:00.5-06:00",
)
IN_UTC = (
    "2024-03-01T08:00:00+00:00",
    "2024-03-01T08:30:00.000001+00:00",
    "2024-03-01T09:00:00.500000+00:00",
)


def _date_time_fields(deployment: Deployment) -> list[tuple[ir.Resource, ir.Field]]:
    return [
        (resource, found)
        for resource in deployment.project.resources
        for found in _writable(resource)
        if found.format == "date-time"
    ]


def _instant(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_a_date_time_comes_back_as_the_same_instant_in_utc(
    dated_deployment: Deployment,
) -> None:
    with dated_deployment.api() as api:
        for resource, found in _date_time_fields(dated_deployment):
            for sent, expected in zip(SENT, IN_UTC, strict=True):
                body = {**api.payload(resource, 1), found.name: sent}
                created = api.post(crud(resource), json=body)
                assert created.status_code == 201, created.text
                record = created.json()["data"]
                # The same instant, in UTC, as the servers write it (orjson:
                # "+00:00"; microseconds when there are any).
                assert record[found.name] == expected, sent
                assert _instant(record[found.name]) == _instant(sent)
                key = record[resource.key]
                assert api.get(crud(resource, key)).json()[found.name] == expected
                # An update reads the offset the same way.
                later = "2024-03-01T12:00:00.123456+05:30"
                patched = _update(api, "PATCH", resource, key, {found.name: later})
                assert patched.status_code == 200, patched.text
                answer = "2024-03-01T06:30:00.123456+00:00"
                assert patched.json()["data"][found.name] == answer
                assert api.get(crud(resource, key)).json()[found.name] == answer


def test_a_date_time_without_an_offset_is_utc(dated_deployment: Deployment) -> None:
    with dated_deployment.api() as api:
        for resource, found in _date_time_fields(dated_deployment):
            body = {**api.payload(resource, 1), found.name: "2024-03-01T10:00:00.25"}
            created = api.post(crud(resource), json=body)
            assert created.status_code == 201, created.text
            record = created.json()["data"]
            assert record[found.name] == "2024-03-01T10:00:00.250000+00:00"
            shown = api.get(crud(resource, record[resource.key])).json()
            assert shown[found.name] == record[found.name]


def _listed(api: Api, resource: ir.Resource, marker: str, **params: str) -> list[Any]:
    """The keys the list answers for the records holding ``marker``, in order."""
    response = api.get(crud(resource), params={"search": marker, **params})
    assert response.status_code == 200, (params, response.text)
    return [r[resource.key] for r in response.json()["data"]]


def test_filters_and_sorts_compare_instants(dated_deployment: Deployment) -> None:
    with dated_deployment.api() as api:
        for resource, found in _date_time_fields(dated_deployment):
            marker = new_marker()
            keys = []
            for n, sent in enumerate(SENT, start=1):
                body = {**api.payload(resource, n, marker), found.name: sent}
                created = api.post(crud(resource), json=body)
                assert created.status_code == 201, created.text
                keys.append(created.json()["data"][resource.key])

            assert _listed(api, resource, marker, sort=found.name) == keys
            assert _listed(api, resource, marker, sort=f"-{found.name}") == keys[::-1]
            # Each instant found by any spelling of it: another offset, Z, none.
            spellings = (
                "2024-03-01T11:00:00+03:00",
                "2024-03-01T08:30:00.000001Z",
                "2024-03-01T09:00:00.5",
            )
            by = f"filter[{found.name}]"
            for key, spelled in zip(keys, spellings, strict=True):
                assert _listed(api, resource, marker, **{by: spelled}) == [key]
            # The text as sent is not what is compared: 10:00 local is 08:00Z.
            assert _listed(api, resource, marker, **{by: "2024-03-01T10:00:00"}) == []
