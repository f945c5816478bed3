"""What the conformance tests share: served deployments, clients, records, the database.

Nothing here knows a framework: a ``Deployment`` is a server (``conftest.SERVERS``)
of one example on one database, with the example's manifest (``generator.model.ir``) to
say what it serves.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode, urlsplit

import httpx
from conftest import Server

from generator.model import ir
from generator.model.samples import sample_payload

JSON = {"Accept": "application/json"}
HTML = {"Accept": "text/html"}
EMAIL = "conformance@example.com"
PASSWORD = "conformance password, long enough"
# A second user, for tests that lock an account (the login throttle).
OTHER_EMAIL = "throttled@example.com"
UNAUTHENTICATED = {"message": "Unauthenticated."}
CSRF_MISMATCH = {"message": "CSRF token mismatch."}
FAILED_LOGIN = "These credentials do not match our records."
# The settings' defaults, which the conformance servers keep.
MAX_PER_PAGE = 100
MAX_BODY = 1024 * 1024
MAX_IDS = 500
LOGIN_MAX_ATTEMPTS = 5
_META_TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]*)">')


@dataclass
class Deployment:
    """One served project: which framework, example and database, and its server."""

    framework: str
    example: str
    database: str
    project: ir.Project
    server: Server

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>``."""
        return self.server.base_url

    @property
    def jwt(self) -> bool:
        """Whether clients log in for a bearer token (else: a session)."""
        return self.project.auth.jwt

    def client(self, headers: dict[str, str] | None = None) -> httpx.Client:
        """A new HTTP client of this server: no login, redirects not followed."""
        return httpx.Client(base_url=self.base_url, headers=headers, timeout=15)

    def api(self, *, log_in: bool = True) -> Api:
        """A JSON client, logged in as ``EMAIL`` unless ``log_in`` is false."""
        api = Api(self)
        if log_in:
            api.log_in()
        return api


def crud(resource: ir.Resource, key: Any = None) -> str:
    """``crud.index``/``crud.store``/``crud.massDelete``, or the item routes."""
    base = f"/admin/resource/{resource.uri}/crud"
    return base if key is None else f"{base}/{key}"


def page(resource: ir.Resource, name: str, key: Any = None) -> str:
    """``resource.page``: ``index-page``, ``form-page``, ``detail-page``."""
    base = f"/admin/resource/{resource.uri}/{name}"
    return base if key is None else f"{base}/{key}"


def missing_key(resource: ir.Resource) -> str:
    """A key no record has (and that is a valid key)."""
    return "999999999" if resource.key_field.type == "integer" else str(uuid.uuid4())


def new_marker() -> str:
    """A word no record holds yet: records made with it are found by searching it."""
    return "cf" + uuid.uuid4().hex[:10]


def marker_field(resource: ir.Resource) -> ir.Field:
    """The searchable free-text field the tests write their markers into."""
    for name in resource.search:
        found = resource.field(name)
        free = found.enum is None and found.pattern is None
        if found.type == "string" and free and found.format in (None, "email", "text"):
            return found
    raise AssertionError(f"{resource.name} has no searchable free-text field")


def marker_value(found: ir.Field, marker: str, n: int) -> str:
    """A valid value of ``found`` that contains ``marker``."""
    text = f"{marker}-{n}@example.com" if found.format == "email" else f"{marker} {n}"
    if found.min_length and len(text) < found.min_length:
        text = text.ljust(found.min_length, "x")
    return text


def writable_fields(resource: ir.Resource) -> list[ir.Field]:
    """The fields a create body may name."""
    return [f for f in resource.fields if not (f.read_only or f.is_key)]


def required_fields(resource: ir.Resource) -> list[ir.Field]:
    """The fields a create body must name (required, without a default)."""
    return [f for f in writable_fields(resource) if f.required and not f.has_default]


def form_text(value: Any) -> str:
    """A JSON value as an HTML form sends it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def crud_link(api: Api, resource: ir.Resource) -> str:
    """``crud(resource)`` as the JSON answers link it: absolute, on this server."""
    return api.deployment.base_url + crud(resource)


def page_url(path: str, params: list[tuple[str, Any]], number: int) -> str:
    """A paginator link: the request's parameters but ``page``, then ``page``."""
    return f"{path}?{urlencode([*params, ('page', number)])}"


