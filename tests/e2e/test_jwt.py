"""JWT mode across processes: two servers of one project on one database.

The throttle counts failed logins in the database, so failures split between the
servers add up; a token revoked on one is refused by the other. On SQLite (one file)
and on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from conftest import Server

pytestmark = pytest.mark.e2e

EXAMPLE = "todo"  # examples/todo.yaml has auth: {jwt: true}
EMAIL = "jwt@example.com"
PASSWORD = "jwt e2e password, long enough"
CRUD = "/admin/resource/task-resource/crud"
JSON = {"Accept": "application/json"}


@pytest.fixture
def servers(generated, database_url: str) -> Iterator[tuple[Server, Server]]:
    """Two servers of the JWT example sharing one freshly migrated database."""
    first, second = (Server(generated(EXAMPLE), database_url) for _ in range(2))
    first.run_app("migrate")
    first.create_user(EMAIL, PASSWORD)
    try:
        first.start()
        second.start()
        yield first, second
    finally:
        first.stop()
        second.stop()


def _login(server: Server, password: str) -> httpx.Response:
    body = {"username": EMAIL, "password": password}
    return httpx.post(
        server.base_url + "/admin/authenticate", json=body, headers=JSON, timeout=10
    )


def _get(server: Server, token: str) -> httpx.Response:
    headers = {**JSON, "Authorization": f"Bearer {token}"}
    return httpx.get(server.base_url + CRUD, headers=headers, timeout=10)


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
def test_two_servers_share_the_throttle_and_the_revocations(
    servers: tuple[Server, Server],
) -> None:
    first, second = servers
    token = _login(first, PASSWORD).json()["token"]
    assert _get(second, token).status_code == 200  # one secret, any server
    revoked = httpx.delete(
        first.base_url + "/admin/logout",
        headers={**JSON, "Authorization": f"Bearer {token}"},
        timeout=10,
    )
    assert revoked.status_code == 200, revoked.text
    refused = _get(second, token)
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"] == "Bearer"
    assert _get(first, token).status_code == 401

    for server in (first, second, first, second, first):
        assert _login(server, "wrong password").status_code == 422
    limited = _login(second, PASSWORD)
    assert limited.status_code == 429, limited.text
    assert int(limited.headers["retry-after"]) > 0
    assert _login(first, PASSWORD).status_code == 429

    logs = first.stop() + second.stop()
    assert "POST /admin/authenticate" in logs
    assert token not in logs
