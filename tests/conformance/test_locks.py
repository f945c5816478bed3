"""A writer waits for another on SQLite (issue 19, finding 7).

A large CSV import holds SQLite's write lock while it writes (45,000 rows: seconds on
either framework), and Django's writers used to give up after 5 s with a 500
"database is locked". Here the test holds the lock itself for 7 s: a create sent
meanwhile waits, then succeeds, on both frameworks.
"""

from __future__ import annotations

import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import sqlite_params
from .support import Deployment, crud

pytestmark = pytest.mark.e2e

HELD = 7.0  # seconds: longer than the 5 s writers used to wait


@pytest.fixture(params=sqlite_params())
def sqlite_deployment(request: pytest.FixtureRequest, fleet) -> Deployment:
    return fleet.get(*request.param)


def test_a_write_waits_for_another_writer(sqlite_deployment: Deployment) -> None:
    resource = sqlite_deployment.project.resources[0]
    path = sqlite_deployment.server.database_url.removeprefix("sqlite:///")
    with sqlite_deployment.api() as api:
        payload = api.payload(resource)
        writer = sqlite3.connect(path, isolation_level=None, timeout=10)
        try:
            writer.execute("BEGIN IMMEDIATE")  # what an import's transaction holds
            with ThreadPoolExecutor(1) as pool:
                started = time.monotonic()
                sent = pool.submit(api.post, crud(resource), json=payload)
                time.sleep(HELD)
                assert not sent.done(), "the create waits for the lock"
                writer.execute("COMMIT")
                response = sent.result()
                waited = time.monotonic() - started
        finally:
            writer.close()
        assert response.status_code == 201, response.text
        assert waited >= HELD
