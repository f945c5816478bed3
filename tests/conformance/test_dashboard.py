"""The dashboard (the panel's home) and its JSON, the same on both frameworks.

One project per framework is generated from ``dashboard/shop.yaml`` (two roles, a
scope on orders: ``dashboard/<framework>/order.py``, orders in a trash, six metrics)
and served, both at once, on SQLite and then on PostgreSQL. Every test does the same
to both, so both databases hold the same rows. ``GET /admin/dashboard`` answers per
resource the user may list its count (equal to the JSON list's total), its latest
records newest first (trashed ones left out), ``create_url`` only with the create
ability, and the metrics, which the tests work out themselves from the orders the
list answers; the home page shows the same, byte for byte alike on both frameworks,
with the recent changes of the records the user may view (the guest's scope hides two).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from decimal import Decimal
from html import escape
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    FRAMEWORKS,
    REPO,
    SERVERS,
    Server,
    postgres_database,
    run_panelforge,
)

from generator.manifest.load import load_manifest
from generator.spec.validate import spec_problems

from .support import HTML, PASSWORD, Api, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "dashboard"
MANIFEST = load_manifest(HERE / "shop.yaml")
CUSTOMER, ORDER = (MANIFEST.resource(n) for n in ("Customer", "Order"))
DASHBOARD = "/admin/dashboard"
ADMIN = "admin@example.com"
GUEST = "guest@guest.test"  # an admin whose scope hides the "Hidden…" orders
READER = "reader@example.com"
ROLES = {"clerk@example.com": "clerk", READER: "reader"}
LATEST = 5
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
_TIME = re.compile(r"<time>[^<]*</time>")


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def servers(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Deployment]]:
    """Each framework's shop, served on the database the test names."""
    database: str = request.param
    started: list[Server] = []
    with ExitStack() as stack:
        try:
            for framework in FRAMEWORKS:
                folder = tmp_path_factory.mktemp(f"dashboard-{framework}")
                url = f"sqlite:///{folder / 'shop.db'}"
                if database == "postgres":
                    url = stack.enter_context(postgres_database())
                started.append(_served(framework, folder / "project", url))
            yield {
                server.framework: Deployment(
                    server.framework, "shop", database, MANIFEST, server
                )
                for server in started
            }
        finally:
            for server in started:
                server.stop()


