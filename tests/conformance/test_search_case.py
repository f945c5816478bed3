"""Search folds case in every script, on SQLite as on PostgreSQL (and MySQL).

SQLite's ``LIKE`` folds ASCII only; the panels register a case-folding function on
each SQLite connection and use it for terms that are not all ASCII. SQLite only: the
database servers fold case themselves.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import sqlite_params
from .support import Api, crud, marker_field, new_marker

pytestmark = pytest.mark.e2e


@pytest.fixture(params=sqlite_params())
def api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    with fleet.get(*request.param).api() as found:
        yield found


def _found(api: Api, resource: Any, term: str) -> list[Any]:
    listed = api.get(crud(resource), params={"search": term})
    assert listed.status_code == 200, listed.text
    return [row[resource.key] for row in listed.json()["data"]]


def test_search_folds_case_beyond_ascii(api: Api) -> None:
    resource = next(r for r in api.project.resources if r.search)
    marker = new_marker()
    body = api.payload(resource)
    body[marker_field(resource).name] = f"{marker} ÜNÏCODE Größe 50%_off"
    made = api.post(crud(resource), json=body)
    assert made.status_code == 201, made.text
    key = made.json()["data"][resource.key]
    for term in ("ünïcode", "ÜNÏCODE", "Ünïcode größe", "ünïcode GRÖßE 50%_OFF"):
        assert _found(api, resource, f"{marker} {term}") == [key], term
    assert _found(api, resource, marker.upper()) == [key]  # ASCII: LIKE's own folding
    # LIKE's wildcards stay literal in a folded search too.
    for term in ("ünïcodeX", "ü_ïcode", "größe 5%"):
        assert _found(api, resource, f"{marker} {term}") == [], term
