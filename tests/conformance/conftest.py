"""Served deployments for the conformance suite, started once per session.

Tests ask for ``deployment`` (every framework × example × database), or for
``session_deployment`` / ``jwt_deployment`` (only the examples logging in that way).
Each of the three also serves Django under ``manage.py runserver`` (the server Django
developers use while developing) and over ASGI (``uvicorn config.asgi:application``),
for one example on SQLite, each with a database of its own: a server difference
cannot hide, for the price of two more deployments each.
Servers start on first use and stop at the end of the session, so each
framework × example × database is migrated and started once; tests never rely on an
empty database (they make their own records and find them by a marker).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from conftest import (
    EXAMPLE_IDS,
    FRAMEWORKS,
    REPO,
    SERVERS,
    DjangoAsgiServer,
    RunserverServer,
    Server,
    mariadb_database,
    postgres_database,
)

from generator.manifest.load import load_manifest

from .support import EMAIL, OTHER_EMAIL, PASSWORD, Database, Deployment

DATABASES = ["sqlite", "postgres"]
# Every example on SQLite; on a database server, each framework × example once (CI
# time), so each framework meets both servers and both ways of logging in meet each:
# MariaDB serves FastAPI's todo (JWT) and Django's library (session), PostgreSQL the
# other two. ``PANELFORGE_FULL_MATRIX=1`` serves every example on PostgreSQL too.
MARIADB_EXAMPLES = {"fastapi": "todo", "django": "library"}
POSTGRES_EXAMPLES = {"fastapi": "library", "django": "todo"}
FULL_MATRIX = bool(os.environ.get("PANELFORGE_FULL_MATRIX"))
MARKS = {"postgres": [pytest.mark.postgres], "mariadb": [pytest.mark.mariadb]}
MANIFESTS = {
    example: load_manifest(REPO / "examples" / f"{example}.yaml")
    for example in EXAMPLE_IDS
}


def _served_on(framework: str, example: str, database: str) -> bool:
    """Whether ``framework`` × ``example`` is served on ``database`` by default."""
    if database == "mariadb":
        return MARIADB_EXAMPLES[framework] == example
    if database == "postgres":
        return FULL_MATRIX or POSTGRES_EXAMPLES[framework] == example
    return True


def _params(examples: list[str], databases: list[str] = DATABASES) -> list:
    """Each framework × one of ``examples`` × database, where it is served."""
    if databases == DATABASES:
        databases = [*DATABASES, "mariadb"]
    combinations = [
        (framework, example, database)
        for framework, example, database in itertools.product(
            FRAMEWORKS, examples, databases
        )
        if _served_on(framework, example, database)
    ]
    return [
        pytest.param(
            (framework, example, database),
            id=f"{framework}-{example}-{database}",
            marks=MARKS.get(database, []),
        )
        for framework, example, database in combinations
    ]


def example_params(examples: list[str]) -> list:
    """Each framework × one of ``examples`` × database (MariaDB where it is served)."""
    return _params(examples)


def sqlite_params() -> list:
    """Every framework × example, on SQLite only (for what no database changes)."""
    return _params(EXAMPLE_IDS, ["sqlite"])


# Variants served by another server, on a database of their own (not the framework's
# server of ``SERVERS`` with other settings, which shares the database).
OWN_SERVERS: dict[str, type[Server]] = {
    "runserver": RunserverServer,
    "asgi": DjangoAsgiServer,
}


def own_server_params(examples: list[str]) -> list:
    """Django under each of ``OWN_SERVERS``: the first of ``examples``, on SQLite."""
    return [
        pytest.param(
            ("django", example, "sqlite", name),
            id=f"django-{name}-{example}-sqlite",
        )
        for name in OWN_SERVERS
        for example in examples[:1]
    ]


SESSION_EXAMPLES = [e for e in EXAMPLE_IDS if not MANIFESTS[e].auth.jwt]
JWT_EXAMPLES = [e for e in EXAMPLE_IDS if MANIFESTS[e].auth.jwt]
ALL = _params(EXAMPLE_IDS) + own_server_params(SESSION_EXAMPLES)


class Fleet:
    """Every server of the session, started on first use, stopped at the end."""

    def __init__(self, generated, tmp_path_factory: pytest.TempPathFactory) -> None:
        self._generated = generated
        self._tmp = tmp_path_factory
        self._stack = ExitStack()
        self._databases: dict[tuple[str, str, str], str] = {}
        self._deployments: dict[tuple[str, ...], Deployment] = {}

    def close(self) -> None:
        self._stack.close()

    def database_url(
        self,
        framework: str,
        example: str,
        database: str,
        variant: str = "",
        own_database: bool = False,
    ) -> str:
        """The database of one deployment (made, and migrated by it, once).

        Variants share the database of their framework's server, but for those of
        ``OWN_SERVERS`` and those asking for an ``own_database``.
        """
        key = (framework, example, database)
        if variant in OWN_SERVERS or own_database:
            key = (framework, example, f"{database}-{variant}")
        if key not in self._databases:
            if database == "sqlite":
                folder = self._tmp.mktemp(f"db-{framework}-{example}")
                url = f"sqlite:///{folder / 'conformance.db'}"
            elif database == "mariadb":
                url = self._stack.enter_context(mariadb_database())
            else:
                url = self._stack.enter_context(postgres_database())
            self._databases[key] = url
        return self._databases[key]

    def get(
        self,
        framework: str,
        example: str,
        database: str,
        variant: str = "",
        env: dict[str, str] | None = None,
        serve: type[Server] | None = None,
        own_database: bool = False,
    ) -> Deployment:
        """The deployment of ``example`` on ``database``, started on first use.

        A ``variant`` is another server on the same database (with ``env`` added, or
        served by ``serve`` rather than the framework's server of ``SERVERS``); one
        of ``OWN_SERVERS`` is served by that server, on a database of its own, as is
        one with ``own_database`` (an empty database: nothing other tests made).
        """
        key = (framework, example, database, variant)
        if key not in self._deployments:
            before = len(self._databases)
            url = self.database_url(framework, example, database, variant, own_database)
            fresh = len(self._databases) > before
            project: Path = self._generated(example, framework)
            serve = serve or OWN_SERVERS.get(variant) or SERVERS[framework]
            server = serve(project, url)
            server.env.update(env or {})
            if fresh:
                server.migrate()
                server.create_user(EMAIL, PASSWORD)
                server.create_user(OTHER_EMAIL, PASSWORD)
            self._stack.callback(_stop, server)
            server.start()
            self._deployments[key] = Deployment(
                framework, example, database, MANIFESTS[example], server
            )
        return self._deployments[key]


def _stop(server: Server) -> None:
    server.stop()


@pytest.fixture(scope="session")
def fleet(generated, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fleet]:
    """The session's servers."""
    found = Fleet(generated, tmp_path_factory)
    try:
        yield found
    finally:
        found.close()


@pytest.fixture(params=ALL)
def deployment(request: pytest.FixtureRequest, fleet: Fleet) -> Deployment:
    """Each framework × example × database, served (and Django under runserver)."""
    return fleet.get(*request.param)


@pytest.fixture(params=_params(SESSION_EXAMPLES) + own_server_params(SESSION_EXAMPLES))
def session_deployment(request: pytest.FixtureRequest, fleet: Fleet) -> Deployment:
    """The deployments whose clients log in for a session (cookie + CSRF token)."""
    return fleet.get(*request.param)


@pytest.fixture(params=_params(JWT_EXAMPLES) + own_server_params(JWT_EXAMPLES))
def jwt_deployment(request: pytest.FixtureRequest, fleet: Fleet) -> Deployment:
    """The deployments whose clients log in for a bearer token (JWT)."""
    return fleet.get(*request.param)


@pytest.fixture
def database(deployment: Deployment) -> Database:
    """SQL access to the deployment's database."""
    return Database(deployment.server.database_url)
