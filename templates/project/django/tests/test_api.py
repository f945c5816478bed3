"""The JSON CRUD API of every resource, and the errors every route answers alike.

Tests run once per resource of ``app.resources.RESOURCES`` keyed by one field with the
valid body of ``tests/samples.json``; the records a body refers to are created first.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from app.resources import RESOURCES
from panel.registry import registry
from panel_core import fields
from panel_core.query import to_utc
from panel_core.resource import Resource
from tests.conftest import jwt_mode
from tests.uploads import assert_uploaded, sample_uploads

Samples = dict[str, dict[str, Any]]
URI = RESOURCES[0].uri
URL = f"/admin/resource/{URI}/crud"
# Where the test client's requests arrive: the JSON answers' links are absolute.
ORIGIN = "http://testserver"
FORM = "application/x-www-form-urlencoded"

# A resource whose key is several fields has tests of its own
# (``tests/test_<module>_keys.py``): its records are named by their encoded keys.
ONE_FIELD_KEYS = [resource for resource in RESOURCES if not resource.key_parts]
each_resource = pytest.mark.parametrize("resource", ONE_FIELD_KEYS, ids=lambda r: r.uri)


def crud(resource: type[Resource]) -> str:
    """The crud URL of ``resource``."""
    return crud_of(resource.uri)


def crud_of(uri: str) -> str:
    """The crud URL of the resource ``uri``."""
    return f"/admin/resource/{uri}/crud"


def payload(api: Client, samples: Samples, uri: str) -> dict[str, Any]:
    """A valid create body of resource ``uri``, its related records created first.

    Where the client names the records (a code, say), each body takes a key of its own,
    and values of its own for the unique fields (``distinct``).
    """
    sample = samples[uri]
    body = dict(sample["body"])
    if "keys" in sample:
        assert sample["keys"], f"tests/samples.json: add keys for {uri}"
        body[sample["key"]] = sample["keys"].pop(0)
    for field, values in sample.get("distinct", {}).items():
        assert values, f"tests/samples.json: add values of {field} for {uri}"
        body[field] = values.pop(0)
    for field, target in sample["relations"].items():
        body[field] = create(api, samples, target)[samples[target]["key"]]
    return body


def create(api: Client, samples: Samples, uri: str, **changes: Any) -> dict[str, Any]:
    """A new record of resource ``uri``, created through the API."""
    body = {**payload(api, samples, uri), **changes}
    response = post_create(api, samples[uri], body)
    assert response.status_code == 201, response.content
    record: dict[str, Any] = response.json()["data"]
    return record


def post_create(
    client: Client, sample: dict[str, Any], body: dict[str, Any], **extra: Any
) -> Any:
    """POST a create body to the sample's resource: as JSON, or as a multipart form
    with the sample's ``files`` where the resource requires one (JSON cannot carry a
    file)."""
    url = crud_of(sample["resource"])
    if "files" not in sample:
        return client.post(url, body, "application/json", **extra)
    return client.post(url, multipart(sample, body), **extra)


def multipart(sample: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    """``body`` as a multipart form sends it, with the sample's files."""
    form: dict[str, Any] = {name: form_text(value) for name, value in body.items()}
    for name, upload in sample_uploads(sample).items():
        form[name] = SimpleUploadedFile(*upload)
    return form


def hidden(resource: type[Resource]) -> set[str]:
    """The fields a record never shows (passwords)."""
    return {f.name for f in resource.fields if f.write_only}


def shown(resource: type[Resource], body: dict[str, Any]) -> dict[str, Any]:
    """What a record of ``body`` shows: no secrets, date-times in UTC."""
    values = {}
    for name, value in body.items():
        field = resource.field_map[name]
        if isinstance(field, fields.DateTime) and value is not None:
            value = to_utc(datetime.fromisoformat(value)).isoformat()
        if not field.write_only:
            values[name] = value
    return values


def assert_shows(
    resource: type[Resource], record: dict[str, Any], body: dict[str, Any]
) -> None:
    """``record`` holds the values ``body`` sent, and no secret."""
    expected = shown(resource, body)
    assert {name: record[name] for name in expected} == expected
    assert not hidden(resource) & set(record)


