"""A CSV import keeps the keys of new records; ``keys=assign`` lets the database pick.

After a record kept a key beyond the sequence, the next record the API creates gets
the next key on every database: PostgreSQL's sequence is moved by the import,
SQLite's and MariaDB's counters follow explicit keys on their own (issue 22).
One example per framework × database where that differs, to keep the suite fast.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import MARKS, Fleet
from .support import Api, crud

CSV = {"Content-Type": "text/csv"}
CASES = [
    ("fastapi", "library", "postgres"),
    ("django", "library", "postgres"),
    ("fastapi", "library", "sqlite"),
    ("django", "library", "mariadb"),
]


@pytest.fixture(
    params=[
        pytest.param(case, id="-".join(case), marks=MARKS.get(case[2], []))
        for case in CASES
    ]
)
def api(request: pytest.FixtureRequest, fleet: Fleet) -> Any:
    with fleet.get(*request.param).api() as client:
        yield client


def _import_url(api: Api) -> str:
    return f"/admin/resource/{api.project.resource('Author').uri}/handler/import"


def test_an_imported_row_keeps_its_key_and_the_next_create_follows(api: Api) -> None:
    author = api.project.resource("Author")
    kept = api.create(author)["id"] + 1000
    response = api.post(
        _import_url(api), content=f"id,name\n{kept},Kept\n", headers=CSV
    )
    assert response.status_code == 200, response.text
    assert (response.json()["created"], response.json()["updated"]) == (1, 0)
    assert api.get(crud(author, kept)).json()["name"] == "Kept"
    assert api.create(author)["id"] == kept + 1


def test_keys_assign_lets_the_database_pick(api: Api) -> None:
    author = api.project.resource("Author")
    before = api.create(author)["id"]
    wanted = before + 1000
    response = api.post(
        _import_url(api),
        files={"file": ("authors.csv", f"id,name\n{wanted},Assigned\n", "text/csv")},
        data={"keys": "assign"},  # the upload form's checkbox
    )
    assert response.status_code == 200, response.text
    assert api.get(crud(author, wanted)).status_code == 404
    found = api.get(crud(author), params={"search": "Assigned", "sort": "-id"}).json()
    assert found["data"][0]["id"] == before + 1


def test_an_unknown_keys_choice_is_refused(api: Api) -> None:
    url = f"{_import_url(api)}?keys=maybe"
    response = api.post(url, content="id,name\n,Never\n", headers=CSV)
    assert response.status_code == 422
    assert response.json()["errors"] == {
        "keys": ["The keys field must be keep or assign."]
    }
