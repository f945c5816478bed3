"""The list and write parameters do what the served spec says, on both frameworks.

Each filterable field is its own documented ``filter[<field>]`` parameter and filters,
as each of its operators (``filter[<field>][from]``…) keeps a record it names;
a value it cannot hold, or a query parameter the list does not know, answers 422
naming the parameter (never the whole list); the spec's parameter defaults never
conflict, so a cursor works with what a client sends by default; a mass delete takes
its keys as a JSON body, as documented; an integer field takes an integral number
(``48.0``).
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import sqlite_params
from .support import Api, crud, marker_field, new_marker

pytestmark = pytest.mark.e2e


@pytest.fixture(params=sqlite_params())
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    with fleet.get(*request.param).api() as found:
        yield found


def _list_parameters(api: Api, resource: Any) -> dict[str, Any]:
    spec = api.get("/oag.json").json()
    operation = spec["paths"][crud(resource)]["get"]
    return {p["name"]: p for p in operation["parameters"]}


def test_each_documented_filter_filters_and_refuses_what_it_cannot_hold(
    api: Api,
) -> None:
    for resource in api.project.resources:
        documented = _list_parameters(api, resource)
        marker = new_marker()
        records = api.create_many(resource, 2, marker)
        filters = [n for n in documented if n.startswith("filter[")]
        assert filters, resource.name
        for name in filters:
            field, _, operator = name[len("filter[") : -1].partition("][")
            value = records[0][field]
            if value is None or isinstance(value, dict | list):
                continue
            text = str(value).lower() if isinstance(value, bool) else str(value)
            listed = api.get(crud(resource), params={"search": marker, name: text})
            assert listed.status_code == 200, (name, listed.text)
            data = listed.json()["data"]
            if operator:  # a bound or a text match the record's own value meets
                assert records[0] in data, (name, text)
            else:
                assert data and all(r[field] == value for r in data), (name, text)
            schema = documented[name]["schema"]
            wrong = {"integer": "x", "number": "x", "boolean": "maybe"}.get(
                schema["type"]
            )
            if "enum" in schema:
                wrong = "not-an-option"
            elif schema.get("format") in ("date", "date-time", "uuid", "decimal"):
                wrong = "not-a-" + schema["format"]
            if wrong is None:
                continue
            refused = api.get(crud(resource), params={name: wrong})
            assert refused.status_code == 422, (name, wrong, refused.text)
            assert list(refused.json()["errors"]) == [name]


def test_unknown_query_parameters_are_422_naming_them(api: Api) -> None:
    resource = api.project.resources[0]
    field = marker_field(resource)
    for params in ({field.name: "x"}, {"pgae": "2"}, {"filters": "x", "page": "1"}):
        refused = api.get(crud(resource), params=params)
        assert refused.status_code == 422, (params, refused.text)
        unknown = [n for n in params if n != "page"]
        assert list(refused.json()["errors"]) == unknown
        assert "unknown" in refused.json()["errors"][unknown[0]][0]


def test_a_cursor_works_with_the_documented_defaults(api: Api) -> None:
    for resource in api.project.resources:
        documented = _list_parameters(api, resource)
        # What a generated client sends when told only the cursor: every default.
        defaults = {
            name: p["schema"]["default"]
            for name, p in documented.items()
            if "default" in p["schema"]
        }
        sort_field = resource.field(defaults.get("sort", "-id").lstrip("-"))
        if sort_field.column_nullable:
            continue  # a cursor needs a non-null sort (documented)
        marker = new_marker()
        api.create_many(resource, 3, marker)
        params = {**defaults, "per_page": 2, "search": marker, "cursor": ""}
        first = api.get(crud(resource), params=params)
        assert first.status_code == 200, (resource.name, params, first.text)
        token = first.json()["next_cursor"]
        second = api.get(crud(resource), params={**params, "cursor": token})
        assert second.status_code == 200, second.text
        assert len(first.json()["data"]) + len(second.json()["data"]) == 3


def test_mass_delete_takes_the_documented_json_body(api: Api) -> None:
    resource = api.project.resources[0]
    spec = api.get("/oag.json").json()
    body = spec["paths"][crud(resource)]["delete"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["required"] == ["ids"]
    marker = new_marker()
    keys = [r[resource.key] for r in api.create_many(resource, 2, marker)]
    deleted = api.request("DELETE", crud(resource), json={"ids": keys})
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["deleted"] == 2
    listed = api.get(crud(resource), params={"search": marker}).json()
    assert listed["total"] == 0


def test_integers_take_integral_numbers(api: Api) -> None:
    for resource in api.project.resources:
        for field in resource.fields:
            if field.type != "integer" or field.relation or field.is_key:
                continue
            if field.read_only or field.enum and not isinstance(field.enum[0], int):
                continue
            body = api.payload(resource, 7)
            value = body.get(field.name)
            if not isinstance(value, int):
                continue
            body[field.name] = float(value)
            created = api.post(crud(resource), json=body)
            assert created.status_code == 201, (field.name, created.text)
            assert created.json()["data"][field.name] == value
            body[field.name] = value + 0.5
            refused = api.post(crud(resource), json=body)
            assert refused.status_code == 422, (field.name, refused.text)
            assert list(refused.json()["errors"]) == [field.name]
