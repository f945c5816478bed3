"""Fixtures: the app on a database migrated with Alembic, a user, and clients for it.

The app logs in the way the project is configured (sessions or JWT); a test module
marked ``panel_auth("session")`` or ``panel_auth("jwt")`` gets that way instead.
``client`` is a logged-in JSON client (session cookie plus ``X-CSRF-Token``, or a
bearer token), as API clients are; ``browser`` is logged in through the login form, as
people are (sessions only); ``anonymous`` is nobody; ``sign_in(role)`` logs in a new
user with that role, as ``client`` does; ``seven_gadgets`` is a JSON client of the
tests' own resource alone (``tests.gadgets``), with seven records. Tests run on a
temporary SQLite file. Set TEST_DATABASE_URL to run them on another database instead
(say PostgreSQL): they migrate it, empty its tables after each test, and migrate it
back down at the end, so never point it at data you want to keep.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
import sqlalchemy as sa
from argon2 import PasswordHasher, Type
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.core import passwords
from app.core.config import JWT_PANEL, SESSION_PANEL, Settings
from app.core.db import create_db_engine
from app.core.migrations import downgrade, upgrade
from app.core.models import Base
from app.core.users import User, create_user
from app.main import create_app
from tests.adopted_tables import create_adopted_tables
from tests.gadget_parts import CURSOR_NAMES, ListClient
from tests.gadgets import Gadget, gadget_app
from tests.helpers import (
    EMAIL,
    PASSWORD,
    authorize,
    forget_given_keys,
    log_in_with_form,
)

SECRET_KEY = "tests-only-secret-key-never-use-it-elsewhere"
# 32 bytes, base64: tests only.
JWT_SECRET = "dGVzdHMtb25seSBqd3Qgc2VjcmV0LCAzMiBieXRlcyE="
PANELS = {"session": SESSION_PANEL, "jwt": JWT_PANEL}
PRODUCTION_HASHER = passwords._HASHER  # swapped for a cheap one in tests, below


def _settings(database_url: str, **changes: object) -> Settings:
    """Settings for the tests' apps: the test database and test-only secrets."""
    values = {"secret_key": SECRET_KEY, "jwt_secret": JWT_SECRET, **changes}
    return Settings(database_url=database_url, **values)


@pytest.fixture(scope="session", autouse=True)
def cheap_password_hashes() -> Iterator[None]:
    """Passwords hashed at Argon2id's lowest cost while testing.

    Every test makes a user and logs in: at the production cost (~0.1 s a hash) that
    is most of the suite's time. A hash carries its own cost, so logins check these
    exactly as they check production ones; ``production_hashes`` gives a test the
    real cost back.
    """
    cheap = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1, type=Type.ID)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(passwords, "_HASHER", cheap)
        yield


@pytest.fixture
def production_hashes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The production hashing cost, for a test about it."""
    monkeypatch.setattr(passwords, "_HASHER", PRODUCTION_HASHER)


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated, empty database for the whole session."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}"
    upgrade(url)
    adopted = create_adopted_tables(url)
    yield url
    downgrade(url)
    _drop_tables(url, adopted)


@pytest.fixture
def app(
    database_url: str, request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[FastAPI]:
    """The application on the test database, emptied again after the test; the files
    it keeps go to a folder of the test's own."""
    marker = request.node.get_closest_marker("panel_auth")
    changes: dict[str, object] = {"media_root": str(tmp_path / "media")}
    changes["storage_url"] = ""
    if marker:
        changes["panel"] = PANELS[marker.args[0]]
    application = create_app(_settings(database_url, **changes))
    yield application
    _empty(application.state.engine)
    application.state.engine.dispose()


@pytest.fixture
def user(app: FastAPI) -> User:
    """A panel user (EMAIL, PASSWORD)."""
    return create_user(app.state.engine, email=EMAIL, password=PASSWORD, name="Ada")


@pytest.fixture
def anonymous(app: FastAPI) -> Iterator[TestClient]:
    """A JSON client nobody logged in with."""
    with TestClient(app, headers={"Accept": "application/json"}) as test_client:
        yield test_client


@pytest.fixture
def client(app: FastAPI, user: User) -> Iterator[TestClient]:
    """A JSON client logged in as ``user``: CSRF token or bearer token on each request."""
    with TestClient(app, headers={"Accept": "application/json"}) as test_client:
        authorize(test_client, user.email, PASSWORD)
        yield test_client


@pytest.fixture
def sign_in(app: FastAPI) -> Iterator[Callable[..., TestClient]]:
    """Log in a new user with a role: ``sign_in("viewer")``, a JSON client."""
    with ExitStack() as clients:

        def sign_in(role: str, email: str | None = None) -> TestClient:
            email = email or f"{role}@example.com"
            engine = app.state.engine
            create_user(engine, email=email, password=PASSWORD, role=role)
            headers = {"Accept": "application/json"}
            test_client = clients.enter_context(TestClient(app, headers=headers))
            authorize(test_client, email, PASSWORD)
            return test_client

        yield sign_in


@pytest.fixture
def browser(app: FastAPI, user: User) -> Iterator[TestClient]:
    """A client logged in through the login form, reading pages as a browser does."""
    with TestClient(app, headers={"Accept": "text/html"}) as test_client:
        log_in_with_form(test_client, user.email, PASSWORD)
        yield test_client


@pytest.fixture
def seven_gadgets(app: FastAPI, user: User) -> Iterator[ListClient]:
    """A logged-in JSON client of the tests' resource alone: seven gadgets, keys 1-7."""
    rows = [{"name": name, "active": i % 2 == 0} for i, name in enumerate(CURSOR_NAMES)]
    for application in gadget_app(app):
        with application.state.engine.begin() as connection:
            connection.execute(sa.insert(Gadget.__table__), rows)
        with TestClient(application, headers={"Accept": "application/json"}) as test:
            authorize(test, user.email, PASSWORD)
            yield ListClient(test, application.state.engine.dialect.name)


def _drop_tables(url: str, tables: list[sa.Table]) -> None:
    engine = create_db_engine(url)
    try:
        Base.metadata.drop_all(engine, tables=tables)
    finally:
        engine.dispose()


def _empty(engine: Engine) -> None:
    with engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(table.delete())
    forget_given_keys()  # the keys given before are free again
