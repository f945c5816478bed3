"""MariaDB answers what PostgreSQL answers (issue 24), request for request.

Each framework × example is served twice, on an empty PostgreSQL database and on an
empty MariaDB one (both frameworks, session and JWT logins), and the same requests
are replayed on both: creates of every resource, lists in each sort order, searches,
filters, pages, cursor pages, records, partial and whole updates with and without a
current ``If-Match``, refused bodies, a record that does not exist, the CSV export,
deletes and a mass delete. Every answer's status, JSON (or text) and the headers a
client reads (``Location``, content type, whether there is an ``ETag``) must be the
same; only each server's own origin and the values the server makes up at random
(uuids, and so the ETag's digest of a row holding one) are set aside.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from generator.model import ir
from generator.model.samples import creation_order, sample_payload

from .conftest import EXAMPLE_IDS, FRAMEWORKS, MARKS, Fleet
from .support import Api, crud

pytestmark = pytest.mark.e2e

RECORDS = 3
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
HEADERS = ("etag", "location", "content-type")


@pytest.fixture(
    params=[
        pytest.param(
            (framework, example),
            id=f"{framework}-{example}",
            marks=MARKS["postgres"] + MARKS["mariadb"],
        )
        for framework in FRAMEWORKS
        for example in EXAMPLE_IDS
    ]
)
def both(request: pytest.FixtureRequest, fleet: Fleet) -> Any:
    """Clients logged into the example on PostgreSQL and on MariaDB, both empty."""
    framework, example = request.param
    servers = [
        fleet.get(framework, example, database, "agree", own_database=True)
        for database in ("postgres", "mariadb")
    ]
    with servers[0].api() as postgres, servers[1].api() as mariadb:
        postgres.log_in()
        mariadb.log_in()
        yield postgres, mariadb


class Replay:
    """The same requests sent to both servers; every pair of answers compared."""

    def __init__(self, postgres: Api, mariadb: Api) -> None:
        self.apis = (postgres, mariadb)
        self.sent = 0

    def send(self, method: str, url: str, **kwargs: Any) -> Any:
        """Send to both; fail on the first difference. PostgreSQL's answer, read."""
        answers = [api.request(method, url, **kwargs) for api in self.apis]
        return self._compare(method, url, kwargs, answers)

    def send_current(self, method: str, url: str, **kwargs: Any) -> Any:
        """``send`` with each server's own ``ETag`` of the record as ``If-Match``."""
        answers = []
        for api in self.apis:
            current = {"If-Match": api.get(url).headers["etag"]}
            answers.append(api.request(method, url, headers=current, **kwargs))
        return self._compare(method, url, kwargs, answers)

    def _compare(
        self, method: str, url: str, kwargs: Any, answers: list[httpx.Response]
    ) -> Any:
        self.sent += 1
        postgres, mariadb = (
            _answer(api, response)
            for api, response in zip(self.apis, answers, strict=True)
        )
        assert mariadb == postgres, f"{method} {url} {kwargs}"
        return postgres["body"]


def _answer(api: Api, response: httpx.Response) -> dict[str, Any]:
    """What a client reads of ``response``, without the server's origin and the
    values it makes up at random."""
    origin = api.deployment.base_url.rstrip("/")
    if response.headers.get("content-type", "").startswith("application/json"):
        body: Any = response.json()
    else:
        body = response.text
    headers = {name: response.headers.get(name) for name in HEADERS}
    if headers["etag"]:  # a digest of the row: its uuids and password hashes differ
        headers["etag"] = "<etag>"
    return {
        "status": response.status_code,
        "headers": _plain(origin, headers),
        "body": _plain(origin, body),
    }


def _plain(origin: str, value: Any) -> Any:
    if isinstance(value, str):
        return UUID.sub("<uuid>", value.replace(origin, ""))
    if isinstance(value, list):
        return [_plain(origin, item) for item in value]
    if isinstance(value, dict):
        return {name: _plain(origin, item) for name, item in value.items()}
    return value


def _text_of(record: dict[str, Any], field: ir.Field) -> str | None:
    """The value of ``field`` as a query parameter, if it has one."""
    value = record.get(field.name)
    if value is None or isinstance(value, (dict, list)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _made_up(resource: ir.Resource, field: ir.Field) -> bool:
    """Whether the server picks ``field``'s values at random (a uuid it assigns):
    sorting or filtering by it differs by chance, not by database."""
    assigned = field.is_key or resource.is_read_only(field)
    return field.format == "uuid" and assigned


def _reads(replay: Replay, resource: ir.Resource, records: list[dict]) -> None:
    """Lists every way the API lists, and each record."""
    url = crud(resource)
    replay.send("GET", url)
    for field in resource.fields:
        if _made_up(resource, field):
            continue
        if field.sortable and field.type != "array":
            for order in (field.name, f"-{field.name}"):
                replay.send("GET", url, params={"sort": order})
                replay.send("GET", url, params={"sort": order, "cursor": ""})
        value = _text_of(records[0], field)
        if field.filterable and value is not None and field.format != "password":
            replay.send("GET", url, params={f"filter[{field.name}]": value})
    for name in resource.search:
        value = _text_of(records[-1], resource.field(name))
        if value:
            replay.send("GET", url, params={"search": value[1:4].upper()})
    replay.send("GET", url, params={"per_page": 2, "page": 2})
    first = replay.send("GET", url, params={"per_page": 2, "cursor": ""})
    if first.get("next_cursor"):
        replay.send("GET", url, params={"per_page": 2, "cursor": first["next_cursor"]})
    for record in records:
        replay.send("GET", crud(resource, record[resource.key]))


def test_mariadb_answers_what_postgresql_answers(both: tuple[Api, Api]) -> None:
    postgres, mariadb = both
    replay = Replay(postgres, mariadb)
    project = postgres.project
    made: dict[str, list[dict[str, Any]]] = {}

    def payload(resource: ir.Resource, n: int) -> dict[str, Any]:
        """A create body whose relations point at records made before."""
        related = {
            name: records[0][project.resource(name).key]
            for name, records in made.items()
        }
        return sample_payload(resource, n, related)

    for resource in creation_order(project):
        records = []
        for n in range(1, RECORDS + 1):
            body = payload(resource, n)
            records.append(replay.send("POST", crud(resource), json=body)["data"])
        replay.send("POST", crud(resource), json={})  # 422: what is missing
        made[resource.name] = records
    for resource in creation_order(project):
        records = made[resource.name]
        _reads(replay, resource, records)
        key = records[0][resource.key]
        item = crud(resource, key)
        changed = payload(resource, RECORDS + 1)
        writable = {
            f.name: changed[f.name]
            for f in resource.fields
            if f.name in changed and not f.is_key
        }
        replay.send("PATCH", item, json=writable)
        if postgres.get(item).headers.get("etag"):
            stale = {"If-Match": '"0"'}
            replay.send("PUT", item, json=writable, headers=stale)
            replay.send_current("PUT", item, json=writable)
        replay.send("GET", f"/admin/resource/{resource.uri}/handler/export")
        replay.send("GET", crud(resource, "999999"))
    # Deletes last, children first: the delete rules answer alike too (a 409 while
    # records refer to one is an answer to compare like any other).
    for resource in reversed(creation_order(project)):
        records = made[resource.name]
        replay.send("DELETE", crud(resource, records[-1][resource.key]))
        keys = [("ids[]", str(record[resource.key])) for record in records[:2]]
        replay.send("DELETE", crud(resource), params=keys)
        replay.send("GET", crud(resource))
    assert replay.sent > 20 * len(project.resources)
