"""Values formatted for people on the pages, raw everywhere else, on both frameworks.

One project per framework is generated from ``formatting/shelf.yaml`` (enum labels, a
date-time, a float, integers, a decimal) and served on SQLite; both run at once, so
the pages are also compared between them byte for byte (CSRF tokens aside).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge

from generator.manifest.load import load_manifest

from .support import HTML, PASSWORD, Api, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "formatting"
MANIFEST = load_manifest(HERE / "shelf.yaml")
EDITION = MANIFEST.resource("Edition")
ADMIN = "admin@example.com"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
RECORD = {
    "title": "Dune",
    "binding": "cloth",
    "grade": 3,
    "printed_at": "2026-01-02T03:04:05Z",
    "weight": 1234.5,
    "copies": 12345,
    "year": 1965,
    "price": "1234.50",
}
# What the record's cells show, in field order after the key.
SHOWN = [
    "Dune",
    "Cloth-bound",
    "Good &amp; rare",
    "2026-01-02 03:04 UTC",
    "1,234.5",
    "12,345",
    "1965",
    "1,234.50",
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Both frameworks' projects, served, each holding the same two records."""
    servers, made = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"formatting-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "shelf.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'shelf.db'}")
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.start()
        for server in servers:
            deployment = Deployment(
                server.framework, "shelf", "sqlite", MANIFEST, server
            )
            made[server.framework] = _records(deployment)
        yield made
    finally:
        for records in made.values():
            records["api"].client.close()
        for server in servers:
            server.stop()


def _records(deployment: Deployment) -> dict[str, Any]:
    api = Api(deployment)
    api.log_in(ADMIN, PASSWORD)
    keys = []
    for body in (RECORD, {"title": "Slim", "binding": "paper", "weight": 120.0}):
        response = api.post(crud(EDITION), json=body)
        assert response.status_code == 201, response.text
        keys.append(response.json()["data"]["id"])
    return {"api": api, "keys": keys}


def _html(records: dict[str, Any], url: str) -> str:
    response = records["api"].get(url, headers=HTML)
    assert response.status_code == 200, response.text
    return _TOKEN.sub(r"\1…", str(response.text))


def _cells(html: str, tag: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(rf"<{tag}[^>]*>(.*?)</{tag}>", html, re.S)
    ]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_selects_show_labels_and_send_values(
    served: dict[str, Any], framework: str
) -> None:
    records = served[framework]
    form = _html(records, page(EDITION, "form-page"))
    assert '<option value="paper">Paperback</option>' in form
    assert '<option value="cloth">Cloth-bound</option>' in form
    assert '<option value="1">Poor</option>' in form
    assert '<option value="2">2</option>' in form  # no label: the value
    assert '<option value="3">Good &amp; rare</option>' in form
    edit = _html(records, page(EDITION, "form-page", records["keys"][0]))
    assert '<option value="cloth" selected>Cloth-bound</option>' in edit
    listing = _html(records, page(EDITION, "index-page") + "?filter[binding]=cloth")
    assert '<option value="cloth" selected>Cloth-bound</option>' in listing
    assert "Binding is Cloth-bound <span" in listing  # the chip names the label


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_cells_show_values_formatted_for_people(
    served: dict[str, Any], framework: str
) -> None:
    records = served[framework]
    first, second = records["keys"]
    detail = _cells(_html(records, page(EDITION, "detail-page", first)), "dd")
    assert detail == [str(first), *SHOWN]
    listing = _html(records, page(EDITION, "index-page") + "?sort=id")
    cells = _cells(listing, "td")
    for text in SHOWN:
        assert text in cells, text
    slim = _cells(_html(records, page(EDITION, "detail-page", second)), "dd")
    assert slim[1:6] == ["Slim", "Paperback", "—", "—", "120"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_api_and_the_spec_keep_raw_values(
    served: dict[str, Any], framework: str
) -> None:
    records = served[framework]
    api = records["api"]
    data = api.get(crud(EDITION, records["keys"][0])).json()
    assert {k: data[k] for k in ("binding", "grade", "copies", "weight")} == {
        "binding": "cloth",
        "grade": 3,
        "copies": 12345,
        "weight": 1234.5,
    }
    listed = api.get(crud(EDITION) + "?filter[binding]=cloth").json()["data"]
    assert [row["binding"] for row in listed] == ["cloth"]
    handler = f"/admin/resource/{EDITION.uri}/handler"
    exported = api.get(f"{handler}/export?sort=id").text
    rows = list(csv.DictReader(io.StringIO(exported, newline="")))
    assert [(r["binding"], r["grade"], r["copies"]) for r in rows] == [
        ("cloth", "3", "12345"),
        ("paper", "", ""),
    ]
    route = "/" + MANIFEST.docs.route.strip("/")
    spec = api.get(route).json()
    properties = spec["components"]["schemas"]["Edition"]["properties"]
    assert properties["binding"]["enum"] == ["paper", "cloth"]
    assert properties["binding"]["x-enum-descriptions"] == ["Paperback", "Cloth-bound"]
    grade = properties["grade"]
    assert grade["x-enum-descriptions"][:3] == ["Poor", "2", "Good & rare"]
    assert len(grade["x-enum-descriptions"]) == len(grade["enum"])
    assert "x-enum-descriptions" not in properties["title"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_dashboard_shows_values_formatted_for_people(
    served: dict[str, Any], framework: str
) -> None:
    """Metric values as list cells show numbers (12,345 but 1965; no ``.0``; a
    decimal's own decimals), the latest records named with enum labels; the JSON
    keeps the values and the display's stored values."""
    records = served[framework]
    home = _html(records, "/admin")
    card = re.search(
        rf'<section class="dashboard-card" data-resource="{EDITION.uri}".*?</section>',
        home,
        re.S,
    )
    assert card, home[:3000]
    assert '<p class="dashboard-count" data-count="2">2 records</p>' in card[0]
    metrics = re.findall(r"<dt>(.*?)</dt>\s*<dd>(.*?)</dd>", card[0])
    assert metrics == [
        ("Editions", "2"),
        ("Copies", "12,345"),
        ("Average copies", "12,345"),
        ("Average weight", "677.25"),
        ("Stock value", "1,234.50"),
        ("Years added up", "1965"),
    ]
    assert _cells(card[0], "li") == ["Slim (Paperback)", "Dune (Cloth-bound)"]
    dashboard = records["api"].get("/admin/dashboard").json()["resources"][0]
    assert [m["value"] for m in dashboard["metrics"]] == [
        2,
        12345,
        12345.0,
        677.25,
        "1234.50",
        1965,
    ]
    assert [r["label"] for r in dashboard["latest"]] == [
        "Slim (Paperback)",
        "Dune (Cloth-bound)",
    ]
    heading = _html(records, page(EDITION, "detail-page", records["keys"][0]))
    assert "<h1>Edition Dune (cloth)</h1>" in heading  # names elsewhere: as stored


def test_both_frameworks_serve_the_same_pages(served: dict[str, Any]) -> None:
    django, fastapi = served["django"], served["fastapi"]
    assert django["keys"] == fastapi["keys"]
    key = fastapi["keys"][0]
    for url in (
        "/admin",
        page(EDITION, "form-page"),
        page(EDITION, "form-page", key),
        page(EDITION, "index-page") + "?filter[binding]=cloth",
        page(EDITION, "detail-page", key),
    ):
        assert _html(django, url) == _html(fastapi, url), url
