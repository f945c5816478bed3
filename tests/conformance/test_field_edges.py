"""Hypothesis over every field type's edges: bodies, filters, cursors, CSV — never 5xx.

Each example's resources get bodies whose fields hold edge values of every JSON type
(huge and negative integers, floats at the limits, long, blank, non-ASCII and control
text, dates and date-times at and past the calendar's ends, nested values); filters,
sorts, searches and cursors get the same; a CSV import gets edge cells. Whatever the
answer, it is never a 5xx, and a 2xx write reads back. Fixed seed, bounded examples
(``PANELFORGE_EDGE_EXAMPLES`` raises the count for a longer run on demand).
"""

from __future__ import annotations

import csv
import io
import os
from typing import Any

import pytest
from conftest import EXAMPLE_IDS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import ALL, sqlite_params
from .support import Api, Deployment, crud

EXAMPLES = int(os.environ.get("PANELFORGE_EDGE_EXAMPLES", "30"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
DATES = st.sampled_from(
    [
        "0001-01-01",
        "9999-12-31",
        "2024-02-29",
        "2023-02-29",
        "0000-01-01",
        "10000-01-01",
        "2024-13-01",
        "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59-01:00",
        "2024-01-01T24:00:00",
        "2024-01-01T00:00:00+25:00",
        "1704103200",
        "2024-01-01T00:00:00.9999999999Z",
    ]
)
EDGE_TEXT = ["", " ", "\x00", "\u202e", "😀" * 70, "%FF", "'; DROP TABLE x; --"]
# Query strings: what a URL can carry (httpx refuses 64 KiB queries itself).
QUERY_TEXT = st.text(max_size=300) | st.sampled_from(EDGE_TEXT)
TEXT = QUERY_TEXT | st.just("a" * 100_000)
NUMBERS = (
    st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([0, -0.0, 2**63, -(2**63) - 1, 1e308, 5e-324, 48.0])
)
SCALARS = st.none() | st.booleans() | NUMBERS | TEXT | DATES
VALUES = (
    SCALARS | st.lists(SCALARS, max_size=3) | st.dictionaries(TEXT, SCALARS, max_size=2)
)


def _never_5xx(response: Any, what: object) -> None:
    assert response.status_code < 500, (what, response.status_code, response.text[:500])


# Every deployment on SQLite; PostgreSQL (whose answers the rest of the conformance
# suite compares) on the first example, which has the most field kinds.
EDGE_DEPLOYMENTS = sqlite_params() + [
    param for param in ALL if param.id.endswith(f"-{EXAMPLE_IDS[0]}-postgres")
]


@pytest.fixture(params=EDGE_DEPLOYMENTS)
def edge_api(request: pytest.FixtureRequest, fleet: Any) -> Any:
    deployment: Deployment = fleet.get(*request.param)
    with deployment.api() as api:
        yield api


def test_bodies_at_the_edges_are_never_a_5xx(edge_api: Api) -> None:
    project = edge_api.project

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        resource = data.draw(st.sampled_from(project.resources))
        body = edge_api.payload(resource)
        for name in data.draw(st.sets(st.sampled_from(sorted(body) or ["x"]))):
            body[name] = data.draw(VALUES)
        created = edge_api.post(crud(resource), json=body)
        _never_5xx(created, body)
        if created.status_code == 201:
            key = created.json()["data"][resource.key]
            shown = edge_api.get(crud(resource, key))
            assert shown.status_code == 200, shown.text
            patch = {name: data.draw(VALUES) for name in list(body)[:1]}
            _never_5xx(
                edge_api.request("PATCH", crud(resource, key), json=patch), patch
            )

    run()


def test_list_parameters_at_the_edges_are_never_a_5xx(edge_api: Api) -> None:
    project = edge_api.project

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        resource = data.draw(st.sampled_from(project.resources))
        names = [f.name for f in resource.fields]
        value = st.one_of(QUERY_TEXT, DATES, NUMBERS.map(str))
        descending = st.sampled_from(names).map(lambda n: f"-{n}")
        params = {
            f"filter[{data.draw(st.sampled_from(names))}]": data.draw(value),
            "sort": data.draw(descending | QUERY_TEXT),
            "search": data.draw(QUERY_TEXT),
            "page": data.draw(NUMBERS.map(str) | QUERY_TEXT),
            "per_page": data.draw(NUMBERS.map(str)),
            "cursor": data.draw(QUERY_TEXT),
            "total": data.draw(st.sampled_from(["exact", "estimate", "none", "x"])),
        }
        chosen = data.draw(st.sets(st.sampled_from(sorted(params)), min_size=1))
        query = {name: params[name] for name in chosen}
        _never_5xx(edge_api.get(crud(resource), params=query), query)

    run()


def test_csv_cells_at_the_edges_are_never_a_5xx(edge_api: Api) -> None:
    project = edge_api.project

    @SETTINGS
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        resource = data.draw(st.sampled_from(project.resources))
        row = dict(edge_api.payload(resource))
        for name in data.draw(st.sets(st.sampled_from(sorted(row) or ["x"]))):
            row[name] = data.draw(st.one_of(TEXT, DATES, NUMBERS.map(str)))
        text = io.StringIO()
        writer = csv.DictWriter(text, fieldnames=list(row))
        writer.writeheader()
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
        url = f"/admin/resource/{resource.uri}/handler/import"
        answer = edge_api.post(
            url,
            content=text.getvalue().encode("utf-8", "surrogatepass"),
            headers={"Content-Type": "text/csv"},
        )
        _never_5xx(answer, row)

    run()