def _served(framework: str, project: Path, url: str) -> Server:
    """The shop project of ``framework``, migrated, with its users, started."""
    result = run_panelforge(
        "generate", str(HERE / "shop.yaml"), "-o", str(project),
        "--framework", framework, "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    shutil.copyfile(HERE / framework / "order.py", project / "app/hooks/order.py")
    server = SERVERS[framework](project, url)
    server.migrate()
    server.create_user(ADMIN, PASSWORD)
    for email, role in ((GUEST, "admin"), *ROLES.items()):
        server.run_app(
            "create-user", email, "--role", role, "--password-stdin", input=PASSWORD
        )
    server.start()
    return server


def _api(deployment: Deployment, email: str = ADMIN) -> Api:
    api = Api(deployment)
    api.log_in(email, PASSWORD)
    return api


@pytest.fixture(scope="module")
def shop(servers: dict[str, Deployment]) -> dict[str, Deployment]:
    """The same customers and orders in both shops: open and paid orders, one in
    the trash, two hidden from guests, made out of ``created_at`` order."""
    for deployment in servers.values():
        with _api(deployment) as api:
            customer = _made(api, CUSTOMER, name="Ada")
            for n in range(1, 4):
                _made(api, CUSTOMER, name=f"Customer {n}")
            orders = [
                ("A-1", "open", "10.10", 1, 1.5, "2026-01-03T10:00:00Z"),
                ("A-2", "paid", "20.25", 2, 2.25, "2026-01-01T10:00:00Z"),
                ("A-3", "open", "0.10", 3, None, "2026-01-07T10:00:00Z"),
                ("A-4", "open", "0.20", 0, 0.1, "2026-01-02T10:00:00Z"),
                ("Hidden-1", "paid", "99.99", 5, 3.0, "2026-01-09T10:00:00Z"),
                ("Hidden-2", "open", "1000.00", 7, 0.2, "2026-01-04T10:00:00Z"),
                ("A-5", "paid", None, 4, 1.0, "2026-01-05T10:00:00Z"),
                ("A-6", "open", "3.33", None, 0.7, "2026-01-08T10:00:00Z"),
                ("Trashed", "open", "500.00", 9, 9.0, "2026-01-10T10:00:00Z"),
            ]
            for reference, status, total, items, weight, created in orders:
                key = _made(
                    api, ORDER, reference=reference, status=status, total=total,
                    items=items, weight=weight, customer=customer, created_at=created,
                )  # fmt: skip
            response = api.request("DELETE", crud(ORDER, key))  # "Trashed", the last
            assert response.status_code == 200, response.text
    return servers


def _made(api: Api, resource: Any, **body: Any) -> Any:
    response = api.post(crud(resource), json=body)
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _dashboard(deployment: Deployment, email: str = ADMIN) -> dict[str, Any]:
    with _api(deployment, email) as api:
        response = api.get(DASHBOARD)
        assert response.status_code == 200, response.text
        assert response.headers["content-type"].startswith("application/json")
        return {r["name"]: r for r in response.json()["resources"]}


def _listed(deployment: Deployment, email: str = ADMIN) -> list[dict[str, Any]]:
    """Every live order the user may reach, as the JSON list answers them."""
    with _api(deployment, email) as api:
        body = api.get(crud(ORDER), params={"per_page": 100}).json()
        assert body["total"] == len(body["data"])
        return body["data"]


def _same(answers: dict[str, Any]) -> Any:
    assert answers["django"] == answers["fastapi"]
    return answers["fastapi"]


def test_counts_equal_the_list_totals(shop: dict[str, Deployment]) -> None:
    answers = {}
    for framework, deployment in shop.items():
        found = _dashboard(deployment)
        with _api(deployment) as api:
            for resource in (CUSTOMER, ORDER):
                total = api.get(crud(resource)).json()["total"]
                assert found[resource.name]["count"] == total, framework
                assert found[resource.name]["count_is_estimate"] is False
        answers[framework] = {n: r["count"] for n, r in found.items()}
    assert _same(answers) == {"Customer": 4, "Order": 8}  # "Trashed" left out


def test_latest_records_newest_first_without_the_trashed(
    shop: dict[str, Deployment],
) -> None:
    answers = {}
    for framework, deployment in shop.items():
        found = _dashboard(deployment)
        orders = found["Order"]["latest"]
        listed = _listed(deployment)
        by_key = {o["id"]: o for o in listed}
        newest = sorted(listed, key=lambda o: o["created_at"], reverse=True)
        assert [o["key"] for o in orders] == [o["id"] for o in newest[:LATEST]]
        for entry in orders:
            assert entry["label"] == by_key[entry["key"]]["reference"]
            assert entry["url"] == page(ORDER, "detail-page", entry["key"])
        customers = found["Customer"]["latest"]  # no created_at: by key
        assert [c["key"] for c in customers] == sorted(
            (c["key"] for c in customers), reverse=True
        )
        answers[framework] = [
            [e["label"] for e in found[n]["latest"]] for n in ("Order", "Customer")
        ]
    assert _same(answers) == [
        ["Hidden-1", "A-6", "A-3", "A-5", "Hidden-2"],
        ["Customer 3", "Customer 2", "Customer 1", "Ada"],
    ]


def _metrics(orders: list[dict[str, Any]]) -> dict[str, Any]:
    """The six metrics of shop.yaml, worked out from the orders."""
    totals = [Decimal(o["total"]) for o in orders if o["total"] is not None]
    weights = [o["weight"] for o in orders if o["weight"] is not None]
    open_orders = [o for o in orders if o["status"] == "open"]
    return {
        "orders": len(orders),
        "open_orders": len(open_orders),
        "open_value": str(
            sum((Decimal(o["total"]) for o in open_orders if o["total"]), Decimal(0))
        ),
        "average_total": str((sum(totals) / len(totals)).quantize(Decimal("0.01"))),
        "paid_items": sum(o["items"] or 0 for o in orders if o["status"] == "paid"),
        "average_weight": round(sum(weights) / len(weights), 2),
    }


def test_metrics_are_worked_out_from_the_rows(shop: dict[str, Deployment]) -> None:
    answers = {}
    for framework, deployment in shop.items():
        for email in (ADMIN, GUEST):
            found = _dashboard(deployment, email)["Order"]["metrics"]
            values = {m["name"]: m["value"] for m in found}
            assert values == _metrics(_listed(deployment, email)), (framework, email)
        answers[framework] = found
    cards = _same(answers)
    assert [(m["label"], m["display"]) for m in cards] == [
        ("Orders", "6"),
        ("Open orders", "4"),
        ("Open value", "13.73"),
        ("Average order", "6.80"),
        ("Items paid for", "6"),
        ("Average weight", "1.11"),
    ]


def test_a_scope_limits_the_counts(shop: dict[str, Deployment]) -> None:
    for framework, deployment in shop.items():
        everything = _dashboard(deployment)["Order"]
        scoped = _dashboard(deployment, GUEST)["Order"]
        assert scoped["count"] == len(_listed(deployment, GUEST)), framework
        assert everything["count"] - scoped["count"] == 2  # Hidden-1 and Hidden-2
        labels = [e["label"] for e in scoped["latest"]]
        assert labels == ["A-6", "A-3", "A-5", "A-1", "A-4"], framework


def test_add_links_follow_the_create_ability(shop: dict[str, Deployment]) -> None:
    for framework, deployment in shop.items():
        admin = _dashboard(deployment)
        assert admin["Order"]["create_url"] == page(ORDER, "form-page")
        assert admin["Customer"]["create_url"] == page(CUSTOMER, "form-page")
        clerk = _dashboard(deployment, "clerk@example.com")
        assert clerk["Order"]["create_url"] == page(ORDER, "form-page"), framework
        assert clerk["Customer"]["create_url"] is None, framework
        reader = _dashboard(deployment, "reader@example.com")
        assert list(reader) == ["Order"], framework  # may not list customers
        assert reader["Order"]["create_url"] is None
        # Without the view ability the latest orders are named, not linked.
        assert [e["url"] for e in reader["Order"]["latest"]] == [None] * LATEST
        home = _home(deployment, "clerk@example.com")
        assert f'href="{page(ORDER, "form-page")}">Add Order</a>' in home
        assert "Add Customer" not in home
        with _api(deployment, "clerk@example.com") as api:
            form = api.get(page(ORDER, "form-page"), headers=HTML)
            assert form.status_code == 200
            refused = api.get(page(CUSTOMER, "form-page"), headers=HTML)
            assert refused.status_code == 403
        home = _home(deployment, "reader@example.com")
        assert "Add Order" not in home
        assert page(ORDER, "detail-page") not in home
        assert page(CUSTOMER, "index-page") not in home


def _home(deployment: Deployment, email: str = ADMIN) -> str:
    with _api(deployment, email) as api:
        response = api.get("/admin", headers=HTML)
        assert response.status_code == 200, response.text
        return _TIME.sub("<time>…</time>", _TOKEN.sub(r"\1…", response.text))


def test_the_home_page_shows_the_dashboard_alike_on_both_frameworks(
    shop: dict[str, Deployment],
) -> None:
    pages = {framework: _home(d) for framework, d in shop.items()}
    home = _same(pages)
    found = _dashboard(shop["fastapi"])
    for name, summary in found.items():
        card = home.split(f'data-resource="{summary["uri"]}"', 1)[1]
        card = card.split("</section>", 1)[0]
        assert f'data-count="{summary["count"]}"' in card, name
        for entry in summary["latest"]:
            assert f'<a href="{entry["url"]}">{escape(entry["label"])}</a>' in card
        for metric in summary["metrics"]:
            assert f"<dd>{escape(metric['display'])}</dd>" in card
        assert f"Add {summary['label']}" in card
    # The latest ten changes; orders in the trash are not there (their scope).
    assert _recent(home) == [
        "A-6", "A-5", "Hidden-2", "Hidden-1", "A-4", "A-3", "A-2", "A-1",
        "Customer 3", "Customer 2",
    ]  # fmt: skip
    assert "Order <a href=" in home and "created by admin@example.com" in home
    guest = _same({framework: _home(d, GUEST) for framework, d in shop.items()})
    assert _recent(guest) == [
        "A-6", "A-5", "A-4", "A-3", "A-2", "A-1",
        "Customer 3", "Customer 2", "Customer 1", "Ada",
    ]  # fmt: skip
    reader = _same({framework: _home(d, READER) for framework, d in shop.items()})
    assert "No changes yet." in reader  # may view neither customers nor orders


def _recent(home: str) -> list[str]:
    """The records named in the home page's recent changes, newest first."""
    recent = home.split('<section class="recent-changes box"', 1)[1]
    recent = recent.split("</section>", 1)[0]
    return re.findall(r'<a href="[^"]*">([^<]*)</a> \w+ by ', recent)


def test_the_spec_describes_the_dashboard(shop: dict[str, Deployment]) -> None:
    specs = {}
    for framework, deployment in shop.items():
        with _api(deployment) as api:
            specs[framework] = api.get("/oag.json").json()
            # A browser asking for the JSON is sent to the page.
            answer = api.get(DASHBOARD, headers=HTML)
            assert answer.status_code == 303, framework
            assert answer.headers["location"] == "/admin"
    spec = _same(specs)
    assert spec_problems(spec) == []
    operation = spec["paths"][DASHBOARD]["get"]
    assert operation["operationId"] == "dashboard"
    schema = spec["components"]["schemas"]["PanelDashboardResource"]
    assert set(schema["required"]) >= {"name", "uri", "count", "count_is_estimate"}
