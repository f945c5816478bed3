"""Blank is not a value for a required field, in JSON and in forms, on both frameworks.

Strings are trimmed on input (not passwords; ``TRIM_STRINGS=0`` keeps them as sent),
then a required field left blank (empty, or only spaces) answers 422 "The <Label>
field is required." (on create and on update), a blank value of a field that accepts
null is stored as null, and length, pattern and option checks see the trimmed value.
Every writable field of every example is tried, JSON and (session examples) form.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest

from generator.model import ir

from .conftest import SESSION_EXAMPLES, _params, sqlite_params
from .support import (
    HTML,
    Api,
    Deployment,
    crud,
    marker_field,
    new_marker,
    page,
    page_token,
    writable_fields,
)

pytestmark = pytest.mark.e2e

BLANKS = ("", " \t\n ")


def _required(field: ir.Field) -> dict[str, list[str]]:
    return {field.name: [f"The {field.label} field is required."]}


@pytest.fixture(params=sqlite_params())
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    with fleet.get(*request.param).api() as found:
        yield found


def _cases(resource: ir.Resource) -> list[ir.Field]:
    # Fields whose blank has a meaning: required (refused) or nullable (null). A
    # blank for a field with a default that is not nullable is a wrong type instead.
    return [
        f
        for f in writable_fields(resource)
        if f.required or f.column_nullable or f.type == "string"
    ]


def test_blank_required_fields_are_refused_and_blank_optional_ones_are_null(
    api: Api,
) -> None:
    checked = {"required": 0, "null": 0}
    for resource in api.project.resources:
        record = api.create(resource)
        item = crud(resource, record[resource.key])
        for field in _cases(resource):
            for blank in BLANKS:
                body = {**api.payload(resource, 2), field.name: blank}
                created = api.post(crud(resource), json=body)
                patched = api.request("PATCH", item, json={field.name: blank})
                what = (resource.name, field.name, blank)
                if field.required:
                    for answer in (created, patched):
                        assert answer.status_code == 422, (what, answer.text)
                        assert answer.json()["errors"] == _required(field), what
                    checked["required"] += 1
                elif field.column_nullable:
                    assert created.status_code == 201, (what, created.text)
                    assert created.json()["data"][field.name] is None, what
                    assert patched.status_code == 200, (what, patched.text)
                    assert api.get(item).json()[field.name] is None, what
                    checked["null"] += 1
        # Nothing blank was stored over the record's required values.
        stored = api.get(item).json()
        for field in writable_fields(resource):
            if field.required and field.type == "string" and field.format != "password":
                assert stored[field.name] == record[field.name]
    assert checked["required"] and checked["null"]


def test_strings_are_trimmed_before_they_are_checked(api: Api) -> None:
    for resource in api.project.resources:
        field = marker_field(resource)
        marker = new_marker()
        body = api.payload(resource, 3, marker)
        value = body[field.name]
        body[field.name] = f"  {value}\t"
        created = api.post(crud(resource), json=body)
        assert created.status_code == 201, created.text
        key = created.json()["data"][resource.key]
        assert created.json()["data"][field.name] == value
        assert api.get(crud(resource, key)).json()[field.name] == value
        for option_field in writable_fields(resource):
            options = option_field.enum or ()
            if options and isinstance(options[0], str):  # checked after trimming
                patch = {option_field.name: f" {options[0]} "}
                patched = api.request("PATCH", crud(resource, key), json=patch)
                assert patched.status_code == 200, patched.text
                assert patched.json()["data"][option_field.name] == options[0]
            if option_field.max_length and option_field.type == "string":
                # maxLength counts the trimmed value
                fits = "a" * option_field.max_length
                if option_field.pattern or option_field.format:
                    continue
                patch = {option_field.name: f"  {fits}  "}
                patched = api.request("PATCH", crud(resource, key), json=patch)
                assert patched.status_code == 200, patched.text


def test_passwords_keep_their_spaces(api: Api) -> None:
    for resource in api.project.resources:
        for field in writable_fields(resource):
            if field.format != "password":
                continue
            # Long enough only with its spaces.
            secret = " " + "x" * ((field.min_length or 2) - 2) + " "
            body = {**api.payload(resource, 4), field.name: secret}
            created = api.post(crud(resource), json=body)
            assert created.status_code == 201, created.text


@pytest.fixture(params=sqlite_params())
def untrimmed(request: pytest.FixtureRequest, fleet: Any) -> Any:
    framework, example, database = request.param
    deployment = fleet.get(
        framework, example, database, "untrimmed", {"TRIM_STRINGS": "0"}
    )
    with deployment.api() as found:
        yield found


def test_trim_strings_off_keeps_spaces_but_not_blanks(untrimmed: Api) -> None:
    resource = untrimmed.project.resources[0]
    field = marker_field(resource)
    body = untrimmed.payload(resource, 5, new_marker())
    body[field.name] = f" {body[field.name]} "
    created = untrimmed.post(crud(resource), json=body)
    assert created.status_code == 201, created.text
    assert created.json()["data"][field.name] == body[field.name]
    required = next(f for f in writable_fields(resource) if f.required)
    empty = untrimmed.post(crud(resource), json={**body, required.name: ""})
    assert empty.status_code == 422
    assert empty.json()["errors"] == _required(required)


@pytest.fixture(params=_params(SESSION_EXAMPLES, ["sqlite"]))
def browser(request: pytest.FixtureRequest, fleet: Any) -> Deployment:
    return fleet.get(*request.param)


def _field_block(html: str, name: str) -> str:
    found = re.search(
        rf'<div class="field[^"]*">(?:(?!<div class="field).)*?id="field-{name}"'
        r'(?:(?!<div class="field).)*',
        html,
        re.S,
    )
    assert found, (name, html[:3000])
    return found.group(0)


def test_a_form_with_a_blank_required_field_comes_back_with_the_error(
    browser: Deployment,
) -> None:
    with browser.api() as api:
        for resource in api.project.resources:
            token = page_token(api.client, page(resource, "form-page"))
            keep = marker_field(resource)
            for field, blank in itertools.product(writable_fields(resource), BLANKS):
                if not field.required:
                    continue
                body = api.payload(resource, 6, new_marker())
                form = {
                    name: (
                        "true"
                        if value is True
                        else "false" if value is False else str(value)
                    )
                    for name, value in body.items()
                }
                form[field.name] = blank
                refused = api.post(
                    crud(resource), data={"_token": token, **form}, headers=HTML
                )
                # Post/redirect/get: back to the form page, which shows the form.
                assert refused.status_code == 303, (field.name, refused.text[:2000])
                location = refused.headers["location"]
                assert location == page(resource, "form-page")
                answer = api.get(location, headers=HTML)
                assert answer.headers["content-type"].startswith("text/html")
                block = _field_block(answer.text, field.name)
                assert "has-error" in block
                message = f"The {field.label} field is required."
                assert f'<p class="error">{message}</p>' in block
                if keep.name != field.name:  # the other values are kept
                    kept = _field_block(answer.text, keep.name)
                    assert f'value="{form[keep.name]}"' in kept, kept
