"""The Django project's speed tuning turned off gives the same answers (issue 14).

``PREPARED_QUERIES=0`` (hot reads built by Django's ORM on every request instead of
SQL compiled once, ``panel/prepared.py``) and, in session mode,
``SESSION_ENGINE=django.contrib.sessions.backends.db`` (Django's own engine instead of
``panel/session_store.py``): one more Django server per login mode with both off, on
the database of the tuned server. Logging in, unnarrowed lists (the prepared page and
count: pages, a sort, a page past the end, no total) and a record answer exactly what
the tuned server answers; logging out still ends the session or revokes the token.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import JWT_EXAMPLES, SESSION_EXAMPLES
from .support import UNAUTHENTICATED, Api, crud

pytestmark = pytest.mark.e2e

OFF = {"PREPARED_QUERIES": "0"}
DJANGO_SESSIONS = {"SESSION_ENGINE": "django.contrib.sessions.backends.db"}
EXAMPLES = [
    pytest.param((SESSION_EXAMPLES[0], {**OFF, **DJANGO_SESSIONS}), id="session"),
    pytest.param((JWT_EXAMPLES[0], OFF), id="jwt"),
]


@pytest.fixture(params=EXAMPLES)
def servers(request: pytest.FixtureRequest, fleet: Any) -> Any:
    """Clients logged into the tuned server and into the one with tuning off."""
    example, env = request.param
    tuned = fleet.get("django", example, "sqlite")
    untuned = fleet.get("django", example, "sqlite", "tuning-off", env=env)
    with tuned.api() as fast, untuned.api() as plain:
        fast.log_in()
        plain.log_in()
        yield fast, plain


def _answers(api: Api, urls: list[str]) -> list[tuple[int, Any]]:
    """Each URL's status and JSON; the links' origin (each server's own port) is cut."""
    origin = api.deployment.base_url.rstrip("/")
    found = []
    for url in urls:
        response = api.get(url)
        found.append((response.status_code, _without(origin, response.json())))
    return found


def _without(origin: str, value: Any) -> Any:
    """``value`` with ``origin`` taken off the front of every text in it."""
    if isinstance(value, str):
        return value.removeprefix(origin)
    if isinstance(value, list):
        return [_without(origin, item) for item in value]
    if isinstance(value, dict):
        return {name: _without(origin, item) for name, item in value.items()}
    return value


def test_answers_are_the_tuned_servers(servers: tuple[Api, Api]) -> None:
    fast, plain = servers
    resource = fast.project.resources[0]
    created = [plain.create(resource, n) for n in (1, 2, 3)]
    key = created[1][resource.key]
    urls = [
        crud(resource),
        f"{crud(resource)}?page=2&per_page=2",
        f"{crud(resource)}?sort=-{resource.key}&per_page=2",
        f"{crud(resource)}?page=100000",
        f"{crud(resource)}?total=none&per_page=1",
        crud(resource, key),
    ]
    answers = _answers(plain, urls)
    assert answers == _answers(fast, urls)
    statuses = [status for status, _ in answers]
    assert statuses == [200] * len(urls), answers
    listed = answers[0][1]
    assert listed["total"] >= 3 and len(listed["data"]) == min(listed["total"], 25)
    assert answers[-1][1] == created[1]
    newest = answers[2][1]["data"]
    assert [r[resource.key] for r in newest][:1] == [created[2][resource.key]]


def test_logging_out_still_ends_the_login(servers: tuple[Api, Api]) -> None:
    _fast, plain = servers
    resource = plain.project.resources[0]
    assert plain.get(crud(resource)).status_code == 200
    assert plain.request("DELETE", "/admin/logout").status_code in (200, 204)
    response = plain.get(crud(resource))
    assert response.status_code == 401 and response.json() == UNAUTHENTICATED