def form_text(value: Any) -> str:
    """A value as an HTML form sends it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


@each_resource
def test_create_answers_201_with_the_record(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    body = payload(api, samples, resource.uri)
    response = post_create(api, samples[resource.uri], body)
    assert response.status_code == 201, response.content
    answer = response.json()
    key = answer["data"][resource.key_name()]
    assert answer["message"] == "Saved"
    assert answer["messageType"] == "success"
    assert answer["redirect"] == f"/admin/resource/{resource.uri}/form-page/{key}"
    assert response["Location"] == f"{ORIGIN}{crud(resource)}/{key}"
    assert_shows(resource, answer["data"], body)
    assert_uploaded(answer["data"], sample_uploads(samples[resource.uri]))


@each_resource
def test_create_accepts_a_form(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    body = payload(api, samples, resource.uri)
    if "files" in samples[resource.uri]:  # a multipart form, with the files
        response = api.post(crud(resource), multipart(samples[resource.uri], body))
    else:
        form = urlencode({name: form_text(value) for name, value in body.items()})
        response = api.post(crud(resource), form, FORM)
    assert response.status_code == 201, response.content
    assert_shows(resource, response.json()["data"], body)


@each_resource
def test_show_and_a_missing_record(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    record = create(api, samples, resource.uri)
    key = record[resource.key_name()]
    assert api.get(f"{crud(resource)}/{key}").json() == record
    absent = samples[resource.uri]["missing"]
    missing = api.get(f"{crud(resource)}/{absent}")
    assert missing.status_code == 404
    label = resource.model.__name__
    assert missing.json() == {"message": f"{label} {absent} not found"}
    for key in ("not-a-key", "99999999999999999999999"):
        assert api.get(f"{crud(resource)}/{key}").status_code == 404


@each_resource
def test_list_pages_and_links(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    key = resource.key_name()
    keys = sorted(create(api, samples, resource.uri)[key] for _ in range(3))
    response = api.get(crud(resource), {"sort": key, "per_page": 2, "page": 2})
    assert response.status_code == 200
    body = response.json()
    assert [record[key] for record in body["data"]] == keys[2:]
    assert (body["total"], body["current_page"], body["last_page"]) == (3, 2, 2)
    assert (body["from"], body["to"], body["per_page"]) == (3, 3, 2)
    path = ORIGIN + crud(resource)
    assert body["path"] == path
    assert body["prev_page_url"] == f"{path}?sort={key}&per_page=2&page=1"
    assert body["next_page_url"] is None
    labels = [link["label"] for link in body["links"]]
    assert labels == ["&laquo; Previous", "1", "2", "Next &raquo;"]
    past = api.get(crud(resource), {"page": 9}).json()
    pages = -(-3 // resource.per_page)  # three records, the resource's page size
    assert (past["data"], past["from"], past["to"], past["last_page"]) == (
        [],
        None,
        None,
        pages,
    )


@each_resource
def test_list_sorts_both_ways_and_by_several_fields(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    key = resource.key_name()
    keys = sorted(create(api, samples, resource.uri)[key] for _ in range(2))
    ascending = api.get(crud(resource), {"sort": key}).json()["data"]
    descending = api.get(crud(resource), {"sort": f"-{key}"}).json()["data"]
    assert [record[key] for record in ascending] == keys
    assert [record[key] for record in descending] == keys[::-1]
    # The two records share their sample values, not their related records (each
    # create makes its own) nor unique values: a tie on a shared value is broken by
    # the key.
    varied = samples[resource.uri].get("distinct", {})
    shared = [
        name
        for name in resource.sortable_fields
        if name != key
        and name not in varied
        and not isinstance(resource.field_map[name], fields.BelongsTo)
    ]
    if shared:
        several = api.get(crud(resource), {"sort": f"{shared[0]},-{key}"})
        assert [record[key] for record in several.json()["data"]] == keys[::-1]


@each_resource
def test_list_filters_searches_and_tags(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    key = resource.key_name()
    records = [create(api, samples, resource.uri) for _ in range(2)]
    chosen = records[0][key]
    found = api.get(crud(resource), {f"filter[{key}]": str(chosen)}).json()["data"]
    assert [record[key] for record in found] == [chosen]
    if resource.search:
        assert api.get(crud(resource), {"search": "%"}).json()["total"] == 0
        assert api.get(crud(resource), {"search": ""}).json()["total"] == 2
    for tag in resource.query_tags:
        response = api.get(crud(resource), {"query-tag": tag.uri})
        assert response.status_code == 200
        for record in response.json()["data"]:
            assert {name: record[name] for name in tag.filter} == dict(tag.filter)


@each_resource
def test_list_refuses_unknown_parameters(api: Client, resource: type[Resource]) -> None:
    params = {
        "sort": "nope",
        "filter[nope]": "1",
        "page": "0",
        "per_page": str(settings.PANEL_MAX_PER_PAGE + 1),
        "query-tag": "nope",
    }
    response = api.get(crud(resource), params)
    assert response.status_code == 422
    assert set(response.json()["errors"]) == set(params)


@each_resource
def test_put_and_patch_change_only_what_they_name(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    record = create(api, samples, resource.uri)
    url = f"{crud(resource)}/{record[resource.key_name()]}"
    unchanged = api.patch(url, {}, "application/json")
    assert unchanged.status_code == 200, unchanged.content
    assert unchanged.json()["data"] == record
    body = payload(api, samples, resource.uri)
    body.pop(resource.key_name(), None)  # keys never change
    changed = api.put(url, body, "application/json")
    assert changed.status_code == 200, changed.content
    assert_shows(resource, changed.json()["data"], body)
    assert api.get(url).json() == changed.json()["data"]
    absent = samples[resource.uri]["missing"]
    missing = api.put(f"{crud(resource)}/{absent}", {}, "application/json")
    assert missing.status_code == 404


@each_resource
def test_invalid_bodies_are_422(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    key = resource.key_name()
    body = {**payload(api, samples, resource.uri), "no_such_field": 1, key: 1}
    response = api.post(crud(resource), body, "application/json")
    assert response.status_code == 422
    files = set(samples[resource.uri].get("files", ()))  # JSON carries no file
    assert set(response.json()["errors"]) == {"no_such_field", key, *files}
    broken = api.post(crud(resource), b'{"broken', "application/json")
    assert broken.status_code == 422
    assert broken.json()["errors"] == {"body": ["The request body is not valid JSON."]}
    required = [
        f.name for f in resource.creatable_fields if f.required and not f.has_default
    ]
    empty = api.post(crud(resource), {}, "application/json")
    if required:
        assert list(empty.json()["errors"]) == required
        label = resource.field_map[required[0]].label
        assert empty.json()["errors"][required[0]] == [
            f"The {label} field is required."
        ]


@each_resource
def test_relations_must_exist_and_follow_their_delete_rules(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    for field, target in samples[resource.uri]["relations"].items():
        absent = samples[target]["missing"]
        body = {**payload(api, samples, resource.uri), field: absent}
        response = post_create(api, samples[resource.uri], body)
        assert response.status_code == 422
        assert list(response.json()["errors"]) == [field]
        record = create(api, samples, resource.uri)
        target_url = f"/admin/resource/{target}/crud/{record[field]}"
        deleted = api.delete(target_url)
        record_url = f"{crud(resource)}/{record[resource.key_name()]}"
        if type(registry().get(target).resource).soft_delete:
            # Moved to the trash: the record keeps referring to it.
            assert deleted.status_code == 200
            assert api.get(record_url).json()[field] == record[field]
            continue
        rule = getattr(resource.field_map[field], "on_delete", "restrict")
        if rule == "set_null":
            assert deleted.status_code == 200
            assert api.get(record_url).json()[field] is None
        elif rule == "cascade":
            assert deleted.status_code == 200
            assert api.get(record_url).status_code == 404
        else:
            assert deleted.status_code == 409
            assert "cannot be deleted" in deleted.json()["message"]
            referring = [r["resource"] for r in deleted.json()["references"]]
            assert resource.uri in referring


@each_resource
def test_delete_and_mass_delete(
    api: Client, samples: Samples, resource: type[Resource]
) -> None:
    key = resource.key_name()
    keys = [create(api, samples, resource.uri)[key] for _ in range(5)]
    gone = api.delete(f"{crud(resource)}/{keys[0]}")
    assert gone.json() == {"message": "Deleted", "messageType": "success"}
    assert api.get(f"{crud(resource)}/{keys[0]}").status_code == 404
    assert api.delete(f"{crud(resource)}/{keys[0]}").status_code == 404
    query = f"ids[]={keys[1]}&ids[]={samples[resource.uri]['missing']}"
    by_query = api.delete(f"{crud(resource)}?{query}")
    assert by_query.json() == {
        "message": "Deleted",
        "messageType": "success",
        "deleted": 1,
    }
    by_json = api.delete(crud(resource), {"ids": [keys[2]]}, "application/json")
    assert by_json.json()["deleted"] == 1
    by_form = api.delete(crud(resource), f"ids[]={keys[3]}", FORM)
    assert by_form.json()["deleted"] == 1
    remaining = api.get(crud(resource)).json()["data"]
    assert [record[key] for record in remaining] == keys[4:]
    assert list(api.delete(crud(resource)).json()["errors"]) == ["ids"]


def test_too_many_ids_are_422(api: Client) -> None:
    ids = list(range(1, settings.PANEL_MAX_MASS_DELETE + 2))
    response = api.delete(URL, {"ids": ids}, "application/json")
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["ids"]


def test_an_unknown_resource_or_path_is_json_404(api: Client) -> None:
    response = api.get("/admin/resource/no-such-resource/crud")
    assert response.status_code == 404
    assert response.json() == {"message": "Resource not found"}
    unknown = api.get("/admin/nothing-here")
    assert unknown.status_code == 404
    assert unknown.json() == {"message": "Not Found"}


def test_a_wrong_method_is_405_with_every_allowed_method(api: Client) -> None:
    response = api.put(URL, {}, "application/json")
    assert response.status_code == 405
    assert response["Allow"] == "DELETE, GET, HEAD, OPTIONS, POST"
    assert response.json() == {"message": "Method Not Allowed"}
    item = api.post(f"{URL}/1")
    assert item.headers["Allow"] == "DELETE, GET, HEAD, OPTIONS, PATCH, PUT"
    options = api.options(URL)
    assert options.status_code == 204
    assert options["Allow"] == "DELETE, GET, HEAD, OPTIONS, POST"


def test_bodies_over_the_limit_or_of_another_type_are_refused(api: Client) -> None:
    big = api.post(URL, b" " * (settings.PANEL_MAX_BODY_SIZE + 1), "application/json")
    assert big.status_code == 413
    limit = settings.PANEL_MAX_BODY_SIZE
    assert big.json() == {"message": f"The request body must not exceed {limit} bytes."}
    other = api.post(URL, b"x", "text/plain")
    assert other.status_code == 415


def test_server_errors_are_json_without_a_traceback(
    api: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(registry().get(URI).store, "fetch", broken)
    api.raise_request_exception = False
    response = api.get(f"{URL}/1")
    assert response.status_code == 500
    assert response.json() == {"message": "Server Error"}


def test_browsers_are_sent_to_the_pages(api: Client) -> None:
    for accept in ("text/html", "text/html,*/*;q=0.8", "application/json;q=0, */*"):
        response = api.get(f"{URL}?sort=-id", headers={"Accept": accept})
        assert response.status_code == 303
        assert response["Location"] == f"/admin/resource/{URI}/index-page?sort=-id"
    detail = api.get(f"{URL}/7", headers={"Accept": "text/html"})
    assert detail["Location"] == f"/admin/resource/{URI}/detail-page/7"
    vendor_json = api.get(URL, headers={"Accept": "application/vnd.api+json"})
    assert vendor_json.status_code == 200


def test_a_browser_form_goes_back_with_a_message(api: Client, samples: Samples) -> None:
    key = RESOURCES[0].key_name()
    records = [create(api, samples, URI)[key] for _ in range(2)]
    html = {"Accept": "text/html"}
    form = f"_method=DELETE&ids[]={records[0]}&ids[]={records[1]}&_redirect=//evil"
    asked = api.post(URL, form, FORM, headers=html)
    assert asked.status_code == 200  # the page asks first, listing both records
    assert asked.content.count(b'name="ids[]"') == 2
    assert api.get(URL).json()["total"] == 2
    response = api.post(URL, form + "&_confirmed=1", FORM, headers=html)
    assert response.status_code == 303
    assert response["Location"] == f"/admin/resource/{URI}/index-page"
    assert api.get(URL).json()["total"] == 0
    if not jwt_mode():  # with tokens there is no session, and no next page
        assert api.session["_flash"] == [["success", "2 records deleted."]]
