"""Fixtures shared by every test module: a user, and API clients logged in as it.

The database is pytest-django's: a test database migrated from ``app/migrations``
(``db`` gives a test access to it, each test in a transaction rolled back after it).
``api`` is a JSON client logged in the way the project is configured, as API clients
are: in session mode with the session's CSRF token in ``X-CSRF-Token`` (and CSRF
checks enforced), in JWT mode with the bearer token ``POST /admin/authenticate``
gives. ``samples`` holds a valid create body per resource (``tests/samples.json``);
``gadgets`` makes the panel serve the tests' own resource alone (``tests.gadgets``),
``part_db_table`` adds the table of its parts (``tests.customising``);
``seven_gadgets`` adds seven records and a JSON client of them.
Set ``DATABASE_URL`` to a PostgreSQL or MySQL/MariaDB server to run the tests there
(pytest-django creates and drops a ``test_<name>`` database beside the one named; on
MySQL with the utf8mb4_bin collation ``migrate`` asks for).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest
from django.middleware.csrf import CSRF_SESSION_KEY, get_token
from django.test import Client

from panel.users import create_user
from panel_core.abilities import ADMIN
from tests.gadget_parts import CURSOR_NAMES, ListClient

EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"
JSON = {"Accept": "application/json"}
_SAMPLES = Path(__file__).with_name("samples.json")


def jwt_mode() -> bool:
    """Whether the project logs API clients in with tokens rather than sessions."""
    return "SessionMiddleware" not in " ".join(settings.PANEL["middleware"])


@pytest.fixture(autouse=True)
def media_root(settings: Any, tmp_path: Path) -> Path:
    """The folder uploads go to: the test's own, never the project's ``media/``."""
    settings.PANEL_MEDIA_ROOT = str(tmp_path / "media")
    settings.PANEL_STORAGE_URL = ""
    return tmp_path / "media"


@pytest.fixture
def user(db: None) -> AbstractBaseUser:
    """A panel user, ``admin``: username and e-mail EMAIL, password PASSWORD."""
    return create_user(email=EMAIL, password=PASSWORD, role=ADMIN)


@pytest.fixture
def api(user: AbstractBaseUser) -> Client:
    """A JSON client logged in as ``user``, as the project's API clients log in."""
    if jwt_mode():
        return _bearer_client()
    client = Client(enforce_csrf_checks=True, headers=JSON)
    client.force_login(user)
    client.defaults["HTTP_X_CSRF_TOKEN"] = _csrf_token(client)
    return client


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> None:
    """pytest-django's test database, with the tables that existed before the panel
    (``adopted:``): migrations never create them, so they are made from the models."""
    from django.apps import apps
    from django.db import connection

    with django_db_blocker.unblock():
        existing = set(connection.introspection.table_names())
        with connection.schema_editor() as editor:
            for model in apps.get_app_config("app").get_models():
                if model._meta.db_table not in existing:
                    editor.create_model(model)


@pytest.fixture(scope="module")
def gadget_db_table(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """The table of the tests' own resource (``tests.gadgets``), for a module."""
    from tests.gadgets import gadget_table  # a model: import once Django is set up

    yield from gadget_table(django_db_blocker)


@pytest.fixture(scope="module")
def part_db_table(gadget_db_table: None, django_db_blocker: Any) -> Iterator[None]:
    """The table of the gadgets' parts (``tests.customising``), for a module."""
    from tests.customising import part_table  # a model: import once Django is set up

    yield from part_table(django_db_blocker)


@pytest.fixture
def gadgets(monkeypatch: pytest.MonkeyPatch, gadget_db_table: None) -> Iterator[None]:
    """The panel serving the tests' own resource and page alone, for one test."""
    from tests.gadgets import serve_gadgets

    yield from serve_gadgets(monkeypatch)


@pytest.fixture
def seven_gadgets(gadgets: None, db: None) -> ListClient:
    """A logged-in JSON client of the tests' resource alone: seven gadgets, keys 1-7."""
    from django.db import connection

    from tests.gadgets import Gadget, json_client

    Gadget.objects.bulk_create(
        Gadget(id=i + 1, name=name, active=i % 2 == 0)
        for i, name in enumerate(CURSOR_NAMES)
    )
    return ListClient(json_client(), connection.vendor)


@pytest.fixture
def samples() -> dict[str, dict[str, Any]]:
    """Per resource URI: ``body`` (valid for a create), ``relations``, ``missing``
    (a key no record has) and, where the client names the records, the ``keys`` left
    to give them (fresh for each test)."""
    return {s["resource"]: s for s in json.loads(_SAMPLES.read_text("utf-8"))}


def _bearer_client() -> Client:
    client = Client(headers=JSON)
    body = {"username": EMAIL, "password": PASSWORD}
    response = client.post("/admin/authenticate", body, content_type="application/json")
    assert response.status_code == 200, response.content
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {response.json()['token']}"
    return client


def _csrf_token(client: Client) -> str:
    """A CSRF token for the client's session, as the panel's pages would print it."""
    request = HttpRequest()
    token = get_token(request)  # a new secret, which the middleware would store
    session = client.session
    session[CSRF_SESSION_KEY] = request.META["CSRF_COOKIE"]
    session.save()
    return token
