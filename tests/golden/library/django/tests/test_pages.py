"""The pages every panel has, whatever its resources: home, forms, templates, safety."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client

from app.resources import RESOURCES
from panel.templating import jinja_environment
from tests.cases import HOME, REDIRECTS
from tests.sessions import (
    EMAIL,
    HTML,
    PASSWORD,
    browser,
    form_login,
    make_user,
    page_token,
    post_form,
    use_sessions,
)
from tests.test_api import post_create

SAMPLES = {
    sample["resource"]: sample
    for sample in json.loads((Path(__file__).parent / "samples.json").read_text())
}


@pytest.fixture(autouse=True)
def _sessions(settings: Any) -> None:
    use_sessions(settings)


@pytest.fixture
def person(db: None) -> Client:
    """A browser logged in through the login form."""
    del db
    make_user()
    client = browser()
    form_login(client)
    return client


@pytest.mark.django_db
@pytest.mark.parametrize(("target", "expected"), REDIRECTS[:8])
def test_the_login_goes_on_only_to_this_site(target: str, expected: str) -> None:
    make_user()
    client = browser()
    token = page_token(client, "/admin/login")
    form = {"username": EMAIL, "password": PASSWORD, "_token": token, "next": target}
    response = post_form(client, "/admin/authenticate", form)
    assert response.status_code == 303
    assert response["Location"] == expected


def test_every_template_is_autoescaped() -> None:
    env = jinja_environment()
    assert "panel/base.html" in env.list_templates()
    assert env.autoescape is True


def test_home_lists_every_resource_with_safe_headers(person: Client) -> None:
    response = person.get(HOME)
    assert response.status_code == 200
    text = response.content.decode()
    for resource in RESOURCES:
        assert f"/admin/resource/{resource.uri}/index-page" in text
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cache-Control"] == "no-store"
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    assert '<meta name="csrf-token" content="' in text
    assert '<span class="who">Grace</span>' in text


def test_https_answers_tell_browsers_to_stay(person: Client) -> None:
    response = person.get(HOME, secure=True)
    assert response["Strict-Transport-Security"].startswith("max-age=")


@pytest.mark.django_db  # closing a response ends the request, which tidies the DB
def test_static_files_are_served_and_cacheable(client: Client) -> None:
    for path in (
        "/static/panel/panel.css",
        "/static/panel/panel.js",
        "/static/panel/picker.js",
    ):
        response = client.get(path)
        assert response.status_code == 200
        assert "no-store" not in response.get("Cache-Control", "")
        assert response["X-Content-Type-Options"] == "nosniff"
        response.close()


@pytest.mark.parametrize("resource", RESOURCES, ids=lambda r: r.uri)
def test_every_resource_has_its_pages(person: Client, resource: Any) -> None:
    base = f"/admin/resource/{resource.uri}"
    for page in ("index-page", "form-page", "index-page?_fragment-load=table"):
        response = person.get(f"{base}/{page}")
        assert response.status_code == 200, (page, response.content)
    fragment = person.get(f"{base}/index-page?_fragment-load=table").content
    assert b"<table" in fragment and b"<html" not in fragment


def _created(person: Client, uri: str, headers: dict[str, str]) -> Any:
    """The key of a new record of ``uri``, its related records created first."""
    sample = SAMPLES[uri]
    body = dict(sample["body"])
    for field, target in sample["relations"].items():
        body[field] = _created(person, target, headers)
    created = post_create(person, sample, body, headers=headers)
    assert created.status_code == 201, created.content
    resource = next(r for r in RESOURCES if r.uri == uri)
    return resource.key_of(created.json()["data"])  # a composite key: its parts


@pytest.mark.parametrize("resource", RESOURCES, ids=lambda r: r.uri)
def test_a_record_has_its_pages(person: Client, resource: Any) -> None:
    headers = {"Accept": "application/json", "X-CSRF-Token": page_token(person)}
    key = quote(str(_created(person, resource.uri, headers)), safe="")
    base = f"/admin/resource/{resource.uri}"
    for page in (f"form-page/{key}", f"detail-page/{key}", "index-page"):
        response = person.get(f"{base}/{page}")
        assert response.status_code == 200, (page, response.content)
        assert f"/crud/{key}".encode() in response.content or page == "index-page"


def test_unknown_pages_are_404_pages(person: Client) -> None:
    base = f"/admin/resource/{RESOURCES[0].uri}"
    for url in (
        f"{base}/no-page",
        f"{base}/detail-page/999999999",
        f"{base}/index-page?_fragment-load=nothing",
        "/admin/resource/no-such-resource/index-page",
        "/admin/page/no-such-page",
        "/admin/nothing-here",
    ):
        response = person.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"].startswith("text/html"), url


def test_pages_are_for_browsers(person: Client) -> None:
    url = f"/admin/resource/{RESOURCES[0].uri}/index-page"
    response = person.get(url, headers={"Accept": "application/json"})
    assert response.status_code == 406
    assert "/crud" in response.json()["message"]


def test_a_form_with_errors_comes_back_with_its_values(person: Client) -> None:
    typed = ("number", "date", "datetime-local")
    found = [
        (resource, field)
        for resource in RESOURCES
        for field in resource.writable_fields
        if field.input_type in typed
    ]
    if not found:
        pytest.skip("no resource has a number or date field to get wrong")
    resource, wrong = found[0]
    sample = SAMPLES[resource.uri]["body"]
    values = {k: str(v) for k, v in sample.items() if not isinstance(v, bool)}
    values[wrong.name] = "<b>not this</b>"
    form = {**values, "_token": page_token(person)}
    response = post_form(person, f"/admin/resource/{resource.uri}/crud", form)
    # Post/redirect/get: back to the form page, which shows the form once.
    assert response.status_code == 303
    form_page = f"/admin/resource/{resource.uri}/form-page"
    assert response["Location"] == form_page
    text = person.get(form_page).content.decode()
    assert 'class="field has-error"' in text
    assert "Please correct the errors below." in text
    assert "<b>not this" not in text
    for name, value in values.items():
        if not resource.field_map[name].write_only:
            assert html.escape(value) in text, name
    assert "Please correct" not in person.get(form_page).content.decode()


def test_a_resource_template_comes_before_the_generic_one(
    person: Client, settings: Any, tmp_path: Path
) -> None:
    uri = RESOURCES[0].uri
    own = tmp_path / "panel" / "resources" / uri / "index.html"
    own.parent.mkdir(parents=True)
    own.write_text("{{ label }} {{ resource.is_now_on_index() }} {{ '<b>' }}")
    templates = [{**settings.TEMPLATES[0], "DIRS": [tmp_path]}]
    settings.TEMPLATES = templates
    response = person.get(f"/admin/resource/{uri}/index-page", headers=HTML)
    assert response.content.decode() == f"{RESOURCES[0].model.__name__} True &lt;b&gt;"
