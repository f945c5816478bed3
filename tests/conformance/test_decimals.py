"""Exact decimals (``format: decimal``) through the served API, on both frameworks.

The library's ``Book.price`` is NUMERIC(10, 2). One example per framework, on SQLite
and on PostgreSQL: values go in as text or as JSON numbers read from their text, come
back as text with two decimals, are never rounded (too many decimals is a 422 naming
the field), and sort and filter as numbers.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FRAMEWORKS

from .conftest import MANIFESTS, MARKS
from .support import HTML, Api, crud, new_marker, page

BOOK = MANIFESTS["library"].resource("Book")
PARAMS = [
    pytest.param(
        (framework, "library", database),
        id=f"{framework}-library-{database}",
        marks=MARKS.get(database, []),
    )
    for framework in FRAMEWORKS
    for database in ("sqlite", "postgres")
]
TOO_PRECISE = {"price": ["The Price field must have at most 2 decimal places."]}


@pytest.fixture(params=PARAMS)
def api(request: pytest.FixtureRequest, fleet: Any) -> Iterator[Api]:
    """A logged-in JSON client of the library example."""
    with fleet.get(*request.param).api() as client:
        yield client


def _post_raw(api: Api, body: str) -> Any:
    """A create whose body is sent as written (JSON numbers keep their digits)."""
    headers = {"Content-Type": "application/json"}
    return api.post(crud(BOOK), content=body.encode(), headers=headers)


def _book(api: Api, marker: str, price: Any) -> str:
    """A create body, as JSON text, with ``price`` written in it as given."""
    body = {**api.payload(BOOK, 1, marker), "price": "PRICE"}
    return json.dumps(body).replace('"PRICE"', price)


def test_values_round_trip_exactly(api: Api) -> None:
    marker = new_marker()
    for sent, kept in [
        ('"12.30"', "12.30"),
        ('"12345678.90"', "12345678.90"),  # 10 digits: more than a float keeps
        ("12.3", "12.30"),  # a JSON number, read from its text
        ("99999999.99", "99999999.99"),
        ('"7"', "7.00"),
    ]:
        created = _post_raw(api, _book(api, marker, sent))
        assert created.status_code == 201, (sent, created.text)
        record = created.json()["data"]
        assert record["price"] == kept, sent
        shown = api.get(crud(BOOK, record["id"]))
        assert shown.json()["price"] == kept, sent


def test_too_many_digits_are_refused_not_rounded(api: Api) -> None:
    marker = new_marker()
    for sent in [
        '"12.345"',
        "12.345",
        # A float would read this as 0.1 and let it in.
        "0.1000000000000000055511151231257827",
    ]:
        refused = _post_raw(api, _book(api, marker, sent))
        assert refused.status_code == 422, sent
        assert refused.json()["errors"] == TOO_PRECISE, sent
    too_large = _post_raw(api, _book(api, marker, '"123456789.00"'))
    assert too_large.status_code == 422
    assert too_large.json()["errors"] == {
        "price": [
            "The Price field must have at most 8 digits before the decimal point."
        ]
    }


def test_sorted_and_filtered_as_numbers(api: Api) -> None:
    marker = new_marker()
    for price in ('"100.50"', '"9.99"', '"10.00"'):
        assert _post_raw(api, _book(api, marker, price)).status_code == 201
    listed = api.get(crud(BOOK), params={"search": marker, "sort": "price"})
    prices = [record["price"] for record in listed.json()["data"]]
    assert prices == ["9.99", "10.00", "100.50"]  # as text: 10.00, 100.50, 9.99
    for wanted in ("10", "10.00", "10.0"):
        params = {"search": marker, "filter[price]": wanted}
        found = api.get(crud(BOOK), params=params).json()["data"]
        assert [record["price"] for record in found] == ["10.00"], wanted


def test_forms_and_csv_show_and_take_the_exact_value(api: Api) -> None:
    marker = new_marker()
    created = _post_raw(api, _book(api, marker, '"12345678.90"')).json()["data"]
    form = api.get(page(BOOK, "form-page", created["id"]), headers=HTML).text
    assert 'value="12345678.90"' in form
    handler = f"/admin/resource/{BOOK.uri}/handler"
    exported = api.get(f"{handler}/export", params={"search": marker}).text
    [row] = csv.DictReader(io.StringIO(exported))
    assert row["price"] == "12345678.90"
    rows = f"title,price\n{marker} import,0.10\n"
    answer = api.post(
        f"{handler}/import",
        content=rows.encode(),
        headers={"Content-Type": "text/csv"},
    )
    assert answer.status_code < 400, answer.text
    found = api.get(crud(BOOK), params={"search": f"{marker} import"}).json()
    assert [record["price"] for record in found["data"]] == ["0.10"]
    refused = api.post(
        f"{handler}/import",
        content=rows.replace("0.10", "0.105").encode(),
        headers={"Content-Type": "text/csv"},
    )
    assert refused.status_code == 422, refused.text
    assert "at most 2 decimal places" in refused.text
