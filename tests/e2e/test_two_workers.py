"""Two worker processes on one PostgreSQL database lose no write and share every login
state: concurrent creates all land with distinct keys, concurrent conditional updates
let exactly one through, the login throttle counts across workers, and a logout is
seen by every worker (issue 17).

FastAPI runs as ``python -m app serve --workers 2`` (uvicorn), Django as
``gunicorn -w 2``; each example once per framework, so sessions and JWT both. Every
request that must meet "the other worker" goes on its own connection, and the test
checks that both workers did serve some.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from conformance.support import (
    EMAIL,
    LOGIN_MAX_ATTEMPTS,
    OTHER_EMAIL,
    PASSWORD,
    Api,
    Deployment,
    crud,
    marker_field,
    new_marker,
)
from conftest import EXAMPLE_IDS, FRAMEWORKS, SERVERS, Server, postgres_database

from generator.manifest.load import load_manifest
from generator.model.samples import creation_order

pytestmark = [pytest.mark.e2e, pytest.mark.postgres]
WORKERS = 2
CONCURRENCY = 8
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def _two_workers(framework: str) -> type[Server]:
    """The framework's test server, serving with two workers instead of one."""

    class TwoWorkers(SERVERS[framework]):  # type: ignore[valid-type,misc]
        def serve_command(self) -> list[str]:
            command = super().serve_command()
            if framework == "fastapi":
                return [*command, "--workers", str(WORKERS)]
            at = command.index("--workers")  # gunicorn's
            return [*command[: at + 1], str(WORKERS), *command[at + 2 :]]

    return TwoWorkers


@pytest.fixture(params=FRAMEWORKS)
def deployment(request: pytest.FixtureRequest, generated) -> Iterator[Deployment]:
    framework = request.param
    # FastAPI serves the first example, Django the second: sessions and JWT both run.
    example = EXAMPLE_IDS[FRAMEWORKS.index(framework) % len(EXAMPLE_IDS)]
    project_dir = Path(generated(example, framework))
    with postgres_database() as url:
        server = _two_workers(framework)(project_dir, url)
        server.migrate()
        server.create_user(EMAIL, PASSWORD)
        server.create_user(OTHER_EMAIL, PASSWORD)
        server.start()
        try:
            manifest = load_manifest(project_dir / ".panelforge" / "manifest.yaml")
            yield Deployment(framework, example, "postgres", manifest, server)
        finally:
            server.stop()


def _fresh(api: Api, **cookies: str) -> httpx.Client:
    """A client on a new connection, sending what ``api`` sends (login included)."""
    return httpx.Client(
        base_url=api.deployment.base_url,
        headers=dict(api.client.headers),
        cookies=cookies or dict(api.client.cookies),
        timeout=30,
    )


def _each_on_its_own_connection(
    api: Api,
    count: int,
    send: Callable[[httpx.Client, int], httpx.Response],
    **cookies: str,
) -> list[httpx.Response]:
    def one(n: int) -> httpx.Response:
        with _fresh(api, **cookies) as client:
            return send(client, n)

    with ThreadPoolExecutor(CONCURRENCY) as pool:
        return list(pool.map(one, range(count)))


def _worker_cpu(server: Server) -> dict[int, float]:
    """CPU seconds used so far by each worker process (the server's children)."""
    assert server.process is not None
    children = []
    for task in Path(f"/proc/{server.process.pid}/task").glob("*"):
        children += [int(pid) for pid in (task / "children").read_text().split()]
    used = {}
    for pid in children:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
        if b"resource_tracker" in command:  # multiprocessing's helper, not a worker
            continue
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        used[pid] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return used


def test_two_workers_lose_no_write_and_share_logins(deployment: Deployment) -> None:
    server = deployment.server
    resource = creation_order(deployment.project)[0]
    field = marker_field(resource)
    url = crud(resource)
    before = _worker_cpu(server)
    assert len(before) == WORKERS, f"expected {WORKERS} workers, found {before}"

    with deployment.api() as api:
        # Concurrent creates: every one lands, each with its own key.
        marker = new_marker()
        created = _each_on_its_own_connection(
            api, 40, lambda c, n: c.post(url, json=api.payload(resource, n + 1, marker))
        )
        assert [r.status_code for r in created] == [201] * 40, created[0].text
        keys = [r.json()["data"][resource.key] for r in created]
        assert len(set(keys)) == 40
        listed = api.get(url, params={"search": marker, "per_page": 100}).json()
        assert listed["total"] == 40

        # Concurrent conditional updates of one version: exactly one wins.
        record_url = f"{url}/{keys[0]}"
        etag = api.get(record_url).headers["etag"]
        values = [f"{marker} update {n}" for n in range(CONCURRENCY)]
        updates = _each_on_its_own_connection(
            api,
            CONCURRENCY,
            lambda c, n: c.patch(
                record_url, json={field.name: values[n]}, headers={"If-Match": etag}
            ),
        )
        statuses = sorted(r.status_code for r in updates)
        assert statuses == [200] + [412] * (CONCURRENCY - 1), statuses
        winner = next(r for r in updates if r.status_code == 200).json()["data"]
        assert api.get(record_url).json()[field.name] == winner[field.name]

        # The login throttle counts attempts from every worker together.
        wrong = {"username": OTHER_EMAIL, "password": "not the password"}
        attempts = []
        for _ in range(LOGIN_MAX_ATTEMPTS + 4):
            with _fresh(api) as client:
                response = client.post("/admin/authenticate", json=wrong)
                attempts.append(response.status_code)
        assert 429 not in attempts[:LOGIN_MAX_ATTEMPTS], attempts
        assert attempts[LOGIN_MAX_ATTEMPTS:] == [429] * 4, attempts

    # A logout is seen by every worker: the old session or token is refused.
    with deployment.api() as api:
        cookies = dict(api.client.cookies)
        assert api.get(url).status_code == 200
        logout = api.post("/admin/logout")
        assert logout.status_code in {200, 204}, logout.text
        after = _each_on_its_own_connection(api, 12, lambda c, _: c.get(url), **cookies)
        assert {r.status_code for r in after} == {401}, after[0].text

    time.sleep(0.2)  # let the workers' CPU counters settle
    used = _worker_cpu(server)
    idle = [pid for pid in before if used.get(pid, 0) - before[pid] < 0.01]
    assert not idle, f"workers {idle} served nothing: the test did not use both"
