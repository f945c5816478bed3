"""The panel's own texts in the request's language, on both frameworks.

One project per framework is generated from ``formatting/shelf.yaml`` and served
twice on SQLite: with the default settings (English, German when the browser's
``Accept-Language`` asks for it) and with the panel language set to German
(``PANEL_LANGUAGE=de``, Django's ``LANGUAGE_CODE``). Pages and messages are compared
between the frameworks byte for byte in German too (CSRF tokens aside); the
manifest's own labels ("Edition", "Paperback") stay as the manifest says them.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, DjangoAsgiServer, run_panelforge

from generator.manifest.load import load_manifest

from .support import HTML, PASSWORD, Api, Deployment, crud, page, page_token

HERE = REPO / "tests" / "conformance" / "formatting"
MANIFEST = load_manifest(HERE / "shelf.yaml")
EDITION = MANIFEST.resource("Edition")
ADMIN = "admin@example.com"
GERMAN = {**HTML, "Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
# Each setting: the environment of the server that has it.
SETTINGS = {"default": {}, "german": {"PANEL_LANGUAGE": "de"}}
# Django over ASGI too (the language's context variable crosses sync_to_async).
ASGI = ("django", "asgi")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[Any, Any]]:
    """Each framework × setting: a logged-in client of a served project."""
    servers, made = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"translations-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "shelf.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            variants = [*SETTINGS] + (["asgi"] if framework == "django" else [])
            for setting in variants:
                url = f"sqlite:///{folder / f'{setting}.db'}"
                kind = DjangoAsgiServer if setting == "asgi" else SERVERS[framework]
                server = kind(project, url)
                env = SETTINGS.get(setting, {})
                server.env.update(env)
                servers.append(server)
                server.migrate()
                server.create_user(ADMIN, PASSWORD)
                server.start()
                deployment = Deployment(framework, "shelf", "sqlite", MANIFEST, server)
                api = Api(deployment)
                api.log_in(ADMIN, PASSWORD)
                made[framework, setting] = api
        yield made
    finally:
        for api in made.values():
            api.client.close()
        for server in servers:
            server.stop()


def _html(api: Api, url: str, headers: dict[str, str] = HTML) -> str:
    response = api.get(url, headers=headers)
    assert response.status_code == 200, response.text[:2000]
    return _TOKEN.sub(r"\1…", str(response.text))


def _flashes(text: str) -> list[str]:
    found = re.findall(r'<p class="flash flash-\w+" role="status">(.*?)</p>', text)
    return [html.unescape(message) for message in found]


PAGES = [page(EDITION, "index-page"), page(EDITION, "form-page"), "/admin"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_english_by_default_and_for_other_languages(
    served: dict[Any, Any], framework: str
) -> None:
    api = served[framework, "default"]
    form = _html(api, page(EDITION, "form-page"))
    assert form.startswith('<!doctype html>\n<html lang="en">')
    assert ">Save and continue editing<" in form
    assert ">New Edition<" in form
    assert 'id="panel-texts"' not in form  # the scripts' own texts are English
    french = {**HTML, "Accept-Language": "fr-FR,fr;q=0.9"}
    for url in PAGES:
        assert _html(api, url, french) == _html(api, url), url


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("setting", ["default", "german"])
def test_german_pages(served: dict[Any, Any], framework: str, setting: str) -> None:
    api = served[framework, setting]
    headers = GERMAN if setting == "default" else HTML
    form = _html(api, page(EDITION, "form-page"), headers)
    assert form.startswith('<!doctype html>\n<html lang="de">')
    for text in (">Speichern<", ">Speichern und weiter bearbeiten<", ">Abbrechen<"):
        assert text in form, text
    assert "<h1>Edition anlegen</h1>" in form  # the manifest's label, as it is
    assert '<option value="paper">Paperback</option>' in form
    assert ">Save<" not in form
    listing = _html(api, page(EDITION, "index-page"), headers)
    for text in (">CSV exportieren<", ">Anwenden<", ">Zurücksetzen<", ">Abmelden<"):
        assert text in listing, text
    assert "Keine Datensätze gefunden." in listing or "von" in listing
    # The pickers' script reads its texts from the page: German ones, as JSON.
    texts = re.search(
        r'<script type="application/json" id="panel-texts">(.*?)</script>', form
    )
    assert texts is not None
    said = json.loads(texts.group(1))
    assert said["Type to search"] == "Zum Suchen tippen"
    assert said["Remove %(name)s"] == "%(name)s entfernen"


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_german_messages_and_errors(served: dict[Any, Any], framework: str) -> None:
    api = served[framework, "german"]
    token = page_token(api.client, page(EDITION, "form-page"))
    form = {"_token": token, "title": "Dune", "binding": "cloth", "weight": "1.5"}
    made = api.client.post(crud(EDITION), data=form, headers=HTML)
    assert made.status_code == 303, made.text[:2000]
    shown = _html(api, made.headers["location"])
    assert "Edition „Dune (cloth)“ angelegt." in _flashes(shown)
    empty = {"_token": token, "title": "", "binding": "cloth"}
    refused = api.client.post(crud(EDITION), data=empty, headers=HTML)
    if refused.status_code == 303:  # post/redirect/get: the form shows the errors
        refused = api.client.get(refused.headers["location"], headers=HTML)
    assert "Bitte korrigieren Sie die Fehler unten." in refused.text
    assert "Das Feld Title ist erforderlich." in refused.text
    missing = api.get(page(EDITION, "detail-page", 999999), headers=HTML)
    assert missing.status_code == 404
    assert "Nicht gefunden" in missing.text and ">Zurück zum Panel<" in missing.text


def test_both_frameworks_serve_the_same_german_pages(served: dict[Any, Any]) -> None:
    for setting in SETTINGS:
        django, fastapi = served["django", setting], served["fastapi", setting]
        headers = GERMAN if setting == "default" else HTML
        for url in PAGES:
            assert _html(django, url, headers) == _html(fastapi, url, headers), url


def test_django_over_asgi_serves_the_same_german_pages(
    served: dict[Any, Any],
) -> None:
    asgi, wsgi = served[ASGI], served["django", "default"]
    for url in PAGES:
        assert _html(asgi, url, GERMAN) == _html(wsgi, url, GERMAN), url
    assert '<html lang="en">' in _html(asgi, PAGES[0])