class Api:
    """A JSON client of one deployment: logs in, creates records, remembers keys."""

    def __init__(self, deployment: Deployment) -> None:
        self.deployment = deployment
        self.project = deployment.project
        self.client = deployment.client(headers=dict(JSON))
        self.token: str | None = None
        self._related: dict[str, Any] = {}

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.client.close()

    def log_in(self, email: str = EMAIL, password: str = PASSWORD) -> dict[str, Any]:
        """Log in as JSON clients do; send the bearer or CSRF token from then on."""
        credentials = {"username": email, "password": password}
        response = self.client.post("/admin/authenticate", json=credentials)
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        if self.deployment.jwt:
            self.token = body["token"]
            self.client.headers["Authorization"] = f"Bearer {self.token}"
        else:
            self.token = body["csrf_token"]
            self.client.headers["X-CSRF-Token"] = body["csrf_token"]
        return body

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """Any request, as this client."""
        return self.client.request(method, url, **kwargs)

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.client.get(url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.client.post(url, **kwargs)

    def payload(
        self, resource: ir.Resource, n: int = 1, marker: str | None = None
    ) -> dict[str, Any]:
        """A valid create body; the records its relations point to exist."""
        related = {
            f.relation: self.related_key(self.project.resource(f.relation))
            for f in resource.fields
            if f.relation and f.relation != resource.name
        }
        body = sample_payload(resource, n, related)
        if marker is not None:
            found = marker_field(resource)
            body[found.name] = marker_value(found, marker, n)
        return body

    def related_key(self, resource: ir.Resource) -> Any:
        """The key of a record of ``resource``, made once per client."""
        if resource.name not in self._related:
            record = self.create(resource, 1)
            self._related[resource.name] = record[resource.key]
        return self._related[resource.name]

    def create(
        self, resource: ir.Resource, n: int = 1, marker: str | None = None
    ) -> dict[str, Any]:
        """Create a record through the API; returns it as the API answered."""
        response = self.client.post(
            crud(resource), json=self.payload(resource, n, marker)
        )
        assert response.status_code == 201, response.text
        record: dict[str, Any] = response.json()["data"]
        return record

    def create_many(
        self, resource: ir.Resource, count: int, marker: str
    ) -> list[dict[str, Any]]:
        """``count`` records holding ``marker``, in creation (and key) order."""
        return [self.create(resource, n, marker) for n in range(1, count + 1)]


def page_token(client: httpx.Client, url: str = "/admin") -> str:
    """The CSRF token a page carries in ``<meta name="csrf-token">``."""
    response = client.get(url, headers=HTML)
    found = _META_TOKEN.search(response.text)
    assert found, (response.status_code, response.text[:2000])
    return found.group(1)


@dataclass
class Database:
    """Direct SQL on a deployment's database (SQLite file, PostgreSQL or MariaDB)."""

    url: str
    _tables: dict[str, str] = field(default_factory=dict)

    @contextmanager
    def connect(self) -> Iterator[Any]:
        """A DB-API connection in autocommit mode."""
        if self.url.startswith("sqlite:///"):
            connection = sqlite3.connect(
                self.url.removeprefix("sqlite:///"), isolation_level=None, timeout=10
            )
            try:
                yield connection
            finally:
                connection.close()
            return
        if self.mysql:
            yield from _mysql_connection(self.url)
            return
        import psycopg

        address = re.sub(r"^postgresql\+\w+://", "postgresql://", self.url)
        with psycopg.connect(address, autocommit=True) as connection:
            yield connection

    @property
    def mysql(self) -> bool:
        """Whether the database is MySQL or MariaDB."""
        return self.url.startswith(("mysql", "mariadb"))

    def execute(self, statement: str) -> list[tuple[Any, ...]]:
        """Run one statement; returns its rows (if any)."""
        with self.connect() as connection:
            cursor = connection.cursor()
            cursor.execute(statement)
            rows = list(cursor.fetchall()) if cursor.description else []
            cursor.close()
            return rows

    def _columns(self) -> dict[str, set[str]]:
        if self.url.startswith("sqlite:///"):
            names = [r[0] for r in self.execute("SELECT name FROM sqlite_master")] or []
            found: dict[str, set[str]] = {}
            for name in names:
                info = self.execute(f"PRAGMA table_info('{name}')")
                if info:
                    found[name] = {row[1] for row in info}
            return found
        rows = self.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = "
            + ("database()" if self.mysql else "current_schema()")
        )
        tables: dict[str, set[str]] = {}
        for table, column in rows:
            tables.setdefault(table, set()).add(column)
        return tables

    def table_of(self, resource: ir.Resource) -> str:
        """The table holding ``resource``: the one with all its plain fields' columns.

        Found by its columns, so the framework may name its tables as it likes.
        """
        if resource.name not in self._tables:
            wanted = {f.name for f in resource.fields if not f.relation}
            found = [t for t, cols in self._columns().items() if wanted <= cols]
            assert len(found) == 1, (resource.name, found)
            self._tables[resource.name] = found[0]
        return self._tables[resource.name]


def _mysql_connection(url: str) -> Iterator[Any]:
    import pymysql

    parts = urlsplit(url)
    connection = pymysql.connect(
        host=parts.hostname,
        port=parts.port or 3306,
        user=parts.username or "root",
        password=parts.password or "",
        database=parts.path.lstrip("/"),
        charset="utf8mb4",
        autocommit=True,
    )
    try:
        yield connection
    finally:
        connection.close()
