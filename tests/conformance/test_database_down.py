"""A database that does not answer (issue 19, finding 6): 503, one clear line, no trace.

Each project is served against a PostgreSQL URL on a port nobody listens on. Requests
that need the database are answered 503 with ``Retry-After`` (JSON, or the error
page); the server starts anyway and logs one line naming the database (its URL
without the password) and the problem; ``migrate`` says the same and exits 1.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

import httpx
import pytest
from conftest import EXAMPLE_IDS, FRAMEWORKS, SERVERS, Server, free_port

from .support import HTML, JSON

pytestmark = pytest.mark.e2e

PASSWORD = "s3cret-pw"
UNAVAILABLE = {
    "message": "The database is not available. Please try again in a moment."
}
_TOKEN = re.compile(r'name="_token" value="([^"]*)"')


def _closed_url() -> str:
    return f"postgresql+psycopg://panel:{PASSWORD}@127.0.0.1:{free_port()}/panel"


@pytest.fixture(
    params=[(f, e) for f in FRAMEWORKS for e in EXAMPLE_IDS],
    ids=[f"{f}-{e}" for f in FRAMEWORKS for e in EXAMPLE_IDS],
)
def down(request: pytest.FixtureRequest, generated) -> Iterator[Server]:
    """A served project whose database does not answer."""
    framework, example = request.param
    server = SERVERS[framework](generated(example, framework), _closed_url())
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _masked(server: Server) -> str:
    return server.database_url.replace(PASSWORD, "***")


def test_requests_are_503_with_retry_after(down: Server) -> None:
    credentials = {"username": "someone@example.com", "password": "whatever it is"}
    response = _post(down, "/admin/authenticate", json=credentials, headers=JSON)
    assert response.status_code == 503, response.text
    assert response.json() == UNAVAILABLE
    assert response.headers["retry-after"] == "10"
    # A browser: the login page (on Django its session needs the database) or the
    # login form it sends.
    with _client(down) as browser:
        page = browser.get("/admin/login", headers=HTML)
        if page.status_code == 200:
            token = _TOKEN.search(page.text)
            assert token, page.text[:2000]
            form = {**credentials, "_token": token[1]}
            page = browser.post("/admin/authenticate", data=form, headers=HTML)
        assert page.status_code == 503, page.text[:2000]
        assert page.headers["content-type"].startswith("text/html")
        assert page.headers["retry-after"] == "10"
        assert UNAVAILABLE["message"] in page.text
    log = down.stop()
    assert f"cannot reach the database at {_masked(down)}" in log, log
    assert "Connection refused" in log
    assert PASSWORD not in log


def test_migrate_names_the_database_and_the_problem(down: Server) -> None:
    for args in (("migrate",), ("migrate", "--check")):
        result = subprocess.run(
            down.command(*args),
            cwd=down.project,
            env=down.env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 1, result.stdout + result.stderr
        lines = result.stderr.strip().splitlines()
        expected = f"error: cannot reach the database at {_masked(down)}: "
        assert len(lines) == 1 and lines[0].startswith(expected), result.stderr
        assert "Connection refused" in lines[0]
        assert PASSWORD not in result.stdout + result.stderr


def _client(server: Server) -> httpx.Client:
    return httpx.Client(base_url=server.base_url, timeout=15)


def _post(server: Server, url: str, **kwargs: object) -> httpx.Response:
    with _client(server) as client:
        return client.post(url, **kwargs)  # type: ignore[arg-type]
