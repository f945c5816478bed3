"""Fixtures: the app on a database migrated with Alembic, and a JSON client for it.

Tests run on a temporary SQLite file. Set TEST_DATABASE_URL to run them on another
database instead (say PostgreSQL): they migrate it, empty its tables after each test,
and migrate it back down at the end, so never point it at data you want to keep.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from app.core.config import Settings
from app.core.migrations import downgrade, upgrade
from app.core.models import Base
from app.main import create_app


@pytest.fixture(scope="session")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A migrated, empty database for the whole session."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.db'}"
    upgrade(url)
    yield url
    downgrade(url)


@pytest.fixture
def app(database_url: str) -> Iterator[FastAPI]:
    """The application on the test database, emptied again after the test."""
    application = create_app(Settings(database_url=database_url))
    yield application
    _empty(application.state.engine)
    application.state.engine.dispose()


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    """A client asking for JSON, as API clients do."""
    with TestClient(app, headers={"Accept": "application/json"}) as test_client:
        yield test_client


def _empty(engine: Engine) -> None:
    with engine.begin() as connection:
        for table in reversed(Base.metadata.sorted_tables):
            connection.execute(table.delete())
